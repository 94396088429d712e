"""Seafarers' build lines, registered with the build readers (`builds.BUILD_READERS`): a ship
(`Schiff D4 D5`) and moving one (`Schiff versetzen D4 D5 nach E5 E6`); refused on a board
without sea."""

from __future__ import annotations

import re

from pbm.rules.board import Board
from pbm.rules.orders import MoveShip, Ship

from . import lexicon
from .builds import BUILD_READERS, INHERITED_KINDS, NOT_IN_A_PLURAL, PLURAL_READERS
from .cards import _path_spans
from .context import Context, Text
from .errors import NotationError, OrderError
from .items import Builds
from .names import NOT_LAND_YET
from .places import _sea_path
from .refusals import ORDER_EXPECTED, SETUP_FORM
from .words import _strip_words

#: `nach`/`to` between the two paths of a ship move.
_MOVE_TO = re.compile(rf" ({lexicon.either('words', 'move_to')}) ")
_MOVE_ARROW = re.compile(r" (?:-?+>|=>|-) ")


_MOVE_FROM = lexicon.words("words", "move_from")
#: The most ships one `Schiff` line may list (as roads: `builds._MAX_ROADS`).
MAX_SHIPS_A_LINE = 5


def _no_sea(t: Text, lead: int, ctx: Context) -> None:
    if not ctx.board.has_areas:
        raise NotationError.make("ships_seafarers", column=t.col(lead))


def _ship(rest: Text, t: Text, lead: int, ctx: Context) -> Ship | MoveShip | Builds:
    """`Schiff C7 D7`; and a list of paths after the one word (`Ship C7 D7, D7 E7`), each a
    ship of its own, as a road's line reads one (`builds._roads`)."""
    _no_sea(t, lead, ctx)
    try:
        return Ship(_sea_path(rest, ctx))
    except OrderError as one:
        moved = _moved(rest, ctx)
        if moved is not None:
            return moved
        spans = _path_spans(rest.folded)
        if not 2 <= len(spans) <= MAX_SHIPS_A_LINE:
            raise
        try:
            return Builds(tuple(Ship(_sea_path(rest.sub(a, b), ctx)) for a, b in spans))
        except OrderError:
            raise one from None


#: A move's verb after its two paths (`Schiff C7 D7 nach D6 E6 versetzen`).
_MOVE_AFTER = lexicon.word_set("words", "move_after")


def _moved(rest: Text, ctx: Context) -> MoveShip | None:
    """`Schiff C7 D7 nach D6 E6 (versetzen)`: a ship's line whose place is two paths with the
    move's `nach` / `to` / `til` or an arrow between them is the move (a new ship stands on one
    path); None where it is not that."""
    f = rest.folded
    # `nach` / `to` / `til`, or an arrow (`Ship C7 D7 -> D7 E7`: never two new ships).
    cuts = list(_MOVE_TO.finditer(f)) or list(_MOVE_ARROW.finditer(f))
    if len(cuts) != 1:
        return None
    end = len(f.rstrip(" .!"))
    words = f[:end].split()
    if words and words[-1] in _MOVE_AFTER:
        end = f.rfind(words[-1], 0, end)
    try:
        source = _sea_path(rest.sub(0, cuts[0].start()), ctx)
        target = _sea_path(rest.sub(cuts[0].end(), end), ctx)
    except OrderError:
        return None
    return MoveShip(source, target)


def _move_ship(rest: Text, t: Text, lead: int, ctx: Context) -> MoveShip:
    """`Schiff versetzen D4 D5 nach E5 E6` / `Move ship D4 D5 to E5 E6`."""
    _no_sea(t, lead, ctx)
    rest = _strip_words(rest, _MOVE_FROM)
    f = rest.folded
    cuts = list(_MOVE_TO.finditer(f))
    if not cuts:
        # `Move ship B2 C2 -> C2 C3`, `… → …` (folded to `-`): an arrow for `to`, where the
        # sides are two hexes each (` - ` between two crossings names one path).
        cuts = list(_MOVE_ARROW.finditer(f))
        if len(cuts) == 1 and cuts[0].group(0).strip() == "-":
            sides = f[: cuts[0].start()].split(), f[cuts[0].end() :].split()
            if (len(sides[0]), len(sides[1])) != (2, 2):
                cuts = []
    if len(cuts) != 1:
        raise NotationError.make("move_ship_form", column=t.col(lead))
    cut = cuts[0]
    source = _sea_path(rest.sub(0, cut.start()), ctx)
    target = _sea_path(rest.sub(cut.end()), ctx)
    return MoveShip(source, target)


def _in_fog(board: Board, places: list[tuple[int, ...]], names: str, kind: str) -> None:
    """`Hus C7 C8 D7` where C8 is still fog: the hexes meet, but nothing is built there until
    a ship or road has discovered the fog (the rule at receipt, `Reason.UNEXPLORED`), which
    the answer says, naming the fog hexes; never "they meet at no crossing" (a road's path
    alike: `Vej C7 C8`)."""
    fog = set(board.fog)
    if not places or not all(fog.intersection(hexes) for hexes in places):
        return
    touched = sorted(fog.intersection(set().union(*places)))
    seen = ", ".join(board.hexes[h].label for h in touched)
    if kind == "path":
        raise NotationError.make("path_fog", names=names, fog=seen)
    raise NotationError.make("crossing_fog", names=names, fog=seen)


BUILD_READERS.update({"ship": _ship, "move_ship": _move_ship})
NOT_LAND_YET.append(_in_fog)
# A line that is no order names the Seafarers orders too.
ORDER_EXPECTED.append((lambda ctx: ctx.board.has_areas, "order_expected_sea"))
# A setup placement may take a ship: the setup's refusals show its form too.
SETUP_FORM.append((lambda ctx: ctx.board.has_areas, "sea"))
# `Schiff C7 D7 oder D7 E7`: the option without its word is a ship too.
INHERITED_KINDS.add("ship")
# `Schiffe C7 D7 und D7 E7`: a ship each (never a move: `Ships C7 D7 to D7 E7` is refused).
PLURAL_READERS.add("ship")
NOT_IN_A_PLURAL.append(MoveShip)
