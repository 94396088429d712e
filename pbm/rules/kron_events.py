"""The events only a Kronlande game makes. They join the event table (`events.EVENT_TYPES`), so
a stored round of a Kronlande game loads like any other: `building` imports this module, so any
import of the rules package (or of a module in it) fills the table.

Kronlande also uses the base events: a workshop, a Burg or a Residenz built is a `Built` event
(piece "smithy", "weaving_mill", "bakery", "castle", "residence"; `where` the crossing), Stein
and Fisch produced are `Produced` events (on the quarry, on the fishing ground), a project card
played is a `CardPlayed` event (card "builders_hut", "harbour_privilege", "feast"), the title
Baumeister changing is a `TitleChanged` event with the title "builder" and the count of Burgen
and Residenzen as its `length`. Counts in events have the ten entries of a Kronlande hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .events import EVENT_TYPES, Event
from .resources import Counts


@dataclass(slots=True)
class FishPaid(Event):
    """`fish` Fisch paid for Getreide the player lacked, in the cost of the event that follows
    (a building, a card, goods made)."""

    kind: ClassVar[str] = "fish_paid"
    player: int
    fish: int


@dataclass(slots=True)
class GoodsMade(Event):
    """`count` of `good` made in the player's workshop (its recipe paid `count` times)."""

    kind: ClassVar[str] = "goods_made"
    player: int
    good: int
    count: int


@dataclass(slots=True)
class GoodsTaken(Event):
    """The goods a Bauhütte gave the player (from the unlimited supply)."""

    kind: ClassVar[str] = "goods_taken"
    player: int
    cards: Counts


@dataclass(slots=True)
class FeastGiven(Event):
    """Festmahl: `giver` gave the player one `item` (a resource or a good)."""

    kind: ClassVar[str] = "feast_given"
    player: int
    giver: int
    item: int


for _cls in (FishPaid, GoodsMade, GoodsTaken, FeastGiven):
    EVENT_TYPES.setdefault(_cls.kind, _cls)
