"""The IMAP side of the inbox (aioimaplib), the `transport.Inbox` of `pbm serve` and `pbm poll`:
unseen messages by UID, marked seen (and moved to a processed folder when the server can MOVE)
only after the service has stored them.

Every network wait is wrapped in a timeout: aioimaplib's `idle_start` and `wait_server_push`
can hang when the server says BYE, so the poller never waits on them unguarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import ssl
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import aioimaplib

from .inbound import head_sender
from .oauth2 import TokenSource, oauthbearer, xoauth2
from .transport import Head, TransportError

if TYPE_CHECKING:
    from pbm.config.model import ImapSection, OAuth2Section

#: IDLE is re-issued at least this often (RFC 2177 asks for less than 30 minutes).
IDLE_MAX_SECONDS = 29 * 60
#: Bytes of mail one FETCH command may bring (`fetch_many`): a mail larger than this is
#: fetched alone.
FETCH_BYTES = 8 * 1024 * 1024

#: A FETCH response's first line (`12 FETCH (UID 34 BODY[] {567}`), and its UID wherever the
#: server puts it (before the literal, as Dovecot does, or after it, as pymap does).
_FETCH_LINE = re.compile(rb"^\d+ FETCH \(", re.IGNORECASE)
_UID = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_SIZE = re.compile(rb"\bRFC822\.SIZE (\d+)", re.IGNORECASE)
#: `INTERNALDATE "06-Dec-2026 03:45:54 +0000"` (RFC 3501 date-time; the day may be blank-padded).
_DATE = re.compile(
    rb'\bINTERNALDATE "\s?(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)"',
    re.IGNORECASE,
)
_MONTHS = {
    m: i
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
#: UIDs asked about in one FETCH of heads (`ImapInbox.heads`). aioimaplib parses a response
#: that arrived in one read by recursing once per line (two a head: the line and the end of
#: its literal), so 500 heads at once went past Python's recursion limit (1,000) and the
#: FETCH never finished; 100 stays far below it.
HEADS_AT_ONCE = 100


def internal_date(line: bytes) -> datetime | None:
    """The INTERNALDATE of a FETCH response line, in UTC (None when it has none)."""
    m = _DATE.search(line)
    if m is None:
        return None
    day, month, year, hh, mm, ss, sign, oh, om = (g.decode() for g in m.groups())
    if month.lower() not in _MONTHS:
        return None
    offset = timedelta(hours=int(oh), minutes=int(om)) * (-1 if sign == "-" else 1)
    try:
        local = datetime(int(year), _MONTHS[month.lower()], int(day), int(hh), int(mm), int(ss))
    except ValueError:
        return None
    return (local - offset).replace(tzinfo=UTC)


@dataclass
class _Fetched:
    """One message of a FETCH response: its response lines' text and its literal."""

    text: bytes = b""
    literal: bytes | None = None


def _messages(lines: list[Any]) -> dict[str, _Fetched]:
    """The messages of a UID FETCH response by UID: each `n FETCH (` line begins one, its UID
    stands in any of its lines (before the literal, as Dovecot puts it, or after it, as pymap
    does), and the literal (a bytearray in aioimaplib's lines) is the body or header asked."""
    out: dict[str, _Fetched] = {}
    current: _Fetched | None = None
    uid: str | None = None

    def keep() -> None:
        if uid is not None and current is not None:
            out[uid] = current

    for line in lines:
        if isinstance(line, bytearray):
            if current is not None:
                current.literal = bytes(line)
            continue
        text = bytes(line)
        if _FETCH_LINE.match(text):
            keep()
            current, uid = _Fetched(), None
        if current is None:
            continue
        current.text += text + b" "
        found = _UID.search(text)
        if found and uid is None:
            uid = found.group(1).decode()
    keep()
    return out


class ImapError(TransportError):
    pass


class SignInRefused(ImapError):
    """The server refused the sign-in (a fresh OAuth2 token too)."""


class _Authenticate(aioimaplib.Command):
    """AUTHENTICATE with an initial response (SASL-IR). A server that refuses an OAuth2 token
    first sends its error as a challenge and waits for an empty answer (RFC 7628 §3.2.3),
    which aioimaplib would never send: this command sends it, and the server then says NO."""

    def __init__(self, tag: str, mechanism: str, response: str, write: Callable[[bytes], object]):
        super().__init__("AUTHENTICATE", tag, mechanism, response)
        self._write = write
        self._answered = False

    def append_to_resp(self, line: bytes, result: str = "Pending") -> None:
        super().append_to_resp(line, result)
        if result == "Pending" and bytes(line).startswith(b"+") and not self._answered:
            self._answered = True
            self._write(b"\r\n")


_P = ParamSpec("_P")
_T = TypeVar("_T")


def _imap_errors(
    method: Callable[_P, Coroutine[Any, Any, _T]],
) -> Callable[_P, Coroutine[Any, Any, _T]]:
    """aioimaplib's own exceptions (a command timed out, the server aborted) as `ImapError`,
    so the caller needs to know only the transport's errors."""

    @functools.wraps(method)
    async def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return await method(*args, **kwargs)
        except aioimaplib.AioImapException as exc:
            raise ImapError(f"{type(exc).__name__}: {exc}") from exc

    return wrapper


class ImapInbox:
    """One connection to the inbox. After any error, make a new one (a new client object)."""

    def __init__(self, cfg: ImapSection, oauth2: OAuth2Section | None = None) -> None:
        """`cfg`: pbm.toml's `[imap]`; `oauth2`: its `[oauth2]`, for `auth = "oauth2"`."""
        self.cfg = cfg
        self.oauth2 = oauth2
        self.client: aioimaplib.IMAP4 | None = None
        self._lost = asyncio.Event()

    async def _call(self, coro: object) -> aioimaplib.Response:
        assert asyncio.iscoroutine(coro)
        response: aioimaplib.Response = await asyncio.wait_for(coro, self.cfg.timeout)
        if response.result != "OK":
            raise ImapError(f"{response.result}: {response.lines!r}"[:500])
        return response

    @property
    def where(self) -> str:
        return f"{self.cfg.host}:{self.cfg.port}"

    @_imap_errors
    async def connect(self) -> None:
        await self.open()
        await self.sign_in()
        await self.select()

    @_imap_errors
    async def open(self) -> None:
        """The connection and the server's greeting (`connect`'s first step)."""
        # One class for both: IMAP4_SSL does not pass on the connection-lost callback, which
        # is what ends an IDLE on a dead connection at once.
        self.client = aioimaplib.IMAP4(
            host=self.cfg.host,
            port=self.cfg.port,
            timeout=self.cfg.timeout,
            conn_lost_cb=lambda _exc: self._lost.set(),
            ssl_context=ssl.create_default_context() if self.cfg.tls else None,
        )
        await asyncio.wait_for(self.client.wait_hello_from_server(), self.cfg.timeout)

    @_imap_errors
    async def sign_in(self) -> None:
        """LOGIN, or AUTHENTICATE with an OAuth2 token (`connect`'s second step)."""
        assert self.client is not None
        if self.cfg.auth == "oauth2":
            await self._oauth2_sign_in()
            return
        try:
            await self._call(self.client.login(self.cfg.user, self.cfg.password))
        except ImapError as exc:
            raise SignInRefused(
                f"the IMAP server refused the login of {self.cfg.user}: {exc}"
            ) from exc

    @_imap_errors
    async def select(self) -> None:
        """The folder read (`connect`'s last step)."""
        assert self.client is not None
        await self._call(self.client.select(self.cfg.folder))
        if self.cfg.processed_folder and self.can_move:
            with contextlib.suppress(ImapError):  # it may exist already
                await self._call(self.client.create(self.cfg.processed_folder))

    async def _oauth2_sign_in(self) -> None:
        """Sign in with the stored access token (refreshed first when it is about to expire);
        when the server refuses it, once more with a freshly refreshed one."""
        assert self.oauth2 is not None, "auth = oauth2 without an [oauth2] section"
        source = TokenSource(self.oauth2)
        token = await source.token()
        said = await self._authenticate(token)
        if said is None:
            return
        token = await source.token(refused=token)
        said = await self._authenticate(token)
        if said is not None:
            raise SignInRefused(
                f"the IMAP server refused the OAuth2 sign-in of {self.cfg.user}: {said}"
            )

    async def _authenticate(self, token: str) -> str | None:
        """AUTHENTICATE with the token: None when signed in, else the server's words.
        XOAUTH2 (Google, Microsoft) unless the server offers only OAUTHBEARER (RFC 7628)."""
        client = self.client
        assert client is not None
        protocol = client.protocol
        if client.has_capability("AUTH=OAUTHBEARER") and not client.has_capability("AUTH=XOAUTH2"):
            mechanism = "OAUTHBEARER"
            response = oauthbearer(self.cfg.user, token, self.cfg.host, self.cfg.port)
        else:
            mechanism, response = "XOAUTH2", xoauth2(self.cfg.user, token)
        command = _Authenticate(protocol.new_tag(), mechanism, response, protocol.transport.write)
        async with protocol.state_condition:
            answer = await asyncio.wait_for(
                protocol.execute(command, scrub=response), self.cfg.timeout
            )
            if answer.result == "OK":
                protocol.state = "AUTH"
                # The capabilities may grow once signed in (Dovecot's OK names them).
                await protocol.capability()
            protocol.state_condition.notify_all()
        if answer.result == "OK":
            return None
        return " ".join(
            bytes(line).decode(errors="replace")
            for line in answer.lines
            if not bytes(line).startswith(b"+")
        )[:300]

    @property
    def can_move(self) -> bool:
        return self.client is not None and self.client.has_capability("MOVE")

    @property
    def can_idle(self) -> bool:
        return self.cfg.idle and self.client is not None and self.client.has_capability("IDLE")

    @_imap_errors
    async def unseen(self) -> list[str]:
        assert self.client is not None
        response = await self._call(self.client.uid_search("UNSEEN"))
        uids: list[str] = []
        for line in response.lines[:-1]:
            if isinstance(line, (bytes, bytearray)):
                uids.extend(x.decode() for x in bytes(line).split() if x.isdigit())
        return sorted(uids, key=int)

    @_imap_errors
    async def fetch(self, uid: str) -> bytes | None:
        """The raw message (BODY.PEEK[] leaves it unseen until `done`)."""
        assert self.client is not None
        response = await self._call(self.client.uid("fetch", uid, "(BODY.PEEK[])"))
        for i, line in enumerate(response.lines):
            if isinstance(line, bytearray) and i > 0:
                return bytes(line)
        return None

    @_imap_errors
    async def heads(self, uids: list[str]) -> dict[str, Head]:
        """Size, INTERNALDATE and From (Reply-To) of the UIDs, `HEADS_AT_ONCE` per FETCH."""
        assert self.client is not None
        out: dict[str, Head] = {}
        for start in range(0, len(uids), HEADS_AT_ONCE):
            which = ",".join(uids[start : start + HEADS_AT_ONCE])
            response = await self._call(
                self.client.uid(
                    "fetch",
                    which,
                    "(RFC822.SIZE INTERNALDATE BODY.PEEK[HEADER.FIELDS (FROM REPLY-TO)])",
                )
            )
            for uid, got in _messages(response.lines).items():
                size = _SIZE.search(got.text)
                if size is not None:
                    sender = head_sender(got.literal or b"")
                    out[uid] = Head(int(size.group(1)), internal_date(got.text), sender)
        return out

    @_imap_errors
    async def fetch_many(self, uids: list[str], max_bytes: int | None = None) -> dict[str, bytes]:
        """The raw messages of several UIDs in as few FETCH commands as `FETCH_BYTES` allows
        (their sizes asked first, in one command). A UID that has gone is left out. A mail
        over `max_bytes` is fetched alone and only its first `max_bytes + 1` bytes."""
        assert self.client is not None
        if not uids:
            return {}
        response = await self._call(self.client.uid("fetch", ",".join(uids), "(RFC822.SIZE)"))
        sizes: dict[str, int] = {}
        for line in response.lines:
            if isinstance(line, (bytes, bytearray)):
                found, size = _UID.search(bytes(line)), _SIZE.search(bytes(line))
                if found and size:
                    sizes[found.group(1).decode()] = int(size.group(1))
        out: dict[str, bytes] = {}
        batch: list[str] = []
        total = 0
        for uid in [u for u in uids if u in sizes]:
            if max_bytes is not None and sizes[uid] > max_bytes:
                out.update(await self._fetch_set([uid], f"BODY.PEEK[]<0.{max_bytes + 1}>"))
                continue
            if batch and total + sizes[uid] > FETCH_BYTES:
                out.update(await self._fetch_set(batch))
                batch, total = [], 0
            batch.append(uid)
            total += sizes[uid]
        if batch:
            out.update(await self._fetch_set(batch))
        return out

    async def _fetch_set(self, uids: list[str], item: str = "BODY.PEEK[]") -> dict[str, bytes]:
        assert self.client is not None
        response = await self._call(self.client.uid("fetch", ",".join(uids), f"({item})"))
        wanted = set(uids)
        return {
            uid: got.literal
            for uid, got in _messages(response.lines).items()
            if uid in wanted and got.literal is not None
        }

    @_imap_errors
    async def done(self, uid: str) -> None:
        """Mark handled: seen, and moved to the processed folder when possible."""
        await self.done_many([uid])

    @_imap_errors
    async def done_many(self, uids: list[str]) -> None:
        """`done` for several UIDs in one STORE (and one MOVE) command."""
        assert self.client is not None
        if not uids:
            return
        which = ",".join(uids)
        await self._call(self.client.uid("store", which, "+FLAGS.SILENT", r"(\Seen)"))
        if self.cfg.processed_folder and self.can_move:
            await self._call(self.client.uid("move", which, self.cfg.processed_folder))

    @_imap_errors
    async def wait(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Wait for news: IDLE when offered (bounded), else sleep; `wake` set ends the wait
        at once (IDLE ended cleanly with DONE)."""
        assert self.client is not None
        woken = asyncio.ensure_future(wake.wait() if wake is not None else asyncio.Event().wait())
        try:
            if not self.can_idle:
                await asyncio.wait({woken}, timeout=seconds)
                return
            limit = min(seconds, IDLE_MAX_SECONDS)
            idle = await asyncio.wait_for(self.client.idle_start(timeout=limit), self.cfg.timeout)
            push = asyncio.ensure_future(self.client.wait_server_push(timeout=limit))
            lost = asyncio.ensure_future(self._lost.wait())
            try:
                await asyncio.wait(
                    {push, lost, woken}, timeout=limit + 5, return_when=asyncio.FIRST_COMPLETED
                )
            finally:
                for task in (push, lost):
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
            if self._lost.is_set():
                raise ImapError("connection lost during IDLE")
            self.client.idle_done()
            await asyncio.wait_for(idle, self.cfg.timeout)
        finally:
            woken.cancel()
            with contextlib.suppress(BaseException):
                await woken

    async def close(self) -> None:
        if self.client is None:
            return
        if self._lost.is_set():
            self.client = None
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.logout(), 5)
        self.client = None
