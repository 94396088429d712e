"""The test harness behind the fixtures of tests/conftest.py: one mail player and one game factory.

- `Mailer`, the mail player: raw mails with fresh Message-IDs, fed to `ingest` as the IMAP
  poller would (and the round resolved when that completed it, as `pbm serve` does).
- `setup_text` / `orders_text`: a seat's orders written by the autopilot, in the game's
  language, so every order is legal and sensible.
- `start_game`, the game factory: a game created, signed up by mail, set up (by mail or by the
  deadlines) and played by mail to round N, with the players' passwords known: read from their
  welcome mails, or the `CAST`'s, four named players with fixed passwords and colours.
- Fresh migrated databases (`sqlite_database`, `pg_database`), copied from a template that is
  migrated once per test run; readers of the database (`outbox`, `seated`, `passwords`, …);
  `eventually` for loops running in the background.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import functools
import gc
import itertools
import os
import re
import secrets
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlmodel import Session, SQLModel, col, select

from pbm.notation import Context
from pbm.notation.format import format_setup_orders, format_turn_orders
from pbm.rules import GameState, Phase, autopilot
from pbm.rules.setup import setup_player
from pbm.service.clock import FakeClock
from pbm.service.context import Service, ServiceConfig
from pbm.service.games import create_game, get_game, load_state
from pbm.service.ingest import IngestResult, ingest
from pbm.service.secrets import hash_password
from pbm.service.tick import resolve_if_ready, tick
from pbm.store.db import make_engine, transaction
from pbm.store.migrate import upgrade
from pbm.store.models import Game, InboundMail, OrderSet, Outbox, Player, RoundRecord

GM = "gm@pbm.test"
_PASSWORD = re.compile(r"(?:Kennwort|Password): (\S+)")

# -- the cast: four named players with known passwords -------------------------------------------

ANNA = "anna.mueller@web.test"
BERND = "bernd.schaefer@firma.test"
CARLA = "carla.rossi@gmail.test"
DIETER = "dieter.kuehn@icloud.test"
#: Password and preferred colour. In game "alpha" (medium board, seed 7) Dieter sits at seat 0
#: (weiss), Bernd 1 (gelb), Carla 2 (blau), Anna 3 (rot).
PLAYERS = {
    ANNA: ("tulpe-482913", "rot"),
    BERND: ("ahorn-771204", "gelb"),
    CARLA: ("kiesel-305518", "blau"),
    DIETER: ("birke-640027", "weiss"),
}
#: An order line each of them may send in round 1 of "alpha" (it passes the checks at receipt).
A_ROAD = {
    ANNA: "Straße 4H 5W",
    BERND: "Straße C3 D4",
    CARLA: "Straße 8L 4L",
    DIETER: "Straße 10H 3W",
}


# -- databases ----------------------------------------------------------------------------------

#: PostgreSQL on 127.0.0.1:5432 (trust auth, user postgres, maintenance database `test`).
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/{name}"


@functools.cache
def _sqlite_template() -> Path:
    """A SQLite file migrated to the newest schema, once per process; tests get copies."""
    path = Path(tempfile.mkdtemp(prefix="pbm-template-")) / "template.db"
    upgrade(f"sqlite:///{path}")
    gc.collect()  # alembic's engine: its connections close, the WAL is written back
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    atexit.register(shutil.rmtree, path.parent, True)
    return path


def sqlite_database(path: Path) -> str:
    """The URL of a fresh, migrated SQLite file at `path`."""
    shutil.copyfile(_sqlite_template(), path)
    return f"sqlite:///{path}"


def make_service(tmp_path: Path, clock: FakeClock | None = None, **config: Any) -> Service:
    """The service on a fresh SQLite file in `tmp_path`, with `ServiceConfig` values given."""
    url = sqlite_database(tmp_path / "pbm.db")
    return Service(make_engine(url), clock or FakeClock(), ServiceConfig(address=GM, **config))


def _pg_admin(sql: str, *args: object) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql.encode(), args or None)


@functools.cache
def _pg_unreachable() -> str:
    """Why PostgreSQL cannot be used ("" when it can); asked once per process."""
    try:
        _pg_admin("SELECT 1")
    except Exception as e:
        return f"PostgreSQL not reachable at {PG_ADMIN}: {type(e).__name__}: {e}".strip()
    return ""


@functools.cache
def _pg_template() -> str:
    """A database migrated to the newest schema, once per process; the pool copies it."""
    name = f"pbm_tpl_{secrets.token_hex(6)}"
    _pg_admin(f"CREATE DATABASE {name}")
    atexit.register(_pg_admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    upgrade(PG_URL.format(name=name))
    _pg_disconnect(name)  # copying needs the template to itself
    return name


def _pg_disconnect(name: str) -> None:
    """End every other session on database `name` (alembic's, a test's leftover engine)."""
    _pg_admin(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = %s AND pid <> pg_backend_pid()",
        name,
    )


def _pg_tables(name: str) -> tuple[list[str], str]:
    """The tables of database `name` (alembic's apart) and its schema revision."""
    import psycopg

    with psycopg.connect(PG_URL.format(name=name).replace("+psycopg", "")) as conn:
        tables = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'alembic_version' ORDER BY tablename"
            )
        ]
        (revision,) = conn.execute("SELECT version_num FROM alembic_version").fetchone() or ("",)
    return tables, revision


@functools.cache
def _pg_schema() -> tuple[list[str], str]:
    return _pg_tables(_pg_template())


#: Emptied databases ready for the next test: creating and dropping one costs half a second,
#: emptying it a few milliseconds.
_PG_POOL: list[str] = []


def _pg_take() -> str:
    if _PG_POOL:
        return _PG_POOL.pop()
    name = f"pbm_t_{secrets.token_hex(6)}"
    _pg_admin(f"CREATE DATABASE {name} TEMPLATE {_pg_template()}")
    atexit.register(_pg_admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    return name


def _pg_give_back(name: str) -> None:
    """Empty the database (every table, its ids from 1 again) for the next test; one whose
    schema a test changed is dropped instead."""
    import psycopg

    _pg_disconnect(name)
    tables, revision = _pg_tables(name)
    if (tables, revision) != _pg_schema():
        _pg_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        return
    with psycopg.connect(PG_URL.format(name=name).replace("+psycopg", "")) as conn:
        conn.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE".encode())
    _PG_POOL.append(name)


@contextlib.contextmanager
def pg_database() -> Iterator[str]:
    """The URL of a fresh, migrated PostgreSQL database (an empty one of the pool). Skipped
    when PostgreSQL cannot be reached, unless the environment variable CI is set: then the
    test fails, so a CI run never passes by silently testing less."""
    reason = _pg_unreachable()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)")
        pytest.skip(reason)
    name = _pg_take()
    try:
        yield PG_URL.format(name=name)
    finally:
        _pg_give_back(name)


#: For a test that takes seconds on PostgreSQL only (it waits out a lock there): its
#: PostgreSQL run is in the slow tier, its SQLite run in the fast one.
slow_on_postgresql = pytest.mark.parametrize(
    "db_url",
    ["sqlite", pytest.param("postgresql", marks=[pytest.mark.pg, pytest.mark.slow])],
    indirect=True,
)


# -- the mail player ----------------------------------------------------------------------------


def raw_mail(
    sender: str, subject: str, body: str, message_id: str, headers: dict[str, str] | None = None
) -> bytes:
    m = EmailMessage()
    m["From"] = sender
    m["To"] = GM
    m["Subject"] = subject
    m["Message-ID"] = message_id
    for k, v in (headers or {}).items():
        m[k] = v
    m.set_content(body)
    return m.as_bytes()


#: One sequence for every Mailer of the process: two never make the same Message-ID.
_MAIL_NUMBERS = itertools.count(1)
_RUN = secrets.token_hex(3)


class Mailer:
    """Writes raw mails with fresh Message-IDs and feeds them to `ingest`, as the IMAP poller
    would. `svc` may be None for a player who only writes (`mail`, `raw`)."""

    def __init__(self, svc: Service | None = None) -> None:
        self._svc = svc
        self.last_id = ""

    @property
    def svc(self) -> Service:
        assert self._svc is not None, "this Mailer has no service"
        return self._svc

    def mail(
        self,
        sender: str,
        subject: str,
        body: str,
        headers: dict[str, str] | None = None,
        message_id: str | None = None,
    ) -> tuple[str, bytes]:
        """(Message-ID, raw bytes) of a new mail to the GM."""
        self.last_id = message_id or f"<m{next(_MAIL_NUMBERS)}.{_RUN}@players.test>"
        return self.last_id, raw_mail(sender, subject, body, self.last_id, headers)

    def raw(
        self, sender: str, subject: str, body: str, headers: dict[str, str] | None = None
    ) -> bytes:
        return self.mail(sender, subject, body, headers)[1]

    def send(
        self,
        sender: str,
        subject: str,
        body: str,
        headers: dict[str, str] | None = None,
        resolve: bool = True,
    ) -> IngestResult:
        """Ingest one mail; like `pbm serve`, resolve the round at once when all are in."""
        result = ingest(self.svc, self.raw(sender, subject, body, headers))
        if resolve and result.game:
            resolve_if_ready(self.svc, result.game)
        return result


#: The words of an order mail's first lines, by game language.
WORDS = {
    "de": {"password": "Kennwort", "round": "Runde", "help": "Hilfe", "game": "Spiel"},
    "en": {"password": "Password", "round": "Round", "help": "Help", "game": "Game"},
}


def setup_text(
    state: GameState, seat: int, password: str, alternatives: int = 3, lang: str = "de"
) -> str:
    """The autopilot's ranked setup placements for `seat`, as a mail body."""
    ctx = Context(state.board, lang, state.colours, "setup")
    lines = format_setup_orders(autopilot.setup_orders(state, seat, alternatives), ctx)
    return f"{WORDS[lang]['password']}: {password}\n" + "\n".join(lines) + "\n"


def orders_text(
    state: GameState, seat: int, password: str, round_: int | None = None, lang: str = "de"
) -> str:
    """The autopilot's orders for `seat` this round, as a mail body (with the round guard)."""
    ctx = Context(state.board, lang, state.colours, "round")
    lines = format_turn_orders(autopilot.turn_orders(state, seat), ctx)
    w = WORDS[lang]
    guard = f"{w['round']}: {state.round if round_ is None else round_}\n"
    return f"{w['password']}: {password}\n{guard}" + "\n".join(lines) + "\n"


# -- reading the database -----------------------------------------------------------------------


def game_state(svc: Service, name: str) -> tuple[Game, GameState]:
    with Session(svc.engine) as s:
        game = get_game(s, name)
        return game, load_state(game)


def game_row(svc: Service, name: str) -> Game:
    with Session(svc.engine) as s:
        return get_game(s, name)


def seated(svc: Service, name: str) -> dict[int, Player]:
    """The seated players by seat (not replaced, not observers)."""
    with Session(svc.engine) as s:
        game = get_game(s, name)
        rows = s.exec(
            select(Player).where(
                Player.game_id == game.id, col(Player.status).not_in(("replaced", "observer"))
            )
        )
        return {p.seat: p for p in rows if p.seat is not None}


def outbox(
    svc: Service, kind: str | None = None, to: str | None = None, status: str | None = None
) -> list[Outbox]:
    with Session(svc.engine) as s:
        query = select(Outbox).order_by(col(Outbox.id))
        if kind:
            query = query.where(Outbox.kind == kind)
        if status:
            query = query.where(Outbox.status == status)
        rows = list(s.exec(query))
    if to:
        rows = [r for r in rows if to in r.recipients.split(",")]
    return rows


def replies_to(svc: Service, message_id: str, kind: str | None = None) -> list[Outbox]:
    return [o for o in outbox(svc, kind) if o.in_reply_to == message_id]


def records(svc: Service, name: str) -> list[RoundRecord]:
    with Session(svc.engine) as s:
        game = get_game(s, name)
        return list(
            s.exec(
                select(RoundRecord)
                .where(RoundRecord.game_id == game.id)
                .order_by(col(RoundRecord.step))
            )
        )


def order_sets(svc: Service, name: str | None = None) -> list[OrderSet]:
    """The order sets of game `name` (of every game without it)."""
    with Session(svc.engine) as s:
        query = select(OrderSet).order_by(col(OrderSet.id))
        if name is not None:
            query = query.where(OrderSet.game_id == get_game(s, name).id)
        return list(s.exec(query))


def inbound(svc: Service, message_id: str | None = None) -> list[InboundMail]:
    with Session(svc.engine) as s:
        query = select(InboundMail).order_by(col(InboundMail.id))
        if message_id:
            query = query.where(InboundMail.message_id == message_id)
        return list(s.exec(query))


def passwords(svc: Service) -> dict[str, str]:
    """Each address's password, from the newest welcome mail sent to it."""
    out: dict[str, str] = {}
    for o in outbox(svc, "welcome"):
        # The stored body holds a placeholder; the password waits in `secret` until sent.
        if o.secret:
            out[o.recipients] = o.secret
            continue
        m = _PASSWORD.search(o.body)
        assert m, o.body
        out[o.recipients] = m.group(1)
    return out


def count_by(items: Iterable[Any], key: str) -> dict[Any, int]:
    out: dict[Any, int] = {}
    for it in items:
        out[getattr(it, key)] = out.get(getattr(it, key), 0) + 1
    return out


def game_snapshot(svc: Service) -> tuple[Any, ...]:
    """What a mail must not change unless it is accepted: games, players, order sets, records."""
    with Session(svc.engine) as s:
        return (
            [
                (g.name, g.phase, g.round, g.paused, g.deadline, g.state)
                for g in s.exec(select(Game).order_by(col(Game.id)))
            ],
            [
                (p.id, p.address, p.seat, p.status, p.autopilot, p.nmr_count, p.password_hash)
                for p in s.exec(select(Player).order_by(col(Player.id)))
            ],
            [
                (o.id, o.player_id, o.superseded)
                for o in s.exec(select(OrderSet).order_by(col(OrderSet.id)))
            ],
            [r.id for r in s.exec(select(RoundRecord))],
        )


# -- the game factory ---------------------------------------------------------------------------


def new_game(svc: Service, name: str = "alpha", **kw: Any) -> None:
    kw.setdefault("seed", 7)
    with transaction(svc.engine) as s:
        create_game(svc, s, name, **kw)


def signup(
    mailer: Mailer,
    name: str,
    players: int = 4,
    colours: list[str] | None = None,
    addresses: list[str] | None = None,
) -> list[str]:
    """Join `players` players by mail (p0@…, p1@… unless `addresses` are given), with the
    colour wishes `colours` (one string per player); returns their addresses."""
    addrs = addresses or [f"p{i}@players.test" for i in range(players)]
    for i, a in enumerate(addrs):
        prefs = colours[i] if colours else "rot, blau, gelb"
        r = mailer.send(a, "Anmeldung", f"Spiel: {name}\nName: Spieler {i}\nFarben: {prefs}\n")
        assert r.status == "done", r
    return addrs


def play_setup_by_mail(mailer: Mailer, name: str, lang: str = "de", alternatives: int = 3) -> None:
    svc = mailer.svc
    pw = passwords(svc)
    while True:
        _, st = game_state(svc, name)
        if st.phase != Phase.SETUP:
            return
        seat = setup_player(st)
        p = seated(svc, name)[seat]
        body = setup_text(st, seat, pw[p.address], alternatives, lang)
        r = mailer.send(p.address, "Aufstellung", body)
        assert r.status == "done", r


def pass_deadline(svc: Service, clock: FakeClock, name: str) -> None:
    """Move the clock one minute past the game's deadline."""
    deadline = game_row(svc, name).deadline
    assert deadline is not None
    if clock.now() < deadline:
        clock.advance(seconds=(deadline - clock.now()).total_seconds())
    clock.advance(minutes=1)


def setup_by_deadline(svc: Service, clock: FakeClock, name: str) -> None:
    """Let every setup deadline pass: the service places for everyone (no password checks)."""
    while game_row(svc, name).phase == "setup":
        pass_deadline(svc, clock, name)
        tick(svc)


def send_orders(
    mailer: Mailer,
    name: str,
    seats: Iterable[int],
    resolve: bool = True,
    pw: dict[str, str] | None = None,
) -> dict[int, IngestResult]:
    """The autopilot's orders for `seats`, each mailed by its player."""
    svc = mailer.svc
    pw = pw or passwords(svc)
    _, st = game_state(svc, name)
    players = seated(svc, name)
    out = {}
    for seat in seats:
        p = players[seat]
        out[seat] = mailer.send(
            p.address,
            f"Züge Runde {st.round}",
            orders_text(st, seat, pw[p.address]),
            resolve=resolve,
        )
        assert out[seat].status == "done", out[seat]
    return out


def play_round(
    mailer: Mailer,
    clock: FakeClock,
    name: str,
    skip: Iterable[int] = (),
    pw: dict[str, str] | None = None,
) -> bool:
    """Every seat not in `skip` (and not on autopilot) sends orders; if the round is then still
    open, its deadline passes. Returns whether the round was resolved early."""
    svc = mailer.svc
    _, st = game_state(svc, name)
    assert st.phase == Phase.ROUNDS
    players = seated(svc, name)
    seats = [
        s for s in range(st.settings.players) if s not in set(skip) and not players[s].autopilot
    ]
    send_orders(mailer, name, seats, pw=pw)
    if game_row(svc, name).round != st.round or game_row(svc, name).phase != "rounds":
        return True
    pass_deadline(svc, clock, name)
    assert name in tick(svc).resolved
    return False


@dataclass
class Table:
    """A game started by `start_game`."""

    name: str
    addresses: list[str]
    #: Each player's password (address → password).
    passwords: dict[str, str]
    #: The notation context of the open round (board, language, colours).
    ctx: Context
    seats: dict[int, str] = field(default_factory=dict)


def start_game(
    mailer: Mailer,
    clock: FakeClock,
    name: str = "alpha",
    players: int = 4,
    *,
    round_: int = 1,
    by_mail: bool = False,
    cast: bool = False,
    **settings: Any,
) -> Table:
    """The game factory: game `name` created (seed 7 unless `settings` say otherwise), signed
    up by mail, set up by mail (`by_mail`) or by the setup deadlines, at the start of round
    `round_` (the rounds before it played by mail with the autopilot's orders).

    The players are p0@players.test, p1@… with the passwords of their welcome mails, or with
    `cast` the four `PLAYERS` with their colours and, from round 1 on, their passwords.

    On an empty database the result is remembered: the next test asking for the same game
    (same service settings, same clock) gets a copy of the rows and the clock moved on as the
    first one did (see `_Snapshot`), without playing it all again."""
    svc = mailer.svc
    key = (
        svc.engine.dialect.name,
        repr(svc.config),
        clock.now(),
        name,
        players,
        round_,
        by_mail,
        cast,
        tuple(sorted((k, repr(v)) for k, v in settings.items())),
    )
    pristine = _is_empty(svc)
    if pristine and key in _SNAPSHOTS:
        return _SNAPSHOTS[key].restore(mailer, clock)
    table = _start_game(mailer, clock, name, players, round_, by_mail, cast, settings)
    if pristine:
        _SNAPSHOTS[key] = _Snapshot.take(mailer, clock, table, key[2])
    return table


def _start_game(
    mailer: Mailer,
    clock: FakeClock,
    name: str,
    players: int,
    round_: int,
    by_mail: bool,
    cast: bool,
    settings: dict[str, Any],
) -> Table:
    svc = mailer.svc
    new_game(svc, name, players=players, **settings)
    if cast:
        assert players == 4
        addresses = signup(
            mailer, name, 4, [c for _, c in PLAYERS.values()], addresses=list(PLAYERS)
        )
    else:
        addresses = signup(mailer, name, players)
    if by_mail:
        play_setup_by_mail(mailer, name)
    else:
        setup_by_deadline(svc, clock, name)
    if cast:
        with transaction(svc.engine) as s:
            game = get_game(s, name)
            for p in s.exec(select(Player).where(Player.game_id == game.id)):
                p.password_hash = hash_password(PLAYERS[p.address][0])
        known = {a: pw for a, (pw, _) in PLAYERS.items()}
    else:
        known = passwords(svc)
    while game_row(svc, name).round < round_:
        play_round(mailer, clock, name, pw=known)
    game, state = game_state(svc, name)
    assert game.phase == "rounds" and game.round == round_, (game.phase, game.round)
    return Table(
        name,
        addresses,
        {a: known[a] for a in addresses},
        Context(state.board, game.lang, state.colours, "round"),
        {seat: p.address for seat, p in seated(svc, name).items()},
    )


def _is_empty(svc: Service) -> bool:
    with svc.engine.connect() as conn:
        return not any(
            conn.execute(sa.select(sa.literal(1)).select_from(table).limit(1)).first()
            for table in SQLModel.metadata.sorted_tables
        )


@dataclass
class _Snapshot:
    """A started game as rows: every table's rows, the clock after it, the Table. Restoring
    writes the rows into the test's empty database (ids as they were; PostgreSQL's sequences
    moved past them), so the test sees what playing it again would have left, but for the
    random parts (passwords, codebook keys, Message-IDs), which are those of the first time."""

    rows: list[tuple[sa.Table, list[dict[str, Any]]]]
    elapsed: timedelta
    table: Table
    last_id: str

    @classmethod
    def take(cls, mailer: Mailer, clock: FakeClock, table: Table, started: datetime) -> _Snapshot:
        with mailer.svc.engine.connect() as conn:
            rows = [
                (t, [dict(r) for r in conn.execute(t.select()).mappings()])
                for t in SQLModel.metadata.sorted_tables
            ]
        return cls(rows, clock.now() - started, table, mailer.last_id)

    def restore(self, mailer: Mailer, clock: FakeClock) -> Table:
        engine = mailer.svc.engine
        with engine.begin() as conn:
            for t, rows in self.rows:
                if rows:
                    conn.execute(t.insert(), rows)
            if engine.dialect.name == "postgresql":
                for t, rows in self.rows:
                    if rows and "id" in t.c:
                        conn.execute(
                            sa.text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :n)"),
                            {"t": t.name, "n": max(r["id"] for r in rows)},
                        )
        clock.advance(seconds=self.elapsed.total_seconds())
        mailer.last_id = self.last_id
        t = self.table
        return dataclasses.replace(
            t, addresses=list(t.addresses), passwords=dict(t.passwords), seats=dict(t.seats)
        )


_SNAPSHOTS: dict[tuple[Any, ...], _Snapshot] = {}


@dataclass
class Games:
    """The game factory of the `games` fixture: `start_game` with the test's mailer and clock."""

    mailer: Mailer
    clock: FakeClock

    def start(self, name: str = "alpha", players: int = 4, **kw: Any) -> Table:
        """See `start_game`: `games.start("beta", round_=3, by_mail=True, lang="en")`."""
        return start_game(self.mailer, self.clock, name, players, **kw)


# -- loops in the background --------------------------------------------------------------------


async def eventually(
    check: Callable[[], bool], timeout: float = 20.0, what: str = "condition"
) -> None:
    """Wait until `check()` holds (looked at every 50 ms), else fail after `timeout` s."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.05)
