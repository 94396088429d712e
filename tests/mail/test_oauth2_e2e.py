"""OAuth2 sign-in against real servers on 127.0.0.1: Dovecot with its `oauth2` passdb (IMAP,
XOAUTH2 and OAUTHBEARER) and aiosmtpd with an XOAUTH2/OAUTHBEARER authenticator (SMTP), both
asking a small provider in the test (tests/mail/oauth_provider.py) about each token; the same
provider's token endpoint refreshes them.

The refresh path: an access token the file says has expired is refreshed before it is used; one
the server refuses (expired there) is refreshed and tried once more; a revoked refresh token is
a clear error that names `pbm mailbox login`. And `pbm serve` with a revoked token: it says so,
goes on with the clock, keeps every mail (answers wait as "retry", the inbox mail stays unread)
and, once the GM has signed in again, takes in and sends everything.

The Dovecot tests skip when Dovecot is not installed (`bash .ci/mailservers.sh`), except under
CI, where that is a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import aiosmtplib
import pytest
from aiosmtpd.controller import Controller
from harness import GM, eventually, make_service
from sqlmodel import Session, select

from pbm.config.model import ImapSection, OAuth2Section, SmtpSection
from pbm.devservers import realservers
from pbm.devservers.loopback import free_port
from pbm.mail.imap import ImapInbox, SignInRefused
from pbm.mail.oauth2 import NeedsLogin, TokenSource, store_tokens
from pbm.mail.smtp import SmtpSession
from pbm.service.clock import FakeClock
from pbm.service.games import create_game
from pbm.service.serve import serve
from pbm.store.db import transaction
from pbm.store.models import InboundMail, Outbox

from .oauth_provider import CLIENT_ID, OAuthAuthenticator, Provider, running
from .servers import FlakyHandler

pytestmark = [
    pytest.mark.e2e,
    # aiosmtpd warns of AUTH without TLS: the tests' server is on 127.0.0.1.
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.fixture
def provider() -> Iterator[Provider]:
    with running() as p:
        yield p


def _dovecot(
    tmp_path: Path, provider: Provider, mechanisms: tuple[str, ...] = ("xoauth2", "oauthbearer")
) -> contextlib.AbstractContextManager[realservers.MailServers]:
    reason = realservers.available()
    if reason:
        message = f"Dovecot OAuth2 test: {reason}"
        if _in_ci():
            pytest.fail(message + " (CI must install them: .ci/mailservers.sh)")
        pytest.skip(message + " (`bash .ci/mailservers.sh` installs them)")
    return realservers.start(
        tmp_path,
        {GM: "not-used"},
        oauth2_introspection=provider.url + "/introspect",
        oauth2_mechanisms=mechanisms,
    )


def _oauth2(provider: Provider, tmp_path: Path) -> OAuth2Section:
    return OAuth2Section(
        token_endpoint=provider.url + "/token",
        client_id=CLIENT_ID,
        token_file=str(tmp_path / "tokens.json"),
    )


def _signed_in(provider: Provider, cfg: OAuth2Section, lifetime: float = 3600) -> dict[str, object]:
    """`pbm mailbox login` done: the tokens in the file."""
    token = provider.grant(GM, lifetime)
    store_tokens(Path(cfg.token_file), token)
    return token


def _stored(cfg: OAuth2Section) -> dict[str, object]:
    data: dict[str, object] = json.loads(Path(cfg.token_file).read_text())
    return data


async def _imap_in(port: int, cfg: OAuth2Section) -> None:
    box = ImapInbox(ImapSection(port=port, user=GM, auth="oauth2", idle=False, timeout=10), cfg)
    try:
        await box.connect()
        assert await box.unseen() == []
    finally:
        await box.close()


@pytest.mark.timeout(60)
def test_imap_signs_in_with_a_token_and_refreshes_it(tmp_path: Path, provider: Provider) -> None:
    cfg = _oauth2(provider, tmp_path)
    with _dovecot(tmp_path, provider) as servers:
        first = _signed_in(provider, cfg)
        asyncio.run(_imap_in(servers.imap_port, cfg))
        assert provider.refreshes == 0
        assert (Path(cfg.token_file).stat().st_mode & 0o777) == 0o600

        # The file says the token has expired: refreshed before it is used.
        store_tokens(Path(cfg.token_file), {**first, "expires_at": int(time.time()) - 10})
        asyncio.run(_imap_in(servers.imap_port, cfg))
        assert provider.refreshes == 1
        second = _stored(cfg)
        assert second["access_token"] != first["access_token"]
        assert second["refresh_token"] == first["refresh_token"]

        # The server refuses a token the file still thinks alive: refreshed, signed in.
        provider.expire_all()
        before = provider.introspections
        asyncio.run(_imap_in(servers.imap_port, cfg))
        assert provider.refreshes == 2
        assert provider.introspections == before + 2

        # The refresh token is revoked: a clear error, naming the way out.
        provider.revoke_all()
        with pytest.raises(NeedsLogin, match="pbm mailbox login"):
            asyncio.run(_imap_in(servers.imap_port, cfg))
        # And no token file at all says the same.
        Path(cfg.token_file).unlink()
        with pytest.raises(NeedsLogin, match="pbm mailbox login"):
            asyncio.run(_imap_in(servers.imap_port, cfg))


@pytest.mark.timeout(60)
def test_imap_oauthbearer_where_the_server_offers_only_it(
    tmp_path: Path, provider: Provider
) -> None:
    cfg = _oauth2(provider, tmp_path)
    with _dovecot(tmp_path, provider, ("oauthbearer",)) as servers:
        _signed_in(provider, cfg)
        asyncio.run(_imap_in(servers.imap_port, cfg))
        log = (servers.work / "dovecot.log").read_text() if servers.work.exists() else ""
        assert "method=OAUTHBEARER" in log or not log
        # A token for another user is refused, also after a refresh.
        store_tokens(Path(cfg.token_file), provider.grant("someone@pbm.test"))
        with pytest.raises(SignInRefused, match=r"OAuth2 sign-in of gm@pbm\.test"):
            asyncio.run(_imap_in(servers.imap_port, cfg))


# -- SMTP (aiosmtpd) ------------------------------------------------------------------------------


@dataclass
class OAuthSmtp(OAuthAuthenticator, FlakyHandler):
    provider: Provider = field(default_factory=Provider)


@contextlib.contextmanager
def oauth_smtp(provider: Provider, only: str = "") -> Iterator[tuple[int, OAuthSmtp]]:
    """aiosmtpd taking only OAuth2 tokens (XOAUTH2 and OAUTHBEARER; `only`: just that one)."""
    handler = OAuthSmtp(provider=provider)
    excluded = ["PLAIN", "LOGIN"] + (
        [m for m in ("XOAUTH2", "OAUTHBEARER") if m != only] if only else []
    )
    port = free_port()
    controller = Controller(
        handler,
        hostname="127.0.0.1",
        port=port,
        auth_require_tls=False,
        auth_required=True,
        auth_exclude_mechanism=excluded,
    )
    controller.start()
    try:
        yield port, handler
    finally:
        controller.stop()


def _mail(n: int) -> EmailMessage:
    m = EmailMessage()
    m["From"] = GM
    m["To"] = "p@players.test"
    m["Subject"] = f"mail {n}"
    m["Message-ID"] = f"<oauth-{n}@pbm.test>"
    m.set_content("hello")
    return m


async def _send(port: int, cfg: OAuth2Section, n: int) -> tuple[str, str, bool]:
    session = SmtpSession(SmtpSection(port=port, user=GM, auth="oauth2", timeout=10), cfg)
    try:
        d = await session.deliver(_mail(n), GM, ["p@players.test"])
    finally:
        await session.close()
    return d.outcome, d.error, d.connection


@pytest.mark.timeout(60)
@pytest.mark.parametrize("mechanism", ["XOAUTH2", "OAUTHBEARER"])
def test_smtp_signs_in_with_a_token_and_refreshes_it(
    tmp_path: Path, provider: Provider, mechanism: str
) -> None:
    cfg = _oauth2(provider, tmp_path)
    with oauth_smtp(provider, mechanism) as (port, handler):
        _signed_in(provider, cfg)
        assert asyncio.run(_send(port, cfg, 1))[0] == "sent"
        provider.expire_all()  # refused by the server: refreshed, sent
        assert asyncio.run(_send(port, cfg, 2))[0] == "sent"
        assert provider.refreshes == 1
        provider.revoke_all()
        outcome, error, connection = asyncio.run(_send(port, cfg, 3))
        # Never "failed": the mail waits for the GM to sign in again.
        assert (outcome, connection) == ("retry", True)
        assert "pbm mailbox login" in error
        assert [a.message["Subject"] for a in handler.accepted] == ["mail 1", "mail 2"]


def test_the_refresh_is_shared_and_keeps_a_rotated_refresh_token(
    tmp_path: Path, provider: Provider
) -> None:
    """Microsoft rotates refresh tokens: the new one is stored, the old one is dead."""
    provider.rotate = True
    cfg = _oauth2(provider, tmp_path)
    first = _signed_in(provider, cfg, lifetime=1)
    source = TokenSource(cfg)
    token = source.access_token()  # expires within the margin: refreshed
    stored = _stored(cfg)
    assert token == stored["access_token"] != first["access_token"]
    assert stored["refresh_token"] != first["refresh_token"]
    # A second caller refusing the old token gets the new one without a second refresh.
    assert source.access_token(refused=str(first["access_token"])) == token
    assert provider.refreshes == 1


# -- pbm serve with a revoked token ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_serve_with_a_revoked_token_goes_on_and_loses_no_mail(
    tmp_path: Path, provider: Provider, caplog: pytest.LogCaptureFixture
) -> None:
    cfg = _oauth2(provider, tmp_path)
    with _dovecot(tmp_path, provider) as servers, oauth_smtp(provider) as (smtp_port, handler):
        asyncio.run(_serve_revoked(tmp_path, cfg, provider, servers, smtp_port, handler, caplog))


def _join(n: int) -> bytes:
    return (
        f"From: Spieler {n} <p{n}@players.test>\r\nTo: {GM}\r\nSubject: Anmeldung\r\n"
        f"Message-ID: <join-{n}@players.test>\r\nMIME-Version: 1.0\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n\r\n"
        f"Spiel: alpha\r\nName: Spieler {n}\r\nFarben: rot\r\n"
    ).encode()


async def _serve_revoked(
    tmp_path: Path,
    cfg: OAuth2Section,
    provider: Provider,
    servers: realservers.MailServers,
    smtp_port: int,
    handler: OAuthSmtp,
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    with transaction(svc.engine) as s:
        create_game(svc, s, "alpha", players=6, seed=7)
    # One join waits in the mailbox (delivered through OpenSMTPD), one was fed by hand
    # (`pbm mail ingest`): its answer waits in the outbox.
    await aiosmtplib.send(
        _join(1), sender="p1@players.test", recipients=[GM], port=servers.smtp_port
    )
    from pbm.service.serve import take_in

    take_in(svc, _join(2))
    # The GM signed in once; the provider has since revoked the tokens.
    _signed_in(provider, cfg)
    provider.revoke_all()
    svc.config = svc.config.updated(
        imap={
            "port": servers.imap_port,
            "user": GM,
            "auth": "oauth2",
            "timeout": 10,
        },
        smtp={
            "port": smtp_port,
            "user": GM,
            "auth": "oauth2",
            "from": GM,
            "timeout": 10,
        },
        service={"poll_seconds": 1, "tick_seconds": 0.2, "send_seconds": 0.2},
        oauth2=cfg.model_dump(),
    )
    stop = asyncio.Event()
    caplog.set_level(logging.INFO, logger="pbm")
    task = asyncio.create_task(serve(svc, stop))
    try:
        await eventually(
            lambda: "run `pbm mailbox login`" in caplog.text, 20, "the error naming the login"
        )
        await eventually(
            lambda: caplog.text.count("the mailbox is tried again") >= 3, 20, "the backoff"
        )
        waits = [
            r.getMessage().rsplit(" in ", 1)[1]
            for r in caplog.records
            if "the mailbox is tried again" in r.getMessage()
        ]
        assert waits[:3] == ["1 s", "2 s", "4 s"]
        assert not task.done()
        with Session(svc.engine) as s:
            rows = s.exec(select(Outbox)).all()
            # The answer waits to be sent again: never given up.
            assert rows and all(r.status in ("pending", "retry") for r in rows), rows
            assert all(r.attempts >= 1 for r in rows)
            assert len(s.exec(select(InboundMail)).all()) == 1
        assert handler.accepted == []

        # The GM signs in again (`pbm mailbox login`); the retries come due.
        _signed_in(provider, cfg)
        clock.advance(hours=1)
        await eventually(lambda: len(handler.accepted) == 2, 60, "both answers sent")
        with Session(svc.engine) as s:
            assert len(s.exec(select(InboundMail)).all()) == 2
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
    assert sorted(str(a.rcpt_tos) for a in handler.accepted) == [
        "['p1@players.test']",
        "['p2@players.test']",
    ]
