"""Names on the board: hexes, crossings and paths, resolved by one-to-one matching.

A hex is named by its label (`D3`), token and resource (`6E`, `9Gold`), `Wüste`/`Desert`, the
wildcard `Meer`/`Sea`, or a harbour (`G-Hafen`, `3:1-Hafen`, `G-Harbor`). A crossing is named by
three hexes in any order, a path by two hexes or by its two crossings (`… - …`). Exactly one
match resolves; none is a `NotationError`; several an `AmbiguousError` listing every candidate.
"""

from __future__ import annotations

import itertools
import re
import weakref
from collections.abc import Callable
from typing import NamedTuple

from pbm import languages
from pbm.i18n import DEFAULT, base
from pbm.rules.board import Board, Terrain
from pbm.rules.resources import FISCH

from . import lexicon
from .errors import MAX_CANDIDATES, AmbiguousError, NotationError
from .text import fold
from .vocab import KRON_WORDS, RESOURCE_WORDS, letters

# The words of hex names in every language (`pbm/languages/*.toml`, `[hexes]`).
_HARBOUR_WORD = f"(?:{lexicon.either('hexes', 'harbour')})"
#: Resource names as players write them in hex names (`10 Getreide`, `Erzhafen`, `wool port`).
_RESOURCE_NAMES = f"(?:{lexicon.either('hexes', 'resources')})"
#: Kronlande's hexes besides: `6St` (English stone), `5 Fisch`, `9 Stone`.
_KRON_HEX_NAMES = f"(?:{lexicon.either('hexes', 'kron_resources')})"
#: The map's mark of a gold river (`11$`: `reports/text_map.GOLD_MARK`), read as its word, so
#: a name copied from the map reads.
GOLD_MARK = "$"
#: A gold river's word in its token (`9Gold`, `9Guld`, the map's `9$`).
_GOLD_WORDS = lexicon.word_set("hexes", "gold") | {GOLD_MARK}
_GOLD = lexicon.alternation([*lexicon.words("hexes", "gold"), GOLD_MARK])
SEA_WORDS = lexicon.word_set("hexes", "sea")
DESERT_WORDS = lexicon.word_set("hexes", "desert")
_AND = lexicon.either("words", "and")
# Linear in the line: `HEX_TOKEN` matches a bounded number of characters wherever it is tried,
# `_SEPARATORS` takes a whole run of separators at once (possessive: nothing follows it), and
# `tokenize_hexes` moves on past each match (tests/test_notation_linear.py).
HEX_TOKEN = re.compile(
    rf"(?P<harbour>(?:2:1\s?[a-z]\s?-?\s?|(?:{_RESOURCE_NAMES}|[a-z]|3:1|2:1)\s?-?\s?)"
    rf"{_HARBOUR_WORD}(?![a-z])|{_HARBOUR_WORD}(?![a-z])|2:1\s?[a-z](?![a-z0-9])|3:1(?![0-9]))"
    rf"|(?P<token>\d{{1,2}}\s?(?:{_GOLD}|{_RESOURCE_NAMES}|{_KRON_HEX_NAMES}|[a-z])(?![a-z]))"
    # `Holz 9`, `lumber 9`, `tømmer-9`: the resource first, as `9 Holz`.
    rf"|(?P<named>(?P<resource>{_RESOURCE_NAMES})\s?-?\s?(?P<dice>\d{{1,2}})(?![0-9a-z:]))"
    r"|(?P<label>[a-z]{1,2}\d{1,2}(?![0-9]))"
    rf"|(?P<word>{lexicon.alternation([*SEA_WORDS, *DESERT_WORDS])})(?![a-z])"
    # `Räuber auf die 12`: a number alone names the hexes that carry it (one, or asked back).
    r"|(?P<number>\d{1,2}(?![0-9a-z:]))"
)
#: Words that only say "hex" beside a name (`the 9 lumber hex`, `Feld 9H`): passed over.
_HEX_FILLERS = lexicon.either("hexes", "fillers")
_SEPARATORS = re.compile(
    r"[\s,;/+&]++|" + "|".join(rf"\b{w}\b" for w in _AND.split("|")) + rf"|\b(?:{_HEX_FILLERS})\b"
)


def is_kron(board: Board) -> bool:
    """A Kronlande board (quarries and fishing grounds): its hexes and orders are named with
    Kronlande's letters and words (`6S`, `5F`; `Stein` is stone there, never ore)."""
    return bool(board.quarries or board.fishing_grounds)


def _letters(lang: str, board: Board) -> tuple[str, ...]:
    return letters(lang, is_kron(board))


_HARBOUR_DASH = re.compile(
    rf"(?<![a-z0-9:])(2:1\s?[a-z]|[a-z]++|3:1|2:1)\s?-\s?(?={_HARBOUR_WORD})"
)
#: A token and a resource: `6e`, `9gold`, `10getreide` (at most two digits: a dice number).
_TOKEN_NAME = re.compile(rf"(\d{{1,2}})({_GOLD}|[a-z]+)")


def join_harbour_names(folded: str) -> str:
    """`g-hafen` → `g hafen`: the dash of a harbour name is not a path's crossing separator.
    (Replaced by a space, not removed, so columns stay where the player wrote them.)"""
    return _HARBOUR_DASH.sub(
        lambda m: m.group(1) + " " * (len(m.group(0)) - len(m.group(1))), folded
    )


class HexName(NamedTuple):
    #: Folded, without spaces: what resolution matches.
    name: str
    #: 0-based column in the text given to `tokenize_hexes`.
    column: int
    #: As the player wrote it, for messages.
    display: str


def tokenize_hexes(original: str, offset: int = 0) -> list[HexName]:
    """The hex names in a piece of a line; raises NotationError on anything else.
    Columns are counted from `offset`, the piece's place in its line."""
    folded, index = fold(original)
    text = join_harbour_names(folded)
    out: list[HexName] = []
    pos = 0
    while pos < len(text):
        sep = _SEPARATORS.match(text, pos)
        if sep and sep.end() > pos:
            pos = sep.end()
            continue
        m = HEX_TOKEN.match(text, pos)
        start = index[pos] if pos < len(index) else len(original)
        if not m:
            rest = original[start:].split()
            word = rest[0] if rest else original[start:]
            raise NotationError.make("hex_name_expected", word=word, column=offset + start + 1)
        display = original[start : index[m.end() - 1] + 1]
        name = m.group(0).replace(" ", "")
        if m.group("named"):
            name = m.group("dice") + m.group("resource")
        out.append(HexName(name, offset + start, display))
        pos = m.end()
    return out


def hex_candidates(board: Board, name: str, lang: str = "de") -> frozenset[int]:
    """Every hex a (folded, space-free) name can mean; raises NotationError for none."""
    known = _CANDIDATES.get(board)
    if known is None:
        known = _CANDIDATES.setdefault(board, {})
    found = known.get((name, lang))
    if found is None:
        found = _hex_candidates(board, name, lang)
        if len(known) >= CANDIDATES_PER_BOARD:
            known.clear()  # names no board has: a mail full of them fills no memory
        known[(name, lang)] = found
    if not found:
        raise NotationError.make("no_hex", name=name.upper())
    return found


#: Each board's names, as long as the board lives (boards are compared by identity, so an
#: entry of a board no game holds any more can never be hit again). A cache over all boards,
#: bounded by count, kept some 70 (1,024 entries) to 270 (4,096) dead boards alive in
#: `pbm serve` over a tick of a thousand games (issue 20).
_CANDIDATES: weakref.WeakKeyDictionary[Board, dict[tuple[str, str], frozenset[int]]] = (
    weakref.WeakKeyDictionary()
)
#: Names kept per board: a report names a few dozen hexes; more are names of nothing.
CANDIDATES_PER_BOARD = 512


def _hex_candidates(board: Board, name: str, lang: str) -> frozenset[int]:
    kron = is_kron(board)
    lows = [x.lower() for x in _letters(lang, board)]
    hexes = board.hexes
    if name in SEA_WORDS:
        return frozenset(h.id for h in hexes if h.terrain == Terrain.SEA)
    if name in DESERT_WORDS:
        return frozenset(h.id for h in hexes if h.terrain == Terrain.DESERT)
    harbour = _harbour_kind(name.replace(" ", ""), lows, kron)
    if harbour is not None:
        rate, resource = harbour
        out = set()
        for h in hexes:
            hb = h.harbor
            if hb is None or (resource is not None and hb.resource != resource):
                continue
            if (
                rate is None
                or (rate == "3:1" and hb.resource is None)
                or (rate == "2:1" and hb.resource is not None)
            ):
                out.add(h.id)
        return frozenset(out)
    if name.isdecimal():
        return frozenset(h.id for h in hexes if h.number == int(name))
    m = _TOKEN_NAME.fullmatch(name)
    if m:
        number, res = int(m.group(1)), m.group(2)
        if res in _GOLD_WORDS:
            return frozenset(
                h.id for h in hexes if h.terrain == Terrain.GOLD and h.number == number
            )
        r = _resource(res, lows, kron)
        if r is None:
            return frozenset()
        return frozenset(h.id for h in hexes if h.resource == r and h.number == number)
    label = name.upper()
    if label in board.label_index:
        return frozenset({board.label_index[label]})
    return frozenset()


def _resource(word: str, letters: list[str], kron: bool = False) -> int | None:
    """A resource by a letter of the game's language or a name in either language (in a
    Kronlande game its words: `stein` is stone there)."""
    if word in letters:
        return letters.index(word)
    return (KRON_WORDS if kron else RESOURCE_WORDS).get(word)


_HARBOUR_WORDS = lexicon.words("hexes", "harbour")


def _harbour_kind(
    name: str, letters: list[str], kron: bool = False
) -> tuple[str | None, int | None] | None:
    """A harbour's name (folded, without spaces) → (rate "3:1"/"2:1"/None, resource or None):
    `g-hafen`, `3:1-hafen`, `hafen`, the map's `2:1w` and `3:1`, `2:1h-hafen`, `erzhafen`,
    `woolharbor`; None when `name` is no harbour's name (a resource that is none is no
    harbour either: it names nothing)."""
    rate = name[:3] if name.startswith(("3:1", "2:1")) else None
    rest = name[3:].lstrip("-") if rate else name
    word = next((w for w in _HARBOUR_WORDS if rest.endswith(w)), None)
    if word is not None:
        rest = rest[: -len(word)].rstrip("-")
    if rate is None and word is None:
        return None
    if not rest:
        return rate, None
    resource = _resource(rest, letters, kron)
    if resource is None or rate == "3:1":
        return "none", None
    return "2:1", resource


def _matches(hex_ids: tuple[int, ...], sets: list[frozenset[int]]) -> bool:
    """Whether the hexes can be matched one-to-one to the named sets."""
    if len(hex_ids) == 2:
        a, b = hex_ids
        s, t = sets
        return (a in s and b in t) or (b in s and a in t)
    if len(hex_ids) == 3 and len(sets) == 3:
        # A crossing's three hexes, written out: the permutations below cost most of a
        # report's names of places (`crossing_text`).
        a, b, c = hex_ids
        s, t, u = sets
        return (
            (a in s and ((b in t and c in u) or (c in t and b in u)))
            or (b in s and ((a in t and c in u) or (c in t and a in u)))
            or (c in s and ((a in t and b in u) or (b in t and a in u)))
        )
    return any(
        all(h in s for h, s in zip(perm, sets, strict=True))
        for perm in itertools.permutations(hex_ids)
    )


def _crossings_for(board: Board, sets: list[frozenset[int]], land_only: bool) -> list[int]:
    first = min(sets, key=len)
    found = set()
    for h in first:
        for c in board.hex_crossings[h]:
            if (not land_only or board.crossing_land[c]) and _matches(
                board.crossing_hexes[c], sets
            ):
                found.add(c)
    return sorted(found)


def _paths_for(board: Board, sets: list[frozenset[int]], land_only: bool) -> list[int]:
    """A path is the side two hexes share: the sides of each hex of the smaller set whose
    other hex is in the other set (six looks a hex, where every pair of the two sets was a
    look before: `Meer` names every sea hex, and formatting a ship's path resolves it)."""
    first, second = sets
    if len(second) < len(first):
        first, second = second, first
    sides, land = board.hex_sides, board.path_land
    found = {e for a in first for b, e in sides[a] if b in second and (not land_only or land[e])}
    return sorted(found)


def _sets(board: Board, names: list[HexName], lang: str) -> list[frozenset[int]]:
    out = []
    for n in names:
        try:
            out.append(hex_candidates(board, n.name, lang))
        except NotationError:
            near = _near(board, n.name, lang)
            if near:
                raise NotationError.make(
                    "no_hex_near", name=n.display, near=near, column=n.column + 1
                ) from None
            raise NotationError.make("no_hex", name=n.display, column=n.column + 1) from None
    return out


def named_hexes(board: Board, name: HexName, lang: str = "de") -> frozenset[int]:
    """Every hex one name can mean (`4G`, `D5`, `Meer`: all the sea); raises NotationError,
    with a guess where there is one, when it names none."""
    return _sets(board, [name], lang)[0]


#: The numbers on land hexes.
_TOKEN_NUMBERS = frozenset(str(n) for n in range(2, 13))


def _edit_distance_one(a: str, b: str) -> bool:
    """Whether two short strings differ by one substitution, insertion or deletion."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _near(board: Board, name: str, lang: str) -> str:
    """The hexes a mistyped token probably means, as `8H (D2), 8W (D6)`: with the same number
    when the letter is no resource (`8V`), with the same resource and a number one keystroke
    away when the number is on no hex (`13G`). "" when there is no such guess."""
    m = _TOKEN_NAME.fullmatch(name)
    if m is None:
        return ""
    number, res = m.group(1), m.group(2)
    lows = [x.lower() for x in _letters(lang, board)]
    resource = _resource(res, lows, is_kron(board))
    found = []
    for h in board.hexes:
        if h.number is None or h.resource is None:
            continue
        if (resource is None and str(h.number) == number) or (
            resource is not None
            and h.resource == resource
            and number not in _TOKEN_NUMBERS
            and _edit_distance_one(str(h.number), number)
        ):
            found.append(h.id)
    return ", ".join(
        f"{hex_short_name(board, h, lang)} ({board.hexes[h].label})" for h in found[:4]
    )


def _listing(names: list[HexName]) -> str:
    return ", ".join(n.display for n in names)


def resolve_hex(board: Board, text: str, lang: str = "de") -> int:
    names = tokenize_hexes(text)
    if len(names) != 1:
        raise NotationError.make("one_hex", count=len(names))
    (found,) = _sets(board, names, lang)
    if len(found) > MAX_CANDIDATES:
        raise AmbiguousError.make("ambiguous_hex_many", names=_listing(names), count=len(found))
    if len(found) > 1:
        raise AmbiguousError.make(
            "ambiguous_hex",
            names=_listing(names),
            candidates=[board.hexes[h].label for h in sorted(found)],
        )
    return next(iter(found))


#: Why hexes that meet at crossings (or paths) without known land name none for a building or
#: a road: each raises its NotationError, or returns where it is not the reason (the board,
#: the hexes of each such place, the names as written, "crossing" or "path"). An expansion
#: registers from its module (Seafarers: a place touching fog).
NOT_LAND_YET: list[Callable[[Board, list[tuple[int, ...]], str, str], None]] = []


def resolve_crossing(board: Board, text: str, lang: str = "de", land_only: bool = True) -> int:
    return crossing_from_names(board, tokenize_hexes(text), lang, land_only)


def crossing_from_names(
    board: Board, names: list[HexName], lang: str, land_only: bool = True
) -> int:
    if len(names) == 2:
        # Two of three hexes: the crossings where they meet, each to copy back.
        every = frozenset(h.id for h in board.hexes)
        fitting = _crossings_for(board, [*_sets(board, names, lang), every], land_only)
        if 0 < len(fitting) <= MAX_CANDIDATES:
            raise NotationError.make(
                "crossing_pick",
                count=2,
                candidates=[crossing_text(board, c, lang) for c in fitting],
            )
    if len(names) != 3:
        raise NotationError.make("crossing_three_hexes", count=len(names))
    sets = _sets(board, names, lang)
    found = _crossings_for(board, sets, land_only)
    if not found:
        if land_only:
            # Hexes that meet where no land is known yet (Oceania's fog): said why, not that
            # they never meet.
            anywhere = _crossings_for(board, sets, False)
            for why in NOT_LAND_YET:
                why(board, [board.crossing_hexes[c] for c in anywhere], _listing(names), "crossing")
        raise NotationError.make("no_crossing", names=_listing(names))
    if len(found) > MAX_CANDIDATES:
        raise AmbiguousError.make(
            "ambiguous_crossing_many", names=_listing(names), count=len(found)
        )
    if len(found) > 1:
        raise AmbiguousError.make(
            "ambiguous_crossing",
            names=_listing(names),
            count=len(found),
            candidates=[board.crossing_label(c) for c in found],
        )
    return found[0]


def resolve_path(board: Board, text: str, lang: str = "de", land_only: bool = True) -> int:
    folded = join_harbour_names(fold(text)[0])
    names: list[HexName] | None = None
    if "-" in folded:
        names = _two_hexes_by_dash(text, folded)
        if names is None:
            return _path_by_crossings(board, text, lang, land_only)
    names = tokenize_hexes(text) if names is None else names
    if len(names) == 1:
        # One of two hexes: the paths along it, each to copy back.
        (one,) = _sets(board, names, lang)
        if len(one) == 1:
            h = next(iter(one))
            fitting = [
                e
                for e, hexes in enumerate(board.path_hexes)
                if h in hexes and (not land_only or board.path_land[e])
            ]
            raise NotationError.make(
                "path_pick", count=1, candidates=[path_text(board, e, lang) for e in fitting]
            )
    if len(names) != 2:
        raise NotationError.make("path_two_hexes", count=len(names))
    sets = _sets(board, names, lang)
    found = _paths_for(board, sets, land_only)
    if not found:
        if land_only:
            anywhere = _paths_for(board, sets, False)
            for why in NOT_LAND_YET:
                why(board, [board.path_hexes[e] for e in anywhere], _listing(names), "path")
        raise NotationError.make("no_path", names=_listing(names))
    if len(found) > MAX_CANDIDATES:
        raise AmbiguousError.make("ambiguous_path_many", names=_listing(names), count=len(found))
    if len(found) > 1:
        raise AmbiguousError.make(
            "ambiguous_path",
            names=_listing(names),
            count=len(found),
            candidates=[board.path_label(e) for e in found],
        )
    return found[0]


def _two_hexes_by_dash(text: str, folded: str) -> list[HexName] | None:
    """`4G-9L`, `4G – 9L`: one dash between one hex and another names the path between them
    (a path by crossings has three hexes on each side); None for any other use of dashes."""
    if folded.count("-") != 1:
        return None
    cut = fold(text)[1][folded.index("-")]
    try:
        left = tokenize_hexes(text[:cut])
        right = tokenize_hexes(text[cut + 1 :], cut + 1)
    except NotationError:
        return None
    return [*left, *right] if len(left) == len(right) == 1 else None


def _path_by_crossings(board: Board, text: str, lang: str, land_only: bool) -> int:
    folded, index = fold(text)
    dashes = [i for i, ch in enumerate(join_harbour_names(folded)) if ch == "-"]
    if len(dashes) != 1:
        raise NotationError.make("path_by_crossings_form")
    cut = index[dashes[0]]
    sides = []
    for part, offset in ((text[:cut], 0), (text[cut + 1 :], cut + 1)):
        names = tokenize_hexes(part, offset)
        if len(names) != 3:
            raise NotationError.make("crossing_three_hexes", count=len(names))
        sides.append(_crossings_for(board, _sets(board, names, lang), False))
    found = sorted(
        {
            e
            for a in sides[0]
            for b in sides[1]
            if (e := board.path_between(a, b)) is not None and (not land_only or board.path_land[e])
        }
    )
    if not found:
        raise NotationError.make("crossings_not_joined")
    if len(found) > MAX_CANDIDATES:
        raise AmbiguousError.make("ambiguous_path_by_crossings_many", count=len(found))
    if len(found) > 1:
        raise AmbiguousError.make(
            "ambiguous_path_by_crossings",
            count=len(found),
            candidates=[board.path_label(e) for e in found],
        )
    return found[0]


# -- canonical names ---------------------------------------------------------------------------


#: The words of hex names pbm writes, by game language (`[written]` of the language files,
#: docs/glossary-da.md); every one is read back in any game (`HEX_TOKEN`).
HEX_WORDS: dict[str, dict[str, str]] = {
    lang: languages.mapping(lang, "written")
    for lang in languages.names()
    if languages.mapping(lang, "written")
}


def _hex_words(lang: str) -> dict[str, str]:
    """A language without its own words (a catalogue added before its order words) writes the
    default language's."""
    return HEX_WORDS.get(base(lang), HEX_WORDS[DEFAULT])


def hex_short_name(board: Board, h: int, lang: str = "de") -> str:
    """The token form of one hex: `6E`, `9Gold`, `Wüste`, `G-Hafen`, `Meer` (or English,
    Danish: `9Guld`, `Ørken`, `K-Havn`, `Hav`); in
    Kronlande a quarry `6S` (English `6St`), a fishing ground `5F`."""
    x = board.hexes[h]
    letters = _letters(lang, board)
    if x.terrain == Terrain.SEA and x.resource == FISCH and x.number is not None:
        return f"{x.number}{letters[FISCH]}"
    if x.terrain == Terrain.SEA:
        if x.harbor is not None:
            kind = "3:1" if x.harbor.resource is None else letters[x.harbor.resource]
            return f"{kind}-{_hex_words(lang)['harbour']}"
        return _hex_words(lang)["sea"]
    if x.terrain == Terrain.DESERT:
        return _hex_words(lang)["desert"]
    if x.terrain == Terrain.GOLD:
        return f"{x.number}{_hex_words(lang)['gold']}"
    if x.resource is None or x.number is None:
        return x.label
    return f"{x.number}{letters[x.resource]}"


def _labelled(labels: str, tokens: str, names_it: Callable[[str], bool]) -> str:
    """`labels (tokens)` when the token form names the same place alone, else the labels."""
    if tokens == labels:
        return labels
    try:
        if names_it(tokens):
            return f"{labels} ({tokens})"
    except (NotationError, AmbiguousError):
        pass
    return labels


def crossing_text(board: Board, c: int, lang: str = "de") -> str:
    """Canonical: labels sorted, then the token form in brackets when it names only c."""
    tokens = " ".join(hex_short_name(board, h, lang) for h in board.crossing_hexes[c])
    return _labelled(
        board.crossing_label(c), tokens, lambda t: resolve_crossing(board, t, lang) == c
    )


def path_text(board: Board, e: int, lang: str = "de") -> str:
    tokens = " ".join(hex_short_name(board, h, lang) for h in board.path_hexes[e])
    return _labelled(board.path_label(e), tokens, lambda t: resolve_path(board, t, lang) == e)


def ship_path_text(board: Board, e: int, lang: str = "de") -> str:
    """A ship's path (sea sides too): labels, and the token form where it names only e."""
    tokens = " ".join(hex_short_name(board, h, lang) for h in board.path_hexes[e])
    return _labelled(
        board.path_label(e), tokens, lambda t: resolve_path(board, t, lang, False) == e
    )


def hex_text(board: Board, h: int, lang: str = "de") -> str:
    """`D5 (6H)`: the label, and the hex's token in brackets where the token names it, alone
    or, on a hex with a number, beside another hex carrying the same token (`D3 (5H)`, a
    second 5H at D6: the label decides, the brackets show what the hex is; `places._hex`
    reads it back so). `Meer`, `Wüste`, a harbour only where they name this hex alone."""

    def names_it(t: str) -> bool:
        if board.hexes[h].number is None:
            return resolve_hex(board, t, lang) == h
        return h in _one_name(board, t, lang)

    return _labelled(board.hexes[h].label, hex_short_name(board, h, lang), names_it)


def _one_name(board: Board, text: str, lang: str) -> frozenset[int]:
    """Every hex one name can mean (`5H`: both hexes carrying it); empty for anything else."""
    names = tokenize_hexes(text)
    return hex_candidates(board, names[0].name, lang) if len(names) == 1 else frozenset()
