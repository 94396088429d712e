"""The inbox against an IMAP server that dies and comes back, and against faults between storing
a mail and marking it seen.

End to end, against pymap on 127.0.0.1: the server's death is a TCP proxy in front of it cutting
every connection (optionally after an untagged `* BYE`, as a server shutting down cleanly says)
and closing the port; a new pymap with the same users then listens behind the same port. The
poller (`inbox_loop`) must reconnect with a new client, read what arrived meanwhile and never
take a mail into the game twice. The same reconnection, IDLE and the faults around the \\Seen
flag also run against the in-memory mailbox (pbm/mail/memory.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aioimaplib
import pytest
from harness import GM, eventually, make_service
from sqlmodel import Session, col, select

from pbm.config.model import ImapSection
from pbm.devservers.loopback import LoopbackImap
from pbm.mail.imap import ImapError, ImapInbox
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.transport import Inbox, Transports
from pbm.service import serve
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import create_game
from pbm.service.ingest import IngestResult, ingest
from pbm.service.serve import inbox_loop, read_inbox
from pbm.store.db import transaction
from pbm.store.models import InboundMail, Outbox

from .servers import KillableProxy

PW = "pw"


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[Service]:
    service = make_service(tmp_path, FakeClock())
    with transaction(service.engine) as session:
        create_game(service, session, "alpha", players=4, seed=7)
    yield service
    service.engine.dispose()


def join_mail(n: int, sender: str | None = None) -> bytes:
    """A signup for game alpha: answered with exactly one mail (in reply to it)."""
    sender = sender or f"p{n}@players.test"
    return (
        f"From: Spieler {n} <{sender}>\r\nTo: {GM}\r\nSubject: Anmeldung\r\n"
        f"Message-ID: <join-{n}@players.test>\r\nMIME-Version: 1.0\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n"
        f"Spiel: alpha\r\nName: Spieler {n}\r\nFarben: rot\r\n"
    ).encode()


def stored(svc: Service) -> list[InboundMail]:
    with Session(svc.engine) as session:
        return list(session.exec(select(InboundMail).order_by(col(InboundMail.id))))


def replies(svc: Service, n: int) -> list[Outbox]:
    with Session(svc.engine) as session:
        return list(
            session.exec(select(Outbox).where(Outbox.in_reply_to == f"<join-{n}@players.test>"))
        )


async def new_imap(port: int = 0) -> LoopbackImap:
    imap = LoopbackImap(port=port)
    await imap.start()
    await imap.add_user(GM, PW)
    return imap


async def uids(imap: LoopbackImap, folder: str = "INBOX", criteria: str = "ALL") -> list[str]:
    client = aioimaplib.IMAP4(host="127.0.0.1", port=imap.port, timeout=10)
    await client.wait_hello_from_server()
    await client.login(GM, PW)
    response = await client.select(folder)
    assert response.result == "OK", response
    found = await client.uid_search(criteria)
    await client.logout()
    return [
        x.decode()
        for line in found.lines[:-1]
        if isinstance(line, bytes)
        for x in line.split()
        if x.isdigit()
    ]


def config(port: int, **imap: object) -> dict[str, object]:
    imap.setdefault("timeout", 3.0)
    return {"port": port, "user": GM, "password": PW, **imap}


class GmBox:
    """The GM's mailbox, in memory or in pymap: mails appended, a new inbox (connection) to it,
    and the uids not seen yet."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.memory = MemoryMailbox(idle=False)
        self.imap: LoopbackImap | None = None

    async def start(self) -> None:
        if self.kind == "pymap":
            self.imap = await new_imap()

    async def append(self, raw: bytes) -> None:
        if self.imap is not None:
            await self.imap.append(GM, raw)
        else:
            self.memory.append(raw)

    def inbox(self) -> Inbox:
        if self.imap is not None:
            return ImapInbox(ImapSection.model_validate(config(self.imap.port, idle=False)))
        return self.memory.inbox()

    async def unseen(self) -> list[str]:
        if self.imap is not None:
            return await uids(self.imap, criteria="UNSEEN")
        return [u for u in await self._memory_unseen()]

    async def _memory_unseen(self) -> list[str]:
        box = self.memory.inbox()
        await box.connect()
        return await box.unseen()

    async def stop(self) -> None:
        if self.imap is not None:
            await self.imap.stop()


@pytest.fixture(params=["memory", pytest.param("pymap", marks=pytest.mark.e2e)])
def gm_box(request: pytest.FixtureRequest) -> GmBox:
    return GmBox(request.param)


# -- the server dies during IDLE ------------------------------------------------------------------


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(60)
@pytest.mark.parametrize("bye", [False, True], ids=["connection-reset", "bye"])
def test_server_dies_during_idle_and_comes_back(svc: Service, bye: bool) -> None:
    asyncio.run(_dies_during_idle(svc, bye))


async def _dies_during_idle(svc: Service, bye: bool) -> None:
    imap = await new_imap()
    proxy = KillableProxy(imap.port)
    await proxy.start()
    svc.config = svc.config.updated(imap=config(proxy.port), service={"poll_seconds": 2})
    stop = asyncio.Event()
    loop_task = asyncio.create_task(inbox_loop(svc, stop))
    try:
        await imap.append(GM, join_mail(1))
        await eventually(lambda: len(stored(svc)) == 1, 15, "the first mail")
        idles = proxy.idles
        await eventually(lambda: proxy.idles > idles, 10, "the poller to be in IDLE")

        # The server dies while the poller idles; a new one with the same users and the same
        # port comes up. Its mailbox holds the first mail again, unseen (the flag was lost),
        # and a second mail that arrived while the service was cut off.
        await proxy.kill(bye=bye)
        await imap.stop()
        await asyncio.sleep(1.5)  # the poller meets a closed port meanwhile
        assert not loop_task.done(), loop_task
        imap = await new_imap(imap.port)
        await imap.append(GM, join_mail(1))
        await imap.append(GM, join_mail(2))
        connections = proxy.connections
        started = time.monotonic()
        await proxy.revive(imap.port)

        await eventually(lambda: len(stored(svc)) == 2, 30, "the mail sent during the outage")
        assert proxy.connections > connections, "a new connection was made"
        assert time.monotonic() - started < 20
        # Both are marked seen on the new server: the first was recognised, not lost.
        for _ in range(100):
            if await uids(imap, criteria="UNSEEN") == []:
                break
            await asyncio.sleep(0.1)
        assert await uids(imap, criteria="UNSEEN") == []
    finally:
        stop.set()
        await asyncio.wait_for(loop_task, 15)
        await proxy.kill()
        await imap.stop()
    mails = stored(svc)
    assert [m.message_id for m in mails] == ["<join-1@players.test>", "<join-2@players.test>"]
    assert [m.status for m in mails] == ["done", "done"]
    assert len(replies(svc, 1)) == 1 and len(replies(svc, 2)) == 1


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(40)
def test_a_connection_cut_during_idle_is_noticed_without_waiting_out_the_idle(svc: Service) -> None:
    """The connection goes away in the middle of a long IDLE (a server restart, a NAT timeout):
    the poller notices it (aioimaplib reports the loss) and reconnects within seconds, not
    only when its IDLE period (here 30 s; up to 29 minutes in production) runs out."""

    async def run() -> None:
        imap = await new_imap()
        proxy = KillableProxy(imap.port)
        await proxy.start()
        svc.config = svc.config.updated(
            imap=config(proxy.port, timeout=2.0), service={"poll_seconds": 30}
        )
        stop = asyncio.Event()
        task = asyncio.create_task(inbox_loop(svc, stop))
        try:
            await eventually(lambda: proxy.idles >= 1, 10, "IDLE")
            await asyncio.sleep(0.3)
            await proxy.kill(keep_listening=True)
            await eventually(lambda: proxy.connections >= 2, 8, "a reconnection")
            await imap.append(GM, join_mail(1))
            await eventually(lambda: len(stored(svc)) == 1, 8, "the mail")
        finally:
            stop.set()
            await asyncio.wait_for(task, 15)
            await proxy.kill()
            await imap.stop()

    asyncio.run(run())


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.timeout(30)
def test_idle_takes_in_new_mail_without_waiting_for_the_poll_interval(svc: Service) -> None:
    async def run() -> None:
        imap = await new_imap()
        proxy = KillableProxy(imap.port)
        await proxy.start()
        svc.config = svc.config.updated(imap=config(proxy.port), service={"poll_seconds": 60})
        stop = asyncio.Event()
        task = asyncio.create_task(inbox_loop(svc, stop))
        try:
            await eventually(lambda: proxy.idles >= 1, 10, "IDLE")
            started = time.monotonic()
            await imap.append(GM, join_mail(1))
            await eventually(lambda: len(stored(svc)) == 1, 15, "the mail")
            assert time.monotonic() - started < 10
            # Stopping during IDLE ends the loop promptly and cleanly.
            started = time.monotonic()
            stop.set()
            await asyncio.wait_for(task, 15)
            assert time.monotonic() - started < 10
        finally:
            stop.set()
            await asyncio.wait_for(task, 15)
            await proxy.kill()
            await imap.stop()

    asyncio.run(run())


@pytest.mark.timeout(30)
def test_the_poller_reconnects_after_the_mailbox_goes_away_in_memory(svc: Service) -> None:
    """The in-memory twin of the tests above: the connection is cut while the poller waits,
    connecting is refused for a while, and mails arrive meanwhile; the poller makes new
    inboxes until one connects, then takes in what came, each mail once."""
    mailbox = MemoryMailbox()
    transports = Transports(inbox=mailbox.inbox, sender=MemorySmtp().sender)
    svc.config = svc.config.updated(service={"poll_seconds": 30})

    async def run() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(inbox_loop(svc, stop, transports))
        try:
            mailbox.append(join_mail(1))
            await eventually(lambda: len(stored(svc)) == 1, 10, "the first mail")
            await eventually(lambda: mailbox.waits >= 1, 10, "the poller waiting")
            started = time.monotonic()
            mailbox.down = True
            mailbox.cut()
            await asyncio.sleep(0.3)
            assert not task.done(), task
            mailbox.append(join_mail(2))
            connections = mailbox.connections
            mailbox.down = False
            await eventually(lambda: len(stored(svc)) == 2, 15, "the mail of the outage")
            assert mailbox.connections > connections, "a new connection was made"
            assert time.monotonic() - started < 10, "not waiting out the poll interval"
            # Stopping while it waits ends the loop promptly.
            started = time.monotonic()
            stop.set()
            await asyncio.wait_for(task, 10)
            assert time.monotonic() - started < 5
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)

    asyncio.run(run())
    assert [m.message_id for m in stored(svc)] == ["<join-1@players.test>", "<join-2@players.test>"]
    assert len(replies(svc, 1)) == 1 and len(replies(svc, 2)) == 1
    assert mailbox.unseen_count == 0


# -- nothing twice ---------------------------------------------------------------------------------


@pytest.mark.timeout(30)
@pytest.mark.parametrize("how", ["crash-before-flag", "stored-by-hand"])
def test_a_mail_fetched_again_after_a_crash_is_a_duplicate(
    svc: Service, monkeypatch: pytest.MonkeyPatch, how: str, gm_box: GmBox
) -> None:
    """Stored (and processed), then the process died before the \\Seen flag: the next pass
    fetches it again and recognises it by its Message-ID. One stored mail, one answer."""
    results: list[IngestResult] = []
    take_in = serve.take_in

    def spy(svc_: Service, raw: bytes, *args: Any) -> IngestResult:
        result = take_in(svc_, raw, *args)
        results.append(result)
        return result

    monkeypatch.setattr(serve, "take_in", spy)

    class Crash(BaseException):
        pass

    def crashpoint(name: str) -> None:
        if name == "before-imap-flag":
            raise Crash(name)

    async def run() -> None:
        await gm_box.start()
        try:
            await gm_box.append(join_mail(1))
            if how == "crash-before-flag":
                box = gm_box.inbox()
                await box.connect()
                monkeypatch.setattr(serve, "crashpoint", crashpoint)
                with pytest.raises(Crash):
                    await read_inbox(svc, box)
                monkeypatch.setattr(serve, "crashpoint", lambda name: None)
                await box.close()
            else:
                results.append(ingest(svc, join_mail(1)))
            assert await gm_box.unseen() != [], "not marked seen yet"

            box = gm_box.inbox()
            await box.connect()
            assert await read_inbox(svc, box) == 1
            await box.close()
            assert await gm_box.unseen() == []
        finally:
            await gm_box.stop()

    asyncio.run(run())
    assert [r.status for r in results] == ["done", "duplicate"]
    assert results[1].duplicate and results[1].mail_id == results[0].mail_id
    assert len(stored(svc)) == 1
    assert len(replies(svc, 1)) == 1


@pytest.mark.timeout(30)
def test_a_flag_failure_leaves_the_mail_for_the_next_pass(
    svc: Service, monkeypatch: pytest.MonkeyPatch, gm_box: GmBox
) -> None:
    """The STORE of \\Seen fails (the connection breaks there): the mail is stored and the
    next pass sees it again as a duplicate, and the mails after it are not skipped. (One mail
    per fetch and STORE here, so the STORE of the second mail is the one that fails; with
    several per command, all of that STORE's mails are seen again, each a duplicate.)"""
    monkeypatch.setattr(serve, "FETCH_BATCH", 1)

    async def run() -> None:
        await gm_box.start()
        try:
            for n in (1, 2, 3):
                await gm_box.append(join_mail(n))
            box = gm_box.inbox()
            await box.connect()
            calls = 0
            done_many = box.done_many

            async def failing_done(uids: list[str]) -> None:
                nonlocal calls
                calls += 1
                if calls == 2:
                    raise ImapError("BAD: connection broke")
                await done_many(uids)

            monkeypatch.setattr(box, "done_many", failing_done)
            with pytest.raises(ImapError):
                await read_inbox(svc, box)
            await box.close()
            box = gm_box.inbox()
            await box.connect()
            assert await read_inbox(svc, box) == 2
            await box.close()
            assert await gm_box.unseen() == []
        finally:
            await gm_box.stop()

    asyncio.run(run())
    assert [m.message_id for m in stored(svc)] == [f"<join-{n}@players.test>" for n in (1, 2, 3)]
    assert all(len(replies(svc, n)) == 1 for n in (1, 2, 3))


# -- the processed folder --------------------------------------------------------------------------


@pytest.mark.e2e
@pytest.mark.timeout(30)
@pytest.mark.parametrize("processed", ["Processed", ""])
def test_handled_mails_are_moved_to_the_processed_folder(svc: Service, processed: str) -> None:
    async def run() -> None:
        imap = await new_imap()
        try:
            for n in (1, 2, 3):
                await imap.append(GM, join_mail(n))
            svc.config = svc.config.updated(
                imap=config(imap.port, processed_folder=processed, idle=False)
            )
            box = ImapInbox(svc.config.imap)
            await box.connect()
            assert box.can_move
            assert await read_inbox(svc, box) == 3
            assert await read_inbox(svc, box) == 0
            await box.close()
            if processed:
                assert await uids(imap) == []
                assert len(await uids(imap, processed)) == 3
                assert await uids(imap, processed, "UNSEEN") == []
            else:
                assert len(await uids(imap)) == 3
                assert await uids(imap, criteria="UNSEEN") == []
            # A restart with the folder already there works as well.
            box = ImapInbox(svc.config.imap)
            await box.connect()
            await imap.append(GM, join_mail(4))
            read = 0
            for _ in range(50):  # pymap shows a new mail to a selected session a moment later
                read += await read_inbox(svc, box)
                if read:
                    break
                await asyncio.sleep(0.1)
            assert read == 1
            await box.close()
            if processed:
                assert len(await uids(imap, processed)) == 4
        finally:
            await imap.stop()

    asyncio.run(run())
    assert len(stored(svc)) == 4
