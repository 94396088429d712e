"""`pbm mailbox login`: the first OAuth2 sign-in, against the test provider on 127.0.0.1
(tests/mail/oauth_provider.py): the device-code flow (the GM types a code on the provider's
page) and the browser flow with PKCE, its redirect caught on a loopback port. The tokens land in
the token file, readable by its owner alone."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbm.cli import app

from .oauth_provider import CLIENT_ID, Provider, running

USER = "gm@pbm.test"


@pytest.fixture
def provider() -> Iterator[Provider]:
    with running() as p:
        p.signing_in = USER
        yield p


def _config(tmp_path: Path, provider: Provider, device: bool = True) -> Path:
    path = tmp_path / "pbm.toml"
    path.write_text(
        f'[imap]\nauth = "oauth2"\nuser = "{USER}"\n'
        f'[oauth2]\nclient_id = "{CLIENT_ID}"\n'
        f'token_endpoint = "{provider.url}/token"\n'
        f'authorize_endpoint = "{provider.url}/authorize"\n'
        + (f'device_endpoint = "{provider.url}/device"\n' if device else "")
        + 'scopes = ["mail"]\ntoken_file = "tokens/pbm-oauth2.json"\n',
        encoding="utf-8",
    )
    (tmp_path / "tokens").mkdir()
    return path


def _stored(tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "tokens" / "pbm-oauth2.json"
    assert (path.stat().st_mode & 0o777) == 0o600
    data: dict[str, object] = json.loads(path.read_text())
    return data


def test_login_with_a_device_code(tmp_path: Path, provider: Provider) -> None:
    cfg = _config(tmp_path, provider)

    def gm_types_the_code() -> None:
        while not provider.devices:
            time.sleep(0.02)
        time.sleep(0.2)  # a few polls go unanswered first
        provider.approve_devices()

    threading.Thread(target=gm_types_the_code, daemon=True).start()
    result = CliRunner().invoke(app, ["--config", str(cfg), "mailbox", "login"])
    assert result.exit_code == 0, result.output
    assert f"Open {provider.url}/device-page and enter the code ABCD-EFGH" in result.output
    assert "run `pbm mailbox login` again" in result.output
    stored = _stored(tmp_path)
    assert provider.user_of(str(stored["access_token"])) == USER
    assert stored["refresh_token"] in provider.refresh
    assert float(str(stored["expires_at"])) > time.time() + 3000


def test_login_in_the_browser_with_a_loopback_redirect(
    tmp_path: Path, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = _config(tmp_path, provider, device=False)
    opened: list[str] = []

    def browser(url: str) -> bool:
        # The provider's page signs in at once and redirects to pbm's loopback port.
        opened.append(url)
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert b"signed in" in answer.read()
        return True

    monkeypatch.setattr("webbrowser.open", browser)
    result = CliRunner().invoke(app, ["--config", str(cfg), "mailbox", "login"])
    assert result.exit_code == 0, result.output
    assert opened and "code_challenge_method=S256" in opened[0]
    assert "redirect_uri=http%3A%2F%2F127.0.0.1%3A" in opened[0]
    assert provider.user_of(str(_stored(tmp_path)["access_token"])) == USER


def test_a_refused_browser_sign_in_stores_nothing(
    tmp_path: Path, provider: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = _config(tmp_path, provider, device=False)

    def browser(url: str) -> bool:
        # The redirect comes back with a code the provider does not know (replayed, forged).
        from urllib.parse import parse_qs, urlsplit

        query = parse_qs(urlsplit(url).query)
        back = query["redirect_uri"][0] + f"?code=forged&state={query['state'][0]}"
        urllib.request.urlopen(back, timeout=10).close()
        return True

    monkeypatch.setattr("webbrowser.open", browser)
    result = CliRunner().invoke(app, ["--config", str(cfg), "mailbox", "login"])
    assert result.exit_code == 1
    assert "run `pbm mailbox login` again" in result.output
    assert not (tmp_path / "tokens" / "pbm-oauth2.json").exists()


def test_login_without_oauth2_in_the_config(tmp_path: Path) -> None:
    path = tmp_path / "pbm.toml"
    path.write_text('[imap]\nuser = "u"\npassword = "p"\n', encoding="utf-8")
    result = CliRunner().invoke(app, ["--config", str(path), "mailbox", "login"])
    assert result.exit_code == 2
    assert 'auth = "oauth2"' in result.output
