"""Build lines: settlements, cities, roads, ships (also several on one line), development
card purchases, year of plenty, moving a ship, and Kronlande's buildings and goods."""

from __future__ import annotations

import re

from pbm import languages
from pbm.rules.kron import BAECKEREI, SCHMIEDE, WEBEREI
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuildersHut,
    BuyCard,
    Castle,
    City,
    Feast,
    HarbourPrivilege,
    Make,
    MoveShip,
    Residence,
    Road,
    Settlement,
    Ship,
    Workshop,
    YearOfPlenty,
)
from pbm.rules.resources import GOODS

from . import lexicon, vocab
from .cards import _one_item, _path_list, _path_spans, _road_building
from .context import Context, Text
from .counts import MAX_COUNT, _number, _resource_groups, _significant, _two_resources
from .cuts import _CUT_ARTICLES, _split_builds
from .errors import NotationError
from .items import Builds
from .places import _crossing, _path, _sea_path
from .refusals import _not_an_order
from .remarks import _without_verb
from .trades import _maritime
from .upgrades import _upgrade
from .words import (
    _KRON_KINDS,
    _PATTERNS,
    _RATE,
    _build_starts,
    _letter_words,
    _split_or,
    _strip_words,
)

#: The workshop kind of each workshop word.
_WORKSHOP_KIND = {"smithy": SCHMIEDE, "weaving_mill": WEBEREI, "bakery": BAECKEREI}

#: Card purchases on one line (`2 Entwicklungskarten`).
MAX_CARDS_A_LINE = 9


def _build_line(t: Text, ctx: Context) -> BuildAction | Alternatives | Builds:
    parts = _split_or(t)
    if _PATTERNS["plenty"].match(t.folded.strip()) and not all(
        _starts_a_build(p, ctx.kron) for p in parts[1:]
    ):
        # `Erfindung Erz oder Getreide`: a choice inside the card, refused as such; `Erfindung
        # H H oder Siedlung …` is two options.
        return _build_action(t, ctx, None)[0]
    pieces = _split_builds(t, ctx.board.has_areas, ctx.kron)
    if len(parts) > 1 and len(pieces) > 1:
        raise NotationError.make("or_and_mixed", column=t.col(0))
    if len(parts) > 1:
        options: list[BuildAction] = []
        kind: str | None = None
        for p in parts:
            action, kind = _build_action(p, ctx, kind)
            if isinstance(action, Builds):
                raise NotationError.make("option_one_build", column=p.col(0))
            options.append(action)
        return Alternatives(tuple(options))
    if len(pieces) > 1:
        actions: list[BuildAction] = []
        for p in pieces:
            piece = _strip_words(_without_verb(p), tuple(_CUT_ARTICLES))
            action, _ = _build_action(piece, ctx, None)
            actions.extend(action.actions if isinstance(action, Builds) else (action,))
        return Builds(tuple(actions))
    return _build_action(t, ctx, None)[0]


def _starts_a_build(t: Text, kron: bool) -> bool:
    words = _letter_words(t.folded[:40])
    return bool(words) and words[0] in _build_starts(kron)


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
    while words and words[-1] in _BUY_TAILS:
        words = words[:-1]
    count: int | None = None
    if (
        words[:1]
        and words[0] in vocab.COUNTED_NUMBER_WORDS
        and words[1:2]
        and (words[1] in vocab.COUNTED_CARDS)
    ):
        # Danish `to udviklingskort`: two cards.
        words[0] = str(vocab.COUNTED_NUMBER_WORDS[words[0]])
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


def _build_action(
    t: Text, ctx: Context, inherit: str | None
) -> tuple[BuildAction | Builds, str | None]:
    """One build (or several card purchases), and its kind; `inherit`: the kind of the option
    before it, for an option written without its keyword (`Siedlung … oder 8H 3E 4H`)."""
    f = t.folded.strip()
    lead = len(t.folded) - len(t.folded.lstrip())
    city = _upgrade(t, ctx)
    if city is not None:
        return city, "city"
    n = _buy_count(f)
    if n is not None:
        return (BuyCard() if n == 1 else Builds((BuyCard(),) * n)), "buy"
    m = _RATE.match(f)
    if m:
        return _maritime(t.sub(lead), ctx), "maritime"
    m = _ROADS.match(f)
    if m and _plural_count(m) != 0:
        return _plural_builds(t.sub(lead), m, ctx)
    for kind in (
        "maritime",
        "plenty",
        "road_building",
        "move_ship",
        "ship",
        "settlement",
        "city",
        "road",
        *_KRON_KINDS,
    ):
        m = _PATTERNS[kind].match(f)
        if not m or vocab.foreign_only(m.group(1), ctx.lang):
            # Danish `by` (city) is English's `by`: an order word in a Danish game only.
            continue
        rest = t.sub(lead + m.start("rest"))
        if kind in _KRON_KINDS:
            return _kron_build(kind, rest, t, lead, ctx), kind
        return _build_of(kind, rest, t, lead, ctx), kind
    if inherit in ("settlement", "city", "road", "maritime") and f[:1].isalnum():
        return _build_of(inherit, t, t, lead, ctx), inherit
    if inherit in ("castle", "residence", *_WORKSHOP_KIND) and f[:1].isalnum():
        return _kron_build(inherit, t, t, lead, ctx), inherit
    raise _not_an_order(t, ctx)


def _build_of(kind: str, rest: Text, t: Text, lead: int, ctx: Context) -> BuildAction:
    if kind == "maritime":
        return _maritime(rest, ctx)
    if kind == "plenty":
        a, b = _two_resources(rest, ctx)
        return YearOfPlenty(a, b)
    if kind == "road_building":
        return _road_building(rest, ctx)
    if kind in ("ship", "move_ship") and not ctx.board.has_areas:
        raise NotationError.make("ships_seafarers", column=t.col(lead))
    if kind == "ship":
        return Ship(_sea_path(rest, ctx))
    if kind == "move_ship":
        return _move_ship(rest, t, lead, ctx)
    if kind == "settlement":
        place = _strip_words(_strip_words(rest, _PLACE_WORDS), _PLACE_ARTICLES)
        return Settlement(_crossing(place, ctx))
    if kind == "city":
        # `Stadt bei meiner Siedlung …`, `City at the settlement …`: place, article, the word.
        place = _strip_words(_strip_words(rest, _CITY_WORDS), _PLACE_ARTICLES)
        place = _strip_words(place, _CITY_FROM)
        return City(_crossing(place, ctx))
    return Road(_path(rest, ctx))


#: Kronlande: the building a workshop, a Burg or a Residenz is named by (`Burg bei Stadt …`,
#: `Castle at the city …`, `Schmiede auf meiner Siedlung …`): passed over before the crossing.
_BUILDING_WORDS = lexicon.words("words", "building_words")
#: After a project card's word: `Bauhütte ausspielen`, `Play harbour privilege card`.
_CARD_TAIL = lexicon.word_set("words", "card_tail")


def _kron_build(kind: str, rest: Text, t: Text, lead: int, ctx: Context) -> BuildAction | Builds:
    """Kronlande's build lines: a workshop, `Herstellen 2 Brot`, a Burg, a Residenz, and the
    project cards Bauhütte, Hafenprivileg and `Festmahl Brot`. Refused outside Kronlande."""
    if not ctx.kron:
        word = t.sub(lead, lead + len(t.folded.strip().split()[0])).original
        raise NotationError.make("kronlande_only", word=word, column=t.col(lead))
    if kind in ("builders_hut", "harbour_privilege"):
        extra = [w for w in _letter_words(rest.folded) if w not in _CARD_TAIL]
        if extra:
            raise NotationError.make("card_alone", column=rest.col(0))
        return BuildersHut() if kind == "builders_hut" else HarbourPrivilege()
    if kind == "feast":
        return Feast(_one_item(rest, ctx))
    if kind == "make":
        return _make(rest, ctx)
    place = _strip_words(_strip_words(rest, _PLACE_WORDS), _PLACE_ARTICLES)
    place = _strip_words(_strip_words(place, _BUILDING_WORDS), _PLACE_WORDS)
    c = _crossing(place, ctx)
    if kind == "castle":
        return Castle(c)
    if kind == "residence":
        return Residence(c)
    return Workshop(_WORKSHOP_KIND[kind], c)


def _make(t: Text, ctx: Context) -> Make | Builds:
    """`Herstellen 2 Brot`, `Make bread`, `Herstellen 2 Brot, 1 Werkzeug`: goods made in the
    player's workshops, each good its own build in the order written."""
    if not t.folded.strip():
        raise NotationError.make("make_form", column=t.col(0))
    makes = []
    for good, n in _resource_groups(t, ctx, max_total=MAX_COUNT):
        if good not in GOODS:
            raise NotationError.make("make_goods", column=t.col(0))
        # Each entry its own make, in the order written (each all or none at resolution).
        makes.append(Make(good, n))
    return makes[0] if len(makes) == 1 else Builds(tuple(makes))


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


def _plural_count(m: re.Match[str]) -> int | None:
    """The count before a plural (`Zwei Straßen`), None without one; 0 when the word before
    it is no count (`neue Straßen`: not read as a list)."""
    word = m.group("count")
    if word is None:
        return None
    if word.isdecimal():
        return _number(word) or 0
    return vocab.NUMBER_WORDS.get(word, 0)


def _plural_builds(
    t: Text, m: re.Match[str], ctx: Context
) -> tuple[Road | Settlement | City | Builds, str]:
    """`Straßen A und B`, `Zwei Siedlungen: A, B`, `Two cities: A and B`: each place a build of
    its own, in the order written; a count must be the number of places named."""
    kind = _PLURAL_KINDS[m.group("kind")]
    rest = t.sub(m.end())
    if kind == "road":
        built: list[Road | Settlement | City] = [Road(e) for e in _path_list(rest, ctx)]
        if not 1 <= len(built) <= _MAX_ROADS:
            raise NotationError.make("road_form", column=rest.col(0))
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


#: `nach`/`to` between the two paths of a ship move.
_MOVE_TO = re.compile(rf" ({lexicon.either('words', 'move_to')}) ")


_MOVE_FROM = lexicon.words("words", "move_from")


def _move_ship(rest: Text, t: Text, lead: int, ctx: Context) -> MoveShip:
    """`Schiff versetzen D4 D5 nach E5 E6` / `Move ship D4 D5 to E5 E6`."""
    rest = _strip_words(rest, _MOVE_FROM)
    f = rest.folded
    cuts = list(_MOVE_TO.finditer(f))
    if len(cuts) != 1:
        raise NotationError.make("move_ship_form", column=t.col(lead))
    cut = cuts[0]
    source = _sea_path(rest.sub(0, cut.start()), ctx)
    target = _sea_path(rest.sub(cut.end()), ctx)
    return MoveShip(source, target)
