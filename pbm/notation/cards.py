"""Development and project cards played: the one card a monopoly or a feast names, and road
building (two roads, or ships in a sea game)."""

from __future__ import annotations

import re

from pbm.rules.orders import Monopoly, RoadBuilding
from pbm.rules.resources import GOODS

from . import lexicon, vocab
from .context import Context, Text
from .errors import NotationError, OrderError
from .names import join_harbour_names, tokenize_hexes
from .places import _path, _sea_path
from .words import _BEFORE_THE_ROLL, _KW, _TIMING_WORDS, _strip_words

#: Before the card a Festmahl or a monopoly names: a separator (`Festmahl - Brot`,
#: `Monopol, Erz`), and then, after any preposition, a count of one (`Festmahl 1 Brot`,
#: `Feast: one bread`, `Festmahl 1Br`): one card is what either names, so a count of one says
#: nothing more; another count stays and is refused as before.
_CARD_SEPARATOR = re.compile(r"^\s*[,;:\-\u2013\u2014]\s*")
_COUNT_OF_ONE = re.compile(
    r"^\s*(?:1(?![\d.,])(?P<glued>(?=[a-z]))?\s*|"
    rf"(?:{lexicon.either('places', 'count_of_one')})\s+)(?=\S)"
)


#: Before a Festmahl's and a monopoly's card: `Festmahl mit Brot`, `Monopoly on ore`.
_FEAST_LEADS = lexicon.words("places", "feast_leads")
_MONOPOLY_LEADS = lexicon.words("places", "monopoly_leads")
#: After a monopoly's card: who gives it (`von allen`, `from everyone`), and the cards' word,
#: glued or not (`Wollkarten`, `kornkort`, `grain cards`).
_MONOPOLY_TAILS = tuple(lexicon.longest_first(lexicon.words("places", "monopoly_tails")))
_MONOPOLY_CARD_WORDS = tuple(lexicon.longest_first(lexicon.words("places", "monopoly_card_words")))


def _one_card(t: Text, words: tuple[str, ...]) -> tuple[Text, bool]:
    """The text naming the one card of a Festmahl or a monopoly: separator, preposition and a
    count of one passed over (`_CARD_SEPARATOR`, `_COUNT_OF_ONE`); and whether that count was
    glued to the card (`1Br`: a letter of two is read so only, `vocab.resource`)."""
    m = _CARD_SEPARATOR.match(t.folded)
    rest = t.sub(m.end()) if m else t
    # `Monopoly on all the wool`, `Monopol på al uld`, `Monopoly: everyone gives me their
    # wool`: a few such words in a row.
    for _ in range(6):
        before, rest = rest, _strip_words(rest, words)
        if rest is before:
            break
    m = _COUNT_OF_ONE.match(rest.folded)
    if m is None:
        return rest, False
    return rest.sub(m.end()), m.group("glued") is not None


def _one_item(t: Text, ctx: Context) -> int:
    """The resource or good a card names (`Festmahl Brot`, `Feast on bread`)."""
    rest, counted = _one_card(t, _FEAST_LEADS)
    f = rest.folded.strip()
    if not f:
        raise NotationError.make("feast_form", column=t.col(0))
    return _named_card(rest, ctx, counted=counted)


def _named_card(
    rest: Text, ctx: Context, goods_refused: bool = False, counted: bool = False
) -> int:
    """The one card a Festmahl or a monopoly names: a letter of one, or a name (a letter of two
    alone may be an ordinary word: its name is asked for), or any letter glued to a count of
    one (`counted`, `1Br`)."""
    f = rest.folded.strip()
    lead = len(rest.folded) - len(rest.folded.lstrip())
    shown = rest.sub(lead).original.strip()
    try:
        return vocab.resource(
            f,
            ctx.lang,
            rest.col(lead),
            ctx.kron,
            counted=counted,
            shown=shown,
            goods_refused=goods_refused,
            read_as=ctx.read_as,
        )
    except NotationError as e:
        if e.key != "letters_with_count":
            raise
        raise NotationError.make(
            "letters_by_name", shown=shown, name=e.params["name"], column=rest.col(lead)
        ) from None


#: A card's timing after its word (`Monopol nach Wurf: Erz`, `Year of plenty after roll: …`):
#: the knight's words (`[patterns] knight_timing`).
_CARD_TIMING = re.compile(rf"[(]?+(?P<timing>{_TIMING_WORDS})[)]?+\s*+[:,]?+\s*+")
#: The cards played after the roll whatever is written: the monopoly right after the
#: player's own roll, year of plenty and road building in the build step.
AFTER_THE_ROLL_CARDS = frozenset(("plenty", "road_building"))


#: The same timing at the end of the card's line (`Monopol Getreide nach dem Würfeln`,
#: `Monopoly: ore after roll`, `Erfindung Erz Holz (nach dem Wurf)`).
_CARD_TIMING_END = re.compile(rf"(?<![^\s,;(])(?P<timing>{_TIMING_WORDS})[)]?+[.!]?+\s*+$")
#: How far from the line's end a timing is looked for (the longest timing is shorter).
_TIMING_REACH = 40


def after_the_roll(t: Text) -> Text:
    """The text after a card's word without an `after the roll` that says what is so anyway
    (`Monopol nach Wurf: Erz`, `Monopol Erz nach dem Wurf`); `before the roll` is refused: only
    a knight is played then."""
    f = t.folded
    m = _CARD_TIMING.match(f, len(f) - len(f.lstrip()))
    if m is not None:
        if m.group("timing").startswith(_BEFORE_THE_ROLL):
            raise NotationError.make("card_after_the_roll", column=t.col(m.start("timing")))
        return t.sub(m.end())
    end = _CARD_TIMING_END.search(f, max(0, len(f) - _TIMING_REACH))
    if end is None or not f[: end.start()].strip():
        return t
    cut = len(f[: end.start()].rstrip(" ,;("))
    if end.group("timing").startswith(_BEFORE_THE_ROLL):
        raise NotationError.make("card_after_the_roll", column=t.col(end.start("timing")))
    return t.sub(0, cut)


def _monopoly_card(rest: Text, ctx: Context) -> tuple[Text, int | None]:
    """The monopoly's card without who gives it and the cards' word after it (`Wolle von
    allen`, `grain cards`); and the resource when the cards' word is glued to its name
    (`Wollkarten`, `kornkort`), else None."""
    f = rest.folded.rstrip()
    for tail in _MONOPOLY_TAILS:
        if f.endswith(" " + tail):
            f = f[: -len(tail)].rstrip()
            break
    for card in _MONOPOLY_CARD_WORDS:
        if f.endswith(" " + card):
            f = f[: -len(card)].rstrip()
            break
    rest = rest.sub(0, len(f))
    word = f.strip()
    words = vocab.KRON_WORDS if ctx.kron else vocab.RESOURCE_WORDS
    for card in _MONOPOLY_CARD_WORDS:
        if word.endswith(card) and " " not in word:
            stem = word[: -len(card)]
            # `Wollkarten`: the name without its last `e`.
            for name in (stem, stem + "e"):
                if len(name) > 2 and name in words:
                    return rest, words[name]
    return rest, None


def _monopoly(t: Text, ctx: Context) -> Monopoly:
    t = after_the_roll(t)
    rest, counted = _one_card(t, _MONOPOLY_LEADS)
    rest, glued = _monopoly_card(rest, ctx)
    f = rest.folded.strip()
    if not f:
        raise NotationError.make("resources_expected", column=t.col(0))
    r = glued if glued is not None else _named_card(rest, ctx, goods_refused=True, counted=counted)
    if r in GOODS:
        # Kronlande: a monopoly names a resource (Stein and Fisch too), never a good.
        lead = len(rest.folded) - len(rest.folded.lstrip())
        raise NotationError.make("monopoly_no_goods", column=rest.col(lead))
    return Monopoly(r)


#: Between the paths of a list: `,`, `;`, `und`, `and`, `dann`, `then`, ` + `, ` & `, an arrow
#: (`5L 10G -> 10G 8W`, `→` folds to `-`: see `_dash_pair`).
_PATH_LIST_SEP = re.compile(
    rf"[,;]|\b(?:{lexicon.either('places', 'path_list_joiners')})\b|(?<= )[+&](?= )|[-=]?+>"
)


def _path_spans(f: str) -> list[tuple[int, int]]:
    """Where the paths of a list stand in `f` (folded): between the separators."""
    spans, pos = [], 0
    for sep in _PATH_LIST_SEP.finditer(f):
        spans.append((pos, sep.start()))
        pos = sep.end()
    spans.append((pos, len(f)))
    return [(a, b) for a, b in spans if f[a:b].strip()]


def _dash_pair(t: Text) -> list[Text]:
    """`5L 10G - 10G 8W` in a list of paths: two paths of two hexes each, not a path by its
    crossings (which have three); any other piece as it is."""
    f = join_harbour_names(t.folded)
    if f.count("-") != 1:
        return [t]
    cut = f.index("-")
    try:
        sides = (
            len(tokenize_hexes(t.sub(0, cut).original)),
            len(tokenize_hexes(t.sub(cut + 1).original)),
        )
    except OrderError:
        return [t]
    return [t.sub(0, cut), t.sub(cut + 1)] if sides == (2, 2) else [t]


def _path_list(t: Text, ctx: Context) -> list[int]:
    """Paths separated by `,`, `;`, `und`, `and`, `dann`, `+`, `&` or an arrow."""
    pieces = [p for a, b in _path_spans(t.folded) for p in _dash_pair(t.sub(a, b))]
    return [_path(p, ctx) for p in pieces]


def _road_building(t: Text, ctx: Context) -> RoadBuilding:
    if ctx.board.has_areas:
        return _sea_road_building(t, ctx)
    # `Straßenbau: Straße C3 C4, Straße C4 D5`: each piece named a road, as on a Seafarers
    # board; without a sea every piece is one, so the word is read and dropped.
    f = t.folded
    named = [
        (a + m.start(), a + m.end(), "")
        for a, b in _path_spans(f)
        if (m := _ROAD_PIECE.match(f[a:b]))
    ]
    paths = _path_list(t.rewritten(named) if named else t, ctx)
    if not 1 <= len(paths) <= 2:
        raise NotationError.make("road_building_paths", column=t.col(0))
    return RoadBuilding(paths[0], paths[1] if len(paths) > 1 else None)


#: A piece of road building named by its kind: `Straßenbau: Schiff D4 D5, Straße E5 E6`.
# Possessive blanks: ` *:? *` before a run of blanks that then fails tried every split of it.
_PIECE = re.compile(rf"^ *+(?:{_KW['ship']}|{_KW['road']})(?![a-z0-9]) *+:?+ *+")


def _sea_road_building(t: Text, ctx: Context) -> RoadBuilding:
    """Seafarers: each piece a road unless it says `Schiff`/`Ship` (a path at sea, with no
    word, is a ship too)."""
    f = t.folded
    pieces: list[tuple[int, bool]] = []
    for a, b in _path_spans(f):
        part = t.sub(a, b)
        m = _PIECE.match(part.folded)
        ship = m is not None and _KW_SHIP.match(part.folded.strip()) is not None
        if m is not None:
            part = part.sub(m.end())
        if ship:
            e = _sea_path(part, ctx)
        else:
            try:
                e = _path(part, ctx)
            except OrderError:
                if m is not None:
                    raise
                e, ship = _sea_path(part, ctx), True
        pieces.append((e, ship))
    if not 1 <= len(pieces) <= 2:
        raise NotationError.make("road_building_paths", column=t.col(0))
    if len(pieces) == 1:
        return RoadBuilding(pieces[0][0], None, pieces[0][1])
    return RoadBuilding(pieces[0][0], pieces[1][0], pieces[0][1], pieces[1][1])


_KW_SHIP = re.compile(rf"^{_KW['ship']}(?![a-z0-9])")
_ROAD_PIECE = re.compile(rf"^ *+(?:{_KW['road']})(?![a-z0-9]) *+:?+ *+")
