"""`Status`: where the game stands (with the password: which orders are in)."""

from __future__ import annotations

from pbm.i18n import N_

from .. import answers, texts
from ..request import Request
from .command import MailCommand


def status(r: Request) -> str | None:
    to = r.player.address if r.player else None
    r.reply(
        "status",
        texts.t(r.lang, "status_subject", game=r.game.name),
        answers.status_body(r.session, r.game, r.player, r.svc.clock.now()),
        to=to,
    )
    return None


COMMAND = MailCommand(
    "status",
    "",
    N_("round, deadline, whether your orders are in (with password: which)"),
    False,
    status,
)
