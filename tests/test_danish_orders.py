"""Danish as a game language (issue 29): the words a Danish game reads, the characters typed
without a Danish keyboard, and the words Danish shares with English (`by`, `to`)."""

from __future__ import annotations

import pytest

from pbm.notation import Context, parse_line, parse_mail
from pbm.notation.format import format_item
from pbm.notation.text import fold
from pbm.rules.layouts import generate_board
from pbm.rules.orders import BuyCard, MaritimeTrade, TradeOffer
from pbm.rules.resources import ERZ, GETREIDE, HOLZ, LEHM, WOLLE
from pbm.rules.state import DEFAULT_COLOURS

BOARD = generate_board("medium", 1, 1)


def _ctx(lang: str) -> Context:
    return Context(BOARD, lang, DEFAULT_COLOURS[:4], "round")


def test_fold_spells_out_danish_letters_and_keeps_german() -> None:
    assert fold("Røver på Ørken, blå ÆØÅ")[0] == "roever paa oerken, blaa aeoeaa"
    assert fold("Räuber Wüste, weiß grün")[0] == "raeuber wueste, weiss gruen"
    # The columns still point at the characters written.
    assert fold("blå")[1] == (0, 1, 2, 2)


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("Røver 9L, røv blå", "Røver E4 (9L), røv blå"),
        ("roever 9l, roev blaa", "Røver E4 (9L), røv blå"),
        ("Hus 4T 8T 3M", "Hus C2 D2 D3 (4T 8T 3M)"),
        ("bosaettelse 4t 8t 3m", "Hus C2 D2 D3 (4T 8T 3M)"),
        ("by 4t 8t 3m", "By C2 D2 D3 (4T 8T 3M)"),
        ("soehandel 4 uld for 1 korn", "Søhandel 4U for 1K"),
        ("Aflever: M T", "Aflever: 1M 1T"),
        ("smid: malm, trae", "Aflever: 1M 1T"),
        ("ridder foer slag: roever 9l, roev roed", "Ridder før slag: Røver E4 (9L), røv rød"),
        ("ridder efter mit slag: roever 9l", "Ridder efter slag: Røver E4 (9L)"),
        ("jeg melder pas", "Jeg melder pas"),
        ("vejbygning: 8t 3m, 10u 8t", None),
    ],
)
def test_danish_lines(line: str, canonical: str | None) -> None:
    ctx = _ctx("da")
    item = parse_line(line, ctx)
    if canonical is not None:
        assert format_item(item, ctx) == canonical


def test_danish_two_is_a_count_before_a_resource_only() -> None:
    da = _ctx("da")
    item = parse_line("handel blaa: giv to uld, faa en malm", da)
    assert item == TradeOffer(1, (0, 0, 2, 0, 0), (0, 0, 0, 0, 1))
    assert parse_line("to udviklingskort", da) is not None
    assert parse_line("Udviklingskort", da) == BuyCard()
    # English `to` stays English's: `Road … to …` is no count.
    en = _ctx("en")
    assert parse_line("Maritime 4W for 1O", en) == MaritimeTrade(WOLLE, 4, ERZ, 1)


def test_by_is_a_city_in_a_danish_game_only() -> None:
    assert format_item(parse_line("by 4t 8t 3m", _ctx("da")), _ctx("da")).startswith("By ")
    parsed = parse_mail("Password: x\nby the way, nice game\n", _ctx("en"))
    assert not any(r.ok and r.canonical.startswith("City") for r in parsed.lines)


def test_danish_letters_in_a_german_game_are_asked_back() -> None:
    parsed = parse_mail("Kennwort: x\nSeehandel 4U gegen 1K\n", _ctx("de"))
    line = parsed.lines[1]
    assert not line.ok and line.error is not None
    assert line.error.key == "danish_letters"
    assert "Seehandel 4W gegen 1G" in line.error.localized("de")
    assert "dänischen" in line.error.localized("de")


def test_german_and_english_letters_in_a_danish_game_are_asked_back() -> None:
    parsed = parse_mail("Adgangskode: x\nSøhandel 4W for 1E\nSøhandel 4W for 1O\n", _ctx("da"))
    german, english = parsed.lines[1], parsed.lines[2]
    assert german.error is not None and german.error.key == "german_letters_other"
    assert "Søhandel 4U for 1M" in german.error.localized("da")
    assert english.error is not None and english.error.key == "english_letters_other"


def test_german_and_english_games_ask_between_them_as_before() -> None:
    parsed = parse_mail("Kennwort: x\nSeehandel 4L gegen 1O\n", _ctx("de"))
    assert parsed.lines[1].error is not None
    assert parsed.lines[1].error.key == "english_letters"
    parsed = parse_mail("Password: x\nMaritime 4H for 1E\n", _ctx("en"))
    assert parsed.lines[1].error is not None
    assert parsed.lines[1].error.key == "german_letters"


def test_danish_letters_and_names() -> None:
    ctx = _ctx("da")
    assert parse_line("Søhandel 4T for 1L", ctx) == MaritimeTrade(HOLZ, 4, LEHM, 1)
    assert parse_line("soehandel 4 korn for 1 trae", ctx) == MaritimeTrade(GETREIDE, 4, HOLZ, 1)


def _sea_ctx() -> Context:
    from pbm.rules.scenarios import scenario_board

    return Context(scenario_board("neue-ufer", 4, 1, 2), "da", DEFAULT_COLOURS[:4], "round")


def _kron_ctx() -> Context:
    from pbm.rules.kron_board import generate_kron_board

    return Context(generate_kron_board("large", 3), "da", DEFAULT_COLOURS[:4], "round")


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        # The order form's own line, and as players write it.
        ("Flyt skib B7 C7 til C7 C8", "Flyt skib B7 C7 til C7 C8"),
        ("flyt skibet fra B7 C7 til C7 C8", "Flyt skib B7 C7 til C7 C8"),
        ("Vejbygning: Vej C4 D4, Skib B4 C4", "Vejbygning: Vej C4 D4 (9L 5M), Skib B4 C4"),
        ("vejbygning: skib B4 C4 og vej C4 D4", "Vejbygning: Skib B4 C4, Vej C4 D4 (9L 5M)"),
    ],
)
def test_danish_seafarers_lines(line: str, canonical: str) -> None:
    ctx = _sea_ctx()
    assert format_item(parse_line(line, ctx), ctx) == canonical


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("Væveri på mit hus 8M 3U 2L", "Væveri B2 B3 C3 (8M 3U 2L)"),
        ("byg et bageri ved byen 8M 3U 2L", "Bageri B2 B3 C3 (8M 3U 2L)"),
        ("Borg ved byen C4 C5 D5", "Borg C4 C5 D5 (11L 6T 3S)"),
        ("Opgrader byen C4 C5 D5 til borg", "Borg C4 C5 D5 (11L 6T 3S)"),
        ("Opgrader C4 C5 D5 til residens", "Residens C4 C5 D5 (11L 6T 3S)"),
        ("spil bygmesterhytte", "Bygmesterhytte"),
        # `kort` before a card played names it (the guide's own lines): nothing is bought.
        ("Spil kort Havneprivilegium", "Havneprivilegium"),
        ("Spil kortet Havneprivilegium", "Havneprivilegium"),
        ("Kort Bygmesterhytte", "Bygmesterhytte"),
    ],
)
def test_danish_kronlande_lines(line: str, canonical: str) -> None:
    ctx = _kron_ctx()
    assert format_item(parse_line(line, ctx), ctx) == canonical


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("byg en vej 8t 3m", "Vej D2 D3 (8T 3M)"),
        ("jeg vil gerne bygge et hus 8t 3m 4t", "Hus C2 D2 D3 (4T 8T 3M)"),
        ("spil monopol: uld", "Monopol Uld"),
        ("by på mit hus 8t 3m 4t", "By C2 D2 D3 (4T 8T 3M)"),
        ("vej mellem 8t og 3m", "Vej D2 D3 (8T 3M)"),
        ("vejbygning: 8t 3m og 10u 8t", "Vejbygning: D2 D3 (8T 3M), D2 E2 (8T 10U)"),
    ],
)
def test_danish_verbs_and_place_words(line: str, canonical: str) -> None:
    ctx = _ctx("da")
    assert format_item(parse_line(line, ctx), ctx) == canonical


def test_danish_pass_substitute_heading_and_bank_trade_with_til() -> None:
    ctx = _ctx("da")
    parsed = parse_mail(
        "Adgangskode: x\nVej 8t 3m\nHvis det ikke går:\nVej 10u 8t\nSøhandel 4 korn til 1 malm\n",
        ctx,
    )
    rows = [(r.ok, r.canonical) for r in parsed.lines]
    assert rows[2] == (True, "Erstatning:")
    assert parsed.lines[3].substitute
    assert rows[4] == (True, "Søhandel 4K for 1M")
    passed = parse_mail("Adgangskode: x\nJeg står over denne runde\n", ctx)
    assert passed.lines[1].canonical == "Jeg melder pas"


def test_danish_typos_are_asked_back_in_danish_words() -> None:
    parsed = parse_mail("Adgangskode: x\nveij 8t 3m\n", _ctx("da"))
    error = parsed.lines[1].error
    assert error is not None and error.key == "did_you_mean"
    assert "'Vej'" in error.localized("da")
    kron = parse_mail("Adgangskode: x\nsmedie 8M 3U 2L\n", _kron_ctx())
    assert kron.lines[1].error is not None and "'Smedje'" in kron.lines[1].error.localized("da")


def test_a_danish_message_to_someone_not_understood_keeps_the_rest_from_the_orders() -> None:
    """`Besked til …`, `Til spilleder …` start a message in Danish as `Nachricht an …` does in
    German: a recipient not understood is refused, and the lines after it are the message,
    never orders."""
    from pbm.notation.lines import starts_a_message

    for line in ("Besked til Xyz: kom nu", "Til spilleder: jeg er syg", "Anonym besked til alle"):
        assert starts_a_message(line), line
    mail = parse_mail("Besked til Xyz: kom nu\nHus 6E 4W 5H\n", _ctx("da"))
    assert mail.lines[0].error is not None
    assert all(r.item is None for r in mail.lines), mail.lines


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        # The rule book's sentence: move the robber, draw a card from a player.
        ("Flyt røveren til B2 og træk et kort fra hvid", "Røver B2 (11T), røv hvid"),
        ("Flyt røveren til B2", "Røver B2 (11T)"),
        ("Sæt røveren på B2, røv hvid", "Røver B2 (11T), røv hvid"),
        ("Røver B2, træk fra hvid", "Røver B2 (11T), røv hvid"),
        ("Røver B2, tag et kort fra hvid", "Røver B2 (11T), røv hvid"),
        ("Røver B2, røv gul, derefter hvid", "Røver B2 (11T), røv gul, hvid"),
        ("Ridder efter slaget: flyt røveren til B2, træk fra hvid", None),
        # Opfindelse: the card's name in the Danish editions players own today.
        ("Spil opfindelse: træ og malm", "Fund 1T 1M"),
        ("Opfindelseskort: træ malm", "Fund 1T 1M"),
        # The card's name in its definite form (QA, 2026-12: "'monopolkortet:' er ikke en
        # ordre").
        ("Spil monopolkortet: uld", "Monopol Uld"),
        ("Fundkortet: træ malm", "Fund 1T 1M"),
        ("Spil opfindelseskortet: træ og malm", "Fund 1T 1M"),
        ("Ridderkortet før slag: røver B2, røv hvid", "Ridder før slag: Røver B2 (11T), røv hvid"),
    ],
)
def test_danish_robber_and_card_phrasings(line: str, canonical: str | None) -> None:
    """Each was refused ("'Flyt' forstås, men ikke resten", "'træk' er ikke en farve",
    "'opfindelse:' er ikke en ordre")."""
    ctx = _ctx("da")
    said = format_item(parse_line(line, ctx), ctx)
    if canonical is not None:
        assert said == canonical
    else:
        assert said.startswith("Ridder efter slag: Røver B2")


def test_moving_a_ship_is_still_moving_a_ship() -> None:
    """`flyt` passed over before the robber is not passed over before a ship."""
    from pbm.rules.scenarios import scenario_board

    ctx = Context(scenario_board("neue-ufer", 4, 1, 2), "da", DEFAULT_COLOURS[:4], "round")
    assert format_item(parse_line("Flyt skib C5 C6 til C6 D5", ctx), ctx).startswith("Flyt skib")


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("Jeg sætter min bosættelse på B2 B3 C3 med vej B2 B3", "da"),
        ("Hus B2 B3 C3 og en vej til B2 B3", "da"),
        ("Bosættelse på B2 B3 C3, vej til B2 B3", "da"),
        ("Siedlung bei B2 B3 C3 und eine Straße B2 B3", "de"),
        ("Settlement at B2 B3 C3 with a road to B2 B3", "en"),
    ],
)
def test_a_setup_placement_in_a_sentence(line: str, lang: str) -> None:
    """ "'Jeg' er ikke et felt", "'en' er ikke et felt", "a hex name was expected, not 'til'"."""
    ctx = Context(generate_board("medium", 1), lang, DEFAULT_COLOURS[:4], "setup")
    plain = {"da": "Hus B2 B3 C3 vej B2 B3", "de": "Siedlung B2 B3 C3 Straße B2 B3"}
    expected = parse_line(plain.get(lang, "Settlement B2 B3 C3 road B2 B3"), ctx)
    assert parse_line(line, ctx) == expected


@pytest.mark.parametrize(
    ("body", "canonical"),
    [
        ("Spil kort Gilde: brød\n", ["Gilde Brød"]),
        ("Spil kort Havneprivilegium\n", ["Havneprivilegium"]),
    ],
)
def test_a_card_played_after_kort_buys_no_card(body: str, canonical: list[str]) -> None:
    """`Spil kort Gilde: brød` bought a development card and played the Gilde: one wool, one
    grain and one ore spent on a card nobody asked for."""
    ctx = _kron_ctx()
    parsed = parse_mail(body, ctx)
    assert parsed.ok
    # One item, the card played; no `Udviklingskort` before it.
    assert [format_item(r.item, ctx) for r in parsed.lines if r.item is not None] == canonical


def test_a_base_card_played_after_kort_buys_no_card() -> None:
    ctx = _ctx("da")
    assert format_item(parse_line("Spil kort Fund uld malm", ctx), ctx) == "Fund 1U 1M"
    assert format_item(parse_line("Spil kortet Monopol malm", ctx), ctx) == "Monopol Malm"
    # A card bought stays one.
    assert format_item(parse_line("Køb kort", ctx), ctx) == "Udviklingskort"


@pytest.mark.parametrize(
    ("line", "lang", "said"),
    [
        ("Spil sejrspoint", "da", "et sejrspointkort spilles aldrig: det tæller af sig selv"),
        ("Sejrspoint", "da", "et sejrspointkort spilles aldrig: det tæller af sig selv"),
        ("Sejrspointkort", "da", "et sejrspointkort spilles aldrig: det tæller af sig selv"),
        ("Spil et sejrspointkort", "da", "et sejrspointkort spilles aldrig"),
        ("SP", "da", "et sejrspointkort spilles aldrig"),
        ("Siegpunktkarte", "de", "eine Siegpunktkarte wird nicht gespielt: sie zählt von selbst"),
        ("Spiele Wahrzeichen", "de", "eine Siegpunktkarte wird nicht gespielt"),
        ("Victory point", "en", "a victory point card is never played: it counts by itself"),
        ("Play a victory point card", "en", "a victory point card is never played"),
    ],
)
def test_a_victory_point_card_played_is_refused_with_the_reason(
    line: str, lang: str, said: str
) -> None:
    """A Danish `Spil sejrspoint` was "'sejrspoint' er ikke en ordre (Hus, By, …)": the card
    is named in every language and answered as German's and English's are."""
    from pbm.notation import OrderError

    with pytest.raises(OrderError) as info:
        parse_line(line, _ctx(lang))
    assert info.value.key == "vp_card"
    assert said in info.value.localized(lang)
