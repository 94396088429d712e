"""SQLite's settings against old copies of secrets (`pbm/store/db.py`): `secure_delete`,
`journal_size_limit`, and `scrub`, which writes the WAL back and cuts it to nothing. The
passwords themselves are looked for in the files by tests/mail/test_security.py."""

from __future__ import annotations

import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from pbm.config.model import ServiceSection, Settings
from pbm.service.schema import open_service
from pbm.store.db import (
    JOURNAL_SIZE_LIMIT,
    SCRUB_BUSY_MS,
    make_engine,
    scrub,
    sqlite_file,
)


def test_every_connection_overwrites_what_it_deletes(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'pbm.db'}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA secure_delete")).scalar() == 1
        assert conn.execute(text("PRAGMA journal_size_limit")).scalar() == JOURNAL_SIZE_LIMIT
    engine.dispose()


def test_scrub_cuts_the_wal_and_leaves_the_connections_as_they_were(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'pbm.db'}")

    @event.listens_for(engine, "connect")
    def _own_timeout(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute("PRAGMA busy_timeout=1234")

    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x TEXT)"))
        conn.execute(text("INSERT INTO t VALUES ('geheim-kennwort')"))
    with engine.begin() as conn:
        conn.execute(text("UPDATE t SET x = ''"))
    # (Only the -wal file is read here: a close() of a descriptor of pbm.db in this process
    # would drop the POSIX locks of the engine's connections.)
    wal = tmp_path / "pbm.db-wal"
    assert b"geheim-kennwort" in wal.read_bytes()
    assert scrub(engine) is True
    assert wal.stat().st_size == 0
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 1234
        assert conn.execute(text("SELECT x FROM t")).scalar() == ""
    engine.dispose()
    assert b"geheim-kennwort" not in (tmp_path / "pbm.db").read_bytes()


# Waits on a reader's old snapshot for 2 s: the slow tier (issue 30).
@pytest.mark.slow
def test_scrub_does_what_it_can_while_a_reader_holds_an_old_snapshot(tmp_path: Path) -> None:
    """A reader in the middle of a transaction: scrub waits at most SCRUB_BUSY_MS, then says
    it could not cut the WAL (the next scrub does), and raises nothing."""
    db = tmp_path / "pbm.db"
    engine = make_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE t (x TEXT)"))
    with closing(sqlite3.connect(db, isolation_level=None)) as reader:
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM t").fetchone()  # its snapshot starts here
        with engine.begin() as conn:
            conn.execute(text("INSERT INTO t VALUES ('x')"))
        start = time.monotonic()
        assert scrub(engine) is False
        assert time.monotonic() - start < SCRUB_BUSY_MS / 1000 + 2
        reader.execute("COMMIT")
    assert scrub(engine) is True
    assert (tmp_path / "pbm.db-wal").stat().st_size == 0
    engine.dispose()


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///pbm.db", "pbm.db"),
        ("sqlite:////var/lib/pbm/pbm.db", "/var/lib/pbm/pbm.db"),
        ("sqlite://", None),
        ("sqlite:///:memory:", None),
        ("sqlite:///file:pbm.db?mode=ro&uri=true", None),
        ("postgresql+psycopg://pbm@127.0.0.1:5432/pbm", None),
    ],
)
def test_the_file_of_a_url(url: str, path: str | None) -> None:
    assert sqlite_file(url) == (Path(path) if path else None)


def test_scrub_of_a_database_in_memory_does_nothing() -> None:
    engine = make_engine("sqlite://")
    assert scrub(engine) is True
    engine.dispose()


def test_pbm_serve_and_poll_start_with_the_wal_cut(sqlite_url: str, tmp_path: Path) -> None:
    """A process killed with old pages in the WAL (here: one that is still open): the next
    `pbm serve` or `pbm poll` (`open_service(apart=True)`) writes them back and cuts the WAL."""
    killed = make_engine(sqlite_url)
    with killed.begin() as conn:
        conn.execute(text("CREATE TABLE t (x TEXT)"))
        conn.execute(text("INSERT INTO t VALUES ('geheim-kennwort')"))
    with killed.begin() as conn:
        conn.execute(text("UPDATE t SET x = ''"))
    wal = tmp_path / "pbm.db-wal"
    assert b"geheim-kennwort" in wal.read_bytes()
    svc = open_service(
        sqlite_url, Settings(service=ServiceSection(address="gm@pbm.test")), apart=True
    )
    assert wal.stat().st_size == 0
    svc.engine.dispose()
    killed.dispose()
    assert b"geheim-kennwort" not in (tmp_path / "pbm.db").read_bytes()
