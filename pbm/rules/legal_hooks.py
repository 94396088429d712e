"""How the rules of an expansion plug into the legal-move view (`legal.py`) and the build
step's check (`action_rule`), so that neither tests which expansion a game plays.

An expansion registers, on import:

- the check of each build-step order class it adds (`ACTION_RULES`), its check at receipt
  (`CERTAIN_RULES`), how the round carries it out (`EXECUTORS`) and how its pieces are put on
  a copy of the state (`PLACERS`, what `LegalMoves.after` uses);
- one `LegalHooks` object (`HOOKS`): what it changes in the base game's lists (where a
  settlement can be reached from, which paths are taken, the moves it adds, the cards it
  makes playable, the bank's rates, the setup's pieces, the failures not certain at receipt).

Each hook is a plain function of the state: the expansion's own module decides whether its
part of the game is on (`state.sea`, `state.kron`); the shared code only asks every hook.
`legal.py` imports the expansions' modules (`sea_legal`, `kron_legal`), so the view always has
them, whatever was imported first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from . import building, cards, trade
from .events import Event
from .orders import (
    BuyCard,
    City,
    MaritimeTrade,
    Road,
    RoadBuilding,
    Settlement,
    YearOfPlenty,
)
from .reasons import Reason
from .state import GameState

if TYPE_CHECKING:
    from .gold import GoldChoices
    from .legal import LegalMoves

#: (state, seat, order, check_cost) → why the build step would refuse the order now, or None.
ActionRule = Callable[[GameState, int, Any, bool], Reason | None]
#: (view, order) → why the order fails whatever the round brings, or None (`certain_problem`).
CertainRule = Callable[["LegalMoves", Any], Reason | None]
#: (state, seat, order, events) → put the order's pieces on the state, free of cost.
Placer = Callable[[GameState, int, Any, list[Event]], None]
#: (state, seat, order, events, the round's gold choices) → carry out a legal build-step
#: order of an expansion in the round (`round.execute`).
Executor = Callable[[GameState, int, Any, list[Event], "GoldChoices | None"], None]

ACTION_RULES: dict[type, ActionRule] = {
    Road: lambda s, p, a, cost: building.road_rule(s, p, a.path, cost),
    Settlement: lambda s, p, a, cost: building.settlement_rule(s, p, a.crossing, cost),
    City: lambda s, p, a, cost: building.city_rule(s, p, a.crossing, cost),
    BuyCard: lambda s, p, a, cost: cards.buy_rule(s, p, cost),
    MaritimeTrade: lambda s, p, a, cost: trade.maritime_rule(s, p, a, cost),
    YearOfPlenty: lambda s, p, a, cost: cards.plenty_rule(s, p, a),
    RoadBuilding: lambda s, p, a, cost: cards.road_building_rule(s, p, a),
}
CERTAIN_RULES: dict[type, CertainRule] = {}
#: The expansions' build-step orders as the round carries them out (the base game's are
#: `round.execute`'s own).
EXECUTORS: dict[type, Executor] = {}


def _place_road_building(s: GameState, p: int, item: RoadBuilding, events: list[Event]) -> None:
    """Road building: the second piece only if it can follow the first."""
    cards.place_piece(s, p, item.first, item.first_ship, events)
    second = item.second
    if second is not None and cards.piece_rule(s, p, second, item.second_ship) is None:
        cards.place_piece(s, p, second, item.second_ship, events)


PLACERS: dict[type, Placer] = {
    Settlement: lambda s, p, a, ev: building.place_settlement(s, p, a.crossing, ev, free=True),
    City: lambda s, p, a, ev: building.place_city(s, p, a.crossing, ev, free=True),
    Road: lambda s, p, a, ev: building.place_road(s, p, a.path, ev, free=True),
    RoadBuilding: _place_road_building,
}


class LegalHooks:
    """What an expansion changes in the legal-move view. The defaults change nothing; an
    expansion overrides what it needs and appends an instance to `HOOKS`."""

    def reach_paths(self, state: GameState, p: int) -> Iterable[int]:
        """Paths of p's other pieces whose ends a settlement may be built at (besides roads)."""
        return ()

    def path_taken(self, state: GameState) -> Sequence[int] | None:
        """Per path: the seat of another piece on it (no road may go there), or -1."""
        return None

    def moves(self, legal: LegalMoves) -> Iterable[Any]:
        """The single build actions the expansion adds to the view, cost aside."""
        return ()

    def playable(self, state: GameState) -> tuple[str, ...]:
        """Card types played by the expansion's rules, besides the base game's."""
        return ()

    def bank_rates(self, state: GameState, p: int) -> tuple[list[int], bool] | None:
        """p's bank rates before harbours, and whether harbours can still lower them; None:
        the base game's 4:1."""
        return None

    def setup_pieces(self, legal: LegalMoves, c: int) -> list[tuple[int, bool]] | None:
        """(path, ship) a setup settlement on crossing c may take; None: the base game's."""
        return None

    def setup_options(self, legal: LegalMoves) -> list[tuple[int, int, bool]] | None:
        """(crossing, path, ship) of every legal setup placement; None: the base game's."""
        return None

    def uncertain(self, state: GameState, rule: Reason | None, hexes: Sequence[int]) -> bool:
        """Whether a failure of a piece at these hexes is undecided at receipt (a hex the
        round may still reveal)."""
        return False


#: The registered expansions' hooks, in registration order.
HOOKS: list[LegalHooks] = []


def action_rule(s: GameState, p: int, a: Any, check_cost: bool = True) -> Reason | None:
    """Why a build-step action cannot be done now, or None: the resolution's own check."""
    rule = ACTION_RULES.get(type(a))
    if rule is None:
        raise TypeError(a)
    return rule(s, p, a, check_cost)


def uncertain(s: GameState, rule: Reason | None, hexes: Sequence[int]) -> Reason | None:
    """`rule`, unless a hook says the round may still decide it (then None)."""
    if rule is not None and any(h.uncertain(s, rule, hexes) for h in HOOKS):
        return None
    return rule
