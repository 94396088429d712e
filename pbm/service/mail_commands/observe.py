"""`Beobachten` / `Observe`: receive the reports, once the address confirms."""

from __future__ import annotations

import secrets

from pbm.i18n import N_
from pbm.store.models import Player
from pbm.store.statuses import PlayerStatus

from .. import texts
from ..games import observers_of
from ..request import Request
from .command import MailCommand


def observe(r: Request) -> str | None:
    """Observing needs the observing address's own word: a token goes to it, and only a mail
    back with `Bestätigen: TOKEN` makes it an observer (nobody can sign up someone else)."""
    if any(p.address == r.inbound.sender for p in r.seated()):
        r.refuse(texts.t(r.lang, "observe_seated"))
        return None
    here = next((p for p in observers_of(r.session, r.game) if p.address == r.inbound.sender), None)
    if here is not None and here.status == PlayerStatus.OBSERVER:
        r.reply(
            "ack",
            texts.t(r.lang, "ok_subject", game=r.game.name),
            texts.t(r.lang, "observe_already"),
        )
        return None
    # A request asked again keeps its code (as a signup does): the first mail's code still
    # works, whichever of the two mails the player answers.
    token = here.confirm_token if here is not None and here.confirm_token else secrets.token_hex(6)
    if here is None:
        here = Player(
            game_id=r.game.id or 0,
            address=r.inbound.sender,
            name=r.inbound.sender,
            status=PlayerStatus.OBSERVER_PENDING,
            joined_at=r.svc.clock.now(),
        )
        r.session.add(here)
    here.confirm_token = token
    r.reply(
        "observe_confirm",
        texts.t(r.lang, "observe_confirm_subject", game=r.game.name),
        texts.t(r.lang, "observe_confirm_body", game=r.game.name, token=token),
    )
    return None


COMMAND = MailCommand(
    "observe", "", N_("receive the reports (after a confirmation by mail)"), False, observe
)
