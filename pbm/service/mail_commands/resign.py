"""`Aufgeben` / `Resign`: the autopilot plays the seat to the end."""

from __future__ import annotations

from pbm.i18n import N_, translator
from pbm.notation import vocab
from pbm.notation.format import word
from pbm.store.statuses import GamePhase, PlayerStatus

from .. import gm_alerts, texts
from ..order_intake import take_orders
from ..outbox import Mailbag
from ..request import Request
from ..rounds import set_autopilot
from .command import MailCommand


def resign(r: Request) -> str | None:
    """The seat is the autopilot's from now on; the player is told in the answer to this
    mail, and the GM in an alert. Orders in the same mail count for the open round (a seat's
    own orders always come before the autopilot's); a line refused beside it is answered."""
    assert r.player is not None
    player = r.player
    resigned_before = player.status == PlayerStatus.RESIGNED
    player.status = PlayerStatus.RESIGNED
    switched = set_autopilot(r.svc, r.session, r.game, player, True, why="resigned", notify=False)
    if not resigned_before:
        from ..absence import announce_resigned

        announce_resigned(r.svc, r.session, r.game, player)
    if not switched and not resigned_before:
        # The autopilot played the seat already (missed rounds, the GM): the GM still hears
        # that the player gave it up for good.
        bag = Mailbag(r.svc)
        gm_alerts.autopilot(r.svc, r.game, player, "resigned", bag)
        bag.post(r.session)
    r.changed = True
    _pass_over_prose(r)
    _ = translator(r.lang).gettext
    colour = vocab.colour_name(player.colour or "", r.game.locale)
    said = _(
        "You have resigned: the autopilot plays {colour} to the end of the game (it places "
        "the robber, builds and buys for you every round). Changed your mind? Write "
        '"{back}" with your password to play again.'
    ).format(colour=colour, back=word("back", r.lang))
    if not r.parsed.has_orders() and not r.parsed.has_refused():
        body = "\n\n".join([said, *r.notes]) + "\n"
        r.reply("ack", texts.t(r.lang, "ok_subject", game=r.game.name), body)
        return None
    # One answer says both: the resignation and what became of the mail's lines.
    r.notes.insert(0, said)
    if r.parsed.has_orders() and r.game.phase == GamePhase.ROUNDS:
        r.notes.insert(
            1,
            _(
                "The orders of this mail count for round {round}; the autopilot plays from "
                "the next round on."
            ).format(round=r.game.round),
        )
    return take_orders(r)


#: The refusals of a line whose first word is no order and near none (`order_expected` and an
#: expansion's own, `notation.refusals.ORDER_EXPECTED`).
_PROSE_KEYS = frozenset({"order_expected", "order_expected_sea", "order_expected_kron"})


def _pass_over_prose(r: Request) -> None:
    """A line of words beside `Aufgeben` (`sorry guys, I have to stop, work is crazy`) says
    why, and is no order meant: passed over, as a greeting is, so the resignation is
    confirmed plainly rather than "partly accepted". A line that looks like an order (a near
    miss such as `Raod 3A`, a digit, a keyword with the rest not understood) is refused still."""
    r.parsed.lines = [
        line
        for line in r.parsed.lines
        if line.error is None
        or line.error.key not in _PROSE_KEYS
        or any(ch.isdigit() for ch in line.text)
    ]


COMMAND = MailCommand(
    "resign", "", N_("resign; the autopilot plays your seat to the end"), True, resign
)
