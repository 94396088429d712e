"""What `pbm serve` loads: no alembic (the schema is compared without it and migrated in a child
process only when it differs), no cryptography, no PostgreSQL driver on SQLite, no mail server
(issue 20, serve memory)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from alembic.script import ScriptDirectory

from pbm.store.db import make_engine
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
