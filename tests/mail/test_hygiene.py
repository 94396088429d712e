"""Mail hygiene: who gets an answer, how many, and what never changes the game.

Spoofed senders and wrong passwords, unknown senders, a guessing address, a flood of 200 mails,
vacation responders answering our answers (in the service, and over real mail servers marked
e2e), and mails too big to read.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
from email.message import EmailMessage
from pathlib import Path

import aiosmtplib
import pytest
from harness import (
    A_ROAD,
    ANNA,
    BERND,
    GM,
    PLAYERS,
    Games,
    Mailer,
    eventually,
    make_service,
    start_game,
)
from sqlmodel import Session, col, select

import pbm.service.dispatch as dispatch
from pbm.config.model import ImapSection
from pbm.devservers.loopback import LoopbackMail
from pbm.mail.imap import ImapInbox
from pbm.notation import Context
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.ingest import ingest
from pbm.service.secrets import masked_raw
from pbm.service.serve import serve
from pbm.store.db import transaction
from pbm.store.models import InboundMail, OrderSet, Outbox

STRANGER = "mallory@evil.test"


@pytest.fixture
def ctx(games: Games) -> Context:
    return games.start(cast=True).ctx


def orders(address: str, password: str | None = None) -> str:
    pw = PLAYERS[address][0] if password is None else password
    return f"Kennwort: {pw}\nRunde: 1\n{A_ROAD[address]}\n"


def outbox(svc: Service) -> list[Outbox]:
    with Session(svc.engine) as s:
        return list(s.exec(select(Outbox).order_by(col(Outbox.id))))


def answers_to(svc: Service, message_id: str) -> list[Outbox]:
    return [o for o in outbox(svc) if o.in_reply_to == message_id]


def order_sets(svc: Service) -> list[OrderSet]:
    with Session(svc.engine) as s:
        return list(s.exec(select(OrderSet).order_by(col(OrderSet.id))))


def stored(svc: Service) -> list[InboundMail]:
    with Session(svc.engine) as s:
        return list(s.exec(select(InboundMail).order_by(col(InboundMail.id))))


def game_state(svc: Service) -> str:
    with Session(svc.engine) as s:
        return get_game(s, "alpha").state


# -- who is writing -----------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_spoofed_from_with_a_wrong_password_changes_nothing(
    svc: Service, ctx: Context, mailer: Mailer
) -> None:
    """Someone writes as Anna (From forged, Reply-To theirs) with a guessed password: nothing
    changes, and the only answer goes to Anna's registered address."""
    state, sets, rows = game_state(svc), len(order_sets(svc)), len(outbox(svc))
    mid, raw = mailer.mail(
        f"Anna Müller <{ANNA}>",
        "Züge",
        orders(ANNA, "tulpe-000000"),
        {"Reply-To": STRANGER, "Sender": STRANGER},
    )
    result = ingest(svc, raw)
    assert result.status == "done" and result.game is None
    assert game_state(svc) == state
    assert len(order_sets(svc)) == sets
    new = outbox(svc)[rows:]
    assert [(o.kind, o.recipients) for o in new] == [("error", ANNA)]
    assert new[0].in_reply_to == mid
    assert "Kennwort" in new[0].body and "Nichts wurde geändert" in new[0].body
    assert all(STRANGER not in o.recipients for o in outbox(svc))
    assert stored(svc)[-1].error == "bad password"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("hint", ["body", "subject", "none"])
def test_a_wrong_password_from_an_unknown_address_gets_no_answer(
    svc: Service, ctx: Context, mailer: Mailer, hint: str
) -> None:
    body = ("Spiel: alpha\n" if hint == "body" else "") + orders(ANNA, "tulpe-123456")
    subject = "[alpha] Züge" if hint == "subject" else "Züge"
    state, sets, rows = game_state(svc), len(order_sets(svc)), len(outbox(svc))
    _, raw = mailer.mail(STRANGER, subject, body)
    ingest(svc, raw)
    assert game_state(svc) == state
    assert len(order_sets(svc)) == sets
    assert outbox(svc)[rows:] == [], "an unknown sender of orders with a password is not answered"


@pytest.mark.timeout(30)
def test_another_players_password_acts_for_that_player_only(
    svc: Service, ctx: Context, mailer: Mailer
) -> None:
    """Anna's address with Bernd's password: the orders are Bernd's seat's, and the
    acknowledgement goes to Bernd's registered address, not to the sender."""
    rows = len(outbox(svc))
    _, raw = mailer.mail(ANNA, "Züge", f"Kennwort: {PLAYERS[BERND][0]}\n{A_ROAD[BERND]}\n")
    assert ingest(svc, raw).status == "done"
    assert [(o.kind, o.recipients) for o in outbox(svc)[rows:]] == [("ack", BERND)]


@pytest.mark.timeout(60)
def test_five_wrong_passwords_in_an_hour_silence_the_address(
    svc: Service, clock: FakeClock, ctx: Context, mailer: Mailer
) -> None:
    answered: list[bool] = []
    for i in range(8):
        mid, raw = mailer.mail(ANNA, "Züge", orders(ANNA, f"rot-{100000 + i}"))
        ingest(svc, raw)
        answered.append(bool(answers_to(svc, mid)))
        clock.advance(minutes=5)
    assert answered[:4] == [True] * 4
    assert answered[5:] == [False] * 3, answered
    assert sum(answered) <= 5
    assert len(order_sets(svc)) == 0

    # The right password still counts within that hour: the orders are taken.
    _, raw = mailer.mail(ANNA, "Züge", orders(ANNA))
    assert ingest(svc, raw).game == "alpha"
    assert len(order_sets(svc)) == 1

    # An hour after the guessing stopped, a wrong password is answered again.
    clock.advance(minutes=61)
    mid, raw = mailer.mail(ANNA, "Züge", orders(ANNA, "rot-999999"))
    ingest(svc, raw)
    assert [o.recipients for o in answers_to(svc, mid)] == [ANNA]


# -- floods and loops -----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(90)
@pytest.mark.parametrize("kind", ["orders", "help-from-a-stranger"])
def test_a_flood_of_200_mails_in_an_hour(
    svc: Service, clock: FakeClock, ctx: Context, mailer: Mailer, kind: str
) -> None:
    sender = ANNA if kind == "orders" else STRANGER
    before = len(stored(svc))
    ids = []
    for _ in range(200):
        mid, raw = mailer.mail(
            sender,
            "Züge" if kind == "orders" else "Hilfe",
            orders(ANNA) if kind == "orders" else "Hilfe\nSpiel: alpha\n",
        )
        result = ingest(svc, raw)
        assert result.status == "done" and not result.duplicate
        ids.append(mid)
        clock.advance(seconds=15)  # 200 mails in 50 minutes
    flood = stored(svc)[before:]
    assert [m.message_id for m in flood] == ids, "every mail is stored"
    answered = [mid for mid in ids if answers_to(svc, mid)]
    if kind == "orders":
        # Mails with the seat's right password are always answered (forged mails must not be
        # able to use up the player's answers; only the password's owner can send these).
        assert answered == ids, "authenticated orders are always answered"
    else:
        assert answered == ids[:20], "answers stop at rate_limit_per_hour (20)"
    assert all(o.recipients == sender for mid in answered for o in answers_to(svc, mid))
    if kind == "orders":
        current = [o for o in order_sets(svc) if not o.superseded]
        assert len(current) == 1 and current[0].mail_id == flood[-1].id, (
            "the newest orders count, answered or not"
        )

    # Others are answered as usual meanwhile.
    mid, raw = mailer.mail(BERND, "Züge", orders(BERND))
    ingest(svc, raw)
    assert [o.recipients for o in answers_to(svc, mid)] == [BERND]

    # An hour after the first answers, the sender is answered again.
    clock.advance(minutes=15)
    mid, raw = mailer.mail(sender, "Hilfe", "Hilfe\nSpiel: alpha\n")
    ingest(svc, raw)
    assert [o.recipients for o in answers_to(svc, mid)] == [sender]


RESPONDERS = {
    "gmail-vacation": {"Auto-Submitted": "auto-replied"},
    "exchange-oof": {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"},
    "gmx-autoreply": {"X-Autoreply": "yes"},
    "old-vacation": {"Precedence": "bulk"},
    "list-expander": {"Precedence": "list", "List-Id": "<anna.lists.test>"},
}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("style", [*RESPONDERS, "no-headers"])
def test_an_auto_reply_storm_stops(
    svc: Service, clock: FakeClock, ctx: Context, mailer: Mailer, style: str
) -> None:
    """Anna's responder answers every mail she gets from us, quoting it. A responder that marks
    its mails (RFC 3834 and the usual headers) is never answered: one answer in all. One that
    marks nothing is stopped by the rate limit."""
    headers = RESPONDERS.get(style, {})
    earlier = len(outbox(svc))
    _, raw = mailer.mail(ANNA, "Züge", orders(ANNA))
    ingest(svc, raw)
    responded: set[int] = set()
    for _ in range(40):
        todo = [
            o
            for o in outbox(svc)[earlier:]
            if ANNA in o.recipients.split(",") and o.id not in responded
        ]
        if not todo:
            break
        for o in todo:
            assert o.id is not None
            responded.add(o.id)
            _, raw = mailer.mail(
                ANNA,
                f"Abwesend: {o.subject}",
                "Ich bin bis 20.1. nicht da.\n\n"
                + "".join(f"> {line}\n" for line in o.body.splitlines()),
                {**headers, "In-Reply-To": o.message_id},
            )
            ingest(svc, raw)
            clock.advance(seconds=30)
    answers = [o for o in outbox(svc)[earlier:] if o.recipients == ANNA]
    if style == "no-headers":
        assert len(answers) <= 20
    else:
        assert len(answers) == 1, [(o.kind, o.subject) for o in answers]
        assert all(m.status == "ignored" for m in stored(svc) if m.subject.startswith("Abwesend"))


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(60)
def test_an_auto_reply_storm_over_real_mail_stops_after_one_answer(tmp_path: Path) -> None:
    asyncio.run(_storm(tmp_path))


async def _storm(tmp_path: Path) -> None:
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    start_game(Mailer(svc), clock, cast=True)
    with transaction(svc.engine) as s:  # what the game sent so far is out of the way
        earlier = len(list(s.exec(select(Outbox))))
        for row in s.exec(select(Outbox)):
            row.status = "sent"
    lb = LoopbackMail()
    await lb.start()
    await lb.add_user(GM, "pw")
    await lb.add_user(ANNA, "pw")
    svc.config = svc.config.updated(
        imap={"port": lb.imap.port, "user": GM, "password": "pw"},
        smtp={"port": lb.smtp_port, "from": GM},
        service={"poll_seconds": 0.5, "tick_seconds": 60, "send_seconds": 0.2},
    )
    stop = asyncio.Event()
    server = asyncio.create_task(serve(svc, stop))
    replies: list[str] = []

    async def responder() -> None:
        """Anna's vacation message: answers every mail in her inbox, as RFC 3834 asks."""
        box = ImapInbox(ImapSection(port=lb.imap.port, user=ANNA, password="pw", idle=False))
        await box.connect()
        try:
            while not stop.is_set():
                for uid in await box.unseen():
                    raw = await box.fetch(uid)
                    assert raw is not None
                    got = email.message_from_bytes(raw, policy=email.policy.default)
                    answer = EmailMessage()
                    answer["From"], answer["To"] = ANNA, str(got["From"])
                    answer["Subject"] = f"Abwesend: {got['Subject']}"
                    answer["In-Reply-To"] = str(got["Message-ID"])
                    answer["Auto-Submitted"] = "auto-replied"
                    answer.set_content("Ich bin bis 20.1. nicht da.\n")
                    await aiosmtplib.send(answer, hostname="127.0.0.1", port=lb.smtp_port)
                    replies.append(str(got["Subject"]))
                    await box.done(uid)
                await asyncio.sleep(0.2)
        finally:
            await box.close()

    auto = asyncio.create_task(responder())
    try:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = ANNA, GM, "Züge"
        msg["Message-ID"] = "<storm-1@web.test>"
        msg.set_content(orders(ANNA))
        await aiosmtplib.send(msg, hostname="127.0.0.1", port=lb.smtp_port)
        await eventually(lambda: len(replies) >= 1, 30, "the first auto-reply")
        await eventually(
            lambda: any(m.subject.startswith("Abwesend") for m in stored(svc)),
            30,
            "the auto-reply to be read",
        )
        await asyncio.sleep(3)  # a storm would be well under way by now
    finally:
        stop.set()
        await asyncio.wait_for(server, 20)
        await asyncio.wait_for(auto, 20)
        await lb.stop()
    answers = [o for o in outbox(svc)[earlier:] if o.recipients == ANNA]
    assert len(answers) == 1 and answers[0].status == "sent"
    assert len(replies) == 1
    svc.engine.dispose()


# -- size ------------------------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_a_mail_over_max_mail_kb_is_refused_politely_without_parsing(
    svc: Service, ctx: Context, mailer: Mailer, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed_sizes: list[int] = []
    parse_mail = dispatch.parse_mail

    def spy(body: str, *args: object, **kw: object):  # type: ignore[no-untyped-def]
        parsed_sizes.append(len(body))
        return parse_mail(body, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(dispatch, "parse_mail", spy)
    limit = svc.config.service.max_mail_kb * 1024
    filler = "".join(f"# Zeile {i}: Straße, Räuber, Grüße aus Köln\n" for i in range(8000))
    assert len(filler.encode()) > limit
    mid, raw = mailer.mail(ANNA, "Züge", orders(ANNA) + filler)
    result = ingest(svc, raw)
    assert result.status == "done"
    assert max(parsed_sizes, default=0) < limit, "the big text was never parsed"
    assert order_sets(svc) == []
    (answer,) = answers_to(svc, mid)
    assert (answer.kind, answer.recipients) == ("error", ANNA)
    assert f"{svc.config.service.max_mail_kb} KB" in answer.body
    kept = stored(svc)[-1].raw
    assert kept == masked_raw(raw, PLAYERS[ANNA][0]), "kept whole for the GM, the password masked"
    assert PLAYERS[ANNA][0].encode() not in kept


@pytest.mark.timeout(60)
def test_a_big_attachment_does_not_make_a_mail_too_big(
    svc: Service, ctx: Context, mailer: Mailer
) -> None:
    """The limit is on the text: a small order mail with a 1 MB photo attached is read."""
    mid, raw = mailer.mail(ANNA, "Züge", orders(ANNA))
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    msg.add_attachment(
        bytes(range(256)) * 4096, maintype="image", subtype="jpeg", filename="brett.jpg"
    )
    assert len(msg.as_bytes()) > 1024 * 1024
    ingest(svc, msg.as_bytes())
    assert [o.kind for o in answers_to(svc, mid)] == ["ack"]
    assert len(order_sets(svc)) == 1
