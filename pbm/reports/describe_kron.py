"""The lines of Kronlande's events (fish for missing grain, goods, the feast), its buildings,
and the robber a castle sends away. Registered with `describe.event_line`, `describe.refines`
and `describe.PIECE_LINES` on import (`describe.py` imports this module, so every report has
these lines)."""

from __future__ import annotations

from pbm.i18n import N_
from pbm.notation.names import crossing_text
from pbm.rules import events as ev
from pbm.rules.kron_events import FeastGiven, FishPaid, GoodsMade, GoodsTaken
from pbm.rules.resources import FISCH

from .describe import ORDERED_BY, PIECE_LINES, TOLD_AFTER_NEXT, Teller, event_line, refines

#: Kronlande's buildings (`Built.piece`): the line that tells each.
PIECE_LINES.update(
    {
        "smithy": (N_("{player} builds a smithy at {crossing}"), crossing_text),
        "weaving_mill": (N_("{player} builds a weaving mill at {crossing}"), crossing_text),
        "bakery": (N_("{player} builds a bakery at {crossing}"), crossing_text),
        "castle": (N_("{player} builds a castle at {crossing}"), crossing_text),
        "residence": (N_("{player} builds a residence at {crossing}"), crossing_text),
    }
)

# The fish paid for missing grain comes right before the build it paid for, and is told under it.
TOLD_AFTER_NEXT.add(FishPaid)
# Goods made in a workshop are the seat's order (its buildings are `Built` events).
ORDERED_BY[GoodsMade] = lambda e: e.player


@refines(ev.RobberMoved)
def _castle_robber(e: ev.RobberMoved, t: Teller) -> str | None:
    """A Burg built next to the robber's hex sends it to a desert without one, or off the
    island (castles.castle_free_desert)."""
    if e.cause != "castle":
        return None
    if e.hex < 0:
        return t._("  the robber leaves the island: it never stands next to a castle")
    return t._("  the robber goes to {hex}: it never stands next to a castle").format(
        hex=t.hex(e.hex)
    )


@event_line.register
def _(e: FishPaid, t: Teller) -> str:
    return t._("  {player} pays {cards} for missing grain").format(
        player=t.who(e.player), cards=t.res(e.fish, FISCH)
    )


@event_line.register
def _(e: GoodsMade, t: Teller) -> str:
    return t._("{player} makes {cards}").format(
        player=t.actor(e.player), cards=t.res(e.count, e.good)
    )


@event_line.register
def _(e: GoodsTaken, t: Teller) -> str:
    return t._("  {player} takes {cards}").format(player=t.who(e.player), cards=t.counts(e.cards))


@event_line.register
def _(e: FeastGiven, t: Teller) -> str:
    return t._("  {giver} gives {player} {card}").format(
        giver=t.who(e.giver), player=t.who(e.player), card=t.res(1, e.item)
    )
