"""The mailbox keys of pbm.toml: `[imap] provider` presets, `auth = "oauth2"` and [oauth2]."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbm.config import Config, ConfigError, load
from pbm.config.presets import OAUTH2_PROVIDERS as PROVIDERS
from pbm.config.presets import PRESETS
from pbm.mail.oauth2 import authorize_params, oauth2_section


def _load(tmp_path: Path, text: str) -> Config:
    path = tmp_path / "pbm.toml"
    path.write_text(text, encoding="utf-8")
    return load(path)


def test_a_config_without_auth_or_provider_is_as_before(tmp_path: Path) -> None:
    cfg = _load(tmp_path, '[imap]\nuser = "u"\npassword = "p"\n[smtp]\nuser = "s"\n')
    serve = cfg.settings
    assert serve.imap.auth == serve.smtp.auth == "password"
    assert (serve.imap.host, serve.imap.port, serve.imap.tls) == ("127.0.0.1", 143, False)
    assert (serve.smtp.user, serve.smtp.password) == ("s", "")
    assert oauth2_section(cfg.settings) is None


@pytest.mark.parametrize("provider", sorted(PRESETS))
def test_every_preset_fills_both_servers(tmp_path: Path, provider: str) -> None:
    preset = PRESETS[provider]
    text = f'[imap]\nprovider = "{provider}"\nuser = "gm@example.org"\npassword = "app"\n'
    if preset.auth == "oauth2":
        text += '[oauth2]\nclient_id = "cid"\n'
    serve = _load(tmp_path, text).settings
    assert serve.imap.host == preset.imap["host"] and serve.imap.tls and serve.imap.port == 993
    assert serve.smtp.host == preset.smtp["host"]
    assert (serve.smtp.port, serve.smtp.tls, serve.smtp.starttls) in (
        (465, True, False),
        (587, False, True),
    )
    assert serve.imap.auth == serve.smtp.auth == preset.auth
    # The same account signs in to both.
    assert serve.smtp.user == "gm@example.org"
    if preset.auth == "password":
        assert serve.smtp.password == "app"


def test_keys_written_win_over_the_preset(tmp_path: Path) -> None:
    settings = _load(
        tmp_path,
        '[imap]\nprovider = "gmail"\nuser = "gm@gmail.com"\nport = 1993\n'
        '[smtp]\nhost = "relay.example.org"\nport = 25\ntls = false\nuser = "other"\n',
    ).settings
    serve = settings
    assert (serve.imap.host, serve.imap.port) == ("imap.gmail.com", 1993)
    assert (serve.smtp.host, serve.smtp.port, serve.smtp.tls) == ("relay.example.org", 25, False)
    assert serve.smtp.user == "other"


def test_outlook_signs_in_with_oauth2_at_microsoft(tmp_path: Path) -> None:
    cfg = _load(
        tmp_path,
        '[imap]\nprovider = "outlook"\nuser = "gm@outlook.com"\n[oauth2]\nclient_id = "cid"\n',
    )
    o = oauth2_section(cfg.settings)
    assert o is not None
    ms = PROVIDERS["microsoft"]
    assert (o.token_endpoint, o.device_endpoint, tuple(o.scopes)) == (
        ms.token_endpoint,
        ms.device_endpoint,
        ms.scopes,
    )
    # The token file lives beside the config file.
    assert Path(o.token_file) == (tmp_path / "pbm-oauth2.json").resolve()
    assert o == cfg.settings.oauth2


def test_gmail_with_oauth2_and_an_own_token_endpoint(tmp_path: Path) -> None:
    cfg = _load(
        tmp_path,
        '[imap]\nprovider = "gmail"\nauth = "oauth2"\nuser = "gm@gmail.com"\n'
        '[smtp]\nauth = "oauth2"\n'
        '[oauth2]\nclient_id = "cid"\nclient_secret = "cs"\ntoken_file = "/var/lib/pbm/t.json"\n',
    )
    o = oauth2_section(cfg.settings)
    assert o is not None and o.token_endpoint == PROVIDERS["google"].token_endpoint
    assert o.device_endpoint == ""  # Google's device flow refuses the mail scope
    assert authorize_params(o)["access_type"] == "offline"
    assert str(o.token_file) == "/var/lib/pbm/t.json"
    smtp = cfg.settings.smtp
    assert smtp.auth == "oauth2" and smtp.user == "gm@gmail.com"


def test_oauth2_without_what_it_needs_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, '[imap]\nauth = "oauth2"\n')
    text = "\n".join(e.value.problems)
    assert "[oauth2] token_endpoint" in text and "[oauth2] client_id" in text
    assert "[imap] user" in text


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[imap]\nprovider = "aol"\n', "[imap] provider"),
        ('[smtp]\nauth = "xoauth"\n', "[smtp] auth"),
        ('[oauth2]\nprovider = "yahoo"\n', "[oauth2] provider"),
    ],
)
def test_unknown_providers_and_auth_kinds_are_refused(
    tmp_path: Path, text: str, where: str
) -> None:
    with pytest.raises(ConfigError) as e:
        _load(tmp_path, text)
    assert where in "\n".join(e.value.problems)
