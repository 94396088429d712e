"""`Hilfe` / `Help`: the overview, a chapter of the player guide, or the whole guide."""

from __future__ import annotations

from pbm.i18n import N_

from .. import texts
from ..request import Request
from .command import MailCommand


def help_(r: Request) -> str | None:
    """A short overview for this game's kind, or the chapter of the player guide the mail
    names (`Hilfe Schiffe`), or the whole guide (`Hilfe alles`): `service.help`."""
    from ..help import help_answer
    from . import command_lines  # the registry holds this module: read when called

    data = help_answer(r.game, r.state, r.parsed.help_topic, command_lines(r.lang))
    r.answer("help", texts.t(r.lang, "help_subject", game=r.game.name), data)
    return None


COMMAND = MailCommand("help", "", N_("this help"), False, help_)
