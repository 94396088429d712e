"""`Anmeldung` / `Join`: ask for a seat in a game open for signup."""

from __future__ import annotations

from pbm.i18n import N_
from pbm.notation.written import written_in
from pbm.reports import notices

from .. import texts
from ..games import ServiceError
from ..request import Request
from ..signup import colours_told, request_join
from .command import MailCommand
from .confirm import confirm


def join(r: Request) -> str | None:
    """A sign-up by mail is a request: the seat is taken only when the address confirms with
    the token mailed to it (`confirm`); a forged From costs the victim one mail."""
    if r.parsed.confirm is not None:
        # A reply that quotes `Anmeldung` beside its `Bestätigen:` line confirms.
        return confirm(r)
    try:
        pending = request_join(
            r.svc,
            r.session,
            r.game,
            r.inbound.sender,
            r.parsed.name or "",
            r.parsed.colours,
            written=written_in(r.inbound.text, r.inbound.subject),
        )
    except ServiceError as e:
        r.refuse(str(e))
        return None
    told = colours_told(r.game, pending, r.parsed.colours_unknown, r.parsed.colours, hint=True)
    r.answer(
        "signup_confirm",
        texts.t(r.lang, "signup_confirm_subject", game=r.game.name),
        notices.signup_confirm(r.lang, pending.confirm_token, told),
    )
    return None


COMMAND = MailCommand(
    "join",
    N_("Name: <name>, Colours: …"),
    N_("join a game that is open for signup"),
    False,
    join,
)
