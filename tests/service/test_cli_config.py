"""The config on the command line: `pbm init` writes a file only its owner reads, `pbm config
check` prints the config in force with secrets masked, and a bad file stops every command at
start with exit status 2 and one line per mistake, never a traceback."""

from __future__ import annotations

import json
import re
import stat
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbm.cli import app
from pbm.config import example
from pbm.config.model import SECTIONS, file_key

BAD = '[service]\nadress = "gm@example.org"\n\n[imap]\nport = "993"\n'


def _run(tmp_path: Path, *args: str, code: int = 0, config: str | None = None) -> str:
    cfg = tmp_path / "pbm.toml"
    if config is not None:
        cfg.write_text(config, encoding="utf-8")
    result = CliRunner().invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == code, (args, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.output


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_init_writes_the_example_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "pbm.toml"
    result = CliRunner().invoke(app, ["init", str(path)])
    assert result.exit_code == 0, result.output
    first, second, third = result.output.splitlines()
    assert first == f"wrote {path}; database ready at sqlite:///{tmp_path / 'pbm.db'}"
    # The GM password for mail commands, shown once (issue 28); a run on the same database
    # keeps it.
    assert re.fullmatch(r"GM password for mail commands: gm(-[a-z]{4}){5}", second), second
    assert "only its hash is stored" in third
    assert _mode(path) == 0o600
    assert path.read_text(encoding="utf-8") == example()
    assert (tmp_path / "pbm.db").exists()
    # Not again without --force; with it, a file that others could read becomes private too.
    again = CliRunner().invoke(app, ["init", str(path)])
    assert again.exit_code == 2 and "exists (use --force to overwrite)" in again.output
    path.write_text("# old\n")
    path.chmod(0o644)
    forced = CliRunner().invoke(app, ["init", str(path), "--force"])
    assert forced.exit_code == 0, forced.output
    assert "the database has a GM password already" in forced.output
    assert second.split(": ")[1] not in forced.output
    assert _mode(path) == 0o600
    assert path.read_text(encoding="utf-8") == example()


def test_config_check_prints_every_key_with_secrets_masked(tmp_path: Path) -> None:
    out = _run(
        tmp_path,
        "config",
        "check",
        config=(
            '[database]\nurl = "postgresql+psycopg://pbm:db-secret@127.0.0.1:5432/pbm"\n'
            '[imap]\npassword = "imap-secret"\n'
            '[smtp]\npassword = "smtp-secret"\nfrom = "Spielleitung <gm@example.org>"\n'
        ),
    )
    assert out.startswith(f"# {tmp_path / 'pbm.toml'}: valid\n")
    for secret in ("db-secret", "imap-secret", "smtp-secret"):
        assert secret not in out
    shown = tomllib.loads(out)
    assert list(shown) == list(SECTIONS)
    for name, section in SECTIONS.items():
        assert list(shown[name]) == [file_key(section, f) for f in section.model_fields]
    assert shown["database"]["url"] == "postgresql+psycopg://pbm:***@127.0.0.1:5432/pbm"
    assert shown["imap"]["password"] == shown["smtp"]["password"] == "********"
    assert shown["smtp"]["from"] == "Spielleitung <gm@example.org>"
    assert shown["service"]["poll_seconds"] == 60.0  # a default filled in

    data = json.loads(_run(tmp_path, "config", "check", "--json"))
    assert data["file"] == str(tmp_path / "pbm.toml")
    assert {k: v for k, v in data.items() if k != "file"} == shown


def test_config_check_without_a_file_shows_the_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBM_CONFIG", raising=False)
    result = CliRunner().invoke(app, ["config", "check"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# no config file: the defaults\n")
    assert tomllib.loads(result.output)["service"]["address"] == "gm@pbm.invalid"
    assert not (tmp_path / "pbm.db").exists()


def test_config_example_prints_what_init_writes(tmp_path: Path) -> None:
    assert CliRunner().invoke(app, ["config", "example"]).output == example()


@pytest.mark.parametrize(
    "args",
    [
        ("config", "check"),
        ("game", "list"),
        ("game", "create", "alpha"),
        ("db", "upgrade"),
        ("mail", "quarantine"),
        ("serve",),
        ("poll",),
    ],
    ids=" ".join,
)
def test_a_bad_config_stops_every_command_at_start(tmp_path: Path, args: tuple[str, ...]) -> None:
    out = _run(tmp_path, *args, code=2, config=BAD)
    path = tmp_path / "pbm.toml"
    assert out.splitlines() == [
        f"error: {path}: [service] adress: unknown key (did you mean address?)",
        f'error: {path}: [imap] port: must be a whole number, not "993" '
        "(write port = 993, without quotes)",
    ]
    assert not (tmp_path / "pbm.db").exists(), "the database was touched"


def test_a_missing_config_file_named_on_the_command_line_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["--config", str(tmp_path / "nope.toml"), "game", "list"])
    assert result.exit_code == 2
    assert result.output == (
        f"error: {tmp_path / 'nope.toml'}: no such file "
        f"(`pbm init {tmp_path / 'nope.toml'}` writes one)\n"
    )


# -- numbers out of range and files tomllib cannot read (docs/security.md) -------------------------


def _float_keys() -> list[tuple[str, str]]:
    return [
        (name, file_key(section, field))
        for name, section in SECTIONS.items()
        for field, info in section.model_fields.items()
        if info.annotation is float
    ]


def test_every_float_of_the_config_is_known_to_the_test() -> None:
    assert _float_keys() == [
        ("service", "time_scale"),
        ("service", "setup_deadline_share"),
        ("service", "poll_seconds"),
        ("service", "tick_seconds"),
        ("service", "send_seconds"),
        ("service", "mail_wait_minutes"),
        ("imap", "timeout"),
        ("smtp", "timeout"),
    ]


@pytest.mark.parametrize("value", ["inf", "+inf", "-inf", "nan", "-nan"])
def test_no_float_of_the_config_takes_inf_or_nan(tmp_path: Path, value: str) -> None:
    """`time_scale = inf` passed `pbm config check` and then made a deadline overflow in the
    first mail that set one; `send_seconds = inf` the outbox loop."""
    sections: dict[str, list[str]] = {}
    for name, key in _float_keys():
        sections.setdefault(name, []).append(f"{key} = {value}\n")
    text = "".join(f"[{name}]\n" + "".join(keys) for name, keys in sections.items())
    out = _run(tmp_path, "config", "check", code=2, config=text)
    shown = value.lstrip("+") if value != "-nan" else "nan"
    assert out.splitlines() == [
        f"error: {tmp_path / 'pbm.toml'}: [{name}] {key}: must be a finite number, not {shown}"
        for name, key in _float_keys()
    ]


@pytest.mark.parametrize(
    ("key", "value", "problem"),
    [
        ("time_scale", "1e300", "must be at most 100, not 1e+300"),
        ("time_scale", "0.0", "must be at least 1e-06, not 0.0"),
        ("time_scale", "-1.0", "must be at least 1e-06, not -1.0"),
        ("setup_deadline_share", "1.5", "must be at most 1, not 1.5"),
        ("poll_seconds", "1e9", "must be at most 86400, not 1000000000.0"),
        ("tick_seconds", "0.0001", "must be at least 0.01, not 0.0001"),
        ("send_seconds", "1e308", "must be at most 86400, not 1e+308"),
        ("mail_wait_minutes", "-1.0", "must be at least 0, not -1.0"),
        ("mail_wait_minutes", "1e6", "must be at most 10080, not 1000000.0"),
    ],
)
def test_floats_out_of_their_range_are_refused(
    tmp_path: Path, key: str, value: str, problem: str
) -> None:
    out = _run(tmp_path, "game", "list", code=2, config=f"[service]\n{key} = {value}\n")
    assert out == f"error: {tmp_path / 'pbm.toml'}: [service] {key}: {problem}\n"
    assert not (tmp_path / "pbm.db").exists(), "the database was touched"


def test_the_ends_of_the_ranges_are_taken(tmp_path: Path) -> None:
    text = (
        "[service]\ntime_scale = 100.0\nsetup_deadline_share = 1.0\npoll_seconds = 86400.0\n"
        "tick_seconds = 0.01\nsend_seconds = 0.01\n"
    )
    _run(tmp_path, "config", "check", config=text)
    _run(tmp_path, "config", "check", config="[service]\ntime_scale = 0.000001\n")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "not readable as TOML: nested too deeply"),
        ("x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n", "not readable as TOML: nested too"),
        ("[service]\nrate_limit_per_hour = " + "9" * 5000 + "\n", "not readable as TOML: "),
        ("[service\n", "not valid TOML: "),
        (b"[service]\nname = '\xff'\n", "not valid TOML: "),
    ],
    ids=["deep-arrays", "deep-tables", "5000-digits", "syntax", "not-utf8"],
)
def test_a_file_tomllib_cannot_read_is_one_line_and_exit_status_2(
    tmp_path: Path, text: str | bytes, reason: str
) -> None:
    """A deeply nested file raised RecursionError out of tomllib: a traceback and exit status
    1. Whatever tomllib raises is a config error now."""
    cfg = tmp_path / "pbm.toml"
    if isinstance(text, bytes):
        cfg.write_bytes(text)
    else:
        cfg.write_text(text, encoding="utf-8")
    for args in (("config", "check"), ("game", "list")):
        out = _run(tmp_path, *args, code=2)
        assert out.startswith(f"error: {cfg}: {reason}"), out
        assert len(out.splitlines()) == 1 and "Traceback" not in out, out
    assert not (tmp_path / "pbm.db").exists(), "the database was touched"
