"""An expansion's part of a game: the state it adds to `GameState` and how a game with it is
dealt, laid, stored and read back, so that `state.py` and `serial.py` ask every registered
part instead of testing which expansion a game plays.

A part registers one `PartKind` on import (`sea_part.py`, `kron_part.py`; `state.py` imports
them, so every state has them). Its state object (`sea.SeaState`, `kron.KronState`) lives in
the `GameState` slot of the same name, None in a game without it, and answers `StatePart`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .board import Board
    from .state import GameState, Settings


class StatePart(Protocol):
    """What the shared state asks of an expansion's part of it."""

    def copy(self) -> StatePart: ...

    def reindex(self, owner: list[int], players: int) -> None:
        """Rebuild the part's indexes from its own lists and the buildings' owners."""

    def extra_vp(self, p: int) -> int:
        """The victory points the part adds for seat p."""

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class PartKind:
    """How a game gets an expansion's part, and what else the expansion changes in it."""

    #: The `GameState` slot and the JSON and text key of the part ("sea", "kron").
    field: str
    #: The JSON format version of a game with this part (`serial.VERSIONS`).
    version: int
    #: Whether a game of these settings has the part.
    on: Callable[[Settings], bool]
    #: The part of a new game (board, pieces and players set).
    new: Callable[[GameState], StatePart]
    #: The part read back from its JSON, once the board and the pieces are.
    read: Callable[[dict[str, Any], GameState], StatePart]
    #: The settings the JSON form writes for it (beside the base game's).
    settings_json: Callable[[Settings], dict[str, Any]]
    #: The text form's fields for it, from the state and its JSON form.
    text_fields: Callable[[GameState, dict[str, Any]], list[str]]
    #: The settings its text fields say (the text form holds the part's own field).
    text_settings: Callable[[dict[str, str]], dict[str, Any]]
    #: Entries of a hand and resources of the bank, when not the base game's.
    hand_width: int | None = None
    bank_width: int | None = None
    #: Card types of its deck beside the base game's, and its deck (None: the base game's).
    card_types: tuple[str, ...] = ()
    deck: dict[str, int] | None = None
    #: Its board for (settings, seed, version), and the board version a new game is laid by
    #: (None: the base islands').
    board: Callable[[Settings, int, int], Board] | None = None
    board_version: Callable[[Settings], int] | None = None


#: The registered parts, in registration order (the order they are written in).
PARTS: list[PartKind] = []


def _none(state: object) -> tuple[StatePart | None, ...]:
    return ()


#: A state's parts in `PARTS` order, None where its game has none: one C call (an
#: `attrgetter`) where a loop over `PARTS` made two `getattr` calls each, in `GameState.vp`,
#: which a round calls some nine times (a bot game's rolls a second: 47.5 → 49.7 thousand).
part_values: Callable[[Any], tuple[StatePart | None, ...]] = _none


def register(kind: PartKind) -> PartKind:
    global part_values
    PARTS.append(kind)
    getter: Callable[[Any], Any] = attrgetter(*(k.field for k in PARTS))
    part_values = getter if len(PARTS) > 1 else lambda state: (getter(state),)
    return kind


def parts_of(settings: Settings) -> list[PartKind]:
    """The parts a game of these settings has."""
    return [kind for kind in PARTS if kind.on(settings)]
