"""`Bestätigen: CODE` / `Confirm: CODE`: complete a sign-up or an observation."""

from __future__ import annotations

import hmac

from sqlmodel import col, select

from pbm.i18n import N_
from pbm.notation.written import written_in
from pbm.store.models import Player
from pbm.store.statuses import PENDING, PlayerStatus

from .. import texts
from ..games import ServiceError
from ..request import Request
from ..signup import confirm_join
from .command import MailCommand


def confirm(r: Request) -> str | None:
    """`Bestätigen: CODE` from the address itself completes what it asked for in this game: a
    pending observation or a pending sign-up (`PENDING`), whichever the code belongs to."""
    pending = r.session.exec(
        select(Player).where(
            Player.game_id == r.game.id,
            Player.address == r.inbound.sender,
            col(Player.status).in_(PENDING),
        )
    ).all()
    token = (r.parsed.confirm or "").strip().lower().encode()
    match = next(
        (
            p
            for p in pending
            if p.confirm_token and hmac.compare_digest(token, p.confirm_token.encode())
        ),
        None,
    )
    if match is None:
        r.refuse(texts.t(r.lang, "confirm_bad_token", game=r.game.name))
        return None
    if r.parsed.confirm_held:
        # The code only in the quoted request (the player said yes in their own words), or
        # in a sentence of their own (which a victim asking about the code writes too).
        code = match.confirm_token
        key = "confirm_in_sentence" if r.parsed.confirm_held == "sentence" else "confirm_write_line"
        r.refuse(texts.t(r.lang, key, game=r.game.name, code=code))
        return None
    if match.status == PlayerStatus.SIGNUP_PENDING:
        try:
            confirm_join(
                r.svc,
                r.session,
                r.game,
                match,
                r.parsed.name or "",
                r.parsed.colours,
                reply_to=r.inbound.message_id,
                written=written_in(r.inbound.text, r.inbound.subject),
                unknown=r.parsed.colours_unknown,
            )
        except ServiceError as e:
            r.refuse(str(e))
        return None
    match.status = PlayerStatus.OBSERVER
    match.confirm_token = ""
    r.reply(
        "ack", texts.t(r.lang, "ok_subject", game=r.game.name), texts.t(r.lang, "observe_confirmed")
    )
    return None


COMMAND = MailCommand(
    "confirm",
    N_("Confirm: <code from the mail>"),
    N_("confirm a signup or observing"),
    False,
    confirm,
)
