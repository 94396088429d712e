"""How an expansion's pieces change the base game's building rules (`building.py`), so that
they do not test which expansion a game plays: Seafarers' ships reach settlement sites, take
sides a road would take, join the longest road into the trade route and close trade lines.

An expansion appends one `PieceHooks` to `PIECE_HOOKS` on import (`sea_part.py`; `state.py`
imports it, so every game has it). Each hook decides by the state whether its part is there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .events import Event
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
