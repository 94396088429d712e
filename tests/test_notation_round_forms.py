"""Round lines as players write them that a sweep of some 580 lines found refused: a pass
with `this turn`, a purchase counted after it, an upgrade named `Upgrade settlement …`, a
card's timing at the end of its line, what is stolen after the victim, a trade offered or
written as a sentence, a bank trade under the trade word, Danish plurals, and more words for
a settlement and a ship. Each in the languages that write it so."""

from __future__ import annotations

import pytest

from pbm.notation import Context, OrderError, format_item, parse_line, parse_mail
from pbm.rules.layouts import generate_board
from pbm.rules.orders import Ship
from pbm.rules.scenarios import scenario_board

BOARD = generate_board("medium", 1)
COLOURS = ("rot", "blau", "gelb", "weiss")


def _read(line: str, lang: str) -> str:
    ctx = Context(BOARD, lang, COLOURS, "round")
    return format_item(parse_line(line, ctx), ctx)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Nothing this turn, thanks", "Pass"),
        ("en", "Skip my turn", "Pass"),
        ("de", "Diesen Zug nichts", "Ich passe"),
        ("de", "Ich setze meinen Zug aus", "Ich passe"),
        ("da", "Ingenting i denne tur, tak", "Jeg melder pas"),
        # A purchase counted after it.
        ("de", "Karte kaufen x2", "Entwicklungskarte; Entwicklungskarte"),
        ("de", "Karte kaufen zweimal", "Entwicklungskarte; Entwicklungskarte"),
        ("en", "Buy a card twice", "Buy card; Buy card"),
        # The settlement named after the upgrade's verb.
        ("en", "Upgrade settlement at 4G 8W 3W", "City D5 D6 E5 (4G 8W 3W)"),
        ("de", "Ausbau Siedlung 4G 8W 3W", "Stadt D5 D6 E5 (4G 8W 3W)"),
        ("da", "Opgrader hus 4K 8U 3U", "By D5 D6 E5 (4K 8U 3U)"),
        (
            "en",
            "Road 6B 5B, then upgrade settlement 4G 8W 3W",
            "Road C3 C4 (6B 5B); City D5 D6 E5 (4G 8W 3W)",
        ),
        # A card's timing at the end of its line.
        ("de", "Monopol Getreide nach dem Würfeln", "Monopol Getreide"),
        ("en", "Monopoly: ore after roll", "Monopoly Ore"),
        ("da", "Monopol malm efter slaget", "Monopol Malm"),
        ("de", "Erfindung Erz Holz nach dem Wurf", "Erfindung 1E 1H"),
        # What is stolen, after the victim.
        ("de", "Räuber 11G, klaue Blau eine Karte", "Räuber D4 (11G), raube blau"),
        ("en", "Robber 11G, steal blue a card", "Robber D4 (11G), steal blue"),
        ("da", "Røver 11K, røv blå et kort", "Røver D4 (11K), røv blå"),
        # A trade offered, or written as a sentence.
        ("de", "Biete blau 2 Holz für 1 Erz", "Handel blau: gebe 2H, bekomme 1E"),
        ("de", "Ich tausche mit blau 2 Holz gegen 1 Erz", "Handel blau: gebe 2H, bekomme 1E"),
        ("en", "Offer blue 2 wood for 1 ore", "Trade blue: give 2L, get 1O"),
        ("en", "Offer to blue: 2 wood for 1 ore", "Trade blue: give 2L, get 1O"),
        ("en", "I trade with blue 2 wood for 1 ore", "Trade blue: give 2L, get 1O"),
        ("da", "Tilbyd blå 2 træ for 1 malm", "Handel blå: giv 2T, få 1M"),
        ("da", "Jeg bytter med blå 2 træ for 1 malm", "Handel blå: giv 2T, få 1M"),
        # The partner between the terms.
        ("de", "Ich tausche 2 Holz mit blau gegen 1 Erz", "Handel blau: gebe 2H, bekomme 1E"),
        ("en", "Trade 2 lumber with blue for 1 ore", "Trade blue: give 2L, get 1O"),
        ("da", "Byt 2 træ med blå for 1 malm", "Handel blå: giv 2T, få 1M"),
        # The trade word and a bank trade's terms, no partner: with the bank, in every
        # language as `Tausche 4 Holz gegen 1 Erz` always was.
        ("en", "Trade 4 wood for 1 ore", "Maritime 4L for 1O"),
        ("en", "I trade 4 wood for 1 ore", "Maritime 4L for 1O"),
        ("da", "Byt 4 træ for 1 malm", "Søhandel 4T for 1M"),
        ("de", "Tausche 4 Holz gegen 1 Erz", "Seehandel 4H gegen 1E"),
        # Danish plurals, with their count.
        ("da", "Veje 6L 5L og 5L 11K", "Vej C3 C4 (6L 5L); Vej C4 D4 (5L 11K)"),
        ("da", "To veje: 6L 5L og 5L 11K", "Vej C3 C4 (6L 5L); Vej C4 D4 (5L 11K)"),
        ("da", "To byer: 4K 8U 3U og 6L 5L 11K", "By D5 D6 E5 (4K 8U 3U); By C3 C4 D4 (6L 5L 11K)"),
        # Everyday resource words (`stone` is ore outside Kronlande, as German `Stein`).
        ("en", "Maritime 4 timber for 1 stone", "Maritime 4L for 1O"),
        ("en", "Trade blue: 2 stone for 1 wheat", "Trade blue: give 2O, get 1G"),
        ("de", "Seehandel 4 Steine gegen 1 Holz", "Seehandel 4E gegen 1H"),
        ("da", "Søhandel 4 sten for 1 tømmer", "Søhandel 4M for 1T"),
        # A hex by its number alone where one hex has it; a word that only says "hex".
        ("de", "Räuber auf die 12", "Räuber B3 (12E)"),
        ("en", "Robber on the 9 lumber hex", "Robber B4 (9L)"),
        ("de", "Räuber auf das Feld 9H", "Räuber B4 (9H)"),
        ("da", "Røver på felt 9T", "Røver B4 (9T)"),
        # A closing without a stop before it; a "please" anywhere.
        ("en", "Robber 9L, steal red thanks", "Robber B4 (9L), steal red"),
        ("da", "Røver 9T, røv rød tak", "Røver B4 (9T), røv rød"),
        ("de", "Straße 6L 5L vielen Dank", "Straße C3 C4 (6L 5L)"),
        ("de", "Räuber bitte auf 9H", "Räuber B4 (9H)"),
        ("de", "Monopol auf Wolle, bitte", "Monopol Wolle"),
        ("en", "Robber please on 9L, steal red", "Robber B4 (9L), steal red"),
        # More words for a settlement.
        ("en", "Village 4G 8W 3W", "Settlement D5 D6 E5 (4G 8W 3W)"),
        ("da", "Landsby 4K 8U 3U", "Hus D5 D6 E5 (4K 8U 3U)"),
    ],
)
def test_a_round_line_as_players_write_it(lang: str, line: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Robber moves to 9L, steal from red", "Robber B4 (9L), steal red"),
        ("en", "Robber goes to 9L, steal red", "Robber B4 (9L), steal red"),
        ("en", "The robber is moved to 9L, steal red", "Robber B4 (9L), steal red"),
        ("en", "Robber will go on 9L, steal red", "Robber B4 (9L), steal red"),
        ("de", "Räuber zieht nach 9H, raube rot", "Räuber B4 (9H), raube rot"),
        ("de", "Räuber geht auf 9H, raube rot", "Räuber B4 (9H), raube rot"),
        ("de", "Räuber kommt auf die 9H, raube rot", "Räuber B4 (9H), raube rot"),
        ("de", "Räuber wird auf 9H versetzt, raube rot", "Räuber B4 (9H), raube rot"),
        ("da", "Røveren flyttes til 9T, stjæl fra rød", "Røver B4 (9T), røv rød"),
        ("da", "Røveren går til 9T, røv rød", "Røver B4 (9T), røv rød"),
        ("da", "Roeveren skal paa 9T, roev roed", "Røver B4 (9T), røv rød"),
        ("da", "Røveren sættes på 9T, røv rød", "Røver B4 (9T), røv rød"),
    ],
)
def test_a_robber_line_with_its_verb(lang: str, line: str, canonical: str) -> None:
    """The robber's move said with a verb between the robber and its hex (`Robber moves to
    9L`, `Räuber zieht nach 9H`, `Røveren flyttes til 9T`) was refused ("a hex name was
    expected, not 'moves'")."""
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line", "key"),
    [
        # Two counts for one purchase: not guessed.
        ("de", "2 Entwicklungskarten x2", None),
        # Before the roll only a knight is played, wherever the timing stands.
        ("de", "Monopol Erz vor dem Wurf", "card_after_the_roll"),
        # The trade word without a partner is the bank's only at its own four for one: other
        # terms may be meant for the partner of the line above; an offer is to the players.
        ("de", "Handel: 2H gegen 1E", "trade_form"),
        ("en", "Trade 3W for 1O", "trade_form"),
        ("de", "Biete 4 Holz für 1 Erz", "trade_form"),
        ("en", "Offer 2 wood for 1 ore", "trade_form"),
        # Two steals are no priority list; `field` may be English for the grain terrain.
        ("en", "Robber 9L, steal a card from blue, one from red", None),
        ("en", "Robber on 12 field, steal blue", None),
        # A number that several hexes carry: asked which.
        ("de", "Räuber auf die 6", "ambiguous_hex"),
        # Give and get with no partner is no bank trade's form: asked for the partner.
        ("en", "Trade: give 2 wood, get 1 ore", "trade_form"),
    ],
)
def test_what_stays_refused(lang: str, line: str, key: str | None) -> None:
    with pytest.raises(OrderError) as info:
        _read(line, lang)
    if key is not None:
        assert info.value.key == key


@pytest.mark.parametrize(("lang", "word"), [("en", "Boat"), ("de", "Boot"), ("da", "Båd")])
def test_a_boat_is_a_ship(lang: str, word: str) -> None:
    board = scenario_board("neue-ufer", 4, 7)
    ctx = Context(board, lang, COLOURS, "round")
    sea = next(e for e in range(len(board.path_hexes)) if board.path_sea[e])
    label = board.path_label(sea)
    assert parse_line(f"{word} {label}", ctx) == Ship(sea)


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("en", "Old orders (ignore):\nRoad 6B 5B\n"),
        ("en", "Things I won't do:\nRoad 6B 5B\n"),
        ("en", "From the last report:\nRobber D4 (11G), steal blue\n"),
        ("de", "Gestrichen:\nStraße 6L 5L\n"),
        ("de", "Nicht mehr gültig:\nStraße 6L 5L\n"),
        ("de", "Aus dem letzten Bericht:\nRäuber D4 (11G), raube blau\n"),
        ("de", "Blau hat gebaut:\nStraße C4 D4 (5L 11G)\n"),
        ("da", "Aflyst:\nVej 6L 5L\n"),
        ("da", "Fra sidste rapport:\nRøver D4 (11K), røv blå\n"),
    ],
)
def test_orders_under_a_heading_that_withdraws_or_quotes_them_are_refused(
    lang: str, body: str
) -> None:
    parsed = parse_mail(body, Context(BOARD, lang, COLOURS, "round"))
    assert [r.error.key if r.error else None for r in parsed.lines] == [
        "unknown_heading",
        "under_unknown_heading",
    ]


@pytest.mark.parametrize(
    ("lang", "body"),
    [
        ("de", "Meine Züge:\nStraße 6L 5L\n"),
        ("en", "My orders:\nRoad 6B 5B\n"),
        ("de", "Falls das nicht klappt:\nStraße 6L 5L\n"),
        ("en", "Old orders (ignore):\nRoad 6B 5B\n\nNew orders:\nRoad 6B 5B\n"),
    ],
)
def test_headings_of_the_writers_orders_still_read(lang: str, body: str) -> None:
    parsed = parse_mail(body, Context(BOARD, lang, COLOURS, "round"))
    assert parsed.lines[-1].ok, parsed.lines[-1].error


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        # A condition on paying (or on the place being free) written first, as a label: said
        # by every build anyway, as when it is written after the order.
        ("de", "Wenn noch was übrig ist: Karte kaufen", "Entwicklungskarte"),
        ("de", "Falls es reicht: Stadt 4G 8W 3W", "Stadt D5 D6 E5 (4G 8W 3W)"),
        ("de", "Wenn es reicht, Stadt 4G 8W 3W", "Stadt D5 D6 E5 (4G 8W 3W)"),
        ("de", "Wenn noch frei: Siedlung 4G 8W 3W", "Siedlung D5 D6 E5 (4G 8W 3W)"),
        ("en", "If there's anything left: buy a card", "Buy card"),
        ("en", "Buy a card if there's anything left", "Buy card"),
        ("en", "If I can afford it: city 4G 8W 3W", "City D5 D6 E5 (4G 8W 3W)"),
        ("en", "If affordable: road 6B 5B", "Road C3 C4 (6B 5B)"),
        ("da", "Hvis der er noget tilbage: køb kort", "Udviklingskort"),
        ("da", "Hvis jeg har råd: by 4K 8U 3U", "By D5 D6 E5 (4K 8U 3U)"),
        ("da", "Hvis ledig: hus 4K 8U 3U", "Hus D5 D6 E5 (4K 8U 3U)"),
    ],
)
def test_a_condition_on_paying_written_first_is_read(lang: str, line: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # Any other condition first may change the order: refused, as before.
        ("de", "Wenn blau baut: Straße 6L 5L"),
        ("de", "Falls ich keine Karte bekomme: Straße 6L 5L"),
        ("de", "Falls Rot handelt, Straße 6L 5L"),
        ("en", "If red trades with me, road 6B 5B"),
        ("en", "If I roll a 7: road 6B 5B"),
        ("da", "Hvis rød bygger: vej 6L 5L"),
        # A condition on not paying, or on more than paying: written first, dropping it would
        # turn a fallback into a build of its own.
        ("en", "If I dont have enough: road 6B 5B"),
        ("en", "If there isnt enough: road 6B 5B"),
        ("en", "If there is none left: road 6B 5B"),
        ("en", "If there's nothing left: buy a card"),
        ("en", "If I have fewer ore: road 6B 5B"),
        ("en", "If possible next turn, city 4G 8W 3W"),
        ("en", "If I can win with it: city 4G 8W 3W"),
        ("de", "Falls es net reicht: Straße 6L 5L"),
        ("de", "Wenn's nimmer reicht: Straße 6L 5L"),
        ("de", "Wenn nix mehr übrig ist: Karte kaufen"),
        ("de", "Falls ich weniger Erz habe: Straße 6L 5L"),
        ("de", "Wenn ich gewinnen kann: Stadt 4G 8W 3W"),
        ("da", "Hvis jeg mangler råd: vej 6L 5L"),
        # A condition that points back at the order above: it may fail.
        ("de", "Falls das klappt: Straße 6L 5L"),
        ("de", "Wenn das geht, dann Straße 6L 5L"),
        ("en", "If that is possible: road 6B 5B"),
        ("en", "If I can do that: road 6B 5B"),
        ("da", "Hvis det er muligt: vej 6L 5L"),
        ("da", "Hvis det kan, vej 6L 5L"),
    ],
)
def test_any_other_condition_written_first_is_refused(lang: str, line: str) -> None:
    with pytest.raises(OrderError):
        _read(line, lang)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        # A three-for-one harbour a sea trade goes through, in brackets: the trade's own
        # counts say it (the rules check the harbour).
        ("de", "Seehandel 3 Wolle gegen 1 Lehm (3:1 Hafen)", "Seehandel 3W gegen 1L"),
        ("de", "Seehandel 3 Wolle gegen 1 Lehm (3:1 über meinen Hafen)", "Seehandel 3W gegen 1L"),
        ("en", "Maritime trade 3 wool for 1 brick (3:1 harbour)", "Maritime 3W for 1B"),
        ("en", "Maritime trade 3 wool for 1 brick (3:1 port)", "Maritime 3W for 1B"),
        ("da", "Søhandel 3 uld for 1 ler (3:1 havn)", "Søhandel 3U for 1L"),
        ("da", "Søhandel 3 uld mod 1 ler", "Søhandel 3U for 1L"),
    ],
)
def test_a_harbours_rate_in_brackets_is_passed_over(lang: str, line: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # A rate alone, beside a condition, or a two-for-one harbour's resource, which may not
        # be the one the trade gives: it may say what the terms do not.
        ("de", "Handel blau 1 Holz gegen 1 Erz (2:1)"),
        ("de", "Seehandel 4 Holz gegen 1 Lehm (2:1 Wollhafen)"),
        ("de", "Seehandel 4 Wolle gegen 1 Lehm (2:1 Wollhafen)"),
        ("en", "Maritime trade 3 wool for 1 brick (3:1 harbour brick wool ore)"),
        ("da", "Søhandel 2 uld mod 1 ler (2:1 uldhavn)"),
        ("de", "Seehandel 4 Holz gegen 1 Erz (3:1 Hafen, falls blau)"),
        ("en", "Maritime trade 4 lumber for 1 ore (3:1 harbour or 4:1)"),
    ],
)
def test_a_rate_that_may_say_more_is_refused(lang: str, line: str) -> None:
    with pytest.raises(OrderError):
        _read(line, lang)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        # The place taken, said between two builds, with or without a comma: `oder`.
        (
            "de",
            "Siedlung 4G 8W 3W oder wenn besetzt Siedlung 6L 5L 11G",
            "Siedlung D5 D6 E5 (4G 8W 3W) oder Siedlung C3 C4 D4 (6L 5L 11G)",
        ),
        (
            "de",
            "Siedlung 4G 8W 3W, falls besetzt Siedlung 6L 5L 11G",
            "Siedlung D5 D6 E5 (4G 8W 3W) oder Siedlung C3 C4 D4 (6L 5L 11G)",
        ),
        (
            "en",
            "Settlement 4G 8W 3W or if taken settlement 6B 5B 11G",
            "Settlement D5 D6 E5 (4G 8W 3W) or Settlement C3 C4 D4 (6B 5B 11G)",
        ),
        (
            "en",
            "Settlement 4G 8W 3W, or if it's taken settlement 6B 5B 11G",
            "Settlement D5 D6 E5 (4G 8W 3W) or Settlement C3 C4 D4 (6B 5B 11G)",
        ),
        (
            "da",
            "Hus 4K 8U 3U eller hvis optaget hus 6L 5L 11K",
            "Hus D5 D6 E5 (4K 8U 3U) eller Hus C3 C4 D4 (6L 5L 11K)",
        ),
    ],
)
def test_the_place_taken_between_two_builds_is_or(lang: str, line: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        # How many, then which: read when the list has as many cards.
        ("en", "Discard 4: 2 wool 2 grain", "Discard: 2W 2G"),
        ("de", "Abwurf 4: 2 Wolle, 2 Getreide", "Abwurf: 2W 2G"),
        ("de", "Abwerfen 2: Holz > Lehm", "Abwurf: 1H 1L"),
        ("da", "Aflever 2: 1 uld 1 korn", "Aflever: 1U 1K"),
    ],
)
def test_a_discards_count_before_its_list_is_read(lang: str, line: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


def test_a_discards_count_that_is_not_its_lists_is_refused() -> None:
    with pytest.raises(OrderError):
        _read("Discard 3: 2 wool 2 grain", "en")


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        # A hex named resource first, as `9 Holz` is: the resource's word, then its number.
        ("de", "Räuber Holz 9", "Räuber B4 (9H)"),
        ("de", "Räuber auf das Holz 9", "Räuber B4 (9H)"),
        ("de", "Räuber auf die Holz-9", "Räuber B4 (9H)"),
        ("en", "Robber on lumber 9", "Robber B4 (9L)"),
        ("en", "Robber on the timber 9", "Robber B4 (9L)"),
        ("da", "Røver på tømmer 9", "Røver B4 (9T)"),
        ("da", "Røver på 9 tømmer", "Røver B4 (9T)"),
    ],
)
def test_a_hex_named_resource_first_is_read(lang: str, line: str, canonical: str) -> None:
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # After the order too: a condition on not paying, or on more than paying, is kept
        # and the line refused (read as a plain build, it was built whatever happened).
        ("de", "Straße 6L 5L, wenn es net reicht"),
        ("en", "Road 6B 5B if I can win with it"),
        ("en", "Road 6B 5B if I dont have enough"),
        ("da", "Vej 6L 5L hvis jeg mangler råd"),
    ],
)
def test_a_condition_after_the_order_that_says_more_is_refused(lang: str, line: str) -> None:
    with pytest.raises(OrderError):
        _read(line, lang)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Year of plenty: take 2 ore", "Year of plenty 2O"),
        ("en", "Play year of plenty, take ore and wool", "Year of plenty 1O 1W"),
        ("de", "Erfindung: nehme 2 Erz", "Erfindung 2E"),
        ("de", "Erfindung spielen, ich nehme Holz und Lehm", "Erfindung 1H 1L"),
        ("da", "Fund, tag 2 malm", "Fund 2M"),
        ("da", "Spil fund og tag træ og ler", "Fund 1T 1L"),
    ],
)
def test_year_of_plenty_with_the_verb_take(lang: str, line: str, canonical: str) -> None:
    """The two resources taken said with the verb (`take 2 ore`, `nehme 2 Erz`, `tag 2
    malm`) were refused: "a resource was expected, not 'take'" (QA, 2026-12)."""
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Monopoly on all wool", "Monopoly Wool"),
        ("en", "Monopoly: on all the wool", "Monopoly Wool"),
        ("de", "Monopol auf alle Wolle", "Monopol Wolle"),
        ("da", "Monopol på al uld", "Monopol Uld"),
        ("da", "Monopol: alt korn", "Monopol Korn"),
    ],
)
def test_a_monopoly_on_all_of_a_resource(lang: str, line: str, canonical: str) -> None:
    """`Monopoly on all wool` was refused ("a resource was expected, not 'all wool'"): one word
    before the resource was passed over, not two (QA, 2026-12)."""
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("en", "Monopoly: everyone gives me their wool", "Monopoly Wool"),
        ("en", "Monopoly on all grain cards", "Monopoly Grain"),
        ("en", "Monopoly: wool from everyone", "Monopoly Wool"),
        ("en", "Monopoly ore from all players", "Monopoly Ore"),
        ("de", "Monopol: Wolle von allen", "Monopol Wolle"),
        ("de", "Monopol auf alle Wollkarten", "Monopol Wolle"),
        ("de", "Monopol: alle geben mir ihre Wolle", "Monopol Wolle"),
        ("de", "Monopol Getreidekarten von allen", "Monopol Getreide"),
        ("da", "Monopol på alle kornkort", "Monopol Korn"),
        ("da", "Monopol: alle giver mig deres uld", "Monopol Uld"),
        ("da", "Monopol: uld fra alle", "Monopol Uld"),
        ("da", "Monopol på trækortene", "Monopol Træ"),
    ],
)
def test_a_monopoly_said_as_players_say_it(lang: str, line: str, canonical: str) -> None:
    """`Monopol på alle kornkort`, `Monopoly: everyone gives me their wool`, `Monopol: Wolle
    von allen` were refused as naming no resource (QA, 2026-12): the cards' word (glued or
    not), who gives and "from everyone" are passed over."""
    assert _read(line, lang) == canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [("en", "Monopoly: everyone gives me"), ("de", "Monopol: Karten von allen")],
)
def test_a_monopoly_without_a_resource_is_refused_still(lang: str, line: str) -> None:
    with pytest.raises(OrderError):
        _read(line, lang)


#: Seed 4242's island for three: two hexes carry 8G (C2, F4), two 3L (C3, F3).
TWO_EIGHTS = generate_board("medium", 4242)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("da", "Røver 8K (C2), røv gul", "Røver C2 (8K), røv gul"),
        ("en", "Robber 8G (F4), steal yellow", "Robber F4 (8G), steal yellow"),
        ("de", "Räuber 8G (C2), raube gelb", "Räuber C2 (8G), raube gelb"),
        ("en", "Road 8G 3L (C2 C3)", "Road C2 C3"),
        ("da", "Vej 8K 3T (F3 F4)", "Vej F3 F4"),
        ("de", "Straße 8G 3H (F3 F4)", "Straße F3 F4"),
    ],
)
def test_a_label_in_brackets_decides_a_name_that_fits_several_places(
    lang: str, line: str, canonical: str
) -> None:
    """The echo turned round, the token first and the label that decides in brackets: `Røver
    8K (C2)` was refused as "8K kan betyde flere felter → C2 → F4", naming the hex the player
    had written (QA, 2026-12: the robber then went where the dice put it)."""
    ctx = Context(TWO_EIGHTS, lang, COLOURS, "round")
    assert format_item(parse_line(line, ctx), ctx) == canonical


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        # A label that is none of the places the name fits: refused as before.
        ("en", "Robber 8G (B3), steal yellow"),
        ("en", "Road 8G 3L (D2 D3)"),
    ],
)
def test_brackets_that_name_another_place_stay_refused(lang: str, line: str) -> None:
    ctx = Context(TWO_EIGHTS, lang, COLOURS, "round")
    with pytest.raises(OrderError):
        parse_line(line, ctx)


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_the_order_forms_heading_copied_with_it_is_the_round(lang: str) -> None:
    """The report's form comes under `Ordreformular til runde 10:`; copied into the mail with
    the form, the heading was refused in a Danish game ("'Ordreformular' er ikke en ordre")
    and read as the round in a German and an English one (QA, 2026-12)."""
    from pbm.i18n import translator
    from pbm.notation.headers import RoundGuard

    heading = translator(lang).gettext("Order form for round %(next_round)s:") % {"next_round": 10}
    ctx = Context(BOARD, lang, COLOURS, "round")
    assert parse_line(heading, ctx) == RoundGuard(10)


@pytest.mark.parametrize(
    ("lang", "line", "canonical"),
    [
        ("da", "Aflever: U U K", "Aflever: 2U 1K"),
        ("da", "Aflever: 2U K", "Aflever: 2U 1K"),
        ("en", "Discard: wool wool grain", "Discard: 2W 1G"),
        ("de", "Abwurf: W H W", "Abwurf: 1W 1H 1W"),
        ("en", "Year of plenty W G", "Year of plenty 1W 1G"),
        ("en", "Year of plenty 2W", "Year of plenty 2W"),
        ("de", "Erfindung E E", "Erfindung 2E"),
        ("da", "Opfindelse U K", "Fund 1U 1K"),
    ],
)
def test_cards_are_echoed_each_with_its_count(lang: str, line: str, canonical: str) -> None:
    """QA: `Aflever: 2U K` (a count beside one letter, a bare letter beside it) and `Year of
    plenty W W`: every card is echoed with its count, as in a trade (`gebe 2H 1L`)."""
    assert _read(line, lang) == canonical
