"""The GM is visible (issue 15): every GM action that affects the players mails them a notice in
the game's language (`templates/gm_notice.*.j2`): pause, resume, a moved deadline, a seat given
to someone else, the game ended by the GM, the autopilot switched on or off for a seat by the GM
(`pbm player autopilot`; that seat's player gets the `autopilot` mail instead), and the GM's
own announcements; and, in the same
form, a player's absence (`Urlaub bis …`), which everyone is told of.

`tell` is the one way to send such a notice, so that another lever (a rollback's correction,
issue 14) can reuse it with an event of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlmodel import Session

from pbm.reports import notices
from pbm.store.models import Game, Outbox

from . import texts
from .context import Service
from .games import recipients
from .outbox import notify

#: The events a notice may tell, each with its subject (`texts`: `gm_<event>_subject`).
EVENTS = (
    "paused",
    "resumed",
    "deadline",
    "replaced",
    "replaced_out",
    "ended",
    "announce",
    "away",
    "away_own",
    "back",
    "resigned",
    "autopilot",
)


def tell(
    svc: Service,
    session: Session,
    game: Game,
    event: str,
    *,
    to: Iterable[str] | None = None,
    subject: str | None = None,
    **values: Any,
) -> Outbox | None:
    """Mail the notice of `event` to `to` (else every player and confirmed observer); None
    when there is nobody to tell. Never counted toward anybody's hourly answers: the GM acted.
    `subject`: another subject than the event's own (`texts`: `gm_<event>_subject`)."""
    if event not in EVENTS:
        raise ValueError(f"no GM notice {event!r}")
    addresses = sorted(set(to if to is not None else recipients(session, game)))
    if not addresses:
        return None
    if subject is None:
        subject = texts.t(game.locale, f"gm_{event}_subject", game=game.name)
    return notify(
        svc,
        session,
        "gm_notice",
        addresses,
        game,
        subject,
        notices.gm_notice(game.locale, event, **values),
        limited=False,
    )
