"""`Verlauf` / `History`: the past rounds."""

from __future__ import annotations

from pbm.i18n import N_

from .. import texts
from ..request import Request
from .command import MailCommand

#: Reports a `Verlauf` answer holds when no archive is on the web.
HISTORY_REPORTS = 3


def history(r: Request) -> str | None:
    """The past rounds: links into the web archive when `[archive] url` is set, else the last
    `HISTORY_REPORTS` reports as one mail."""
    from ..history import history_body

    assert r.player is not None
    r.reply(
        "history",
        texts.t(r.lang, "history_subject", game=r.game.name),
        history_body(r.svc, r.session, r.game, HISTORY_REPORTS),
        to=r.player.address,
    )
    return None


COMMAND = MailCommand(
    "history",
    "",
    N_("the past rounds: links to the game's web archive, or the last reports"),
    True,
    history,
)
