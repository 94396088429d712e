"""Kronlande's build lines, registered with the build readers (`builds.BUILD_READERS`): a
workshop, `Herstellen 2 Brot`, a Burg, a Residenz, and the project cards Bauhütte,
Hafenprivileg and `Festmahl Brot`. Each is refused outside Kronlande, naming the word."""

from __future__ import annotations

from pbm.rules.kron import BAECKEREI, SCHMIEDE, WEBEREI
from pbm.rules.orders import (
    BuildAction,
    BuildersHut,
    Castle,
    Feast,
    HarbourPrivilege,
    Make,
    Residence,
    Workshop,
)
from pbm.rules.resources import GOODS

from . import lexicon
from .builds import (
    _PLACE_ARTICLES,
    _PLACE_WORDS,
    BUILD_READERS,
    INHERITED_KINDS,
    PLURAL_READERS,
    BuildReader,
)
from .cards import _one_item
from .context import Context, Text
from .counts import MAX_COUNT, _resource_groups
from .errors import NotationError
from .items import Builds
from .places import _crossing
from .refusals import ORDER_EXPECTED
from .words import _letter_words, _strip_words

#: The workshop kind of each workshop word.
_WORKSHOP_KIND = {"smithy": SCHMIEDE, "weaving_mill": WEBEREI, "bakery": BAECKEREI}
#: The building a workshop, a Burg or a Residenz is named by (`Burg bei Stadt …`,
#: `Castle at the city …`, `Schmiede auf meiner Siedlung …`): passed over before the crossing.
_BUILDING_WORDS = lexicon.words("words", "building_words")
#: After a project card's word: `Bauhütte ausspielen`, `Play harbour privilege card`.
_CARD_TAIL = lexicon.word_set("words", "card_tail")


def _site(rest: Text, ctx: Context) -> int:
    """The crossing of a Kronlande building, past its place words and building words."""
    place = _strip_words(_strip_words(rest, _PLACE_WORDS), _PLACE_ARTICLES)
    place = _strip_words(_strip_words(place, _BUILDING_WORDS), _PLACE_WORDS)
    return _crossing(place, ctx)


def _card(kind: str, rest: Text) -> BuildersHut | HarbourPrivilege:
    extra = [w for w in _letter_words(rest.folded) if w not in _CARD_TAIL]
    if extra:
        raise NotationError.make("card_alone", column=rest.col(0))
    return BuildersHut() if kind == "builders_hut" else HarbourPrivilege()


def _make(t: Text, ctx: Context) -> Make | Builds:
    """`Herstellen 2 Brot`, `Make bread`, `Herstellen 2 Brot, 1 Werkzeug`: goods made in the
    player's workshops, each good its own build in the order written."""
    if not t.folded.strip():
        raise NotationError.make("make_form", column=t.col(0))
    makes = []
    for good, n in _resource_groups(t, ctx, max_total=MAX_COUNT):
        if good not in GOODS:
            raise NotationError.make("make_goods", column=t.col(0))
        if n < 1:
            # `Herstellen 0 Brot` named a good: the count is what is wrong.
            raise NotationError.make("make_at_least_one", column=t.col(0))
        # Each entry its own make, in the order written (each all or none at resolution).
        makes.append(Make(good, n))
    return makes[0] if len(makes) == 1 else Builds(tuple(makes))


def _read(kind: str, rest: Text, ctx: Context) -> BuildAction | Builds:
    if kind in ("builders_hut", "harbour_privilege"):
        return _card(kind, rest)
    if kind == "feast":
        return Feast(_one_item(rest, ctx))
    if kind == "make":
        return _make(rest, ctx)
    c = _site(rest, ctx)
    if kind == "castle":
        return Castle(c)
    if kind == "residence":
        return Residence(c)
    return Workshop(_WORKSHOP_KIND[kind], c)


def _reader(kind: str) -> BuildReader:
    """The reader of one Kronlande kind: refused outside Kronlande, naming the word."""

    def read(rest: Text, t: Text, lead: int, ctx: Context) -> BuildAction | Builds:
        if not ctx.kron:
            word = t.sub(lead, lead + len(t.folded.strip().split()[0])).original
            raise NotationError.make("kronlande_only", word=word, column=t.col(lead))
        return _read(kind, rest, ctx)

    return read


_KINDS = ("smithy", "weaving_mill", "bakery", "make", "castle", "residence")
BUILD_READERS.update(
    {kind: _reader(kind) for kind in (*_KINDS, "builders_hut", "harbour_privilege", "feast")}
)
INHERITED_KINDS.update({"castle", "residence", *_WORKSHOP_KIND})
# A line that is no order names the Kronlande orders too.
ORDER_EXPECTED.append((lambda ctx: ctx.kron, "order_expected_kron"))
# `Burgen C4 D4 D5 und F3 F4 G3`: a castle each.
PLURAL_READERS.add("castle")
