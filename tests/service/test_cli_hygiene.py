"""What the GM's terminal is shown: player-written text without control characters, broken games,
and `pbm mail ingest -` reading standard input.

A player chooses their name, their address, the subjects and (through the errors they provoke)
parts of the error lines the CLI prints. Escape sequences in them (ESC or the one-character CSI
U+009B) could clear or rewrite the GM's terminal, bidi overrides (U+202E) reorder what follows,
line separators (U+2028) split a line; `--json` output goes to terminals too, and json.dumps with
ensure_ascii=False writes C1 controls and bidi overrides as they are. The hostile values are put
into the database directly, so the test checks the CLI whatever the service lets through.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from databases import copy_sqlite
from harness import raw_mail
from sqlmodel import select
from typer.testing import CliRunner

from pbm.cli import app
from pbm.cli.clean import NAME_WIDTH, clean
from pbm.store.db import make_engine, transaction
from pbm.store.models import Game, InboundMail, Outbox, Player

#: Clear the screen, a C1 CSI, a bidi override, line and paragraph separators, BEL, and a
#: zero-width joiner (a format character too).
EVIL = "A\x1b[2J\x9b31mB\u202eC\u2028D\u2029E\x07F\u200dG"
EVIL_CLEAN = "A[2J31mBCDEFG"
FORBIDDEN = ("\x1b", "\x9b", "\u202e", "\u2028", "\u2029", "\x07", "\u200d")


def test_clean_removes_controls_format_characters_and_separators() -> None:
    assert clean(EVIL) == EVIL_CLEAN
    assert clean("Jörg Müller-Lüdenscheidt  ✓") == "Jörg Müller-Lüdenscheidt  ✓"
    assert clean("a\tb\r\nc\x00d\x7fe\x85f") == "abcdef"
    assert clean(None) == ""
    assert clean(7) == "7"
    every = "".join(chr(c) for c in range(0x110000))
    left = {unicodedata.category(ch) for ch in clean(every)}
    assert not left & {"Cc", "Cf", "Zl", "Zp", "Cs"}, left
    assert clean("x" * 100, NAME_WIDTH) == "x" * (NAME_WIDTH - 1) + "…"
    assert clean("x" * NAME_WIDTH, NAME_WIDTH) == "x" * NAME_WIDTH


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[CliRunner, Path]]:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text('[database]\nurl = "sqlite:///pbm.db"\n\n[service]\naddress = "gm@pbm.test"\n')
    monkeypatch.chdir(tmp_path.parent)  # the database lives beside the config, not in the cwd
    yield CliRunner(), cfg


def _run(cli: tuple[CliRunner, Path], *args: str, code: int = 0, stdin: bytes | None = None) -> str:
    runner, cfg = cli
    result = runner.invoke(app, ["--config", str(cfg), *args], input=stdin)
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.output


def _join(name: str, i: int) -> bytes:
    return raw_mail(
        f"p{i}@players.test",
        "Anmeldung",
        f"Spiel: {name}\nName: Spieler {i}\nFarben: rot\n",
        f"<join{i}.{name}@t>",
    )


def test_mail_ingest_reads_standard_input_for_a_dash_and_for_no_argument(
    cli: tuple[CliRunner, Path],
) -> None:
    _run(cli, "game", "create", "alpha", "--players", "4", "--seed", "3")
    assert "done" in _run(cli, "mail", "ingest", "-", stdin=_join("alpha", 0))
    assert "done" in _run(cli, "mail", "ingest", stdin=_join("alpha", 1))
    eml = cli[1].parent / "join2.eml"
    eml.write_bytes(_join("alpha", 2))
    assert "done" in _run(cli, "mail", "ingest", str(eml))
    players = json.loads(_run(cli, "player", "list", "alpha", "--json"))
    assert sorted(p["address"] for p in players) == [f"p{i}@players.test" for i in range(3)]
    # The same mail again from stdin: recognised by its Message-ID, not a file named "-".
    assert "duplicate" in _run(cli, "mail", "ingest", "-", stdin=_join("alpha", 0))


def _hostile_database(cfg: Path) -> None:
    """Game alpha with three players and a quarantined mail, all carrying EVIL where a player
    could have put it; a game whose name carries it; alpha marked broken."""
    engine = make_engine(f"sqlite:///{cfg.parent}/pbm.db")
    try:
        with transaction(engine) as s:
            players = list(s.exec(select(Player).order_by(Player.id)))  # type: ignore[arg-type]
            players[0].name = "N" * 60 + EVIL
            players[1].name = EVIL
            players[1].address = f"x{EVIL}@players.test"
            alpha = s.exec(select(Game).where(Game.name == "alpha")).one()
            alpha.broken = f"ValueError: {EVIL}"
            beta = s.exec(select(Game).where(Game.name == "beta")).one()
            beta.name = f"beta{EVIL}"
            mail = s.exec(select(InboundMail)).first()
            assert mail is not None
            s.add(
                InboundMail(
                    message_id=f"<q{EVIL}@t>",
                    raw=b"x",
                    received_at=mail.received_at,
                    sender=f"q{EVIL}@players.test",
                    subject=f"Subject {EVIL}",
                    status="quarantined",
                    error=f"Traceback (most recent call last):\nValueError: {EVIL}",
                )
            )
            row = s.exec(select(Outbox)).first()
            assert row is not None
            row.subject = f"Re: {EVIL}"
            row.recipients = f"x{EVIL}@players.test"
            row.last_error = f"550 {EVIL}"
    finally:
        engine.dispose()


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from _strings(v)


def _assert_clean(output: str, what: tuple[str, ...]) -> None:
    bad = [ch for ch in FORBIDDEN if ch in output]
    assert not bad, (what, bad, output)


@pytest.fixture(scope="module")
def hostile_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hostile database, made once by the CLI for the module's tests, which get copies."""
    cli = (CliRunner(), tmp_path_factory.mktemp("hostile") / "pbm.toml")
    cli[1].write_text(
        '[database]\nurl = "sqlite:///pbm.db"\n\n[service]\naddress = "gm@pbm.test"\n'
    )
    _run(cli, "game", "create", "alpha", "--players", "4", "--seed", "3")
    _run(cli, "game", "create", "beta", "--players", "3", "--seed", "4")
    for i in range(3):
        _run(cli, "mail", "ingest", "-", stdin=_join("alpha", i))
        # The GM confirms the sign-up (no mail needed): the three are seated.
        _run(cli, "player", "add", "alpha", f"p{i}@players.test")
    _hostile_database(cli[1])
    return cli[1].parent / "pbm.db"


@pytest.fixture
def hostile(cli: tuple[CliRunner, Path], hostile_database: Path) -> tuple[CliRunner, Path]:
    copy_sqlite(hostile_database, cli[1].parent / "pbm.db")
    return cli


COMMANDS = [
    ("game", "list"),
    ("game", "show", "alpha"),
    ("player", "list", "alpha"),
    ("round", "status", "alpha"),
    ("mail", "quarantine"),
    ("outbox", "list"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=["-".join(c) for c in COMMANDS])
def test_printed_player_text_has_no_control_characters(
    hostile: tuple[CliRunner, Path], command: tuple[str, ...]
) -> None:
    text = _run(hostile, *command)
    _assert_clean(text, command)
    assert EVIL_CLEAN in text, (command, text)
    raw = _run(hostile, *command, "--json")
    _assert_clean(raw, (*command, "--json"))
    # Also as escapes: json.dumps writes C0 controls as \u001b and the like.
    assert "\\u00" not in raw and "\\u2" not in raw, raw
    data = json.loads(raw)
    for s in _strings(data):
        _assert_clean(s, (*command, "--json", s))
    assert any(EVIL_CLEAN in s for s in _strings(data)), (command, data)


def test_player_names_are_cut_to_40_characters(hostile: tuple[CliRunner, Path]) -> None:
    long_name = "N" * (NAME_WIDTH - 1) + "…"
    for command in (("player", "list", "alpha"), ("round", "status", "alpha")):
        assert long_name in _run(hostile, *command)
        assert "N" * NAME_WIDTH not in _run(hostile, *command)
    rows = json.loads(_run(hostile, "player", "list", "alpha", "--json"))
    assert max(len(r["name"]) for r in rows) == NAME_WIDTH
    assert long_name in [r["name"] for r in rows]
    shown = json.loads(_run(hostile, "game", "show", "alpha", "--json"))
    assert long_name in [r["name"] for r in shown["players_list"]]


def test_error_lines_are_cleaned(hostile: tuple[CliRunner, Path]) -> None:
    out = _run(hostile, "game", "show", f"nope{EVIL}", code=2)
    _assert_clean(out, ("game", "show"))
    assert "error:" in out


def test_broken_games_show_in_game_list_and_game_show(hostile: tuple[CliRunner, Path]) -> None:
    lines = _run(hostile, "game", "list").splitlines()
    [alpha] = [line for line in lines if line.startswith("alpha ")]
    assert alpha.endswith(f"(broken: ValueError: {EVIL_CLEAN})"), alpha
    [beta] = [line for line in lines if line.startswith("beta")]
    assert "broken" not in beta
    rows = {r["name"]: r for r in json.loads(_run(hostile, "game", "list", "--json"))}
    assert rows["alpha"]["broken"] == f"ValueError: {EVIL_CLEAN}"
    assert rows[f"beta{EVIL_CLEAN}"]["broken"] == ""

    shown = json.loads(_run(hostile, "game", "show", "alpha", "--json"))
    assert shown["broken"] == f"ValueError: {EVIL_CLEAN}"
    assert f"broken           ValueError: {EVIL_CLEAN}" in _run(hostile, "game", "show", "alpha")
    # A game that is fine: "" in JSON, and no line about it in the text.
    _run(hostile, "game", "create", "gamma", "--players", "3")
    assert json.loads(_run(hostile, "game", "show", "gamma", "--json"))["broken"] == ""
    assert "broken" not in _run(hostile, "game", "show", "gamma")
    # `pbm game resume` is the GM's way back (pbm.service.broken.resume): the mark goes.
    assert _run(hostile, "game", "resume", "alpha").strip() == "alpha: running"
    assert json.loads(_run(hostile, "game", "show", "alpha", "--json"))["broken"] == ""
    _run(hostile, "game", "resume", "nope", code=2)


@pytest.mark.slow  # three interpreters started
def test_a_file_that_cannot_be_read_or_written_is_one_error_line(tmp_path: Path) -> None:
    """`pbm mail ingest` of a missing file or a folder, `pbm init` into a folder that does not
    exist: one `error:` line and exit 2, as every refusal, never a traceback."""
    import subprocess
    import sys

    for args, said in (
        (["mail", "ingest", "missing.eml"], "error: No such file or directory: missing.eml"),
        (["mail", "ingest", str(tmp_path)], f"error: Is a directory: {tmp_path}"),
        (["init", str(tmp_path / "no" / "pbm.toml")], "error: No such file or directory: "),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "pbm", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(said) and done.stderr.count("\n") == 1, done.stderr


def test_a_table_lines_up_names_of_wide_characters() -> None:
    """A name in Chinese takes two columns a character on the terminal: the next column still
    starts under its header."""
    from pbm.cli.output import table, width

    lines = table(["seat", "name", "vp"], [[0, "Anna", 1], [1, "王小明", 2], [2, "Jörg", 3]])
    # The last column starts at the same screen column on every line.
    assert {width(line[: line.rindex(" ") + 1]) for line in lines} == {14}
    assert width("e\u0301") == 1 and width("王") == 2


@pytest.mark.parametrize(
    ("url", "args", "said"),
    [
        # A PostgreSQL server that is not there.
        ("postgresql+psycopg://u:p@127.0.0.1:1/x", ["game", "list"], "Connection refused"),
        ("postgresql+psycopg://u:p@127.0.0.1:1/x", ["db", "upgrade"], "Connection refused"),
        # An SQLite file in a folder that does not exist.
        ("sqlite:///{tmp}/no/such/dir/pbm.db", ["db", "upgrade"], "unable to open"),
        ("sqlite:///{tmp}/no/such/dir/pbm.db", ["game", "create", "x"], "unable to open"),
    ],
)
def test_a_database_that_cannot_be_used_is_one_error_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    url: str,
    args: list[str],
    said: str,
) -> None:
    """One `error:` line naming what the driver said and where to look, exit 2: never a
    traceback."""
    from pbm.cli import main

    config = tmp_path / "pbm.toml"
    config.write_text(f'[database]\nurl = "{url.format(tmp=tmp_path)}"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.argv", ["pbm", *args])
    with pytest.raises(SystemExit) as done:
        main()
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the database cannot be used: ") and said in err, err
    assert err.count("\n") == 1 and "pbm config check" in err


def test_a_failed_migration_says_its_error_not_its_traceback() -> None:
    from pbm.store.migrate import _error_line

    stderr = (
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1, in <module>\n'
        "sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed\n"
        "(Background on this error at: https://sqlalche.me/e/21/e3q8)\n"
    )
    assert _error_line(stderr) == (
        "sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed"
    )
