"""Security checks not covered elsewhere.

Already covered, and not repeated here: a wrong password from the sender's own address or a
forged From with a wrong password changes nothing and is answered only at the registered address
(tests/service/test_mail_cases.py, tests/mail/test_hygiene.py); eight wrong passwords silence an
address for an hour, and the right one still counts (test_hygiene.py); vacation responders that
mark their mails get one answer in all, in the service and over real mail servers
(test_hygiene.py); through whole games by mail, no mail shows a card type before it is played, a
password or key outside its owner's welcome mail, or a player's orders to another before the
round is resolved (tests/reports/test_privacy.py).

Here:
- wrong passwords: the exact limit (five answers an hour), that it is per address, and that the
  commands which need a password (`Aufgeben`, `Ich bin zurück`, `Status` with a password) change
  and reveal nothing with a wrong one;
- a forged From with no password at all, for orders and for each command;
- passwords at rest: every column of every table, and the SQLite file's bytes, hold a password
  only in its owner's unsent welcome mail in the outbox (its `secret`, put into the mail when
  it is built), and nowhere at all once the welcome mails are sent;
- probing: what a player or a stranger can get the service to mail them (status with and
  without a password, a forged From, another seat's password, help, wrong rounds, observing)
  shows no other player's password, unplayed cards or orders;
- a vacation responder that marks nothing: the storm ends by itself after a handful of answers.
"""

from __future__ import annotations

import email
import email.policy
import re
import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from databases import game_snapshot
from harness import (
    A_ROAD,
    ANNA,
    BERND,
    CARLA,
    DIETER,
    GM,
    PLAYERS,
    Mailer,
    make_service,
    new_game,
    setup_by_deadline,
    signup,
    start_game,
)
from sqlalchemy import inspect, text
from sqlmodel import Session, col, select

from pbm.mail.outgoing import PASSWORD_PLACEHOLDER
from pbm.notation import Context, parse_mail
from pbm.reports import codebook
from pbm.service import gm
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game, load_state, save_state
from pbm.service.ingest import ingest
from pbm.service.secrets import verify_password
from pbm.store.db import transaction
from pbm.store.models import OrderSet, Outbox, Player

from .servers import Outgoing

STRANGER = "mallory@evil.test"
NEWCOMER = "nina.neu@web.test"
_PASSWORD = re.compile(r"(?:Kennwort|Password): (\S+)")


def outbox(svc: Service) -> list[Outbox]:
    with Session(svc.engine) as s:
        return list(s.exec(select(Outbox).order_by(col(Outbox.id))))


def answers_to(svc: Service, message_id: str) -> list[Outbox]:
    return [o for o in outbox(svc) if o.in_reply_to == message_id]


@dataclass
class Table:
    svc: Service
    clock: FakeClock
    ctx: Context
    mails: Mailer


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """Game alpha at the start of round 1, the players' passwords those of harness.PLAYERS."""
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    ctx = start_game(Mailer(svc), clock, cast=True).ctx
    yield Table(svc, clock, ctx, Mailer())
    svc.engine.dispose()


def orders(address: str, password: str | None = None, extra: str = "") -> str:
    pw = PLAYERS[address][0] if password is None else password
    return f"Kennwort: {pw}\nRunde: 1\n{A_ROAD[address]}\n{extra}"


def set_player(svc: Service, address: str, **values: Any) -> None:
    with transaction(svc.engine) as s:
        p = s.exec(select(Player).where(Player.address == address)).one()
        for k, v in values.items():
            setattr(p, k, v)


# -- wrong passwords ----------------------------------------------------------------------------


@pytest.mark.timeout(60)
def test_the_first_five_wrong_passwords_in_an_hour_are_answered(table: Table) -> None:
    """docs/service-decisions.md: a wrong password is answered "(the first five in an hour)";
    after five wrong tries the address gets no more answers for that hour."""
    svc = table.svc
    assert svc.config.bad_password_limit == 5
    answered = []
    for i in range(8):
        mid, raw = table.mails.mail(ANNA, "Züge", orders(ANNA, f"rot-{200000 + i}"))
        ingest(svc, raw)
        answered.append(len(answers_to(svc, mid)))
        table.clock.advance(minutes=5)
    assert answered == [1, 1, 1, 1, 1, 0, 0, 0]


@pytest.mark.timeout(60)
def test_the_wrong_password_limit_is_per_address(table: Table) -> None:
    svc, mails = table.svc, table.mails
    before = game_snapshot(svc)
    for i in range(7):
        mid, raw = mails.mail(ANNA, "Züge", orders(ANNA, f"rot-{300000 + i}"))
        ingest(svc, raw)
        table.clock.advance(minutes=1)
    assert not answers_to(svc, mid), "Anna's address is silenced"
    # The other players' addresses are not: each gets its answer.
    for address in (BERND, CARLA, DIETER):
        mid, raw = mails.mail(address, "Züge", orders(address, "gelb-000000"))
        ingest(svc, raw)
        assert [o.recipients for o in answers_to(svc, mid)] == [address]
    # A stranger's guesses in Anna's name (forged From) count against Anna's address, and a
    # stranger writing from their own address is never answered: no one gets an answer to guess
    # with.
    for i in range(3):
        mid, raw = mails.mail(STRANGER, "Züge", "Spiel: alpha\n" + orders(ANNA, f"rot-{i}"))
        ingest(svc, raw)
        assert not answers_to(svc, mid)
    assert game_snapshot(svc) == before, "no wrong password changed anything"
    assert all(STRANGER not in o.recipients for o in outbox(svc))


@pytest.mark.timeout(60)
@pytest.mark.parametrize("command", ["Aufgeben", "Ich bin zurück", "Status"])
@pytest.mark.parametrize("password", ["tulpe-000000", "ahorn-771204x", ""])
def test_commands_with_a_wrong_password_change_and_reveal_nothing(
    table: Table, command: str, password: str
) -> None:
    """Anna's own address; her seat is on autopilot (so `Ich bin zurück` would switch it off)
    and her orders are in (so `Status` with her password would list them)."""
    svc, mails = table.svc, table.mails
    _, raw = mails.mail(ANNA, "Züge", orders(ANNA))
    assert ingest(svc, raw).game == "alpha"
    set_player(svc, ANNA, autopilot=True)
    before = game_snapshot(svc)
    body = (f"Kennwort: {password}\n" if password else "") + f"{command}\n"
    mid, raw = mails.mail(ANNA, command, body)
    ingest(svc, raw)
    assert game_snapshot(svc) == before
    answers = answers_to(svc, mid)
    assert all(o.recipients == ANNA for o in answers)
    if password or command != "Status":
        assert [o.kind for o in answers] == ["error"]
        assert "Nichts wurde geändert" in answers[0].body
    canonical = parse_mail(A_ROAD[ANNA], table.ctx).lines[0].canonical
    for o in answers:
        assert canonical not in o.body and canonical not in o.html, "orders shown"


# -- forged senders -------------------------------------------------------------------------------

FORGED = {"Reply-To": STRANGER, "Sender": STRANGER, "Return-Path": f"<{STRANGER}>"}


@pytest.mark.timeout(60)
@pytest.mark.parametrize(
    "what", ["orders", "Aufgeben", "Ich bin zurück", "Status", "Kennwort: leer"]
)
def test_a_forged_from_without_password_changes_nothing(table: Table, what: str) -> None:
    """From: Anna, every reply path the stranger's, no password line at all."""
    svc, mails = table.svc, table.mails
    _, raw = mails.mail(ANNA, "Züge", orders(ANNA))
    assert ingest(svc, raw).game == "alpha"
    set_player(svc, ANNA, autopilot=True)
    before = game_snapshot(svc)
    body = {
        "orders": f"Runde: 1\n{A_ROAD[ANNA]}\nStadt E3 F2 F3\n",
        "Kennwort: leer": "Kennwort:\nRunde: 1\n" + A_ROAD[ANNA] + "\n",
    }.get(what, what + "\n")
    mid, raw = mails.mail(f"Anna Müller <{ANNA}>", "Züge", body, FORGED)
    assert ingest(svc, raw).status == "done"
    assert game_snapshot(svc) == before
    answers = answers_to(svc, mid)
    assert all(o.recipients == ANNA for o in answers), [(o.kind, o.recipients) for o in answers]
    assert all(STRANGER not in o.recipients for o in outbox(svc))
    canonical = parse_mail(A_ROAD[ANNA], table.ctx).lines[0].canonical
    for o in answers:
        assert canonical not in o.body, "a status without password lists no orders"


# -- passwords at rest ----------------------------------------------------------------------------


def drawn_table(tmp_path: Path) -> tuple[Service, dict[str, str]]:
    """Game alpha signed up by mail with the passwords the service drew (not replaced by known
    ones), set up by the deadlines; then a lost password is renewed (Bernd) and a seat is taken
    over (Carla's, by NEWCOMER). Returns every password ever issued → its owner's address."""
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    new_game(svc, "alpha", players=4, seed=7)
    colours = [c for _, c in PLAYERS.values()]
    signup(Mailer(svc), "alpha", 4, colours, addresses=list(PLAYERS))
    setup_by_deadline(svc, clock, "alpha")
    with transaction(svc.engine) as s:
        game = get_game(s, "alpha")
        colour = {p.address: p.colour or "" for p in s.exec(select(Player))}
        gm.new_password_for(svc, s, game, colour[BERND])
        gm.replace_player(svc, s, game, colour[CARLA], NEWCOMER)
    issued: dict[str, str] = {}
    for o in outbox(svc):
        if o.kind == "welcome":
            # The body holds a placeholder; the password waits in `secret` until it is sent.
            assert not _PASSWORD.search(o.body.replace(PASSWORD_PLACEHOLDER, "")), o.body
            assert o.secret and PASSWORD_PLACEHOLDER in o.body
            issued[o.secret] = o.recipients
    assert len(issued) == 6, issued  # four at the draw, Bernd's new one, the newcomer's
    return svc, issued


def _allowed(table_name: str, row: dict[str, Any], owner: str, column: str) -> bool:
    """The one place a password may be: the unsent welcome mail (or new-password mail) to its
    owner, in its `secret` column."""
    return (
        table_name == "outbox"
        and row["kind"] == "welcome"
        and row["recipients"] == owner
        and column == "secret"
        and row["status"] == "pending"
    )


def plaintext_hits(svc: Service, issued: dict[str, str]) -> list[tuple[str, str, Any, str]]:
    """(table, column, row id, owner) wherever a password is in clear outside its allowed
    place: every column of every table, text and bytes."""
    hits = []
    insp = inspect(svc.engine)
    with svc.engine.connect() as conn:
        for table_name in insp.get_table_names():
            for row in conn.execute(text(f'SELECT * FROM "{table_name}"')).mappings():
                for column, value in row.items():
                    if isinstance(value, memoryview):
                        value = bytes(value)
                    for password, owner in issued.items():
                        found = (
                            password in value
                            if isinstance(value, str)
                            else password.encode() in value
                            if isinstance(value, bytes)
                            else False
                        )
                        if found and not _allowed(table_name, dict(row), owner, column):
                            hits.append((table_name, column, row.get("id"), owner))
    return hits


def file_hits(svc: Service, issued: dict[str, str], tmp_path: Path) -> list[str]:
    """The passwords found in the bytes of the SQLite file (with its WAL) once the allowed
    welcome mails are blanked, in a copy, with secure_delete on."""
    db = Path(svc.engine.url.database or "")
    svc.engine.dispose()  # the last connection closed: SQLite checkpoints its WAL
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    copy = tmp_path / "scan.db"
    for suffix in ("", "-wal"):
        if Path(f"{db}{suffix}").exists():
            shutil.copy(f"{db}{suffix}", f"{copy}{suffix}")
    raw_before = db.read_bytes()
    assert any(p.encode() in raw_before for p in issued), "the welcome mails are in the file"
    con = sqlite3.connect(copy)
    try:
        con.execute("PRAGMA secure_delete=ON")
        for password, owner in issued.items():
            con.execute(
                "UPDATE outbox SET secret = '' WHERE kind = 'welcome' "
                "AND recipients = ? AND secret = ?",
                (owner, password),
            )
        con.commit()
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    data = b"".join(
        Path(f"{copy}{s}").read_bytes() for s in ("", "-wal") if Path(f"{copy}{s}").exists()
    )
    return [
        f"{password} ({owner})" for password, owner in issued.items() if password.encode() in data
    ]


@pytest.mark.timeout(90)
def test_no_password_is_left_anywhere_once_the_welcome_mails_are_sent(
    tmp_path: Path, outgoing: Outgoing
) -> None:
    """Sent over SMTP, each welcome mail carries its password to its owner; afterwards no
    column of any table holds one, the sent rows included."""
    svc, issued = drawn_table(tmp_path)
    server = outgoing.start()
    result = server.send(svc, from_address=GM)
    assert not result.failed and not result.retry
    delivered: dict[str, str] = {}
    for attempt in server.accepted:
        msg = email.message_from_bytes(attempt.raw, policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        m = _PASSWORD.search(body.get_content())  # type: ignore[attr-defined]
        if m and m.group(1) != "…":  # not the "Kennwort: …" of the order examples
            assert attempt.rcpt_tos == [str(msg["To"])]
            delivered[m.group(1)] = attempt.rcpt_tos[0]
    assert delivered == issued, "every password reached its owner, and only its owner"
    assert all(not o.secret for o in outbox(svc)), "no secret kept after sending"
    hits = plaintext_hits(svc, issued)
    svc.engine.dispose()
    assert hits == []


@pytest.mark.timeout(90)
def test_passwords_are_stored_only_as_hashes(tmp_path: Path) -> None:
    """After the draw, a renewed password, a replacement and a few wrong guesses, a password is
    in clear only in its owner's welcome mail in the outbox — in every column of every table
    and in the bytes of the database file."""
    svc, issued = drawn_table(tmp_path)
    mails = Mailer()
    for address in (ANNA, STRANGER):  # wrong guesses are stored too (as sent)
        _, raw = mails.mail(address, "Züge", "Spiel: alpha\nKennwort: rot-123456\nStraße C3 D4\n")
        ingest(svc, raw)
    with Session(svc.engine) as s:
        players = list(s.exec(select(Player)))
    current = {p.address: p for p in players if p.status != "replaced"}
    for password, owner in issued.items():
        if owner in current and verify_password(password, current[owner].password_hash):
            assert current[owner].password_hash.startswith("$argon2id$")
    retired = [
        pw
        for pw, owner in issued.items()
        if not any(verify_password(pw, p.password_hash) for p in players)
    ]
    assert len(retired) == 1, "Bernd's first password no longer works"
    assert plaintext_hits(svc, issued) == []
    assert file_hits(svc, issued, tmp_path) == []
    svc.engine.dispose()


def _after_orders(tmp_path: Path) -> tuple[Service, dict[str, str]]:
    """Everyone sends orders with every password they were given (the newcomer plays Carla's
    seat; Bernd's first password is refused)."""
    svc, issued = drawn_table(tmp_path)
    mails = Mailer()
    for password, owner in issued.items():
        line = A_ROAD.get(owner, A_ROAD[CARLA])
        _, raw = mails.mail(owner, "Züge", f"Kennwort: {password}\nRunde: 1\n{line}\n")
        ingest(svc, raw)
    return svc, issued


@pytest.mark.timeout(90)
def test_stored_orders_do_not_keep_the_password(tmp_path: Path) -> None:
    svc, issued = _after_orders(tmp_path)
    with Session(svc.engine) as s:
        assert list(s.exec(select(OrderSet))), "the orders were taken"
    hits = [h for h in plaintext_hits(svc, issued) if (h[0], h[1]) != ("inboundmail", "raw")]
    svc.engine.dispose()
    assert hits == []


@pytest.mark.timeout(90)
def test_stored_mails_do_not_keep_the_password(tmp_path: Path) -> None:
    svc, issued = _after_orders(tmp_path)
    hits = [h for h in plaintext_hits(svc, issued) if (h[0], h[1]) == ("inboundmail", "raw")]
    svc.engine.dispose()
    assert hits == []


@pytest.mark.timeout(90)
def test_passwords_written_into_messages_and_orders_are_kept_nowhere(tmp_path: Path) -> None:
    """Issue 32: every player writes every password ever issued (their own and the others',
    the retired ones too) into the subject, a comment of their orders, a message to all and
    a message to the GM, without a label. Afterwards no column of any table and no byte of
    the database file holds a password or its syllables, the unsent welcome mails aside; the
    messages went out, with the passwords replaced."""
    svc, issued = drawn_table(tmp_path)
    svc.config.gm_address = "spielleitung@pbm.test"
    with Session(svc.engine) as s:
        current = {p.address: p for p in s.exec(select(Player)) if p.status != "replaced"}
    everything = " ".join(issued)
    mails = Mailer()
    sent = 0
    for password, owner in issued.items():
        if owner not in current or not verify_password(password, current[owner].password_hash):
            continue
        line = A_ROAD.get(owner, A_ROAD[CARLA])
        body = (
            f"Kennwort: {password}\nRunde: 1\n{line}\n# {everything}\n"
            f"Nachricht an alle: Meine Liste: {everything}\n"
        )
        _, raw = mails.mail(owner, f"Züge {everything}", body)
        assert ingest(svc, raw).status == "done"
        _, raw = mails.mail(owner, "GM", f"Kennwort: {password}\nAn Spielleitung: {everything}\n")
        assert ingest(svc, raw).status == "done"
        sent += 1
    assert sent == 4
    press = [o for o in outbox(svc) if o.kind in ("press", "press_gm")]
    assert len(press) == 4 * 3 + 4
    assert all("Meine Liste: [Kennwort entfernt]" in o.body for o in press if o.kind == "press")
    with Session(svc.engine) as s:
        assert len(list(s.exec(select(OrderSet)))) == 4
    syllables = {pw.split("-", 1)[1]: owner for pw, owner in issued.items()}
    assert plaintext_hits(svc, {**issued, **syllables}) == []
    assert file_hits(svc, issued, tmp_path) == []


# -- probing for other players' secrets -----------------------------------------------------------

CARD_WORDS = [n for lang in ("de", "en") for n in codebook.CARD_NAMES[lang].values()]
CARD_WORD = re.compile(
    r"(?<![\w-])("
    + "|".join(re.escape(n) for n in sorted(CARD_WORDS, key=len, reverse=True))
    + r"|"
    + "|".join(codebook.CARD_NAMES["de"])
    + r")(?![\w-])",
    re.I,
)
ECHO = re.compile(r"^\s+\d+\s{2}")


@pytest.mark.timeout(90)
def test_probing_mails_reveal_no_other_players_secrets(table: Table) -> None:
    """Bernd holds unplayed cards and has sent his orders. Then Anna and a stranger try what the
    mail interface offers. No answer to anyone but Bernd's address shows Bernd's password, his
    orders, or any card type (the echo of the asker's own lines aside); Anna's own answers show
    no card type of hers either, and no password at all."""
    svc, mails, ctx = table.svc, table.mails, table.ctx
    with transaction(svc.engine) as s:
        game = get_game(s, "alpha")
        state = load_state(game)
        seat = {p.address: p.seat for p in s.exec(select(Player))}
        state.cards[seat[BERND]] = [("monopoly", 0), ("vp", 0), ("year_of_plenty", 0)]
        state.cards[seat[ANNA]] = [("knight", 0), ("road_building", 0)]
        save_state(game, state)
    bernd_lines = f"{A_ROAD[BERND]}\nHandel rot: gebe 1G, bekomme 1H\n"
    _, raw = mails.mail(BERND, "Züge", orders(BERND, extra=bernd_lines.split("\n", 1)[1]))
    assert ingest(svc, raw).game == "alpha"
    secret_lines = {
        parse_mail(line, ctx).lines[0].canonical for line in bernd_lines.strip().splitlines()
    }
    first = len(outbox(svc))

    anna_pw, bernd_pw = PLAYERS[ANNA][0], PLAYERS[BERND][0]
    probes = [
        (ANNA, "Status", "Status\n"),
        (ANNA, "Status", f"Kennwort: {anna_pw}\nStatus\n"),
        (ANNA, "Status", "Status\nSpiel: alpha\n", {"Reply-To": STRANGER}),
        (f"Bernd <{BERND}>", "Status", "Status\n", FORGED),  # forged, answered to Bernd
        (ANNA, "Status", f"Kennwort: {bernd_pw}\nStatus\n"),  # Bernd's seat: to Bernd only
        (ANNA, "Hilfe", "Hilfe\n"),
        (ANNA, "Züge", orders(ANNA) + "Runde: 2\n"),
        (ANNA, "Züge", orders(ANNA, extra="Entwicklungskarte\n")),
        (ANNA, "Züge", orders(ANNA, "rot-000000")),
        (STRANGER, "Status", "Status\nSpiel: alpha\n"),
        (STRANGER, "Beobachten", "Beobachten\nSpiel: alpha\n"),
        (STRANGER, "Hilfe", "Hilfe\n"),
        (STRANGER, "?", "Was läuft hier?\n"),
    ]
    for sender, subject, body, *headers in probes:
        _, raw = mails.mail(sender, subject, body, headers[0] if headers else None)
        ingest(svc, raw)
        table.clock.advance(minutes=2)

    leaks = []
    answered = outbox(svc)[first:]
    assert len(answered) >= 8, [(o.kind, o.recipients) for o in answered]
    for o in answered:
        to_bernd = o.recipients == BERND
        for part, content in (("body", o.body), ("html", o.html)):
            for password in (anna_pw, bernd_pw, *(pw for pw, _ in PLAYERS.values())):
                if password in content:
                    leaks.append((o.kind, o.recipients, part, "password"))
            if to_bernd:
                continue
            for line in secret_lines:
                if line in content:
                    leaks.append((o.kind, o.recipients, part, f"Bernd's order {line!r}"))
            if o.kind == "help":
                continue  # the help documents the order words, the same for everyone
            for line in content.splitlines():
                if not ECHO.match(line) and CARD_WORD.search(line):
                    leaks.append((o.kind, o.recipients, part, line.strip()))
    assert not leaks, leaks
    assert {o.recipients for o in answered} >= {ANNA, BERND}
    assert all(o.recipients in (ANNA, BERND, STRANGER) for o in answered)


# -- a vacation responder that marks nothing ------------------------------------------------------


@pytest.mark.timeout(90)
def test_an_unmarked_vacation_responder_storm_ends_by_itself(table: Table) -> None:
    """Anna's responder answers every mail we send her, with none of the headers that mark an
    auto-reply and no password. Each of its mails is a wrong-password mail from Anna's own
    address, so the storm ends at the wrong-password limit, within minutes, not at the hourly
    answer limit (20) — and nothing changes."""
    svc, mails, clock = table.svc, table.mails, table.clock
    earlier = len(outbox(svc))
    _, raw = mails.mail(ANNA, "Züge", orders(ANNA))
    ingest(svc, raw)
    before = game_snapshot(svc)
    responded: set[int | None] = set()
    minutes = 0
    while minutes < 3 * 60:  # three hours of a responder answering within a minute
        todo = [o for o in outbox(svc)[earlier:] if o.recipients == ANNA and o.id not in responded]
        if not todo:
            break
        for o in todo:
            responded.add(o.id)
            _, raw = mails.mail(
                ANNA,
                f"Abwesend: {o.subject}",
                "Ich bin bis 20.1. nicht da.\n\n"
                + "".join(f"> {line}\n" for line in o.body.splitlines()),
                {"In-Reply-To": o.message_id},
            )
            ingest(svc, raw)
        clock.advance(minutes=1)
        minutes += 1
    assert minutes < 15, "the storm is over within minutes"
    answers = [o for o in outbox(svc)[earlier:] if o.recipients == ANNA]
    assert 1 < len(answers) <= 1 + svc.config.bad_password_limit, [
        (o.kind, o.subject) for o in answers
    ]
    assert game_snapshot(svc) == before
