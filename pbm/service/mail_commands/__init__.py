"""The mail commands players write, one module each (like GNU Mailman's email commands).

Each module holds one `MailCommand`: its word (the order word of `name` in the game's
language, `notation.format.word`), its arguments, its description and its handler, which gets
the mail as a `Request` (`pbm/service/request.py`). The help mail lists the registry by itself
(`command_lines`), and beside it the lines at the table that are no command (a message, a
pass, an absence, a time zone: `reports.help.table_lines`). Which command a mail runs, and
whether it needs the password first, is `pbm/service/dispatch.py`'s to decide.
"""

from __future__ import annotations

from pbm.i18n import translator
from pbm.notation.format import word
from pbm.reports import notices

from . import back, confirm, help, history, join, observe, players, resign, status, unobserve
from .command import MailCommand

__all__ = [
    "BESIDE_ORDERS",
    "COMMANDS",
    "PASSWORD_OPTIONAL",
    "REGISTRY",
    "MailCommand",
    "command_lines",
]

#: In the order the help mail lists them.
REGISTRY: list[MailCommand] = [
    join.COMMAND,
    help.COMMAND,
    status.COMMAND,
    players.COMMAND,
    history.COMMAND,
    resign.COMMAND,
    back.COMMAND,
    observe.COMMAND,
    confirm.COMMAND,
    unobserve.COMMAND,
]
COMMANDS = {c.name: c for c in REGISTRY}

#: Commands that need no password but say more to a player who gives the right one.
PASSWORD_OPTIONAL = ("status", "players")
#: Commands that only answer (they change nothing): in a mail that also carries orders and a
#: password, the orders are taken first and each of these is answered in a mail of its own
#: (a player who writes `Hilfe` under their orders must not lose the orders).
BESIDE_ORDERS = ("help", "status", "players", "history")


def command_lines(lang: str) -> list[notices.CommandLine]:
    """The registry's commands for the help mail, in the game's language."""
    _ = translator(lang).gettext
    return [
        notices.CommandLine(
            word(c.name, lang), _(c.args) if c.args else "", _(c.description), c.needs_password
        )
        for c in REGISTRY
    ]
