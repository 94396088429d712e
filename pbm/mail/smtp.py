"""SMTP delivery with aiosmtplib: one message, one `send()`, and what a failure means."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib


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


def classify(exc: BaseException) -> tuple[bool, str]:
    """(permanent?, message): 5xx answers are permanent; 4xx and connection trouble are not."""
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused):
        codes = [r.code for r in exc.recipients]
        return bool(codes) and all(500 <= c < 600 for c in codes), str(exc)
    if isinstance(exc, aiosmtplib.SMTPResponseException):
        return 500 <= exc.code < 600, f"{exc.code} {exc.message}"
    return False, f"{type(exc).__name__}: {exc}"


@dataclass
class Delivery:
    """What became of one message: "sent" (to everyone), "retry" or "failed" (for everyone),
    or "partial": some recipients were refused (`refused`: address → (code, message))."""

    outcome: str
    error: str = ""
    refused: dict[str, tuple[int, str]] | None = None


async def deliver(msg: EmailMessage, sender: str, recipients: list[str],
                  cfg: SmtpConfig) -> Delivery:
    try:
        refused, _ = await aiosmtplib.send(
            msg, sender=sender, recipients=recipients, hostname=cfg.host, port=cfg.port,
            username=cfg.user or None, password=cfg.password or None, use_tls=cfg.tls,
            start_tls=cfg.starttls, timeout=cfg.timeout, validate_certs=cfg.validate_certs,
        )
    except (TimeoutError, aiosmtplib.SMTPException, OSError) as exc:
        permanent, error = classify(exc)
        return Delivery("failed" if permanent else "retry", error)
    if refused:
        # aiosmtplib raises only when every recipient is refused; the others come back here.
        return Delivery("partial", "; ".join(f"{a}: {r.code} {r.message}"
                                             for a, r in refused.items()),
                        {a: (r.code, r.message) for a, r in refused.items()})
    return Delivery("sent")
