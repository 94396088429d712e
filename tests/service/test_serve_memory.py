"""What `pbm serve` loads: no alembic (the schema is compared without it and migrated in a child
process only when it differs), no cryptography, no PostgreSQL driver on SQLite, no mail server;
and what it keeps: the hex names of live boards only, one malloc arena, a small SQLite page
cache (issue 20, serve memory)."""

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
from pbm.service.heap import one_arena
from pbm.store.db import PAGE_CACHE_KIB, make_engine
from pbm.store.migrate import alembic_config, code_heads, database_heads, schema_current, upgrade

#: Never in a serving process on SQLite.
NEVER = ("alembic", "mako", "cryptography", "psycopg", "pymap", "aiosmtpd", "babel")

#: Opens the service as `pbm serve` does (`service(cfg=…, apart=True)`) and imports what its
#: loops import; prints the forbidden modules loaded and the database's revisions.
PROBE = """
import json, sys
from pbm.cli.common import config, service
import pbm.service.serve
svc = service(cfg=config(sys.argv[1]), apart=True)
from pbm.store.migrate import database_heads
loaded = sorted({m.split(".")[0] for m in sys.modules} & set(json.loads(sys.argv[2])))
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


def test_sqlite_page_cache(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'pbm.db'}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA cache_size")).scalar() == -PAGE_CACHE_KIB
    engine.dispose()
