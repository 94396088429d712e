"""The running service (`serve`: the inbox, clock and outbox loops together) through outages of
what it depends on:

- the IMAP server restarts (a new pymap on the same port, its mailbox and flags carried over)
  while mails arrive before, during and after the outage (end to end, against real servers on
  127.0.0.1);
- the SMTP server is down for minutes while answers and a report are queued, then comes back;
- the SQLite file is locked by another program (`BEGIN EXCLUSIVE`) for longer than the busy
  timeout while mails arrive and a round is due; and `poll_once` (`pbm poll`) meets the lock.
  These run over the in-memory mailbox and SMTP server (pbm/mail/memory.py).

The function-level behaviour (one poller reconnecting, the backoff of one outbox row, the
crash points) is in test_imap_faults.py and test_smtp_faults.py; here everything runs at once
in `serve`, in process, with a FakeClock for the service's time (the backoff's minutes and the
deadlines pass at once) and real seconds for the loops.

`make_engine` fixes SQLite's busy timeout at 30 s; the tests give the engine's connections a
shorter one (`short_busy_timeout`) so that a lock "longer than the busy timeout" takes seconds.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import functools
import logging
import re
import sqlite3
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import aioimaplib
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope
from aiosmtpd.smtp import Session as SmtpSession
from harness import A_ROAD, ANNA, BERND, GM, PLAYERS, Games, eventually, make_service
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool
from sqlmodel import Session, col, create_engine, select

from pbm.devservers.loopback import LoopbackImap, free_port
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.transport import Transports
from pbm.service import ingest as ingest_module
from pbm.service import sending
from pbm.service import serve as serve_module
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game, get_game
from pbm.service.sending import LEASE
from pbm.service.serve import poll_once, serve
from pbm.store.db import transaction
from pbm.store.models import Game, InboundMail, Outbox, RoundRecord

from .servers import KillableProxy

#: Every test here runs the whole service for seconds of real time.
pytestmark = pytest.mark.slow

PW = "pw"
#: The busy timeout the tests give the engine (make_engine's own is 30 s).
BUSY_TIMEOUT = 0.5


def per_recipient(rows: list[Outbox]) -> Counter[str]:
    """What the SMTP server should see of these rows: one message per recipient."""
    return Counter({o.message_id: len([r for r in o.recipients.split(",") if r]) for o in rows})


# -- the database -------------------------------------------------------------------------------


def short_busy_timeout(svc: Service, seconds: float = BUSY_TIMEOUT) -> None:
    """Every new connection of the engine waits `seconds` for a lock instead of 30 s (set
    after make_engine's own pragmas, which run first)."""

    @event.listens_for(svc.engine, "connect")
    def _short(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")

    svc.engine.dispose()
    with svc.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == int(seconds * 1000)


class DbLock:
    """Another program holding the database's write lock: `BEGIN EXCLUSIVE` on a connection
    of its own. In WAL mode that stops every writer, and every transaction of pbm's engine
    (reads too: it begins each with BEGIN IMMEDIATE); they wait out their busy timeout and get
    "database is locked". Plain readers (the tests' `_reader`) go on."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.taken = 0
        self._conn: sqlite3.Connection | None = None
        self._timer: threading.Timer | None = None
        self._mutex = threading.Lock()

    @property
    def held(self) -> bool:
        return self._conn is not None

    def take(self, seconds: float | None = None) -> None:
        """Take the lock (from any thread); with `seconds`, let it go again after that long."""
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        conn.execute("BEGIN EXCLUSIVE")
        with self._mutex:
            self._conn = conn
            self.taken += 1
        if seconds is not None:
            self._timer = threading.Timer(seconds, self.release)
            self._timer.start()

    def release(self) -> None:
        with self._mutex:
            conn, self._conn = self._conn, None
        if conn is not None:
            conn.execute("COMMIT")
            conn.close()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.release()


@functools.cache
def _reader(url: str) -> Engine:
    # pbm's engine begins every transaction, reads too, with BEGIN IMMEDIATE; the tests read
    # on a plain engine, so that they can look while another connection holds the lock.
    return create_engine(url, poolclass=NullPool)


def _read(svc: Service) -> Session:
    return Session(_reader(str(svc.engine.url)))


def stored(svc: Service, among: Iterable[str] | None = None) -> list[InboundMail]:
    """The stored mails (those with one of the Message-IDs `among`, when given)."""
    wanted = None if among is None else set(among)
    with _read(svc) as s:
        rows = s.exec(select(InboundMail).order_by(col(InboundMail.id)))
        return [m for m in rows if wanted is None or m.message_id in wanted]


def outbox(svc: Service) -> list[Outbox]:
    with _read(svc) as s:
        return list(s.exec(select(Outbox).order_by(col(Outbox.id))))


def answers_to(svc: Service, message_id: str) -> list[Outbox]:
    return [o for o in outbox(svc) if o.in_reply_to == message_id]


def game(svc: Service, name: str = "alpha") -> Game:
    with _read(svc) as s:
        return get_game(s, name)


def round_records(svc: Service, round_: int) -> list[RoundRecord]:
    with _read(svc) as s:
        return list(
            s.exec(
                select(RoundRecord).where(RoundRecord.kind == "round", RoundRecord.round == round_)
            )
        )


def replies_to(smtp: MemorySmtp, message_id: str) -> int:
    """Messages the in-memory server took in reply to `message_id`."""
    return sum(1 for m in list(smtp.accepted) if m.message["In-Reply-To"] == message_id)


def delivered(smtp: MemorySmtp) -> Counter[str]:
    """Deliveries per Message-ID (a mail to several goes to each as its own message)."""
    return Counter(str(m.message["Message-ID"]) for m in list(smtp.accepted))


def signup_game(tmp_path: Path, clock: FakeClock) -> Service:
    """A fresh service with game alpha open for signup (six seats: five joins fill nothing)."""
    svc = make_service(tmp_path, clock)
    with transaction(svc.engine) as s:
        create_game(svc, s, "alpha", players=6, seed=7)
    return svc


# -- mails --------------------------------------------------------------------------------------


def join_mail(n: int) -> tuple[str, bytes]:
    """A signup for game alpha; answered with exactly one mail, in reply to it."""
    mid = f"<join-{n}@players.test>"
    raw = (
        f"From: Spieler {n} <p{n}@players.test>\r\nTo: {GM}\r\nSubject: Anmeldung\r\n"
        f"Message-ID: {mid}\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n"
        f"Spiel: alpha\r\nName: Spieler {n}\r\nFarben: rot\r\n"
    ).encode()
    return mid, raw


def order_mail(address: str) -> tuple[str, bytes]:
    """A player's valid orders for round 1 of alpha (`games.start(cast=True)`)."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = address, GM, "Züge Runde 1"
    msg["Message-ID"] = mid = f"<orders-1.{address}>"
    msg.set_content(f"Kennwort: {PLAYERS[address][0]}\nRunde: 1\n{A_ROAD[address]}\n")
    return mid, msg.as_bytes()


class Recorder:
    """aiosmtpd handler: accepts every recipient and keeps the Message-ID and In-Reply-To of
    every message it accepts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.got: list[tuple[str, str, list[str]]] = []

    async def handle_DATA(self, server: SMTP, session: SmtpSession, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        msg = email.message_from_bytes(
            raw if isinstance(raw, bytes) else raw.encode(), policy=email.policy.default
        )
        with self._lock:
            self.got.append(
                (str(msg["Message-ID"]), str(msg["In-Reply-To"] or ""), list(envelope.rcpt_tos))
            )
        return "250 2.0.0 Ok: queued"

    def ids(self) -> Counter[str]:
        """Deliveries per Message-ID (a mail to several goes to each as its own message)."""
        with self._lock:
            return Counter(mid for mid, _, _ in self.got)

    def replies_to(self, message_id: str) -> int:
        with self._lock:
            return sum(1 for _, irt, _ in self.got if irt == message_id)


class SmtpServer:
    """aiosmtpd on 127.0.0.1 (a port of its own, or a given one), started when asked."""

    def __init__(self, port: int = 0) -> None:
        self.port = port or free_port()
        self.recorder = Recorder()
        self._controller: Controller | None = None

    def start(self) -> None:
        self._controller = Controller(self.recorder, hostname="127.0.0.1", port=self.port)
        self._controller.start()

    async def stop(self) -> None:
        if self._controller is not None:
            await asyncio.to_thread(self._controller.stop)
            self._controller = None


# -- IMAP -----------------------------------------------------------------------------------------


async def new_imap(port: int = 0) -> LoopbackImap:
    imap = LoopbackImap(port=port)
    await imap.start()
    await imap.add_user(GM, PW)
    return imap


async def _client(port: int) -> aioimaplib.IMAP4:
    client = aioimaplib.IMAP4(host="127.0.0.1", port=port, timeout=10)
    await client.wait_hello_from_server()
    assert (await client.login(GM, PW)).result == "OK"
    assert (await client.select("INBOX")).result == "OK"
    return client


async def mailbox(port: int) -> list[tuple[bytes, list[str]]]:
    """Every message of the INBOX, in order, with its flags (all but \\Recent)."""
    client = await _client(port)
    try:
        found = await client.uid_search("ALL")
        uids = [
            x.decode()
            for line in found.lines[:-1]
            if isinstance(line, bytes)
            for x in line.split()
            if x.isdigit()
        ]
        out = []
        for uid in uids:
            response = await client.uid("fetch", uid, "(FLAGS BODY.PEEK[])")
            text = b" ".join(bytes(x) for x in response.lines if not isinstance(x, bytearray))
            match = re.search(rb"FLAGS \(([^)]*)\)", text)
            assert match, response.lines
            flags = [f for f in match.group(1).decode().split() if f != "\\Recent"]
            raw = next(bytes(x) for x in response.lines if isinstance(x, bytearray))
            out.append((raw, flags))
        return out
    finally:
        await client.logout()


async def restore(port: int, messages: list[tuple[bytes, list[str]]]) -> None:
    """Put messages into the INBOX with their flags, as a server keeps them over a restart."""
    client = await _client(port)
    try:
        for raw, flags in messages:
            response = await client.append(raw, "INBOX", f"({' '.join(flags)})" if flags else None)
            assert response.result == "OK", response
    finally:
        await client.logout()


async def unseen(port: int) -> list[bytes]:
    return [raw for raw, flags in await mailbox(port) if "\\Seen" not in flags]


def warnings(caplog: pytest.LogCaptureFixture, prefix: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "pbm" and r.levelno == logging.WARNING and r.getMessage().startswith(prefix)
    ]


#: Short loop periods, for the in-memory transports.
SERVE = {"poll_seconds": 0.3, "tick_seconds": 0.2, "send_seconds": 0.1}


def fast(svc: Service) -> Service:
    """`svc` with the short loop periods of `SERVE`."""
    svc.config = svc.config.updated(service=SERVE)
    return svc


async def stop_serving(stop: asyncio.Event, task: asyncio.Task[None]) -> None:
    stop.set()
    await asyncio.wait_for(task, 20)


# == 1. the IMAP server restarts =================================================================


@pytest.mark.e2e
@pytest.mark.timeout(60)
def test_imap_server_restart_while_serving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Mails before, at, during and after a restart of the IMAP server are each taken in
    once and answered once; serve runs on throughout and reconnects by itself.

    The restart: the server says BYE and every connection drops (the proxy in front of pymap;
    see servers.py), the port stops listening, and a new pymap comes up on the old server's
    port with the mailbox as it was (messages and flags). Two mails are handled before it; the
    server goes down just after the third was taken in and before its \\Seen flag was stored
    (the kill is started from the crash point between the two), so the new server offers it
    again; a fourth arrives while the service is cut off (the MTA delivers it into the new
    server's mailbox before the service is back in), and a fifth after."""
    caplog.set_level(logging.INFO, logger="pbm")
    svc = signup_game(tmp_path, FakeClock())
    asyncio.run(_imap_restart(svc, monkeypatch, caplog))
    ids = [join_mail(n)[0] for n in range(1, 6)]
    mails = stored(svc)
    assert [m.message_id for m in mails] == ids
    assert all(m.status == "done" for m in mails), [(m.message_id, m.status) for m in mails]
    for mid in ids:
        answers = answers_to(svc, mid)
        assert [a.status for a in answers] == ["sent"], (mid, answers)
    svc.engine.dispose()


async def _imap_restart(
    svc: Service, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    smtp = SmtpServer()
    smtp.start()
    imap = await new_imap()
    proxy = KillableProxy(imap.port)
    await proxy.start()
    svc.config = svc.config.updated(
        imap={"port": proxy.port, "user": GM, "password": PW, "timeout": 2.0},
        smtp={"port": smtp.port, "timeout": 3.0},
        service={"poll_seconds": 2, "tick_seconds": 0.5, "send_seconds": 0.2},
    )
    mids = [join_mail(n)[0] for n in range(1, 6)]
    kills: list[asyncio.Task[None]] = []

    def crashpoint(name: str) -> None:
        # Mail 3 is stored and processed; the server dies before it is marked seen.
        if name == "before-imap-flag" and len(stored(svc)) == 3 and not kills:
            kills.append(asyncio.get_running_loop().create_task(proxy.kill(bye=True)))

    monkeypatch.setattr(serve_module, "crashpoint", crashpoint)
    stop = asyncio.Event()
    task = asyncio.create_task(serve(svc, stop))

    def answered(upto: int) -> Callable[[], bool]:
        return lambda: all(smtp.recorder.replies_to(m) >= 1 for m in mids[:upto])

    try:
        # Before: two mails, taken in (pushed during IDLE) and answered; back in IDLE.
        await eventually(lambda: proxy.idles >= 1, 10, "the poller in IDLE")
        for n in (1, 2):
            await imap.append(GM, join_mail(n)[1])
        await eventually(answered(2), 20, "the answers to the mails before the outage")
        await eventually(lambda: proxy.idles >= 2, 10, "the poller in IDLE again")

        # At: mail 3 is taken in, and the server goes down before it is flagged.
        await imap.append(GM, join_mail(3)[1])
        await eventually(lambda: bool(kills), 10, "mail 3 taken in")
        await kills[0]
        kept = await mailbox(imap.port)  # what the server keeps on disk
        await imap.stop()
        assert [("\\Seen" in flags) for _, flags in kept] == [True, True, False]

        # During: the service meets a closed port, and keeps running.
        await eventually(
            lambda: any("ConnectionRefusedError" in w for w in warnings(caplog, "imap: ")),
            15,
            "the poller to find the port closed",
        )
        assert not task.done(), task
        connections = proxy.connections
        imap = await new_imap(imap.port)
        await restore(imap.port, kept)
        await imap.append(GM, join_mail(4)[1])  # queued at the MTA, delivered as it comes up
        await proxy.revive(imap.port)
        await eventually(answered(4), 30, "the answers to the mails at and during the outage")
        assert proxy.connections > connections, "a new connection was made"

        # After: the new server's new mail.
        await imap.append(GM, join_mail(5)[1])
        await eventually(answered(5), 20, "the answer to the mail after the outage")
        for _ in range(50):
            if not await unseen(imap.port):
                break
            await asyncio.sleep(0.1)
        assert await unseen(imap.port) == [], "every mail is marked seen on the new server"
        await asyncio.sleep(1)  # time for anything that would happen twice
        assert not task.done(), task
    finally:
        await stop_serving(stop, task)
        await proxy.kill()
        await imap.stop()
        await smtp.stop()
    # Each mail answered exactly once over SMTP, and nothing else was sent.
    assert [smtp.recorder.replies_to(m) for m in mids] == [1] * 5
    assert sum(smtp.recorder.ids().values()) == 5
    assert task.result() is None


# == 2. SMTP down for minutes ====================================================================


@pytest.mark.timeout(60)
def test_smtp_down_for_minutes_everything_queued_then_delivered_once(
    svc: Service,
    clock: FakeClock,
    games: Games,
    mailbox: MemoryMailbox,
    smtp: MemorySmtp,
    transports: Transports,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The SMTP server is out of reach while the four players' orders come in: the answers
    and the round's report (the round resolves early, all orders being in) wait in the outbox,
    together with the setup's mails not sent yet. For a quarter of an hour (FakeClock) every
    row is retried after 1, 2, 4, 8 minutes and stays pending, never failed. Then the server
    is back: every row is delivered exactly once."""
    caplog.set_level(logging.INFO, logger="pbm")
    games.start(cast=True)
    smtp.down = True
    asyncio.run(_smtp_down(svc, clock, mailbox, smtp, transports))
    assert warnings(caplog, "outbox "), "the retries are logged"


async def _smtp_down(
    svc: Service, clock: FakeClock, mailbox: MemoryMailbox, smtp: MemorySmtp, transports: Transports
) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(serve(fast(svc), stop, transports))
    orders = dict(order_mail(a) for a in PLAYERS)

    def attempts(n: int) -> Callable[[], bool]:
        return lambda: all(o.attempts == n for o in outbox(svc))

    try:
        for raw in orders.values():
            mailbox.append(raw)
        await eventually(lambda: game(svc).round == 2, 20, "the round resolved (all orders in)")
        await eventually(attempts(1), 10, "a first attempt at every mail")
        rows = outbox(svc)
        assert [len(answers_to(svc, mid)) for mid in orders] == [1, 1, 1, 1]
        assert sum(o.kind == "report" for o in rows) == 1

        # A quarter of an hour passes, SMTP still down: every row is retried after 1, 2, 4
        # and 8 minutes, and stays pending.
        for n, minutes in enumerate((1, 2, 4, 8), start=2):
            clock.advance(minutes=minutes)
            await eventually(attempts(n), 10, f"attempt {n} at every mail")
        rows = outbox(svc)
        assert {o.status for o in rows} == {"pending"}, Counter(o.status for o in rows)
        assert all(o.last_error for o in rows)
        assert not task.done(), task

        # The server comes back; the last backoff (16 minutes) runs out.
        smtp.down = False
        clock.advance(minutes=17)
        await eventually(lambda: all(o.status == "sent" for o in outbox(svc)), 20, "every row sent")
        clock.advance(hours=1)  # later passes send nothing again
        await asyncio.sleep(1)
        assert not task.done(), task
    finally:
        await stop_serving(stop, task)
    rows = outbox(svc)
    assert [(o.status, o.attempts) for o in rows] == [("sent", 6)] * len(rows)
    assert len(rows) == len({o.message_id for o in rows})
    assert delivered(smtp) == per_recipient(rows), (
        "every queued mail delivered exactly once (to each of its recipients)"
    )
    assert all(replies_to(smtp, mid) == 1 for mid in orders)


# == 3. the database locked ======================================================================


@pytest.mark.timeout(60)
def test_database_locked_while_mails_arrive_and_a_round_is_due(
    tmp_path: Path,
    svc: Service,
    clock: FakeClock,
    games: Games,
    mailbox: MemoryMailbox,
    smtp: MemorySmtp,
    transports: Transports,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Another program holds the write lock for several busy timeouts while two players'
    orders arrive and the round's deadline passes. serve keeps running, each loop logs a
    warning and nothing is written; once the lock is gone both mails are taken in and
    answered once, and the round is resolved once, with one report."""
    caplog.set_level(logging.INFO, logger="pbm")
    games.start(cast=True)
    short_busy_timeout(svc)
    asyncio.run(_db_locked(svc, clock, DbLock(tmp_path / "pbm.db"), mailbox, smtp, transports))
    for prefix in ("imap: OperationalError", "clock: database", "outbox: database"):
        assert warnings(caplog, prefix), f"no warning {prefix!r}"


async def _db_locked(
    svc: Service,
    clock: FakeClock,
    lock: DbLock,
    mailbox: MemoryMailbox,
    smtp: MemorySmtp,
    transports: Transports,
) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(serve(fast(svc), stop, transports))
    orders = dict(order_mail(a) for a in (ANNA, BERND))
    try:
        # The setup's mails go out first (a lock between a send and its mark is another test).
        await eventually(
            lambda: all(o.status == "sent" for o in outbox(svc)), 20, "the setup's mails sent"
        )
        before = [(o.id, o.status, o.attempts) for o in outbox(svc)]
        await asyncio.to_thread(lock.take)
        for raw in orders.values():
            mailbox.append(raw)
        deadline = game(svc).deadline
        assert deadline is not None
        clock.advance(
            seconds=(
                deadline.replace(tzinfo=None) - clock.now().replace(tzinfo=None)
            ).total_seconds()
            + 60
        )
        await asyncio.sleep(5 * BUSY_TIMEOUT)
        assert not task.done(), task
        assert stored(svc, orders) == []
        assert game(svc).round == 1
        assert [(o.id, o.status, o.attempts) for o in outbox(svc)] == before
        lock.release()

        await eventually(
            lambda: game(svc).round == 2 and len(stored(svc, orders)) == 2,
            20,
            "the mails taken in and the round resolved",
        )
        await eventually(
            lambda: all(o.status == "sent" for o in outbox(svc)), 20, "everything sent"
        )
        await asyncio.sleep(1)  # time for anything that would happen twice
        assert not task.done(), task
        assert mailbox.unseen_count == 0
    finally:
        lock.close()
        await stop_serving(stop, task)
    assert [(m.message_id, m.status) for m in stored(svc, orders)] == [
        (mid, "done") for mid in orders
    ]
    for mid in orders:
        assert [a.status for a in answers_to(svc, mid)] == ["sent"]
        assert replies_to(smtp, mid) == 1
    assert len(round_records(svc, 1)) == 1
    assert sum(o.kind == "report" for o in outbox(svc)) == 1
    assert delivered(smtp) == per_recipient(outbox(svc))


@pytest.mark.timeout(40)
@pytest.mark.parametrize(
    "hold", [1.5, 4.0], ids=["released-during-quarantine", "held-past-quarantine"]
)
def test_database_locked_between_storing_and_processing_a_mail(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    hold: float,
    mailbox: MemoryMailbox,
    smtp: MemorySmtp,
    transports: Transports,
) -> None:
    """The lock comes right after a mail is stored (another program's transaction starts
    there) and lasts `hold` busy timeouts. Once it is gone, the mail must be processed and
    answered once, by the running service, like a mail that came in while the lock was held."""
    svc = signup_game(tmp_path, FakeClock())
    short_busy_timeout(svc)
    lock = DbLock(tmp_path / "pbm.db")

    def crashpoint(name: str) -> None:
        if name == "stored" and not lock.taken:
            lock.take(hold * BUSY_TIMEOUT)

    monkeypatch.setattr(ingest_module, "crashpoint", crashpoint)
    mid, raw = join_mail(1)

    async def run() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(serve(fast(svc), stop, transports))
        try:
            mailbox.append(raw)
            await eventually(lambda: lock.taken == 1 and not lock.held, 15, "the lock, and its end")
            for _ in range(100):
                if not mailbox.unseen_count:
                    break
                await asyncio.sleep(0.1)
            assert mailbox.unseen_count == 0, "the service is done with the mail"
            await asyncio.sleep(1)
            assert not task.done(), task
            mails = stored(svc)
            assert [(m.message_id, m.status) for m in mails] == [(mid, "done")], [
                (m.message_id, m.status, m.error[-200:]) for m in mails
            ]
            await eventually(lambda: replies_to(smtp, mid) == 1, 10, "the answer")
        finally:
            lock.close()
            await stop_serving(stop, task)

    try:
        asyncio.run(run())
    finally:
        svc.engine.dispose()


@pytest.mark.timeout(40)
def test_database_locked_between_sending_and_marking_sent(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mailbox: MemoryMailbox,
    smtp: MemorySmtp,
    transports: Transports,
) -> None:
    """The lock comes just after the SMTP server accepted an answer and lasts three busy
    timeouts; then the lease runs out (FakeClock). The answer must be delivered once."""
    clock = FakeClock()
    svc = signup_game(tmp_path, clock)
    short_busy_timeout(svc)
    lock = DbLock(tmp_path / "pbm.db")

    def crashpoint(name: str) -> None:
        if name == "smtp-sent" and not lock.taken:
            lock.take(3 * BUSY_TIMEOUT)

    monkeypatch.setattr(sending, "crashpoint", crashpoint)
    mid, raw = join_mail(1)

    async def run() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(serve(fast(svc), stop, transports))
        try:
            mailbox.append(raw)
            await eventually(lambda: lock.taken == 1 and not lock.held, 15, "the lock, and its end")
            await asyncio.sleep(1)
            clock.advance(seconds=LEASE.total_seconds() + 60)
            await eventually(
                lambda: [a.status for a in answers_to(svc, mid)] == ["sent"],
                10,
                "the answer marked sent",
            )
            await asyncio.sleep(1)
            assert not task.done(), task
        finally:
            lock.close()
            await stop_serving(stop, task)
        (answer,) = answers_to(svc, mid)
        assert delivered(smtp)[answer.message_id] == 1, "delivered exactly once"

    try:
        asyncio.run(run())
    finally:
        svc.engine.dispose()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("when", ["from-the-start", "after-the-first-mail"])
def test_poll_with_the_database_locked_fails_cleanly_then_the_next_poll_does_it_all(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    when: str,
    svc: Service,
    clock: FakeClock,
    games: Games,
    mailbox: MemoryMailbox,
    smtp: MemorySmtp,
    transports: Transports,
) -> None:
    """`pbm poll` (poll_once) meets a lock held past the busy timeout, from the start or from
    just after the first mail was taken in: it raises the database error (a failed cron run)
    and leaves no half-done work: every mail is either processed, answered into the outbox
    and flagged seen, or not stored and still unseen; the due round is not resolved and the
    outbox is not touched. The next poll, the lock gone, does the rest, each thing once."""
    games.start(cast=True)
    short_busy_timeout(svc)
    deadline = game(svc).deadline
    assert deadline is not None
    clock.advance(
        seconds=(deadline.replace(tzinfo=None) - clock.now().replace(tzinfo=None)).total_seconds()
        + 60
    )
    lock = DbLock(tmp_path / "pbm.db")
    taken_in = 0

    def crashpoint(name: str) -> None:
        nonlocal taken_in
        if name == "before-imap-flag":
            taken_in += 1
            if when == "after-the-first-mail" and not lock.taken:
                lock.take()

    monkeypatch.setattr(serve_module, "crashpoint", crashpoint)
    orders = dict(order_mail(a) for a in (ANNA, BERND))
    setup_rows = [(o.id, o.status, o.attempts) for o in outbox(svc)]
    assert {s for _, s, _ in setup_rows} == {"pending"}

    async def run() -> None:
        try:
            for raw in orders.values():
                mailbox.append(raw)
            if when == "from-the-start":
                await asyncio.to_thread(lock.take)
            with pytest.raises(DBAPIError, match="database is locked"):
                await poll_once(fast(svc), transports)
            first = 1 if when == "after-the-first-mail" else 0
            assert taken_in == first
            mails = stored(svc, orders)
            assert [(m.message_id, m.status) for m in mails] == [
                (mid, "done") for mid in list(orders)[:first]
            ]
            assert mailbox.unseen_count == 2 - first
            assert game(svc).round == 1, "the due round is not resolved"
            rows = outbox(svc)
            assert [(o.id, o.status, o.attempts) for o in rows[: len(setup_rows)]] == setup_rows
            assert [(o.status, o.attempts, o.in_reply_to) for o in rows[len(setup_rows) :]] == [
                ("pending", 0, mid) for mid in list(orders)[:first]
            ]
            assert smtp.attempts == []

            lock.release()
            result = await poll_once(fast(svc), transports)
            assert result["read"] == 2 - first
            assert (result["resolved"], result["retry"], result["failed"]) == (1, 0, 0)
            assert result["sent"] == len(outbox(svc))
            assert await poll_once(fast(svc), transports) == {
                "recovered": 0,
                "read": 0,
                "resolved": 0,
                "broken": 0,
                "sent": 0,
                "retry": 0,
                "failed": 0,
                "inbox_failed": 0,
            }
            assert mailbox.unseen_count == 0
        finally:
            lock.close()
        assert [(m.message_id, m.status) for m in stored(svc, orders)] == [
            (mid, "done") for mid in orders
        ]
        for mid in orders:
            assert len(answers_to(svc, mid)) == 1
            assert replies_to(smtp, mid) == 1
        assert game(svc).round == 2 and len(round_records(svc, 1)) == 1
        assert {o.status for o in outbox(svc)} == {"sent"}
        assert delivered(smtp) == per_recipient(outbox(svc))

    asyncio.run(run())
