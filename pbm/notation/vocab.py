"""Words of the order language in both game languages: resources, colours, card names.

All keys are folded (lower case, umlauts spelled out: see `text.fold`).
"""

from __future__ import annotations

from pbm.rules.resources import ERZ, GETREIDE, HOLZ, LEHM, LETTERS_DE, LETTERS_EN, WOLLE

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
}

NAMES = {
    "de": ("Holz", "Lehm", "Wolle", "Getreide", "Erz"),
    "en": ("Lumber", "Brick", "Wool", "Grain", "Ore"),
}

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
}

COLOUR_NAMES = {
    "de": {
        "rot": "rot",
        "blau": "blau",
        "gelb": "gelb",
        "weiss": "weiß",
        "gruen": "grün",
        "braun": "braun",
        "orange": "orange",
        "schwarz": "schwarz",
    },
    "en": {
        "rot": "red",
        "blau": "blue",
        "gelb": "yellow",
        "weiss": "white",
        "gruen": "green",
        "braun": "brown",
        "orange": "orange",
        "schwarz": "black",
    },
}


def letters(lang: str) -> tuple[str, ...]:
    return LETTERS_EN if lang == "en" else LETTERS_DE


def resource(word: str, lang: str, column: int | None = None) -> int:
    """A resource from a letter of the game's language or a name in either language."""
    w = word.strip().rstrip(".")
    if w in RESOURCE_WORDS:
        return RESOURCE_WORDS[w]
    lows = [x.lower() for x in letters(lang)]
    if w in lows:
        return lows.index(w)
    expected = "/".join(letters(lang))
    raise NotationError.make("resource_expected", letters=expected, shown=word, column=column)


def resource_name(r: int, lang: str) -> str:
    return NAMES["en" if lang == "en" else "de"][r]


def colour(word: str, column: int | None = None) -> str:
    w = word.strip().rstrip(".")
    if w in COLOUR_WORDS:
        return COLOUR_WORDS[w]
    raise NotationError.make("colour_expected", shown=word, column=column)


def colour_name(canonical: str, lang: str) -> str:
    return COLOUR_NAMES["en" if lang == "en" else "de"].get(canonical, canonical)
