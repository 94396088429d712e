"""The outbox sender: pending rows go out through a `Sender` (SMTP, or the in-memory one of the
tests; `pbm/mail/transport.py`), one message per recipient.

A row is claimed by moving its next attempt forward by a lease in a short transaction (rows
locked with SKIP LOCKED, so two workers never take the same one) and naming the claimant
(`claimant.py`), then sent, then marked sent. A crash between the send and the mark sends it
once more with the same Message-ID: at once when the next claim finds the claimant gone from
this host (a `pbm serve` restarted after a SIGKILL), else after the lease. Temporary failures
(4xx, connection trouble) retry with exponential backoff; permanent ones (5xx) mark the row
failed, for the GM to see in `pbm outbox list`.

A row with several recipients (a report to every player and observer) goes out as one message
per recipient over the same connection, each with only that recipient in To. Each recipient
served but the last is recorded at once (`Outbox.delivered`), so a crash between two
recipients sends again only to those not yet served; the recipients it could not reach for
now, or at all, get rows of their own. Anything else that goes wrong
with one row (a value that makes the message unbuildable, a bug) fails that row alone, with
the error in `last_error`, and the pass goes on; only the database's errors go up, for the
loops to wait out. A row's `secret` (a password its body holds as a placeholder) is emptied
when the row is marked sent; after a pass that emptied one, `scrub` writes SQLite's WAL back
and cuts it, so that the page with the password is in no file any more (docs/security.md).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, update
from sqlalchemy import select as sa_select
from sqlalchemy import text as sa_text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import Session, col, select

from pbm.mail.oauth2 import oauth2_section
from pbm.mail.outgoing import attach, build_message, readdress
from pbm.mail.smtp import SmtpSession
from pbm.mail.transport import Delivery, Sender, SenderFactory
from pbm.reports import report_json
from pbm.store.db import reading, scrub, transaction
from pbm.store.models import LEASED, Outbox
from pbm.store.statuses import OutboxStatus

from . import claimant
from .context import Service
from .faults import crashpoint
from .outbox import new_message_id

log = logging.getLogger("pbm")

LEASE = timedelta(minutes=10)
#: Rows claimed at a time.
CLAIM_BATCH = 4
MAX_BACKOFF = timedelta(hours=6)
FIRST_BACKOFF = timedelta(minutes=1)


_TABLE = Outbox.__table__  # type: ignore[attr-defined]
_ROW = sa_select(_TABLE)
#: The due rows (`claim`), and their lease.
_DUE = (
    sa_select(_TABLE.c.id)
    .where(_TABLE.c.status == OutboxStatus.PENDING, _TABLE.c.next_attempt <= bindparam("now"))
    .order_by(_TABLE.c.id)
    .limit(bindparam("limit"))
    .with_for_update(skip_locked=True)
)
_LEASE = (
    update(_TABLE)
    .where(_TABLE.c.id.in_(bindparam("ids", expanding=True)))
    .values(next_attempt=bindparam("next_attempt"), claimed_by=bindparam("claimed_by"))
)
#: The rows under a lease (`_orphans`).
_LEASED = sa_select(_TABLE.c.id, _TABLE.c.claimed_by).where(
    _TABLE.c.status == OutboxStatus.PENDING,
    _TABLE.c.next_attempt > bindparam("now"),
    # As a literal, the partial index's own words: a bound parameter does not show the
    # planner that the index covers the query.
    sa_text(f"outbox.{LEASED}"),
)
#: A row sent to everyone (`_record`).
_SENT = (
    update(_TABLE)
    .where(_TABLE.c.id == bindparam("row_id"))
    .values(
        attempts=_TABLE.c.attempts + 1,
        recipients=bindparam("recipients"),
        status=OutboxStatus.SENT,
        sent_at=bindparam("sent_at"),
        secret="",
        last_error="",
        delivered="",
        claimed_by="",
    )
)


@dataclass
class SendResult:
    sent: list[int] = field(default_factory=list)
    retry: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    #: Rows sent whose `secret` (a password) was emptied.
    cleared: list[int] = field(default_factory=list)


def backoff(attempts: int) -> timedelta:
    """1, 2, 4, … minutes after the first, second, third failure; at most 6 hours."""
    delay: timedelta = FIRST_BACKOFF * (2 ** max(0, attempts - 1))
    return min(delay, MAX_BACKOFF)


def claim(svc: Service, limit: int) -> list[int]:
    """Take up to `limit` rows for this worker (their next attempt moves by the lease, and
    they are named as this process's): first those whose claimant has ended on this host
    (killed while sending them), then the due ones."""
    now = svc.clock.now()
    with transaction(svc.engine) as session:
        # The ids only, and one UPDATE: the rows' bodies and pictures are read when each is
        # sent, not here as well.
        # (Core statements built once: the ORM's forms cost more than the queries.)
        conn = session.connection()
        ids = _orphans(session, now, limit)
        if len(ids) < limit:
            found = conn.execute(_DUE, {"now": now, "limit": limit - len(ids)})
            ids += [row_id for (row_id,) in found if row_id is not None]
        if ids:
            conn.execute(
                _LEASE, {"ids": ids, "next_attempt": now + LEASE, "claimed_by": claimant.me()}
            )
        return ids


def _orphans(session: Session, now: datetime, limit: int) -> list[int]:
    """Rows under the lease of a process that has ended (`claimant.gone`): a reminder whose
    sender was killed goes out when the service is back, not up to the lease later."""
    leased = session.connection().execute(_LEASED, {"now": now}).all()
    if not leased:
        return []
    dead = {who for who in {who for _, who in leased} if claimant.gone(who)}
    ids = sorted(row_id for row_id, who in leased if who in dead and row_id is not None)
    if not ids:
        return []
    # Locked now, and only if still so (another worker may have taken them meanwhile).
    taken = [
        row_id
        for row_id in session.exec(
            select(Outbox.id)
            .where(
                col(Outbox.id).in_(ids[:limit]),
                Outbox.status == OutboxStatus.PENDING,
                col(Outbox.claimed_by).in_(dead),
            )
            .order_by(col(Outbox.id))
            .with_for_update(skip_locked=True)
        )
        if row_id is not None
    ]
    for row_id in taken:
        log.warning("outbox %s: its sender has ended; taken again now", row_id)
    return taken


async def send_one(
    svc: Service, smtp: Sender, row_id: int, cleared: list[int] | None = None
) -> str:
    """Send one claimed row; returns "sent", "retry", "failed" or "skipped". Raises only the
    database's errors: any other error fails this row (see the module's description). A row
    sent whose secret was emptied is added to `cleared`."""
    try:
        return await _send_one(svc, smtp, row_id, cleared)
    except DBAPIError:
        raise
    except Exception as exc:
        log.exception("outbox %s: cannot be sent; marked failed", row_id)
        _fail(svc, row_id, f"{type(exc).__name__}: {exc}")
        return "failed"


async def _send_one(
    svc: Service, smtp: Sender, row_id: int, cleared: list[int] | None = None
) -> str:
    sender = smtp.from_address or svc.config.service.address
    # Read without the write lock (the row is this worker's under its lease), as a plain
    # row: no ORM object is needed to build the message.
    with reading(svc.engine) as session:
        row = session.connection().execute(_ROW.where(_TABLE.c.id == row_id)).first()
        if row is None or row.status != OutboxStatus.PENDING:
            return "skipped"
        recipients = list(dict.fromkeys(r for r in row.recipients.split(",") if r))
        # Served by an attempt that was not recorded (its sender was killed between two
        # recipients): they have their message, the others get it now.
        served = [r for r in recipients if r in set(row.delivered.split(","))]
        msg = build_message(
            from_address=sender,
            from_name=svc.config.sender_name,
            recipients=recipients[:1],
            subject=row.subject,
            body=row.body,
            html=row.html,
            message_id=row.message_id,
            in_reply_to=row.in_reply_to,
            date=row.created_at,
            image=row.image,
            chart=row.chart,
            secret=row.secret,
        )
        files = stored_attachment(row_id, row.attachment)
        had_secret = bool(row.secret)
    if not recipients:
        _fail(svc, row_id, "no recipient")
        return "failed"
    outcomes: dict[str, Delivery] = {address: Delivery("sent") for address in served}
    todo = [address for address in recipients if address not in outcomes]
    for i, address in enumerate(todo):
        try:
            readdress(msg, [address])
            if files is not None:
                attach(msg, *report_json.for_recipient(files, address))
        except Exception as exc:  # not expected (the header is cleaned), but this one only
            outcomes[address] = Delivery("failed", f"not sendable: {type(exc).__name__}: {exc}")
            continue
        result = outcomes[address] = await smtp.deliver(msg, sender, [address])
        if result.connection:
            # The server is out of reach: the others would only wait for the same timeout.
            for rest in todo[i + 1 :]:
                outcomes[rest] = Delivery("retry", f"not tried: {result.error}", connection=True)
            break
        if i < len(todo) - 1 and _outcome_for(address, result)[0] == "sent":
            # Recorded before the next one is tried; the last one is recorded with the row.
            _served(svc, row_id, [a for a, d in outcomes.items() if d.outcome == "sent"])
            crashpoint("smtp-recipient-sent")
    crashpoint("smtp-sent")
    # The mail is out: recording that must not fail on a busy database, or it would go out
    # again after the lease. Retried while the lease lasts (a crash still means a resend).
    delay, waited = 0.5, 0.0
    while True:
        try:
            outcome = _record(svc, row_id, outcomes)
            if outcome == "sent" and had_secret and cleared is not None:
                cleared.append(row_id)
            return outcome
        except OperationalError as exc:
            if waited > LEASE.total_seconds() / 2:
                raise
            log.warning("outbox %s: sent, but the database is busy (%s); retrying", row_id, exc)
            await asyncio.sleep(delay)
            waited += delay
            delay = min(delay * 2, 30.0)


def stored_attachment(row_id: int, value: str) -> dict[str, Any] | None:
    """A report's JSON attachment as the row stores it (`report_json.attachment_value`), or
    None: none, or one that cannot be read, which is logged; the report goes out without it
    rather than not at all."""
    if not value:
        return None
    try:
        stored = json.loads(value)
        if (
            isinstance(stored, dict)
            and isinstance(stored.get("filename"), str)
            and isinstance(stored.get("public"), dict)
            and isinstance(stored.get("own"), dict)
        ):
            return stored
    except ValueError:
        pass
    log.warning("outbox %s: its attachment cannot be read; sent without it", row_id)
    return None


def _served(svc: Service, row_id: int, served: list[str]) -> None:
    """Record the recipients of a row of several who have their message from this attempt
    (`Outbox.delivered`). A busy database is not waited for: the row's own record follows,
    and only a crash before it would send to these once more."""
    try:
        with transaction(svc.engine) as session:
            session.exec(
                update(Outbox)
                .where(col(Outbox.id) == row_id, col(Outbox.status) == OutboxStatus.PENDING)
                .values(delivered=",".join(served))
            )
    except OperationalError as exc:
        log.warning("outbox %s: a recipient served, not yet recorded (%s)", row_id, exc)


def _fail(svc: Service, row_id: int, error: str) -> None:
    """Mark a row failed (it keeps its secret: `pbm outbox retry` may send it yet; and the
    recipients it reached, whom a retry leaves out)."""
    with transaction(svc.engine) as session:
        row = session.get(Outbox, row_id)
        if row is not None and row.status == OutboxStatus.PENDING:
            row.status = OutboxStatus.FAILED
            row.attempts += 1
            row.last_error = error[:2000]
            row.claimed_by = ""


def _outcome_for(address: str, delivery: Delivery) -> tuple[str, str]:
    """("sent" | "retry" | "failed", error) of one recipient's own message."""
    if delivery.outcome == "partial":  # not with one recipient, but read it right anyway
        if delivery.refused and address in delivery.refused:
            code, message = delivery.refused[address]
            return ("failed" if 500 <= code < 600 else "retry"), f"{code} {message}"
        return "sent", ""
    return delivery.outcome, delivery.error


def _errors(errors: dict[str, str], alone: bool) -> str:
    if alone:
        return next(iter(errors.values()), "")[:2000]
    return "; ".join(f"{a}: {e}" for a, e in errors.items())[:2000]


def _record(svc: Service, row_id: int, outcomes: dict[str, Delivery]) -> str:
    """What became of a delivery attempt, in the row: delivered recipients stay on it (sent),
    the others go to rows of their own when some were delivered (see `_split`)."""
    per = {a: _outcome_for(a, d) for a, d in outcomes.items()}
    sent = [a for a, (o, _) in per.items() if o == "sent"]
    failed = {a: e for a, (o, e) in per.items() if o == "failed"}
    retry = {a: e for a, (o, e) in per.items() if o not in ("sent", "failed")}
    alone = len(per) == 1
    now = svc.clock.now()
    if sent and not failed and not retry:
        # The usual outcome, everyone reached: one UPDATE, as the ORM path below would write
        # it, without reading the row (its body and pictures) first.
        # A Core statement built once, on a plain connection: the ORM's bulk UPDATE (its
        # statement built and its cache key made each time, the session around it) cost more
        # than the write.
        with svc.engine.begin() as conn:
            done = conn.execute(
                _SENT, {"row_id": row_id, "recipients": ",".join(sent), "sent_at": now}
            )
            assert done.rowcount == 1, f"outbox row {row_id} has gone"
        return "sent"
    with transaction(svc.engine) as session:
        row = session.get(Outbox, row_id)
        assert row is not None
        row.attempts += 1
        row.delivered = row.claimed_by = ""
        if sent:
            secret = row.secret
            row.recipients = ",".join(sent)
            row.status = OutboxStatus.SENT
            row.sent_at = now
            row.secret = ""
            row.last_error = _errors({**failed, **retry}, False)
            for address, error in failed.items():
                _split(svc, session, row, address, OutboxStatus.FAILED, error, secret)
            for address, error in retry.items():
                _split(svc, session, row, address, OutboxStatus.PENDING, error, secret)
            return "sent"
        if not retry:
            row.status = OutboxStatus.FAILED
            row.last_error = _errors(failed, alone)
            return "failed"
        # Nothing delivered: the row keeps those to try again; the refused ones get failed
        # rows of their own, for the GM to see.
        row.recipients = ",".join(retry)
        row.next_attempt = now + backoff(row.attempts)
        row.last_error = _errors(retry, alone)
        for address, error in failed.items():
            _split(svc, session, row, address, OutboxStatus.FAILED, error, row.secret)
        return "retry"


def _split(
    svc: Service,
    session: Session,
    row: Outbox,
    address: str,
    status: OutboxStatus,
    error: str,
    secret: str,
) -> None:
    """The same mail for one recipient of `row`, as a row of its own: failed (refused for
    good; `pbm outbox retry` sends it again) or pending (retried after the backoff). It keeps
    the secret, which it still needs."""
    session.add(
        Outbox(
            game_id=row.game_id,
            step=row.step,
            kind=row.kind,
            recipients=address,
            subject=row.subject,
            body=row.body,
            html=row.html,
            image=row.image,
            chart=row.chart,
            attachment=row.attachment,
            message_id=new_message_id(svc),
            in_reply_to=row.in_reply_to,
            secret=secret,
            limited=row.limited,
            status=status,
            attempts=row.attempts,
            next_attempt=svc.clock.now() + backoff(row.attempts),
            last_error=error[:2000],
            created_at=row.created_at,
        )
    )


async def send_pending(
    svc: Service, senders: SenderFactory | None = None, limit: int = 200
) -> SendResult:
    """Send what is due, over one session of the sender (SMTP: one connection, opened again
    after an error). `senders`: a factory of senders; by default SMTP as the service's
    config says (`[smtp]`, `[oauth2]`)."""
    result = SendResult()
    if senders is None:
        session: Sender = SmtpSession(svc.config.smtp, oauth2_section(svc.config))
    else:
        session = senders()
    done = 0
    try:
        # A few rows per claim: a crash leaves only those under their lease, not a whole
        # round's reports.
        while done < limit and (batch := claim(svc, min(CLAIM_BATCH, limit - done))):
            for row_id in batch:
                outcome = await send_one(svc, session, row_id, result.cleared)
                if outcome == "sent":
                    result.sent.append(row_id)
                elif outcome == "failed":
                    result.failed.append(row_id)
                elif outcome == "retry":
                    result.retry.append(row_id)
            done += len(batch)
    finally:
        await session.close()
    if result.cleared:
        # The passwords emptied from those rows are still in the WAL's older pages.
        try:
            await asyncio.to_thread(scrub, svc.engine)
        except DBAPIError as exc:  # the mails are out; the next scrub does it
            log.warning("outbox: the WAL could not be written back: %s", exc)
    return result
