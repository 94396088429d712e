r"""The board as a monospace hex map: every hex, crossing and path, the pieces and the robber.

Layout (pointy-top hexes, as in `board.py`). Hex (row r, x) has its top corner on line
6·(r − first row) − 3 and in column 3 + 4·(x − first x): neighbours in a row are 8 columns
apart, rows 6 lines apart and offset by 4 columns. Lines below the top corner:

        .          +0   top corner: a crossing
       / \         +1   each slanted side: 3 characters
      /   \        +2
     / C3  \       +3   label
    .       .      +4   upper side corners
    |  6E   |      +5   token and resource, harbour code or ~ (the centre)
    .       .      +6   lower side corners
     \ *** /       +7   the robber
      \   /        +8
       \ /         +9
        .          +10  bottom corner

Only what the board has is drawn: every crossing (`.`, or a settlement as its colour's letter in
lower case, a city in upper case) and every path (`/`, `\`, `|`, a road as its owner's letter in
lower case, a harbour's side as `:`). The outer sides of the sea frame are no paths, so they are
left out: that keeps the huge island (nine hexes across) within 72 columns. The first line is the
top row's labels. A legend follows the map.

Seafarers boards are ten hexes across with their sea frame (81 columns in this layout), so they
are drawn in a compact layout of six columns a hex (`COMPACT`), within 72 columns: gold rivers
as `11$`, ships as their colour's letter in upper case on the path (roads stay lower case), the
pirate as `<P>`, a hex still in the fog (Oceania) as `?`, each explained in the legend.

Kronlande boards keep the standard layout: a quarry shows as `6S` (English `6St`), a fishing
ground (a sea hex with a number) as `5F`; beside a building, the cell left of its letter marks
a Burg `+` or a Residenz `#`, the cell right of it a workshop: `!` Schmiede, `&` Weberei, `@`
Bäckerei (`+R!`: red's Burg with a smithy). Nothing else is ever drawn in those cells: a
crossing's line holds only crossings, eight columns apart.

Colour letters: a colour's initial in the game's language. When two colours of the game share
it, the one earlier in rot, blau, gelb, weiß, grün, braun, orange, schwarz keeps it and the
other takes its second letter: grün n, braun a (German), brown n, black k (English).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from string import ascii_lowercase

from pbm.i18n import language, translator
from pbm.notation import vocab
from pbm.notation.names import hex_short_name
from pbm.rules.board import Board, Terrain
from pbm.rules.kron import BURG, RESIDENZ
from pbm.rules.state import GameState

#: Lines from one hex row to the next, and columns from a hex's centre to its sides.
PITCH = 6
HALF = 4
#: The width the map must keep to (the issue: "readable at 72 columns").
WIDTH = 72
ROBBER = "***"

_ORDER = vocab.COLOURS
#: The letter a colour takes when its initial is taken, where the name's next letter would be
#: ambiguous; a language without an entry takes the next free letter of the name.
_SECOND = {
    "de": {"gruen": "n", "braun": "a"},
    "en": {"braun": "n", "schwarz": "k"},
    "da": {"gruen": "n", "braun": "u"},
}

Cell = tuple[int, int]


@dataclass(frozen=True)
class Geometry:
    """Where a hex's parts go: `pitch` lines from one hex row to the next, `half` columns from a
    hex's centre to its sides (neighbours 2·half apart), its centre `centre` lines below its
    top corner. The label is two lines above the centre, the robber two below."""

    pitch: int
    half: int
    centre: int


#: The map of the module doc: 8 columns a hex.
STANDARD = Geometry(PITCH, HALF, 5)
#: Seafarers boards (ten hexes across with their sea frame): 6 columns a hex, so they keep to
#: 72 columns. Two-character slants, the label in the upper point, five characters across the
#: centre (gold as `11$`), the robber or the pirate in the lower point:
#:
#:       .          +0   top corner
#:      / \         +1
#:     /C3 \        +2   label
#:    .     .       +3
#:    | 6E  |       +4   centre
#:    .     .       +5
#:     \***/        +6   robber (or pirate)
#:      \ /         +7
#:       .          +8
COMPACT = Geometry(5, 3, 4)
#: The gold river's mark in the compact map (after its number).
GOLD_MARK = "$"
PIRATE = "<P>"
#: Kronlande: left of a city's letter, a Burg or a Residenz (by `KronState.castle`); right of
#: a building's letter, its workshop (by kind: Schmiede, Weberei, Bäckerei).
CASTLE_MARKS = {BURG: "+", RESIDENZ: "#"}
WORKSHOP_MARKS = ("!", "&", "@")
#: A hex still in the fog (Oceania): nothing of it shows until it is discovered.
FOG_MARK = "?"


#: Each board's top row and leftmost column, as long as the board lives: asked for every
#: crossing and path of every map drawn. Kept weakly: a cache bounded by count (256) kept
#: boards alive that no game held any more, 3 MB of them after a tick over a thousand
#: games in `pbm serve` (docs/performance.md, twelfth round).
_ORIGINS: weakref.WeakKeyDictionary[Board, tuple[int, int]] = weakref.WeakKeyDictionary()


def _origin(board: Board) -> tuple[int, int]:
    origin = _ORIGINS.get(board)
    if origin is None:
        origin = _ORIGINS[board] = (
            min(h.row for h in board.hexes),
            min(h.x for h in board.hexes),
        )
    return origin


def _top(board: Board, row: int, x: int, g: Geometry = STANDARD) -> Cell:
    """(line, column) of the top corner of the hex at (row, x)."""
    row0, x0 = _origin(board)
    return g.pitch * (row - row0) - (g.centre - 2), g.half - 1 + g.half * (x - x0)


def hex_centre(board: Board, h: int, g: Geometry = STANDARD) -> Cell:
    """(line, column) of the hex's centre: its token and resource are centred there."""
    line, col = _top(board, board.hexes[h].row, board.hexes[h].x, g)
    return line + g.centre, col


def crossing_cell(board: Board, c: int, g: Geometry = STANDARD) -> Cell:
    """(line, column) of a crossing: the top corner of its one lower hex, or the bottom corner
    of its one upper hex (a line above the centres of the two lower hexes)."""
    hexes = [board.hexes[h] for h in board.crossing_hexes[c]]
    low = max(h.row for h in hexes)
    x = sum(h.x for h in hexes) // 3
    line, col = _top(board, low, x, g)
    pair_below = sum(1 for h in hexes if h.row == low) == 2
    return (line + g.centre - 1 if pair_below else line), col


def path_cells(board: Board, e: int, g: Geometry = STANDARD) -> tuple[tuple[int, int, str], ...]:
    """(line, column, plain character) of the characters that draw a path."""
    a, b = (board.hexes[h] for h in board.path_hexes[e])
    if a.row == b.row:  # a vertical side, one character halfway down the hexes
        line, col = _top(board, a.row, (a.x + b.x) // 2, g)
        return ((line + g.centre, col, "|"),)
    upper, lower = (a, b) if a.row < b.row else (b, a)
    line, col = _top(board, lower.row, lower.x, g)
    step, char = (-1, "/") if lower.x > upper.x else (1, "\\")
    return tuple((line + i, col + step * i, char) for i in range(1, g.half))


def colour_letters(colours: Sequence[str], lang: str) -> dict[str, str]:
    """Each colour's letter (lower case); see the module doc for colours sharing an initial."""

    def rank(colour: str) -> tuple[int, int]:
        known = _ORDER.index(colour) if colour in _ORDER else len(_ORDER)
        return known, list(colours).index(colour)

    second = _SECOND.get(language(lang), {})
    taken: set[str] = set()
    out: dict[str, str] = {}
    for colour in sorted(colours, key=rank):
        name = [ch for ch in vocab.colour_name(colour, lang).lower() if ch in ascii_lowercase]
        wanted = [*name[:1], second.get(colour, ""), *name, *ascii_lowercase]
        out[colour] = next(ch for ch in wanted if ch and ch not in taken)
        taken.add(out[colour])
    return out


def hex_code(board: Board, h: int, lang: str, compact: bool = False) -> str:
    """What a hex shows under its label: `6E`, `Wüste`, `~` (sea), `3:1` or `2:1W` (harbour);
    a gold river `11Gold` (compact: `11$`); a hex in the fog (Oceania) `?`."""
    x = board.hexes[h]
    if x.terrain == Terrain.FOG:
        return FOG_MARK
    if compact and x.terrain == Terrain.GOLD:
        return f"{x.number or ''}{GOLD_MARK}"
    if x.terrain != Terrain.SEA or x.number is not None:
        # Land, and Kronlande's fishing grounds (`5F`).
        return hex_short_name(board, h, lang)
    if x.harbor is None:
        return "~"
    res = x.harbor.resource
    return "3:1" if res is None else f"2:1{vocab.letters(lang)[res]}"


def _harbour_paths(board: Board) -> set[int]:
    return {
        board.path_id[(min(h.id, h.harbor.faces), max(h.id, h.harbor.faces))]
        for h in board.hexes
        if h.harbor is not None
    }


@dataclass(frozen=True)
class _Skeleton:
    """Where a board's paths, crossings and hexes go in the map: `path_cells`, `crossing_cell`
    and `hex_centre` of each, which depend on the hexes' places alone."""

    paths: tuple[tuple[tuple[int, int, str], ...], ...]
    crossings: tuple[Cell, ...]
    centres: tuple[Cell, ...]


#: Skeletons by the hexes' places and the geometry: every board of a size or scenario shares
#: one (the cells cost as much as the rest of a map). A few layouts are all there are.
_SKELETONS: dict[tuple[tuple[tuple[int, int], ...], Geometry], _Skeleton] = {}
_SKELETONS_MAX = 32


def _skeleton(board: Board, g: Geometry) -> _Skeleton:
    # The board's crossings and paths are numbered from the hexes' places alone (`Board`), so
    # boards with the same places share their cells.
    key = (tuple((h.row, h.x) for h in board.hexes), g)
    hit = _SKELETONS.get(key)
    if hit is None:
        hit = _Skeleton(
            tuple(path_cells(board, e, g) for e in range(len(board.path_hexes))),
            tuple(crossing_cell(board, c, g) for c in range(len(board.crossing_hexes))),
            tuple(hex_centre(board, h.id, g) for h in board.hexes),
        )
        if len(_SKELETONS) >= _SKELETONS_MAX:
            _SKELETONS.clear()
        _SKELETONS[key] = hit
    return hit


class MapPart:
    """What an expansion draws on the text map beyond the base game's pieces: its module
    (`sea_map.py`, `kron_map.py`) registers one in `MAP_PARTS`; each answers only for a game
    with its part of the state (None, nothing or no lines otherwise)."""

    def geometry(self, state: GameState) -> Geometry | None:
        """The layout its boards are drawn in, if not the standard one."""
        return None

    def path_mark(self, state: GameState, path: int, letter: dict[str, str]) -> str | None:
        """What stands on a path instead of a road or a free path (a ship)."""
        return None

    def crossing_marks(self, state: GameState, crossing: int) -> dict[int, str]:
        """Marks beside a building, by column offset from its letter (a Burg, a workshop)."""
        return {}

    def hex_mark(self, state: GameState, hex_id: int) -> str | None:
        """What stands low in a hex the robber is not on (the pirate, an island's letter)."""
        return None

    def legend(self, state: GameState, lang: str) -> list[str]:
        """Its lines of the legend, after the base game's."""
        return []


#: The expansions' parts of the map, in the order their legends follow the base game's.
MAP_PARTS: list[MapPart] = []


def draw(state: GameState, lang: str) -> str:
    """The map and its legend (module doc); no line is longer than 72 columns. A Seafarers
    board is drawn in the compact geometry (`COMPACT`), with its ships and the pirate."""
    board = state.board
    g = next(filter(None, (part.geometry(state) for part in MAP_PARTS)), STANDARD)
    letter = colour_letters(state.colours, lang)
    grid: dict[Cell, str] = {}

    def put(line: int, col: int, text: str) -> None:
        start = col - len(text) // 2
        for i, ch in enumerate(text):
            grid[(line, start + i)] = ch

    harbours = _harbour_paths(board)
    cells = _skeleton(board, g)
    for e, owner in enumerate(state.road):
        piece = next(filter(None, (part.path_mark(state, e, letter) for part in MAP_PARTS)), None)
        for line, col, plain in cells.paths[e]:
            mark = ":" if e in harbours else plain
            if piece is not None:
                grid[(line, col)] = piece
            else:
                grid[(line, col)] = letter[state.colours[owner]] if owner >= 0 else mark
    for c, owner in enumerate(state.owner):
        piece = "."
        if owner >= 0:
            piece = letter[state.colours[owner]]
            piece = piece.upper() if state.level[c] >= 2 else piece
        line, col = cells.crossings[c]
        grid[(line, col)] = piece
        if owner >= 0:
            for part in MAP_PARTS:
                for offset, mark in part.crossing_marks(state, c).items():
                    grid[(line, col + offset)] = mark
    for h in board.hexes:
        line, col = cells.centres[h.id]
        put(line - 2, col, h.label)
        put(line, col, hex_code(board, h.id, lang, g is COMPACT)[: 2 * g.half - 1])
        low = ROBBER if h.id == state.robber else None
        for part in MAP_PARTS:
            low = low or part.hex_mark(state, h.id)
        if low is not None:
            put(line + 2, col, low)
    rows, cols = zip(*grid, strict=True)
    width = max(cols) + 1
    lines = [[" "] * width for _ in range(max(rows) + 1)]
    for (line, col), ch in grid.items():
        lines[line][col] = ch
    text = ["".join(chars).rstrip() for chars in lines]
    legend = _legend(state, lang, letter)
    for part in MAP_PARTS:
        legend += part.legend(state, lang)
    return "\n".join([*text, "", *legend])


def _legend(state: GameState, lang: str, letter: dict[str, str]) -> list[str]:
    _ = translator(lang).gettext
    names = ", ".join(f"{letter[c]} {vocab.colour_name(c, lang)}" for c in state.colours)
    res = ", ".join(f"{vocab.letters(lang)[r]} {vocab.resource_name(r, lang)}" for r in range(5))
    return [
        _("Colours: {colours}").format(colours=names),
        _("Crossings: . free, lower case a settlement, upper case a city"),
        _("Paths: / \\ | free, a colour's letter a road, : a harbour's side"),
        _("Harbours (at their : side): 3:1 any 3 for 1, 2:1W 2 W for 1"),
        _("Hexes: {resources}, ~ sea; {robber} robber").format(resources=res, robber=ROBBER),
    ]


# The expansions' parts of the map register themselves (`MAP_PARTS`); importing them here,
# last (they use this module), means whoever draws a map draws them all. Seafarers' first:
# its legend came before Kronlande's (no game has both).
from . import sea_map  # noqa: E402, F401, I001
from . import kron_map  # noqa: E402, F401
