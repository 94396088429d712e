"""SMTP delivery with aiosmtplib (the `transport.Sender` of `pbm serve` and `pbm poll`), and what
a failure means.

`SmtpSession` keeps one connection for a batch (a pass of the outbox), so a round's dozen
reports do not each pay for a connection, a greeting and a login; after any error it drops the
connection and the next message opens a new one. It does not raise for a message's fault:
whatever goes wrong comes back as a `Delivery`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from email.message import EmailMessage
from typing import TYPE_CHECKING

import aiosmtplib

from .transport import Delivery

if TYPE_CHECKING:
    from pbm.config.model import SmtpSection


@dataclass
class SmtpConfig:
    host: str = "127.0.0.1"
    port: int = 25
    user: str = ""
    password: str = ""
    #: Implicit TLS (usually port 465).
    tls: bool = False
    #: STARTTLS after connecting: True requires it, False never, None when offered.
    starttls: bool | None = False
    #: The envelope and From address (default: the service's address).
    from_address: str = ""
    timeout: float = 30.0
    validate_certs: bool = True

    @classmethod
    def from_section(cls, smtp: SmtpSection) -> SmtpConfig:
        """pbm.toml's `[smtp]`; what the file does not set (the timeout, the certificate
        check) keeps its default."""
        from pbm.config.model import split_from

        return cls(
            host=smtp.host,
            port=smtp.port,
            user=smtp.user,
            password=smtp.password,
            tls=smtp.tls,
            starttls=None if smtp.starttls == "auto" else smtp.starttls,
            from_address=split_from(smtp.from_)[1],
        )


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
    if not isinstance(exc, _ERRORS):
        # Not an SMTP or network error: the message itself could not be sent (a header the
        # flattener chokes on, say). No retry makes it sendable.
        return Delivery("failed", f"not sendable: {type(exc).__name__}: {exc}")
    permanent, error = classify(exc)
    answered = isinstance(
        exc, (aiosmtplib.SMTPResponseException, aiosmtplib.SMTPRecipientsRefused, ValueError)
    )
    return Delivery("failed" if permanent else "retry", error, connection=not answered)


_ERRORS = (TimeoutError, aiosmtplib.SMTPException, OSError, ValueError)


class SmtpSession:
    """Messages over one connection, opened on first use and again after any error."""

    def __init__(self, cfg: SmtpConfig) -> None:
        self.cfg = cfg
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
            client = aiosmtplib.SMTP(
                hostname=cfg.host,
                port=cfg.port,
                username=cfg.user or None,
                password=cfg.password or None,
                use_tls=cfg.tls,
                start_tls=cfg.starttls,
                timeout=cfg.timeout,
                validate_certs=cfg.validate_certs,
            )
            await client.connect()
            self._client = client
            self.connections += 1
        return self._client

    def _drop(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    async def close(self) -> None:
        if self._client is not None and self._client.is_connected:
            with contextlib.suppress(*_ERRORS):
                await self._client.quit()
        self._drop()
