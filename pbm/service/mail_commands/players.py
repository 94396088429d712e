"""`Spieler` / `Players`: who plays which colour."""

from __future__ import annotations

from pbm.i18n import N_
from pbm.reports import notices
from pbm.store.statuses import GamePhase

from .. import texts
from ..request import Request
from ..table import roster_rows
from .command import MailCommand


def players(r: Request) -> str | None:
    """Who plays whom: colours and names, and the addresses for a player who gave the password
    (never in an anonymous game, never to a stranger)."""
    if r.game.phase == GamePhase.SIGNUP:
        r.refuse(texts.t(r.lang, "no_roster_yet"))
        return None
    to = r.player.address if r.player else None
    r.answer(
        "players",
        texts.t(r.lang, "players_subject", game=r.game.name),
        notices.players_(
            r.lang, roster_rows(r.session, r.game, addresses=r.player is not None), r.game.anonymous
        ),
        to=to,
    )
    return None


COMMAND = MailCommand(
    "players",
    "",
    N_("who plays which colour (with password: their addresses, unless anonymous)"),
    False,
    players,
)
