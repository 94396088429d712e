"""Why a line is no order: a keyword with the rest not understood (the form to write), a near
miss (`Strase` → did you mean 'Straße'?), a victory point card, or a word that is no order."""

from __future__ import annotations

import difflib
import re

from .context import Context, Text
from .errors import NotationError
from .words import _keyword_words, _letter_words

#: What a card purchase is called (folded), after its verb and count.
_CARD_WORDS = frozenset(
    [
        "entwicklungskarte",
        "projektkarte",
        "karte",
        "entwicklungs-karte",
        "development-card",
        "devcard",
    ]
)


#: The first words of each order kind (folded), for "did you mean" and for the form to write.
_NEAR = {
    "siedlung": "settlement",
    "settlement": "settlement",
    "stadt": "city",
    "city": "city",
    "strasse": "road",
    "road": "road",
    "entwicklungskarte": "buy",
    "projektkarte": "buy",
    "raeuber": "robber",
    "bandit": "robber",
    "robber": "robber",
    "pirat": "pirate",
    "pirate": "pirate",
    "handel": "trade",
    "trade": "trade",
    "seehandel": "maritime",
    "maritime": "maritime",
    "ritter": "knight",
    "knight": "knight",
    "monopol": "monopoly",
    "monopoly": "monopoly",
    "tribut": "monopoly",
    "erfindung": "plenty",
    "gluecksfund": "plenty",
    "strassenbau": "road_building",
    "bautrupp": "road_building",
    "schiff": "ship",
    "ship": "ship",
    "abwurf": "discard",
    "discard": "discard",
    "ersatzbau": "substitute",
    "substitute": "substitute",
    "kennwort": "password",
    "password": "password",
    "runde": "round",
}
#: A game language's own order words for "did you mean", in its games only (`Veij` → 'Vej').
_NEAR_OWN = {
    "da": {
        "hus": "settlement",
        "vej": "road",
        "udviklingskort": "buy",
        "roever": "robber",
        "soeroever": "pirate",
        "soehandel": "maritime",
        "ridder": "knight",
        "vejbygning": "road_building",
        "skib": "ship",
        "aflever": "discard",
        "erstatning": "substitute",
        "adgangskode": "password",
    }
}
#: Kronlande's words of a game language, for "did you mean" in its Kronlande games only.
_NEAR_OWN_KRON = {
    "da": {
        "smedje": "smithy",
        "vaeveri": "weaving_mill",
        "bageri": "bakery",
        "fremstil": "make",
        "borg": "castle",
        "residens": "residence",
        "bygmesterhytte": "builders_hut",
        "havneprivilegium": "harbour_privilege",
        "gilde": "feast",
    }
}
#: Kronlande's order words, for "did you mean" in a Kronlande game only.
_NEAR_KRON = {
    "schmiede": "smithy",
    "smithy": "smithy",
    "weberei": "weaving_mill",
    "baeckerei": "bakery",
    "bakery": "bakery",
    "herstellen": "make",
    "burg": "castle",
    "castle": "castle",
    "residenz": "residence",
    "residence": "residence",
    "bauhuette": "builders_hut",
    "hafenprivileg": "harbour_privilege",
    "festmahl": "feast",
    "feast": "feast",
}


#: A victory point card in both editions' words (`Wahrzeichen` in seed 002's): never played.
_VP_CARD_WORDS = frozenset(
    ["wahrzeichen", "siegpunkt", "siegpunktkarte", "siegpunktkarten", "victory", "vp"]
)


#: A card played named after a card purchase on one line (the cards that are no build line:
#: a year of plenty or road building after a purchase is read as builds of one line).
_PLAYED_CARD = re.compile(
    r"\b(monopol|monopoly|tribut|tribute|ritter|knight|festmahl|feast|bauhuette|builders|"
    r"hafenprivileg|harbou?r privilege)\b"
)


def _not_an_order(t: Text, ctx: Context) -> NotationError:
    """Why a line is no order: a keyword with the rest not understood (the form to write), a
    near miss (`Strase` → did you mean 'Straße'?), or a word that is no order."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    first = re.match(r"\S+", f[lead:])
    word = t.sub(lead, lead + first.end()).original if first else f
    letters = _letter_words(f[lead : lead + 40])
    folded = letters[0] if letters else ""
    if folded in ("strasse", "str", "s", "road") and first is not None:
        return NotationError.make("road_form", column=t.col(lead))
    if folded in _VP_CARD_WORDS:
        return NotationError.make("vp_card", column=t.col(lead))
    if folded in _CARD_WORDS or folded in ("buy", "kaufe", "karte"):
        if _PLAYED_CARD.search(f, lead):
            # `Karte kaufen und Monopol Erz spielen`: two orders on one line.
            return NotationError.make("buy_and_play", column=t.col(lead))
        return NotationError.make("buy_form", column=t.col(lead))
    if folded in _keyword_words(ctx.kron):
        return NotationError.make("keyword_rest", word=word, column=t.col(lead))
    words = {**_NEAR, **_NEAR_KRON} if ctx.kron else _NEAR
    words = {**words, **_NEAR_OWN.get(ctx.lang, {})}
    if ctx.kron:
        words = {**words, **_NEAR_OWN_KRON.get(ctx.lang, {})}
    near = difflib.get_close_matches(folded[:30], list(words), n=1, cutoff=0.75)
    if near and len(folded) >= 3:
        from .format import word as order_word

        return NotationError.make(
            "did_you_mean",
            word=word,
            suggestion=order_word(words[near[0]], ctx.lang).rstrip(":"),
            column=t.col(lead),
        )
    return NotationError.make("order_expected", word=word, column=t.col(lead))
