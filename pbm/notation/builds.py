"""Build lines: settlements, cities, roads, ships (also several on one line), development
card purchases, year of plenty, moving a ship, and Kronlande's buildings and goods."""

from __future__ import annotations

import re
from collections.abc import Callable

from pbm import languages
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuyCard,
    Castle,
    City,
    Residence,
    Road,
    Settlement,
    YearOfPlenty,
)

from . import lexicon, vocab
from .cards import AFTER_THE_ROLL_CARDS, _path_list, _path_spans, _road_building, after_the_roll
from .context import Context, Text
from .counts import _number, _significant, _two_resources
from .cuts import _CUT_ARTICLES, _split_builds
from .errors import NotationError, OrderError, choices_refused
from .game_words import GameWords
from .items import Builds
from .places import _crossing, _path
from .refusals import _not_an_order
from .remarks import _without_verb
from .trades import _maritime
from .upgrades import _upgrade
from .words import (
    _BUILD_KINDS,
    _PATTERNS,
    _RATE,
    _letter_words,
    _split_or,
    _strip_words,
)

#: Card purchases on one line (`2 Entwicklungskarten`).
MAX_CARDS_A_LINE = 9


def _build_line(t: Text, ctx: Context) -> BuildAction | Alternatives | Builds:
    parts = _split_or(t)
    if _PATTERNS["plenty"].match(t.folded.strip()) and not all(
        _starts_a_build(p, ctx.words) for p in parts[1:]
    ):
        # `Erfindung Erz oder Getreide`: a choice inside the card, refused as such; `Erfindung
        # H H oder Siedlung …` is two options.
        return _build_action(t, ctx, None)[0]
    pieces = _split_builds(t, ctx.board.has_areas, ctx.words, vocab.own_game_words(ctx.lang))
    if len(parts) > 1 and len(pieces) > 1:
        raise NotationError.make("or_and_mixed", column=t.col(0))
    if len(parts) > 1:
        options: list[BuildAction] = []
        kind: str | None = None
        failed: list[tuple[int, str, OrderError]] = []
        for number, p in enumerate(parts, 1):
            try:
                action, kind = _build_action(p, ctx, kind)
            except OrderError as error:
                # The other options are read on, so that the refusal gives each one's reason,
                # said of it (`Siedlung B2 B3 C3 oder Siedlung A2 B1 B2` gave A2 B1 B2's, unsaid
                # which option it was).
                failed.append((number, p.original.strip(), error))
                kind = _kind_of(p, ctx, kind)
                continue
            if isinstance(action, Builds):
                raise NotationError.make("option_one_build", column=p.col(0))
            options.append(action)
        if failed:
            raise choices_refused(failed, len(parts))
        return Alternatives(tuple(options))
    if len(pieces) > 1:
        actions: list[BuildAction] = []
        for p in pieces:
            piece = _strip_words(_without_verb(p), tuple(_CUT_ARTICLES))
            action, _ = _build_action(piece, ctx, None)
            actions.extend(action.actions if isinstance(action, Builds) else (action,))
        return Builds(tuple(actions))
    return _build_action(t, ctx, None)[0]


def _kind_of(t: Text, ctx: Context, inherit: str | None) -> str | None:
    """The kind of build an option names by its keyword (`Siedlung …`: settlement), else the
    kind it inherits (`… oder 8H 3E 4H`): what the option after it inherits."""
    f = t.folded.strip()
    for kind in _BUILD_KINDS:
        m = _PATTERNS[kind].match(f)
        if m and not vocab.foreign_only(m.group(1), ctx.lang):
            return kind
    return inherit


def _starts_a_build(t: Text, game: GameWords) -> bool:
    words = _letter_words(t.folded[:40])
    return bool(words) and words[0] in game.build_starts


def _one_build(t: Text, ctx: Context) -> BuildAction | Alternatives:
    """The build of an `oder …` line: one build or alternatives."""
    line = _build_line(_without_verb(t), ctx)
    if isinstance(line, Builds):
        raise NotationError.make("option_one_build", column=t.col(0))
    return line


#: A card purchase's words (`[words] card_phrases`), each phrase as its words.
_CARD_PHRASES = frozenset(tuple(p.split()) for p in lexicon.words("words", "card_phrases"))
_BUY_SUBJECTS = lexicon.word_set("words", "buy_subjects")
_BUY_VERBS = lexicon.word_set("words", "buy_verbs")
_BUY_TAILS = lexicon.word_set("words", "buy_tails")
_BUY_NEW = lexicon.word_set("words", "buy_new")
#: A purchase's count written after it in a word (`twice`, `zweimal`; `[times]`).
_TIMES: dict[str, int] = languages.merged("times")
#: Plural card words and their singular (`[card_plurals]`).
_CARD_PLURALS: dict[str, str] = languages.merged("card_plurals")


def _buy_count(f: str) -> int | None:
    """How many cards a purchase line buys (`Entwicklungskarte`, `Karte kaufen`, `Buy a
    development card`, `2 Entwicklungskarten`, `zwei Karten kaufen`, `2x Entwicklungskarte`);
    None when the line is no purchase. Plural without a count raises."""
    words = [w.strip(".,!:;()") for w in f.split()]
    words = [w for w in words if w]
    if words[:1] and words[0] in _BUY_SUBJECTS:
        words = words[1:]
    if words[:1] and words[0] in _BUY_VERBS:
        words = words[1:]
    count: int | None = None
    if words and words[-1] in _TIMES:
        # `Buy a card twice`, `Karte kaufen zweimal`.
        count, words = _TIMES[words[-1]], words[:-1]
    elif words and words[-1] in ("x1", "x2", "x3", "x4", "x5"):
        # `Karte kaufen x2`: the count after the verb at the end.
        count, words = _small_count(words[-1][1:]), words[:-1]
    while words and words[-1] in _BUY_TAILS:
        words = words[:-1]
    counted_after = count is not None
    if (
        words[:1]
        and words[0] in vocab.COUNTED_NUMBER_WORDS
        and words[1:2]
        and (words[1] in vocab.COUNTED_CARDS)
    ):
        # Danish `to udviklingskort`: two cards.
        words[0] = str(vocab.COUNTED_NUMBER_WORDS[words[0]])
    leading = words[:1] and (
        words[0].isdecimal()
        or words[0] in vocab.NUMBER_WORDS
        or (words[0][:-1].isdecimal() and words[0].endswith("x"))
    )
    if leading and counted_after:
        return None  # `2 Entwicklungskarten x2`: two counts, no purchase read
    if words and (words[0].isdecimal() or words[0] in vocab.NUMBER_WORDS):
        count = _small_count(words[0])
        words = words[1:]
    elif words and words[0][:-1].isdecimal() and words[0].endswith("x"):
        count = _small_count(words[0][:-1])
        words = words[1:]
    if words[:1] == ["x"] and count is not None:
        words = words[1:]
    if words and words[0] in _BUY_NEW:
        words = words[1:]
    if words and words[-1] in ("x1", "x2", "x3", "x4", "x5") and count is None:
        count = _small_count(words[-1][1:])
        words = words[:-1]
    plural = False
    if words and words[-1] in _CARD_PLURALS:
        plural = True
        words[-1] = _CARD_PLURALS[words[-1]]
    if tuple(words) not in _CARD_PHRASES:
        return None
    if count is None:
        if plural:
            raise NotationError.make("buy_how_many")
        return 1
    return count


def _small_count(word: str) -> int:
    n = vocab.NUMBER_WORDS.get(word)
    if n is None:
        n = _number(word) if word.isdecimal() else None
    if n is None or n > MAX_CARDS_A_LINE:
        raise NotationError.make("count_too_high", count=_significant(word) if n is None else n)
    if n < 1:
        raise NotationError.make("buy_how_many")
    return n


#: The kind of an upgrade written in words (`Stadt … zur Burg ausbauen`), by what it becomes.
_UPGRADE_KINDS: dict[type, str] = {Castle: "castle", Residence: "residence"}


def _build_action(
    t: Text, ctx: Context, inherit: str | None
) -> tuple[BuildAction | Builds, str | None]:
    """One build (or several card purchases), and its kind; `inherit`: the kind of the option
    before it, for an option written without its keyword (`Siedlung … oder 8H 3E 4H`)."""
    f = t.folded.strip()
    lead = len(t.folded) - len(t.folded.lstrip())
    city = _upgrade(t, ctx)
    if city is not None:
        return city, _UPGRADE_KINDS.get(type(city), "city")
    n = _buy_count(f)
    if n is not None:
        return (BuyCard() if n == 1 else Builds((BuyCard(),) * n)), "buy"
    m = _RATE.match(f)
    if m:
        return _maritime(t.sub(lead), ctx), "maritime"
    m = _ROADS.match(f)
    if m and _plural_count(m) != 0:
        return _plural_builds(t.sub(lead), m, ctx)
    for kind in _BUILD_KINDS:
        m = _PATTERNS[kind].match(f)
        if not m or vocab.foreign_only(m.group(1), ctx.lang):
            # Danish `by` (city) is English's `by`: an order word in a Danish game only.
            continue
        rest = t.sub(lead + m.start("rest"))
        if kind in AFTER_THE_ROLL_CARDS:
            rest = after_the_roll(rest)  # `Erfindung nach Wurf: Holz, Erz`
        return BUILD_READERS[kind](rest, t, lead, ctx), kind
    if inherit in INHERITED_KINDS and f[:1].isalnum():
        return BUILD_READERS[inherit](t, t, lead, ctx), inherit
    raise _not_an_order(t, ctx)


def _settlement(rest: Text, t: Text, lead: int, ctx: Context) -> Settlement:
    place = _strip_words(_strip_words(rest, _PLACE_WORDS), _PLACE_ARTICLES)
    return Settlement(_crossing(place, ctx))


def _city(rest: Text, t: Text, lead: int, ctx: Context) -> City:
    # `Stadt bei meiner Siedlung …`, `City at the settlement …`: place, article, the word.
    place = _strip_words(_strip_words(rest, _CITY_WORDS), _PLACE_ARTICLES)
    place = _strip_words(place, _CITY_FROM)
    return City(_crossing(place, ctx))


#: The verb before a year of plenty's resources: `take 2 ore`, `nehme 2 Erz`, `tag 2 malm`.
_PLENTY_TAKE = tuple(lexicon.longest_first(lexicon.words("words", "plenty_take")))


def _plenty(rest: Text, t: Text, lead: int, ctx: Context) -> YearOfPlenty:
    # `Erfindung spielen, ich nehme Holz und Lehm`: the comma, then the verb.
    f = rest.folded
    after = rest.sub(len(f) - len(f.lstrip(" ,;:-")))
    taken = _strip_words(after, _PLENTY_TAKE)
    a, b = _two_resources(rest if taken is after else taken, ctx)
    return YearOfPlenty(a, b)


#: What a build line's reader is given: the text after the keyword, the whole line, where the
#: keyword starts in it (for the column of an error) and the game.
BuildReader = Callable[[Text, Text, int, Context], BuildAction | Builds]

#: The reader of each kind of build line (its keyword, `words._BUILD_KINDS`): the base game's
#: here, an expansion's registered by its own module (`sea_builds.py`, `kron_builds.py`), which
#: refuses its lines in a game without it.
BUILD_READERS: dict[str, BuildReader] = {
    "maritime": lambda rest, t, lead, ctx: _maritime(rest, ctx),
    "plenty": _plenty,
    "road_building": lambda rest, t, lead, ctx: _road_building(rest, ctx),
    "settlement": _settlement,
    "city": _city,
    "road": lambda rest, t, lead, ctx: _roads(rest, ctx),
}
#: The plurals of `[plurals]` whose places are each read by the build's own reader
#: (`BUILD_READERS`); an expansion adds its pieces (`Schiffe …`, `Burgen …`).
PLURAL_READERS: set[str] = set()
#: What a plural's place may not read as (an expansion adds its move: `Ships A to B`).
NOT_IN_A_PLURAL: list[type] = []
#: The kinds an option written without its keyword takes from the option before it
#: (`Siedlung … oder 8H 3E 4H`); an expansion adds its own.
INHERITED_KINDS: set[str] = {"settlement", "city", "road", "maritime"}


#: Words before a crossing: `Siedlung an …`, `Settlement at …`.
_PLACE_WORDS = lexicon.words("words", "place")
#: After a place word: `at the ore port …`, `auf dem Erzhafen …`.
_PLACE_ARTICLES = lexicon.words("words", "place_articles")
#: Before a city's crossing: `Stadt statt Siedlung …` before `Stadt bei …`.
_CITY_WORDS = (*lexicon.words("words", "city_places"), *_PLACE_WORDS)
#: The settlement a city replaces (`Stadt bei Siedlung …`).
_CITY_FROM = lexicon.words("words", "city_from")


#: `Straßen 6L 5L und 5L 11G`, `Roads: …`: several roads, built in the order written.
#: Several settlements or cities likewise (`Siedlungen …`, `Zwei Städte: …`), and any of them
#: with a count (`Zwei Straßen: 4G 9L und 9L 3W`, `2x roads …`), which must fit the list.
#: The kind of build of each plural (`[plurals]`).
_PLURAL_KINDS: dict[str, str] = languages.merged("plurals")
_ROADS = re.compile(
    r"^(?:(?P<count>\d{1,2}|[a-z]++)(?:\s?+x)?+\s++)?"
    rf"(?P<kind>{lexicon.alternation(_PLURAL_KINDS)})(?![a-z])\s*+:?+\s*+"
)
#: The most roads one `Straßen` line may hold (a player has 15), and settlements or cities.
_MAX_ROADS = 5


def _roads(rest: Text, ctx: Context) -> Road | Builds:
    """`Straße 6L 5L`; and a list of paths after the one word (`Straße 6L 5L, 5L 11G`, `Road
    6B 5B and 5B 4G`), each a road of its own, as `Straßen …` reads it. The list is tried only
    where the line is no one path (`Straße zwischen 6L und 5L` is one)."""
    try:
        return Road(_path(rest, ctx))
    except OrderError as one:
        if len(_path_spans(rest.folded)) < 2:
            raise
        try:
            paths = _path_list(rest, ctx)
        except OrderError:
            raise one from None
        if len(paths) > _MAX_ROADS:
            raise
        return Builds(tuple(Road(e) for e in paths))


def _plural_count(m: re.Match[str]) -> int | None:
    """The count before a plural (`Zwei Straßen`), None without one; 0 when the word before
    it is no count (`neue Straßen`: not read as a list)."""
    word = m.group("count")
    if word is None:
        return None
    if word.isdecimal():
        return _number(word) or 0
    # Danish `to`, `tre` count only before what they count (`To veje: …`).
    return vocab.NUMBER_WORDS.get(word) or vocab.COUNTED_NUMBER_WORDS.get(word, 0)


def _plural_builds(t: Text, m: re.Match[str], ctx: Context) -> tuple[BuildAction | Builds, str]:
    """`Straßen A und B`, `Zwei Siedlungen: A, B`, `Two cities: A and B`: each place a build of
    its own, in the order written; a count must be the number of places named."""
    kind = _PLURAL_KINDS[m.group("kind")]
    rest = t.sub(m.end())
    if kind == "road":
        built: list[BuildAction] = [Road(e) for e in _path_list(rest, ctx)]
        if not 1 <= len(built) <= _MAX_ROADS:
            raise NotationError.make("road_form", column=rest.col(0))
    elif kind in PLURAL_READERS:
        # An expansion's plural (`Schiffe A und B`, `Two castles: A, B`): each place read as
        # the one build's line reads it (refused where that line is).
        lead = m.start("kind")
        read = BUILD_READERS[kind]
        each = [read(rest.sub(a, b), t, lead, ctx) for a, b in _path_spans(rest.folded)]
        # Each place one new piece: never a list nor a move (`Ships C7 D7 to D7 E7`).
        built = [
            one
            for one in each
            if not isinstance(one, Builds) and not isinstance(one, tuple(NOT_IN_A_PLURAL))
        ]
        if len(built) != len(each) or not 1 <= len(built) <= _MAX_ROADS:
            raise NotationError.make(
                "builds_list_form",
                shown=t.sub(m.start("kind"), m.end("kind")).original,
                max=_MAX_ROADS,
                column=rest.col(0),
            )
    else:
        make = Settlement if kind == "settlement" else City
        built = [make(_crossing(rest.sub(a, b), ctx)) for a, b in _path_spans(rest.folded)]
        if not 1 <= len(built) <= _MAX_ROADS:
            raise NotationError.make(
                "builds_list_form",
                shown=t.sub(m.start("kind"), m.end("kind")).original,
                max=_MAX_ROADS,
                column=rest.col(0),
            )
    count = _plural_count(m)
    if count is not None and count != len(built):
        raise NotationError.make(
            "count_differs",
            shown=t.sub(0, m.end("kind")).original.strip(),
            named=len(built),
            column=t.col(0),
        )
    return (built[0] if len(built) == 1 else Builds(tuple(built))), kind


# The expansions' build lines register themselves (`BUILD_READERS`); importing them here, last
# (they use this module), means whoever imports this module reads them all.
from . import kron_builds, sea_builds  # noqa: E402, F401

__all__ = [
    "BUILD_READERS",
    "INHERITED_KINDS",
    "MAX_CARDS_A_LINE",
    "NOT_IN_A_PLURAL",
    "PLURAL_READERS",
    "BuildReader",
]
