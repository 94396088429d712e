"""Engines and sessions. The engine is made by a function from the configured URL, never a
module global: SQLite (a file, WAL mode) by default, PostgreSQL via `postgresql+psycopg://`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlmodel import Session, create_engine

from . import models  # noqa: F401  (registers the tables)

#: Set while a `reading` session begins: SQLite then starts a deferred (read) transaction
#: instead of taking the write lock.
_READING: ContextVar[bool] = ContextVar("pbm_reading", default=False)


#: SQLite's page cache per connection, in KiB: 2,048 by default; 512 made `pbm serve` 1.5 MB
#: smaller (`pbm bench serve`, two connections in the pool).
PAGE_CACHE_KIB = 512


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            # Let SQLAlchemy's "begin" below issue BEGIN itself (pysqlite would defer it).
            dbapi_conn.isolation_level = None
            cur = dbapi_conn.cursor()
            # WAL keeps the file consistent through a crash at any point; busy_timeout waits
            # for the lock (every transaction takes it, see "begin" below).
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            # Each pooled connection keeps its own page cache (2 MB by default), emptied
            # whenever another connection writes; the file's pages stay in the OS's cache.
            cur.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            # Take the write lock at the start: a worker reads a mail or a game under the same
            # lock it writes under, so two workers never both act on what they read.
            conn.exec_driver_sql("BEGIN" if _READING.get() else "BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)


@contextmanager
def reading(engine: Engine) -> Iterator[Session]:
    """A session that only reads: on SQLite it does not take the write lock, so work done
    while it is open (parsing a mail, say) never holds up the writers. Never write in it."""
    session = Session(engine, expire_on_commit=False)
    token = _READING.set(True)
    try:
        session.connection()  # begins now, while the flag is set
    except BaseException:
        session.close()
        raise
    finally:
        _READING.reset(token)
    with session:
        try:
            yield session
        finally:
            session.rollback()


@contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """One unit of work: committed on success, rolled back on any exception."""
    with Session(engine, expire_on_commit=False) as session:
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
