"""The commands that need no database import none of the database, mail or rendering stack.

`pbm sim`, `pbm board`, `pbm orders check` and `pbm --help` are the engine's tools (and `pbm
bench engine` measures the engine alone): each runs in a fresh interpreter here, and the modules
it imported are checked afterwards.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = (
    "sqlalchemy",
    "sqlmodel",
    "alembic",
    "psycopg",
    "aioimaplib",
    "aiosmtplib",
    "aiosmtpd",
    "pymap",
    "jinja2",
    "PIL",
)

#: Runs the command line as `pbm ARGS` would, then prints the heavy modules it imported.
PROBE = f"""
import json, sys
from pbm.cli import app
try:
    app(sys.argv[1:], prog_name="pbm")
except SystemExit as e:
    code = e.code
else:
    code = 0
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({HEAVY!r}))
print("\\nPROBE " + json.dumps({{"code": code, "heavy": heavy}}))
"""


def _probe(*args: str) -> tuple[object, list[str], str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.rsplit("\nPROBE ", 1)[1]
    result = json.loads(line)
    return result["code"], result["heavy"], done.stdout


@pytest.fixture(scope="module")
def orders_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("orders") / "orders.txt"
    path.write_text("Kennwort: x\nStraße 4H 5W\nquatsch\n", encoding="utf-8")
    return path


@pytest.mark.timeout(120)
def test_pbm_sim_imports_no_database_or_mail_module() -> None:
    code, heavy, out = _probe("sim", "--games", "1", "--json")
    assert code == 0, out
    assert json.loads(out.split("\nPROBE ")[0].strip().splitlines()[-1])["games"] == 1
    assert heavy == [], heavy


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["sim", "--help"],
        ["board", "--seed", "1"],
        ["board", "--seed", "1", "--json"],
        ["orders", "check", "--seed", "1", "{orders}"],
        ["orders", "check", "--seed", "1", "--json", "{orders}"],
    ],
    ids=lambda a: " ".join(a),
)
def test_engine_commands_import_no_database_or_mail_module(
    args: list[str], orders_file: Path
) -> None:
    code, heavy, out = _probe(*(a.format(orders=orders_file) for a in args))
    assert code in (0, 1), out  # orders check: 1 for the line it does not understand
    assert heavy == [], (args, heavy)


def test_no_module_of_pbm_imports_babel() -> None:
    """Babel is a tool of the translators and the tests (the `test` extra), not a dependency of
    pbm: the catalogues are read by pbm/pofile.py."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "pbm"
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n == "babel" or n.startswith("babel.") for n in names), path
