"""Counts and lists of resources: `3W 1E`, `zwei Wolle`, `2x W`, `Holz, Erz`; numbers of
bounded length (`_number`), the two resources of a year of plenty, and a gold preference."""

from __future__ import annotations

import re
import unicodedata

from pbm.rules.board import Terrain
from pbm.rules.orders import GoldPreference
from pbm.rules.resources import GOODS, KRON_WIDTH, N_RESOURCES, Counts

from . import lexicon, vocab
from .context import Context, Text
from .errors import NotationError
from .limits import MAX_DIGITS
from .names import tokenize_hexes
from .words import _FILLERS, _OR_WORDS

#: No hand ever holds more of one resource than this; larger counts are typing errors.
MAX_COUNT = 99

#: An empty list of cards: `nichts`, `nothing`, `-`.
_NOTHING = lexicon.word_set("places", "nothing") | {"-"}


def _significant(digits: str) -> str:
    """A run of decimal digits without its leading zeros (any script's zeros; one digit
    stays)."""
    start = 0
    while start < len(digits) - 1 and unicodedata.decimal(digits[start]) == 0:
        start += 1
    return digits[start:]


def _number(digits: str) -> int | None:
    r"""The value of a run of decimal digits (`\d`), or None beyond `MAX_DIGITS` significant
    digits: `int()` is only ever given a few."""
    significant = _significant(digits)
    return int(significant) if len(significant) <= MAX_DIGITS else None


def _counted(t: Text, counted: dict[str, int] | None = None) -> Text:
    """Counts written as words or with an `x` (`zwei Wolle`, `2x W`, `2 x W`) as digits, in
    place (the columns stay). `counted`: the game language's counts read only before a card
    (`vocab.counted_numbers`: Danish `to`, two)."""
    f = t.folded
    spans: list[tuple[int, int, str]] = []
    words = list(re.finditer(r"[^\s,;]+", f))
    for i, w in enumerate(words):
        word = w.group(0)
        if word in vocab.NUMBER_WORDS and i + 1 < len(words):
            spans.append((w.start(), w.end(), str(vocab.NUMBER_WORDS[word])))
        elif counted and word in counted and i + 1 < len(words) and _counts_a_card(words[i + 1][0]):
            spans.append((w.start(), w.end(), str(counted[word])))
        elif (
            len(word) > 1
            and word.endswith(("x", "*"))
            and word[:-1].isdecimal()
            and i + 1 < len(words)
        ):
            spans.append((w.end() - 1, w.end(), ""))
        elif word in ("x", "*") and i > 0 and words[i - 1].group(0).rstrip("x*").isdecimal():
            spans.append((w.start(), w.end(), ""))
    return t.rewritten(spans) if spans else t


def _counts_a_card(word: str) -> bool:
    """Whether a Danish `to` before `word` is the count two: `word` names a resource or good
    (`to uld`, `to L`), never in English's `to` (`… to 12/13`)."""
    w = word.rstrip(".,;:")
    return w in vocab.KRON_WORDS or w in vocab.RESOURCE_WORDS or (len(w) == 1 and w.isalpha())


def _resource_list(
    t: Text,
    ctx: Context,
    allow_empty: bool = False,
    max_total: int | None = None,
    goods_refused: bool = False,
    skip: frozenset[str] = frozenset(),
) -> list[int]:
    """`W W G`, `2W G`, `2 W, 1 G`, `Holz und Erz`, `zwei Wolle`, `2x W`: resources, one entry
    per card. `oder` makes it an alternative: refused, never read as "and".

    `max_total`: the most cards the list may hold. A discard list is echoed card by card, so
    without it one line of `99W 99W …` would be echoed as some 50,000 characters.
    `goods_refused`: the caller refuses goods (`vocab.resource`). `skip`: words passed over
    in this list besides the fillers (a gold line's `first`, `then`).
    """
    groups = _resource_groups(t, ctx, allow_empty, max_total, goods_refused, skip)
    return [r for r, n in groups for _ in range(n)]


def _resource_groups(
    t: Text,
    ctx: Context,
    allow_empty: bool = False,
    max_total: int | None = None,
    goods_refused: bool = False,
    skip: frozenset[str] = frozenset(),
) -> list[tuple[int, int]]:
    """The cards of a list as written: (resource, count) for each entry (`2 Brot, 1 Werkzeug,
    1 Brot` is three entries), as `_resource_list` reads them."""
    t = _counted(t, vocab.counted_numbers(ctx.lang))
    out: list[tuple[int, int]] = []
    total = 0
    count: int | None = None
    last_bare = False  # the last entry was written without a count (`Wolle`, then `x2`)
    for w in re.finditer(r"[^\s,;]+", t.folded):
        word = w.group(0)
        if word in _OR_WORDS:
            raise NotationError.make("or_in_list", word=word, column=t.col(w.start()))
        if word in _FILLERS or word in skip:
            continue
        if allow_empty and word in _NOTHING and not out:
            continue
        trailing = _TIMES_AFTER.fullmatch(word)
        if trailing is not None and out and count is None and last_bare:
            # `Wolle x2`: the count after its resource (two digits at most: within MAX_COUNT).
            times = _number(trailing.group(1)) or 1
            r, _ = out[-1]
            out[-1] = (r, times)
            total += times - 1
            last_bare = False
            if max_total is not None and total > max_total:
                raise NotationError.make(
                    "too_many_cards", count=total, max=max_total, column=t.col(w.start())
                )
            continue
        digits, letters = _split_count(word)
        if digits and letters.startswith("x") and len(letters) > 1:
            letters = letters[1:]  # `2xW`, `2xWolle`: `2x W` written together
        if digits:
            n = _number(digits)
            # Beyond MAX_DIGITS the digits are shown as written (without leading zeros).
            shown: int | str = _significant(digits) if n is None else n
            if n is None or n > MAX_COUNT:
                raise NotationError.make("count_too_high", count=shown, column=t.col(w.start()))
            count, word = n, letters
        if not word:
            continue  # "2 H": the resource follows as the next word
        try:
            # Kronlande's letters of two are cards only right after their count (`2St`).
            r = vocab.resource(
                word,
                ctx.lang,
                t.col(w.start()),
                ctx.kron,
                counted=bool(digits),
                shown=t.sub(w.start(), w.end()).original,
                goods_refused=goods_refused,
                read_as=ctx.read_as,
            )
        except NotationError as e:
            if e.key == "letters_with_count":
                raise
            shown = t.sub(w.start(), w.end()).original
            raise NotationError.make(
                "resource_expected",
                letters="/".join(vocab.letters(ctx.lang, ctx.kron)),
                shown=shown,
                column=t.col(w.start()),
            ) from None
        n = 1 if count is None else count
        last_bare = count is None
        out.append((r, n))
        total += n
        count = None
        if max_total is not None and total > max_total:
            raise NotationError.make(
                "too_many_cards", count=total, max=max_total, column=t.col(w.start())
            )
    if count is not None:
        raise NotationError.make("resource_after_number", column=t.col(0))
    if not out and not allow_empty:
        raise NotationError.make("resources_expected", column=t.col(0))
    return out


#: A count after its resource: `Wolle x2`.
_TIMES_AFTER = re.compile(r"x([1-9][0-9]?)")


def _split_count(word: str) -> tuple[str, str]:
    """A word's leading decimal digits and the rest: `12W` → ("12", "w")."""
    end = 0
    while end < len(word) and word[end].isdecimal():
        end += 1
    return word[:end], word[end:]


def _two_resources(t: Text, ctx: Context) -> tuple[int, int]:
    rs = _resource_list(t, ctx, goods_refused=True)
    if len(rs) != 2:
        raise NotationError.make("two_resources", count=len(rs), column=t.col(0))
    if any(r in GOODS for r in rs):
        # Kronlande: the bank gives resources only (Stein and Fisch too), never goods.
        raise NotationError.make("goods_not_with_bank", column=t.col(0))
    return rs[0], rs[1]


def _counts(t: Text, ctx: Context) -> Counts:
    """The cards of one side of a trade: five counts, in Kronlande ten (goods too)."""
    out = [0] * (KRON_WIDTH if ctx.kron else N_RESOURCES)
    for r in _resource_list(t, ctx, allow_empty=True):
        out[r] += 1
    return tuple(out)


def _gold(t: Text, m: re.Match[str], ctx: Context) -> GoldPreference:
    """`Gold: Erz, Holz` / `Gold: ore, lumber` / `Gold: E E G`."""
    board = ctx.board
    if not board.has_areas:
        raise NotationError.make("gold_seafarers", column=t.col(0))
    if not board.fog and not any(h.terrain == Terrain.GOLD for h in board.hexes):
        # A board without gold rivers (New World may have none); under fog nothing is said,
        # as that would tell what the fog hides.
        raise NotationError.make("gold_none_here", column=t.col(0))
    rest = t.sub(m.start("rest"))
    if not rest.folded.strip():
        raise NotationError.make("gold_form", column=t.col(0))
    _gold_per_river(rest, ctx)
    _gold_choice(rest, ctx)
    return GoldPreference(_gold_list(rest, ctx))


def _gold_list(t: Text, ctx: Context) -> tuple[int, ...]:
    return tuple(_resource_list(t, ctx, max_total=MAX_COUNT, skip=_GOLD_ORDER))


#: A gold line's words of order (`Gold: ore first, then grain`): passed over there only.
_GOLD_ORDER = lexicon.word_set("words", "gold_order")
#: What makes a gold line's resources a choice (`lumber/wool`, `Erz oder Holz`, `uld eller
#: korn`). The folded line has single blanks, so the blanks here cannot run far.
_GOLD_EITHER = re.compile(rf" ?/ ?| (?:{lexicon.either('words', 'or')}) ")


def _gold_choice(rest: Text, ctx: Context) -> None:
    """`Gold: lumber/wool`, `Gold: Erz oder Holz`: refused, with the lines to write. A gold
    line pays its resources in turn and names no choice: "either" (any one of them, or the one
    held fewest of) and "in turn" are different lines, and pbm cannot tell which is meant."""
    f = rest.folded
    cuts = list(_GOLD_EITHER.finditer(f))
    if not cuts:
        return
    ends = [0, *(at for m in cuts for at in m.span()), len(f)]
    try:
        lists = [
            _gold_list(rest.sub(a, b), ctx) for a, b in zip(ends[::2], ends[1::2], strict=True)
        ]
    except NotationError:
        return  # no choice of resources: read as it stands (and refused as such)
    from .format import format_item

    at = cuts[0].start() + (f[cuts[0].start()] == " ")
    raise NotationError.make(
        "gold_either",
        shown=rest.original.strip().rstrip(".!"),
        turn=format_item(GoldPreference(tuple(r for one in lists for r in one)), ctx),
        first=format_item(GoldPreference(lists[0]), ctx),
        column=rest.col(at),
    )


def _gold_per_river(rest: Text, ctx: Context) -> None:
    """`Gold river 9Gold: ore`, `Goldfluss 11$: Erz`: a river named before the colon. One
    gold line counts for every gold river of the player's: refused (read without the river
    it would pay the others by it too), with the line to write."""
    f = rest.folded
    colon = f.find(":")
    if colon < 1 or not f[:colon].strip():
        return
    try:
        if not tokenize_hexes(rest.sub(0, colon).original):
            return
        resources = _gold_list(rest.sub(colon + 1), ctx)
    except NotationError:
        return
    from .format import format_item

    raise NotationError.make(
        "gold_one_line",
        shown=rest.sub(0, colon).original.strip(),
        line=format_item(GoldPreference(resources), ctx),
        column=rest.col(len(f) - len(f.lstrip())),
    )
