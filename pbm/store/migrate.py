"""Schema migrations with alembic, run from code: `pbm db upgrade`.

alembic is imported only by the functions that run it: with the migration scripts it loads it
is some 14 MB of a process, and `pbm serve` keeps running for months after a start that only
needs to know whether the schema is the code's (`schema_current`, plain SQL and the scripts'
text), and migrates in a child process when it is not (`upgrade_apart`).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).parent / "migrations"
#: `revision = "…"` and `down_revision = …` (a string, None or a tuple) at a script's top level.
_REVISION_LINE = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(.+?)\s*$", re.M)


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # configparser interpolates "%": a URL-encoded password must reach alembic as it is.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    command.upgrade(alembic_config(url), revision)


def revision(url: str, message: str) -> None:
    """Write a new migration from the difference between the models and the database."""
    from alembic import command

    command.revision(alembic_config(url), message=message, autogenerate=True)


def code_heads() -> frozenset[str]:
    """The head revisions of this pbm's migration scripts, read from their text: the revisions
    no script names as its down revision (what alembic's `ScriptDirectory.get_heads` says)."""
    revisions: set[str] = set()
    downs: set[str] = set()
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = dict(_REVISION_LINE.findall(path.read_text(encoding="utf-8")))
        revisions.add(ast.literal_eval(found["revision"]))
        down = ast.literal_eval(found.get("down_revision", "None"))
        if isinstance(down, str):
            downs.add(down)
        elif down:
            downs.update(down)
    return frozenset(revisions - downs)


def database_heads(engine: Engine) -> frozenset[str]:
    """The revisions the database's `alembic_version` table holds (none without the table)."""
    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars()
            return frozenset(str(r) for r in rows)
    except DBAPIError:
        return frozenset()


def schema_current(engine: Engine) -> bool:
    """Whether the database's schema is this pbm's newest (nothing to migrate)."""
    return database_heads(engine) == code_heads()


def upgrade_apart(url: str) -> None:
    """`upgrade(url)` in a child process, so that alembic's memory goes with it. The URL goes
    on standard input (it may hold a password: never on a command line). Raises RuntimeError
    with the child's last lines when it fails."""
    package_root = str(Path(__file__).resolve().parents[2])
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    code = "import sys; from pbm.store.migrate import upgrade; upgrade(sys.stdin.read())"
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=url,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the database could not be migrated: {_error_line(done.stderr)}")


def _error_line(stderr: str) -> str:
    """The error a child's traceback ends with (`…OperationalError: (…) connection failed…`),
    without the traceback above it or SQLAlchemy's link below it."""
    lines = [line for line in stderr.strip().splitlines() if line.strip()]
    errors = [line for line in lines if re.match(r"^[\w.]+(?:Error|Exception)\b[^:]*:", line)]
    return (errors or lines or [""])[-1].strip()
