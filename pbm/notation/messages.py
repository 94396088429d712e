"""The texts of the notation's errors, by stable key: English msgids of the message catalogue.

Every `NotationError` / `AmbiguousError` is made with `make(key, **params)`: the English text
becomes its `message` (what `pbm orders check` and the logs show), and `localized(lang)` looks
the same text up in the game language's catalogue (`pbm.i18n`). Parameters are filled in with
`str.format` after the lookup; what the player wrote is passed as it was written and quoted with
`!r`. A receipt refusal (`IllegalOrderError`) has a rule instead of a key: its text is
`RECEIPT[rule]`, looked up the same way.

The forms to copy (`'Handel <Farbe>: gebe …, bekomme …'`) keep the German order words in the
msgid, which every game accepts; the English catalogue shows an English game the English words.
A new error needs a line here and its translations in every catalogue (docs/translating.md;
tests/test_catalogue.py fails until they are there).
"""

from __future__ import annotations

from collections.abc import Mapping

from pbm.i18n import N_, translator

TEXTS: dict[str, str] = {
    "rob_self": N_("you cannot rob yourself: name only the other colours you want to rob"),
    # lines.py
    "line_too_long": N_(
        "this line is {length} characters long; lines of more than {max} characters are not read"
    ),
    "empty_line": N_("empty line"),
    # Translators: {word} is the keyword folded, {shown} as the player wrote it.
    "value_expected": N_("a value was expected after '{word}'"),
    "colour_expected": N_("a colour was expected, not {shown!r}"),
    "date_expected": N_("a date was expected (2026-12-24 or 24.12.2026), not {shown!r}"),
    "timezone_expected": N_(
        "a time zone was expected, such as Europe/Berlin or America/New_York, not {shown!r}"
    ),
    "colour_not_playing": N_("no player has the colour {shown!r} in this game"),
    "ships_seafarers": N_("ships are built only in Seafarers scenarios"),
    "pirate_seafarers": N_("the pirate sails only in Seafarers scenarios"),
    "gold_seafarers": N_("gold is chosen only in Seafarers scenarios"),
    "gold_none_here": N_("this board has no gold river: a gold choice pays nothing here"),
    "gold_form": N_(
        "a gold preference is written 'Gold: Erz, Holz': the resources gold rivers pay you, in turn"
    ),
    "gold_either": N_(
        "a gold line names no choice ({shown!r}): its resources are paid in turn, one gold "
        "card each, starting again at its end; write {turn!r} for them in turn, or one alone, "
        "as {first!r} (without a gold line each card is the resource you hold fewest of)"
    ),
    "gold_one_line": N_(
        "one gold line counts for all your gold rivers and names none ({shown!r}): write {line!r}"
    ),
    "move_ship_form": N_(
        "a ship move is written 'Schiff versetzen <Feld> <Feld> nach <Feld> <Feld>': the side "
        "the ship stands on, then the side it goes to"
    ),
    # Translators: the order words every game reads; an English game shows its own.
    "order_expected": N_(
        "an order was expected (Siedlung, Stadt, Straße, Entwicklungskarte, "
        "Räuber, Handel, Seehandel, …), not {word!r}"
    ),
    # The same in an expansion's game, its own orders named (`ORDER_EXPECTED`).
    "order_expected_sea": N_(
        "an order was expected (Siedlung, Stadt, Straße, Schiff, Schiff versetzen, Gold, "
        "Räuber, Pirat, Handel, Seehandel, …), not {word!r}"
    ),
    "order_expected_kron": N_(
        "an order was expected (Siedlung, Stadt, Straße, Burg, Herstellen, Entwicklungskarte, "
        "Räuber, Handel, Seehandel, …), not {word!r}"
    ),
    "brackets_differ": N_("the name in brackets does not name the same place"),
    "robber_hex_expected": N_("the robber's hex was expected"),
    "knight_timing": N_("say when the knight is played: 'vor Wurf' or 'nach Wurf'"),
    "count_too_high": N_("{count} cards of one kind are more than anyone holds"),
    "too_many_cards": N_("{count} cards are more than anyone holds (at most {max} in a list)"),
    "number_too_long": N_("a number of {digits} digits is too long here (at most {max} digits)"),
    "token_expected": N_(
        "a confirmation code (letters, digits and '-', at most {max} characters) "
        "was expected, not {shown!r}"
    ),
    "resource_expected": N_("a resource ({letters} or its name) was expected, not {shown!r}"),
    "resource_after_number": N_("a resource was expected after the number"),
    "resources_expected": N_("resources were expected"),
    "two_resources": N_("two resources were expected, not {count}"),
    "trade_form": N_("a trade is written 'Handel <Farbe>: gebe …, bekomme …'"),
    "maritime_form": N_("a bank trade is written 'Seehandel 4H gegen 1E'"),
    "maritime_too_many": N_("at most {max} cards in a bank trade"),
    "maritime_at_least_one": N_("counts of a bank trade are at least 1"),
    "make_at_least_one": N_("make at least one good: 'Herstellen 1 Brot'"),
    "road_building_paths": N_("road building names one or two paths, separated by ','"),
    "setup_form": N_("a setup placement is written 'Siedlung <Kreuzung> Straße <Weg>'"),
    # The same in a Seafarers game, where a placement at the coast may take a ship
    # (`refusals.SETUP_FORM`).
    "setup_form_sea": N_(
        "a setup placement is written 'Siedlung <Kreuzung> Straße <Weg>', or with a ship at "
        "the coast 'Siedlung <Kreuzung> Schiff <Weg>'"
    ),
    "remark_unclear": N_(
        "the brackets {shown!r} may change the order: write alternatives with 'oder', and a "
        "remark after '#'"
    ),
    "marked_remark_unclear": N_(
        "the remark {shown!r} may change the order, so the line is not read past it: write "
        "the order as you mean it (alternatives with 'oder' on the line)"
    ),
    "dashes_remark_unclear": N_(
        "{shown!r} after the dashes may change the order: write it as part of the order "
        "(without the dashes), and a mere remark after '#'"
    ),
    "unknown_heading": N_(
        "the heading {shown!r} is not understood, and no build line under it is read: write "
        "'Ersatzbau:' above substitute builds, or leave the heading out"
    ),
    "setup_road_apart": N_(
        "the road {road} does not start at the settlement {settlement}: name a path next to it"
    ),
    "seven_only_robber": N_(
        "after 'bei einer 7:' only a robber order or a discard list can stand: write "
        "'Räuber 9H, raube blau' or 'Abwurf: W W'"
    ),
    "robber_no_number": N_("the robber goes onto a hex with a number, not {name}"),
    "card_after_the_roll": N_(
        "only a knight is played before the roll: a monopoly right after your roll, year of "
        "plenty and road building when you build; write the card without 'vor Wurf'"
    ),
    "victims_numbered": N_(
        "the colours to rob are tried in the order written: write them without numbers, the "
        "first choice first, as in 'Räuber 9H, raube gelb, blau' (or give every colour a "
        "number of its own: 'raube blau (2), gelb (1)')"
    ),
    "robber_at_sea": N_(
        "the robber never goes to sea: it goes onto a land hex with a number, as in 'Räuber 9H'"
    ),
    "robber_at_sea_pirate": N_(
        "the robber never goes to sea; at sea the pirate robs: write 'Pirat' and its sea hex, "
        "as in {example!r}"
    ),
    "pirate_on_sea": N_("the pirate goes onto a sea hex, not {name}"),
    "pirate_hex_expected": N_("the pirate's sea hex was expected, as in {example!r}"),
    "pirate_no_victims": N_(
        "the pirate robs every owner of a ship next to it: name only its sea hex, as in {example!r}"
    ),
    "trade_same_resource": N_("a resource cannot be on both sides of a trade"),
    "trade_one_partner": N_(
        "a trade has one partner: write a line for each ('Handel blau: gebe 2G, bekomme 1L')"
    ),
    "or_in_list": N_(
        "{word!r} makes this a choice, which a trade, a discard list or a card cannot be: "
        "write one choice"
    ),
    "or_and_mixed": N_(
        "a line with 'oder' and several builds is unclear: write each build on a line of its own"
    ),
    "option_one_build": N_("an alternative is one build: write '… oder …' between single builds"),
    "buy_how_many": N_(
        "how many cards? write 'Entwicklungskarte' for one, '2 Entwicklungskarten' for two"
    ),
    "road_form": N_(
        "a road is written 'Straße <Feld> <Feld>': the two hexes it lies between (or its two "
        "crossings with '-')"
    ),
    "vp_card": N_("a victory point card is never played: it counts by itself"),
    "buy_form": N_("a card purchase is written 'Entwicklungskarte' (two: '2 Entwicklungskarten')"),
    "buy_and_play": N_(
        "a card bought and a card played go on lines of their own: 'Entwicklungskarte' on one, "
        "the card played (such as 'Monopol Erz') on the next; a card bought this round is "
        "played in a later round"
    ),
    "card_by_code": N_(
        "a card is played by its name, as in 'Ritter vor Wurf: Räuber 9H' or 'Monopol Erz': "
        "the code in the report only hides it from the others"
    ),
    "trade_accept_form": N_(
        "a trade is accepted by writing it from your side, as in 'Handel blau: gebe 1E, "
        "bekomme 1W' (what you give, what you get): both sides' lines must match"
    ),
    "keyword_rest": N_(
        "{word!r} is understood, but not the rest of the line: write it as the help mail shows "
        "('Runde: 5', 'Ersatzbau:' on a line of its own)"
    ),
    "did_you_mean": N_("{word!r} is not an order; did you mean {suggestion!r}?"),
    "german_letters": N_(
        "this line reads only with the German resource letters (H L W G E); this game uses "
        "L B W G O: write {suggestion!r}"
    ),
    "english_letters": N_(
        "this line reads only with the English resource letters (L B W G O); this game uses "
        "H L W G E: write {suggestion!r}"
    ),
    "german_letters_elsewhere": N_(
        "this mail uses the German resource letters elsewhere, and with them this line reads "
        "differently (L is Lehm there): write {mine!r} or {theirs!r}"
    ),
    "english_letters_elsewhere": N_(
        "this mail uses the English resource letters elsewhere, and with them this line reads "
        "differently (L is Lumber there): write {mine!r} or {theirs!r}"
    ),
    "german_letters_kron": N_(
        "this line reads only with the German letters (H L W G E S F Wz St Br); this game "
        "uses L B W G O St F To Cl Br: write {suggestion!r}"
    ),
    "english_letters_kron": N_(
        "this line reads only with the English letters (L B W G O St F To Cl Br); this game "
        "uses H L W G E S F Wz St Br: write {suggestion!r}"
    ),
    # The letters of a language other than the game's, where Danish is one of the two.
    "german_letters_other": N_(
        "this line reads only with the German resource letters ({theirs}); this game uses "
        "{ours}: write {suggestion!r}"
    ),
    "english_letters_other": N_(
        "this line reads only with the English resource letters ({theirs}); this game uses "
        "{ours}: write {suggestion!r}"
    ),
    "danish_letters": N_(
        "this line reads only with the Danish resource letters ({theirs}); this game uses "
        "{ours}: write {suggestion!r}"
    ),
    "english_letters_other_elsewhere": N_(
        "this mail uses the English resource letters elsewhere, and with them this line reads "
        "differently: write {mine!r} or {theirs!r}"
    ),
    "danish_letters_elsewhere": N_(
        "this mail uses the Danish resource letters elsewhere, and with them this line reads "
        "differently: write {mine!r} or {theirs!r}"
    ),
    # The letters of a language added from data alone, which has no text naming it.
    "other_letters": N_(
        "this line reads only with another language's resource letters ({theirs}); this game "
        "uses {ours}: write {suggestion!r}"
    ),
    "other_letters_elsewhere": N_(
        "this mail uses another language's resource letters elsewhere, and with them this "
        "line reads differently: write {mine!r} or {theirs!r}"
    ),
    # Kronlande (issue 19).
    "kronlande_only": N_("{word!r} is an order of Kronlande games only"),
    "card_alone": N_(
        "this card is played with its name alone: write 'Bauhütte' or 'Hafenprivileg' on a "
        "line of its own"
    ),
    # Translators: {name} is the card's name in the game's language, {example} its letters
    # after a count ('1St').
    "letters_with_count": N_(
        "{shown!r} is not read as a card: write {name} with its count right before the "
        "letters ({example!r}) or by its name"
    ),
    "letters_by_name": N_("{shown!r} is not read as a card: write its name, {name!r}"),
    "make_form": N_("goods are made with 'Herstellen 2 Brot': how many, and which good"),
    "make_goods": N_(
        "only goods are made (Werkzeug, Stoff, Brot; or Wz, St, Br), each in its workshop"
    ),
    "feast_form": N_("a feast names one resource or good, as in 'Festmahl Brot'"),
    "monopoly_no_goods": N_("a monopoly names a resource (Stein and Fisch too), never a good"),
    "goods_not_with_bank": N_(
        "goods (Werkzeug, Stoff, Brot) are traded between players only, never with the bank"
    ),
    # Translators: {shown} as the player wrote it (`4 St`), {first} and {second} the cards it
    # may mean, each with the line to copy for it.
    "letters_ask_two": N_(
        "{shown!r} is not read as a card: for {first}, write {first_line!r}; for {second}, "
        "write {second_line!r}"
    ),
    "letters_ask_one": N_("{shown!r} is not read as a card: for {name}, write {line!r}"),
    # Translators: {good} is a good's name (`Stoff`), {resource} the resource whose name its
    # letters begin (`Stein`), {line} the line to copy with it.
    "good_at_bank_ask": N_(
        "{shown!r} is {good}, a good, which is traded between players only, never with the "
        "bank; for {resource}, write {line!r}"
    ),
    "good_in_monopoly_ask": N_(
        "{shown!r} is {good}, a good, and a monopoly names a resource; for {resource}, "
        "write {line!r}"
    ),
    "maritime_rate": N_(
        "the counts or the resource do not fit the rate {rate}: at that rate, write {line!r}"
    ),
    # names.py
    "hex_name_expected": N_("a hex name was expected, not {word!r}"),
    "no_hex": N_("there is no hex {name} on this board"),
    "one_hex": N_("one hex was expected, {count} were named"),
    "ambiguous_hex": N_("{names} can mean several hexes"),
    "ambiguous_hex_many": N_(
        "{names} can mean {count} hexes: name the hex by its label, as in C3 (the labels are "
        "on the map)"
    ),
    "crossing_three_hexes": N_("a crossing is named by three hexes, not {count}"),
    "crossing_pick": N_(
        "a crossing is named by three hexes, not {count}: the crossings below fit, copy one back"
    ),
    "no_hex_near": N_("there is no hex {name} on this board; did you mean {near}?"),
    "no_crossing": N_("there is no crossing where {names} meet"),
    "crossing_fog": N_(
        "{names} meet at a crossing that touches fog ({fog}): nothing is built there until a "
        "road or ship has discovered what the fog hides"
    ),
    "ambiguous_crossing": N_("{names} names {count} crossings"),
    "ambiguous_crossing_many": N_(
        "{names} names {count} crossings: name a crossing by the labels of its three hexes, "
        "as in C3 C4 D3"
    ),
    "path_two_hexes": N_("a path is named by two hexes (or two crossings with '-'), not {count}"),
    "no_path": N_("there is no path between {names}"),
    "path_fog": N_(
        "the path between {names} touches fog ({fog}): nothing is built there until a road or "
        "ship has discovered what the fog hides"
    ),
    "path_pick": N_(
        "a path is named by two hexes, not {count}: the paths below fit, copy one back"
    ),
    "ambiguous_path": N_("{names} names {count} paths"),
    "ambiguous_path_many": N_(
        "{names} names {count} paths: name a path by the labels of its two hexes, as in C3 C4"
    ),
    "path_by_crossings_form": N_("a path by crossings is written 'crossing - crossing'"),
    "crossings_not_joined": N_("those two crossings are not joined by a path"),
    "ambiguous_path_by_crossings": N_("{count} paths join crossings named so"),
    "ambiguous_path_by_crossings_many": N_(
        "{count} paths join crossings named so: name each crossing by the labels of its three hexes"
    ),
    # mail.py
    "second_robber": N_("only one robber order per mail; the first one counts"),
    "same_trade_again": N_("the same trade stands above: it is offered once"),
    "second_pirate": N_("only one pirate order per mail; the first one counts"),
    "second_discard": N_("only one discard list per mail; the first one counts"),
    "second_gold": N_("only one gold preference per mail; the first one counts"),
    "second_knight": N_("only one knight per mail; the first one counts"),
    "second_monopoly": N_("only one monopoly per mail; the first one counts"),
    "setup_placements_only": N_("in the setup, place with 'Siedlung <Kreuzung> Straße <Weg>'"),
    "setup_placements_only_sea": N_(
        "in the setup, place with 'Siedlung <Kreuzung> Straße <Weg>', or with a ship at the "
        "coast 'Siedlung <Kreuzung> Schiff <Weg>'"
    ),
    "setup_label_unclear": N_(
        "the words {shown!r} before the placement may change it, and are not understood: "
        "write the placement without them, and a second choice with 'oder' or on a line of its "
        "own"
    ),
    "setup_round_order": N_(
        "the setup takes placements only ('Siedlung <Kreuzung> Straße <Weg>'): send this line "
        "again with your orders for round 1, once the setup is over"
    ),
    "setup_round_order_sea": N_(
        "the setup takes placements only ('Siedlung <Kreuzung> Straße <Weg>', or with a ship "
        "at the coast 'Siedlung <Kreuzung> Schiff <Weg>'): send this line again with your "
        "orders for round 1, once the setup is over"
    ),
    "substitute_names_one": N_(
        "the heading {shown!r} names one build, but substitutes are built when any of the "
        "{count} builds, bank trades and cards above it fails ({lines}): write 'Ersatzbau:' "
        "if that is meant, or the other choice on the build's own line ('Stadt … oder "
        "Siedlung …')"
    ),
    "substitute_names_none": N_(
        "the heading {shown!r} names a build, but no build, bank trade or card above it is "
        "read, and substitutes are built only when one of those fails: write (or mend) that "
        "build's line above the heading, or leave the heading out to build the lines below it"
    ),
    "substitute_over_choices": N_(
        "the heading {shown!r} names one build, but the line above it offers choices "
        "({line!r}), and substitutes are built only when every choice fails: write "
        "'Ersatzbau:' if that is meant, or the build as a further choice on that line "
        "('… oder Siedlung …')"
    ),
    "under_unknown_heading": N_(
        "this build line stands under the heading {shown!r} (line {line}), which is not "
        "understood: write 'Ersatzbau:' above substitute builds, or leave the heading out"
    ),
    "or_else_without_build": N_(
        "'oder …' on a line of its own adds an option to the build line just above it, and "
        "there is none: write 'Siedlung … oder Siedlung …' on one line"
    ),
    "pass_with_orders": N_(
        "'Ich passe' is not taken, since this mail also holds orders: send 'Ich passe' alone "
        "to pass, or the orders alone"
    ),
    "ends_on_or": N_(
        "the line ends on {word!r} and no other option follows it: write the other option "
        "after {word!r} ('Stadt B2 B3 C3 oder Stadt C4 C5 D5'), or leave {word!r} out"
    ),
    "rest_not_read": N_(
        "only the first {max} lines of a mail are read; the rest of this mail was not read"
    ),
    "list_order_words": N_(
        "{shown!r} does not fit where it stands: the list is used in the order written, so "
        "write it in that order ('Abwurf: W, H, G')"
    ),
    "count_differs": N_(
        "{shown!r} does not fit the {named} places named: write as many as the number says, or "
        "leave the number out"
    ),
    "builds_list_form": N_("{shown!r} names one to {max} places, separated by ',' or 'und'"),
    "upgrade_form": N_(
        "{shown!r} is not read in an upgrade: write 'Stadt <Kreuzung>' (a settlement built and "
        "then upgraded is two lines, 'Siedlung <Kreuzung>' and 'Stadt <Kreuzung>')"
    ),
    "upgrade_to_what": N_(
        "say what it becomes: 'Stadt <Kreuzung>', 'Burg <Kreuzung>' or 'Residenz <Kreuzung>'"
    ),
    "road_toward_pick": N_(
        "{count} paths lead from the settlement {settlement} toward {hex}: copy one of them back"
    ),
    "road_toward_none": N_(
        "no path from the settlement {settlement} leads toward {hex}: copy one of the paths "
        "below back"
    ),
}

#: The texts of receipt refusals, by rule (the values of `pbm.rules.reasons.Reason`).
RECEIPT: dict[str, str] = {
    "occupied": N_("that place is taken"),
    "distance_rule": N_("a neighbouring crossing is built on (distance rule)"),
    "not_connected": N_("a road needs a road or building of yours at one of its ends"),
    "settlement_not_connected": N_("a settlement needs a road of yours leading to its crossing"),
    "settlement_not_reached": N_(
        "a settlement needs a road or ship of yours leading to its crossing"
    ),
    "not_land": N_("that is not next to land"),
    "no_pieces_left": N_("you have no pieces of that kind left"),
    "not_own_settlement": N_("there is no settlement of yours there"),
    "card_not_held": N_("you hold no such card from an earlier round"),
    "no_gifts": N_("each side of a trade gives at least one card (no gifts)"),
    "like_for_like": N_("a resource cannot be on both sides of a trade"),
    "trade_with_self": N_("you cannot trade with yourself"),
    "no_such_player": N_("no such player"),
    "same_resource": N_("a bank trade exchanges two different resources"),
    "below_harbour_rate": N_("your rate at the bank is higher than that"),
    "pirate_on_harbour": N_("the pirate blocks your harbour while he stands there"),
    "robber_not_on_number": N_("the robber goes onto a land hex with a number"),
    "road_not_at_settlement": N_("the road must start at the settlement"),
    "road_occupied": N_("that path is taken"),
    "road_not_on_land": N_("that path is not next to land"),
    "ship_not_at_settlement": N_("the ship must start at the settlement"),
    "ship_side_occupied": N_("that side is taken"),
    "robber_must_move": N_(
        "the robber stands on that hex now and must move: name another hex with a number"
    ),
    # Reasons the checks at receipt do not give today; a text each all the same, so no
    # refusal ever shows a rule's key (tests/test_rule_reasons.py).
    "cannot_afford": N_("you do not hold the cards for it"),
    "newcomer_protection": N_("a newcomer's building is next to that hex (newcomer protection)"),
    "no_robber_order": N_("there is no robber order"),
    "card_bought_this_round": N_("that card was bought this round"),
    "one_card_per_round": N_("only one development card is played per round"),
    "deck_empty": N_("no development cards are left"),
    "bank_empty": N_("the bank has none of that left"),
    "no_legal_road": N_("road building cannot place its first piece there"),
    "not_confirmed_by_partner": N_("the partner did not confirm the trade"),
    "terms_differ": N_("the partner offered other terms"),
    "cards_not_held": N_("you do not hold the cards for it"),
    # Ships (Seafarers).
    "not_sea": N_("a ship stands on a side next to the sea"),
    "no_ships": N_("ships are built only in Seafarers scenarios"),
    "ship_not_connected": N_(
        "a ship needs a building or ship of yours at one of its ends (a road does not count)"
    ),
    "ship_same_place": N_("the ship stands on that side already: name the side it goes to"),
    # The pirate may sail on before the player's build (another player's 7 or knight), but
    # nobody knows that when the mail comes in (docs/rules-decisions.md): said, with what to do.
    "ship_held_by_pirate": N_(
        "the pirate is next to that ship now: it stays until the pirate sails on (a 7 or a "
        "knight moves it); send the move again once it has"
    ),
    "unexplored": N_(
        "that crossing touches fog: a settlement stands there once a road or ship has discovered it"
    ),
    "next_to_pirate": N_(
        "the pirate is next to that side now (a 7 or a knight moves it); send the line again "
        "once it has sailed on"
    ),
    "no_pirate": N_("this game is played without the pirate"),
    "pirate_not_on_sea": N_("the pirate goes onto a sea hex"),
    "pirate_must_move": N_("the pirate stands on that hex now and must move: name another sea hex"),
    "not_own_ship": N_("there is no ship of yours there"),
    "ship_line_closed": N_("only the front ship of an open line may be moved"),
    "ship_built_this_round": N_("a ship built or moved this round stays where it is"),
    "one_ship_move_per_round": N_("only one ship may be moved per round"),
    "not_start_area": N_("start settlements stand on the scenario's start islands"),
    "ship_required": N_(
        "a start settlement on this coast takes a ship instead of a road, like this:"
    ),
    "other_start_island": N_(
        "both start settlements stand on one island: the second on the island of the first"
    ),
    "not_kronlande": N_("this order exists only in a Kronlande game"),
    "not_own_building": N_("a workshop goes on a settlement or city of yours"),
    "workshop_on_building": N_("that building has a workshop already: one workshop a building"),
    "workshop_kind_held": N_("you have a workshop of this kind already: one of each kind"),
    "no_workshop": N_("you need the workshop that makes this good"),
    "not_a_good": N_("name a good: tools, cloth or bread"),
    "not_own_city": N_("a castle is built on a city of yours"),
    "not_own_castle": N_("a residence is built on a castle of yours"),
    "robber_next_to_castle": N_("the robber never stands next to a castle or residence"),
    "goods_not_with_bank": N_("goods are traded between players only, never with the bank"),
}


def text(key: str, lang: str) -> str:
    """The text of `key` in a game language, its fields not yet filled in."""
    return translator(lang).gettext(TEXTS[key])


def render(key: str, lang: str, params: Mapping[str, object]) -> str:
    """The text of `key` in a game language, filled in."""
    return text(key, lang).format(**params)


#: Said after a refusal for a piece touching nothing of the player's when a later line of the
#: mail builds the road that would reach it: the mail's builds are made in the order written.
ROAD_BELOW = N_(
    "the road on line {line} is built after it (builds are made in the order written): "
    "write that road above this line"
)


#: The same when a later line builds the ship that would reach it (Seafarers).
SHIP_BELOW = N_(
    "the ship on line {line} is built after it (builds are made in the order written): "
    "write that ship above this line"
)


def road_below_text(line: int, lang: str, ship: bool = False) -> str:
    return translator(lang).gettext(SHIP_BELOW if ship else ROAD_BELOW).format(line=line)


#: A city ordered where the player's city stands already (the rule: no settlement of theirs).
CITY_THERE = N_("your city stands there already: a city is built on a settlement of yours")


#: A line of choices (`Siedlung … oder Siedlung …`) refused for one of them: which it is.
OPTION = N_("option {number} of {count} ({option!r}): {why}")


def option_text(number: int, count: int, option: str, why: str, lang: str) -> str:
    return (
        translator(lang).gettext(OPTION).format(number=number, count=count, option=option, why=why)
    )


def city_there_text(lang: str) -> str:
    return translator(lang).gettext(CITY_THERE)


BANK_RATE = N_("your rate for it is {rate}:1 now; write '{order}'")
#: The same when the pirate stands on the player's harbour (Seafarers).
BANK_RATE_PIRATE = N_(
    "the pirate blocks your harbour while he stands there: your rate for it is {rate}:1 now; "
    "write '{order}'"
)


#: A building on a harbour's hex but off its side (`checks._beside_a_harbour`).
OFF_THE_HARBOUR_SIDE = N_(
    "your building {building} touches the harbour at {harbour} but not its side toward {land}: "
    "only the two crossings of that side trade there"
)


def bank_rate_text(
    rate: int, order: str, pirate: bool = False, beside: tuple[str, ...] = (), *, lang: str
) -> str:
    _ = translator(lang).gettext
    text = _(BANK_RATE_PIRATE if pirate else BANK_RATE).format(rate=rate, order=order)
    if len(beside) == 3:
        building, harbour, land = beside
        text += (
            " ("
            + _(OFF_THE_HARBOUR_SIDE).format(building=building, harbour=harbour, land=land)
            + ")"
        )
    return text


def receipt_text(rule: str, lang: str) -> str:
    """Why a line is refused at receipt, in a game language; a rule without a text reads as
    its name."""
    if rule not in RECEIPT:
        return rule.replace("_", " ")
    return translator(lang).gettext(RECEIPT[rule])
