"""pbm.toml read into the checked model (pbm/config/): the shipped example is the model's,
defaults live in one place, and a bad file is refused at once with the file, the key and the
fix, never a traceback later."""

from __future__ import annotations

import re
import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from pbm.config import ConfigError, Settings, effective, effective_toml, example, load, read
from pbm.config.model import SECTIONS, ServiceSection, file_key, is_secret
from pbm.mail.outgoing import build_message

ROOT = Path(__file__).resolve().parent.parent


def _problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "pbm.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    return caught.value.problems


def _load(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "pbm.toml"
    path.write_text(text, encoding="utf-8")
    return load(path)


# -- the example file and the defaults ----------------------------------------------------------


def test_the_shipped_example_is_rendered_from_the_model() -> None:
    shipped = (ROOT / "pbm" / "config.example.toml").read_text(encoding="utf-8")
    assert shipped == example(), "regenerate it: pbm config example > pbm/config.example.toml"
    assert (ROOT / "config.example.toml").resolve() == (ROOT / "pbm" / "config.example.toml")


def test_the_example_has_every_key_with_its_default_and_a_comment() -> None:
    text = example()
    data = tomllib.loads(text)
    defaults = Settings()
    assert list(data) == list(SECTIONS)
    lines = text.splitlines()
    for name, section in SECTIONS.items():
        values = getattr(defaults, name)
        keys = [file_key(section, f) for f in section.model_fields]
        assert list(data[name]) == keys, name
        for field in section.model_fields:
            key = file_key(section, field)
            assert data[name][key] == getattr(values, field), (name, key)
            # The line above each key is its comment.
            at = next(i for i, line in enumerate(lines) if line.startswith(f"{key} = "))
            assert lines[at - 1].startswith("# "), (name, key)
            assert section.model_fields[field].description, (name, key)
    assert read(data) == defaults


def test_runtime_settings_are_the_model_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The service, its loops and the transports run with the model itself: no mirrored
    dataclass of the mail layer or the loops is left to drift from it."""
    import pbm.mail.imap
    import pbm.mail.smtp
    import pbm.service.serve

    for module in (pbm.mail.imap, pbm.mail.smtp, pbm.service.serve):
        assert not [n for n in vars(module) if n.endswith("Config")], module.__name__
    # A config without a file gives the model's defaults (the paths made absolute).
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBM_CONFIG", raising=False)
    settings, model = load(None).settings, Settings()
    assert (settings.service, settings.imap, settings.smtp) == (
        model.service,
        model.imap,
        model.smtp,
    )


def test_config_imports_nothing_above_it() -> None:
    """The config is at the bottom: the service takes its model, it builds nothing of theirs
    (the import contracts, tests/test_layers.py, hold the rest)."""
    text = "".join(f.read_text() for f in (ROOT / "pbm" / "config").glob("*.py"))
    assert not re.search(r"^\s*(from|import) pbm\.(service|mail)\b", text, re.M)


def test_every_key_reaches_the_runtime_settings(tmp_path: Path) -> None:
    cfg = _load(
        tmp_path,
        '[database]\nurl = "sqlite:///data/x.db"\n'
        '[service]\naddress = "gm@example.org"\nname = "Insel"\ngm_address = "me@example.org"\n'
        "time_scale = 0.5\nsetup_deadline_share = 0.25\npoll_seconds = 7\ntick_seconds = 8\n"
        "send_seconds = 9\nrate_limit_per_hour = 30\nmax_mail_kb = 100\n"
        "bad_password_limit = 3\npassword_alert_after = 4\nmax_stored_kb = 2048\n"
        '[imap]\nhost = "imap.example.org"\nport = 993\nuser = "u"\npassword = "p"\ntls = true\n'
        'folder = "Spiele"\nprocessed_folder = "Done"\nidle = false\n'
        '[smtp]\nhost = "smtp.example.org"\nport = 587\nuser = "su"\npassword = "sp"\n'
        'tls = false\nstarttls = "auto"\nfrom = "gm+out@example.org"\n',
    )
    assert cfg.database_url == f"sqlite:///{(tmp_path / 'data' / 'x.db').resolve()}"
    assert cfg.settings.service == ServiceSection(
        address="gm@example.org",
        name="Insel",
        gm_address="me@example.org",
        time_scale=0.5,
        setup_deadline_share=0.25,
        rate_limit_per_hour=30,
        max_mail_kb=100,
        bad_password_limit=3,
        password_alert_after=4,
        max_stored_kb=2048,
        poll_seconds=7.0,
        tick_seconds=8.0,
        send_seconds=9.0,
    )
    imap, smtp = cfg.settings.imap, cfg.settings.smtp
    assert (imap.host, imap.port, imap.user, imap.password, imap.tls) == (
        "imap.example.org",
        993,
        "u",
        "p",
        True,
    )
    assert (imap.folder, imap.processed_folder, imap.idle) == ("Spiele", "Done", False)
    assert (smtp.host, smtp.port, smtp.user, smtp.password, smtp.tls) == (
        "smtp.example.org",
        587,
        "su",
        "sp",
        False,
    )
    assert (smtp.starttls_wanted, smtp.from_address) == (None, "gm+out@example.org")


def test_no_file_means_the_defaults_and_an_absolute_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PBM_CONFIG", raising=False)
    cfg = load(None)
    assert cfg.path is None and cfg.settings.service == Settings().service
    assert cfg.database_url == f"sqlite:///{tmp_path.resolve() / 'pbm.db'}"


def test_environment_variables_do_not_override_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A settings library would read SERVICE, IMAP, … from the environment; pbm reads the file
    alone."""
    for name in ("SERVICE", "service", "DATABASE", "IMAP", "SMTP"):
        monkeypatch.setenv(name, '{"address": "env@example.org", "url": "sqlite:///env.db"}')
    cfg = _load(tmp_path, '[service]\naddress = "gm@example.org"\n')
    assert cfg.settings.service.address == "gm@example.org"
    assert cfg.database_url.endswith("/pbm.db")


# -- the From address ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("smtp_from", "service_name", "address", "name"),
    [
        ("Spielleitung <gm@example.org>", "", "gm@example.org", "Spielleitung"),
        ("Spielleitung <gm@example.org>", "Insel-GM", "gm@example.org", "Spielleitung"),
        ('"Spielleitung, Insel" <gm@example.org>', "", "gm@example.org", "Spielleitung, Insel"),
        ("gm@example.org", "Insel-GM", "gm@example.org", "Insel-GM"),
        ("", "Insel-GM", "", "Insel-GM"),
        ("", "", "", "pbm game master"),
    ],
)
def test_smtp_from_with_a_display_name(
    tmp_path: Path, smtp_from: str, service_name: str, address: str, name: str
) -> None:
    """The display name of `[smtp] from` wins over `[service] name`; without one, `[service]
    name` is the display name, as before."""
    named = f'name = "{service_name}"\n' if service_name else ""
    cfg = _load(
        tmp_path, f'[service]\naddress = "gm@pbm.test"\n{named}\n[smtp]\nfrom = {smtp_from!r}\n'
    )
    smtp = cfg.settings.smtp
    assert smtp.from_address == address
    assert cfg.settings.sender_name == name
    msg = build_message(
        from_address=smtp.from_address or cfg.settings.service.address,
        from_name=cfg.settings.sender_name,
        recipients=["p@players.test"],
        subject="Bericht",
        body="x",
        html="",
        message_id="<m@t>",
        in_reply_to="",
        date=datetime(2026, 1, 1, tzinfo=UTC),
    )
    assert msg["From"].addresses[0].display_name == name
    assert msg["From"].addresses[0].addr_spec == (address or "gm@pbm.test")


# -- refusals -----------------------------------------------------------------------------------


def test_an_unknown_key_is_refused_with_the_file_the_key_and_a_suggestion(tmp_path: Path) -> None:
    problems = _problems(tmp_path, '[service]\nadress = "gm@example.org"\n')
    path = tmp_path / "pbm.toml"
    assert problems == [f"{path}: [service] adress: unknown key (did you mean address?)"]


def test_keys_out_of_place_and_unknown_sections(tmp_path: Path) -> None:
    problems = _problems(
        tmp_path,
        'url = "sqlite:///x.db"\n[imap]\npoll_seconds = 5\nhost_name = "x"\n'
        '[servise]\nname = "x"\n',
    )
    text = "\n".join(problems)
    assert "url: belongs in a section (write it below [database])" in text
    assert "[imap] poll_seconds: unknown key here (it belongs in [service])" in text
    assert "[imap] host_name: unknown key (did you mean host?)" in text
    assert "[servise]: unknown section (did you mean [service]?)" in text
    assert len(problems) == 4


def test_section_names_in_any_case(tmp_path: Path) -> None:
    """`[Service]` and `[IMAP]` are [service] and [imap], as pbm has always read them."""
    cfg = _load(tmp_path, '[Service]\naddress = "gm@example.org"\n[IMAP]\nport = 1993\n')
    assert cfg.settings.service.address == "gm@example.org"
    assert cfg.settings.imap.port == 1993


def test_one_section_twice_in_two_cases_is_refused(tmp_path: Path) -> None:
    problems = _problems(
        tmp_path, '[service]\naddress = "a@example.org"\n[SERVICE]\naddress = "b@example.org"\n'
    )
    assert problems == [f"{tmp_path / 'pbm.toml'}: [service] and [SERVICE]: the same section twice"]


def test_an_unknown_section_in_capitals_gets_its_hint(tmp_path: Path) -> None:
    problems = _problems(tmp_path, '[SERVISE]\nname = "x"\n')
    assert problems == [
        f"{tmp_path / 'pbm.toml'}: [SERVISE]: unknown section (did you mean [service]?)"
    ]


def test_wrong_types_are_refused_with_the_fix(tmp_path: Path) -> None:
    problems = _problems(
        tmp_path,
        '[service]\ntime_scale = "1"\nrate_limit_per_hour = 0\n'
        '[imap]\nport = "993"\ntls = "true"\nidle = 1\n'
        '[smtp]\nstarttls = "yes"\nport = 70000\nhost = ""\n'
        "[database]\nurl = 5\n",
    )
    text = "\n".join(problems)
    for line in (
        '[service] time_scale: must be a number, not "1" (write time_scale = 1, without quotes)',
        "[service] rate_limit_per_hour: must be at least 1, not 0",
        '[imap] port: must be a whole number, not "993" (write port = 993, without quotes)',
        '[imap] tls: must be true or false, not "true" (write tls = true, without quotes)',
        "[imap] idle: must be true or false, not 1",
        '[smtp] starttls: must be true, false or "auto", not "yes"',
        "[smtp] port: must be at most 65535, not 70000",
        '[smtp] host: must not be empty ("")',
        '[database] url: must be a text in quotes ("…")',
    ):
        assert line in text, (line, problems)
    assert len(problems) == 9
    assert all(p.startswith(f"{tmp_path / 'pbm.toml'}: [") for p in problems)


@pytest.mark.parametrize(
    ("section", "key", "value"),
    [
        ("service", "address", "gm at example.org"),
        ("service", "address", "gm@"),
        ("service", "address", "Spielleitung <gm@example.org>"),
        ("service", "gm_address", "me@exa mple.org"),
        ("service", "gm_address", "@example.org"),
        ("smtp", "from", "Spielleitung <gm@example.org"),
        ("smtp", "from", "Spielleitung gm@example.org"),
        ("smtp", "from", "Spielleitung <gm at example.org>"),
    ],
)
def test_bad_addresses_are_refused(tmp_path: Path, section: str, key: str, value: str) -> None:
    [problem] = _problems(tmp_path, f'[{section}]\n{key} = "{value}"\n')
    assert problem.startswith(f"{tmp_path / 'pbm.toml'}: [{section}] {key}: ")
    assert "name@example.org" in problem or "<gm@example.org>" in problem, problem


def test_a_bad_database_url_is_refused_without_showing_its_password(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, '[database]\nurl = "mysql://pbm:hunter2@db/pbm"\n')
    assert "[database] url: pbm runs on SQLite or PostgreSQL, not mysql" in problem
    assert "hunter2" not in problem
    [problem] = _problems(tmp_path, '[database]\nurl = "not a url"\n')
    assert "[database] url: not a database URL" in problem


def test_a_secret_of_the_wrong_type_is_not_shown(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, "[imap]\npassword = 12345678\n")
    assert problem.endswith('[imap] password: must be a text in quotes ("…")')
    assert "12345678" not in problem


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path / "nope.toml")
    assert caught.value.problems == [
        f"{tmp_path / 'nope.toml'}: no such file (`pbm init {tmp_path / 'nope.toml'}` writes one)"
    ]
    [problem] = _problems(tmp_path, "[service\naddress = 1\n")
    assert problem.startswith(f"{tmp_path / 'pbm.toml'}: not valid TOML: ")
    [problem] = _problems(tmp_path, "_env_file = '.env'\n")
    assert "_env_file: unknown key" in problem


def test_secrets_are_marked_and_masked() -> None:
    secret = {
        (name, file_key(section, f))
        for name, section in SECTIONS.items()
        for f in section.model_fields
        if is_secret(section, f)
    }
    assert secret == {
        ("database", "url"),
        ("imap", "password"),
        ("smtp", "password"),
        ("oauth2", "client_secret"),
    }
    settings = read(
        {
            "database": {"url": "postgresql+psycopg://pbm:hunter2@127.0.0.1:5432/pbm"},
            "imap": {"password": "imap-secret"},
            "smtp": {"password": ""},
        }
    )
    shown = effective(settings)
    assert shown["database"]["url"] == "postgresql+psycopg://pbm:***@127.0.0.1:5432/pbm"
    assert shown["imap"]["password"] == "********"
    assert shown["smtp"]["password"] == ""  # nothing set, nothing to hide
    assert "hunter2" not in str(shown) and "imap-secret" not in str(shown)


def test_the_gm_addresses_and_where_the_gms_mail_goes(tmp_path: Path) -> None:
    """`[service] gm` lists the addresses the GM writes from; gm_address is one of them and
    takes the GM's mail; without it, the GM's mail goes to every address of `gm`."""
    cfg = _load(
        tmp_path,
        '[service]\ngm_address = "alerts@example.org"\ngm = ["Me@Example.org", "me@phone.test"]\n',
    )
    service = cfg.settings.service
    assert service.gm == ["Me@Example.org", "me@phone.test"]
    assert service.gm_senders == {"alerts@example.org", "me@example.org", "me@phone.test"}
    assert service.is_gm("ME@example.org") and service.is_gm("alerts@example.org")
    assert not service.is_gm("player@example.org") and not service.is_gm("")
    assert service.gm_inbox == ["alerts@example.org"]
    alone = _load(
        tmp_path, '[service]\ngm = ["me@phone.test", "me@example.org"]\n'
    ).settings.service
    assert alone.gm_inbox == ["me@example.org", "me@phone.test"]
    assert ServiceSection().gm_inbox == [] and ServiceSection().gm_senders == frozenset()
    # `pbm config check` shows the list as TOML.
    assert 'gm = ["Me@Example.org", "me@phone.test"]' in effective_toml(cfg.settings)


def test_a_bad_gm_list_is_refused_with_the_fix(tmp_path: Path) -> None:
    [problem] = _problems(tmp_path, '[service]\ngm = "me@example.org"\n')
    assert problem.endswith(
        '[service] gm: must be a list in brackets (["name@example.org"]), not "me@example.org"'
    )
    [problem] = _problems(tmp_path, '[service]\ngm = ["me@example.org", "not an address"]\n')
    assert "[service] gm: 'not an address' is not a mail address" in problem


def test_every_path_is_relative_to_the_config_files_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SQLite file and `[archive] dir` are taken from the config file's folder, whichever
    folder pbm runs in (a cron job, a systemd unit and the GM's shell mean the same files)."""
    from typer.testing import CliRunner

    from pbm.cli import app

    etc = tmp_path / "etc"
    etc.mkdir()
    (etc / "pbm.toml").write_text(
        '[database]\nurl = "sqlite:///data/pbm.db"\n[archive]\ndir = "web"\n', encoding="utf-8"
    )
    (etc / "data").mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("PBM_CONFIG", raising=False)
    cfg = load("../etc/pbm.toml")
    assert cfg.database_url == f"sqlite:///{(etc / 'data' / 'pbm.db').resolve()}"
    assert cfg.settings.archive.dir == str((etc / "web").resolve())
    # An absolute path stays as it is, and "" is no archive.
    absolute = tmp_path / "www"
    (etc / "abs.toml").write_text(f'[archive]\ndir = "{absolute}"\n', encoding="utf-8")
    assert load(etc / "abs.toml").settings.archive.dir == str(absolute)
    (etc / "none.toml").write_text('[archive]\nurl = ""\n', encoding="utf-8")
    assert load(etc / "none.toml").settings.archive.dir == ""
    # The commands, run from another folder, write beside the config file only.
    runner = CliRunner()
    for args in (["db", "upgrade"], ["game", "create", "alpha"]):
        result = runner.invoke(app, ["--config", "../etc/pbm.toml", *args])
        assert result.exit_code == 0, result.output
    assert (etc / "data" / "pbm.db").exists()
    assert list(elsewhere.iterdir()) == []
    checked = runner.invoke(app, ["--config", "../etc/pbm.toml", "config", "check"])
    assert f'dir = "{(etc / "web").resolve()}"' in checked.output
