"""Kronlande in the legal-move view: workshops, goods, Burgen and Residenzen, the project
cards, and the bank's rates of its Hafenprivileg and Residenz. Registered with `legal_hooks`
on import (`legal.py` imports this module)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import castles, kron_cards, workshops
from .events import Event
from .kron import BURG, NO_CASTLE, WORKSHOPS
from .layouts import BUILDERS_HUT, FEAST, HARBOUR_PRIVILEGE
from .legal_hooks import (
    ACTION_RULES,
    CERTAIN_RULES,
    EXECUTORS,
    HOOKS,
    PLACERS,
    LegalHooks,
    action_rule,
)
from .orders import (
    BuildersHut,
    Castle,
    Feast,
    HarbourPrivilege,
    Make,
    Residence,
    Workshop,
)
from .reasons import Reason
from .state import GameState

if TYPE_CHECKING:
    from .legal import LegalMoves

#: Kronlande's project cards, in name order.
PROJECTS = (BUILDERS_HUT, FEAST, HARBOUR_PRIVILEGE)


def workshop_orders(state: GameState, p: int) -> list[Workshop]:
    """Workshops p may build (`workshops.workshop_rule` without the cost): each kind it lacks,
    on each of its buildings without one; by kind, then crossing."""
    kron = state.kron
    if kron is None:
        return []
    free = sorted(c for c in state.settlements[p] + state.cities[p] if kron.workshop[c] < 0)
    return [Workshop(k, c) for k in WORKSHOPS if kron.workshops[p][k] < 0 for c in free]


def castle_sites(state: GameState, p: int) -> list[int]:
    """p's cities that may become a Burg (`castles.castle_rule` without the cost)."""
    kron = state.kron
    if kron is None:
        return []
    return sorted(c for c in state.cities[p] if state.level[c] == 2 and kron.castle[c] == NO_CASTLE)


def residence_sites(state: GameState, p: int) -> list[int]:
    """p's Burgen, which may become a Residenz (`castles.residence_rule`)."""
    kron = state.kron
    if kron is None:
        return []
    return sorted(c for c in state.cities[p] if kron.castle[c] == BURG)


def _privilege(s: GameState, p: int, item: HarbourPrivilege, events: list[Event]) -> None:
    # The later bank trades of the step at 2:1 (the card itself stays in the view).
    assert s.kron is not None
    s.kron.privilege[p] = s.round


class KronLegal(LegalHooks):
    def moves(self, legal: LegalMoves) -> Iterable[Any]:
        if legal.state.kron is None:
            return
        yield from legal.workshops()
        yield from (Make(g, 1) for g in legal.goods())
        yield from (Castle(c) for c in legal.castles())
        yield from (Residence(c) for c in legal.residences())

    def playable(self, state: GameState) -> tuple[str, ...]:
        return () if state.kron is None else PROJECTS

    def bank_rates(self, state: GameState, p: int) -> tuple[list[int], bool] | None:
        """2 for everything after a Hafenprivileg this round (no harbour does better); with a
        Residenz 3, and 2 for Stein; else 4 for each of the seven resources."""
        kron = state.kron
        if kron is None:
            return None
        if kron.privilege[p] == state.round:
            return [2] * state.settings.bank_width, False
        if kron.residenzen[p]:
            return [3, 3, 3, 3, 3, 2, 3], True
        return [4] * state.settings.bank_width, True


def _certain_action(legal: LegalMoves, item: Any) -> Reason | None:
    return action_rule(legal.state, legal.seat, item, check_cost=False)


def _certain_project(legal: LegalMoves, item: Any) -> Reason | None:
    return kron_cards.project_held_rule(legal.state, legal.seat, item)


ACTION_RULES.update(
    {
        Workshop: lambda s, p, a, cost: workshops.workshop_rule(s, p, a, cost),
        Make: lambda s, p, a, cost: workshops.make_rule(s, p, a, cost),
        Castle: lambda s, p, a, cost: castles.castle_rule(s, p, a.crossing, cost),
        Residence: lambda s, p, a, cost: castles.residence_rule(s, p, a.crossing, cost),
        BuildersHut: lambda s, p, a, cost: kron_cards.project_rule(s, p, a),
        HarbourPrivilege: lambda s, p, a, cost: kron_cards.project_rule(s, p, a),
        Feast: lambda s, p, a, cost: kron_cards.project_rule(s, p, a),
    }
)
CERTAIN_RULES.update(
    {
        Workshop: _certain_action,
        Make: _certain_action,
        Castle: _certain_action,
        Residence: _certain_action,
        BuildersHut: _certain_project,
        HarbourPrivilege: _certain_project,
        Feast: _certain_project,
    }
)
EXECUTORS.update(
    {
        Workshop: lambda s, p, a, ev, gold: workshops.place_workshop(s, p, a, ev),
        Make: lambda s, p, a, ev, gold: workshops.make_goods(s, p, a, ev),
        Castle: lambda s, p, a, ev, gold: castles.place_castle(s, p, a.crossing, ev),
        Residence: lambda s, p, a, ev, gold: castles.place_residence(s, p, a.crossing, ev),
        BuildersHut: lambda s, p, a, ev, gold: kron_cards.play_project(s, p, a, ev),
        HarbourPrivilege: lambda s, p, a, ev, gold: kron_cards.play_project(s, p, a, ev),
        Feast: lambda s, p, a, ev, gold: kron_cards.play_project(s, p, a, ev),
    }
)
PLACERS.update(
    {
        Workshop: lambda s, p, a, ev: workshops.place_workshop(s, p, a, ev, free=True),
        Castle: lambda s, p, a, ev: castles.place_castle(s, p, a.crossing, ev, free=True),
        Residence: lambda s, p, a, ev: castles.place_residence(s, p, a.crossing, ev, free=True),
        HarbourPrivilege: _privilege,
    }
)
HOOKS.append(KronLegal())
