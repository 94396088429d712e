"""`pbm mailbox check`: every step against real servers on 127.0.0.1 (Dovecot and OpenSMTPD,
with passwords and with OAuth2), and the failures a GM meets, each with its fix: a host that has
no address, a certificate that is not valid, a wrong password, a revoked token.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import socket
import ssl
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbm.cli import app
from pbm.devservers import realservers
from pbm.mail.oauth2 import store_tokens

from .oauth_provider import CLIENT_ID, running

GM = "gm@pbm.test"


def _check(tmp_path: Path, text: str, *args: str) -> tuple[int, str]:
    path = tmp_path / "pbm.toml"
    path.write_text(f'[service]\naddress = "{GM}"\n' + text, encoding="utf-8")
    result = CliRunner().invoke(app, ["--config", str(path), "mailbox", "check", *args])
    return result.exit_code, result.output


def _steps(output: str) -> dict[str, dict[str, str]]:
    data = json.loads(output)
    return {s["name"]: s for s in data["steps"]}


def _servers(tmp_path: Path, introspection: str = "") -> realservers.MailServers:
    reason = realservers.available()
    if reason:
        pytest.skip(f"Dovecot/OpenSMTPD: {reason} (`bash .ci/mailservers.sh` installs them)")
    return realservers.start(tmp_path, {GM: "gm-secret"}, oauth2_introspection=introspection)


@pytest.mark.e2e
@pytest.mark.timeout(90)
def test_every_step_passes_with_passwords_and_a_wrong_one_says_the_fix(tmp_path: Path) -> None:
    with _servers(tmp_path) as s:
        imap = f'[imap]\nport = {s.imap_port}\nuser = "{GM}"\n'
        smtp = f"[smtp]\nport = {s.smtp_port}\n"
        code, out = _check(tmp_path, imap + 'password = "gm-secret"\n' + smtp, "--json")
        assert code == 0, out
        steps = _steps(out)
        assert list(steps) == [
            "imap dns",
            "imap connection",
            "imap sign-in",
            "imap folder",
            "smtp dns",
            "smtp connection",
            "smtp sign-in",
            "round trip",
        ]
        assert all(step["status"] == "ok" for step in steps.values()), out
        assert "found in INBOX" in steps["round trip"]["detail"]
        assert "no login" in steps["smtp sign-in"]["detail"]

        code, out = _check(tmp_path, imap + 'password = "wrong"\n' + smtp)
        assert code == 1
        assert "failed   imap sign-in" in out
        assert "fix: check [imap] user and password" in out
        assert "skipped  round trip" in out


@pytest.mark.e2e
@pytest.mark.timeout(90)
def test_the_round_trip_with_oauth2_and_a_revoked_token(tmp_path: Path) -> None:
    with running() as provider, _servers(tmp_path, provider.url + "/introspect") as s:
        tokens = tmp_path / "tokens.json"
        store_tokens(tokens, provider.grant(GM))
        text = (
            f'[imap]\nauth = "oauth2"\nport = {s.imap_port}\nuser = "{GM}"\n'
            f"[smtp]\nport = {s.smtp_port}\n"
            f'[oauth2]\nclient_id = "{CLIENT_ID}"\ntoken_endpoint = "{provider.url}/token"\n'
            f'token_file = "{tokens}"\n'
        )
        code, out = _check(tmp_path, text, "--json")
        assert code == 0, out
        assert _steps(out)["imap sign-in"]["detail"] == f"{GM} (oauth2)"
        provider.revoke_all()
        code, out = _check(tmp_path, text, "--json")
        assert code == 1
        step = _steps(out)["imap sign-in"]
        assert step["status"] == "failed" and step["fix"] == "run `pbm mailbox login`"


def test_a_host_without_an_address(tmp_path: Path) -> None:
    code, out = _check(
        tmp_path, '[imap]\nhost = "no-such-host.invalid"\n[smtp]\nhost = "nor-this.invalid"\n'
    )
    assert code == 1
    assert "failed   imap dns" in out and "failed   smtp dns" in out
    assert "fix: check [imap] host" in out
    assert "skipped  imap sign-in" in out


def _self_signed(tmp_path: Path) -> ssl.SSLContext:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "mail.example.test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    (tmp_path / "cert.pem").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (tmp_path / "key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(tmp_path / "cert.pem", tmp_path / "key.pem")
    return ctx


@pytest.fixture
def tls_server(tmp_path: Path) -> Iterator[int]:
    """A TLS server on 127.0.0.1 with a self-signed certificate for another name."""
    ctx = _self_signed(tmp_path)
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # closed: the test is over
            with contextlib.suppress(OSError), ctx.wrap_socket(conn, server_side=True) as tls:
                tls.sendall(b"* OK ready\r\n")

    threading.Thread(target=serve, daemon=True).start()
    yield listener.getsockname()[1]
    listener.close()


def test_a_certificate_that_is_not_valid(tmp_path: Path, tls_server: int) -> None:
    code, out = _check(
        tmp_path,
        f'[imap]\nhost = "127.0.0.1"\nport = {tls_server}\ntls = true\n'
        '[smtp]\nhost = "no-such-host.invalid"\n',
        "--json",
    )
    assert code == 1
    step = _steps(out)["imap connection"]
    assert step["status"] == "failed"
    assert "certificate of 127.0.0.1 is not valid" in step["detail"]
    assert "[imap] host" in step["fix"]
