"""Fixtures of the mail tests: their database is SQLite alone (PostgreSQL: tests/service);
`outgoing`, an SMTP server that misbehaves as told (`servers.Outgoing`), and `mailroom`, the
GM's mailbox and SMTP server for `serve` (`servers.Mailroom`): each in memory and (marked e2e)
on real servers on 127.0.0.1, so one test checks the service against both."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from .servers import Mailroom, Outgoing


@pytest.fixture
def db_url(sqlite_url: str) -> str:
    return sqlite_url


@pytest.fixture(params=["memory", pytest.param("aiosmtpd", marks=pytest.mark.e2e)])
def outgoing(request: pytest.FixtureRequest) -> Iterator[Outgoing]:
    """`outgoing.start(failures=…, refuse=…)`, then `outgoing.send(svc)` runs the outbox."""
    with contextlib.ExitStack() as stack:
        yield Outgoing(request.param, stack)


@pytest.fixture(params=["memory", pytest.param("loopback", marks=pytest.mark.e2e)])
def mailroom(request: pytest.FixtureRequest) -> Mailroom:
    """`await mailroom.start(users)`; `serve(mailroom.configure(svc), stop, mailroom.transports)`;
    `await mailroom.stop()`."""
    return Mailroom(request.param)
