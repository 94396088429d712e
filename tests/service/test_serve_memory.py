"""What `pbm serve` loads: no alembic (the schema is compared without it and migrated in a child
process only when it differs), no cryptography, no PostgreSQL driver or dialect on SQLite, no
mail server; and what it keeps: the hex names of live boards only, one malloc arena, a small
SQLite page cache (issue 20, serve memory)."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from pbm.notation import names
from pbm.notation.errors import NotationError
from pbm.rules.layouts import generate_board
from pbm.service.heap import map_large_blocks, one_arena
from pbm.store.db import PAGE_CACHE_KIB, make_engine
from pbm.store.migrate import alembic_config, code_heads, database_heads, schema_current, upgrade

#: Never in a serving process on SQLite.
NEVER = (
    "alembic",
    "mako",
    "cryptography",
    "psycopg",
    "pymap",
    "aiosmtpd",
    "babel",
    "pydantic_settings",
    "argparse",
    # Loaded by an index that names a PostgreSQL option (1.7 MB; see `Outbox`).
    "sqlalchemy.dialects.postgresql",
)

#: Opens the service as `pbm serve` does (`service(cfg=…, apart=True)`) and imports what its
#: loops import; prints the forbidden modules loaded and the database's revisions.
PROBE = """
import json, sys
from pbm.cli.common import config, service
import pbm.service.serve
svc = service(cfg=config(sys.argv[1]), apart=True)
from pbm.store.migrate import database_heads
never = set(json.loads(sys.argv[2]))
loaded = sorted(m for m in sys.modules if m in never or m.split(".")[0] in never)
print(json.dumps({"loaded": loaded, "heads": sorted(database_heads(svc.engine))}))
"""


def test_code_heads_are_alembics() -> None:
    script = ScriptDirectory.from_config(alembic_config("sqlite://"))
    assert code_heads() == frozenset(script.get_heads())


def test_schema_current(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    engine = make_engine(url)
    assert database_heads(engine) == frozenset() and not schema_current(engine)
    upgrade(url)
    assert schema_current(engine)
    engine.dispose()


@pytest.mark.slow  # three interpreters start `pbm serve`'s imports: about 3 s
def test_serve_migrates_apart_and_loads_nothing_heavy(tmp_path: Path) -> None:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path / "pbm.db"}"\n\n'
        '[service]\naddress = "gm@example.org"\n',
        encoding="utf-8",
    )
    for _ in range(2):  # a new database (migrated in a child), then one up to date
        done = subprocess.run(
            [sys.executable, "-c", PROBE, str(cfg), json.dumps(NEVER)],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["loaded"] == []
        assert result["heads"] == sorted(code_heads())


def test_hex_names_are_kept_as_long_as_their_board() -> None:
    board = generate_board.__wrapped__("medium", 12345)  # a board no cache holds
    first = names.hex_candidates(board, "wueste", "de")
    assert names.hex_candidates(board, "wueste", "de") is first  # from the board's entry
    assert first == names._hex_candidates(board, "wueste", "de")
    assert board in names._CANDIDATES
    with pytest.raises(NotationError):
        names.hex_candidates(board, "zz9", "de")  # a name of nothing: refused, also when kept
    with pytest.raises(NotationError):
        names.hex_candidates(board, "zz9", "de")
    kept = len(names._CANDIDATES)
    del board
    gc.collect()
    assert len(names._CANDIDATES) == kept - 1


def test_hex_names_of_one_board_are_bounded() -> None:
    board = generate_board.__wrapped__("medium", 12346)
    for i in range(names.CANDIDATES_PER_BOARD + 10):
        with pytest.raises(NotationError):
            names.hex_candidates(board, f"zz{i}", "de")
    assert len(names._CANDIDATES[board]) <= names.CANDIDATES_PER_BOARD


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_one_arena_on_linux() -> None:
    # Also in this process: one arena is a setting of the heap, never of what is computed.
    assert one_arena() in (True, False)  # False on a C library without mallopt (musl)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_large_blocks_mapped_on_linux() -> None:
    assert map_large_blocks() in (True, False)


def test_startup_objects_are_frozen() -> None:
    """In a process of its own: frozen objects are never collected, which a test here that
    waits for a board to be collected must not meet."""
    probe = (
        "import gc, pbm.service.serve\n"
        "from pbm.service.heap import freeze_startup\n"
        "n = freeze_startup()\n"
        "print(n, gc.get_freeze_count(), gc.get_count()[0])"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    frozen, count, young = (int(v) for v in out.stdout.split())
    assert frozen == count > 10_000 and young < 100


def test_sqlite_page_cache(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'pbm.db'}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA cache_size")).scalar() == -PAGE_CACHE_KIB
    engine.dispose()


def test_the_clock_lets_go_of_the_pictures_after_a_tick_that_drew_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The picture buffers are the largest the process holds: the outbox sends a tick's reports
    without them (`picture.release`)."""
    import asyncio
    from datetime import timedelta

    from pbm.bench.rounds import setup_games
    from pbm.config.model import ServiceSection, Settings
    from pbm.reports import picture
    from pbm.service import serve as serving
    from pbm.service.clock import FakeClock
    from pbm.service.context import Service

    url = f"sqlite:///{tmp_path / 'pbm.db'}"
    upgrade(url)
    clock = FakeClock()
    svc = Service(
        make_engine(url), clock, Settings(service=ServiceSection(address="gm@example.org"))
    )
    setup_games(svc, 1)
    clock.advance(hours=2)
    released: list[bool] = []

    async def run() -> None:
        stop = asyncio.Event()

        def release() -> None:
            released.append(picture._last is not None)  # a picture was drawn in this tick
            picture.release()
            stop.set()

        monkeypatch.setattr(serving, "release_pictures", release)
        svc.config = svc.config.updated(
            service={"tick_seconds": timedelta(minutes=1).total_seconds()}
        )
        await asyncio.wait_for(serving.clock_loop(svc, stop), 60)

    asyncio.run(run())
    svc.engine.dispose()
    assert released == [True] and picture._kept is None and picture._last is None
