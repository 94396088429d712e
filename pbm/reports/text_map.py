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

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from string import ascii_lowercase

from pbm.i18n import language, translator
from pbm.notation import vocab
from pbm.notation.names import hex_short_name
from pbm.rules.board import Board, Terrain
from pbm.rules.kron import BURG, RESIDENZ
from pbm.rules.resources import FISCH, STEIN
from pbm.rules.state import GameState

from .identity import island_letter
from .identity import lettered as island_marks

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


@functools.lru_cache(maxsize=256)
def _origin(board: Board) -> tuple[int, int]:
    # Asked for every crossing and path of every map drawn: once per board.
    return min(h.row for h in board.hexes), min(h.x for h in board.hexes)


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


def draw(state: GameState, lang: str) -> str:
    """The map and its legend (module doc); no line is longer than 72 columns. A Seafarers
    board is drawn in the compact geometry (`COMPACT`), with its ships and the pirate."""
    board = state.board
    sea = state.sea
    g = COMPACT if sea is not None else STANDARD
    letter = colour_letters(state.colours, lang)
    grid: dict[Cell, str] = {}

    def put(line: int, col: int, text: str) -> None:
        start = col - len(text) // 2
        for i, ch in enumerate(text):
            grid[(line, start + i)] = ch

    harbours = _harbour_paths(board)
    cells = _skeleton(board, g)
    for e, owner in enumerate(state.road):
        ship = -1 if sea is None else sea.ship[e]
        for line, col, plain in cells.paths[e]:
            mark = ":" if e in harbours else plain
            if ship >= 0:
                # A ship: its colour's letter in upper case (a road's is lower case).
                grid[(line, col)] = letter[state.colours[ship]].upper()
            else:
                grid[(line, col)] = letter[state.colours[owner]] if owner >= 0 else mark
    kron = state.kron
    for c, owner in enumerate(state.owner):
        piece = "."
        if owner >= 0:
            piece = letter[state.colours[owner]]
            piece = piece.upper() if state.level[c] >= 2 else piece
        line, col = cells.crossings[c]
        grid[(line, col)] = piece
        if kron is not None and owner >= 0:
            if kron.castle[c] in CASTLE_MARKS:
                grid[(line, col - 1)] = CASTLE_MARKS[kron.castle[c]]
            if kron.workshop[c] >= 0:
                grid[(line, col + 1)] = WORKSHOP_MARKS[kron.workshop[c]]
    lettered = sea is not None and island_marks(sea.scenario)
    for h in board.hexes:
        line, col = cells.centres[h.id]
        put(line - 2, col, h.label)
        put(line, col, hex_code(board, h.id, lang, g is COMPACT)[: 2 * g.half - 1])
        if h.id == state.robber:
            put(line + 2, col, ROBBER)
        elif sea is not None and h.id == sea.pirate:
            put(line + 2, col, PIRATE)
        elif lettered and h.area is not None:
            # New World: the island's letter, so "Insel B" of a report is found on the map.
            put(line + 2, col, f"({island_letter(h.area)})")
    rows, cols = zip(*grid, strict=True)
    width = max(cols) + 1
    lines = [[" "] * width for _ in range(max(rows) + 1)]
    for (line, col), ch in grid.items():
        lines[line][col] = ch
    text = ["".join(chars).rstrip() for chars in lines]
    legend = _legend(state, lang, letter)
    if sea is not None:
        legend += _sea_legend(lang)
    if kron is not None:
        legend += _kron_legend(lang)
    if board.fog or (sea is not None and sea.fog):
        legend.append(_fog_legend(lang))
    if lettered:
        legend.append(
            translator(lang).gettext("Islands: (A) low in a hex, the hex is part of island A")
        )
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


def _kron_legend(lang: str) -> list[str]:
    _ = translator(lang).gettext
    return [
        _("Quarries: 6{stone} ({stone_name}); fishing grounds: sea with a number, 5{fish}").format(
            stone=vocab.letter(STEIN, lang),
            stone_name=vocab.resource_name(STEIN, lang),
            fish=vocab.letter(FISCH, lang),
        ),
        _("Beside a city's letter: +R a castle, #R a residence"),
        _("Workshops: R! smithy, R& weaving mill, R@ bakery"),
    ]


def _fog_legend(lang: str) -> str:
    """Oceania: the fog's line, also once every fog hex is discovered (the map looks the same
    for every game of the scenario)."""
    return (
        translator(lang)
        .gettext("Fog: {mark} not discovered yet (a road or ship reaching it discovers it)")
        .format(mark=FOG_MARK)
    )


def _sea_legend(lang: str) -> list[str]:
    _ = translator(lang).gettext
    return [
        _("Ships: a colour's letter in upper case on a path; {pirate} pirate").format(
            pirate=PIRATE
        ),
        _("Gold rivers: 11{mark} (each card a resource of the owner's choice)").format(
            mark=GOLD_MARK
        ),
    ]
