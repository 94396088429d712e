"""The command line is thin: pbm/cli/ holds no query and no game logic, the commands that only
read leave the schema as it is, and `pbm round resolve GAME` acts on that game alone."""

from __future__ import annotations

import ast
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from databases import game_row, records, sqlite_database
from harness import Mailer, start_game
from sqlalchemy import create_engine
from typer.testing import CliRunner

from pbm.cli import app
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.table import as_utc
from pbm.store.db import transaction
from pbm.store.migrate import alembic_config

CLI = Path(__file__).resolve().parents[2] / "pbm" / "cli"
#: Modules the command line must not import: tables and sessions belong to pbm/service.
FORBIDDEN = ("sqlmodel", "sqlalchemy", "alembic", "pbm.store")
#: The commands that only read, each with the arguments it needs.
READ_ONLY = [
    ("game", "list"),
    ("game", "show", "alpha"),
    ("game", "board", "alpha"),
    ("game", "replay", "alpha"),
    ("game", "verify", "alpha"),
    ("round", "status", "alpha"),
    ("round", "preview", "alpha"),
    ("player", "list", "alpha"),
    ("observer", "list", "alpha"),
    ("mail", "quarantine"),
    ("outbox", "list"),
    ("codebook", "alpha", "rot"),
]


def test_the_cli_imports_no_table_and_runs_no_query() -> None:
    modules = sorted(CLI.glob("*.py"))
    assert len(modules) >= 10
    for path in modules:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(FORBIDDEN), (path.name, name)
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("exec", "execute", "query"), (path.name, node.attr)
            if isinstance(node, ast.Name):
                assert node.id not in ("select", "Session", "transaction"), (path.name, node.id)


def _runner(tmp_path: Path, url: str) -> tuple[CliRunner, Path]:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{url}"\n\n[service]\naddress = "gm@pbm.test"\n')
    return CliRunner(), cfg


def _run(runner: CliRunner, cfg: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.output


def _revision(url: str) -> str | None:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return MigrationContext.configure(conn).get_current_revision()
    finally:
        engine.dispose()


def test_reading_commands_leave_an_older_schema_alone(tmp_path: Path) -> None:
    url = sqlite_database(tmp_path / "pbm.db")  # a copy of one migrated to the newest schema
    command.downgrade(alembic_config(url), "-1")
    older = _revision(url)
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    assert older is not None and older != head
    runner, cfg = _runner(tmp_path, url)
    for args in READ_ONLY:
        out = _run(runner, cfg, *args, code=2)
        assert out.startswith("error: the database's schema") and "pbm db upgrade" in out, out
        assert _revision(url) == older, f"{args} migrated the database"
    # `pbm config check` does not open the database at all.
    _run(runner, cfg, "config", "check")
    # A command that writes migrates, as before; then the readers read.
    _run(runner, cfg, "game", "create", "alpha", "--players", "3", "--seed", "3")
    assert _revision(url) == head
    assert "alpha" in _run(runner, cfg, "game", "list")


def test_db_upgrade_says_it_migrated_an_older_schema(tmp_path: Path) -> None:
    url = sqlite_database(tmp_path / "pbm.db")  # a copy of one migrated to the newest schema
    command.downgrade(alembic_config(url), "-1")
    runner, cfg = _runner(tmp_path, url)
    assert "database up to date (migrated now)" in _run(runner, cfg, "db", "upgrade")
    assert _revision(url) == ScriptDirectory.from_config(alembic_config(url)).get_current_head()


def test_reading_commands_create_no_database(tmp_path: Path) -> None:
    runner, cfg = _runner(tmp_path, "sqlite:///pbm.db")
    out = _run(runner, cfg, "outbox", "list", code=2)
    assert (
        out
        == f"error: no database at {tmp_path / 'pbm.db'}: run `pbm db upgrade` (or `pbm init`)\n"
    )
    assert not (tmp_path / "pbm.db").exists()
    assert "database up to date (created now)" in _run(runner, cfg, "db", "upgrade")
    assert _run(runner, cfg, "outbox", "list") == "the outbox is empty\n"
    assert "database up to date (nothing to do)" in _run(runner, cfg, "db", "upgrade")


def test_a_schema_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    url = sqlite_database(tmp_path / "pbm.db")  # a copy of one migrated to the newest schema
    with sqlite3.connect(tmp_path / "pbm.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfeedbeef'")
    runner, cfg = _runner(tmp_path, url)
    out = _run(runner, cfg, "game", "list", code=2)
    assert "(f00dfeedbeef) is newer than this pbm's" in out and "upgrade pbm" in out


def _due(svc: Service, name: str, hours: float) -> None:
    """Put the game's deadline `hours` from the real clock the command line runs on."""
    with transaction(svc.engine) as s:
        get_game(s, name, lock=True).deadline = datetime.now(UTC) + timedelta(hours=hours)


def test_round_resolve_acts_on_the_named_game_alone(
    svc: Service, clock: FakeClock, mailer: Mailer, db_url: str, tmp_path: Path
) -> None:
    for name in ("alpha", "beta"):
        start_game(mailer, clock, name, by_mail=False)
        _due(svc, name, -1)  # both due
    runner, cfg = _runner(tmp_path, db_url)
    assert _run(runner, cfg, "round", "resolve", "alpha") == "alpha: resolved\n"
    assert game_row(svc, "alpha").round == 2
    assert game_row(svc, "beta").round == 1, "resolving alpha resolved beta too"
    assert [r.kind for r in records(svc, "beta")].count("round") == 0

    _due(svc, "alpha", 24)
    assert _run(runner, cfg, "round", "resolve", "alpha") == "alpha: not due\n"
    assert game_row(svc, "alpha").round == 2
    assert _run(runner, cfg, "round", "resolve", "alpha", "--now") == "alpha: resolved\n"
    assert game_row(svc, "alpha").round == 3
    assert game_row(svc, "beta").round == 1

    out = _run(runner, cfg, "round", "resolve", "nope", code=2)
    assert out == "error: no game named 'nope'\n"
    out = _run(runner, cfg, "round", "resolve", "nope", "--now", code=2)
    assert out == "error: no game named 'nope'\n"


def test_round_resolve_of_a_paused_game_is_not_due(
    svc: Service, clock: FakeClock, mailer: Mailer, db_url: str, tmp_path: Path
) -> None:
    start_game(mailer, clock, "alpha", by_mail=False)
    _due(svc, "alpha", -1)
    runner, cfg = _runner(tmp_path, db_url)
    _run(runner, cfg, "game", "pause", "alpha")
    assert game_row(svc, "alpha").paused
    assert _run(runner, cfg, "round", "resolve", "alpha") == "alpha: not due\n"
    assert _run(runner, cfg, "game", "resume", "alpha") == "alpha: running\n"
    # The deadline passed while paused (orders were refused meanwhile): it is set anew, the
    # game's usual time from now, and told to the players.
    row = game_row(svc, "alpha")
    assert row.deadline is not None
    assert as_utc(row.deadline) > datetime.now(UTC) + timedelta(hours=47)  # the CLI's clock
    assert _run(runner, cfg, "round", "resolve", "alpha") == "alpha: not due\n"
    assert _run(runner, cfg, "round", "resolve", "alpha", "--now") == "alpha: resolved\n"


def test_a_resolution_that_fails_marks_the_game_broken(
    svc: Service,
    clock: FakeClock,
    mailer: Mailer,
    db_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pbm.service.admin as admin

    start_game(mailer, clock, "alpha", by_mail=False)
    _due(svc, "alpha", -1)

    def broken(*_: object) -> int:
        raise RuntimeError("bug in resolve")

    monkeypatch.setattr(admin, "resolve", broken)
    runner, cfg = _runner(tmp_path, db_url)
    out = _run(runner, cfg, "round", "resolve", "alpha", code=1)
    assert out == "alpha: marked broken: RuntimeError: bug in resolve\n"
    assert game_row(svc, "alpha").broken == "RuntimeError: bug in resolve"


def test_init_into_a_folder_writes_its_pbm_toml(tmp_path: Path) -> None:
    """`pbm init games/` (there or not yet) and `pbm init EXISTING_FOLDER`: the folder's
    pbm.toml, never a file named like the folder."""
    runner = CliRunner()
    for where in (f"{tmp_path}/new/", str(tmp_path / "old")):
        (tmp_path / "old").mkdir(exist_ok=True)
        out = runner.invoke(app, ["init", where])
        assert out.exit_code == 0, out.output
        assert (Path(where) / "pbm.toml").is_file()
    out = runner.invoke(app, ["init", str(tmp_path / "old")])
    assert out.exit_code == 2 and "pbm.toml exists" in out.output


@pytest.mark.parametrize(
    ("args", "said"),
    [(["--lang", "fr"], "lang must be one of da, de, en"), (["--seed", "-5"], "seed must be 0")],
)
def test_board_refuses_what_game_create_refuses(args: list[str], said: str) -> None:
    out = CliRunner().invoke(app, ["board", *args])
    assert out.exit_code == 2 and said in out.output


def test_a_lever_pulled_twice_says_nothing_changed(
    svc: Service, clock: FakeClock, mailer: Mailer, db_url: str, tmp_path: Path
) -> None:
    """`pause`, `resume` and `player autopilot` said "paused" / "running" / "autopilot on"
    a second time as if they had done it again."""
    start_game(mailer, clock, "alpha", by_mail=False)
    runner, cfg = _runner(tmp_path, db_url)
    assert _run(runner, cfg, "game", "pause", "alpha") == "alpha: paused\n"
    assert _run(runner, cfg, "game", "pause", "alpha") == "alpha: paused already; nothing changed\n"
    assert _run(runner, cfg, "game", "resume", "alpha") == "alpha: running\n"
    again = _run(runner, cfg, "game", "resume", "alpha")
    assert again == "alpha: running already; nothing changed\n"
    # The confirmation names the colour in the command line's English (`rot` is red).
    assert _run(runner, cfg, "player", "autopilot", "alpha", "rot", "on") == (
        "alpha: autopilot on for red\n"
    )
    assert _run(runner, cfg, "player", "autopilot", "alpha", "rot", "on") == (
        "alpha: the autopilot was on for red already; nothing changed\n"
    )


def test_an_ended_game_takes_no_new_password_and_no_new_player(
    svc: Service, clock: FakeClock, mailer: Mailer, db_url: str, tmp_path: Path
) -> None:
    start_game(mailer, clock, "alpha", by_mail=False)
    runner, cfg = _runner(tmp_path, db_url)
    _run(runner, cfg, "game", "end", "alpha", "--why", "Schluss.")
    out = _run(runner, cfg, "player", "password", "alpha", "rot", code=2)
    assert out == "error: alpha has ended: a new password is for a game that goes on\n"
    out = _run(runner, cfg, "player", "add", "alpha", "neu@players.test", code=2)
    assert out == "error: alpha has ended: a new player is for a game that goes on\n"
