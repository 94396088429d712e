"""Fresh databases for the tests, and what they hold.

- `sqlite_database`: a copy of a SQLite file migrated once per test run; `copy_sqlite` for a
  fixture's own filled file;
- `pg_database`: a PostgreSQL database of a pool, emptied after each test (every row
  deleted, its ids from 1 again); the pool's databases are copies of one migrated once per
  run, commit without waiting for the disk, and are dropped at the end.
  `slow_on_postgresql` puts a test's PostgreSQL run in the slow tier;
- readers (`outbox`, `seated`, `passwords`, `game_snapshot`, …);
- `Rows`: every row of a database, for the game factory to write a started game again.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import gc
import os
import re
import secrets
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlmodel import Session, SQLModel, col, select

from pbm.rules import GameState
from pbm.service.context import Service
from pbm.service.games import get_game, load_state
from pbm.store.migrate import upgrade
from pbm.store.models import Game, InboundMail, OrderSet, Outbox, Player, RoundRecord

_PASSWORD = re.compile(r"(?:Kennwort|Password): (\S+)")

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
    """The URL of a fresh, migrated SQLite file at `path` (0600, as pbm makes it)."""
    shutil.copyfile(_sqlite_template(), path)
    path.chmod(0o600)
    return f"sqlite:///{path}"


#: Per dialect name: the first engine's dialect and its cache of compiled statements.
_COMPILED: dict[str, tuple[Any, Any]] = {}


def sharing_compiled_statements(engine: Engine) -> Engine:
    """`engine`, compiling its SQL into the cache every engine of the process with its dialect
    shares. SQLAlchemy keeps compiled statements per engine, keyed by its dialect object, and
    a test's engine is new: each test compiled the same few dozen statements again (a fifth
    of a service test's CPU time). The dialects of one kind are alike (one SQLite library, one
    PostgreSQL server), so the first one serves them all."""
    if engine.dialect.name not in _COMPILED:
        with engine.connect():  # the dialect learns its server's version on the first connect
            pass
        _COMPILED[engine.dialect.name] = (engine.dialect, engine._compiled_cache)
    dialect, cache = _COMPILED[engine.dialect.name]
    engine.dialect = dialect
    engine.pool._dialect = dialect
    engine._compiled_cache = cache
    return engine


def copy_sqlite(source: Path, target: Path) -> None:
    """A consistent copy of the SQLite database `source` (what its WAL holds too) at `target`,
    0600: for a fixture that fills a database once and gives each test its own copy."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
    target.chmod(0o600)


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
        return _read_schema(conn)


def _read_schema(conn: Any) -> tuple[list[str], str]:
    """The tables (alembic's apart) and the schema revision of a psycopg connection's
    database."""
    tables = [
        row[0]
        for row in conn.execute(
            b"SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            b" AND tablename <> 'alembic_version' ORDER BY tablename"
        )
    ]
    (revision,) = conn.execute(b"SELECT version_num FROM alembic_version").fetchone() or ("",)
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
    # A commit does not wait for its WAL to reach the disk (the server's crash safety is not
    # what a test checks; pbm's own crash tests kill pbm, not PostgreSQL): a test's hundreds of
    # commits cost what the work costs, not a disk flush each.
    _pg_admin(f"ALTER DATABASE {name} SET synchronous_commit = off")
    return name


@functools.cache
def _deletion_order() -> list[str]:
    """The tables, children before their parents; every table of the schema is one of pbm's
    models (else this would leave rows behind)."""
    order = [t.name for t in reversed(SQLModel.metadata.sorted_tables)]
    assert sorted(order) == _pg_schema()[0], (order, _pg_schema())
    return order


def _pg_give_back(name: str) -> None:
    """Empty the database (every table, its ids from 1 again) for the next test; one whose
    schema a test changed is dropped instead. One connection does it all: ending the test's
    leftover sessions, checking the schema, deleting the rows and restarting the sequences
    (DELETE of a few rows costs milliseconds where TRUNCATE's new files cost a quarter of a
    second; the tables are children first, as their foreign keys need)."""
    import psycopg

    with psycopg.connect(
        PG_URL.format(name=name).replace("+psycopg", ""), autocommit=True, connect_timeout=10
    ) as conn:
        conn.execute(
            b"SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            b" WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        if _read_schema(conn) != _pg_schema():
            conn.close()
            _pg_admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            return
        with conn.transaction():
            conn.execute(b"SET LOCAL synchronous_commit = off")
            for table in _deletion_order():
                conn.execute(f'DELETE FROM "{table}"'.encode())
            conn.execute(
                b"SELECT setval(c.oid::regclass, 1, false) FROM pg_class c"
                b" JOIN pg_namespace n ON n.oid = c.relnamespace"
                b" WHERE c.relkind = 'S' AND n.nspname = 'public'"
            )
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


# -- a database's rows -------------------------------------------------------------------------


@functools.cache
def _any_row() -> sa.Select[Any]:
    """One query: whether any table has a row (built once; a query a table cost 2 ms)."""
    return sa.select(
        sa.or_(
            *(
                sa.exists(sa.select(sa.literal(1)).select_from(table))
                for table in SQLModel.metadata.sorted_tables
            )
        )
    )


def is_empty(engine: Engine) -> bool:
    """No row in any table."""
    with engine.connect() as conn:
        return not conn.execute(_any_row()).scalar()


@dataclass
class SqliteCopy:
    """A SQLite database's pages, copied into memory (SQLite's backup): written back into
    another database of the same schema, it holds the same rows, ids and all, in a
    millisecond (inserting the rows again took some)."""

    pages: sqlite3.Connection

    @classmethod
    def take(cls, engine: Engine) -> SqliteCopy:
        pages = sqlite3.connect(":memory:", check_same_thread=False)
        raw = engine.raw_connection()
        try:
            raw.driver_connection.backup(pages)  # type: ignore[union-attr]
        finally:
            raw.close()
        return cls(pages)

    def restore(self, engine: Engine) -> None:
        raw = engine.raw_connection()
        try:
            self.pages.backup(raw.driver_connection)  # type: ignore[arg-type]
        finally:
            raw.close()


@dataclass
class Rows:
    """Every row of every table, to be written into an empty database again (ids as they were;
    PostgreSQL's sequences moved past them)."""

    tables: list[tuple[sa.Table, list[dict[str, Any]]]]

    @classmethod
    def take(cls, engine: Engine) -> Rows:
        with engine.connect() as conn:
            return cls(
                [
                    (t, [dict(r) for r in conn.execute(t.select()).mappings()])
                    for t in SQLModel.metadata.sorted_tables
                ]
            )

    def restore(self, engine: Engine) -> None:
        with engine.begin() as conn:
            for t, rows in self.tables:
                if rows:
                    conn.execute(t.insert(), rows)
            if engine.dialect.name == "postgresql":
                for t, rows in self.tables:
                    if rows and "id" in t.c:
                        conn.execute(
                            sa.text("SELECT setval(pg_get_serial_sequence(:t, 'id'), :n)"),
                            {"t": t.name, "n": max(r["id"] for r in rows)},
                        )


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
