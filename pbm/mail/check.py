"""`pbm mailbox check`: the mailbox as configured, tried step by step, each step with what it
found and, when it fails, the fix.

IMAP: the host's address (DNS), the connection and the server's TLS certificate, the sign-in,
the folder. SMTP: the same up to the sign-in. Then the round trip: a test mail from the
service's address to itself, sent over SMTP and looked for over IMAP, and deleted once found.
A step after a failed one of its server is skipped. Nothing here changes the database; the test
mail is one `pbm serve` would take in as the service's own mail and leave unanswered, should it
read it first.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import ssl
import time
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import make_msgid

import aiosmtplib

from pbm.config.model import ImapSection, OAuth2Section, Settings, SmtpSection

from .imap import ImapError, ImapInbox, SignInRefused
from .oauth2 import NeedsLogin, OAuth2Error, oauth2_section
from .smtp import SmtpSession

#: Seconds the round trip waits for the test mail to arrive.
ROUND_TRIP_SECONDS = 60.0


@dataclass
class Step:
    """One step: "ok", "failed" or "skipped", what was found, and the fix of a failure."""

    name: str
    status: str
    detail: str = ""
    fix: str = ""

    def as_dict(self) -> dict[str, str]:
        return asdict(self)


class _Failed(Exception):
    def __init__(self, detail: str, fix: str) -> None:
        super().__init__(detail)
        self.detail, self.fix = detail, fix


@dataclass
class _Steps:
    steps: list[Step]

    async def run(self, name: str, coro: object) -> bool:
        """Await `coro`: its string is the step's detail; `_Failed` fails it."""
        assert asyncio.iscoroutine(coro)
        try:
            detail = await coro
        except _Failed as exc:
            self.steps.append(Step(name, "failed", exc.detail, exc.fix))
            return False
        self.steps.append(Step(name, "ok", str(detail or "")))
        return True

    def skip(self, *names: str) -> None:
        self.steps += [Step(name, "skipped", "an earlier step failed") for name in names]


def _words(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())[:300]


async def _dns(section: str, host: str, port: int) -> str:
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise _Failed(
            f"{host}: no address ({exc})",
            f"check [{section}] host (a typo? the provider's server name) and the network",
        ) from None
    return f"{host}: " + ", ".join(sorted({str(f[4][0]) for f in found}))


async def _tls(section: str, host: str, port: int, timeout: float) -> str:
    """An implicit-TLS handshake with the system's certificates."""
    try:
        _, writer = await asyncio.wait_for(
            asyncio.open_connection(
                host, port, ssl=ssl.create_default_context(), server_hostname=host
            ),
            timeout,
        )
    except ssl.SSLCertVerificationError as exc:
        raise _Failed(
            f"the certificate of {host} is not valid: {exc.verify_message}",
            f"use the server name the provider gives in [{section}] host; a self-signed"
            " certificate is not accepted",
        ) from None
    except (OSError, TimeoutError) as exc:
        raise _Failed(_connect_words(host, port, exc), _port_fix(section, tls=True)) from None
    cert = writer.get_extra_info("peercert") or {}
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    issuer = dict(x[0] for x in cert.get("issuer", ()) if x)
    return f"valid for {host} (issued by {issuer.get('organizationName', '?')})"


def _connect_words(host: str, port: int, exc: BaseException) -> str:
    return f"no connection to {host}:{port}: {_words(exc)}"


def _port_fix(section: str, tls: bool) -> str:
    if section == "imap":
        return "check [imap] port and tls (993 with tls = true, 143 without) and the firewall"
    return (
        "check [smtp] port, tls and starttls (465 with tls = true, 587 with starttls = true)"
        " and the firewall"
    )


def _sign_in_fix(section: str, auth: str, requirement: str) -> str:
    if auth == "oauth2":
        return (
            f"is [{section}] user the address you signed in with (`pbm mailbox login`)? Is"
            f" {section.upper()} access switched on in the mailbox's settings?"
        )
    if requirement:
        return f"check [{section}] user and password; this provider wants {requirement}"
    return f"check [{section}] user and password (an app password where the provider asks one)"


async def check_imap(
    cfg: ImapSection, oauth2: OAuth2Section | None, steps: _Steps, requirement: str
) -> ImapInbox | None:
    """The IMAP steps; the inbox, signed in with the folder selected, or None."""
    if not await steps.run("imap dns", _dns("imap", cfg.host, cfg.port)):
        steps.skip("imap connection", "imap sign-in", "imap folder")
        return None
    box = ImapInbox(cfg, oauth2)

    async def connection() -> str:
        if cfg.tls:
            detail = await _tls("imap", cfg.host, cfg.port, cfg.timeout)
        else:
            detail = "no TLS (tls = false): the password travels unencrypted"
        try:
            await box.open()
        except (ImapError, OSError, TimeoutError) as exc:
            raise _Failed(
                _connect_words(cfg.host, cfg.port, exc), _port_fix("imap", cfg.tls)
            ) from None
        return detail

    async def sign_in() -> str:
        try:
            await box.sign_in()
        except NeedsLogin as exc:
            raise _Failed(str(exc), "run `pbm mailbox login`") from None
        except OAuth2Error as exc:
            raise _Failed(str(exc), "check [oauth2] token_endpoint and the network") from None
        except SignInRefused as exc:
            raise _Failed(str(exc), _sign_in_fix("imap", cfg.auth, requirement)) from None
        except (ImapError, OSError, TimeoutError) as exc:
            raise _Failed(
                _words(exc), "try again; if it persists, see the server's status"
            ) from None
        return f"{cfg.user} ({cfg.auth})"

    async def folder() -> str:
        try:
            await box.select()
        except (ImapError, OSError, TimeoutError) as exc:
            raise _Failed(
                f"{cfg.folder}: {_words(exc)}",
                '[imap] folder must be a folder of the mailbox ("INBOX" is the inbox)',
            ) from None
        return cfg.folder

    for name, step, rest in (
        ("imap connection", connection, ("imap sign-in", "imap folder")),
        ("imap sign-in", sign_in, ("imap folder",)),
        ("imap folder", folder, ()),
    ):
        if not await steps.run(name, step()):
            steps.skip(*rest)
            await box.close()
            return None
    return box


async def check_smtp(
    cfg: SmtpSection, oauth2: OAuth2Section | None, steps: _Steps, requirement: str
) -> aiosmtplib.SMTP | None:
    """The SMTP steps; the client, signed in, or None."""
    if not await steps.run("smtp dns", _dns("smtp", cfg.host, cfg.port)):
        steps.skip("smtp connection", "smtp sign-in")
        return None
    client = aiosmtplib.SMTP(
        hostname=cfg.host,
        port=cfg.port,
        use_tls=cfg.tls,
        start_tls=cfg.starttls_wanted,
        timeout=cfg.timeout,
    )

    async def connection() -> str:
        try:
            await client.connect()
        except aiosmtplib.SMTPConnectError as exc:
            cause = exc.__cause__
            if isinstance(cause, ssl.SSLCertVerificationError):
                raise _Failed(
                    f"the certificate of {cfg.host} is not valid: {cause.verify_message}",
                    "use the server name the provider gives in [smtp] host",
                ) from None
            raise _Failed(
                _connect_words(cfg.host, cfg.port, exc), _port_fix("smtp", cfg.tls)
            ) from None
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise _Failed(
                _connect_words(cfg.host, cfg.port, exc), _port_fix("smtp", cfg.tls)
            ) from None
        if client.get_transport_info("sslcontext") is not None:
            return "TLS, certificate valid for " + cfg.host
        return "no TLS (tls = false, starttls = false): mail and password travel unencrypted"

    async def sign_in() -> str:
        if cfg.auth != "oauth2" and not cfg.user:
            return "no login ([smtp] user is empty)"
        try:
            await SmtpSession(cfg, oauth2).sign_in(client)
        except NeedsLogin as exc:
            raise _Failed(str(exc), "run `pbm mailbox login`") from None
        except OAuth2Error as exc:
            raise _Failed(str(exc), "check [oauth2] token_endpoint and the network") from None
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise _Failed(_words(exc), _sign_in_fix("smtp", cfg.auth, requirement)) from None
        return f"{cfg.user} ({cfg.auth})"

    for name, step, rest in (
        ("smtp connection", connection, ("smtp sign-in",)),
        ("smtp sign-in", sign_in, ()),
    ):
        if not await steps.run(name, step()):
            steps.skip(*rest)
            client.close()
            return None
    return client


async def _round_trip(
    box: ImapInbox, client: aiosmtplib.SMTP, address: str, folders: list[str], wait: float
) -> str:
    token = secrets.token_hex(8)
    msg = EmailMessage()
    msg["From"] = msg["To"] = address
    msg["Subject"] = f"pbm mailbox check {token}"
    msg["Message-ID"] = make_msgid(domain=address.rpartition("@")[2] or None)
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content("pbm mailbox check: a test mail to the service's own address.\n")
    started = time.monotonic()
    try:
        await client.send_message(msg, sender=address, recipients=[address])
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        raise _Failed(
            f"the SMTP server did not take the test mail: {_words(exc)}",
            f"[smtp] from and [service] address ({address}) must be an address this login may"
            " send from",
        ) from None
    assert box.client is not None
    while time.monotonic() - started < wait:
        for folder in folders:
            try:
                await box._call(box.client.select(folder))
                found = await box._call(box.client.uid_search("SUBJECT", token, charset=None))
            except (ImapError, OSError, TimeoutError):
                continue
            uids = [
                x.decode()
                for line in found.lines[:-1]
                if isinstance(line, (bytes, bytearray))
                for x in bytes(line).split()
                if x.isdigit()
            ]
            if uids:
                with contextlib.suppress(ImapError, OSError, TimeoutError):
                    which = ",".join(uids)
                    await box._call(box.client.uid("store", which, "+FLAGS.SILENT", r"(\Deleted)"))
                    await box._call(box.client.expunge())
                took = time.monotonic() - started
                return f"sent to {address} and found in {folder} after {took:.1f} s (deleted)"
        await asyncio.sleep(1)
    raise _Failed(
        f"the test mail to {address} did not arrive within {wait:.0f} s",
        f"[service] address must be the address of this mailbox ([imap] user {box.cfg.user});"
        " look into the spam folder and the provider's filters",
    )


async def check(
    settings: Settings, requirement: str = "", wait: float = ROUND_TRIP_SECONDS
) -> list[Step]:
    """Every step, in order (see the module's doc), for the mailbox `settings` name: its
    `[imap]`, `[smtp]`, `[oauth2]` and `[service] address`."""
    imap, smtp, address = settings.imap, settings.smtp, settings.service.address
    oauth2 = oauth2_section(settings)
    steps = _Steps([])
    box = await check_imap(imap, oauth2, steps, requirement)
    client = await check_smtp(smtp, oauth2, steps, requirement)
    try:
        if box is None or client is None:
            steps.skip("round trip")
        else:
            folders = [imap.folder] + ([imap.processed_folder] if imap.processed_folder else [])
            await steps.run(
                "round trip", _round_trip(box, client, smtp.from_address or address, folders, wait)
            )
    finally:
        if box is not None:
            await box.close()
        if client is not None:
            with contextlib.suppress(aiosmtplib.SMTPException, OSError, TimeoutError):
                await client.quit()
            client.close()
    return steps.steps
