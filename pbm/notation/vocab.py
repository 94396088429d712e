"""Words of the order language in every game language: resources, colours, card names.

All keys are folded (lower case, umlauts spelled out: see `text.fold`). The words read are the
language files' (`pbm/languages/<lang>.toml`, `pbm.languages`); the names pbm writes come from
the message catalogue (`pbm.i18n`).
"""

from __future__ import annotations

from pbm import languages
from pbm.i18n import PerLanguage, language, translator
from pbm.rules.resources import (
    BROT,
    ERZ,
    FISCH,
    GETREIDE,
    GOODS,
    HOLZ,
    LEHM,
    STEIN,
    STOFF,
    WERKZEUG,
    WOLLE,
    letters_of,
)

from .errors import NotationError

#: The resources and goods by the key a language file names them with.
_RESOURCE_KEYS: dict[str, int] = {
    "lumber": HOLZ,
    "brick": LEHM,
    "wool": WOLLE,
    "grain": GETREIDE,
    "ore": ERZ,
    "stone": STEIN,
    "fish": FISCH,
    "tools": WERKZEUG,
    "cloth": STOFF,
    "bread": BROT,
}


def _resource_table(section: str) -> dict[str, int]:
    return {word: _RESOURCE_KEYS[key] for word, key in languages.merged(section).items()}


#: Resource words of every language (`[resources]` of the language files).
RESOURCE_WORDS: dict[str, int] = _resource_table("resources")

#: The words of a Kronlande game (issue 19): the five, Stein and Fisch, and the three goods
#: (`[kron_resources]`). There `Stein` is stone, never ore (in a base game it stays ore, as it
#: always was).
KRON_WORDS: dict[str, int] = {**RESOURCE_WORDS, **_resource_table("kron_resources")}


def _resource_names(lang: str) -> tuple[str, ...]:
    tr = translator(lang)
    return (
        tr.pgettext("resource", "Lumber"),
        tr.pgettext("resource", "Brick"),
        tr.pgettext("resource", "Wool"),
        tr.pgettext("resource", "Grain"),
        tr.pgettext("resource", "Ore"),
        # Translators: Kronlande's resources and goods; each name must be a word `KRON_WORDS`
        # reads (the parser reads back `Herstellen 2 Brot`, `Festmahl Stein`).
        tr.pgettext("resource", "Stone"),
        tr.pgettext("resource", "Fish"),
        tr.pgettext("good", "Tools"),
        tr.pgettext("good", "Cloth"),
        tr.pgettext("good", "Bread"),
    )


#: Resource names as pbm writes them, by game language (from the message catalogue); indexed
#: like a hand (the last five only in a Kronlande game).
NAMES = PerLanguage(_resource_names)

#: Counts written as words ("zwei Wolle", "one ore"), folded (`[numbers]`).
NUMBER_WORDS: dict[str, int] = languages.merged("numbers")

#: Counts that are another language's ordinary word (Danish `to`, two, is English's `to`), by
#: language (`[counted_numbers]`): a count in that language's game only, and there only right
#: before what it counts (`to uld`, `to udviklingskort`).
COUNTED_NUMBERS: dict[str, dict[str, int]] = {
    lang: languages.mapping(lang, "counted_numbers") for lang in languages.names()
}
#: Every such word of any language, with its count.
COUNTED_NUMBER_WORDS: dict[str, int] = languages.merged("counted_numbers")
#: The card words a counted number counts in any game (`to udviklingskort`), where a build
#: line is read before its language is asked (`[words] counted_cards`).
COUNTED_CARDS = frozenset(languages.words("words", "counted_cards"))

#: Canonical colour (as the game state stores it) by each folded spelling of its name
#: (`[colours]`): the words a password may begin with.
COLOUR_SPELLINGS: dict[str, str] = languages.merged("colours")
#: ... and by every word an order names it with, the inflected forms too (`[colour_forms]`:
#: `den Blauen`).
COLOUR_WORDS: dict[str, str] = {**languages.merged("colour_forms"), **COLOUR_SPELLINGS}

#: Every colour a seat can have, as the game state stores it.
COLOURS = ("rot", "blau", "gelb", "weiss", "gruen", "braun", "orange", "schwarz")


def _colour_names(lang: str) -> dict[str, str]:
    tr = translator(lang)
    return {
        # Translators: a colour name must be a spelling `COLOUR_WORDS` reads.
        "rot": tr.pgettext("colour", "red"),
        "blau": tr.pgettext("colour", "blue"),
        "gelb": tr.pgettext("colour", "yellow"),
        "weiss": tr.pgettext("colour", "white"),
        "gruen": tr.pgettext("colour", "green"),
        "braun": tr.pgettext("colour", "brown"),
        "orange": tr.pgettext("colour", "orange"),
        "schwarz": tr.pgettext("colour", "black"),
    }


def _card_names(lang: str) -> dict[str, str]:
    tr = translator(lang)
    return {
        "knight": tr.pgettext("card", "Knight"),
        "vp": tr.pgettext("card", "Victory point"),
        "road_building": tr.pgettext("card", "Road building"),
        "year_of_plenty": tr.pgettext("card", "Year of plenty"),
        "monopoly": tr.pgettext("card", "Monopoly"),
        # Kronlande's project cards.
        "builders_hut": tr.pgettext("card", "Builders' hut"),
        "harbour_privilege": tr.pgettext("card", "Harbour privilege"),
        "feast": tr.pgettext("card", "Feast"),
    }


#: Colour and card names as pbm writes them, by game language (from the message catalogue).
#: A colour name must be one of the spellings in `COLOUR_WORDS` (passwords and orders name it).
COLOUR_NAMES = PerLanguage(_colour_names)
CARD_NAMES = PerLanguage(_card_names)


def counted_numbers(lang: str) -> dict[str, int]:
    """The counts a game's language reads only right before what they count (Danish `to`)."""
    return COUNTED_NUMBERS.get(languages.base(lang), {})


#: Keywords that are order words in their own language's game only (Danish `by`, city, is
#: English's `by`), by language (`own_game_only`).
_OWN_GAME_ONLY: dict[str, frozenset[str]] = {
    lang: frozenset(ws) for lang, ws in languages.by_language("words", "own_game_only").items()
}


def own_game_words(lang: str) -> frozenset[str]:
    """The keywords that are order words in a game of this language only (Danish `by`)."""
    return _OWN_GAME_ONLY.get(languages.base(lang), frozenset())


def foreign_only(word: str, lang: str) -> bool:
    """Whether a keyword is another language's own-game-only word, not an order word in a game
    of this language (`by` in a German or English game)."""
    own = _OWN_GAME_ONLY.get(languages.base(lang), frozenset())
    return word not in own and any(word in ws for ws in _OWN_GAME_ONLY.values())


def letters(lang: str, kron: bool = False) -> tuple[str, ...]:
    """The letters players write in a game language: five, or Kronlande's ten (H L W G E S F
    Wz St Br; English L B W G O St F To Cl Br; Danish T L U K M S F Vk St Br), indexed like a
    hand."""
    return letters_of(lang, kron)


def letter(r: int, lang: str) -> str:
    """The letter pbm writes for a resource or good: the first five are the base game's."""
    return letters(lang, True)[r]


def is_good(r: int) -> bool:
    return r in GOODS


def resource(
    word: str,
    lang: str,
    column: int | None = None,
    kron: bool = False,
    counted: bool = False,
    shown: str | None = None,
    goods_refused: bool = False,
    read_as: tuple[tuple[str, int], ...] = (),
) -> int:
    """A resource (in Kronlande also a good) from a letter of the game's language or a name in
    either language.

    `counted`: the word came right after its count, nothing between (`2St`, not `2 St`). A
    letter of two (Kronlande's `Wz St Br`, English `St To Cl Br`) is a card only so, and never
    with a full stop after it: alone it may be an ordinary word (English `to`, German `St.` for
    Stück), so it is refused (`letters_with_count`), never read as a card. `goods_refused`:
    the caller refuses any good (a bank trade, a monopoly), so a good's letters are read alone
    too, and the line gets that refusal. `shown`: the word as the player wrote it, for the
    error (the folded `word` else). `read_as`: letters read as the card given, however they
    stand (never with a full stop): how a line is read again for the question back
    (`lines.parse_line`), `4 St` as Stoff and as Stein."""
    w = word.strip().rstrip(".")
    for letters_, card in read_as:
        if w == letters_ and not word.strip().endswith("."):
            return card
    words = KRON_WORDS if kron else RESOURCE_WORDS
    if w in words:
        return words[w]
    lows = [x.lower() for x in letters(lang, kron)]
    if w in lows:
        r = lows.index(w)
        alone = not counted or word.strip().endswith(".")
        if len(w) > 1 and alone and not (goods_refused and r in GOODS):
            raise NotationError.make(
                "letters_with_count",
                shown=(word if shown is None else shown).strip(),
                name=resource_name(r, lang),
                example=f"1{letters(lang, kron)[r]}",
                column=column,
            )
        return r
    expected = "/".join(letters(lang, kron))
    raise NotationError.make("resource_expected", letters=expected, shown=word, column=column)


def resource_name(r: int, lang: str) -> str:
    return NAMES[language(lang)][r]


def colour(word: str, column: int | None = None) -> str:
    w = word.strip().rstrip(".")
    if w in COLOUR_WORDS:
        return COLOUR_WORDS[w]
    raise NotationError.make("colour_expected", shown=word, column=column)


def colour_name(canonical: str, lang: str) -> str:
    return COLOUR_NAMES[language(lang)].get(canonical, canonical)


def card_name(card: str, lang: str) -> str:
    return CARD_NAMES[language(lang)][card]
