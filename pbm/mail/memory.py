"""The mail transports in memory, for tests of the service's own logic: a mailbox that raw
mails are appended to (`MemoryMailbox`, whose `inbox` makes `transport.Inbox` connections) and
an SMTP server that records what it is given (`MemorySmtp`, whose `sender` makes
`transport.Sender` sessions). Failures are injected by saying what should go wrong: a 4xx or
5xx answer, a refused recipient, no server, a connection cut during IDLE.

They keep the outcomes of the real ones (`imap.py`, `smtp.py`) but not their protocol
details (the sender flattens messages and checks addresses with aiosmtplib's own functions, as
the SMTP session does, with a server that offers SMTPUTF8); the end-to-end tests
(`pytest -m e2e`) run the service against real servers.
Both are safe to use from several threads (the service's loops run in one, tests look from
another).
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import functools
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage

from aiosmtplib.email import flatten_message, parse_address

from .inbound import head_sender
from .transport import Delivery, Head, TransportError

#: How often a waiting inbox looks for news (the in-memory IDLE).
_TICK = 0.01


class MemoryMailbox:
    """One mailbox. `append` delivers a raw mail; `inbox` is the `InboxFactory` to give the
    service. `idle=False` makes `wait` sleep its whole time, as a poll without IDLE does."""

    def __init__(self, idle: bool = True) -> None:
        self.idle = idle
        self._lock = threading.Lock()
        self._mails: dict[int, bytes] = {}
        #: When each mail arrived, when the test said (the mailbox's INTERNALDATE).
        self._arrived: dict[int, datetime] = {}
        self._seen: set[int] = set()
        self._next = 1
        #: Bumped by every append: a waiting inbox returns when it changes.
        self._version = 0
        #: Bumped by `cut`: every connection made before it is dead.
        self._generation = 0
        self._faults: dict[str, list[BaseException]] = {}
        #: While true, nothing listens: `connect` is refused.
        self.down = False
        #: Connections made, and waits (IDLEs) begun, so far.
        self.connections = 0
        self.waits = 0

    # -- the test's side -----------------------------------------------------------------

    def append(self, raw: bytes, arrived: datetime | None = None) -> str:
        """Deliver a mail; returns its uid. `arrived`: the date the mailbox gives it (IMAP's
        INTERNALDATE); without it, the mailbox says nothing of when it came."""
        with self._lock:
            uid = self._next
            self._next += 1
            self._mails[uid] = raw
            if arrived is not None:
                self._arrived[uid] = arrived
            self._version += 1
            return str(uid)

    def fail(self, operation: str, times: int = 1, error: BaseException | None = None) -> None:
        """The next `times` calls of `operation` ("connect", "unseen", "fetch", "done",
        "wait") raise `error` (default: a `TransportError`)."""
        assert operation in ("connect", "unseen", "fetch", "done", "wait"), operation
        with self._lock:
            for _ in range(times):
                self._faults.setdefault(operation, []).append(
                    error or TransportError(f"injected failure: {operation}")
                )

    def cut(self) -> None:
        """Every open connection is lost (a waiting one notices at once)."""
        with self._lock:
            self._generation += 1

    @property
    def unseen_count(self) -> int:
        with self._lock:
            return len(self._mails) - len(self._seen)

    @property
    def seen(self) -> list[str]:
        """The uids marked done, in order."""
        with self._lock:
            return [str(uid) for uid in sorted(self._seen)]

    def inbox(self) -> MemoryInbox:
        return MemoryInbox(self)

    # -- the inbox's side ----------------------------------------------------------------

    def _enter(self, operation: str, generation: int | None) -> None:
        """Raise what this call meets: a lost connection, an injected failure."""
        with self._lock:
            if operation != "connect" and generation != self._generation:
                raise TransportError("connection lost")
            faults = self._faults.get(operation)
            if faults:
                raise faults.pop(0)


class MemoryInbox:
    """A connection to a `MemoryMailbox` (`transport.Inbox`)."""

    def __init__(self, mailbox: MemoryMailbox) -> None:
        self.box = mailbox
        self._generation: int | None = None
        self._listed = -1

    @property
    def where(self) -> str:
        return "memory"

    async def connect(self) -> None:
        if self.box.down:
            raise ConnectionRefusedError("nothing listens (in-memory mailbox is down)")
        self.box._enter("connect", None)
        with self.box._lock:
            self._generation = self.box._generation
            self.box.connections += 1

    async def unseen(self) -> list[str]:
        self.box._enter("unseen", self._generation)
        with self.box._lock:
            self._listed = self.box._version
            return [str(uid) for uid in sorted(self.box._mails) if uid not in self.box._seen]

    async def fetch(self, uid: str) -> bytes | None:
        self.box._enter("fetch", self._generation)
        with self.box._lock:
            return self.box._mails.get(int(uid))

    async def heads(self, uids: list[str]) -> dict[str, Head]:
        # One operation, as one IMAP command: a fault injected for "fetch" fails it whole.
        self.box._enter("fetch", self._generation)
        with self.box._lock:
            found = {
                uid: (raw, self.box._arrived.get(int(uid)))
                for uid in uids
                if (raw := self.box._mails.get(int(uid))) is not None
            }
        return {
            uid: Head(len(raw), arrived, head_sender(raw)) for uid, (raw, arrived) in found.items()
        }

    async def fetch_many(self, uids: list[str], max_bytes: int | None = None) -> dict[str, bytes]:
        # One operation, as one IMAP command: a fault injected for "fetch" fails it whole.
        self.box._enter("fetch", self._generation)
        with self.box._lock:
            mails = {uid: self.box._mails.get(int(uid)) for uid in uids}
        cut = None if max_bytes is None else max_bytes + 1
        return {uid: raw[:cut] for uid, raw in mails.items() if raw is not None}

    async def done(self, uid: str) -> None:
        self.box._enter("done", self._generation)
        with self.box._lock:
            self.box._seen.add(int(uid))

    async def done_many(self, uids: list[str]) -> None:
        # One operation, as one IMAP command: a fault injected for "done" fails it whole.
        self.box._enter("done", self._generation)
        with self.box._lock:
            self.box._seen.update(int(uid) for uid in uids)

    async def wait(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Until a mail arrives after the last `unseen` (IDLE), `wake` is set, or `seconds`
        pass."""
        self.box._enter("wait", self._generation)
        with self.box._lock:
            self.box.waits += 1
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if wake is not None and wake.is_set():
                return
            if self.box.idle:
                with self.box._lock:
                    if self.box._generation != self._generation:
                        raise TransportError("connection lost during IDLE")
                    if self.box._version != self._listed:
                        return
            await asyncio.sleep(_TICK)

    async def close(self) -> None:
        self._generation = None


@dataclass
class Sent:
    """One message offered to the in-memory server at DATA (named as aiosmtpd's envelope)."""

    mail_from: str
    rcpt_tos: list[str]
    raw: bytes
    #: The connection (session) it came over, counted from 1.
    connection: int

    @functools.cached_property
    def message(self) -> EmailMessage:
        """The message parsed (once: a test reads the same mail many times; read it, never
        change it)."""
        msg = email.message_from_bytes(self.raw, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        return msg

    @property
    def text(self) -> str:
        """The plain-text body, line ends as in Python."""
        part = self.message.get_body(preferencelist=("plain",))
        assert isinstance(part, EmailMessage), self.raw[:2000]
        return str(part.get_content()).replace("\r\n", "\n")


@dataclass
class _Answer:
    code: int
    message: str
    #: How many more times (None: always).
    times: int | None = None

    def take(self) -> bool:
        """Whether it applies to this call (and count it)."""
        if self.times == 0:
            return False
        if self.times is not None:
            self.times -= 1
        return True


class MemorySmtp:
    """An SMTP server in memory. `sender` is the `SenderFactory` to give the service;
    `accepted` holds what it took, `attempts` everything offered at DATA, `rcpt_calls` how
    often each recipient was named."""

    def __init__(self, from_address: str = "") -> None:
        self.from_address = from_address
        self._lock = threading.Lock()
        self.accepted: list[Sent] = []
        self.attempts: list[Sent] = []
        self.rcpt_calls: dict[str, int] = {}
        self._data: list[_Answer] = []
        self._rcpt: list[_Answer] = []
        self._refuse: dict[str, _Answer] = {}
        self._cuts = 0
        #: While true, nothing listens: every message is a connection failure ("retry").
        self.down = False
        #: Connections opened, and messages that found the server out of reach.
        self.connections = 0
        self.unreachable = 0

    def fail(self, code: int, message: str = "", times: int = 1, at: str = "DATA") -> None:
        """The next `times` answers at DATA (or RCPT, to any recipient) are `code` (4xx: the
        service retries later, 5xx: it fails the row)."""
        assert at in ("DATA", "RCPT"), at
        with self._lock:
            queue = self._data if at == "DATA" else self._rcpt
            queue += [_Answer(code, message or "injected", 1) for _ in range(times)]

    def refuse(self, address: str, code: int, message: str = "", times: int | None = None) -> None:
        """`address` is refused with `code` at RCPT, `times` times (None: always)."""
        with self._lock:
            self._refuse[address.lower()] = _Answer(code, message or "refused", times)

    def allow(self, address: str) -> None:
        """`address` is refused no more."""
        with self._lock:
            self._refuse.pop(address.lower(), None)

    def cut(self, times: int = 1) -> None:
        """The next `times` messages meet a connection cut before they are answered."""
        with self._lock:
            self._cuts += times

    def sender(self) -> MemorySender:
        return MemorySender(self)

    def to(self, address: str) -> list[Sent]:
        """The accepted messages for `address`."""
        with self._lock:
            return [s for s in self.accepted if address in s.rcpt_tos]

    def _answer_rcpt(self, address: str) -> _Answer | None:
        self.rcpt_calls[address] = self.rcpt_calls.get(address, 0) + 1
        refusal = self._refuse.get(address.lower())
        if refusal is not None and refusal.take():
            return refusal
        while self._rcpt:
            answer = self._rcpt.pop(0)
            if answer.take():
                return answer
        return None


def _codes(refused: dict[str, _Answer]) -> str:
    return "; ".join(f"{a}: {r.code} {r.message}" for a, r in refused.items())


class MemorySender:
    """A session with a `MemorySmtp` (`transport.Sender`): one connection, opened on first
    use and again after any error, as `smtp.SmtpSession`."""

    def __init__(self, server: MemorySmtp) -> None:
        self.server = server
        self._connection = 0

    @property
    def from_address(self) -> str:
        return self.server.from_address

    async def deliver(self, msg: EmailMessage, sender: str, recipients: list[str]) -> Delivery:
        # What aiosmtplib refuses before talking, refused here too: no retry makes it sendable.
        try:
            if not recipients:
                raise ValueError("No recipient headers provided in message")
            for address in (sender, *recipients):
                parse_address(address)
            utf8 = not (sender + "".join(recipients)).isascii()
            raw = flatten_message(msg, utf8=utf8, cte_type="8bit")
        except ValueError as exc:
            self._connection = 0
            return Delivery("failed", f"not sendable: {exc}")
        except Exception as exc:  # the flattener choking on a header, say
            self._connection = 0
            return Delivery("failed", f"not sendable: {type(exc).__name__}: {exc}")
        with self.server._lock:
            return self._deliver(raw, sender, recipients)

    def _deliver(self, raw: bytes, sender: str, recipients: list[str]) -> Delivery:
        server = self.server
        if server.down or server._cuts:
            server._cuts = max(0, server._cuts - 1)
            server.unreachable += 1
            self._connection = 0
            return Delivery("retry", "ConnectionError: in-memory server out of reach", None, True)
        if not self._connection:
            server.connections += 1
            self._connection = server.connections
        refused = {a: r for a in recipients if (r := server._answer_rcpt(a)) is not None}
        taken = [a for a in recipients if a not in refused]
        if not taken:
            # As aiosmtplib: every recipient refused is an error; the session starts anew.
            self._connection = 0
            permanent = all(r.code >= 500 for r in refused.values())
            return Delivery("failed" if permanent else "retry", _codes(refused))
        attempt = Sent(sender, taken, raw, self._connection)
        server.attempts.append(attempt)
        while server._data:
            answer = server._data.pop(0)
            if answer.take():
                self._connection = 0
                outcome = "failed" if answer.code >= 500 else "retry"
                return Delivery(outcome, f"{answer.code} {answer.message}")
        server.accepted.append(attempt)
        if refused:
            return Delivery(
                "partial", _codes(refused), {a: (r.code, r.message) for a, r in refused.items()}
            )
        return Delivery("sent")

    async def close(self) -> None:
        self._connection = 0
