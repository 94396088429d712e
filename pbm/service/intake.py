"""Deadlines judged by when a mail reached the mailbox, not by when pbm read it.

A mail's time (`InboundMail.received_at`) is when it reached the game master's mailbox: the
IMAP server's INTERNALDATE, else the date of the first `Received:` line (written by the server
that delivered it), never a header the sender writes alone, and never later than the moment it
was stored (`arrival`).

A round (or a setup step) whose deadline has passed is resolved only once every mail that came
before the deadline has been read (`may_close`):

- the mailbox has been read through a moment past the deadline (`Intake.read_through`: a pass
  of the inbox that began after the deadline took in everything it listed), when this process
  reads a mailbox at all (`pbm serve`, `pbm poll`);
- no stored mail that came before the deadline is still unread (status new).

Orders that came after the deadline are refused as late, whenever they are read
(`answers.refusal`); orders that came before it count, however late they are read.

Nothing waits forever: `[service] mail_wait_minutes` after the deadline the round is resolved
with what was read (the mailbox down for that long, say), and the GM is told.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbm.store.models import Game, InboundMail, Player
from pbm.store.statuses import PENDING, MailStatus, PlayerStatus

from . import texts
from .context import Service
from .outbox import enqueue

log = logging.getLogger("pbm")


def arrival(now: datetime, reported: datetime | None, received: datetime | None) -> datetime:
    """When a mail reached the mailbox: the mailbox's own date for it (`reported`, IMAP's
    INTERNALDATE), else its first `Received:` line's, else `now`; never later than `now` (the
    moment it is stored), and a `Received:` date more than `TRUSTED_RECEIVED_DAYS` old is not
    believed (a mail fed in by hand long after is taken as arriving now)."""
    if reported is not None:
        return min(reported, now)
    if received is not None and now - timedelta(days=TRUSTED_RECEIVED_DAYS) <= received:
        return min(received, now)
    return now


#: How old a `Received:` date may be and still be taken as the mail's arrival (`arrival`).
TRUSTED_RECEIVED_DAYS = 7


def may_close(svc: Service, session: Session, game: Game, now: datetime) -> bool:
    """Whether the game's passed deadline may be acted on now: every mail that came before it
    has been read, or `mail_wait_minutes` have passed since it (then the GM is told)."""
    deadline = game.deadline
    if deadline is None:
        return True
    unread = unread_before(svc, session, game, deadline)
    if not unread:
        return True
    if now < deadline + timedelta(minutes=svc.config.service.mail_wait_minutes):
        return False
    log.warning("game %s: deadline passed %s ago (%s): acting", game.name, now - deadline, unread)
    _tell_gm(svc, session, game, unread)
    return True


def unread_before(svc: Service, session: Session, game: Game, deadline: datetime) -> str:
    """Why mail that came before `deadline` may still be unread, in the game's language (""
    when none can be)."""
    if not svc.intake.read_past(deadline):
        svc.intake.want_pass()
        return texts.t(game.locale, "mail_wait_not_read")
    count = session.exec(
        select(func.count())
        .select_from(InboundMail)
        .where(
            InboundMail.status == MailStatus.NEW,
            col(InboundMail.received_at) <= deadline,
        )
    ).one()
    return texts.t(game.locale, "mail_wait_stored", count=count) if count else ""


def _tell_gm(svc: Service, session: Session, game: Game, why: str) -> None:
    if not svc.config.service.gm_inbox:
        return
    enqueue(
        svc,
        session,
        "gm_alert",
        svc.config.service.gm_inbox,
        texts.t(game.locale, "mail_wait_subject", game=game.name),
        texts.t(
            game.locale,
            "mail_wait_body",
            game=game.name,
            minutes=svc.config.service.mail_wait_minutes,
            why=why,
        ),
        game_id=game.id,
        limited=False,
        lang=game.locale,
    )


def known_addresses(svc: Service) -> set[str]:
    """The addresses pbm knows: every player, confirmed observer and the GM (not an address
    that only asked for a seat or to observe: anyone can ask in another's name)."""
    with Session(svc.engine) as session:
        rows = session.exec(
            select(Player.address)
            .where(col(Player.status).not_in((PlayerStatus.REPLACED, *PENDING)))
            .distinct()
        )
        known = {address.lower() for address in rows}
    known |= svc.config.service.gm_senders
    return known
