"""Inbound mail: stored first, then processed in one transaction with the mails it causes.

1. `store_mail` keeps the raw bytes under their Message-ID (a second copy of the same
   Message-ID is recognised and never processed again) and commits.
   A second mail under a known Message-ID is a duplicate only if its sender and body are the
   same (`InboundMail.digest`); another mail is stored under an id of its own, so nobody can
   silence a player by sending first with the Message-ID of the player's mail. At most
   `max_stored_kb` of a mail are kept; a longer one is marked truncated and refused.
2. `process_mail` reads the mail (its game, its parse) without the write lock, then handles it
   in one transaction: commands, orders, acknowledgements. If the game changed in between, the
   mail is read again. If handling raises, the transaction is rolled back and the mail is
   quarantined with its traceback, never retried by itself; `requeue` sends it through again.
   A database that is locked or unreachable (OperationalError) is not the mail's fault: the
   error goes up to the caller, the mail stays new, and the next fetch of it (or `recover`)
   processes it.
"""

from __future__ import annotations

import hashlib
import traceback
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import bindparam, insert
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, col, select

from pbm.mail.inbound import Inbound, keep_raw, parse_inbound
from pbm.store.db import reading, transaction
from pbm.store.models import Game, InboundMail
from pbm.store.statuses import MailStatus

from . import gm_alerts
from .context import Service
from .dispatch import Reread, handle, read_mail
from .faults import crashpoint
from .intake import arrival

#: Reads of one mail while its game keeps changing under it; the last one is made under the
#: write lock, so a mail is always handled.
MAX_READS = 4


_MAIL_TABLE = InboundMail.__table__  # type: ignore[attr-defined]
_MAIL_INSERT = insert(_MAIL_TABLE)
#: A stored mail, locked for its handling (built once, as the queries of every mail are).
_MAIL_LOCKED = (
    select(InboundMail)
    .where(InboundMail.id == bindparam("mail_id"))
    .with_for_update(skip_locked=True)
)


@dataclass
class IngestResult:
    mail_id: int
    duplicate: bool
    status: str
    #: The game whose open round got orders from the mail (the caller may resolve it).
    game: str | None = None
    #: Those orders completed the round as read in the mail's transaction: `take_in`
    #: resolves only then (the clock resolves a round completed any other way).
    complete: bool = False
    #: The stored mail was masked or cut: its bytes as they came are in SQLite's WAL until
    #: `store.db.scrub` (the inbox scrubs once per pass that had such a mail).
    masked: bool = False


def digest_of(raw: bytes, sender: str) -> str:
    """The sender and the body's bytes (the headers may differ between two deliveries of the
    same mail: Received lines)."""
    cut = raw.find(b"\r\n\r\n")
    cut = raw.find(b"\n\n") if cut < 0 else cut
    body = raw[cut:] if cut >= 0 else b""
    return hashlib.sha256(sender.encode() + b"\0" + body).hexdigest()


def _parse(svc: Service, raw: bytes) -> Inbound:
    return parse_inbound(raw, svc.config.service.address, svc.config.service.max_stored_kb * 1024)


def store_mail(
    svc: Service, raw: bytes, inbound: Inbound | None = None, reported: datetime | None = None
) -> tuple[int, bool]:
    """Keep the mail; returns (id, duplicate). Runs in its own transaction. A copy of a mail
    that was stored but never processed (the database failed in between) is no duplicate: it
    is processed now. `reported`: when the mailbox says the mail reached it (IMAP's
    INTERNALDATE), its time for the deadlines (`intake.arrival`)."""
    mail_id, duplicate, _ = _store(svc, raw, inbound, reported)
    return mail_id, duplicate


def _store(
    svc: Service, raw: bytes, inbound: Inbound | None = None, reported: datetime | None = None
) -> tuple[int, bool, InboundMail | None]:
    """`store_mail`, and the row as stored when this call stored it (committed; a detached
    copy the first read of `process_mail` can use instead of reading it back)."""
    inbound = inbound or _parse(svc, raw)
    kept, truncated = keep_raw(raw, svc.config.service.max_stored_kb * 1024)
    digest = digest_of(raw, inbound.sender)
    message_id = inbound.message_id
    while True:
        try:
            with transaction(svc.engine) as session:
                row = InboundMail(
                    message_id=message_id,
                    raw=kept,
                    truncated=truncated,
                    digest=digest,
                    received_at=arrival(svc.clock.now(), reported, inbound.received),
                    sender=inbound.sender[:300],
                    subject=inbound.subject[:500],
                )
                # One Core INSERT of the row's values (the ORM's flush of one new object cost
                # more than the write); the object stays as the caller's copy of the row. Every
                # column's value is the model's (a default the database alone sets, with a None
                # on the model, would be written as NULL here: give it a Python default).
                values = {c.key: getattr(row, c.key) for c in _MAIL_TABLE.columns if c.key != "id"}
                inserted = session.connection().execute(_MAIL_INSERT, values)
                key = inserted.inserted_primary_key
                assert key is not None
                mail_id = row.id = int(key[0])
            crashpoint("stored")
            return mail_id, False, row
        except IntegrityError:
            with Session(svc.engine) as session:
                existing = session.exec(
                    select(InboundMail).where(InboundMail.message_id == message_id)
                ).one()
            assert existing.id is not None
            if existing.digest in ("", digest) or message_id != inbound.message_id:
                return existing.id, existing.status != MailStatus.NEW, None
            # Another mail under a known Message-ID: not a duplicate. Kept under an id of its
            # own, made from its content (the same mail again is then a duplicate of it).
            message_id = f"{inbound.message_id}#{digest[:16]}"


def process_mail(
    svc: Service,
    mail_id: int,
    inbound: Inbound | None = None,
    stored: InboundMail | None = None,
) -> IngestResult:
    """Process one stored mail (if still new) in one transaction; quarantine it on error.
    `inbound`: the mail as read when it was stored (read again from the bytes if not given);
    `stored`: its row as just stored (else the first read reads it back; the status is
    checked again under the lock either way).
    The mail is read and parsed without the write lock; only the last of `MAX_READS` tries,
    made when the game kept changing, reads it under the lock."""
    try:
        for attempt in range(MAX_READS):
            last = attempt == MAX_READS - 1
            if not last:
                with reading(svc.engine) as session:
                    first = stored if attempt == 0 else None
                    mail = first or session.get(InboundMail, mail_id)
                    if mail is None or mail.status != MailStatus.NEW:
                        return IngestResult(mail_id, False, mail.status if mail else "locked")
                    inbound = inbound or _parse(svc, mail.raw)
                    read = read_mail(svc, session, mail, inbound)
            with transaction(svc.engine) as session:
                mail = session.exec(_MAIL_LOCKED, params={"mail_id": mail_id}).first()
                if mail is None or mail.status != MailStatus.NEW:
                    return IngestResult(mail_id, False, mail.status if mail else "locked")
                if last:
                    inbound = inbound or _parse(svc, mail.raw)
                    read = read_mail(svc, session, mail, inbound)
                try:
                    handled = handle(svc, session, mail, read)
                except Reread:
                    session.rollback()
                    continue
                if mail.status == MailStatus.NEW:
                    mail.status = MailStatus.DONE
                mail.processed_at = svc.clock.now()
                result = IngestResult(
                    mail_id, False, mail.status, handled.game, handled.complete, handled.masked
                )
                crashpoint("processing")
            crashpoint("processed")
            return result
        raise RuntimeError("the game changed under the mail at every read")
    except OperationalError:
        raise
    except Exception:
        error = traceback.format_exc().replace("\x00", "\\0")
        with transaction(svc.engine) as session:
            mail = session.get(InboundMail, mail_id)
            if mail is not None:
                mail.status = MailStatus.QUARANTINED
                mail.error = error[-20000:]
                mail.processed_at = svc.clock.now()
        gm_alerts.quarantined(svc, mail_id)
        return IngestResult(mail_id, False, MailStatus.QUARANTINED)


def recover(svc: Service) -> list[IngestResult]:
    """After a start or a crash: process every mail that was stored but not processed."""
    return [process_mail(svc, mail_id) for mail_id in pending_mail_ids(svc)]


def ingest(svc: Service, raw: bytes, reported: datetime | None = None) -> IngestResult:
    """Store, then process; a duplicate (same Message-ID, sender and body) is not processed
    again. `reported`: when the mailbox says the mail reached it (see `store_mail`)."""
    inbound = _parse(svc, raw)
    mail_id, duplicate, row = _store(svc, raw, inbound, reported)
    if duplicate:
        return IngestResult(mail_id, True, "duplicate")
    return process_mail(svc, mail_id, inbound, row)


def pending_mail_ids(svc: Service) -> list[int]:
    """Mails stored but not yet processed (e.g. after a crash between the two steps)."""
    with Session(svc.engine) as session:
        rows = session.exec(
            select(InboundMail.id)
            .where(InboundMail.status == MailStatus.NEW)
            .order_by(col(InboundMail.id))
        )
        return [r for r in rows if r is not None]


#: The mails `requeue` reads again: quarantined, held for a broken game, or not yet read.
REQUEUED = (MailStatus.QUARANTINED, MailStatus.NEW, MailStatus.HELD)


def requeue(svc: Service, mail_id: int) -> IngestResult:
    """Process a quarantined mail again. A processed one is never processed twice: it comes
    back as a duplicate with its status, unread."""
    with transaction(svc.engine) as session:
        mail = session.get(InboundMail, mail_id)
        if mail is None:
            raise KeyError(mail_id)
        if mail.status not in REQUEUED:
            return IngestResult(mail_id, True, mail.status)
        mail.status = MailStatus.NEW
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
