"""How an expansion's pieces change the base game's building rules (`building.py`) and its
setup (`setup.py`), so that they do not test which expansion a game plays: Seafarers' ships
reach settlement sites, take sides a road would take, join the longest road into the trade
route and close trade lines; its setup has start areas and ships.

An expansion appends one `PieceHooks` to `PIECE_HOOKS` and one `SetupHooks` to `SETUP_HOOKS`
on import (`sea_part.py`; `state.py` imports it, so every game has them). Each hook decides by
the state whether its part is there. This module imports nothing of the rules, so that the
state's own imports can register.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import Event
    from .orders import SetupPlacement
    from .reasons import Reason
    from .state import GameState


class PieceHooks:
    """The defaults change nothing."""

    def reaches(self, state: GameState, p: int, c: int) -> bool:
        """Whether another piece of p's touches crossing c, so a settlement may stand there."""
        return False

    def unreached(self, state: GameState) -> Reason | None:
        """The reason for a settlement nothing of p's reaches, when not the base game's."""
        return None

    def takes(self, state: GameState, e: int) -> bool:
        """Whether another piece stands on path e (no road may go there)."""
        return False

    def settled(self, state: GameState, p: int, c: int, events: list[Event]) -> None:
        """Right after p's settlement at c is placed (points for where it stands)."""

    def touched(self, state: GameState, p: int, c: int) -> set[int]:
        """Seats besides the opponents with a road at c whose route a settlement at c changes."""
        return set()

    def built(self, state: GameState, p: int, events: list[Event]) -> None:
        """After p's settlement or road stands and the longest road is measured again."""

    def route_length(self, state: GameState, p: int) -> int | None:
        """p's longest route when the expansion measures it otherwise (None: the roads')."""
        return None


#: The registered expansions' hooks, in registration order.
PIECE_HOOKS: list[PieceHooks] = []


class SetupHooks:
    """An expansion's own setup (Seafarers: start areas, ships on a "must" coast, gold for the
    second settlement, the home islands at the end), for the games it `applies` to. One
    instance per expansion goes into `SETUP_HOOKS` on import (`sea_part.py`)."""

    def applies(self, state: GameState) -> bool:
        return False

    def placement_rule(self, state: GameState, placement: SetupPlacement) -> Reason | None:
        raise NotImplementedError

    def automatic_placement(self, state: GameState) -> SetupPlacement:
        raise NotImplementedError

    def place_piece(
        self, state: GameState, p: int, placement: SetupPlacement, events: list[Event]
    ) -> None:
        """Place the placement's road or other piece."""
        raise NotImplementedError

    def second_income(self, state: GameState, p: int, c: int, events: list[Event]) -> None:
        """What the second settlement pays besides the base game's cards."""

    def end(self, state: GameState, events: list[Event]) -> None:
        """After the last placement, before the first round."""


SETUP_HOOKS: list[SetupHooks] = []


def own_setup(state: GameState) -> SetupHooks | None:
    """The expansion's setup the game is set up by, or None for the base game's."""
    for hook in SETUP_HOOKS:
        if hook.applies(state):
            return hook
    return None
