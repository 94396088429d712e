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
- passwords in the database's files as they lie on the disk (`pbm.db`, `-wal`, `-shm`), read
  while the engine is open and after it is closed: none once the welcome mails are sent, after
  `pbm player password`, and after a clean stop of `pbm serve` and `pbm poll`;
- probing: what a player or a stranger can get the service to mail them (status with and
  without a password, a forged From, another seat's password, help, wrong rounds, observing)
  shows no other player's password, unplayed cards or orders;
- a vacation responder that marks nothing: the storm ends by itself after a handful of answers.
"""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import json
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
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
    eventually,
    join_through_inbox,
    make_service,
    new_game,
    orders_text,
    set_service,
    setup_by_deadline,
    signup,
    start_game,
)
from sqlalchemy import inspect, text
from sqlmodel import Session, col, select
from typer.testing import CliRunner

from pbm.cli import app
from pbm.devservers.loopback import free_port
from pbm.files import write_private
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.outgoing import PASSWORD_PLACEHOLDER
from pbm.mail.transport import Transports
from pbm.notation import Context, parse_mail
from pbm.reports import codebook
from pbm.service import gm
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game, load_state, save_state
from pbm.service.ingest import ingest
from pbm.service.schema import close_service
from pbm.service.secrets import verify_password
from pbm.service.sending import send_pending
from pbm.service.serve import serve
from pbm.store.db import scrub, transaction
from pbm.store.models import Game, OrderSet, Outbox, Player

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
    assert svc.config.service.bad_password_limit == 5
    answered = []
    for i in range(8):
        mid, raw = table.mails.mail(ANNA, "Züge", orders(ANNA, f"rot-{200000 + i}"))
        ingest(svc, raw)
        answered.append(len(answers_to(svc, mid)))
        table.clock.advance(minutes=5)
    assert answered == [1, 1, 1, 1, 1, 0, 0, 0]


@pytest.mark.timeout(60)
def test_a_players_slip_after_forged_mails_is_told_an_hour_later(table: Table) -> None:
    """Five forged mails in Anna's name used up the hour's answers; her own mail with one
    wrong character then got no answer at all, and she took her orders to be in. One mail
    waits an hour and tells her (one, however many more come)."""
    svc = table.svc
    for i in range(5):
        _, raw = table.mails.mail(ANNA, "[alpha]", orders(ANNA, f"rot-xxxx-{i}"))
        ingest(svc, raw)
    slip = PLAYERS[ANNA][0][:-1] + "x"
    for _ in range(3):  # hers, and more forged ones
        mid, raw = table.mails.mail(ANNA, "Züge", orders(ANNA, slip))
        ingest(svc, raw)
        assert not answers_to(svc, mid)
    (later,) = [o for o in outbox(svc) if o.kind == "bad_password_later"]
    assert later.recipients == ANNA and later.status == "pending"
    assert later.next_attempt is not None
    due = later.next_attempt.replace(tzinfo=None) - table.clock.now().replace(tzinfo=None)
    assert due == timedelta(hours=1)
    said = " ".join(later.body.split())
    assert "mehr Mails mit fehlendem oder falschem Kennwort" in said
    assert "schicke sie noch einmal, mit deiner Kennwort-Zeile oben" in said


@pytest.mark.timeout(60)
def test_the_later_mail_goes_before_a_near_deadline(table: Table) -> None:
    """An hour later would be after the round: the mail goes half an hour before it."""
    svc = table.svc
    with transaction(svc.engine) as s:
        game = s.exec(select(Game).where(Game.name == "alpha")).one()
        game.deadline = table.clock.now() + timedelta(minutes=40)
    for i in range(6):
        _, raw = table.mails.mail(ANNA, "Züge", orders(ANNA, f"rot-xxxx-{i}"))
        ingest(svc, raw)
    (later,) = [o for o in outbox(svc) if o.kind == "bad_password_later"]
    assert later.next_attempt is not None
    due = later.next_attempt.replace(tzinfo=None) - table.clock.now().replace(tzinfo=None)
    assert due == timedelta(minutes=10)


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
    issued = _unsent_welcomes(svc)
    assert len(issued) == 4, issued
    with transaction(svc.engine) as s:
        game = get_game(s, "alpha")
        colour = {p.address: p.colour or "" for p in s.exec(select(Player))}
        gm.new_password_for(svc, s, game, colour[BERND])
        gm.replace_player(svc, s, game, colour[CARLA], NEWCOMER)
    # The welcome mails not sent yet with a password that no longer works (Bernd's first,
    # Carla's) are dropped, their passwords emptied.
    dropped = [o for o in outbox(svc) if o.kind == "welcome" and o.status == "dropped"]
    assert sorted(o.recipients for o in dropped) == sorted([BERND, CARLA])
    assert not any(o.secret for o in dropped)
    now = _unsent_welcomes(svc)
    assert sorted(now.values()) == sorted([ANNA, BERND, DIETER, NEWCOMER])
    issued |= now
    assert len(issued) == 6, issued  # four at the draw, Bernd's new one, the newcomer's
    return svc, issued


def _unsent_welcomes(svc: Service) -> dict[str, str]:
    """The passwords of the welcome mails not sent yet → their recipients."""
    out = {}
    for o in outbox(svc):
        if o.kind == "welcome" and o.status == "pending":
            # The body holds a placeholder; the password waits in `secret` until it is sent.
            assert not _PASSWORD.search(o.body.replace(PASSWORD_PLACEHOLDER, "")), o.body
            assert o.secret and PASSWORD_PLACEHOLDER in o.body
            out[o.secret] = o.recipients
    return out


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


def encodings(password: str) -> list[bytes]:
    """The password as its bytes may lie in a file: UTF-8, UTF-16 in either byte order, and
    base64 at each of the three alignments (the characters the password's bytes alone make;
    quoted-printable leaves these passwords as they are)."""
    raw = password.encode()
    out = [raw, password.encode("utf-16-le"), password.encode("utf-16-be")]
    for start in range(3):
        part = raw[start:]
        out.append(base64.b64encode(part[: len(part) // 3 * 3]))
    return out


def database_path(svc: Service) -> Path:
    return Path(svc.engine.url.database or "")


#: Reads the files in a process of its own: a close() of any descriptor of the database file
#: in this process would drop the POSIX locks of this process's SQLite connections to it (and
#: another process would then take itself for the last one and delete the WAL).
_SCAN = """
import json, sys
from pathlib import Path
job = json.load(sys.stdin)
hits = {}
for suffix in ("", "-wal", "-shm", "-journal"):
    path = Path(job["db"] + suffix)
    if path.exists():
        data = path.read_bytes()
        found = [pw for pw, codes in job["codes"].items()
                 if any(c.encode("latin-1") in data for c in codes)]
        if found:
            hits[path.name] = found
print(json.dumps(hits))
"""


def database_file_hits(db: Path, passwords: Iterable[str]) -> dict[str, list[str]]:
    """{file: the passwords in it} over the database's files as they lie on the disk now
    (`pbm.db`, `-wal`, `-shm`, `-journal`), each password in any of its `encodings`."""
    codes = {pw: [e.decode("latin-1") for e in encodings(pw)] for pw in passwords}
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", _SCAN],
        input=json.dumps({"db": str(db), "codes": codes}),
        capture_output=True,
        text=True,
        check=True,
    )
    hits: dict[str, list[str]] = json.loads(done.stdout)
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
    db = database_path(svc)
    assert database_file_hits(db, issued), "the scan sees the passwords waiting in the outbox"
    waiting = _unsent_welcomes(svc)  # the two with a password that no longer works: dropped
    server = outgoing.start()
    result = server.send(svc, from_address=GM)
    assert not result.failed and not result.retry
    # In no file of the database, read from the disk with the engine still open (the WAL's
    # older pages included), the two dropped mails' passwords neither.
    assert database_file_hits(db, issued) == {}
    delivered: dict[str, str] = {}
    for attempt in server.accepted:
        msg = email.message_from_bytes(attempt.raw, policy=email.policy.default)
        body = msg.get_body(preferencelist=("plain",))
        assert body is not None
        m = _PASSWORD.search(body.get_content())  # type: ignore[attr-defined]
        if m and m.group(1) != "…":  # not the "Kennwort: …" of the order examples
            assert attempt.rcpt_tos == [str(msg["To"])]
            delivered[m.group(1)] = attempt.rcpt_tos[0]
    assert delivered == waiting, "every password reached its owner, and only its owner"
    assert all(not o.secret for o in outbox(svc)), "no secret kept after sending"
    hits = plaintext_hits(svc, issued)
    svc.engine.dispose()
    assert hits == []
    assert database_file_hits(db, issued) == {}


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
            assert current[owner].password_hash.startswith("$pbm-blake2b$v=1$")
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
    set_service(svc, gm_address="spielleitung@pbm.test")
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


# -- passwords in the database's files ------------------------------------------------------------
#
# The red-team finding (docs/security.md, "Passwords in the database's files"): the columns were
# clean, but the WAL kept the pages as they were before a password was emptied or masked: each
# player's password five times in pbm.db-wal after a clean stop, and a renewed one as the old
# `secret`. These tests read the files themselves, as they lie on the disk, while the engine is
# open and after it is closed.


def _config(tmp_path: Path, svc: Service) -> Path:
    """A pbm.toml on the test's database, with IMAP and SMTP on ports where nothing listens."""
    cfg = tmp_path / "cli.toml"
    write_private(
        cfg,
        f'[database]\nurl = "sqlite:///{database_path(svc)}"\n\n'
        f'[service]\naddress = "{GM}"\npoll_seconds = 0.2\ntick_seconds = 0.2\n'
        "send_seconds = 0.2\n\n"
        f'[imap]\nhost = "127.0.0.1"\nport = {free_port()}\nuser = "{GM}"\npassword = "x"\n\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {free_port()}\nfrom = "{GM}"\n',
    )
    return cfg


def _cli(cfg: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def _welcomes_to(svc: Service, address: str) -> list[Outbox]:
    return [o for o in outbox(svc) if o.kind == "welcome" and o.recipients == address]


@pytest.mark.timeout(90)
def test_pbm_player_password_leaves_no_old_password_in_the_database_files(
    tmp_path: Path,
) -> None:
    """Bernd's welcome mail is refused for good (failed: it keeps its password for `pbm outbox
    retry`). The GM gives him a new password with `pbm player password`: the failed mail is
    dropped and its password is in no file any more, the new one waits in the outbox alone;
    once that is sent, no password is in any file."""
    svc, issued = drawn_table(tmp_path)
    db = database_path(svc)
    smtp = MemorySmtp(from_address=GM)
    smtp.refuse(BERND, 550, "mailbox unavailable")
    asyncio.run(send_pending(svc, smtp.sender))
    [failed] = [o for o in _welcomes_to(svc, BERND) if o.status == "failed"]
    assert failed.secret
    old = failed.secret
    assert database_file_hits(db, issued) == {"pbm.db": [old]}, "only the failed one's"
    smtp.allow(BERND)
    with Session(svc.engine) as s:
        colour = s.exec(select(Player).where(Player.address == BERND)).one().colour
    assert colour
    _cli(_config(tmp_path, svc), "player", "password", "alpha", colour)
    rows = _welcomes_to(svc, BERND)
    assert [(o.status, bool(o.secret)) for o in rows] == [
        ("dropped", False),  # Bernd's first, dropped with his first renewal (drawn_table)
        ("dropped", False),  # the one refused, dropped now
        ("pending", True),
    ]
    new = rows[-1].secret
    passwords = [*issued, new]
    # The test's engine is still open (its connections idle), as a running `pbm serve`'s is.
    assert database_file_hits(db, passwords) == {"pbm.db": [new]}
    # The command queued it by the real clock: the test's is moved past it.
    assert isinstance(svc.clock, FakeClock) and rows[-1].next_attempt is not None
    svc.clock.advance(seconds=(rows[-1].next_attempt - svc.clock.now()).total_seconds() + 60)
    result = asyncio.run(send_pending(svc, smtp.sender))
    assert result.sent == [rows[-1].id] and result.cleared == result.sent
    assert database_file_hits(db, passwords) == {}
    svc.engine.dispose()
    assert database_file_hits(db, passwords) == {}


def _orders_in(svc: Service) -> list[str]:
    """Three players of `table` send orders with their passwords (Dieter not: the round stays
    open, and its deadline lies a month ahead of the real time the commands run on, so that
    no resolution's writes push the old pages out of the WAL by themselves); returns the
    passwords."""
    with transaction(svc.engine) as s:
        get_game(s, "alpha").deadline = datetime.now(UTC) + timedelta(days=30)
    mails = Mailer()
    for address in (ANNA, BERND, CARLA):
        _, raw = mails.mail(address, "Züge", orders(address))
        assert ingest(svc, raw).status == "done"
    return [PLAYERS[a][0] for a in (ANNA, BERND, CARLA)]


@pytest.mark.timeout(90)
def test_pbm_poll_leaves_no_password_in_the_database_files(table: Table, tmp_path: Path) -> None:
    """Order mails came in: their passwords are masked in the stored mails, but the WAL still
    holds the pages as the mails came. After `pbm poll` (its mail servers out of reach) the
    WAL is written back and cut: no file holds a password, with the test's engine still open
    and after it is closed."""
    svc = table.svc
    db = database_path(svc)
    passwords = _orders_in(svc)
    assert plaintext_hits(svc, {pw: a for a, (pw, _) in PLAYERS.items()}) == []
    assert Path(f"{db}-wal").stat().st_size > 0
    assert database_file_hits(db, passwords).get("pbm.db-wal"), "the mails as they came"
    # The inbox out of reach: the pass goes on, says so and exits with 1 (docs/gm-guide.md).
    done = CliRunner().invoke(app, ["--config", str(_config(tmp_path, svc)), "poll"])
    assert done.exit_code == 1 and "inbox_failed=1" in done.output, done.output
    assert database_file_hits(db, passwords) == {}
    svc.engine.dispose()
    assert database_file_hits(db, passwords) == {}


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_clean_stop_of_pbm_serve_leaves_no_password_in_the_database_files(
    table: Table, tmp_path: Path
) -> None:
    """As for `pbm poll`, with `pbm serve` in a process of its own, stopped by SIGTERM."""
    svc = table.svc
    db = database_path(svc)
    passwords = _orders_in(svc)
    assert database_file_hits(db, passwords).get("pbm.db-wal"), "the mails as they came"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pbm", "--config", str(_config(tmp_path, svc)), "serve"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            deadline = time.monotonic() + 60
            while b"imap: " not in log.read_bytes():  # the loops run
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(60) == 0, log.read_text()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert b"stopped" in log.read_bytes()
    assert database_file_hits(db, passwords) == {}
    svc.engine.dispose()
    assert database_file_hits(db, passwords) == {}


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_a_served_game_leaves_no_password_in_the_database_files(tmp_path: Path) -> None:
    """`serve` with the in-memory mail: four players join by mail and get their welcome mails,
    the setup passes by the deadlines, everyone sends orders, and the GM renews a password
    while it runs. Whenever a password was emptied from the outbox, and once an inbox pass
    has read the order mails, no file holds any password; at the clean stop (`serve`
    returned, then what `pbm serve` does at its end: `close_service`) none either."""
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    db = database_path(svc)
    new_game(svc, "alpha", players=4, seed=7)
    mailbox, smtp = MemoryMailbox(), MemorySmtp(from_address=GM)
    transports = Transports(inbox=mailbox.inbox, sender=smtp.sender)
    mails = Mailer()
    addresses = [f"p{i}@players.test" for i in range(4)]

    def passwords() -> dict[str, str]:
        """The passwords mailed so far → their owner (the last one each got)."""
        out = {}
        for sent in smtp.accepted:
            for pw in _PASSWORD.findall(sent.text):
                if pw not in ("…", "****"):
                    out[pw] = sent.rcpt_tos[0]
        return out

    def all_sent() -> bool:
        return all(o.status == "sent" for o in outbox(svc))

    async def run() -> None:
        stop = asyncio.Event()
        periods = {"poll_seconds": 0.1, "tick_seconds": 0.1, "send_seconds": 0.1}
        svc.config = svc.config.updated(service={**periods})
        task = asyncio.create_task(serve(svc, stop, transports))
        try:
            for i, address in enumerate(addresses):
                body = f"Name: Spieler {i}\nFarben: rot, blau\n"
                await join_through_inbox(svc, mailbox.append, address, "alpha", body)
            await eventually(lambda: len(passwords()) == 4 and all_sent(), 30, "welcomes")
            # The pass that sent them scrubs once it is through.
            await eventually(lambda: not database_file_hits(db, passwords()), 10, "scrubbed")
            while _game(svc).phase == "setup":
                clock.advance(hours=49)
                await asyncio.sleep(0.3)
            game = _game(svc)
            state = load_state(game)
            owner = {a: pw for pw, a in passwords().items()}
            with Session(svc.engine) as s:
                seats = {p.seat: p.address for p in s.exec(select(Player))}
            for seat, address in seats.items():
                assert seat is not None
                body = orders_text(state, seat, owner[address])
                mailbox.append(mails.raw(address, "Züge", body))
            await eventually(lambda: _game(svc).round == 2, 30, "round 1 resolved")
            await eventually(all_sent, 30, "the reports sent")
            seen = dict(passwords())
            # The inbox pass that read the order mails stored them masked and scrubbed.
            await eventually(lambda: not database_file_hits(db, seen), 10, "orders scrubbed")
            from pbm.service import admin

            await asyncio.to_thread(admin.new_password, svc, "alpha", state.colours[0])
            await eventually(lambda: len(passwords()) == 5 and all_sent(), 30, "renewed")
            seen = dict(passwords())
            await eventually(lambda: not database_file_hits(db, seen), 10, "scrubbed")
            # More order mails, then the clean stop.
            owner = {a: pw for pw, a in seen.items()}
            state = load_state(_game(svc))
            for seat, address in seats.items():
                assert seat is not None
                body = orders_text(state, seat, owner[address])
                mailbox.append(mails.raw(address, "Züge", body))
            await eventually(lambda: _game(svc).round == 3, 30, "round 2 resolved")
        finally:
            stop.set()
            await asyncio.wait_for(task, 20)

    asyncio.run(run())
    seen = passwords()
    assert len(seen) == 5
    assert database_file_hits(db, seen) == {}, "serve scrubs at its end, the engine still open"
    scrub(svc.engine)  # what `pbm serve` does at its clean stop (close_service), in two steps
    assert database_file_hits(db, seen) == {}, "with the engine still open"
    close_service(svc)
    assert database_file_hits(db, seen) == {}


def _game(svc: Service) -> Any:
    with Session(svc.engine) as s:
        return get_game(s, "alpha")


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
    assert 1 < len(answers) <= 1 + svc.config.service.bad_password_limit, [
        (o.kind, o.subject) for o in answers
    ]
    assert game_snapshot(svc) == before
