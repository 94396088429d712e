"""Inbound mail: stored first, then processed in one transaction with the mails it causes.

1. `store_mail` keeps the raw bytes under their Message-ID (a second copy of the same
   Message-ID is recognised and never processed again) and commits.
2. `process_mail` handles a stored mail in one transaction: commands, orders, acknowledgements.
   If it raises, the transaction is rolled back and the mail is quarantined with its traceback,
   never retried by itself; `requeue` sends it through again. A database that is locked or
   unreachable (OperationalError) is not the mail's fault: the error goes up to the caller, the
   mail stays new, and the next fetch of it (or `recover`) processes it.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, select

from pbm.mail.inbound import Inbound, parse_inbound
from pbm.store.db import transaction
from pbm.store.models import Game, InboundMail

from .commands import handle
from .context import Service
from .faults import crashpoint


@dataclass
class IngestResult:
    mail_id: int
    duplicate: bool
    status: str
    #: The game whose round may now be complete (all orders in), for the caller to resolve.
    game: str | None = None


def store_mail(svc: Service, raw: bytes, inbound: Inbound | None = None) -> tuple[int, bool]:
    """Keep the mail; returns (id, duplicate). Runs in its own transaction. A copy of a mail
    that was stored but never processed (the database failed in between) is no duplicate: it
    is processed now."""
    inbound = inbound or parse_inbound(raw, svc.config.address)
    try:
        with transaction(svc.engine) as session:
            row = InboundMail(message_id=inbound.message_id, raw=raw,
                              received_at=svc.clock.now(), sender=inbound.sender[:300],
                              subject=inbound.subject[:500])
            session.add(row)
            session.flush()
            assert row.id is not None
            mail_id = row.id
        crashpoint("stored")
        return mail_id, False
    except IntegrityError:
        with Session(svc.engine) as session:
            existing = session.exec(
                select(InboundMail).where(InboundMail.message_id == inbound.message_id)
            ).one()
            assert existing.id is not None
            return existing.id, existing.status != "new"


def process_mail(svc: Service, mail_id: int, inbound: Inbound | None = None) -> IngestResult:
    """Process one stored mail (if still new) in one transaction; quarantine it on error.
    `inbound`: the mail as read when it was stored (read again from the bytes if not given)."""
    try:
        with transaction(svc.engine) as session:
            query = select(InboundMail).where(InboundMail.id == mail_id).with_for_update(
                skip_locked=True)
            mail = session.exec(query).first()
            if mail is None or mail.status != "new":
                return IngestResult(mail_id, False, mail.status if mail else "locked")
            inbound = inbound or parse_inbound(mail.raw, svc.config.address)
            game = handle(svc, session, mail, inbound)
            if mail.status == "new":
                mail.status = "done"
            mail.processed_at = svc.clock.now()
            result = IngestResult(mail_id, False, mail.status, game)
            crashpoint("processing")
        crashpoint("processed")
        return result
    except OperationalError:
        raise
    except Exception:
        error = traceback.format_exc().replace("\x00", "\\0")
        with transaction(svc.engine) as session:
            mail = session.get(InboundMail, mail_id)
            if mail is not None:
                mail.status = "quarantined"
                mail.error = error[-20000:]
                mail.processed_at = svc.clock.now()
        return IngestResult(mail_id, False, "quarantined")


def recover(svc: Service) -> list[IngestResult]:
    """After a start or a crash: process every mail that was stored but not processed."""
    return [process_mail(svc, mail_id) for mail_id in pending_mail_ids(svc)]


def ingest(svc: Service, raw: bytes) -> IngestResult:
    """Store, then process; a duplicate Message-ID is not processed again."""
    inbound = parse_inbound(raw, svc.config.address)
    mail_id, duplicate = store_mail(svc, raw, inbound)
    if duplicate:
        return IngestResult(mail_id, True, "duplicate")
    return process_mail(svc, mail_id, inbound)


def pending_mail_ids(svc: Service) -> list[int]:
    """Mails stored but not yet processed (e.g. after a crash between the two steps)."""
    with Session(svc.engine) as session:
        rows = session.exec(select(InboundMail.id).where(InboundMail.status == "new")
                            .order_by(InboundMail.id))  # type: ignore[arg-type]
        return [r for r in rows if r is not None]


def requeue(svc: Service, mail_id: int) -> IngestResult:
    """Process a quarantined mail again (a processed one is never processed twice)."""
    with transaction(svc.engine) as session:
        mail = session.get(InboundMail, mail_id)
        if mail is None:
            raise KeyError(mail_id)
        if mail.status not in ("quarantined", "new"):
            return IngestResult(mail_id, False, mail.status)
        mail.status = "new"
        mail.error = ""
    return process_mail(svc, mail_id)


__all__ = [
    "Game",
    "Inbound",
    "IngestResult",
    "ingest",
    "pending_mail_ids",
    "process_mail",
    "requeue",
    "store_mail",
]
