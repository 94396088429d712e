"""Issue 27: every mail that introduces a game says what game it is (`reports.identity`): the
kind, the players, the victory-point target and the special rules, in the game's language; the
islands of a Seafarers board have names (New World's letters, drawn on the map and the
picture); the setup prompt gives lines to copy at a coast; the welcome says what became of the
colour wishes."""

from __future__ import annotations

import pytest

from pbm.i18n import translator
from pbm.notation import Context
from pbm.notation.checks import check_setup_receipt
from pbm.notation.format import format_item
from pbm.notation.mail import parse_mail
from pbm.reports import notices
from pbm.reports.identity import game_kind, player_islands
from pbm.reports.identity_sea import island_hexes, island_name, island_names, scenario_name
from pbm.reports.text_map import draw
from pbm.reports.welcome import colour_wishes
from pbm.rules.orders import SetupPlacement
from pbm.rules.reasons import Reason
from pbm.rules.scenarios import PLAYER_COUNTS, SCENARIOS
from pbm.rules.setup import placement_rule
from pbm.rules.state import Settings, new_game

LANGS = ("de", "en")


def _kinds() -> list[tuple[str, Settings, str, str]]:
    """(label, settings, edition, layout) of every game kind pbm makes."""
    sizes = ((3, "small"), (4, "medium"), (5, "large"), (6, "huge"))
    out = [(f"base-{s}", Settings.for_players(p, s), "klassisch", "variable") for p, s in sizes]
    out += [("beginner", Settings.for_players(4), "klassisch", "beginner")]
    out += [("modern", Settings.for_players(4, bank="unlimited"), "modern", "variable")]
    out += [
        (f"kron-{s}", Settings.for_kronlande(4, s), "klassisch", "variable")
        for s in ("large", "huge")
    ]
    out += [(f"sea-{k}", Settings.for_scenario(k, 4), "klassisch", "variable") for k in SCENARIOS]
    out += [
        (
            "sea-no-pirate",
            Settings.for_scenario("vier-inseln", 3, pirate=False),
            "klassisch",
            "variable",
        )
    ]
    return out


KINDS = _kinds()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    ("label", "settings", "edition", "layout"), KINDS, ids=[k[0] for k in KINDS]
)
def test_every_kind_names_itself_and_its_target(
    label: str, settings: Settings, edition: str, layout: str, lang: str
) -> None:
    kind = game_kind(settings, lang, edition=edition, layout=layout)
    target = translator(lang).gettext("{kind} – {players} players, goal: {target} victory points")
    assert kind["target"] == settings.vp_target
    assert f"{settings.players} " in kind["title"] and f"{settings.vp_target} " in kind["title"]
    assert target.split("{kind}")[1].split("{players}")[0] in kind["title"]
    if settings.scenario is not None:
        assert scenario_name(settings.scenario, lang) in kind["title"]
        pirate = "Pirat" if lang == "de" else "pirate"
        # The pirate, on or off, is always said.
        assert any(pirate in line for line in kind["rules"])
    elif settings.kronlande:
        assert "Kronlande" in kind["title"] and len(kind["rules"]) == 3
    elif layout == "beginner":
        assert kind["rules"] and ("Einsteiger" if lang == "de" else "beginner") in kind["title"]
    elif edition == "modern":
        assert len(kind["rules"]) == 2  # the edition, the unlimited bank
    else:
        assert kind["rules"] == []


#: What the bank's line says, by language: (the unlimited bank, the limited one).
BANK_WORDS = {
    "de": ("Die Bank ist unbegrenzt", "Die Bank ist begrenzt (die klassische Bank): 24 Karten"),
    "de@modern": (
        "Die Bank ist unbegrenzt",
        "Die Bank ist begrenzt (die klassische Bank): 24 Karten",
    ),
    "en": ("The bank is unlimited", "The bank is limited (the classic bank): 24 cards"),
    "da": ("Banken er ubegrænset", "Banken er begrænset (den klassiske bank): 24 kort"),
}


@pytest.mark.parametrize("lang", sorted(BANK_WORDS))
@pytest.mark.parametrize(
    ("edition", "bank", "said"),
    [
        ("modern", "classic", "limited"),  # the QA's game: players expected it unlimited
        ("modern", "unlimited", "unlimited"),  # the edition's own bank, said all the same
        ("klassisch", "unlimited", "unlimited"),
        ("klassisch", "classic", None),  # the classic edition's own bank: nothing to say
    ],
)
def test_the_bank_is_said_where_it_is_not_the_classic_editions(
    lang: str, edition: str, bank: str, said: str | None
) -> None:
    """A bank other than the one a player of the edition expects is said in the rules of
    every mail that introduces the game (welcome, preview, round 1, help)."""
    settings = Settings.for_players(5, "large", bank=bank)  # 24 cards of each
    rules = game_kind(settings, lang, edition=edition)["rules"]
    unlimited, limited = BANK_WORDS[lang]
    assert any(unlimited in line for line in rules) == (said == "unlimited"), rules
    assert any(limited in line for line in rules) == (said == "limited"), rules
    if said == "limited":
        # What a short bank does, as the report's lines then show it.
        (line,) = [line for line in rules if limited in line]
        assert line.endswith(")."), line


def test_scenario_names_are_the_scenarios_own() -> None:
    for key, sc in SCENARIOS.items():
        assert scenario_name(key, "de") == sc.name_de
        assert scenario_name(key, "en") == sc.name_en


def test_every_island_of_every_board_has_its_name_in_both_languages() -> None:
    """The German catalogue names each island as the board data does (`Area.name_de`); the
    English one capitalises the data's English name."""
    for key, sc in SCENARIOS.items():
        if sc.boards is None:
            continue
        for players in PLAYER_COUNTS:
            names = set()
            for a, info in sc.boards[players].areas.items():
                assert island_name(key, a, info, "de") == info.name_de
                en = island_name(key, a, info, "en")
                assert en.lower() == info.name_en.lower() and en[0].isupper()
                names.add(info.name_de)
            # Names tell islands apart.
            assert len(names) == len(sc.boards[players].areas), (key, players)


@pytest.mark.parametrize("lang", LANGS)
def test_new_world_letters_its_islands_on_the_map(lang: str) -> None:
    st = new_game(Settings.for_scenario("neue-welt", 3), 5)
    names = island_names(st, lang)
    assert names and all(n.endswith(f" {chr(64 + a)}") for a, n in names.items())
    text = draw(st, lang)
    for a, labels in island_hexes(st.board).items():
        assert f"({chr(64 + a)})" in text
        assert labels
    assert "(A)" in text.splitlines()[-1]  # the legend says what the marks are
    kind = game_kind(st.settings, lang, state=st)
    assert [line.split(":")[0] for line in kind["islands"]] == list(names.values())


def test_named_boards_carry_no_island_marks() -> None:
    st = new_game(Settings.for_scenario("vier-inseln", 3), 1)
    assert "(A)" not in draw(st, "de")


@pytest.mark.parametrize("lang", LANGS)
def test_the_islands_are_listed_with_their_hexes(lang: str) -> None:
    st = new_game(Settings.for_scenario("wueste", 4), 1)
    kind = game_kind(st.settings, lang, state=st)
    hexes = island_hexes(st.board)
    names = island_names(st, lang)
    assert len(kind["islands"]) == len(hexes)
    for (a, labels), line in zip(hexes.items(), kind["islands"], strict=True):
        assert line.startswith(f"{names[a]}: {' '.join(labels)}")
    # The start island and the bonus islands are marked as such.
    start = translator(lang).gettext("start settlements here")
    bonus = translator(lang).gettext("island bonus")
    assert sum(start in line for line in kind["islands"]) == 1
    assert sum(bonus in line for line in kind["islands"]) == 4


def test_player_islands_of_four_islands_name_home_and_bonus() -> None:
    st = new_game(Settings.for_scenario("vier-inseln", 3), 1)
    assert st.sea is not None
    st.sea.home = [(1,), (2, 3), ()]
    st.sea.specials[1] = [(0, 1, 1)]  # seat 1 has had its first foreign bonus, on area 1
    rows = player_islands(st, "de")
    assert rows[0] == (
        "Heimat: Nordwestinsel; Bonus noch auf: Nordostinsel, Südwestinsel, Südostinsel "
        "(+1 auf der ersten, dann +2)"
    )
    assert rows[1] == "Heimat: Nordostinsel, Südwestinsel; Bonus noch auf: Südostinsel (je +2)"
    assert rows[2] == "-"


def test_player_islands_are_none_in_games_without_them() -> None:
    assert player_islands(new_game(Settings.for_players(4), 1), "de") == []
    assert player_islands(new_game(Settings.for_scenario("ozeanien", 3), 1), "de") == []


def test_colour_wishes_say_what_the_draw_did() -> None:
    assert colour_wishes([], [], [], "de") == []
    lines = colour_wishes(["rot", "gelb", "gruen"], ["rot"], ["gruen"], "en")
    assert lines == [
        "Your colour wishes: red, yellow, green.",
        "red went to a player the draw served before you.",
        "green is not played at this table.",
    ]
    two = colour_wishes(["rot", "gelb"], ["rot", "gelb"], [], "de")
    assert two[1] == "rot, gelb haben Spieler bekommen, die vor dir an der Reihe waren."


@pytest.mark.parametrize("key", ["vier-inseln", "ozeanien", "neue-ufer", "wueste", "ueberfahrt"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_setup_prompt_gives_a_coast_line_that_is_legal(key: str, lang: str) -> None:
    """The coast example of a scenario whose coasts take a ship is a placement the rules take,
    with a ship, and it reads back as itself."""
    st = new_game(Settings.for_scenario(key, 4), 1)
    data = notices.setup_prompt(lang, 1, "2026-01-03 12:00 UTC", st)
    assert data["sea"] and data["coast"] in ("must", "should")
    site = notices.coast_placement(st)
    assert site is not None and site.ship and placement_rule(st, site) is None
    ctx = Context(st.board, lang, st.colours, "setup")
    if data["coast_example"]:
        assert data["coast_example"] == format_item(site, ctx)
        parsed = parse_mail(data["coast_example"], ctx)
        assert parsed.lines[0].ok and parsed.lines[0].item == site


def test_the_setup_prompt_names_the_hexes_where_the_line_does_not() -> None:
    """A crossing named by its labels alone (its hexes' contents do not tell it) gets the hexes
    it touches under the example."""
    st = new_game(Settings.for_kronlande(4, "large"), 3)
    data = notices.setup_prompt("en", 1, "", st)
    assert "(" not in data["example"].split(" Road")[0]
    assert data["example_hexes"].count(",") == 2
    base = notices.setup_prompt("en", 1, "", new_game(Settings.for_players(4), 3))
    assert base["example_hexes"] == "" and not base["sea"] and base["coast"] == ""


@pytest.mark.parametrize("lang", LANGS)
def test_a_road_at_a_ship_coast_is_refused_with_the_lines_to_copy(lang: str) -> None:
    st = new_game(Settings.for_scenario("vier-inseln", 3), 1)
    site = notices.coast_placement(st)
    assert site is not None
    road = next(e for e in st.board.crossing_paths[site.crossing] if st.board.path_land[e])
    assert placement_rule(st, SetupPlacement(site.crossing, road)) == Reason.SHIP_REQUIRED
    ctx = Context(st.board, lang, st.colours, "setup")
    parsed = parse_mail(format_item(SetupPlacement(site.crossing, road), ctx), ctx)
    check_setup_receipt(parsed, st, 0, lang)
    error = parsed.lines[0].error
    assert error is not None and error.rule == Reason.SHIP_REQUIRED
    assert error.candidates
    for line in error.candidates:
        again = parse_mail(line, ctx)
        item = again.lines[0].item
        assert isinstance(item, SetupPlacement) and item.ship
        assert placement_rule(st, item) is None
