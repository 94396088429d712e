"""The commands that need no database import none of the database, mail or rendering stack.

`pbm sim`, `pbm board`, `pbm orders check` and `pbm --help` are the engine's tools (and `pbm
bench engine` measures the engine alone): each runs in a fresh interpreter here, and the modules
it imported are checked afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
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


#: The interpreter PROBE starts, as far as PROBE's first import (`from pbm.cli import app`, a
#: quarter of a second of each probe), forked for each probe: each child is the interpreter
#: `python -c PROBE ARGS` would be at that point, and runs the rest of PROBE as it would.
ZYGOTE = """
import json, os, sys
from pbm.cli import app
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        for fd, name in ((1, job["stdout"]), (2, job["stderr"])):
            os.dup2(os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), fd)
        sys.argv = ["-c", *job["args"]]
        status = 0
        try:
            exec(compile(job["probe"], "<string>", "exec"), {"__name__": "__main__"})
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else int(e.code is not None)
        except BaseException:
            import traceback
            traceback.print_exc()
            status = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    _, waited = os.waitpid(pid, 0)
    print(json.dumps(os.waitstatus_to_exitcode(waited)), flush=True)
"""

_zygote: list[tuple[subprocess.Popen[str], Path]] = []


@pytest.fixture(scope="module", autouse=True)
def zygote(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The forking interpreter of this module's probes (without os.fork: none, each probe
    its own interpreter)."""
    if not hasattr(os, "fork"):
        yield
        return
    proc = subprocess.Popen(
        [sys.executable, "-c", ZYGOTE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    _zygote.append((proc, tmp_path_factory.mktemp("probes")))
    try:
        yield
    finally:
        _zygote.clear()
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=60)


def _run_probe(args: tuple[str, ...]) -> tuple[int, str, str]:
    """`python -c PROBE ARGS`: its exit status, standard output and error."""
    if not _zygote:
        done = subprocess.run(
            [sys.executable, "-c", PROBE, *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        return done.returncode, done.stdout, done.stderr
    proc, folder = _zygote[0]
    out, err = folder / "stdout", folder / "stderr"
    assert proc.stdin is not None and proc.stdout is not None
    job = {"probe": PROBE, "args": list(args), "stdout": str(out), "stderr": str(err)}
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    status = json.loads(proc.stdout.readline())
    return status, out.read_text(encoding="utf-8"), err.read_text(encoding="utf-8")


def _probe(*args: str) -> tuple[object, list[str], str]:
    returncode, stdout, stderr = _run_probe(args)
    assert returncode == 0, stderr
    line = stdout.rsplit("\nPROBE ", 1)[1]
    result = json.loads(line)
    return result["code"], result["heavy"], stdout


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
    import unicodedata
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "pbm"
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        # A module name is in the text (identifiers read as NFKC) wherever it is imported:
        # only such modules are parsed (all of pbm took 0.9 s).
        if "babel" not in (text if text.isascii() else unicodedata.normalize("NFKC", text)):
            continue
        for node in ast.walk(ast.parse(text)):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n == "babel" or n.startswith("babel.") for n in names), path
