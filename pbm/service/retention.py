"""What is kept of mail nobody in a game sent (docs/security.md, "Retention").

Every mail is stored before it is acted on, whoever sent it. Two rules keep strangers from
filling the database:

- once handled, a stranger's mail (`is_stranger`) that gave no right password is cut to
  `[service] no_password_kept_kb` (`dispatch.handle`): a stranger's megabytes do not stay, while
  a player's mail is kept as it came (a refused one for the GM to see);
- after `[service] stranger_mail_days`, a mail from an address that is no player, observer or
  GM of any game loses its bytes (`forget_strangers`): its row stays, with its date, sender,
  subject and status, for the rate limits and the GM. (A player who once wrote from another
  address loses nothing by it: what a mail's orders were is kept with the orders and the
  round's record.)

Quarantined mails and mails held for a broken game are never cut: they are read again.

And what pbm sent: after `[service] sent_mail_days` a sent mail keeps its text part, subject,
recipients and dates, and loses its HTML part, pictures and JSON file (`forget_sent`), the
bulk of a round's report; the archive keeps every round's page and board.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, or_, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from pbm.store.db import transaction
from pbm.store.models import InboundMail, Outbox, Player
from pbm.store.statuses import PENDING, MailStatus, OutboxStatus, PlayerStatus

from .context import Service

#: How often a running service looks for old strangers' mail.
EVERY = timedelta(hours=1)
#: Statuses of mail that is done with: never one read again.
_DONE = (MailStatus.DONE, MailStatus.IGNORED)


def _known() -> SelectOfScalar[str]:
    """The addresses of every player and confirmed observer of any game."""
    return select(Player.address).where(
        col(Player.status).not_in((PlayerStatus.REPLACED, *PENDING))
    )


def is_stranger(svc: Service, session: Session, mail: InboundMail) -> bool:
    """Whether the mail's sender is no player, observer or GM of any game."""
    if svc.config.service.is_gm(mail.sender):
        return False
    return session.exec(_known().where(Player.address == mail.sender).limit(1)).first() is None


def forget_strangers(svc: Service, force: bool = False) -> int:
    """Empty the bytes of strangers' mail older than `stranger_mail_days`, and the pictures,
    HTML and files of mail sent more than `sent_mail_days` ago (`forget_sent`), at most once
    per `EVERY` in a process, unless `force`; returns how many strangers' mails."""
    now = svc.clock.now()
    if not force and svc.forgot_at is not None and now - svc.forgot_at < EVERY:
        return 0
    svc.forgot_at = now
    forget_sent(svc)
    cutoff = now - timedelta(days=svc.config.service.stranger_mail_days)
    with transaction(svc.engine) as session:
        result = session.exec(
            update(InboundMail)
            .where(
                col(InboundMail.status).in_(_DONE),
                col(InboundMail.received_at) < cutoff,
                func.length(InboundMail.raw) > 0,
                col(InboundMail.sender).not_in(_known()),
                col(InboundMail.sender).not_in(sorted(svc.config.service.gm_senders) or ["-"]),
            )
            .values(raw=b"")
        )
        return int(result.rowcount or 0)


def forget_sent(svc: Service) -> int:
    """Empty the HTML part, the pictures and the JSON file of every mail sent more than
    `[service] sent_mail_days` ago; returns how many. Its text part, subject, recipients and
    dates stay (what was said to whom, and when); the archive keeps every round's page and
    board. A round's report is most of what a game adds to the database (about 50 KB a game
    and round, nine tenths of it these parts): kept for good, 10,000 games of 30 rounds would
    hold 15 GB of mail long delivered."""
    cutoff = svc.clock.now() - timedelta(days=svc.config.service.sent_mail_days)
    with transaction(svc.engine) as session:
        result = session.exec(
            update(Outbox)
            .where(
                col(Outbox.status) == OutboxStatus.SENT,
                col(Outbox.sent_at) < cutoff,
                or_(
                    col(Outbox.image).is_not(None),
                    col(Outbox.chart).is_not(None),
                    col(Outbox.html) != "",
                    col(Outbox.attachment) != "",
                ),
            )
            .values(html="", image=None, chart=None, attachment="")
        )
        return int(result.rowcount or 0)
