"""The outbox sender: pending rows go out by SMTP, one message at a time.

A row is claimed by moving its next attempt forward by a lease in a short transaction (rows
locked with SKIP LOCKED, so two workers never take the same one), then sent, then marked sent.
A crash between the send and the mark sends it once more after the lease, with the same
Message-ID. Temporary failures (4xx, connection trouble) retry with exponential backoff;
permanent ones (5xx) mark the row failed, for the GM to see in `pbm outbox list`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from pbm.mail.outgoing import build_message
from pbm.mail.smtp import Delivery, SmtpConfig, SmtpSession
from pbm.store.db import transaction
from pbm.store.models import Outbox

from .context import Service
from .faults import crashpoint
from .outbox import new_message_id

log = logging.getLogger("pbm")

LEASE = timedelta(minutes=10)
#: Rows claimed at a time.
CLAIM_BATCH = 4
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


async def send_one(svc: Service, smtp: SmtpSession, row_id: int) -> str:
    """Send one claimed row; returns "sent", "retry", "failed" or "skipped"."""
    sender = smtp.cfg.from_address or svc.config.address
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
    result = await smtp.deliver(msg, sender, recipients)
    crashpoint("smtp-sent")
    # The mail is out: recording that must not fail on a busy database, or it would go out
    # again after the lease. Retried while the lease lasts (a crash still means a resend).
    delay, waited = 0.5, 0.0
    while True:
        try:
            return _record(svc, row_id, result)
        except OperationalError as exc:
            if waited > LEASE.total_seconds() / 2:
                raise
            log.warning("outbox %s: sent, but the database is busy (%s); retrying", row_id, exc)
            await asyncio.sleep(delay)
            waited += delay
            delay = min(delay * 2, 30.0)


def _record(svc: Service, row_id: int, result: Delivery) -> str:
    """What became of a delivery attempt, in the row."""
    with transaction(svc.engine) as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        row.attempts += 1
        row.last_error = result.error[:2000]
        if result.outcome == "partial" and result.refused:
            _split_refused(svc, session, row, result.refused)
            return "sent"
        if result.outcome == "sent":
            row.status = "sent"
            row.sent_at = svc.clock.now()
        elif result.outcome == "failed":
            row.status = "failed"
        else:
            row.next_attempt = svc.clock.now() + backoff(row.attempts)
    return result.outcome


def _split_refused(svc: Service, session: Session, row: Outbox,
                   refused: dict[str, tuple[int, str]]) -> None:
    """The row was delivered to some recipients: it is sent for them, and the refused ones
    get rows of their own (the same mail; retried on 4xx, failed on 5xx), for the GM to see."""
    now = svc.clock.now()
    row.recipients = ",".join(r for r in row.recipients.split(",") if r not in refused)
    row.status = "sent"
    row.sent_at = now
    for address, (code, message) in sorted(refused.items()):
        permanent = 500 <= code < 600
        session.add(Outbox(
            game_id=row.game_id, step=row.step, kind=row.kind, recipients=address,
            subject=row.subject, body=row.body, html=row.html, image=row.image,
            message_id=new_message_id(svc), in_reply_to=row.in_reply_to,
            status="failed" if permanent else "pending", attempts=1,
            next_attempt=now + backoff(1), last_error=f"{code} {message}"[:2000],
            created_at=row.created_at,
        ))


async def send_pending(svc: Service, smtp: SmtpConfig, limit: int = 200) -> SendResult:
    """Send what is due, over one SMTP connection (opened again after an error)."""
    result = SendResult()
    session = SmtpSession(smtp)
    done = 0
    try:
        # A few rows per claim: a crash leaves only those under their lease, not a whole
        # round's reports.
        while done < limit and (batch := claim(svc, min(CLAIM_BATCH, limit - done))):
            for row_id in batch:
                outcome = await send_one(svc, session, row_id)
                if outcome == "sent":
                    result.sent.append(row_id)
                elif outcome == "failed":
                    result.failed.append(row_id)
                elif outcome == "retry":
                    result.retry.append(row_id)
            done += len(batch)
    finally:
        await session.close()
    return result
