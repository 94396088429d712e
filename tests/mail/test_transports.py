"""The transport seams (pbm/mail/transport.py): what the in-memory inbox and sender promise (the
same outcomes as IMAP and SMTP), the service's loops over them, and the IMAP inbox's errors
as the transport's."""

from __future__ import annotations

import asyncio
import time
from email.message import EmailMessage

import aioimaplib
import pytest
from databases import inbound, outbox
from harness import GM, eventually

from pbm.config.model import ImapSection, Settings
from pbm.mail.imap import ImapError, ImapInbox
from pbm.mail.memory import MemoryMailbox, MemorySmtp
from pbm.mail.smtp import SmtpSession
from pbm.mail.transport import INBOX_ERRORS, TransportError, Transports
from pbm.service.context import Service
from pbm.service.games import create_game
from pbm.service.ingest import ingest
from pbm.service.serve import poll_once, serve, transports_for
from pbm.store.db import transaction


def message(to: str = "anna@web.test") -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = GM, to, "Grüße"
    msg["Message-ID"] = "<x1@pbm.test>"
    msg.set_content("Hallo\n")
    return msg


def join(n: int) -> bytes:
    return (
        f"From: p{n}@players.test\r\nTo: {GM}\r\nSubject: Anmeldung\r\n"
        f"Message-ID: <join-{n}@players.test>\r\n\r\n"
        f"Spiel: alpha\r\nName: Spieler {n}\r\nFarben: rot\r\n"
    ).encode()


# -- the inbox in memory -------------------------------------------------------------------------


def test_the_memory_inbox_lists_fetches_and_marks_done() -> None:
    async def run() -> None:
        mailbox = MemoryMailbox()
        first, second = mailbox.append(b"one"), mailbox.append(b"two")
        box = mailbox.inbox()
        await box.connect()
        assert await box.unseen() == [first, second]
        assert await box.fetch(second) == b"two"
        assert await box.unseen() == [first, second], "fetching leaves a mail unseen"
        await box.done(first)
        assert await box.unseen() == [second]
        assert mailbox.seen == [first] and mailbox.unseen_count == 1
        assert await box.fetch("99") is None
        await box.close()

    asyncio.run(run())


def test_the_memory_inbox_fails_as_told() -> None:
    async def run() -> None:
        mailbox = MemoryMailbox()
        mailbox.down = True
        with pytest.raises(ConnectionRefusedError):
            await mailbox.inbox().connect()
        mailbox.down = False
        mailbox.fail("fetch", error=TimeoutError("slow"))
        mailbox.fail("unseen")
        box = mailbox.inbox()
        await box.connect()
        with pytest.raises(TransportError, match="injected failure: unseen"):
            await box.unseen()
        uid = mailbox.append(b"x")
        with pytest.raises(TimeoutError):
            await box.fetch(uid)
        assert await box.fetch(uid) == b"x", "a failure is injected only as often as told"
        mailbox.cut()
        with pytest.raises(TransportError, match="connection lost"):
            await box.done(uid)
        assert issubclass(ConnectionRefusedError, INBOX_ERRORS)

    asyncio.run(run())


def test_the_memory_inbox_waits_for_news_like_idle() -> None:
    async def run() -> None:
        mailbox = MemoryMailbox()
        box = mailbox.inbox()
        await box.connect()
        await box.unseen()
        started = time.monotonic()
        waiting = asyncio.create_task(box.wait(30))
        await asyncio.sleep(0.05)
        mailbox.append(b"news")
        await asyncio.wait_for(waiting, 5)
        assert time.monotonic() - started < 2, "IDLE returns on news"
        # Cut during the wait: noticed at once, as aioimaplib's lost connection is.
        await box.unseen()
        waiting = asyncio.create_task(box.wait(30))
        await asyncio.sleep(0.05)
        mailbox.cut()
        with pytest.raises(TransportError, match="during IDLE"):
            await asyncio.wait_for(waiting, 5)
        # Without IDLE the whole time is waited.
        polling = MemoryMailbox(idle=False)
        box = polling.inbox()
        await box.connect()
        started = time.monotonic()
        polling.append(b"news")
        await box.wait(0.3)
        assert time.monotonic() - started >= 0.3
        assert mailbox.waits == 2 and polling.waits == 1

    asyncio.run(run())


# -- the sender in memory ------------------------------------------------------------------------


def test_the_memory_sender_answers_as_smtp_does() -> None:
    async def run() -> None:
        smtp = MemorySmtp(from_address=GM)
        sender = smtp.sender()
        assert sender.from_address == GM
        assert (await sender.deliver(message(), GM, ["anna@web.test"])).outcome == "sent"
        smtp.fail(451, "try later")
        later = await sender.deliver(message(), GM, ["anna@web.test"])
        assert (later.outcome, later.error, later.connection) == ("retry", "451 try later", False)
        smtp.fail(550, "rejected", at="RCPT")
        refused = await sender.deliver(message(), GM, ["anna@web.test"])
        assert refused.outcome == "failed" and "550" in refused.error
        smtp.refuse("bernd@web.test", 550, "no such user")
        partial = await sender.deliver(message(), GM, ["anna@web.test", "bernd@web.test"])
        assert partial.outcome == "partial"
        assert partial.refused == {"bernd@web.test": (550, "no such user")}
        smtp.allow("bernd@web.test")
        smtp.cut()
        cut = await sender.deliver(message(), GM, ["bernd@web.test"])
        assert (cut.outcome, cut.connection) == ("retry", True)
        bad = await sender.deliver(message(), GM, ["a b@x.test"])
        assert bad.outcome == "failed" and bad.error.startswith("not sendable")
        await sender.close()
        # What it took, with the connection each came over: a new one after every error.
        assert [(m.rcpt_tos, m.connection) for m in smtp.accepted] == [
            (["anna@web.test"], 1),
            (["anna@web.test"], 3),
        ]
        assert smtp.to("anna@web.test")[0].text == "Hallo\n"
        assert smtp.rcpt_calls == {"anna@web.test": 4, "bernd@web.test": 1}
        assert smtp.unreachable == 1

    asyncio.run(run())


# -- the service over them -----------------------------------------------------------------------


@pytest.fixture
def alpha(svc: Service) -> Service:
    with transaction(svc.engine) as session:
        create_game(svc, session, "alpha", players=4, seed=7)
    return svc


def test_serve_takes_in_answers_and_stops_over_the_memory_transports(
    alpha: Service, mailbox: MemoryMailbox, smtp: MemorySmtp, transports: Transports
) -> None:
    async def run() -> None:
        stop = asyncio.Event()
        alpha.config = alpha.config.updated(
            service={"poll_seconds": 30, "tick_seconds": 30, "send_seconds": 0.05}
        )
        task = asyncio.create_task(serve(alpha, stop, transports))
        mailbox.append(join(1))
        await eventually(lambda: bool(smtp.to("p1@players.test")), 10, "the answer")
        mailbox.append(join(2))  # taken in while the inbox waits (IDLE), not after 30 s
        await eventually(lambda: bool(smtp.to("p2@players.test")), 10, "the second answer")
        started = time.monotonic()
        stop.set()
        await asyncio.wait_for(task, 10)
        assert time.monotonic() - started < 2

    asyncio.run(run())
    assert [m.status for m in inbound(alpha)] == ["done", "done"]
    assert mailbox.unseen_count == 0 and mailbox.connections == 1
    (answer,) = smtp.to("p1@players.test")
    assert answer.message["In-Reply-To"] == "<join-1@players.test>"
    assert answer.mail_from == GM


def test_poll_goes_on_to_the_outbox_when_the_inbox_is_down(
    alpha: Service, mailbox: MemoryMailbox, smtp: MemorySmtp, transports: Transports
) -> None:
    assert ingest(alpha, join(1)).status == "done"
    mailbox.down = True
    result = asyncio.run(poll_once(alpha, transports))
    assert (result["read"], result["sent"], result["inbox_failed"]) == (0, 1, 1)
    assert [o.status for o in outbox(alpha)] == ["sent"]
    assert len(smtp.accepted) == 1


def test_the_transports_of_a_config_are_imap_and_smtp() -> None:
    settings = Settings().updated(imap={"port": 1143}, smtp={"port": 2525, "from": GM})
    transports = transports_for(settings)
    inbox, sender = transports.inbox(), transports.sender()
    assert isinstance(inbox, ImapInbox) and inbox.where == "127.0.0.1:1143"
    assert isinstance(sender, SmtpSession) and sender.from_address == GM


def test_aioimaplib_errors_come_out_as_the_transports() -> None:
    """The loops know only `INBOX_ERRORS`: aioimaplib's own exceptions become `ImapError`."""

    class Aborting:
        async def uid_search(self, *args: object) -> object:
            raise aioimaplib.Abort("server said BYE")

    box = ImapInbox(ImapSection())
    box.client = Aborting()  # type: ignore[assignment]
    with pytest.raises(ImapError, match="Abort: server said BYE") as raised:
        asyncio.run(box.unseen())
    assert isinstance(raised.value, INBOX_ERRORS)
