"""The outbox sender: pending rows go out by SMTP, one message at a time.

A row is claimed by moving its next attempt forward by a lease in a short transaction (rows
locked with SKIP LOCKED, so two workers never take the same one), then sent, then marked sent.
A crash between the send and the mark sends it once more after the lease, with the same
Message-ID. Temporary failures (4xx, connection trouble) retry with exponential backoff;
permanent ones (5xx) mark the row failed, for the GM to see in `pbm outbox list`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from sqlmodel import col, select

from pbm.mail.outgoing import build_message
from pbm.mail.smtp import SmtpConfig, deliver
from pbm.store.db import transaction
from pbm.store.models import Outbox

from .context import Service
from .faults import crashpoint

LEASE = timedelta(minutes=10)
MAX_BACKOFF = timedelta(hours=6)
FIRST_BACKOFF = timedelta(minutes=1)


@dataclass
class SendResult:
    sent: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


def backoff(attempts: int) -> timedelta:
    """1, 2, 4, … minutes after the first, second, third failure; at most 6 hours."""
    delay: timedelta = FIRST_BACKOFF * (2 ** max(0, attempts - 1))
    return min(delay, MAX_BACKOFF)


def claim(svc: Service, limit: int) -> list[int]:
    """Take up to `limit` due rows for this worker (their next attempt moves by the lease)."""
    now = svc.clock.now()
    with transaction(svc.engine) as session:
        rows = list(session.exec(
            select(Outbox).where(Outbox.status == "pending", col(Outbox.next_attempt) <= now)
            .order_by(col(Outbox.id)).limit(limit).with_for_update(skip_locked=True)
        ))
        for row in rows:
            row.next_attempt = now + LEASE
        return [row.id for row in rows if row.id is not None]


async def send_one(svc: Service, smtp: SmtpConfig, row_id: int) -> str:
    """Send one claimed row; returns "sent", "retry", "failed" or "skipped"."""
    sender = smtp.from_address or svc.config.address
    with transaction(svc.engine) as session:
        row = session.get(Outbox, row_id)
        if row is None or row.status != "pending":
            return "skipped"
        recipients = [r for r in row.recipients.split(",") if r]
        msg = build_message(
            from_address=sender, from_name=svc.config.name, recipients=recipients,
            subject=row.subject, body=row.body, html=row.html, message_id=row.message_id,
            in_reply_to=row.in_reply_to, date=row.created_at, image=row.image,
        )
    outcome, error = await deliver(msg, sender, recipients, smtp)
    crashpoint("smtp-sent")
    with transaction(svc.engine) as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        row.attempts += 1
        row.last_error = error[:2000]
        if outcome == "sent":
            row.status = "sent"
            row.sent_at = svc.clock.now()
        elif outcome == "failed":
            row.status = "failed"
        else:
            row.next_attempt = svc.clock.now() + backoff(row.attempts)
    return outcome


async def send_pending(svc: Service, smtp: SmtpConfig, limit: int = 200) -> SendResult:
    result = SendResult()
    for row_id in claim(svc, limit):
        outcome = await send_one(svc, smtp, row_id)
        if outcome == "sent":
            result.sent.append(row_id)
        elif outcome == "failed":
            result.failed.append(row_id)
        elif outcome == "retry":
            result.retry.append(row_id)
    return result
