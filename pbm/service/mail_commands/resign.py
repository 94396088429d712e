"""`Aufgeben` / `Resign`: the autopilot plays the seat to the end."""

from __future__ import annotations

from pbm.i18n import N_
from pbm.store.statuses import PlayerStatus

from ..request import Request
from ..rounds import set_autopilot
from .command import MailCommand


def resign(r: Request) -> str | None:
    assert r.player is not None
    r.player.status = PlayerStatus.RESIGNED
    set_autopilot(r.svc, r.session, r.game, r.player, True, why="resigned")
    return None


COMMAND = MailCommand(
    "resign", "", N_("resign; the autopilot plays your seat to the end"), True, resign
)
