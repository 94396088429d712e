"""Mail servers and players for the mail tests:

- `Mailroom`, the GM's mailbox and the SMTP server for `serve` and `poll_once`: in memory, or
  pymap and aiosmtpd on 127.0.0.1, for the `mailroom` fixture;
- `Outgoing`, an SMTP server that misbehaves as told, in memory (`MemorySmtp`) or aiosmtpd on
  127.0.0.1, for the `outgoing` fixture (tests/mail/conftest.py);
- `FlakyHandler`, an aiosmtpd handler that refuses on purpose (4xx or 5xx, at DATA or RCPT, per
  recipient), run on 127.0.0.1 by `smtp_server`; `PeerHandler` also notes each message's
  connection;
- `KillableProxy`, a TCP proxy that "kills" the server behind it (every connection cut, the
  port closed) and brings it back on the same port. pymap's `stop()` closes the listening
  socket but keeps existing connections alive (asyncio's `Server.close` does that on Python
  3.11), so a real server death, where every client sees its connection go away, is simulated
  in front of it;
- `MailPlayer` (end to end), a player with a real mailbox (writes over SMTP, reads over IMAP), and
  `play_to_round_two`, the scenario shared by the loopback and the Dovecot tests: players join
  by mail, read their welcome mails over IMAP, place their setup and send their round-1 orders,
  and everyone receives the report.

The servers themselves are in pbm/devservers/.
"""

from __future__ import annotations

import asyncio
import contextlib
import email
import email.policy
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage

import aiosmtplib
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from harness import GM, orders_text, setup_text
from sqlmodel import Session as DbSession

from pbm.config.model import ImapSection, SmtpSection
from pbm.devservers.loopback import LoopbackMail, free_port
from pbm.mail.imap import ImapInbox
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.smtp import SmtpSession
from pbm.mail.transport import Transports
from pbm.rules import Phase
from pbm.rules.setup import setup_player
from pbm.rules.state import GameState
from pbm.service.context import Service
from pbm.service.games import get_game, load_state, players_of
from pbm.service.sending import SendResult, send_pending

# -- an SMTP server that misbehaves ---------------------------------------------------------------


@dataclass
class Attempt:
    mail_from: str
    rcpt_tos: list[str]
    raw: bytes

    @property
    def plain(self) -> EmailMessage:
        part = self.message.get_body(preferencelist=("plain",))
        assert isinstance(part, EmailMessage), self.raw[:2000]
        return part

    @property
    def text(self) -> str:
        """The plain-text body, line ends as in Python (the wire has CRLF)."""
        return str(self.plain.get_content()).replace("\r\n", "\n")

    def check_utf8_parts(self) -> None:
        """Every text part is UTF-8; an HTML part, if any, says the same as the text."""
        for part in self.message.walk():
            if part.get_content_maintype() == "text":
                assert part.get_content_charset() == "utf-8", part["Content-Type"]
        html = self.message.get_body(preferencelist=("html",))
        if html is not None:
            assert isinstance(html, EmailMessage)
            assert "\ufffd" not in str(html.get_content())

    @property
    def message(self) -> EmailMessage:
        msg = email.message_from_bytes(self.raw, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        return msg


@dataclass
class FlakyHandler:
    """Answers DATA (or RCPT) with `code` the first `failures` times, then accepts.

    `refuse` maps recipients to a code they get at RCPT for their first `refuse_times` tries
    (None: always)."""

    failures: int = 0
    code: str = "451 4.3.0 try later"
    at: str = "DATA"
    refuse: dict[str, str] = field(default_factory=dict)
    refuse_times: int | None = None
    data_attempts: list[Attempt] = field(default_factory=list)
    accepted: list[Attempt] = field(default_factory=list)
    rcpt_calls: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(
        self,
        server: SMTP,
        session: Session,
        envelope: Envelope,
        address: str,
        rcpt_options: list[str],
    ) -> str:
        with self.lock:
            n = self.rcpt_calls[address] = self.rcpt_calls.get(address, 0) + 1
            total = sum(self.rcpt_calls.values())
        if address in self.refuse and (self.refuse_times is None or n <= self.refuse_times):
            return self.refuse[address]
        if self.at == "RCPT" and total <= self.failures:
            return self.code
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        attempt = Attempt(
            str(envelope.mail_from),
            list(envelope.rcpt_tos),
            raw if isinstance(raw, bytes) else raw.encode(),
        )
        with self.lock:
            self.data_attempts.append(attempt)
            if self.at == "DATA" and len(self.data_attempts) <= self.failures:
                return self.code
            self.accepted.append(attempt)
        return "250 2.0.0 Ok: queued"


@contextlib.contextmanager
def smtp_server(handler: FlakyHandler, port: int = 0) -> Iterator[int]:
    port = port or free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


@dataclass
class PeerHandler(FlakyHandler):
    """Also notes the client's address and port of every accepted message: one per
    connection."""

    peers: list[object] = field(default_factory=list)

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        answer = await super().handle_DATA(server, session, envelope)
        self.peers.append(session.peer)
        return answer


def _answer(text: str) -> tuple[int, str]:
    code, _, message = text.partition(" ")
    return int(code), message


class Outgoing:
    """An SMTP server that answers `code` to the first `failures` messages (at DATA, or to
    the first RCPTs with `at="RCPT"`) and refuses the recipients in `refuse` (address → "550
    5.1.1 …") for their first `refuse_times` tries (None: always); then it accepts. What it
    saw: `accepted` and `data_attempts` (as `Attempt`s), `rcpt_calls` (address → count),
    `peers` (the connection of each accepted message)."""

    def __init__(self, kind: str, stack: contextlib.ExitStack) -> None:
        self.kind = kind
        self._stack = stack
        self.memory: MemorySmtp | None = None
        self.handler: PeerHandler | None = None
        self.port = 0

    def start(
        self,
        failures: int = 0,
        code: str = "451 4.3.0 try later",
        at: str = "DATA",
        refuse: dict[str, str] | None = None,
        refuse_times: int | None = None,
    ) -> Outgoing:
        if self.kind == "memory":
            self.memory = MemorySmtp()
            if failures:
                self.memory.fail(*_answer(code), times=failures, at=at)
            for address, answer in (refuse or {}).items():
                self.memory.refuse(address, *_answer(answer), times=refuse_times)
        else:
            self.handler = PeerHandler(
                failures=failures,
                code=code,
                at=at,
                refuse=dict(refuse or {}),
                refuse_times=refuse_times,
            )
            self.port = self._stack.enter_context(smtp_server(self.handler))
        return self

    def allow(self, address: str) -> None:
        """`address` is refused no more."""
        if self.memory is not None:
            self.memory.allow(address)
        else:
            assert self.handler is not None
            del self.handler.refuse[address]

    @property
    def accepted(self) -> list[Attempt]:
        if self.memory is not None:
            return [Attempt(s.mail_from, s.rcpt_tos, s.raw) for s in self.memory.accepted]
        assert self.handler is not None
        return self.handler.accepted

    @property
    def data_attempts(self) -> list[Attempt]:
        if self.memory is not None:
            return [Attempt(s.mail_from, s.rcpt_tos, s.raw) for s in self.memory.attempts]
        assert self.handler is not None
        return self.handler.data_attempts

    @property
    def peers(self) -> list[object]:
        """The connection each accepted message came over."""
        if self.memory is not None:
            return [s.connection for s in self.memory.accepted]
        assert self.handler is not None
        return self.handler.peers

    @property
    def rcpt_calls(self) -> dict[str, int]:
        if self.memory is not None:
            return self.memory.rcpt_calls
        assert self.handler is not None
        return self.handler.rcpt_calls

    def send(self, svc: Service, timeout: float = 5.0, from_address: str = "") -> SendResult:
        """One pass of the outbox (`send_pending`) through this server."""
        if self.memory is not None:
            self.memory.from_address = from_address
            return asyncio.run(send_pending(svc, self.memory.sender))
        smtp = SmtpSection.model_validate(
            {"port": self.port, "timeout": timeout, "from": from_address}
        )
        return asyncio.run(send_pending(svc, lambda: SmtpSession(smtp)))


class Mailroom:
    """The GM's mailbox and the SMTP server the service runs against: in memory ("memory"),
    or pymap and aiosmtpd on 127.0.0.1 ("loopback", which delivers only to `users`)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.mailbox = MemoryMailbox()
        self.smtp = MemorySmtp(from_address=GM)
        self.loopback: LoopbackMail | None = None

    async def start(self, users: Iterable[str] = ()) -> Mailroom:
        if self.kind == "loopback":
            self.loopback = LoopbackMail()
            await self.loopback.start()
            for address in {GM, *users}:
                await self.loopback.add_user(address, "pw")
        return self

    def configure(self, svc: Service, **periods: float) -> Service:
        """`svc`, its config set to this mailroom's servers (for the loopback ones) and the
        loops' periods as given (the inbox polls every 0.2 s unless told)."""
        periods.setdefault("poll_seconds", 0.2)
        if self.loopback is None:
            svc.config = svc.config.updated(service=periods)
        else:
            svc.config = svc.config.updated(
                service=periods,
                imap={"port": self.loopback.imap.port, "user": GM, "password": "pw"},
                smtp={"port": self.loopback.smtp_port, "from": GM},
            )
        return svc

    @property
    def transports(self) -> Transports | None:
        """None for the loopback servers: `serve` makes IMAP and SMTP from the config."""
        if self.loopback is not None:
            return None
        return Transports(inbox=self.mailbox.inbox, sender=self.smtp.sender)

    async def deliver(self, raw: bytes, arrived: datetime | None = None) -> None:
        """A mail into the GM's inbox; `arrived`: its INTERNALDATE (else the server's now)."""
        if self.loopback is not None:
            await self.loopback.imap.append(GM, raw, date=arrived)
        else:
            self.mailbox.append(raw, arrived)

    @property
    def sent(self) -> list[tuple[list[str], bytes]]:
        """(recipients, raw) of every message the SMTP server accepted."""
        if self.loopback is not None:
            assert self.loopback.handler is not None
            return list(self.loopback.handler.received)
        return [(m.rcpt_tos, m.raw) for m in self.smtp.accepted]

    async def stop(self) -> None:
        if self.loopback is not None:
            await self.loopback.stop()


# -- a server that dies ---------------------------------------------------------------------------


class KillableProxy:
    """Listens on `port` and forwards every connection to `target_port` on 127.0.0.1.

    `kill(bye=...)` is the server dying: optionally an untagged `* BYE` first (a clean
    shutdown), then every connection is cut and the port stops listening. `revive(target)`
    listens again on the same port, forwarding to a (new) server.
    """

    def __init__(self, target_port: int, port: int = 0) -> None:
        self.target_port = target_port
        self.port = port or free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Connections accepted, and IDLE commands seen from clients, so far.
        self.connections = 0
        self.idles = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, up_writer}

        async def pump(
            src: asyncio.StreamReader, dst: asyncio.StreamWriter, from_client: bool
        ) -> None:
            try:
                while data := await src.read(65536):
                    if from_client and b" IDLE\r\n" in data:
                        self.idles += 1
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.close()

        tasks = [
            asyncio.create_task(pump(reader, up_writer, True)),
            asyncio.create_task(pump(up_reader, writer, False)),
        ]
        self._tasks.update(tasks)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self._tasks.difference_update(tasks)
        self._writers -= {writer, up_writer}

    async def kill(self, bye: bool = False, keep_listening: bool = False) -> None:
        """Cut every connection; unless `keep_listening`, stop listening as well."""
        if self._server is not None and not keep_listening:
            self._server.close()
            self._server = None
        for w in list(self._writers):
            if bye and w.get_extra_info("peername")[1] != self.target_port:
                with contextlib.suppress(Exception):
                    w.write(b"* BYE server shutting down\r\n")
                    await w.drain()
            with contextlib.suppress(Exception):
                w.transport.abort()
        for t in list(self._tasks):
            t.cancel()
        self._writers.clear()
        await asyncio.sleep(0)

    async def revive(self, target_port: int) -> None:
        self.target_port = target_port
        await self.start()


# -- players with real mailboxes ------------------------------------------------------------------


class MailPlayer:
    """A player with a real mailbox: writes over SMTP, reads over IMAP."""

    def __init__(
        self,
        address: str,
        smtp_port: int,
        imap_port: int,
        imap_password: str,
        diagnose: Callable[[], str] = lambda: "",
    ) -> None:
        self.address, self.smtp_port, self.imap_port = address, smtp_port, imap_port
        self.imap_password = imap_password
        self.diagnose = diagnose
        self.password = ""  # the game's Kennwort, from the welcome mail
        self.seen: list[EmailMessage] = []
        self.n = 0

    async def send(self, subject: str, body: str) -> None:
        self.n += 1
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = self.address, GM, subject
        msg["Message-ID"] = f"<{self.n}.{self.address}>"
        msg.set_content(body)
        await aiosmtplib.send(msg, hostname="127.0.0.1", port=self.smtp_port)

    async def read(self) -> list[EmailMessage]:
        box = ImapInbox(
            ImapSection(
                port=self.imap_port, user=self.address, password=self.imap_password, idle=False
            )
        )
        await box.connect()
        new = []
        for uid in await box.unseen():
            raw = await box.fetch(uid)
            assert raw is not None
            new.append(email.message_from_bytes(raw, policy=email.policy.default))
            await box.done(uid)
        await box.close()
        self.seen += new
        return new

    async def wait_for(self, subject_part: str, timeout: float = 20) -> EmailMessage:
        """The oldest mail not taken yet whose subject contains `subject_part`."""
        for _ in range(int(timeout * 10)):
            await self.read()
            for m in self.seen:
                if subject_part in str(m["Subject"]):
                    self.seen.remove(m)
                    return m
            await asyncio.sleep(0.1)
        raise AssertionError(f"{self.address}: no mail with {subject_part!r}\n" + self.diagnose())


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


async def play_to_round_two(
    svc: Service,
    game: str,
    players: list[MailPlayer],
    check_welcome: Callable[[EmailMessage], None] = lambda _m: None,
) -> None:
    """Run the scenario against a service that `serve` is running for."""
    for i, p in enumerate(players):
        await p.send("Anmeldung", f"Spiel: {game}\nName: Spieler {i}\nFarben: rot, blau\n")
    for p in players:
        # Only the address's own answer with the code it was sent takes the seat.
        request = await p.wait_for("Anmeldung bestätigen")
        code = re.search(r"Bestätigen: (\S+)", text_of(request))
        assert code
        await p.send(f"Re: {request['Subject']}", f"Bestätigen: {code.group(1)}\n")
    for p in players:
        welcome = await p.wait_for("Willkommen")
        assert welcome["Auto-Submitted"] == "auto-generated"
        check_welcome(welcome)
        match = re.search(r"Kennwort: (\S+)", text_of(welcome))
        assert match
        p.password = match.group(1)

    def state_now() -> GameState:
        with DbSession(svc.engine) as session:
            return load_state(get_game(session, game))

    by_seat: dict[int, MailPlayer] = {}
    with DbSession(svc.engine) as session:
        for row in players_of(session, get_game(session, game)):
            assert row.seat is not None
            by_seat[row.seat] = next(p for p in players if p.address == row.address)
    # Each turn's mail; at the turn of the snake one mail of ranked placements serves the
    # two turns in a row, so there may be fewer mails than placements.
    for _ in range(2 * len(players)):
        st = state_now()
        if st.phase != Phase.SETUP:
            break
        seat = setup_player(st)
        p = by_seat[seat]
        await p.send("Aufstellung", setup_text(st, seat, p.password))
        ack = await p.wait_for("Aufstellung erhalten")
        assert ack["In-Reply-To"] == f"<{p.n}.{p.address}>"
        assert ack["Auto-Submitted"] == "auto-replied"
        for _ in range(100):
            if state_now().setup_step > st.setup_step:
                break
            await asyncio.sleep(0.1)
    st = state_now()
    assert st.phase == Phase.ROUNDS and st.round == 1
    for seat, p in by_seat.items():
        await p.send("Runde 1", orders_text(st, seat, p.password, 1))
    for p in players:
        report = await p.wait_for("Bericht Runde 1")
        assert "Wurf für" in text_of(report)
    assert state_now().round == 2
