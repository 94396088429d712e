"""The texts of the parser's errors, by stable key, in English and German.

Every `NotationError` / `AmbiguousError` is made with `make(key, **params)`: the English text
becomes its `message` (what `pbm orders check` and the logs show), and `localized(lang)` renders
the same key in the game's language. Parameters are filled in with `str.format`; what the player
wrote is passed as it was written and quoted with `!r`, as in the English texts.

A new error needs a line in both tables (tests/test_notation_messages_de.py checks that).
"""

from __future__ import annotations

from collections.abc import Mapping

_SETUP_FORM = "'Siedlung <Kreuzung> Straße <Weg>'"

TEXTS: dict[str, str] = {
    # lines.py
    "line_too_long": "this line is {length} characters long; lines of more than {max} "
    "characters are not read",
    "empty_line": "empty line",
    "value_expected": "a value was expected after '{word}'",
    "colour_expected": "a colour was expected, not {shown!r}",
    "colour_not_playing": "no player has the colour {shown!r} in this game",
    "ships_seafarers": "ships are built only in Seafarers scenarios",
    "order_expected": "an order was expected (Siedlung, Stadt, Straße, Entwicklungskarte, "
    "Räuber, Handel, Seehandel, …), not {word!r}",
    "brackets_differ": "the name in brackets does not name the same place",
    "robber_hex_expected": "the robber's hex was expected",
    "knight_timing": "say when the knight is played: 'vor Wurf' or 'nach Wurf'",
    "count_too_high": "{count} cards of one kind are more than anyone holds",
    "too_many_cards": "{count} cards are more than anyone holds (at most {max} in a list)",
    "number_too_long": "a number of {digits} digits is too long here (at most {max} digits)",
    "token_expected": "a confirmation code (letters, digits and '-', at most {max} characters) "
    "was expected, not {shown!r}",
    "resource_expected": "a resource ({letters} or its name) was expected, not {shown!r}",
    "resource_after_number": "a resource was expected after the number",
    "resources_expected": "resources were expected",
    "two_resources": "two resources were expected, not {count}",
    "trade_form": "a trade is written 'Handel <Farbe>: gebe …, bekomme …'",
    "maritime_form": "a bank trade is written 'Seehandel 4H gegen 1E'",
    "maritime_too_many": "at most {max} cards in a bank trade",
    "maritime_at_least_one": "counts of a bank trade are at least 1",
    "road_building_paths": "road building names one or two paths, separated by ','",
    "setup_form": f"a setup placement is written {_SETUP_FORM}",
    # names.py
    "hex_name_expected": "a hex name was expected, not {word!r}",
    "no_hex": "there is no hex {name} on this board",
    "one_hex": "one hex was expected, {count} were named",
    "ambiguous_hex": "{names} can mean several hexes",
    "crossing_three_hexes": "a crossing is named by three hexes, not {count}",
    "no_crossing": "there is no crossing where {names} meet",
    "ambiguous_crossing": "{names} names {count} crossings",
    "path_two_hexes": "a path is named by two hexes (or two crossings with '-'), not {count}",
    "no_path": "there is no path between {names}",
    "ambiguous_path": "{names} names {count} paths",
    "path_by_crossings_form": "a path by crossings is written 'crossing - crossing'",
    "crossings_not_joined": "those two crossings are not joined by a path",
    "ambiguous_path_by_crossings": "{count} paths join crossings named so",
    # mail.py
    "second_robber": "only one robber order per mail; the first one counts",
    "second_discard": "only one discard list per mail; the first one counts",
    "second_knight": "only one knight per mail; the first one counts",
    "second_monopoly": "only one monopoly per mail; the first one counts",
    "setup_placements_only": f"in the setup, place with {_SETUP_FORM}",
    "rest_not_read": "only the first {max} lines of a mail are read; the rest of this mail "
    "was not read",
}

TEXTS_DE: dict[str, str] = {
    "line_too_long": "diese Zeile ist {length} Zeichen lang; Zeilen mit mehr als {max} Zeichen "
    "werden nicht gelesen",
    "empty_line": "leere Zeile",
    "value_expected": "nach {shown!r} fehlt ein Wert",
    "colour_expected": "{shown!r} ist keine Farbe",
    "colour_not_playing": "die Farbe {shown!r} spielt in diesem Spiel nicht mit",
    "ships_seafarers": "Schiffe gibt es nur in Seefahrer-Szenarien",
    "order_expected": "{word!r} ist kein Befehl (Siedlung, Stadt, Straße, Entwicklungskarte, "
    "Räuber, Handel, Seehandel, …)",
    "brackets_differ": "der Name in Klammern nennt einen anderen Ort",
    "robber_hex_expected": "es fehlt das Feld für den Räuber",
    "knight_timing": "sag, wann der Ritter gespielt wird: 'Ritter vor Wurf' oder "
    "'Ritter nach Wurf'",
    "count_too_high": "{count} Karten einer Sorte hat niemand",
    "too_many_cards": "{count} Karten hat niemand (höchstens {max} in einer Liste)",
    "number_too_long": "eine Zahl mit {digits} Ziffern ist hier zu lang (höchstens {max} Ziffern)",
    "token_expected": "{shown!r} ist kein Bestätigungscode (Buchstaben, Ziffern und '-', "
    "höchstens {max} Zeichen)",
    "resource_expected": "{shown!r} ist kein Rohstoff ({letters} oder sein Name)",
    "resource_after_number": "nach der Zahl fehlt der Rohstoff",
    "resources_expected": "hier fehlen die Rohstoffe",
    "two_resources": "es müssen zwei Rohstoffe sein, nicht {count}",
    "trade_form": "Handel schreibt man so: 'Handel <Farbe>: gebe …, bekomme …'",
    "maritime_form": "Seehandel schreibt man so: 'Seehandel 4H gegen 1E'",
    "maritime_too_many": "höchstens {max} Karten in einem Seehandel",
    "maritime_at_least_one": "im Seehandel ist jede Anzahl mindestens 1",
    "road_building_paths": "Straßenbau nennt einen oder zwei Wege, getrennt durch ','",
    "setup_form": f"eine Aufstellung schreibt man so: {_SETUP_FORM}",
    "hex_name_expected": "{word!r} ist kein Feld",
    "no_hex": "auf diesem Spielplan gibt es kein Feld {name}",
    "one_hex": "hier gehört genau ein Feld hin, nicht {count}",
    "ambiguous_hex": "{names} kann mehrere Felder meinen",
    "crossing_three_hexes": "eine Kreuzung wird durch drei Felder benannt, nicht durch {count}",
    "no_crossing": "{names} treffen an keiner Kreuzung zusammen",
    "ambiguous_crossing": "{names} passt auf {count} Kreuzungen",
    "path_two_hexes": "ein Weg wird durch zwei Felder benannt (oder durch zwei Kreuzungen mit "
    "'-'), nicht durch {count}",
    "no_path": "zwischen {names} gibt es keinen Weg",
    "ambiguous_path": "{names} passt auf {count} Wege",
    "path_by_crossings_form": "ein Weg über Kreuzungen wird 'Kreuzung - Kreuzung' geschrieben",
    "crossings_not_joined": "kein Weg verbindet diese beiden Kreuzungen",
    "ambiguous_path_by_crossings": "{count} Wege verbinden so benannte Kreuzungen",
    "second_robber": "nur ein Räuberbefehl je Mail; der erste gilt",
    "second_discard": "nur eine Abwurfliste je Mail; die erste gilt",
    "second_knight": "nur ein Ritter je Mail; der erste gilt",
    "second_monopoly": "nur ein Monopol je Mail; das erste gilt",
    "setup_placements_only": f"in der Aufstellung setzt du mit {_SETUP_FORM}",
    "rest_not_read": "nur die ersten {max} Zeilen einer Mail werden gelesen; der Rest dieser "
    "Mail blieb ungelesen",
}


#: In an English game, the forms to copy are shown with the English order words (the English
#: `message` keeps the German ones, which every game accepts).
TEXTS_EN_GAME: dict[str, str] = {
    "order_expected": "an order was expected (Settlement, City, Road, Buy card, Robber, Trade, "
    "Maritime, …), not {word!r}",
    "knight_timing": "say when the knight is played: 'Knight before roll' or 'Knight after roll'",
    "trade_form": "a trade is written 'Trade <colour>: give …, get …'",
    "maritime_form": "a bank trade is written 'Maritime 4L for 1O'",
    "setup_form": "a setup placement is written 'Settlement <crossing> Road <path>'",
    "setup_placements_only": "in the setup you place with 'Settlement <crossing> Road <path>'",
}


def render(key: str, lang: str, params: Mapping[str, object]) -> str:
    """The text of `key` in a game language: German for every language but "en"."""
    if lang == "en":
        return TEXTS_EN_GAME.get(key, TEXTS[key]).format(**params)
    return TEXTS_DE[key].format(**params)
