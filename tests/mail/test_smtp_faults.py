"""The outbox sender against an SMTP server that misbehaves on purpose: temporary refusals (4xx)
then acceptance, permanent refusals (5xx), a crash between the send and the mark; and what a sent
message looks like. Each runs against the in-memory server and (marked e2e) against aiosmtpd on
127.0.0.1 (the `outgoing` fixture, tests/mail/conftest.py). Against aiosmtpd alone: nothing
listening, a server that never answers, one connection per pass and a limit per connection.

The time of the service is a FakeClock: a retry happens only once the clock has passed the row's
`next_attempt`, so the backoff is seen exactly.
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass
from datetime import timedelta
from email.utils import parseaddr, parsedate_to_datetime
from pathlib import Path

import pytest
from aiosmtpd.smtp import SMTP, Envelope, Session
from harness import GM, make_service
from sqlmodel import Session as DbSession

from pbm.config.model import SmtpSection
from pbm.devservers.loopback import free_port
from pbm.mail.inbound import parse_inbound
from pbm.mail.outgoing import LOOP_HEADER
from pbm.mail.smtp import SmtpSession
from pbm.service import sending
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.outbox import enqueue
from pbm.service.sending import LEASE, backoff, send_pending
from pbm.store.db import transaction
from pbm.store.models import Outbox

from .servers import FlakyHandler, Outgoing, PeerHandler, smtp_server

pytestmark = pytest.mark.timeout(60)

PLAYER = "anna.mueller@web.test"
OTHER = "bernd.schaefer@firma.test"
BODY = (
    "Angenommen:\n    1  Kennwort: ****\n    2  Straße C3 C4 (10H 3W)\n\nGrüße, Ihr Spielleiter\n"
)


def queue(
    svc: Service,
    kind: str = "ack",
    to: tuple[str, ...] = (PLAYER,),
    in_reply_to: str = "<orders-1@web.test>",
    subject: str = "[alpha] Züge erhalten",
    body: str = BODY,
) -> int:
    with transaction(svc.engine) as session:
        row = enqueue(svc, session, kind, to, subject, body, in_reply_to=in_reply_to)
        session.flush()
        assert row.id is not None
        return row.id


def row(svc: Service, row_id: int) -> Outbox:
    with DbSession(svc.engine) as session:
        found = session.get(Outbox, row_id)
        assert found is not None
        return found


def send(svc: Service, port: int, **kw: object) -> sending.SendResult:
    cfg = SmtpSection.model_validate({"port": port, "timeout": 5.0, **kw})
    return asyncio.run(send_pending(svc, lambda: SmtpSession(cfg)))


def due_in(svc: Service, clock: FakeClock, row_id: int) -> timedelta:
    next_attempt = row(svc, row_id).next_attempt
    assert next_attempt is not None
    return next_attempt.replace(tzinfo=None) - clock.now().replace(tzinfo=None)


# -- temporary refusals ------------------------------------------------------------------------


@pytest.mark.parametrize("at", ["DATA", "RCPT"])
def test_4xx_twice_then_accepted_is_delivered_once(
    svc: Service, clock: FakeClock, at: str, outgoing: Outgoing
) -> None:
    handler = outgoing.start(failures=2, at=at)
    row_id = queue(svc)
    message_id = row(svc, row_id).message_id
    first = handler.send(svc)
    assert first.retry == [row_id] and not first.sent
    r = row(svc, row_id)
    assert (r.status, r.attempts) == ("pending", 1)
    assert "451" in r.last_error
    assert due_in(svc, clock, row_id) == backoff(1) == timedelta(minutes=1)

    # Not due yet: nothing is tried.
    clock.advance(seconds=59)
    assert handler.send(svc).retry == []
    assert len(handler.data_attempts) + sum(handler.rcpt_calls.values()) <= 2

    clock.advance(seconds=2)
    assert handler.send(svc).retry == [row_id]
    assert row(svc, row_id).attempts == 2
    assert due_in(svc, clock, row_id) == backoff(2) == timedelta(minutes=2)

    clock.advance(seconds=61)
    assert handler.send(svc).sent == []  # still backing off
    clock.advance(seconds=60)
    assert handler.send(svc).sent == [row_id]

    # Sent rows are never sent again, whatever the clock says.
    clock.advance(hours=7)
    assert handler.send(svc).sent == []

    r = row(svc, row_id)
    assert (r.status, r.attempts, r.last_error) == ("sent", 3, "")
    assert r.sent_at is not None
    assert len(handler.accepted) == 1
    assert handler.accepted[0].rcpt_tos == [PLAYER]
    ids = {a.message["Message-ID"] for a in handler.data_attempts}
    assert ids == {message_id}, "every attempt carries the row's own Message-ID"


def test_backoff_grows_and_is_capped() -> None:
    assert [backoff(n) for n in (1, 2, 3, 4)] == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert backoff(30) == timedelta(hours=6)


def test_a_recipient_refused_for_now_still_gets_the_report(
    svc: Service, clock: FakeClock, outgoing: Outgoing
) -> None:
    """A report to two players; the first RCPT of one of them is answered 451. That player
    must get the report all the same (after a retry), not lose it silently."""
    handler = outgoing.start(refuse={OTHER: "451 4.2.1 mailbox busy"}, refuse_times=1)
    row_id = queue(svc, "report", (PLAYER, OTHER), in_reply_to="", subject="[alpha] Bericht")
    handler.send(svc)
    for _ in range(5):
        clock.advance(hours=1)
        handler.send(svc)
    got = [rcpt for a in handler.accepted for rcpt in a.rcpt_tos]
    r = row(svc, row_id)
    assert OTHER in got, f"{OTHER} never got the report; row {(r.status, r.attempts, r.last_error)}"
    assert got.count(OTHER) == 1


def test_a_recipient_refused_for_good_is_visible_to_the_gm(
    svc: Service, outgoing: Outgoing
) -> None:
    handler = outgoing.start(refuse={OTHER: "550 5.1.1 no such user"})
    row_id = queue(svc, "report", (PLAYER, OTHER), in_reply_to="", subject="[alpha] Bericht")
    handler.send(svc)
    assert [a.rcpt_tos for a in handler.accepted] == [[PLAYER]]
    r = row(svc, row_id)
    assert OTHER in r.last_error, (
        f"the refused recipient is not recorded: {(r.status, r.attempts, r.last_error)}"
    )


# -- permanent refusals -------------------------------------------------------------------------


@pytest.mark.parametrize("at", ["DATA", "RCPT"])
def test_5xx_marks_the_row_failed(
    svc: Service, clock: FakeClock, at: str, outgoing: Outgoing
) -> None:
    handler = outgoing.start(failures=100, at=at, code="550 5.7.1 message rejected")
    row_id = queue(svc)
    result = handler.send(svc)
    assert result.failed == [row_id]
    clock.advance(hours=7)
    assert handler.send(svc).failed == []  # never tried again
    r = row(svc, row_id)
    assert (r.status, r.attempts) == ("failed", 1)
    assert "550" in r.last_error
    assert handler.accepted == []


def test_one_failed_row_does_not_stop_the_others(svc: Service, outgoing: Outgoing) -> None:
    handler = outgoing.start(refuse={"nobody@web.test": "550 5.1.1 no such user"})
    bad = queue(svc, to=("nobody@web.test",))
    good = queue(svc)
    result = handler.send(svc)
    assert (result.failed, result.sent) == ([bad], [good])


# -- no server ------------------------------------------------------------------------------------


@pytest.mark.e2e
def test_nothing_listening_is_temporary_then_delivered(svc: Service, clock: FakeClock) -> None:
    port = free_port()
    row_id = queue(svc)
    result = send(svc, port)
    assert result.retry == [row_id]
    r = row(svc, row_id)
    assert r.status == "pending" and r.attempts == 1 and r.last_error
    handler = FlakyHandler()
    with smtp_server(handler, port):
        assert send(svc, port).sent == []  # not due yet
        clock.advance(minutes=1, seconds=1)
        assert send(svc, port).sent == [row_id]
    assert len(handler.accepted) == 1


@pytest.mark.e2e
def test_a_server_that_never_answers_is_temporary(svc: Service) -> None:
    """Connects, then silence (no greeting): the send times out and is retried later."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    try:
        row_id = queue(svc)
        result = send(svc, listener.getsockname()[1], timeout=1.0)
        assert result.retry == [row_id]
        assert row(svc, row_id).status == "pending"
    finally:
        listener.close()


# -- a crash between the send and the mark ---------------------------------------------------------


def test_crash_after_sending_resends_the_same_message_id_after_the_lease(
    svc: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, outgoing: Outgoing
) -> None:
    class Crash(BaseException):
        pass

    def crashpoint(name: str) -> None:
        if name == "smtp-sent":
            raise Crash(name)

    handler = outgoing.start()
    row_id = queue(svc)
    monkeypatch.setattr(sending, "crashpoint", crashpoint)
    with pytest.raises(Crash):
        handler.send(svc)
    monkeypatch.undo()
    assert row(svc, row_id).status == "pending"
    clock.advance(seconds=LEASE.total_seconds() - 1)
    assert handler.send(svc).sent == []  # still leased to the crashed worker
    clock.advance(seconds=2)
    assert handler.send(svc).sent == [row_id]
    assert len(handler.accepted) == 2
    ids = [a.message["Message-ID"] for a in handler.accepted]
    assert ids[0] == ids[1] == row(svc, row_id).message_id


# -- what is sent ---------------------------------------------------------------------------------


def test_an_answer_is_auto_replied_threaded_utf8_from_the_config(
    tmp_path: Path, outgoing: Outgoing
) -> None:
    clock = FakeClock()
    svc = make_service(tmp_path, clock, name="Spielleiter Jürgen Weiß")
    created = clock.now()
    row_id = queue(
        svc, "ack", in_reply_to="<orders-1@web.test>", subject="[alpha] Züge erhalten, Runde 1"
    )
    clock.advance(hours=3)  # sent later than queued: the Date is the queueing time
    handler = outgoing.start()
    assert handler.send(svc).sent == [row_id]
    (attempt,) = handler.accepted
    msg = attempt.message
    assert attempt.mail_from == GM
    assert attempt.rcpt_tos == [PLAYER]
    assert parseaddr(str(msg["From"])) == ("Spielleiter Jürgen Weiß", GM)
    assert str(msg["To"]) == PLAYER
    assert str(msg["Subject"]) == "[alpha] Züge erhalten, Runde 1"
    assert msg["Message-ID"] == row(svc, row_id).message_id
    assert msg["Message-ID"].endswith("@pbm.test>")
    assert msg["In-Reply-To"] == "<orders-1@web.test>"
    assert msg["References"] == "<orders-1@web.test>"
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg[LOOP_HEADER] == GM
    assert msg["MIME-Version"] == "1.0"
    date = parsedate_to_datetime(str(msg["Date"]))
    assert date.tzinfo is not None, f"Date without a zone: {msg['Date']}"
    assert date == created
    assert msg.get_content_type() in ("text/plain", "multipart/alternative")
    assert attempt.text == BODY
    attempt.check_utf8_parts()
    # Our own mail coming back (a forward, a misconfigured alias) is never answered.
    assert parse_inbound(attempt.raw, GM).no_reply


def test_a_report_is_auto_generated_and_not_threaded(svc: Service, outgoing: Outgoing) -> None:
    row_id = queue(
        svc,
        "report",
        (PLAYER, OTHER),
        in_reply_to="",
        subject="[alpha] Bericht Runde 1",
        body="Wurf für rot: 8\nÄrger über Räuber\n",
    )
    handler = outgoing.start()
    assert handler.send(svc, from_address="spiel@pbm.test").sent == [row_id]
    # One message per recipient, each showing only its own address.
    assert sorted(tuple(a.rcpt_tos) for a in handler.accepted) == sorted([(PLAYER,), (OTHER,)])
    for attempt in handler.accepted:
        msg = attempt.message
        assert attempt.mail_from == "spiel@pbm.test"
        assert [parseaddr(str(msg["To"]))[1]] == attempt.rcpt_tos
        assert msg["Cc"] is None and msg["Bcc"] is None
        assert parseaddr(str(msg["From"]))[1] == "spiel@pbm.test"
        assert msg["Auto-Submitted"] == "auto-generated"
        assert msg["In-Reply-To"] is None and msg["References"] is None
        assert msg[LOOP_HEADER]
        assert attempt.text == "Wurf für rot: 8\nÄrger über Räuber\n"
        attempt.check_utf8_parts()


# -- one connection per pass ------------------------------------------------------------------


def test_a_pass_sends_over_one_connection_and_reconnects_after_a_refusal(
    svc: Service, outgoing: Outgoing
) -> None:
    handler = outgoing.start(refuse={"nobody@web.test": "550 5.1.1 no such user"})
    first = [queue(svc) for _ in range(3)]
    bad = queue(svc, to=("nobody@web.test",))
    then = [queue(svc) for _ in range(3)]
    result = handler.send(svc)
    assert result.sent == first + then and result.failed == [bad]
    assert len(handler.accepted) == 6
    # The three before the refusal share a connection, the three after it share a new one.
    assert len(set(handler.peers[:3])) == 1 and len(set(handler.peers[3:])) == 1
    assert handler.peers[0] != handler.peers[3]


@dataclass
class PerConnectionLimit(PeerHandler):
    """Refuses the third message on a connection for now, as OpenSMTPD does the 101st."""

    per_connection: int = 2

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        count = getattr(session, "pbm_count", 0) + 1
        session.pbm_count = count  # type: ignore[attr-defined]
        if count > self.per_connection:
            return "452 4.5.3 too many messages on this connection"
        return await super().handle_DATA(server, session, envelope)


@pytest.mark.e2e
def test_a_limit_per_connection_is_met_by_a_new_connection_at_once(svc: Service) -> None:
    handler = PerConnectionLimit()
    rows = [queue(svc) for _ in range(5)]
    with smtp_server(handler) as port:
        result = send(svc, port)
    assert result.sent == rows and result.retry == []
    assert len(handler.accepted) == 5
    assert len(set(handler.peers)) == 3  # 2 + 2 + 1
