"""How much the service answers: per-address rate limits, checked against what is stored.

No separate counters: the outbox and the stored mails already say how many answers went to an
address and how many wrong passwords came from it in the last hour.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func
from sqlmodel import Session, col, select

from pbm.store.models import InboundMail, Outbox

from .context import Service

BAD_PASSWORD = "bad password"
HOUR = timedelta(hours=1)


def answers_last_hour(svc: Service, session: Session, address: str) -> int:
    since = svc.clock.now() - HOUR
    # Answers to mails with a right password do not count (`Outbox.limited`): forged mails
    # cannot use up a player's answers.
    count = session.exec(
        select(func.count())
        .select_from(Outbox)
        .where(
            Outbox.recipients == address,
            Outbox.in_reply_to != "",
            Outbox.limited == True,  # noqa: E712
            col(Outbox.created_at) >= since,
        )
    ).one()
    return int(count)


def bad_passwords_last_hour(svc: Service, session: Session, address: str) -> int:
    since = svc.clock.now() - HOUR
    count = session.exec(
        select(func.count())
        .select_from(InboundMail)
        .where(
            InboundMail.sender == address,
            InboundMail.error == BAD_PASSWORD,
            col(InboundMail.received_at) >= since,
        )
    ).one()
    return int(count)


def may_answer(svc: Service, session: Session, address: str) -> bool:
    """False once an address has had its answers for this hour (a loop or a flood)."""
    return answers_last_hour(svc, session, address) < svc.config.service.rate_limit_per_hour
