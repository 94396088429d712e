"""Real mail servers on 127.0.0.1 for the demo and the tests: an IMAP server (pymap's dict
backend, in process) and an SMTP server (aiosmtpd) that delivers every accepted message into
the IMAP mailbox of each recipient, by IMAP APPEND.

Both speak the real protocols, so the service's IMAP poller and SMTP sender are exercised
exactly as against a provider's servers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import aioimaplib
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session

#: PBKDF2 rounds of the loopback IMAP server's stored passwords (pymap's own default: 500,000).
LOOPBACK_HASH_ROUNDS = 1000


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class LoopbackImap:
    """pymap with the dict backend; users are added with `add_user`."""

    port: int = 0
    host: str = "127.0.0.1"
    _stack: AsyncExitStack | None = None
    _login: Any = None
    _config: Any = None
    passwords: dict[str, str] = field(default_factory=dict)
    _clients: dict[str, Any] = field(default_factory=dict)
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    async def start(self) -> None:
        from pymap.backend.dict import DictBackend
        from pymap.imap import IMAPService
        from pysasl.hashing import BuiltinHash

        self.port = self.port or free_port()
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers(dest="backend")
        DictBackend.add_subparser("dict", sub)
        IMAPService.add_arguments(parser)
        parser.set_defaults(skip_services=[], passlib_cfg=None, debug=False)
        args = parser.parse_args(
            ["--host", self.host, "--port", str(self.port), "--no-tls", "dict"]
        )
        # pymap (without passlib) stores and checks its users' passwords with 500,000 PBKDF2
        # rounds: 0.12 s of CPU for each user added and each login, which the demo, the
        # benchmarks and the end-to-end tests paid dozens of times. The users of a server on
        # 127.0.0.1 for the length of a run, with passwords pbm drew, need no slow hash.
        backend, config = await DictBackend.init(
            args, hash_context=BuiltinHash(rounds=LOOPBACK_HASH_ROUNDS)
        )
        config.apply_context()
        self._login, self._config = backend.login, config
        self._stack = AsyncExitStack()
        await backend.start(self._stack)
        await IMAPService(backend, config).start(self._stack)

    async def add_user(self, name: str, password: str) -> None:
        from pymap.backend.dict import Identity
        from pymap.user import Passwords, UserMetadata

        hashed = await Passwords(self._config).hash_password(password)
        identity = Identity(name, self._login, None, frozenset())
        await identity.set(UserMetadata(self._config, name, password=hashed))
        self.passwords[name] = password

    async def stop(self) -> None:
        for client in self._clients.values():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.logout(), 2)
        self._clients.clear()
        if self._stack is not None:
            await self._stack.aclose()
            self._stack = None

    async def append(
        self, user: str, raw: bytes, folder: str = "INBOX", date: datetime | None = None
    ) -> None:
        """Deliver by IMAP APPEND, over one kept connection per user (a login costs a
        password hash on the server); one command at a time on it. `date`: the mail's
        INTERNALDATE (when it reached the mailbox), else the server's now."""
        lock = self._locks.setdefault(user, asyncio.Lock())
        async with lock:
            await self._append(user, raw, folder, date)

    async def _append(self, user: str, raw: bytes, folder: str, date: datetime | None) -> None:
        for attempt in (1, 2):
            client = self._clients.get(user)
            try:
                if client is None:
                    client = aioimaplib.IMAP4(host=self.host, port=self.port, timeout=30)
                    await client.wait_hello_from_server()
                    await client.login(user, self.passwords[user])
                    self._clients[user] = client
                response = await client.append(raw, mailbox=folder, date=date)
                if response.result == "OK":
                    return
                raise OSError(f"APPEND: {response.result}")
            except (TimeoutError, OSError, aioimaplib.AioImapException):
                self._clients.pop(user, None)
                if attempt == 2:
                    raise


class _Deliver:
    """aiosmtpd handler: every accepted message goes into each known recipient's INBOX."""

    def __init__(
        self, imap: LoopbackImap, loop: asyncio.AbstractEventLoop, catch_all: str = ""
    ) -> None:
        self.imap = imap
        self.loop = loop
        self.catch_all = catch_all
        self.received: list[tuple[list[str], bytes]] = []

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        address = address.lower()
        if address not in self.imap.passwords:
            if not self.catch_all:
                return "550 5.1.1 no such mailbox here"
            address = self.catch_all  # benchmarks: every unknown address lands in one box
        if address not in envelope.rcpt_tos:
            envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode()
        self.received.append((list(envelope.rcpt_tos), raw))
        # The SMTP server runs in its own thread and loop; deliver on the IMAP server's loop.
        for rcpt in envelope.rcpt_tos:
            fut = asyncio.run_coroutine_threadsafe(self.imap.append(rcpt, raw), self.loop)
            await asyncio.wrap_future(fut)
        return "250 Message accepted for delivery"


@dataclass
class LoopbackMail:
    """Both servers: `await start()`, add users, then `smtp_port` / `imap.port`."""

    imap: LoopbackImap = field(default_factory=LoopbackImap)
    smtp_port: int = 0
    #: Deliver mail for unknown addresses to this user instead of refusing it.
    catch_all: str = ""
    _controller: Controller | None = None
    handler: _Deliver | None = None

    async def start(self) -> None:
        await self.imap.start()
        self.handler = _Deliver(self.imap, asyncio.get_running_loop(), self.catch_all)
        self.smtp_port = self.smtp_port or free_port()
        self._controller = Controller(self.handler, hostname="127.0.0.1", port=self.smtp_port)
        self._controller.start()

    async def add_user(self, address: str, password: str) -> None:
        await self.imap.add_user(address.lower(), password)

    async def stop(self) -> None:
        if self._controller is not None:
            await asyncio.to_thread(self._controller.stop)
            self._controller = None
        await self.imap.stop()
