"""What the service does with the awkward mails: duplicates, late orders, wrong rounds, wrong
passwords, replacements, auto-replies, and mails that crash the handler."""

from __future__ import annotations

from typing import Any

import pytest
from databases import (
    game_row,
    game_state,
    inbound,
    order_sets,
    outbox,
    passwords,
    records,
    replies_to,
    seated,
)
from harness import (
    Games,
    Mailer,
    new_game,
    orders_text,
    pass_deadline,
    play_round,
    send_orders,
    setup_text,
    signup,
)
from sqlmodel import Session

import pbm.service.ingest as ingest_module
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.ingest import ingest, pending_mail_ids, recover, requeue
from pbm.service.tick import tick
from pbm.store import codec
from pbm.store.models import InboundMail

REPLACES = "Diese Mail ersetzt deine früheren Züge"


@pytest.fixture
def round1(svc: Service, clock: FakeClock, mailer: Mailer, games: Games) -> dict[str, str]:
    """A game of four at the start of round 1; returns the passwords by address."""
    games.start("alpha")
    return passwords(svc)


def _orders_mail(
    svc: Service,
    mailer: Mailer,
    seat: int,
    pw: dict[str, str],
    round_: int | None = None,
    password: str | None = None,
) -> tuple[str, bytes]:
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[seat]
    body = orders_text(st, seat, password if password is not None else pw[p.address], round_)
    if password == "":
        body = body.split("\n", 1)[1]  # no password line at all
        assert "Kennwort" not in body
    return p.address, mailer.raw(p.address, f"Züge Runde {st.round}", body)


def _unchanged(svc: Service, before: tuple[Any, ...]) -> None:
    assert _snapshot(svc) == before


def _snapshot(svc: Service) -> tuple[Any, ...]:
    game = game_row(svc, "alpha")
    return (
        game.state,
        game.round,
        game.phase,
        len(order_sets(svc, "alpha")),
        len(records(svc, "alpha")),
        sorted((p.seat, p.autopilot, p.nmr_count, p.status) for p in seated(svc, "alpha").values()),
    )


def test_duplicate_message_id_is_processed_once(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    _, raw = _orders_mail(svc, mailer, 0, round1)
    first = ingest(svc, raw)
    second = ingest(svc, raw)
    assert (first.duplicate, first.status) == (False, "done")
    assert (second.duplicate, second.status) == (True, "duplicate")
    assert second.mail_id == first.mail_id
    assert len(inbound(svc, mailer.last_id)) == 1
    assert len(replies_to(svc, mailer.last_id)) == 1
    assert len(replies_to(svc, mailer.last_id, "ack")) == 1
    assert len(order_sets(svc, "alpha")) == 1


def test_orders_after_the_deadline_are_answered_and_not_applied(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    send_orders(mailer, "alpha", [1, 2, 3])
    pass_deadline(svc, clock, "alpha")
    before = _snapshot(svc)
    _, raw = _orders_mail(svc, mailer, 0, round1)
    result = ingest(svc, raw)
    assert result.status == "done" and result.game is None
    errors = replies_to(svc, mailer.last_id, "error")
    assert len(errors) == 1 and "Frist" in errors[0].body
    assert not replies_to(svc, mailer.last_id, "ack")
    _unchanged(svc, before)
    # At the deadline seat 0 is an NMR: the engine got no orders for it.
    assert tick(svc).resolved == ["alpha"]
    used = codec.loads(records(svc, "alpha")[-1].orders)
    assert used[0] is None and all(o is not None for o in used[1:])
    assert len(outbox(svc, "nmr", to=seated(svc, "alpha")[0].address)) == 1


def test_orders_for_another_round_are_answered_and_not_applied(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    before = _snapshot(svc)
    _, raw = _orders_mail(svc, mailer, 0, round1, round_=7)
    assert ingest(svc, raw).status == "done"
    errors = replies_to(svc, mailer.last_id, "error")
    assert len(errors) == 1 and "Runde 7" in errors[0].body and "Runde 1" in errors[0].body
    assert not replies_to(svc, mailer.last_id, "ack")
    _unchanged(svc, before)


@pytest.mark.parametrize("password", ["", "rot-000000", "Kennwort"])
def test_a_wrong_or_missing_password_changes_nothing(
    svc: Service, mailer: Mailer, round1: dict[str, str], password: str
) -> None:
    before = _snapshot(svc)
    address, raw = _orders_mail(svc, mailer, 0, round1, password=password)
    assert ingest(svc, raw).status == "done"
    errors = replies_to(svc, mailer.last_id, "error")
    assert len(errors) == 1 and "Kennwort" in errors[0].body
    assert errors[0].recipients == address
    assert not replies_to(svc, mailer.last_id, "ack")
    assert not order_sets(svc, "alpha")
    _unchanged(svc, before)


def test_a_later_mail_replaces_the_earlier_orders_as_a_whole(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    address, raw = _orders_mail(svc, mailer, 0, round1)
    ingest(svc, raw)
    first_id = mailer.last_id
    assert REPLACES not in replies_to(svc, first_id, "ack")[0].body
    # The second mail says much less: nothing of the first may survive.
    second = mailer.send(
        address, "Korrektur", f"Kennwort: {round1[address]}\nRunde: 1\nAbwurf: H, L\n"
    )
    assert second.status == "done"
    acks = replies_to(svc, mailer.last_id, "ack")
    assert len(acks) == 1 and REPLACES in acks[0].body
    rows = order_sets(svc, "alpha")
    assert [(r.superseded, r.mail_id) for r in rows] == [
        (True, inbound(svc, first_id)[0].id),
        (False, second.mail_id),
    ]
    send_orders(mailer, "alpha", [1, 2, 3])
    assert game_row(svc, "alpha").round == 2
    used = codec.loads(records(svc, "alpha")[-1].orders)
    assert used[0] == codec.loads(rows[1].parsed)
    assert used[0] != codec.loads(rows[0].parsed)
    assert used[0].builds == () and used[0].robber is None


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "auto-replied"},
        {"Auto-Submitted": "auto-generated"},
        {"Precedence": "bulk"},
        {"X-Autoreply": "yes"},
    ],
)
def test_auto_replies_are_kept_and_ignored(
    svc: Service, mailer: Mailer, round1: dict[str, str], headers: dict[str, str]
) -> None:
    before = _snapshot(svc)
    count = len(outbox(svc))
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[0]
    result = mailer.send(
        p.address,
        "Abwesenheitsnotiz: Züge Runde 1",
        orders_text(st, 0, round1[p.address]),
        headers=headers,
    )
    assert result.status == "ignored"
    [row] = inbound(svc, mailer.last_id)
    assert row.status == "ignored" and row.error and row.processed_at is not None
    assert len(outbox(svc)) == count
    _unchanged(svc, before)


def test_a_crashing_mail_is_quarantined_and_requeued_once_fixed(
    svc: Service, mailer: Mailer, round1: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = getattr(ingest_module, "handle")  # noqa: B009  (patched below)
    calls: list[int] = []

    def broken(svc: Service, session: Session, mail: InboundMail, inbound: Any) -> Any:
        calls.append(mail.id or 0)
        real(svc, session, mail, inbound)  # its orders and ack must be rolled back
        raise RuntimeError("handler exploded")

    monkeypatch.setattr(ingest_module, "handle", broken)
    _, raw = _orders_mail(svc, mailer, 0, round1)
    message_id = mailer.last_id
    result = ingest(svc, raw)
    assert result.status == "quarantined"
    [row] = inbound(svc, message_id)
    assert row.status == "quarantined"
    assert "Traceback" in row.error and "RuntimeError: handler exploded" in row.error
    assert not replies_to(svc, message_id) and not order_sets(svc, "alpha")

    # Never retried by itself: not by recovery, a tick, nor the same mail arriving again.
    assert pending_mail_ids(svc) == []
    assert recover(svc) == []
    tick(svc)
    assert ingest(svc, raw).status == "duplicate"
    assert calls == [row.id]
    # Other mails still go through meanwhile (and crash too while the bug lasts).
    monkeypatch.setattr(ingest_module, "handle", real)
    send_orders(mailer, "alpha", [1])
    assert inbound(svc, message_id)[0].status == "quarantined"

    # Fixed: the GM re-queues it, and it is processed exactly once.
    again = requeue(svc, row.id or 0)
    assert again.status == "done"
    [row] = inbound(svc, message_id)
    assert row.status == "done" and row.error == ""
    assert len(replies_to(svc, message_id, "ack")) == 1
    assert [r.mail_id for r in order_sets(svc, "alpha")] == [inbound(svc)[-1].id, row.id]
    assert pending_mail_ids(svc) == []


def test_a_placement_from_a_player_with_no_turn_left_is_refused(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    """Seat 1 places at steps 1 and 6. A placement it mails at step 7 cannot be used: it must
    be answered with an error, not acknowledged as accepted and then dropped."""
    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    pw = passwords(svc)
    for _ in range(7):
        pass_deadline(svc, clock, "alpha")
        tick(svc)
    _, st = game_state(svc, "alpha")
    assert st.setup_step == 7
    p1 = seated(svc, "alpha")[1]
    mailer.send(p1.address, "Aufstellung", setup_text(st, 1, pw[p1.address]))
    assert not order_sets(svc, "alpha")
    assert [o.kind for o in replies_to(svc, mailer.last_id)] == ["error"], (
        "a placement that can never be used was acknowledged"
    )


def test_nmr_counts_consecutive_rounds_only(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    for skip in ([3], [], [3], [3]):
        play_round(mailer, clock, "alpha", skip=skip)
    lazy = seated(svc, "alpha")[3]
    assert (lazy.nmr_count, lazy.autopilot) == (2, False)
    assert len(outbox(svc, "nmr", to=lazy.address)) == 3
    assert not outbox(svc, "autopilot_on")
    # The third in a row switches the autopilot on.
    play_round(mailer, clock, "alpha", skip=[3])
    assert seated(svc, "alpha")[3].autopilot
    assert [o.recipients for o in outbox(svc, "autopilot_on")] == [lazy.address]


def test_one_reminder_to_those_whose_orders_are_missing(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    send_orders(mailer, "alpha", [0, 1])
    deadline = game_row(svc, "alpha").deadline
    assert deadline is not None
    clock.advance(seconds=(deadline - clock.now()).total_seconds() - 13 * 3600)
    assert tick(svc).reminded == []
    clock.advance(hours=2)
    assert tick(svc).reminded == ["alpha"]
    at = seated(svc, "alpha")
    assert sorted(o.recipients for o in outbox(svc, "reminder")) == sorted(
        [at[2].address, at[3].address]
    )
    assert tick(svc).reminded == []
    assert len(outbox(svc, "reminder")) == 2


@pytest.mark.parametrize("words", ["Ich passe", "nichts", "Keine Züge diese Runde.", "pass"])
def test_passing_is_an_empty_order_set_that_counts_as_received(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str], words: str
) -> None:
    """`Ich passe` replaces earlier orders by nothing, and the seat is no NMR: when the others
    have sent theirs, the round resolves at once."""
    address, raw = _orders_mail(svc, mailer, 0, round1)
    ingest(svc, raw)
    assert order_sets(svc, "alpha")[-1].text.count("\n") > 2
    result = mailer.send(address, "Züge", f"Kennwort: {round1[address]}\n{words}\n", resolve=False)
    assert result.status == "done"
    acks = replies_to(svc, mailer.last_id, "ack")
    assert len(acks) == 1 and REPLACES in acks[0].body
    assert "Du passt in dieser Runde" in acks[0].body and "NMR-Regel" not in acks[0].body
    assert not replies_to(svc, mailer.last_id, "error")
    send_orders(mailer, "alpha", [1, 2, 3])
    game = game_row(svc, "alpha")
    assert game.round == 2, "every seat has sent orders: the round resolves without waiting"
    used = codec.loads(records(svc, "alpha")[-1].orders)
    assert used[0] is not None  # an order set, empty: not an NMR
    assert seated(svc, "alpha")[0].nmr_count == 0
    assert not outbox(svc, "nmr", to=address)


def test_passing_beside_orders_is_refused_and_the_orders_stand(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    _, raw = _orders_mail(svc, mailer, 0, round1)
    body = raw.decode().replace("\r\n", "\n")
    assert ingest(svc, (body.rstrip("\n") + "\nIch passe\n").encode()).status == "done"
    ack = replies_to(svc, mailer.last_id, "ack")
    assert len(ack) == 1 and "Ich passe" in ack[0].body and "nicht" in ack[0].body


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("line", "kind"),
    [("Hilfe", "help"), ("Status", "status"), ("Mitspieler", "players"), ("Verlauf", "history")],
)
def test_a_question_beside_orders_is_answered_and_the_orders_are_taken(
    svc: Service, mailer: Mailer, round1: dict[str, str], line: str, kind: str
) -> None:
    """A player who writes `Hilfe` (or asks for the status, the players, the history) under
    their orders gets the orders taken and acknowledged, and the answer in a mail of its own:
    the question never swallows the orders."""
    address, raw = _orders_mail(svc, mailer, 0, round1)
    body = raw.decode().replace("\r\n", "\n")
    before = len(order_sets(svc, "alpha"))
    assert ingest(svc, (body.rstrip("\n") + f"\n{line}\n").encode()).status == "done"
    assert len(order_sets(svc, "alpha")) == before + 1
    assert len(replies_to(svc, mailer.last_id, "ack")) == 1
    assert len(replies_to(svc, mailer.last_id, kind)) == 1
    assert [r.recipients for r in replies_to(svc, mailer.last_id)] == [address, address]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_help_beside_orders_with_a_wrong_password_answers_the_help_only(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    """With a wrong password the orders are not taken; the help, which needs none, is answered
    as in a mail without orders (one answer to a sender not known to be the player)."""
    _, raw = _orders_mail(svc, mailer, 0, round1, password="falsch-123456")
    body = raw.decode().replace("\r\n", "\n")
    before = _snapshot(svc)
    assert ingest(svc, (body.rstrip("\n") + "\nHilfe\n").encode()).status == "done"
    _unchanged(svc, before)
    assert [r.kind for r in replies_to(svc, mailer.last_id)] == ["help"]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("subject", "kinds"),
    [
        ("Re: [alpha] Status", ["ack", "status"]),  # asked twice, answered once
        ("Re: [alpha] Anmeldung erhalten", ["ack"]),  # the signup thread: no new signup
    ],
)
def test_orders_in_a_reply_to_pbms_mail_are_taken_and_answered_once(
    svc: Service, mailer: Mailer, round1: dict[str, str], subject: str, kinds: list[str]
) -> None:
    address, raw = _orders_mail(svc, mailer, 0, round1)
    body = raw.decode().replace("\r\n", "\n").split("\n\n", 1)[1]
    before = len(order_sets(svc, "alpha"))
    mailer.send(address, subject, body.rstrip("\n") + "\nStatus\n" * ("Status" in subject))
    assert len(order_sets(svc, "alpha")) == before + 1
    assert sorted(r.kind for r in replies_to(svc, mailer.last_id)) == kinds


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    "subject",
    [
        "Automatische Antwort: [alpha] Bericht Runde 1",  # Exchange on its own premises
        "Automatic reply: [alpha] Report round 1",
        "Abwesenheitsnotiz: [alpha] Bericht Runde 1",
        "Fraværende: [alpha] Rapport runde 1",
        "Automatisk svar: [alpha] Rapport runde 1",
        "Out of Office: [alpha] Report round 1",
    ],
)
def test_an_absence_notice_without_headers_is_kept_and_ignored(
    svc: Service, mailer: Mailer, round1: dict[str, str], subject: str
) -> None:
    """A notice that quotes the report (or the welcome mail, with the password and the
    example lines) unquoted was answered, counted as a wrong password, or read as orders."""
    before = _snapshot(svc)
    count = len(outbox(svc))
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[0]
    body = "Ich bin bis 20.1. nicht im Büro.\n\n" + orders_text(st, 0, round1[p.address])
    result = mailer.send(p.address, subject, body)
    assert result.status == "ignored"
    assert len(outbox(svc)) == count
    _unchanged(svc, before)


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("headers", "subject"),
    [
        ({"X-Autoreply": "no"}, "Züge"),  # says it is none
        ({"X-Auto-Response-Suppress": "All"}, "Züge"),  # Exchange puts it on ordinary mail
        ({}, "Abwesend bis 20.1."),  # pbm's own absence words are no notice
        ({}, "Out of office: 3.–10. Mai"),  # a player's own heading: no [game] tag after it
    ],
)
def test_a_players_mail_that_only_looks_automatic_is_read(
    svc: Service, mailer: Mailer, round1: dict[str, str], headers: dict[str, str], subject: str
) -> None:
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[0]
    result = mailer.send(p.address, subject, orders_text(st, 0, round1[p.address]), headers)
    assert result.status == "done"
    assert [r.kind for r in replies_to(svc, mailer.last_id)] == ["ack"]


#: The refusal of orders for round 1 while round 2 is open, by language: what became of
#: round 1, and the line that makes them count now (QA: it said neither).
LATE = {
    "de": (
        "Diese Züge sind für Runde 1, und die ist vorbei: Sie wurde ausgewertet, ihr Bericht "
        "ist verschickt. Offen ist Runde 2.",
        "Sollen diese Züge jetzt gelten, schicke sie noch einmal mit der Zeile 'Runde: 2' bis",
    ),
    "en": (
        "These orders are for round 1, which is over: it was resolved and its report was "
        "sent. Round 2 is open.",
        "To use these orders now, send them again with the line 'Round: 2' by",
    ),
    "da": (
        "Disse ordrer er til runde 1, som er overstået: den er afgjort, og dens rapport er "
        "sendt. Runde 2 er åben.",
        "Skal disse ordrer gælde nu, så send dem igen med linjen 'Runde: 2' senest",
    ),
}


@pytest.mark.parametrize("lang", sorted(LATE))
def test_orders_for_a_resolved_round_say_what_happened_and_what_to_send(
    svc: Service, mailer: Mailer, games: Games, lang: str
) -> None:
    from pbm.notation.format import word

    table = games.start("late", round_=2, lang=lang)
    address = table.addresses[0]
    body = f"{word('password', lang)}: {table.passwords[address]}\n{word('round', lang)}: 1\n"
    mailer.send(address, "Re: [late] 1", body)
    (error,) = replies_to(svc, mailer.last_id, "error")
    text = " ".join(error.body.split())
    what, todo = LATE[lang]
    deadline = game_row(svc, "late").deadline
    assert deadline is not None
    assert what in text and f"{todo} {deadline:%Y-%m-%d %H:%M} UTC." in text, text
    # The HTML part says it in paragraphs, not in a block a phone scrolls sideways.
    assert "<pre" not in error.html.split("<body>", 1)[1], error.html


def test_orders_for_a_round_not_begun_and_a_game_without_deadline() -> None:
    from pbm.service.answers import other_round

    assert other_round("de", 5, 3, None) == (
        "Diese Züge sind für Runde 5, die noch nicht begonnen hat: Offen ist Runde 3. Sollen "
        "diese Züge jetzt gelten, schicke sie noch einmal mit der Zeile 'Runde: 3', bevor die "
        "Spielleitung Runde 3 auswertet."
    )
    assert other_round("en", 5, 3, "2026-01-03 12:00 UTC") == (
        "These orders are for round 5, which has not begun: round 3 is open. To use these "
        "orders now, send them again with the line 'Round: 3' by 2026-01-03 12:00 UTC."
    )
