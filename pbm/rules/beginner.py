"""The beginner setup of seed 000 ("Standardopstilling"): a fixed board and fixed starting pieces.

Seed 000 describes it without its drawing: lay the land hexes exactly as drawn, the sea frame
around them alternating hexes with and without harbours, the number tokens as drawn, and each
colour's two settlements and two roads as drawn; then the setup phase goes on. The drawing is
the published base game's "starting set-up for beginners" (docs/rules-decisions.md,
"The beginner setup", says where the data below comes from and how sure it is):

    row B:        Erz 10   Wolle 2   Holz 9
    row C:   Getreide 12   Lehm 6   Wolle 4   Lehm 10
    row D: Getreide 9   Holz 11   Wüste   Holz 3   Erz 8
    row E:      Holz 8   Erz 3   Getreide 4   Wolle 5
    row F:          Lehm 5   Getreide 6   Wolle 11

The pieces stand, so of the setup phase only what follows the placing is left: the settlement
the drawing marks (`Start.marked`, the one placed second) pays one card for each producing hex
next to it, and round 1 begins. The four starting positions go to the seats in order; with three
players the fourth is left out (the rule book takes the red pieces out).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, HexSpec, Terrain
from .building import place_road, place_settlement
from .events import Event
from .layouts import frame_coords, island_coords
from .resources import ERZ, GETREIDE, HOLZ, LEHM, WOLLE

# The setup's second-settlement income is the starting cards of the beginner setup too.
from .setup import _second_income as second_income
from .state import RULES, GameState, Phase, Settings, new_game

#: The layout's name (`pbm game create --layout beginner`, the board's name).
NAME = "beginner"
SIZE = "medium"
PLAYERS = (3, 4)

#: Land hexes row by row (None: the desert), each with its number token.
LAND: tuple[tuple[tuple[int, int] | None, ...], ...] = (
    ((ERZ, 10), (WOLLE, 2), (HOLZ, 9)),
    ((GETREIDE, 12), (LEHM, 6), (WOLLE, 4), (LEHM, 10)),
    ((GETREIDE, 9), (HOLZ, 11), None, (HOLZ, 3), (ERZ, 8)),
    ((HOLZ, 8), (ERZ, 3), (GETREIDE, 4), (WOLLE, 5)),
    ((LEHM, 5), (GETREIDE, 6), (WOLLE, 11)),
)

#: Harbours on every other hex of the sea frame, clockwise from the top left: the sea hex's
#: label, the harbour (None: 3:1) and the label of the land hex it faces.
HARBOURS: tuple[tuple[str, int | None, str], ...] = (
    ("A1", None, "B2"),
    ("A3", GETREIDE, "B3"),
    ("B5", ERZ, "C5"),
    ("D7", None, "D6"),
    ("F5", WOLLE, "E5"),
    ("G3", None, "F3"),
    ("G1", None, "F2"),
    ("E1", LEHM, "D2"),
    ("C1", HOLZ, "C2"),
)


@dataclass(frozen=True)
class Start:
    """One colour's pieces in the drawing: crossings and paths by the labels of their hexes."""

    colour: str
    #: The settlement whose neighbours pay the starting cards (placed second in a setup).
    marked: str
    marked_road: str
    other: str
    other_road: str


#: The drawing's four starting positions, in seat order (the fourth is red: left out at three).
STARTS: tuple[Start, ...] = (
    Start("blau", "C4 C5 D5", "C4 C5", "E3 E4 F3", "E3 E4"),
    Start("orange", "E2 E3 F2", "E2 E3", "C2 D2 D3", "D2 D3"),
    Start("weiss", "B2 B3 C3", "B2 C3", "E4 E5 F4", "E5 F4"),
    Start("rot", "D5 D6 E5", "D6 E5", "C3 D3 D4", "C3 D4"),
)


def check_beginner(players: int, size: str | None) -> str | None:
    """Why a game cannot have the beginner setup, or None."""
    if players not in PLAYERS:
        return "the beginner layout is for 3 or 4 players"
    if size not in (None, SIZE):
        return "the beginner layout is the medium island"
    return None


def _label_coords() -> dict[str, tuple[int, int]]:
    board = _plain_board()
    return {h.label: (h.row, h.x) for h in board.hexes}


def _plain_board() -> Board:
    land = island_coords(tuple(len(row) for row in LAND))
    specs: list[HexSpec] = []
    for (r, x), tile in zip(land, [t for row in LAND for t in row], strict=True):
        if tile is None:
            specs.append(HexSpec(r, x, Terrain.DESERT))
        else:
            specs.append(HexSpec(r, x, Terrain.LAND, tile[0], tile[1]))
    specs += [HexSpec(r, x, Terrain.SEA) for r, x in frame_coords(land)]
    return Board(specs, name=NAME)


def beginner_board() -> Board:
    """The beginner board: land, numbers and the harbours of the drawing."""
    plain = _plain_board()
    at = _label_coords()
    harbours = {at[sea]: (kind, at[faces]) for sea, kind, faces in HARBOURS}
    specs: list[HexSpec] = []
    for h in plain.hexes:
        if (h.row, h.x) in harbours:
            kind, faces = harbours[(h.row, h.x)]
            specs.append(HexSpec(h.row, h.x, h.terrain, harbor_resource=kind, harbor_faces=faces))
        else:
            specs.append(HexSpec(h.row, h.x, h.terrain, h.resource, h.number))
    return Board(specs, name=NAME)


def beginner_start(state: GameState) -> tuple[GameState, list[Event]]:
    """The pieces of the drawing on a game at the start of its setup, the starting cards paid,
    round 1 open: what a finished setup would leave."""
    if state.phase != Phase.SETUP or state.setup_step != 0:
        raise ValueError("the beginner pieces go on a game before its setup")
    s = state.copy()
    board = s.board
    events: list[Event] = []
    for p, start in enumerate(STARTS[: s.settings.players]):
        for site, road in ((start.other, start.other_road), (start.marked, start.marked_road)):
            place_settlement(s, p, board.crossing_by_labels(site.split()), events, free=True)
            place_road(s, p, board.path_by_labels(road.split()), events, free=True)
        second_income(s, p, board.crossing_by_labels(start.marked.split()), events)
    s.setup_step = 2 * s.settings.players
    s.phase = Phase.ROUNDS
    s.round = 1
    return s, events


def beginner_game(
    settings: Settings, seed: int, colours: tuple[str, ...] | None = None, rules: int = RULES
) -> GameState:
    """A game on the beginner board with its pieces placed, at round 1. The seed still deals
    the deck and rolls the dice."""
    state = new_game(settings, seed, colours, board=beginner_board(), rules=rules)
    return beginner_start(state)[0]
