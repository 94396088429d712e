"""Deadlines are judged by when a mail reached the mailbox, and a stranger's mail is cheap.

- A mail's time is the mailbox's (IMAP's INTERNALDATE, else the first `Received:` line), never
  later than the moment it was stored: orders that came before the deadline count however late
  they are read, orders that came after it are late however early they are read.
- A round past its deadline waits until the mailbox has been read past the deadline and no
  stored mail of before the deadline is unread; `mail_wait_minutes` later it resolves anyway
  and the GM is told.
- A mail is read against a board only when its password is right: a stranger's mail (or a
  wrong password) costs a scan of the lines that need no board.
- The inbox takes the known addresses' mails first, then one mail of each sender in turn.

The flood before a deadline, through `serve` over real servers, is in
tests/mail/test_flood_deadline.py.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from databases import game_row, game_state, inbound, outbox, passwords, records, replies_to, seated
from harness import (
    GM,
    Games,
    Mailer,
    new_game,
    orders_text,
    pass_deadline,
    send_orders,
    set_service,
    signup,
)

import pbm.service.dispatch as dispatch
from pbm.mail.transport import Head
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.ingest import ingest, process_mail, store_mail
from pbm.service.intake import TRUSTED_RECEIVED_DAYS, arrival
from pbm.service.serve import fair_order
from pbm.service.tick import tick
from pbm.store import codec

STRANGER = "mallory@elsewhere.test"


@pytest.fixture
def round1(svc: Service, games: Games) -> dict[str, str]:
    """A game of four at the start of round 1; the passwords by address."""
    games.start("alpha")
    return passwords(svc)


def _orders(svc: Service, mailer: Mailer, seat: int, pw: dict[str, str]) -> tuple[str, bytes]:
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[seat]
    body = orders_text(st, seat, pw[p.address])
    return p.address, mailer.raw(p.address, f"Züge Runde {st.round}", body)


def _deadline(svc: Service) -> datetime:
    deadline = game_row(svc, "alpha").deadline
    assert deadline is not None
    return deadline


# -- a mail's time -------------------------------------------------------------------------------


def test_orders_that_came_before_the_deadline_count_when_read_after_it(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    send_orders(mailer, "alpha", [1, 2, 3])
    deadline = _deadline(svc)
    _, raw = _orders(svc, mailer, 0, round1)
    pass_deadline(svc, clock, "alpha")
    clock.advance(minutes=5)
    # It reached the mailbox 89 s before the deadline; pbm reads it six minutes after.
    result = ingest(svc, raw, reported=deadline - timedelta(seconds=89))
    assert result.status == "done" and result.game == "alpha"
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert not replies_to(svc, mailer.last_id, "error")
    # The answer says it counts; not "until then a new mail replaces it" with a past time.
    body = " ".join(ack.body.split())
    assert "also gilt sie; die Runde wird jetzt ausgewertet" in body
    assert "Bis dahin" not in body
    assert inbound(svc, mailer.last_id)[0].received_at == deadline - timedelta(seconds=89)
    assert tick(svc).resolved == ["alpha"]
    used = codec.loads(records(svc, "alpha")[-1].orders)
    assert all(o is not None for o in used)
    assert not outbox(svc, "nmr")


@pytest.mark.parametrize(
    ("lang", "said", "not_said"),
    [
        ("de", "sind alle Züge da: die Runde wird jetzt ausgewertet", "Bis dahin"),
        ("en", "every player's orders are in: the round is resolved now", "Until then"),
        ("da", "er alle ordrer kommet: runden afgøres nu", "Indtil da"),
    ],
)
def test_the_orders_that_complete_the_round_are_told_it_resolves_now(
    svc: Service, games: Games, mailer: Mailer, lang: str, said: str, not_said: str
) -> None:
    """The last player's answer said "until the deadline a new mail replaces these orders",
    and the round's report came right after it (QA, 2026-12): the round resolves early."""
    games.start("alpha", lang=lang)
    send_orders(mailer, "alpha", [1, 2, 3])
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert not_said in " ".join(ack.body.split())  # the round still waits for seat 0
    send_orders(mailer, "alpha", [0])
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    body = " ".join(ack.body.split())
    assert said in body
    assert not_said not in body
    html = " ".join(ack.html.split())
    assert said in html and not_said not in html
    assert game_row(svc, "alpha").round == 2


def test_orders_that_came_after_the_deadline_are_late_even_when_read_before_it_resolves(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    deadline = _deadline(svc)
    _, raw = _orders(svc, mailer, 0, round1)
    pass_deadline(svc, clock, "alpha")
    result = ingest(svc, raw, reported=deadline + timedelta(seconds=1))
    assert result.status == "done" and result.game is None
    errors = replies_to(svc, mailer.last_id, "error")
    assert len(errors) == 1 and "Frist" in errors[0].body
    # Which round, and what to do next.
    said = " ".join(errors[0].body.split())
    assert "Die Frist von Runde 1 war abgelaufen" in said and "für Runde 2" in said


def test_a_mails_time_is_the_mailboxs_never_the_senders() -> None:
    now = datetime.fromisoformat("2026-03-01T12:00:00+00:00")
    minute = timedelta(minutes=1)
    # The mailbox's date wins; never later than the moment the mail was stored.
    assert arrival(now, now - minute, now - 5 * minute) == now - minute
    assert arrival(now, now + minute, None) == now
    # Else the first Received line's (written by the server that delivered it).
    assert arrival(now, None, now - 5 * minute) == now - 5 * minute
    assert arrival(now, None, now + 5 * minute) == now
    # A Received date older than a week is not believed: the mail came now.
    too_old = now - timedelta(days=TRUSTED_RECEIVED_DAYS, minutes=1)
    assert arrival(now, None, too_old) == now
    assert arrival(now, None, None) == now


def test_the_first_received_line_dates_a_mail_fed_in_without_a_mailbox(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    """`pbm mail ingest` (a local MTA's pipe, or a GM feeding a missed mail): the top
    `Received:` line, written by the server that delivered it, dates the mail; the ones below
    it (written by whoever sent it) and the Date header do not."""
    deadline = _deadline(svc)
    pass_deadline(svc, clock, "alpha")
    at = deadline - timedelta(minutes=2)
    forged = deadline - timedelta(days=1)
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[0]
    raw = mailer.raw(p.address, "Züge", orders_text(st, 0, round1[p.address]))
    top = f"Received: from mx.example by imap.example; {at.strftime('%a, %d %b %Y %H:%M:%S +0000')}"
    below = f"Received: from evil by evil; {forged.strftime('%a, %d %b %Y %H:%M:%S +0000')}"
    raw = (
        f"{top}\r\n{below}\r\nDate: {forged.strftime('%a, %d %b %Y %H:%M:%S +0000')}\r\n".encode()
        + raw
    )
    assert ingest(svc, raw).status == "done"
    assert inbound(svc, mailer.last_id)[0].received_at == at
    assert replies_to(svc, mailer.last_id, "ack")


# -- the deadline waits for the mailbox ----------------------------------------------------------


def test_a_round_waits_until_the_mailbox_is_read_past_its_deadline(
    svc: Service, clock: FakeClock, round1: dict[str, str]
) -> None:
    svc.intake.active = True
    deadline = _deadline(svc)
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == []  # not read at all since the start
    svc.intake.passed(deadline - timedelta(seconds=1))
    assert tick(svc).resolved == []  # a pass that began before the deadline
    svc.intake.passed(clock.now())
    assert tick(svc).resolved == ["alpha"]


def test_a_round_waits_for_a_stored_mail_of_before_its_deadline(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    deadline = _deadline(svc)
    _, raw = _orders(svc, mailer, 0, round1)
    pass_deadline(svc, clock, "alpha")
    mail_id, _ = store_mail(svc, raw, reported=deadline - timedelta(minutes=1))
    assert tick(svc).resolved == []
    assert process_mail(svc, mail_id).status == "done"
    assert tick(svc).resolved == ["alpha"]
    assert codec.loads(records(svc, "alpha")[-1].orders)[0] is not None


def test_a_stored_mail_of_after_the_deadline_holds_nothing(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    deadline = _deadline(svc)
    _, raw = _orders(svc, mailer, 0, round1)
    pass_deadline(svc, clock, "alpha")
    store_mail(svc, raw, reported=deadline + timedelta(seconds=30))
    assert tick(svc).resolved == ["alpha"]


def test_the_setup_deadline_waits_for_the_mailbox_too(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    """A setup placement's deadline, as a round's."""
    new_game(svc, "beta", players=3)
    signup(mailer, "beta", players=3)
    assert game_row(svc, "beta").phase == "setup"
    svc.intake.active = True
    pass_deadline(svc, clock, "beta")
    before = game_state(svc, "beta")[1].setup_step
    tick(svc)
    assert game_state(svc, "beta")[1].setup_step == before
    svc.intake.passed(clock.now())
    tick(svc)
    assert game_state(svc, "beta")[1].setup_step != before


def test_nothing_waits_forever_and_the_gm_is_told(
    svc: Service, clock: FakeClock, round1: dict[str, str]
) -> None:
    set_service(svc, gm_address="gm-human@pbm.test")
    svc.intake.active = True  # and the mailbox is never read (the IMAP server is down)
    deadline = _deadline(svc)
    pass_deadline(svc, clock, "alpha")
    clock.advance(minutes=svc.config.service.mail_wait_minutes - 2)
    assert tick(svc).resolved == []
    assert clock.now() - deadline < timedelta(minutes=svc.config.service.mail_wait_minutes)
    clock.advance(minutes=2)
    assert tick(svc).resolved == ["alpha"]
    alerts = outbox(svc, "gm_alert", to="gm-human@pbm.test")
    assert len(alerts) == 1
    assert "alpha" in alerts[0].subject and "rollback" in alerts[0].body


# -- a stranger's mail is cheap ------------------------------------------------------------------


def _junk(lines: int = 300, width: int = 700) -> str:
    words = [
        "Siedlung",
        "Stadt",
        "Straße",
        "Handel",
        "Räuber",
        "Wald",
        "Weide",
        "6E",
        "4W",
        "5H",
        "blau",
        "rot",
        "gebe",
        "bekomme",
    ]
    row = " ".join(words[i % len(words)] for i in range(width // 6))[:width]
    return "\n".join(row for _ in range(lines))


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every reading of a mail against a board (the costly parse), by the mail's first line."""
    calls: list[str] = []
    parse = dispatch.parse_mail

    def counting(text: str, *args: Any, **kw: Any) -> Any:
        calls.append(text.split("\n", 1)[0])
        return parse(text, *args, **kw)

    monkeypatch.setattr(dispatch, "parse_mail", counting)
    return calls


def test_a_strangers_mail_is_never_read_against_a_board(
    svc: Service, mailer: Mailer, round1: dict[str, str], parses: list[str]
) -> None:
    p = seated(svc, "alpha")[0]
    junk = _junk()
    for body in (
        f"Spiel: alpha\n{junk}\n",  # naming the game
        f"{junk}\n",  # naming none
        f"Spiel: alpha\nKennwort: rot-bada-bada-bada-bada-bada\n{junk}\n",  # a wrong password
        f"Spiel: alpha\nKennwort: {round1[p.address]}x\n{junk}\n",
    ):
        assert ingest(svc, mailer.raw(STRANGER, "Züge", body)).status == "done"
    # Also from a player's own address (a From anyone can write): a wrong password, or none.
    ingest(svc, mailer.raw(p.address, "Züge", f"Kennwort: blau-xx\n{junk}\n"))
    ingest(svc, mailer.raw(p.address, "Züge", f"{junk}\n"))
    assert parses == []
    assert replies_to(svc, mailer.last_id, "error")  # the player hears the password is wrong
    # The right password, from anywhere: read in full.
    _, raw = _orders(svc, mailer, 0, round1)
    assert ingest(svc, raw).status == "done"
    assert len(parses) == 1
    assert replies_to(svc, mailer.last_id, "ack")


def test_what_a_stranger_may_do_needs_no_board(
    svc: Service, mailer: Mailer, games: Games, parses: list[str]
) -> None:
    """Join, help, status and observe: answered from the scan alone."""
    new_game(svc, "open", players=3)
    games.start("alpha")
    ingest(svc, mailer.raw(STRANGER, "Anmeldung", "Spiel: open\nName: Mallory\nFarbe: rot\n"))
    assert outbox(svc, to=STRANGER)
    for subject, body in (("Hilfe", "Spiel: alpha\n"), ("x", "Spiel: alpha\nStatus\n")):
        before = len(outbox(svc, to=STRANGER))
        ingest(svc, mailer.raw(STRANGER, subject, body))
        assert len(outbox(svc, to=STRANGER)) == before + 1
    ingest(svc, mailer.raw(STRANGER, "x", "Spiel: alpha\nBeobachten\n"))
    assert "observe_confirm" in {o.kind for o in outbox(svc, to=STRANGER)}
    assert parses == []


def test_a_scan_reads_what_the_full_parse_reads(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    """The password and commands a mail gives are the same however it is read."""
    from pbm.notation import Context, parse_mail
    from pbm.notation.mail import scan_mail

    _, st = game_state(svc, "alpha")
    ctx = Context(st.board, "de", st.colours, "round")
    pw = round1[seated(svc, "alpha")[0].address]
    bodies = [
        f"Hallo!\n\nKennwort: {pw}\nRunde: 1\nSiedlung 6E 4W 5H\n\nGrüße\nAnna\n",
        f"- Kennwort: {pw}\n* Status\n",
        f"Nachricht an blau: hallo\nKennwort: {pw}\n",
        f"Kennwort = {pw}\nHilfe!\n> Kennwort: alt\n",
        "Spiel: alpha\nBestätigen: abc123\nBeobachten beenden\n",
        f"pw: {pw}\nIch bin zurück.\nSiedlung 6E 4W 5H\n",
        "Anmeldung\nName: Anna Maria\nFarben: rot, blau\n",
    ]
    for body in bodies:
        full, scan = parse_mail(body, ctx, "Re: Status"), scan_mail(body, "Re: Status")
        fields = ("password", "confirm", "commands", "name", "colours", "round", "forwarded")
        for name in fields:
            assert getattr(scan, name) == getattr(full, name), (body, name)


# -- fair order ----------------------------------------------------------------------------------


def test_the_inbox_takes_the_players_first_then_each_sender_in_turn(
    svc: Service, round1: dict[str, str]
) -> None:
    player = seated(svc, "alpha")[2].address
    heads: dict[str, Head] = {}
    uids: list[str] = []
    senders = ["flood@x.test"] * 50 + ["other@y.test"] * 3 + [player, "flood@x.test", GM]
    for n, sender in enumerate(senders, 1):
        uids.append(str(n))
        heads[str(n)] = Head(1000, None, sender)
    uids.append("99")  # the mailbox said nothing of this one
    order = fair_order(svc, uids, heads)
    assert order[0] == "54"  # the player's, though it came after 53 others
    assert order[1:4] == ["1", "51", "56"]  # then one of each sender in turn
    assert order[4:6] == ["2", "52"]
    assert order[-1] == "99"
    assert sorted(order, key=int) == uids


# -- what is kept of strangers' mail -------------------------------------------------------------


_NUMBERS = iter(range(1, 10**6))


def _with_attachment(mailer: Mailer, sender: str, body: str, size: int) -> bytes:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, GM, "Züge"
    mailer.last_id = msg["Message-ID"] = f"<att-{next(_NUMBERS)}@players.test>"
    msg.set_content(body)
    msg.add_attachment(b"\x89PNG" + bytes(size), maintype="image", subtype="png", filename="a.png")
    return msg.as_bytes()


def test_a_strangers_mail_is_kept_only_as_far_as_it_shows_what_it_was(
    svc: Service, mailer: Mailer, round1: dict[str, str]
) -> None:
    p = seated(svc, "alpha")[0]
    kept = svc.config.service.no_password_kept_kb * 1024
    big = 2_000_000
    ingest(svc, _with_attachment(mailer, STRANGER, "Spiel: alpha\nHallo\n", big))
    stranger = inbound(svc, mailer.last_id)[0]
    assert len(stranger.raw) == kept
    assert b"Subject: " in stranger.raw[:2000]
    # A player's mail with a wrong password is kept as it came, for the GM to see.
    ingest(svc, _with_attachment(mailer, p.address, "Kennwort: blau-xx\nHallo\n", big))
    assert len(inbound(svc, mailer.last_id)[0].raw) > big
    # The player's own orders keep their photo.
    _, st = game_state(svc, "alpha")
    body = orders_text(st, 0, round1[p.address])
    ingest(svc, _with_attachment(mailer, p.address, body, big))
    mine = inbound(svc, mailer.last_id)[0]
    assert replies_to(svc, mailer.last_id, "ack")
    assert len(mine.raw) > big


def test_a_strangers_mail_loses_its_bytes_after_stranger_mail_days(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: dict[str, str]
) -> None:
    from pbm.service.retention import forget_strangers

    p = seated(svc, "alpha")[0]
    ingest(svc, mailer.raw(STRANGER, "Hallo", "Spiel: alpha\nwer bist du\n"))
    stranger_id = mailer.last_id
    ingest(svc, mailer.raw(p.address, "Hallo", "Kennwort: blau-xx\n"))
    player_id = mailer.last_id
    clock.advance(days=svc.config.service.stranger_mail_days - 1)
    assert forget_strangers(svc, force=True) == 0
    clock.advance(days=2)
    tick(svc)  # the clock does it, once an hour
    assert inbound(svc, stranger_id)[0].raw == b""
    assert inbound(svc, stranger_id)[0].subject == "Hallo"  # the row stays
    assert inbound(svc, player_id)[0].raw != b""
    assert forget_strangers(svc) == 0  # not again within the hour


_LATE_SAID = {
    "de": "nach ihrer Frist",
    "en": "after its deadline",
    "da": "efter dens frist",
}
_NOTHING_CAME = {
    "de": "kamen keine Züge von dir",
    "en": "No orders came from you",
    "da": "Der kom ingen ordrer fra dig",
}


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_nmr_notice_after_a_late_mail_says_it_came_too_late(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games, lang: str
) -> None:
    """QA: a player whose mail came a minute after the deadline was told at once that its
    round is resolved without it, then by the NMR notice that "no orders came from you":
    the notice says the mail came too late, as the answer did."""
    table = games.start("alpha", lang=lang)
    pw = passwords(svc)
    late = table.seats[0]
    _, st = game_state(svc, "alpha")
    send_orders(mailer, "alpha", [seat for seat in table.seats if seat != 0], pw=pw)
    deadline = _deadline(svc)
    pass_deadline(svc, clock, "alpha")
    raw = mailer.raw(late, "orders", orders_text(st, 0, pw[late], lang=lang))
    ingest(svc, raw, reported=deadline + timedelta(seconds=30))
    assert replies_to(svc, mailer.last_id, "error"), "the late mail is refused"
    tick(svc)
    (notice,) = [o for o in outbox(svc, "nmr") if o.recipients == late]
    for text in (notice.body, notice.html):
        said = " ".join(text.split())
        assert _LATE_SAID[lang] in said, said
        assert _NOTHING_CAME[lang] not in said, said


_EARLY_SAID = {
    "de": "vor ihrer Frist",
    "en": "before its deadline",
    "da": "før dens frist",
}


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_nmr_notice_of_a_round_the_gm_resolved_early_says_so(
    svc: Service, clock: FakeClock, mailer: Mailer, games: Games, lang: str
) -> None:
    """QA: `pbm round resolve --now` two days before the deadline, and the player who had
    not written yet read "No orders came from you", as if they had missed the deadline."""
    from pbm.service import admin

    table = games.start("alpha", lang=lang)
    pw = passwords(svc)
    send_orders(mailer, "alpha", [seat for seat in table.seats if seat != 0], pw=pw)
    admin.resolve_round(svc, "alpha", now=True)
    (notice,) = [o for o in outbox(svc, "nmr") if o.recipients == table.seats[0]]
    for text in (notice.body, notice.html):
        said = " ".join(text.split())
        assert _EARLY_SAID[lang] in said, said
        assert _NOTHING_CAME[lang] not in said, said
