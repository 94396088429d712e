"""SMTP delivery with aiosmtplib (the `transport.Sender` of `pbm serve` and `pbm poll`), and what
a failure means.

`SmtpSession` keeps one connection for a batch (a pass of the outbox), so a round's dozen
reports do not each pay for a connection, a greeting and a login; after any error it drops the
connection and the next message opens a new one. It does not raise for a message's fault:
whatever goes wrong comes back as a `Delivery`.
"""

from __future__ import annotations

import contextlib
import logging
from email.message import EmailMessage
from typing import TYPE_CHECKING

import aiosmtplib

from .oauth2 import NeedsLogin, TokenSource, oauthbearer, xoauth2
from .transport import Delivery, TransportError

log = logging.getLogger("pbm")

if TYPE_CHECKING:
    from pbm.config.model import OAuth2Section, SmtpSection


class SmtpSignInError(TransportError):
    """The server refused the OAuth2 sign-in (a fresh token too), or no token could be had:
    the account's trouble, not a message's; every message waits and is tried again."""


def classify(exc: BaseException) -> tuple[bool, str]:
    """(permanent?, message): 5xx answers are permanent; 4xx and connection trouble are not."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in exc.recipients]
        return bool(codes) and all(500 <= c < 600 for c in codes), str(exc)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return 500 <= exc.code < 600, f"{exc.code} {exc.message}"
    if isinstance(exc, ValueError):
        # aiosmtplib refuses a malformed address or message before talking: no retry helps.
        return True, f"not sendable: {exc}"
    return False, f"{type(exc).__name__}: {exc}"


def _outcome(refused: dict[str, aiosmtplib.SMTPResponse]) -> Delivery:
    if refused:
        # aiosmtplib raises only when every recipient is refused; the others come back here.
        return Delivery(
            "partial",
            "; ".join(f"{a}: {r.code} {r.message}" for a, r in refused.items()),
            {a: (r.code, r.message) for a, r in refused.items()},
        )
    return Delivery("sent")


def _failure(exc: BaseException) -> Delivery:
    if isinstance(exc, TransportError):
        # The sign-in failed (a revoked OAuth2 token): no message's fault, none is given up.
        return Delivery("retry", str(exc), connection=True)
    if not isinstance(exc, _ERRORS):
        # Not an SMTP or network error: the message itself could not be sent (a header the
        # flattener chokes on, say). No retry makes it sendable.
        return Delivery("failed", f"not sendable: {type(exc).__name__}: {exc}")
    permanent, error = classify(exc)
    answered = isinstance(
        exc, (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused, ValueError)
    )
    return Delivery("failed" if permanent else "retry", error, connection=not answered)


_ERRORS = (TimeoutError, aiosmtplib.SMTPException, OSError, ValueError, TransportError)


class SmtpSession:
    """Messages over one connection, opened on first use and again after any error."""

    def __init__(self, cfg: SmtpSection, oauth2: OAuth2Section | None = None) -> None:
        """`cfg`: pbm.toml's `[smtp]`; `oauth2`: its `[oauth2]`, for `auth = "oauth2"`."""
        self.cfg = cfg
        self.oauth2 = oauth2
        self._client: aiosmtplib.SMTP | None = None
        #: Connections opened (for tests and benchmarks).
        self.connections = 0

    @property
    def from_address(self) -> str:
        return self.cfg.from_address

    async def deliver(self, msg: EmailMessage, sender: str, recipients: list[str]) -> Delivery:
        for _ in range(2):
            fresh = self._client is None or not self._client.is_connected
            try:
                client = await self._connected()
                refused, _ = await client.send_message(msg, sender=sender, recipients=recipients)
            except Exception as exc:  # a message's fault must not stop the pass
                # The connection's state is unknown after an error: the next message starts
                # anew. A temporary refusal on a connection that has carried mail may be the
                # server's limit per connection (OpenSMTPD: 100): once more on a new one.
                self._drop()
                failure = _failure(exc)
                if failure.outcome == "retry" and not fresh:
                    continue
                return failure
            return _outcome(refused)
        return failure

    async def _connected(self) -> aiosmtplib.SMTP:
        if self._client is None or not self._client.is_connected:
            cfg = self.cfg
            password = cfg.auth != "oauth2"
            client = aiosmtplib.SMTP(
                hostname=cfg.host,
                port=cfg.port,
                username=(cfg.user or None) if password else None,
                password=(cfg.password or None) if password else None,
                use_tls=cfg.tls,
                start_tls=cfg.starttls_wanted,
                timeout=cfg.timeout,
            )
            await client.connect()
            if not password:
                try:
                    await self._oauth2_sign_in(client)
                except BaseException:
                    client.close()
                    raise
            self._client = client
            self.connections += 1
        return self._client

    async def sign_in(self, client: aiosmtplib.SMTP) -> None:
        """Sign in on a client opened without credentials (`pbm mailbox check`): with the
        password, the OAuth2 token, or not at all when no user is set."""
        if self.cfg.auth == "oauth2":
            await self._oauth2_sign_in(client)
        elif self.cfg.user:
            await client.login(self.cfg.user, self.cfg.password)

    async def _oauth2_sign_in(self, client: aiosmtplib.SMTP) -> None:
        """Sign in with the stored access token (refreshed first when it is about to expire);
        when the server refuses it, once more with a freshly refreshed one."""
        assert self.oauth2 is not None, "auth = oauth2 without an [oauth2] section"
        source = TokenSource(self.oauth2)
        try:
            token = await source.token()
        except NeedsLogin as exc:
            log.error("smtp: %s", exc)
            raise
        said = await self._authenticate(client, token)
        if said is None:
            return
        token = await source.token(refused=token)
        said = await self._authenticate(client, token)
        if said is not None:
            raise SmtpSignInError(
                f"the SMTP server refused the OAuth2 sign-in of {self.cfg.user}: {said}"
            )

    async def _authenticate(self, client: aiosmtplib.SMTP, token: str) -> str | None:
        """AUTH with the token: None when signed in, else the server's words. XOAUTH2 unless
        the server offers only OAUTHBEARER (RFC 7628); an error challenge (334) is answered
        with an empty line, as both mechanisms want."""
        if client.is_ehlo_or_helo_needed:
            await client.ehlo()
        offered = client.server_auth_methods
        if "oauthbearer" in offered and "xoauth2" not in offered:
            mechanism = b"OAUTHBEARER"
            response = oauthbearer(self.cfg.user, token, self.cfg.host, self.cfg.port)
        else:
            mechanism, response = b"XOAUTH2", xoauth2(self.cfg.user, token)
        answer = await client.execute_command(b"AUTH", mechanism, response.encode("ascii"))
        if answer.code == 334:
            answer = await client.execute_command(b"")
        if answer.code == 235:
            return None
        return f"{answer.code} {answer.message}"

    def _drop(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    async def close(self) -> None:
        if self._client is not None and self._client.is_connected:
            with contextlib.suppress(*_ERRORS):
                await self._client.quit()
        self._drop()
