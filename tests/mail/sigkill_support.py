"""Helpers for test_serve_sigkill: 10 games of five at the start of round 1, the run without
kills (in process, the same calls `pbm serve` makes for each mail), an SMTP sink that records
every delivery, a read-only view of the database while `pbm serve` writes it, and how the
`pbm serve` processes are started.

The games are set up once in a template database, which each run copies, so both runs start
from the same bytes. Their deadlines lie two days ahead: every round resolves early, when its
five orders are in, never by the clock.
"""

from __future__ import annotations

import email.policy
import json
import shutil
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from harness import GM, confirmation_code, raw_mail
from sqlmodel import Session as DbSession
from sqlmodel import col, select

from pbm.config.model import ServiceSection, Settings
from pbm.devservers.loopback import free_port
from pbm.notation import Context
from pbm.notation.format import format_turn_orders
from pbm.rules import autopilot, state_from_json
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, get_game
from pbm.service.ingest import ingest
from pbm.service.secrets import hash_password
from pbm.service.tick import resolve_if_ready, tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Game, InboundMail, OrderSet, Outbox, Player, RoundRecord

GAMES = 10
SEATS = 5
ROUNDS = 5  # 10 games x 5 seats x 5 rounds = 250 order mails
NAMES = [f"g{i:02d}" for i in range(GAMES)]
#: Each seat's password, the same in every game (their hashes are made once).
PASSWORDS = [f"sitz{seat}-{470110 + seat}" for seat in range(SEATS)]


def _address(game: str, i: int) -> str:
    return f"{game}.p{i}@players.test"


def _url(db: Path) -> str:
    return f"sqlite:///{db}"


def build_tables(db: Path) -> None:
    """GAMES games of SEATS players, joined by mail, set up by the setup deadlines (the
    service places for everyone), at the start of round 1; seat s has the password
    PASSWORDS[s]. Every mail this caused counts as sent.

    The setup's ten placement deadlines take ten days on the fake clock, which starts that
    long and two hours back, so round 1's deadline (48 h after the setup) lies about two days
    ahead of the real time `pbm serve` runs on, far beyond the clock shifts of the restarts."""
    upgrade(_url(db))
    engine = make_engine(_url(db))
    clock = FakeClock(datetime.now(UTC) - timedelta(days=10, hours=2))
    svc = Service(engine, clock, Settings(service=ServiceSection(address=GM)))
    try:
        for n, name in enumerate(NAMES):
            with transaction(engine) as s:
                create_game(svc, s, name, players=SEATS, seed=1000 + n)
            for i in range(SEATS):
                body = f"Spiel: {name}\nName: Spieler {i}\nFarben: rot, blau\n"
                raw = raw_mail(
                    _address(name, i), "Anmeldung", body, f"<join.{name}.{i}@players.test>"
                )
                assert ingest(svc, raw).status == "done"
                code = confirmation_code(svc, _address(name, i))
                raw = raw_mail(
                    _address(name, i),
                    "Re",
                    f"Spiel: {name}\nBestätigen: {code}\n",
                    f"<confirm.{name}.{i}@players.test>",
                )
                assert ingest(svc, raw).status == "done"
        while True:
            with DbSession(engine) as s:
                games = list(s.exec(select(Game)))
            setup = [g.deadline for g in games if g.phase == "setup" and g.deadline is not None]
            if not setup:
                break
            clock.advance(seconds=(min(setup) - clock.now()).total_seconds() + 1)
            tick(svc)
        hashes = [hash_password(password) for password in PASSWORDS]
        with transaction(engine) as s:
            games = list(s.exec(select(Game)))
            assert [(g.phase, g.round) for g in games] == [("rounds", 1)] * GAMES
            for p in s.exec(select(Player)):
                assert p.seat is not None
                p.password_hash = hashes[p.seat]
            for row in s.exec(select(Outbox)):
                row.status, row.sent_at = "sent", clock.now()
        for game in games:
            assert game.deadline is not None
            assert game.deadline.replace(tzinfo=UTC) > datetime.now(UTC) + timedelta(hours=24)
    finally:
        engine.dispose()


def copy_db(template: Path, to: Path) -> Path:
    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(template, to)
    return to


@dataclass(frozen=True)
class OrderMail:
    game: str
    round: int
    seat: int
    message_id: str
    raw: bytes


def seats_and_passwords(db: Path) -> dict[str, dict[int, tuple[str, str]]]:
    """Per game, each seat's address and password."""
    engine = make_engine(_url(db))
    try:
        with DbSession(engine) as s:
            names = {g.id: g.name for g in s.exec(select(Game))}
            out: dict[str, dict[int, tuple[str, str]]] = {n: {} for n in names.values()}
            for p in s.exec(select(Player)):
                if p.seat is not None:
                    out[names[p.game_id]][p.seat] = (p.address, PASSWORDS[p.seat])
            return out
    finally:
        engine.dispose()


def order_mails(name: str, state_json: str, seats: dict[int, tuple[str, str]]) -> list[OrderMail]:
    """The five order mails of a game for its open round: each player sends what the
    autopilot would order, with the round named (`Runde: n`)."""
    state = state_from_json(json.loads(state_json))
    ctx = Context(state.board, "de", state.colours, "round")
    mails = []
    for seat in range(SEATS):
        address, password = seats[seat]
        lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
        body = f"Kennwort: {password}\nRunde: {state.round}\n" + "\n".join(lines) + "\n"
        message_id = f"<{name}.r{state.round}.s{seat}@players.test>"
        mails.append(
            OrderMail(
                name,
                state.round,
                seat,
                message_id,
                raw_mail(address, f"Züge Runde {state.round}", body, message_id),
            )
        )
    return mails


def timed_play_without_kills(db: Path) -> tuple[list[OrderMail], float]:
    start = time.monotonic()
    mails = play_without_kills(db)
    return mails, time.monotonic() - start


def play_without_kills(db: Path) -> list[OrderMail]:
    """The run without kills, in process: round by round, each game's five players send their
    orders (`order_mails`); each mail is ingested and its game resolved when complete, as
    `pbm serve` does (`take_in`). Returns the mails in the order sent."""
    seats = seats_and_passwords(db)
    engine = make_engine(_url(db))
    svc = Service(engine, config=Settings(service=ServiceSection(address=GM)))
    sent: list[OrderMail] = []
    try:
        for rnd in range(1, ROUNDS + 1):
            for name in NAMES:
                with DbSession(engine) as s:
                    game = get_game(s, name)
                assert (game.phase, game.round) == ("rounds", rnd), (name, game.phase)
                for mail in order_mails(name, game.state, seats[name]):
                    result = ingest(svc, mail.raw)
                    assert result.status == "done", (mail.message_id, result)
                    if result.game:
                        resolve_if_ready(svc, result.game)
                    sent.append(mail)
    finally:
        engine.dispose()
    return sent


# -- what a run left behind ---------------------------------------------------------------------


@dataclass
class Outcome:
    """Everything a finished run is judged by, read with the service's own models."""

    #: Per game: (phase, round, state JSON).
    games: dict[str, tuple[str, int, str]]
    game_ids: dict[str, int]
    #: Per game: (step, kind, round, orders, events, state_after) of each record.
    records: dict[str, list[tuple[int, str, int, str, str, str]]]
    #: Per game: (player address, round, text, superseded) of each round's order set.
    orders: dict[str, list[tuple[str, int, str, bool]]]
    inbound: list[InboundMail]
    #: The outbox rows written during the run (the setup's rows excluded).
    outbox: list[Outbox]


def outcome(db: Path, since_outbox_id: int) -> Outcome:
    engine = make_engine(_url(db))
    try:
        with DbSession(engine) as s:
            games = {g.id: g for g in s.exec(select(Game))}
            names = {gid: g.name for gid, g in games.items()}
            addresses = {p.id: p.address for p in s.exec(select(Player))}
            records: dict[str, list[tuple[int, str, int, str, str, str]]] = {
                n: [] for n in names.values()
            }
            for r in s.exec(
                select(RoundRecord).order_by(col(RoundRecord.game_id), col(RoundRecord.step))
            ):
                records[names[r.game_id]].append(
                    (r.step, r.kind, r.round, r.orders, r.events, r.state_after)
                )
            orders: dict[str, list[tuple[str, int, str, bool]]] = {n: [] for n in names.values()}
            for o in s.exec(
                select(OrderSet)
                .where(OrderSet.setup_step < 0)
                .order_by(
                    col(OrderSet.game_id),
                    col(OrderSet.round),
                    col(OrderSet.player_id),
                    col(OrderSet.id),
                )
            ):
                orders[names[o.game_id]].append(
                    (addresses[o.player_id], o.round, o.text, o.superseded)
                )
            return Outcome(
                games={g.name: (g.phase, g.round, g.state) for g in games.values()},
                game_ids={name: gid for gid, name in names.items() if gid is not None},
                records=records,
                orders=orders,
                inbound=list(
                    s.exec(
                        select(InboundMail)
                        .where(col(InboundMail.message_id).like("<g%.r%.s%@players.test>"))
                        .order_by(col(InboundMail.id))
                    )
                ),
                outbox=list(
                    s.exec(
                        select(Outbox)
                        .where(col(Outbox.id) > since_outbox_id)
                        .order_by(col(Outbox.id))
                    )
                ),
            )
    finally:
        engine.dispose()


def last_outbox_id(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT max(id) FROM outbox").fetchone()[0])


# -- watching the database while `pbm serve` writes it -----------------------------------------


@dataclass
class Progress:
    rounds: dict[str, int] = field(default_factory=dict)
    #: Order mails stored and processed (not "new").
    processed: int = 0
    #: Outbox rows of the run still pending.
    pending: int = 0
    #: Message-IDs of the run's outbox rows.
    outbox_ids: set[str] = field(default_factory=set)


class Watcher:
    """Plain sqlite3 reads in autocommit mode: in WAL mode they never take the write lock
    (the service's own engine begins every transaction with BEGIN IMMEDIATE)."""

    def __init__(self, db: Path, since_outbox_id: int) -> None:
        self.conn = sqlite3.connect(db, timeout=30, isolation_level=None, check_same_thread=False)
        self.lock = threading.Lock()
        self.since = since_outbox_id

    def read(self) -> Progress:
        p = Progress()
        with self.lock:
            c = self.conn
            p.rounds = dict(c.execute("SELECT name, round FROM game").fetchall())
            p.processed = c.execute(
                "SELECT count(*) FROM inboundmail WHERE status != 'new' "
                "AND message_id LIKE '<g%.r%.s%@players.test>'"
            ).fetchone()[0]
            rows = c.execute(
                "SELECT message_id, status FROM outbox WHERE id > ?", (self.since,)
            ).fetchall()
        p.pending = sum(1 for _, status in rows if status == "pending")
        p.outbox_ids = {mid for mid, _ in rows}
        return p

    def game(self, name: str) -> tuple[int, str]:
        """A game's round and state, read together."""
        with self.lock:
            row = self.conn.execute(
                "SELECT round, state FROM game WHERE name = ?", (name,)
            ).fetchone()
        return int(row[0]), str(row[1])

    def close(self) -> None:
        with self.lock:
            self.conn.close()


# -- the SMTP sink ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Delivery:
    at: float  # time.monotonic() when the DATA was accepted
    #: time.monotonic() when the last RCPT was answered. The client was alive after this (it
    #: sent DATA only after that answer: the sink offers no PIPELINING), so the process that
    #: delivered the mail is the one running at this moment; `at` may come a moment after a
    #: kill, from what the killed process had sent before.
    sender_alive_at: float
    recipients: tuple[str, ...]
    message_id: str
    in_reply_to: str
    subject: str


class SinkHandler:
    """aiosmtpd handler: accepts every recipient and records every message."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.deliveries: list[Delivery] = []

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        envelope.rcpt_tos.append(address.lower())
        envelope.sender_alive_at = time.monotonic()  # type: ignore[attr-defined]
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        msg = BytesHeaderParser(policy=email.policy.default).parsebytes(
            raw if isinstance(raw, bytes) else raw.encode()
        )
        delivery = Delivery(
            time.monotonic(),
            envelope.sender_alive_at,  # type: ignore[attr-defined]
            tuple(envelope.rcpt_tos),
            str(msg["Message-ID"] or ""),
            str(msg["In-Reply-To"] or ""),
            str(msg["Subject"] or ""),
        )
        with self.lock:
            self.deliveries.append(delivery)
        return "250 2.0.0 Ok: queued"

    def snapshot(self) -> list[Delivery]:
        with self.lock:
            return list(self.deliveries)


class Sink:
    def __init__(self) -> None:
        self.handler = SinkHandler()
        self.port = free_port()
        self._controller = Controller(self.handler, hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()


# -- `pbm serve` --------------------------------------------------------------------------------

#: Runs `pbm --config FILE serve` (the console script's `pbm.cli:main`) on a wall clock moved
#: forward by $PBM_TEST_CLOCK_SHIFT seconds. Each restart runs later than the one before by
#: more than the outbox lease, as if the restart had come after that pause, so rows a killed
#: process had claimed are due again at once instead of ten minutes later.
LAUNCH = """\
import os, sys
from datetime import timedelta
from pbm.service import clock
shift = timedelta(seconds=float(os.environ["PBM_TEST_CLOCK_SHIFT"]))
wall = clock.SystemClock.now
clock.SystemClock.now = lambda self: wall(self) + shift
sys.argv[0] = "pbm"
from pbm.cli import main
main()
"""


def write_config(path: Path, db: Path, imap_port: int, smtp_port: int) -> Path:
    path.write_text(
        f'[database]\nurl = "sqlite:///{db}"\n\n'
        f'[service]\naddress = "{GM}"\npoll_seconds = 0.1\ntick_seconds = 1\n'
        "send_seconds = 0.1\n\n"
        f'[imap]\nhost = "127.0.0.1"\nport = {imap_port}\nuser = "{GM}"\npassword = "pw"\n'
        'processed_folder = "Processed"\nidle = false\n\n'
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\nfrom = "{GM}"\n',
        encoding="utf-8",
    )
    return path


def tail(path: Path, lines: int = 25) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def last_line(path: Path) -> str:
    text = tail(path, 1)
    return text.split(" ", 3)[-1] if text else ""


def count(items: list[Any]) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for it in items:
        out[it] = out.get(it, 0) + 1
    return out
