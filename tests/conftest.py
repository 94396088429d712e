"""Shared fixtures of the whole suite; the helpers behind them are in tests/harness.py (the mail
player, the game factory) and tests/databases.py (fresh databases, readers).

- `db_url`: a fresh, migrated database per test, SQLite (a copy of a migrated file) and
  PostgreSQL (an emptied database of a pool; that parameter is marked `pg`; PostgreSQL is
  expected on 127.0.0.1:5432, and is skipped when it cannot be reached unless CI is set);
  `sqlite_url` for SQLite alone; `engine`, `clock` (a FakeClock), `svc` (the service on them).
- `mailer`: the mail player (raw mails with fresh Message-IDs fed to `ingest`).
- `games`: the game factory (`games.start("alpha", round_=3)` → a `harness.Table`).
- `mailbox`, `smtp`, `transports`: the in-memory mail transports (pbm/mail/memory.py), for the
  service's loops without mail servers.

Test tiers (markers, registered in pyproject.toml): `slow` (over about 2 s, runs timed on
growing inputs, reruns under other hash seeds), `e2e` (real mail servers or a browser), `pg`
(PostgreSQL). `python -m pytest -m "not slow and not e2e and not pg"` is the fast tier;
`python -m pytest` runs everything.

The workers (`-n auto --dist worksteal`): one per core, one more when the end-to-end tests run;
each worker's part of the list begins with its share of the long tests. What a test shares
with the others of its process, it only reads or gets a copy of: the migrated database files,
the started games and filled databases of `harness.prepared`, the compiled SQL of
`databases.sharing_compiled_statements`.
"""

from __future__ import annotations

import functools
import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer.testing
from databases import pg_database, sharing_compiled_statements, sqlite_database
from harness import GM, Games, Mailer
from sqlalchemy.engine import Engine

from pbm.config.model import ServiceSection, Settings
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.transport import Transports
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.store.db import make_engine

# -- the command line ------------------------------------------------------------------------

# `CliRunner().invoke(app, …)` turns the whole Typer app into its click command on every call
# (every command's signature and type hints read again): 44 ms of a corpus test's 47. The
# command is built once per app and worker instead; the app never changes after its import.
typer.testing._get_command = functools.cache(typer.testing._get_command)


# -- the workers -----------------------------------------------------------------------------


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: a worker per core, and one more when the run has the end-to-end tests: those
    wait (on mail servers, on `pbm demo`'s deadlines of seconds, on `pbm serve` restarting)
    more than they compute, and a third worker uses the core they leave idle."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    markexpr = str(config.getoption("markexpr", "") or "")
    return cores + 1 if cores > 1 and "e2e" not in markexpr else cores


#: Where the tests' own folders (`tmp_path`) go when nothing else is asked for: a file system in
#: memory. Each test's database is a SQLite file there; on the disk, closing it (SQLite writes
#: its WAL back and syncs) and the checkpoints cost waits on the disk, and the disk is shared:
#: `tests/service` in one process took 132 and 149 s on /tmp against 108 and 102 s here, with
#: the same CPU. Nothing in a test depends on the disk's durability. `--basetemp` or
#: PYTEST_DEBUG_TEMPROOT (e.g. `PYTEST_DEBUG_TEMPROOT=/tmp`) choose another place.
MEMORY_TEMPROOT = Path("/dev/shm")
#: The free room the memory file system must have for the run's folders (a container's
#: /dev/shm is often 64 MB: there the folders stay on the disk).
MEMORY_TEMPROOT_ROOM = 2 * 1024**3


def _room(path: Path) -> int:
    """The bytes free for this user on `path`'s file system."""
    stat = os.statvfs(path)
    return stat.f_bavail * stat.f_frsize


def pytest_configure(config: pytest.Config) -> None:
    """The tests' folders in memory (`MEMORY_TEMPROOT`), in pytest's usual layout there
    (pytest-of-USER/pytest-N, the last three runs kept). Run in the controller before it
    makes the folders of its workers, and in each worker."""
    if (
        config.getoption("basetemp", None) is None
        and "PYTEST_DEBUG_TEMPROOT" not in os.environ
        and MEMORY_TEMPROOT.is_dir()
        and os.access(MEMORY_TEMPROOT, os.W_OK | os.X_OK)
        and _room(MEMORY_TEMPROOT) >= MEMORY_TEMPROOT_ROOM
    ):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(MEMORY_TEMPROOT)


def _long(item: pytest.Item) -> int:
    """How long a test is likely to take: 2 end to end and slow, 1 one of them, 0 neither."""
    return sum(item.get_closest_marker(m) is not None for m in ("slow", "e2e"))


def _seconds(item: pytest.Item) -> float:
    """The CPU seconds a slow test's marker says it takes (`@pytest.mark.slow(seconds=12)`,
    given to the few longest only, as a hint for the order); 0 where it says none."""
    mark = item.get_closest_marker("slow")
    return float(mark.kwargs.get("seconds", 0)) if mark else 0.0


def _waits(item: pytest.Item) -> bool:
    """An end-to-end test: it mostly waits (on mail servers, deadlines, a restart)."""
    return item.get_closest_marker("e2e") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Order the tests for `--dist worksteal`: it gives each worker an even, contiguous part of
    the list, and an idle worker takes the tail of another's part. Each part begins with its
    share of the long tests, so they start early and the run ends with short tests on every
    worker, not with one worker in a demo while the others wait.

    The end-to-end tests (which mostly wait, on mail servers, deadlines and restarts) are
    shared among every worker but the last, the demos first; the last worker begins with all
    the slow tests that compute, the longest first. So while the others wait, one core
    computes, and the others take their part of the computing from its tail (worksteal) once
    their end-to-end tests are done. With every worker in an end-to-end test at once, the whole
    suite's first two minutes had used about one core of the two (docs/performance.md, ninth
    round)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers < 2:
        return
    waiting = sorted((i for i in items if _waits(i)), key=_long, reverse=True)  # stable
    # The longest first: what is left at the end, for the others to take, is short.
    computing = sorted((i for i in items if _long(i) and not _waits(i)), key=_seconds, reverse=True)
    short = [i for i in items if not _long(i)]
    if waiting:
        shares = [waiting[w :: workers - 1] for w in range(workers - 1)] + [computing]
    else:
        shares = [computing[w::workers] for w in range(workers)]
    ordered: list[pytest.Item] = []
    left = len(items)
    for w, share in enumerate(shares):
        size = left // (workers - w)  # the part worksteal's first schedule sends worker w
        left -= size
        ordered += share + short[: max(0, size - len(share))]
        del short[: max(0, size - len(share))]
    ordered += short
    assert len(ordered) == len(items)
    items[:] = ordered


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the imports and the collection made (some 300,000 objects in a worker) moves to
    the collector's permanent generation, as `pbm serve` does at its start: every full
    collection of the run looked at all of it again. The fast tier took 59–60 s with this
    against 63–66 s without, alternating (docs/performance.md, ninth round)."""
    gc.collect()
    gc.freeze()


# -- databases and the service -------------------------------------------------------------


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return sqlite_database(tmp_path / "pbm.db")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.pg)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database, migrated to the newest schema."""
    if request.param == "sqlite":
        yield sqlite_database(tmp_path / "pbm.db")
        return
    with pg_database() as url:
        yield url


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = sharing_compiled_statements(make_engine(db_url))
    yield eng
    eng.dispose()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def svc(engine: Engine, clock: FakeClock) -> Service:
    return Service(engine, clock, Settings(service=ServiceSection(address=GM)))


@pytest.fixture
def mailer(svc: Service) -> Mailer:
    return Mailer(svc)


@pytest.fixture
def games(mailer: Mailer, clock: FakeClock) -> Games:
    """The game factory: `games.start("alpha", round_=1, by_mail=False, cast=False, ...)`
    (see `harness.start_game`)."""
    return Games(mailer, clock)


@pytest.fixture
def mailbox() -> MemoryMailbox:
    return MemoryMailbox()


@pytest.fixture
def smtp() -> MemorySmtp:
    return MemorySmtp()


@pytest.fixture
def transports(mailbox: MemoryMailbox, smtp: MemorySmtp) -> Transports:
    return Transports(inbox=mailbox.inbox, sender=smtp.sender)
