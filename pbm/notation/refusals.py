"""Why a line is no order: a keyword with the rest not understood (the form to write), a near
miss (`Strase` → did you mean 'Straße'?), a victory point card, or a word that is no order."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable

from pbm import languages

from . import lexicon
from .context import Context, Text
from .errors import NotationError
from .words import _letter_words

#: What a card purchase is called (folded), after its verb and count.
_CARD_WORDS = lexicon.word_set("refusals", "card_words")
#: A road's or a card purchase's first word: the form to write is theirs.
_ROAD_WORDS = lexicon.word_set("refusals", "road")
_BUY_WORDS = lexicon.word_set("refusals", "buy")
#: The first words of each order kind (folded), for "did you mean" and for the form to write.
_NEAR: dict[str, str] = languages.merged("near")
#: Kronlande's order words, for "did you mean" in a Kronlande game only.
_NEAR_KRON: dict[str, str] = languages.merged("near_kron")


def _own_near(lang: str, section: str) -> dict[str, str]:
    """A game language's own order words for "did you mean", in its games only (`[near_own]`,
    `[near_own_kron]`: Danish `Veij` → 'Vej'); in another game they would be taken for a
    misspelling of that game's words."""
    return languages.mapping(lang, section) if languages.has(lang) else {}


#: A victory point card in both editions' words (`Wahrzeichen` in seed 002's): never played.
_VP_CARD_WORDS = lexicon.word_set("refusals", "vp_card")
#: Words of a trade accepted in a sentence (`I accept blue's offer …`).
_ACCEPT_WORDS = lexicon.word_set("refusals", "accept")
#: `Karte`, `card`, `kort` before a card played (`[places] card_lead`).
_CARD_LEADS = lexicon.word_set("places", "card_lead")
#: A card played named after a card purchase on one line (the cards that are no build line:
#: a year of plenty or road building after a purchase is read as builds of one line).
_PLAYED_CARD = re.compile(rf"\b({lexicon.either('refusals', 'played_cards')})\b")


def swapped(word: str, words: Iterable[str]) -> list[str]:
    """The known word `word` is with two neighbouring letters swapped (`Hsu` for `Hus`, `Vje`
    for `Vej`): the short words a ratio cannot tell from noise."""
    if len(word) < 3:
        return []
    for known in words:
        if len(known) != len(word) or known == word:
            continue
        at = [i for i, (a, b) in enumerate(zip(word, known, strict=True)) if a != b]
        if (
            len(at) == 2
            and at[1] == at[0] + 1
            and (word[at[0]], word[at[1]])
            == (
                known[at[1]],
                known[at[0]],
            )
        ):
            return [known]
    return []


#: A card's code from the report (`blau: Karte 3 → K7Q`, `reports/codebook.py`): three of its
#: capitals and digits, as the player copies it into a line that plays the card.
_CARD_CODE = re.compile(r"(?<![\w-])[A-HJKMNP-Z2-9]{3}(?![\w-])")


def _not_an_order(t: Text, ctx: Context) -> NotationError:
    """Why a line is no order: a keyword with the rest not understood (the form to write), a
    near miss (`Strase` → did you mean 'Straße'?), or a word that is no order."""
    f = t.folded
    lead = len(f) - len(f.lstrip())
    letters = _letter_words(f[lead : lead + 40])
    if any(w in _CARD_WORDS or w in _BUY_WORDS or w in _CARD_LEADS for w in letters[:3]) and (
        _CARD_CODE.search(t.original[:80])
    ):
        # `Play card N6T before roll: …`: the code only hides the card from the others; the
        # card is played by its name.
        return NotationError.make("card_by_code", column=t.col(lead))
    first = re.match(r"\S+", f[lead:])
    word = t.sub(lead, lead + first.end()).original if first else f
    folded = letters[0] if letters else ""
    if folded in _ROAD_WORDS and first is not None:
        return NotationError.make("road_form", column=t.col(lead))
    if folded in _VP_CARD_WORDS:
        return NotationError.make("vp_card", column=t.col(lead))
    if folded in _CARD_WORDS or folded in _BUY_WORDS:
        if _PLAYED_CARD.search(f, lead):
            # `Karte kaufen und Monopol Erz spielen`: two orders on one line.
            return NotationError.make("buy_and_play", column=t.col(lead))
        return NotationError.make("buy_form", column=t.col(lead))
    if folded in ctx.words.keyword_starts:
        return NotationError.make("keyword_rest", word=word, column=t.col(lead))
    if any(w in _ACCEPT_WORDS for w in letters):
        # A trade is accepted by stating it from one's own side; there is no "accept".
        return NotationError.make("trade_accept_form", column=t.col(lead))
    words = {**_NEAR, **_NEAR_KRON} if ctx.kron else _NEAR
    words = {**words, **_own_near(ctx.lang, "near_own")}
    if ctx.kron:
        words = {**words, **_own_near(ctx.lang, "near_own_kron")}
    near = difflib.get_close_matches(folded[:30], list(words), n=1, cutoff=0.75)
    near = near or swapped(folded[:30], words)
    if near and len(folded) >= 3:
        from .format import word as order_word

        return NotationError.make(
            "did_you_mean",
            word=word,
            suggestion=order_word(words[near[0]], ctx.lang).rstrip(":"),
            column=t.col(lead),
        )
    key = next((key for plays, key in ORDER_EXPECTED if plays(ctx)), "order_expected")
    return NotationError.make(key, word=word, column=t.col(lead))


#: The refusal of a line that is no order, in an expansion's game: it names that game's own
#: orders too (`Schiff`, `Burg`). An expansion registers (whether a game is one of its, the
#: message's key) from its module.
ORDER_EXPECTED: list[tuple[Callable[[Context], bool], str]] = []


#: The setup's refusals that show a placement's form (`setup_form`, `setup_placements_only`,
#: `setup_round_order`), in an expansion's game whose placements may take another piece: the
#: form of that one too (Seafarers: `Siedlung <Kreuzung> Schiff <Weg>`). An expansion
#: registers (whether a game is one of its, the suffix of its messages' keys).
SETUP_FORM: list[tuple[Callable[[Context], bool], str]] = []


def setup_form_key(key: str, ctx: Context) -> str:
    """`key`, or the key of its text in an expansion's game (`setup_form_sea`)."""
    return next((f"{key}_{suffix}" for plays, suffix in SETUP_FORM if plays(ctx)), key)
