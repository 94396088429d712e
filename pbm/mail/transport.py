"""The service's two seams to the mail world: an inbox it reads and a sender it sends through.

`pbm serve` and `pbm poll` use the IMAP inbox (`imap.ImapInbox`, aioimaplib) and the SMTP
session (`smtp.SmtpSession`, aiosmtplib); the tests of the service's own logic use the
in-memory ones (`memory.MemoryMailbox`, `memory.MemoryOutgoing`), which have the same
outcomes and inject the same failures without a server. The shape follows httpx's transports:
a small protocol, one real implementation, one in memory.

Both are used one connection at a time: the service makes a new inbox after any error (see
`pbm/service/serve.py`) and a new sender for each pass of the outbox (`pbm/service/sending.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Protocol


class TransportError(Exception):
    """The mailbox or the server failed or went away: make a new connection, try later."""


#: What an inbox raises for trouble with its server; the caller reconnects with backoff.
INBOX_ERRORS = (TransportError, OSError, TimeoutError)


@dataclass(frozen=True)
class Head:
    """What the mailbox says of a mail before it is fetched: its size in bytes, when it
    reached the mailbox (IMAP's INTERNALDATE; None when the mailbox does not say) and the
    address it is from ("" when there is none that could be answered)."""

    size: int
    arrived: datetime | None
    sender: str


class Inbox(Protocol):
    """One connection to a mailbox. Mails are known by a uid (a string), stay unseen until
    `done`, and are fetched as raw bytes. Raises only `INBOX_ERRORS` for trouble with the
    server; after any of them the inbox is closed and a new one made."""

    @property
    def where(self) -> str:
        """The server, for the log ("127.0.0.1:143")."""
        ...

    async def connect(self) -> None: ...

    async def unseen(self) -> list[str]:
        """The uids of the mails not marked done, oldest first."""
        ...

    async def fetch(self, uid: str) -> bytes | None:
        """The raw mail (None when it has gone); it stays unseen."""
        ...

    async def heads(self, uids: list[str]) -> dict[str, Head]:
        """Size, arrival and sender of several mails (IMAP: one FETCH command of their sizes,
        dates and From lines), by uid; a mail that has gone is left out."""
        ...

    async def fetch_many(self, uids: list[str], max_bytes: int | None = None) -> dict[str, bytes]:
        """Several raw mails at once (IMAP: one FETCH command), by uid; a mail that has gone
        is left out. They stay unseen. `max_bytes`: of a larger mail only its first
        `max_bytes + 1` bytes are fetched (enough to know it is too large, never the whole of
        a 100 MB mail in memory)."""
        ...

    async def done(self, uid: str) -> None:
        """The mail is stored: never list it again."""
        ...

    async def done_many(self, uids: list[str]) -> None:
        """`done` for several mails at once (IMAP: one STORE command)."""
        ...

    async def wait(self, seconds: float, wake: asyncio.Event | None = None) -> None:
        """Return when new mail may have come (IDLE), at the latest after `seconds`, or as
        soon as `wake` is set (the service wants the mailbox read now: a deadline waits)."""
        ...

    async def close(self) -> None:
        """Let go of the connection; never raises."""
        ...


@dataclass
class Delivery:
    """What became of one message: "sent" (to everyone), "retry" or "failed" (for everyone),
    or "partial": some recipients were refused (`refused`: address → (code, message))."""

    outcome: str
    error: str = ""
    refused: dict[str, tuple[int, str]] | None = None
    #: The failure was the connection's (none, cut, timed out), not the server's answer to
    #: this message: the next message to the same server would most likely fare the same.
    connection: bool = False


class Sender(Protocol):
    """Messages over one session (a connection opened on first use, again after an error).
    `deliver` never raises for a message's or the server's fault: it says so in the
    `Delivery` (4xx and connection trouble "retry", 5xx "failed")."""

    @property
    def from_address(self) -> str:
        """The envelope sender and From to use ("" for the service's own address)."""
        ...

    async def deliver(self, msg: EmailMessage, sender: str, recipients: list[str]) -> Delivery: ...

    async def close(self) -> None: ...


InboxFactory = Callable[[], Inbox]
SenderFactory = Callable[[], Sender]


@dataclass
class Transports:
    """How the service reaches the mail world: a new inbox (a connection) and a new sender
    (a session) each time it asks."""

    inbox: InboxFactory
    sender: SenderFactory
