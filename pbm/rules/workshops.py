"""Kronlande workshops and the goods they make (spec kronlande.md, "Buildings").

A workshop stands on one of the player's own settlements or cities (a Burg or Residenz is one
too), at most one on a building and at most one of each kind per player; it costs 1 Holz,
1 Lehm and 1 Stein. The player with a workshop makes its good in their build step as often as
they like: `Make(good, count)` pays the recipe `count` times, all or none (a good is never
made from half a recipe). Goods come from the unlimited supply.
"""

from __future__ import annotations

from .building import pay
from .events import Built, Event
from .kron import WORKSHOP_GOOD, WORKSHOP_PIECES, WORKSHOPS, workshop_for
from .kron_events import GoodsMade
from .orders import Make, Workshop
from .reasons import Reason
from .resources import COST_WORKSHOP, GOODS, RECIPES, Counts, can_pay, scaled
from .state import GameState


def workshop_rule(
    state: GameState, p: int, order: Workshop, check_cost: bool = True
) -> Reason | None:
    kron = state.kron
    if kron is None:
        return Reason.NOT_KRONLANDE
    if order.kind not in WORKSHOPS:
        return Reason.NOT_A_GOOD
    c = order.crossing
    if not 0 <= c < len(state.owner) or state.owner[c] != p:
        return Reason.NOT_OWN_BUILDING
    if kron.workshop[c] >= 0:
        return Reason.WORKSHOP_ON_BUILDING
    if kron.workshops[p][order.kind] >= 0:
        return Reason.WORKSHOP_KIND_HELD
    if check_cost and not can_pay(state.hands[p], COST_WORKSHOP):
        return Reason.CANNOT_AFFORD
    return None


def place_workshop(
    state: GameState, p: int, order: Workshop, events: list[Event], free: bool = False
) -> None:
    kron = state.kron
    assert kron is not None
    if not free:
        pay(state, p, COST_WORKSHOP, events)
    kron.workshop[order.crossing] = order.kind
    kron.workshops[p][order.kind] = order.crossing
    events.append(Built(p, WORKSHOP_PIECES[order.kind], order.crossing, free))


def make_cost(order: Make) -> Counts:
    """What making the goods of an order costs: its recipe `count` times."""
    return scaled(RECIPES[order.good], order.count)


def make_rule(state: GameState, p: int, order: Make, check_cost: bool = True) -> Reason | None:
    kron = state.kron
    if kron is None:
        return Reason.NOT_KRONLANDE
    if order.good not in GOODS or order.count < 1:
        return Reason.NOT_A_GOOD
    if kron.workshops[p][workshop_for(order.good)] < 0:
        return Reason.NO_WORKSHOP
    if check_cost and not can_pay(state.hands[p], make_cost(order)):
        return Reason.CANNOT_AFFORD
    return None


def make_goods(state: GameState, p: int, order: Make, events: list[Event]) -> None:
    pay(state, p, make_cost(order), events)
    state.hands[p][order.good] += order.count
    events.append(GoodsMade(p, order.good, order.count))


def goods_makeable(state: GameState, p: int) -> list[int]:
    """The goods p has the workshop for, in good order."""
    kron = state.kron
    if kron is None:
        return []
    return [WORKSHOP_GOOD[k] for k in WORKSHOPS if kron.workshops[p][k] >= 0]
