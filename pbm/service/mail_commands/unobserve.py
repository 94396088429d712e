"""`Nicht beobachten` / `Unobserve`: stop receiving the reports."""

from __future__ import annotations

from sqlmodel import col, select

from pbm.i18n import N_
from pbm.store.models import Player
from pbm.store.statuses import OBSERVING

from .. import texts
from ..request import Request
from .command import MailCommand


def unobserve(r: Request) -> str | None:
    row = r.session.exec(
        select(Player).where(
            Player.game_id == r.game.id,
            Player.address == r.inbound.sender,
            col(Player.status).in_(OBSERVING),
        )
    ).first()
    if row is None:
        r.refuse(texts.t(r.lang, "observe_not"))
        return None
    r.session.delete(row)
    r.reply(
        "ack", texts.t(r.lang, "ok_subject", game=r.game.name), texts.t(r.lang, "observe_stopped")
    )
    return None


COMMAND = MailCommand("unobserve", "", N_("stop receiving the reports"), False, unobserve)
