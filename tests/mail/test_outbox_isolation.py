"""The outbox against an SMTP server (in memory, and aiosmtpd on 127.0.0.1 marked e2e: the
`outgoing` fixture of tests/mail/conftest.py): one row's fault fails that row alone, a report
goes to each recipient as a message of its own, partial outcomes split the row, and a password
travels only as long as it must.

Poisoned rows are enqueued directly (values no answer of the service would hold today, but a
stored row may hold anything): a stranger's Message-ID with line separators as In-Reply-To, a
subject with line breaks, a recipient the SMTP client refuses, and a row whose message cannot
be built at all (`build_message` made to raise for it).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from harness import GM
from sqlmodel import Session, col, select
from typer.testing import CliRunner

from pbm.cli import app
from pbm.config.model import SmtpSection
from pbm.devservers.loopback import free_port
from pbm.mail.memory import MemorySmtp
from pbm.mail.outgoing import PASSWORD_PLACEHOLDER, build_message
from pbm.mail.smtp import SmtpSession
from pbm.service import sending
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.outbox import enqueue
from pbm.service.sending import LEASE, SendResult, send_pending
from pbm.store.db import transaction
from pbm.store.models import Outbox

from .servers import Attempt, FlakyHandler, Outgoing, smtp_server

pytestmark = pytest.mark.timeout(60)

ANNA = "anna.mueller@web.test"
BERND = "bernd.schaefer@firma.test"
CARLA = "carla.rossi@gmail.test"
PASSWORD = "rot-482913"
WELCOME = f"Willkommen!\n\nIhr Kennwort: {PASSWORD_PLACEHOLDER}\n\nGrüße, Ihr Spielleiter\n"


@pytest.fixture
def clock() -> FakeClock:
    # The command line's `outbox retry` sets the next attempt by the real clock.
    return FakeClock(datetime.now(UTC))


def queue(
    svc: Service,
    to: tuple[str, ...],
    subject: str = "[alpha] Bericht Runde 1",
    body: str = "Wurf für rot: 8\n",
    kind: str = "report",
    in_reply_to: str = "",
    secret: str = "",
    limited: bool = True,
) -> int:
    with transaction(svc.engine) as session:
        row = enqueue(svc, session, kind, to, subject, body, in_reply_to=in_reply_to)
        row.secret, row.limited = secret, limited
        session.flush()
        assert row.id is not None
        return row.id


def rows(svc: Service) -> list[Outbox]:
    with Session(svc.engine) as session:
        return list(session.exec(select(Outbox).order_by(col(Outbox.id))))


def row(svc: Service, row_id: int) -> Outbox:
    (found,) = [r for r in rows(svc) if r.id == row_id]
    return found


def send(svc: Service, port: int, timeout: float = 5.0) -> SendResult:
    smtp = SmtpSection.model_validate({"port": port, "timeout": timeout, "from": GM})
    return asyncio.run(send_pending(svc, lambda: SmtpSession(smtp)))


def headers(attempt: Attempt) -> str:
    return attempt.raw.split(b"\r\n\r\n", 1)[0].decode("utf-8", "replace")


def by_recipient(handler: FlakyHandler | Outgoing) -> dict[str, list[Attempt]]:
    got: dict[str, list[Attempt]] = {}
    for attempt in handler.accepted:
        assert len(attempt.rcpt_tos) == 1, attempt.rcpt_tos
        got.setdefault(attempt.rcpt_tos[0], []).append(attempt)
    return got


# -- one message per recipient ---------------------------------------------------------------------


def test_a_report_to_three_arrives_as_three_messages_each_to_its_reader(
    svc: Service, outgoing: Outgoing
) -> None:
    handler = outgoing.start()
    row_id = queue(svc, (ANNA, BERND, CARLA))
    assert handler.send(svc, from_address=GM).sent == [row_id]
    got = by_recipient(handler)
    assert sorted(got) == [ANNA, BERND, CARLA]
    message_id = row(svc, row_id).message_id
    for address, (attempt,) in got.items():
        assert str(attempt.message["To"]) == address
        others = {ANNA, BERND, CARLA} - {address}
        assert not any(o in headers(attempt) for o in others), headers(attempt)
        assert attempt.message["Message-ID"] == message_id
        assert attempt.text == "Wurf für rot: 8\n"
    assert len(set(handler.peers)) == 1, "over one connection"
    r = row(svc, row_id)
    assert (r.status, r.recipients, r.attempts, r.last_error) == (
        "sent",
        f"{ANNA},{BERND},{CARLA}",
        1,
        "",
    )


def test_refused_recipients_get_rows_of_their_own(
    svc: Service, clock: FakeClock, outgoing: Outgoing
) -> None:
    """Anna's mailbox takes the mail, Bernd's does not exist (550), Carla's is full for now
    (451): the row is sent for Anna; Bernd gets a failed row (for the GM: `pbm outbox retry`),
    Carla a pending one that is retried after the backoff. The rows carry the secret the mail
    still needs, and the rate-limit flag; the sent row keeps no secret."""
    handler = outgoing.start(
        refuse={BERND: "550 5.1.1 no such user", CARLA: "451 4.2.1 mailbox full"}
    )
    row_id = queue(
        svc,
        (ANNA, BERND, CARLA),
        "[alpha] Willkommen",
        WELCOME,
        "welcome",
        secret=PASSWORD,
        limited=False,
    )
    assert handler.send(svc, from_address=GM).sent == [row_id]
    first = rows(svc)
    original, *split = first
    assert (original.status, original.recipients, original.secret) == ("sent", ANNA, "")
    assert BERND in original.last_error and CARLA in original.last_error
    assert [(r.recipients, r.status, r.secret, r.limited, r.kind) for r in split] == [
        (BERND, "failed", PASSWORD, False, "welcome"),
        (CARLA, "pending", PASSWORD, False, "welcome"),
    ]
    assert "550" in split[0].last_error and "451" in split[1].last_error
    assert all(PASSWORD not in r.body and PASSWORD_PLACEHOLDER in r.body for r in first)

    bernd_row, carla_row = (r.id for r in split)
    assert bernd_row is not None and carla_row is not None
    # Carla's mailbox has room again; her row goes out after its backoff, by itself.
    handler.allow(CARLA)
    assert handler.send(svc, from_address=GM).sent == []
    clock.advance(minutes=5)
    assert handler.send(svc, from_address=GM).sent == [carla_row]
    assert row(svc, carla_row).secret == ""

    got = by_recipient(handler)
    assert sorted(got) == [ANNA, CARLA]
    for address in (ANNA, CARLA):
        (attempt,) = got[address]
        assert f"Ihr Kennwort: {PASSWORD}\n" in attempt.text
        assert PASSWORD_PLACEHOLDER not in attempt.raw.decode("utf-8", "replace")
        html = attempt.message.get_body(preferencelist=("html",))
        assert isinstance(html, EmailMessage) and PASSWORD in str(html.get_content())
    assert row(svc, bernd_row).status == "failed", "a 5xx is not retried by itself"


class Crash(BaseException):
    """A kill at a crash point, in process (`faults.crashpoint`; tests/service/test_crash.py
    kills a real process)."""


def _crash_at(monkeypatch: pytest.MonkeyPatch, point: str, times: int = 1) -> list[str]:
    """Crash at the `times`-th pass through `point`; returns the points passed."""
    passed: list[str] = []

    def crashpoint(name: str) -> None:
        passed.append(name)
        if name == point and passed.count(point) == times:
            raise Crash(name)

    monkeypatch.setattr(sending, "crashpoint", crashpoint)
    return passed


def test_a_crash_between_send_and_mark_resends_to_the_last_recipient_once(
    svc: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, outgoing: Outgoing
) -> None:
    """Killed after the last recipient's message went out and before the row was marked:
    that one gets it again (with the same Message-ID); the ones before were recorded as each
    was served, and are not sent to again."""
    handler = outgoing.start()
    row_id = queue(svc, (ANNA, BERND, CARLA))
    _crash_at(monkeypatch, "smtp-sent")
    with pytest.raises(Crash):
        handler.send(svc, from_address=GM)
    monkeypatch.undo()
    r = row(svc, row_id)
    assert (r.status, r.delivered) == ("pending", f"{ANNA},{BERND}")
    assert handler.send(svc, from_address=GM).sent == [], "still leased to the crashed worker"
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert handler.send(svc, from_address=GM).sent == [row_id]
    got = by_recipient(handler)
    assert Counter({a: len(m) for a, m in got.items()}) == Counter({ANNA: 1, BERND: 1, CARLA: 2}), (
        "once more for the one kill, to the one not yet recorded"
    )
    assert {a.message["Message-ID"] for a in handler.accepted} == {row(svc, row_id).message_id}
    r = row(svc, row_id)
    assert (r.status, r.recipients, r.delivered, r.claimed_by) == (
        "sent",
        f"{ANNA},{BERND},{CARLA}",
        "",
        "",
    )


@pytest.mark.parametrize("kill", [1, 2], ids=["after-the-first", "after-the-second"])
def test_an_announcement_killed_between_two_recipients_goes_only_to_the_others(
    svc: Service,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    outgoing: Outgoing,
    kill: int,
) -> None:
    """A row for several recipients (a GM announcement), its sender killed after `kill` of
    them were served: after the lease it goes to the rest only, never twice to anyone."""
    handler = outgoing.start()
    everyone = (ANNA, BERND, CARLA, "dora@mail.test")
    row_id = queue(svc, everyone, "[alpha] Ansage", "Morgen ist Pause.\n", "gm_notice")
    passed = _crash_at(monkeypatch, "smtp-recipient-sent", times=kill)
    with pytest.raises(Crash):
        handler.send(svc, from_address=GM)
    monkeypatch.undo()
    assert passed == ["smtp-recipient-sent"] * kill
    assert sorted(by_recipient(handler)) == sorted(everyone[:kill])
    assert row(svc, row_id).delivered == ",".join(everyone[:kill])
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert handler.send(svc, from_address=GM).sent == [row_id]
    got = by_recipient(handler)
    assert Counter({a: len(m) for a, m in got.items()}) == Counter(dict.fromkeys(everyone, 1))
    r = row(svc, row_id)
    assert (r.status, r.recipients, r.delivered) == ("sent", ",".join(everyone), "")
    assert len(rows(svc)) == 1


def test_a_partly_served_row_split_by_a_refusal_keeps_the_served_as_sent(
    svc: Service, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, outgoing: Outgoing
) -> None:
    """Killed after Anna was served; the next attempt finds Carla's mailbox full (451): the
    row counts as sent for Anna and Bernd, Carla gets a row of her own, and nobody gets the
    message twice."""
    handler = outgoing.start(refuse={CARLA: "451 4.2.2 mailbox full"})
    row_id = queue(svc, (ANNA, BERND, CARLA))
    _crash_at(monkeypatch, "smtp-recipient-sent")
    with pytest.raises(Crash):
        handler.send(svc, from_address=GM)
    monkeypatch.undo()
    clock.advance(seconds=LEASE.total_seconds() + 1)
    assert handler.send(svc, from_address=GM).sent == [row_id]
    original, carla = rows(svc)
    assert (original.status, original.recipients, original.delivered) == (
        "sent",
        f"{ANNA},{BERND}",
        "",
    )
    assert (carla.recipients, carla.status) == (CARLA, "pending")
    handler.allow(CARLA)
    clock.advance(minutes=5)
    assert handler.send(svc, from_address=GM).sent == [carla.id]
    got = by_recipient(handler)
    assert Counter({a: len(m) for a, m in got.items()}) == Counter({ANNA: 1, BERND: 1, CARLA: 1})


@pytest.mark.e2e
def test_a_server_out_of_reach_is_tried_once_per_row_not_once_per_recipient(svc: Service) -> None:
    """Connects, then silence: the first recipient's send times out, and the others are not
    tried in this pass (they would wait for the same timeout). The row stays whole."""
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(5)
    try:
        row_id = queue(svc, (ANNA, BERND, CARLA))
        start = time.monotonic()
        result = send(svc, listener.getsockname()[1], timeout=1.0)
        took = time.monotonic() - start
    finally:
        listener.close()
    assert result.retry == [row_id]
    assert took < 2.5, f"{took:.1f} s: every recipient waited for the timeout"
    r = row(svc, row_id)
    assert (r.status, r.recipients, r.attempts) == ("pending", f"{ANNA},{BERND},{CARLA}", 1)
    assert len(rows(svc)) == 1


@pytest.mark.e2e
def test_nothing_listening_keeps_the_row_whole_and_pending(svc: Service, clock: FakeClock) -> None:
    port = free_port()
    row_id = queue(svc, (ANNA, BERND), secret=PASSWORD)
    assert send(svc, port).retry == [row_id]
    r = row(svc, row_id)
    assert (r.status, r.recipients, r.secret) == ("pending", f"{ANNA},{BERND}", PASSWORD)
    handler = FlakyHandler()
    with smtp_server(handler, port):
        clock.advance(minutes=2)
        assert send(svc, port).sent == [row_id]
    assert sorted(by_recipient(handler)) == [ANNA, BERND]
    assert row(svc, row_id).secret == ""


def test_a_server_out_of_reach_is_tried_once_per_row_in_memory(
    svc: Service, clock: FakeClock, smtp: MemorySmtp
) -> None:
    """The first recipient finds the server out of reach: the others are not tried in this
    pass, the row stays whole and pending with its secret, and goes out when the server is
    back and the backoff has passed."""
    smtp.down = True
    row_id = queue(svc, (ANNA, BERND, CARLA), secret=PASSWORD)
    assert asyncio.run(send_pending(svc, smtp.sender)).retry == [row_id]
    assert smtp.unreachable == 1
    r = row(svc, row_id)
    assert (r.status, r.recipients, r.attempts, r.secret) == (
        "pending",
        f"{ANNA},{BERND},{CARLA}",
        1,
        PASSWORD,
    )
    assert len(rows(svc)) == 1
    smtp.down = False
    assert asyncio.run(send_pending(svc, smtp.sender)).sent == []  # not due yet
    clock.advance(minutes=2)
    assert asyncio.run(send_pending(svc, smtp.sender)).sent == [row_id]
    assert sorted(a for s in smtp.accepted for a in s.rcpt_tos) == [ANNA, BERND, CARLA]
    assert row(svc, row_id).secret == ""


# -- poisoned rows ---------------------------------------------------------------------------------


def _cli(cfg: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def test_poisoned_rows_fail_alone_and_can_be_retried(
    svc: Service,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    outgoing: Outgoing,
) -> None:
    def exploding(**kw: Any) -> EmailMessage:
        if kw["subject"] == "BOOM":
            raise RuntimeError("this row cannot be built")
        return build_message(**kw)

    monkeypatch.setattr(sending, "build_message", exploding)
    good = queue(svc, (ANNA,), "erste", kind="ack")
    stranger_id = queue(
        svc, (ANNA,), "Antwort", kind="error", in_reply_to="<ls\u2028sep\u2029x\x85@evil.test>"
    )
    injected = queue(
        svc, (BERND,), "Züge\u2028X-Evil: 1\r\nBcc: mallory@evil.test\x85 Runde 2", kind="ack"
    )
    unsendable = queue(svc, ("a b@x.test",), "Hilfe", kind="error")
    boom = queue(svc, (CARLA,), "BOOM", WELCOME, "welcome", secret=PASSWORD)
    no_one = queue(svc, (), "niemand", kind="ack")
    after = [queue(svc, (BERND,), f"danach {i}", kind="ack") for i in range(5)]

    handler = outgoing.start()
    result = handler.send(svc, from_address=GM)
    assert sorted(result.failed) == sorted([unsendable, boom, no_one])
    assert result.sent == [good, stranger_id, injected, *after]
    assert result.retry == []

    got = {str(a.message["Subject"]): a for a in handler.accepted}
    assert sorted(got) == sorted(
        [
            "erste",
            "Antwort",
            "Züge X-Evil: 1 Bcc: mallory@evil.test Runde 2",
            *(f"danach {i}" for i in range(5)),
        ]
    )
    # The stranger's Message-ID is no msg-id: the answer goes out unthreaded.
    assert got["Antwort"].message["In-Reply-To"] is None
    assert got["Antwort"].message["References"] is None
    assert got["Antwort"].message["Auto-Submitted"] == "auto-replied"
    injected_mail = got["Züge X-Evil: 1 Bcc: mallory@evil.test Runde 2"].message
    assert injected_mail["X-Evil"] is None and injected_mail["Bcc"] is None
    assert all(a.rcpt_tos != ["mallory@evil.test"] for a in handler.accepted)

    failed = {r.id: r for r in rows(svc) if r.status == "failed"}
    assert "not sendable" in failed[unsendable].last_error
    assert "RuntimeError: this row cannot be built" in failed[boom].last_error
    assert failed[no_one].last_error == "no recipient"
    assert failed[boom].secret == PASSWORD, "kept for a retry"

    # The GM sees them, and sends the one that failed for a passing fault again.
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path}/pbm.db"\n\n[service]\naddress = "{GM}"\n'
    )
    listed = json.loads(_cli(cfg, "outbox", "list", "--status", "failed", "--json"))
    assert {r["id"]: r["last_error"] for r in listed} == {i: failed[i].last_error for i in failed}
    assert "pending again" in _cli(cfg, "outbox", "retry", str(boom))
    assert row(svc, boom).status == "pending"

    monkeypatch.undo()
    clock.advance(minutes=1)
    assert handler.send(svc, from_address=GM).sent == [boom]
    (welcome,) = [a for a in handler.accepted if a.rcpt_tos == [CARLA]]
    assert f"Ihr Kennwort: {PASSWORD}\n" in welcome.text
    r = row(svc, boom)
    assert (r.status, r.secret, r.last_error) == ("sent", "", "")
    assert PASSWORD not in r.body


def test_a_placeholder_without_its_secret_fails_the_row_instead_of_sending_it(
    svc: Service, outgoing: Outgoing
) -> None:
    """A welcome mail whose secret is gone (dropped, say) would tell the player nothing."""
    row_id = queue(svc, (ANNA,), "Willkommen", WELCOME, "welcome")
    other = queue(svc, (BERND,), "danach", kind="ack")
    handler = outgoing.start()
    result = handler.send(svc, from_address=GM)
    assert (result.failed, result.sent) == ([row_id], [other])
    assert "placeholder" in row(svc, row_id).last_error
    assert [a.rcpt_tos for a in handler.accepted] == [[BERND]]
