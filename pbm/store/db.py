"""Engines and sessions. The engine is made by a function from the configured URL, never a
module global: SQLite (a file, WAL mode) by default, PostgreSQL via `postgresql+psycopg://`.

An SQLite file is its owner's alone (0600, made so before SQLite opens it; SQLite gives its
`-wal`, `-shm` and `-journal` files the database's mode), and what is deleted or overwritten in
it is overwritten with zeros (`secure_delete`). `scrub` writes the WAL back into the database
and cuts it to nothing: called after a secret was cleared (an outbox row's password, once sent
or dropped) and at a clean stop, so that no old copy of a page stays in the WAL
(docs/security.md, "Passwords in the database's files")."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, create_engine

from pbm.files import FILE_MODE, tighten

from . import models  # noqa: F401  (registers the tables)

log = logging.getLogger("pbm")

#: Set while a `reading` session begins: SQLite then starts a deferred (read) transaction
#: instead of taking the write lock.
_READING: ContextVar[bool] = ContextVar("pbm_reading", default=False)


#: SQLite's page cache per connection, in KiB: 2,048 by default; 512 made `pbm serve` 1.5 MB
#: smaller (`pbm bench serve`, two connections in the pool).
PAGE_CACHE_KIB = 512

#: How long a connection waits for SQLite's write lock, in ms.
BUSY_MS = 30000

#: The WAL file is cut back to this size when SQLite starts it again from its beginning after
#: a checkpoint (it is otherwise left at its largest, old pages in it until overwritten).
JOURNAL_SIZE_LIMIT = 4 * 1024 * 1024

#: How long `scrub` waits for readers on an old snapshot before it checkpoints what it can
#: (the next scrub does the rest); writers wait for it meanwhile, so not the 30 s of a lock.
SCRUB_BUSY_MS = 2000

#: The files SQLite keeps beside a database.
COMPANIONS = ("-wal", "-shm", "-journal")


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite URL; None for another database, one in memory or a URI."""
    parsed = make_url(url)
    name = parsed.database
    if parsed.get_backend_name() != "sqlite" or name in (None, "", ":memory:"):
        return None
    if name.startswith("file:") or parsed.query.get("uri") or parsed.query.get("mode"):
        return None  # an SQLite URI: its own options (modes in the process's umask)
    return Path(name)


def private_database(path: Path) -> None:
    """Make the database file `path` before SQLite does, 0600 whatever the umask, and take
    the group's and others' bits off an existing one and its companions (a file of an older
    pbm). A folder that is not there is left for SQLite to report.

    An existing file is never opened here: closing any descriptor of a file drops every POSIX
    lock the process holds on it, those of SQLite's connections to it too."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, FILE_MODE)
    except FileExistsError:
        pass
    except OSError:
        return
    else:
        os.close(fd)
    for name in (str(path), *(f"{path}{suffix}" for suffix in COMPANIONS)):
        if tighten(Path(name)):
            log.warning("%s was readable by others: now by its owner only", name)


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = sqlite_file(url)
        if path is not None:
            private_database(path)
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
            cur.execute(f"PRAGMA busy_timeout={BUSY_MS}")
            # Each pooled connection keeps its own page cache (2 MB by default), emptied
            # whenever another connection writes; the file's pages stay in the OS's cache.
            cur.execute(f"PRAGMA cache_size=-{PAGE_CACHE_KIB}")
            # What is deleted or overwritten (a password emptied from its outbox row, a mail
            # masked) is overwritten with zeros, not left in the page's free space.
            cur.execute("PRAGMA secure_delete=ON")
            cur.execute(f"PRAGMA journal_size_limit={JOURNAL_SIZE_LIMIT}")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Any) -> None:
            # Take the write lock at the start: a worker reads a mail or a game under the same
            # lock it writes under, so two workers never both act on what they read.
            conn.exec_driver_sql("BEGIN" if _READING.get() else "BEGIN IMMEDIATE")

        return engine
    return create_engine(url, pool_pre_ping=True)


def scrub(engine: Engine) -> bool:
    """Write SQLite's WAL back into the database and cut it to nothing (`wal_checkpoint
    (TRUNCATE)`), so that no old version of a page (a password emptied since, a mail before it
    was masked) stays in the `-wal` file; with `secure_delete` the database file holds none
    either. Waits up to SCRUB_BUSY_MS (or the connection's own busy timeout, if shorter) for
    readers of an older snapshot, then does what it can.
    Returns whether the WAL was emptied; True on PostgreSQL, where there is nothing to do."""
    if engine.dialect.name != "sqlite" or sqlite_file(str(engine.url)) is None:
        return True
    raw = engine.raw_connection()
    try:
        cur = raw.cursor()
        (waits,) = cur.execute("PRAGMA busy_timeout").fetchone()
        try:
            cur.execute(f"PRAGMA busy_timeout={min(int(waits), SCRUB_BUSY_MS)}")
            busy, _log, _done = cur.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            cur.execute(f"PRAGMA busy_timeout={int(waits)}")  # the connection goes back
            cur.close()
    finally:
        raw.close()
    if busy:
        log.debug("scrub: readers in the way; the WAL is written back at the next one")
    return not busy


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
