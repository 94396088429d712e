"""Words of the order language in every game language: resources, colours, card names.

All keys are folded (lower case, umlauts spelled out: see `text.fold`). The words read are
here; the names pbm writes come from the message catalogue (`pbm.i18n`).
"""

from __future__ import annotations

from pbm.i18n import PerLanguage, base, language, translator
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

RESOURCE_WORDS: dict[str, int] = {
    "holz": HOLZ,
    "lumber": HOLZ,
    "wood": HOLZ,
    "lehm": LEHM,
    "brick": LEHM,
    "bricks": LEHM,
    "clay": LEHM,
    "ziegel": LEHM,
    "wolle": WOLLE,
    "wool": WOLLE,
    "schaf": WOLLE,
    "schafe": WOLLE,
    "sheep": WOLLE,
    "getreide": GETREIDE,
    "grain": GETREIDE,
    "korn": GETREIDE,
    "wheat": GETREIDE,
    "weizen": GETREIDE,
    "erz": ERZ,
    "ore": ERZ,
    "stein": ERZ,
    # Danish (docs/glossary-da.md): træ, ler, uld, korn (above), malm; `sten` is Kronlande's.
    "trae": HOLZ,
    "tra": HOLZ,
    "ler": LEHM,
    "uld": WOLLE,
    "faar": WOLLE,
    "malm": ERZ,
}

#: The words of a Kronlande game (issue 19): the five, Stein and Fisch, and the three goods.
#: There `Stein` is stone, never ore (in a base game it stays ore, as it always was).
KRON_WORDS: dict[str, int] = {
    **{w: r for w, r in RESOURCE_WORDS.items() if w != "stein"},
    "stein": STEIN,
    "steine": STEIN,
    "stone": STEIN,
    "stones": STEIN,
    "fisch": FISCH,
    "fische": FISCH,
    "fish": FISCH,
    "werkzeug": WERKZEUG,
    "werkzeuge": WERKZEUG,
    "tools": WERKZEUG,
    "tool": WERKZEUG,
    "stoff": STOFF,
    "stoffe": STOFF,
    "cloth": STOFF,
    "brot": BROT,
    "brote": BROT,
    "bread": BROT,
    "sten": STEIN,
    "fisk": FISCH,
    "vaerktoej": WERKZEUG,
    "vaerktoj": WERKZEUG,
    "stof": STOFF,
    "broed": BROT,
    "brod": BROT,
}


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

#: Counts written as words ("zwei Wolle", "one ore"), folded.
NUMBER_WORDS: dict[str, int] = {
    "ein": 1,
    "eine": 1,
    "einen": 1,
    "einem": 1,
    "one": 1,
    "a": 1,
    "an": 1,
    "zwei": 2,
    "two": 2,
    "drei": 3,
    "three": 3,
    "vier": 4,
    "four": 4,
    "fuenf": 5,
    "funf": 5,
    "five": 5,
    "sechs": 6,
    "six": 6,
    "sieben": 7,
    "seven": 7,
    "acht": 8,
    "eight": 8,
    "neun": 9,
    "nine": 9,
    "zehn": 10,
    "ten": 10,
    # Danish. Not `to` (2), which is English's `to` too: read as two only right before a
    # resource or card (`DANISH_TWO`).
    "en": 1,
    "et": 1,
    "tre": 3,
    "fire": 4,
    "fem": 5,
    "seks": 6,
    "syv": 7,
    "otte": 8,
    "ni": 9,
    "ti": 10,
}

#: Danish two, a count only right before what it counts (`to uld`, `to udviklingskort`).
DANISH_TWO = "to"

#: Canonical colour (as the game state stores it) by every folded spelling.
COLOUR_WORDS: dict[str, str] = {
    "rot": "rot",
    "red": "rot",
    "blau": "blau",
    "blue": "blau",
    "gelb": "gelb",
    "yellow": "gelb",
    "weiss": "weiss",
    "weis": "weiss",
    "white": "weiss",
    "gruen": "gruen",
    "grun": "gruen",
    "green": "gruen",
    "braun": "braun",
    "brown": "braun",
    "orange": "orange",
    "schwarz": "schwarz",
    "black": "schwarz",
    # Danish, folded (`rød` is `roed`), and as typed without `ø`/`å` (`rod`, `bla` are not
    # read: an English word and a filler of remarks).
    "roed": "rot",
    "blaa": "blau",
    "gul": "gelb",
    "hvid": "weiss",
    "groen": "gruen",
    "gron": "gruen",
    "brun": "braun",
    "sort": "schwarz",
}

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


def danish(lang: str) -> bool:
    """A Danish game: where the Danish words that are other languages' words too (`by`, city;
    `to`, two) are order words."""
    return base(lang) == "da"


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
