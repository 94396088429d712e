"""Fixtures: a fresh, migrated database per test (SQLite file or PostgreSQL database), a fake
clock and the service on top of them.

PostgreSQL is expected on 127.0.0.1:5432 (trust auth, user postgres, maintenance database
`test`). When it cannot be reached its parameter is skipped, unless the environment variable
CI is set: then the test fails, so a CI run never passes by silently testing less.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from pbm.service.clock import FakeClock
from pbm.service.context import Service, ServiceConfig
from pbm.store.db import make_engine
from pbm.store.migrate import upgrade

from .support import Mailer

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
GM_ADDRESS = "gm@pbm.test"


@cache
def _pg_unreachable() -> str:
    """Why PostgreSQL cannot be used ("" when it can); asked once per session."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as e:
        return f"PostgreSQL not reachable at {PG_ADMIN}: {type(e).__name__}: {e}".strip()
    return ""


def _pg_admin_execute(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=10) as conn:
        conn.execute(sql.encode())


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database, migrated to the newest schema with alembic."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/pbm.db"
        upgrade(url)
        yield url
        return
    reason = _pg_unreachable()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set, so this is a failure, not a skip)")
        pytest.skip(reason)
    name = f"pbm_t_{secrets.token_hex(6)}"
    _pg_admin_execute(f"CREATE DATABASE {name}")
    try:
        url = PG_URL.format(name=name)
        upgrade(url)
        yield url
    finally:
        _pg_admin_execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    yield eng
    eng.dispose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def svc(engine: Engine, clock: FakeClock) -> Service:
    return Service(engine, clock, ServiceConfig(address=GM_ADDRESS))


@pytest.fixture
def mailer(svc: Service) -> Mailer:
    return Mailer(svc)
