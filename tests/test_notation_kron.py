"""Kronlande's orders (issue 19): the workshops, `Herstellen 2 Brot` / `Make 2 bread`, Burg and
Residenz, the project cards, Stein, Fisch and the goods in trades, discards and cards, quarries
and fishing grounds as hexes; in German and English. Round trip `parse(format(x)) == x` over
every land crossing of Kronlande islands and over every resource and good, the canonical echo,
the letters unambiguous in each language (`Stein` never ore in a Kronlande game, `S` and `St`
nothing in a base game), errors with candidates and their German texts, `oder` and `Ersatzbau`,
and the checks at receipt that follow earlier lines of the mail."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from kron_fixtures import cards, free_crossing, kron_game, play, set_hand, settle_at

from pbm.notation import (
    AmbiguousError,
    Context,
    IllegalOrderError,
    NotationError,
    OrderError,
    format_item,
    parse_line,
    parse_mail,
)
from pbm.notation.checks import check_receipt
from pbm.notation.format import format_turn_orders
from pbm.notation.lines import Builds
from pbm.notation.names import hex_short_name, hex_text, is_kron
from pbm.rules.board import Board
from pbm.rules.kron import BAECKEREI, SCHMIEDE, WEBEREI
from pbm.rules.kron_board import generate_kron_board
from pbm.rules.layouts import generate_board
from pbm.rules.orders import (
    Alternatives,
    BuildAction,
    BuildersHut,
    BuildLine,
    BuyCard,
    Castle,
    City,
    DiscardPreference,
    Feast,
    HarbourPrivilege,
    Make,
    MaritimeTrade,
    Monopoly,
    Residence,
    Road,
    RobberOrder,
    Settlement,
    SubstituteBlock,
    TradeOffer,
    TurnOrders,
    Workshop,
    YearOfPlenty,
)
from pbm.rules.resources import (
    BROT,
    ERZ,
    FISCH,
    GETREIDE,
    HOLZ,
    KRON_WIDTH,
    STEIN,
    STOFF,
    WERKZEUG,
    WOLLE,
)
from pbm.rules.state import DEFAULT_COLOURS

#: (size, seed, players).
BOARDS = [("large", 1, 4), ("huge", 2, 6), ("large", 5, 3)]
LANGS = ["de", "en"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
GOODS = (WERKZEUG, STOFF, BROT)


@cache
def _board(size: str, seed: int) -> Board:
    return generate_kron_board(size, seed)


@cache
def _ctx(index: int, lang: str, phase: str = "round") -> Context:
    size, seed, players = BOARDS[index]
    return Context(_board(size, seed), lang, DEFAULT_COLOURS[:players], phase)


def _base_ctx(lang: str = "de") -> Context:
    return Context(generate_board("large", 1), lang, DEFAULT_COLOURS[:4], "round")


def _roundtrip(item: object, ctx: Context) -> str:
    text = format_item(item, ctx)  # type: ignore[arg-type]
    back = parse_line(text, ctx)
    assert back == item, f"{text!r} read back as {back!r}"
    assert format_item(back, ctx) == text
    return text


def _error(text: str, ctx: Context) -> OrderError:
    with pytest.raises(OrderError) as info:
        parse_line(text, ctx)
    return info.value


def _land_crossings(b: Board) -> list[int]:
    return [c for c in range(len(b.crossing_hexes)) if b.crossing_land[c]]


def _a_crossing(ctx: Context) -> int:
    """A crossing at the first quarry, for the examples."""
    return ctx.board.hex_crossings[ctx.board.quarries[0]][0]


# -- every place, every resource and good -------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_every_land_crossing_round_trips_as_workshop_castle_and_residence(
    index: int, lang: str
) -> None:
    ctx = _ctx(index, lang)
    assert ctx.kron and is_kron(ctx.board)
    for c in _land_crossings(ctx.board):
        for kind in (SCHMIEDE, WEBEREI, BAECKEREI):
            _roundtrip(Workshop(kind, c), ctx)
        _roundtrip(Castle(c), ctx)
        _roundtrip(Residence(c), ctx)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("index", range(len(BOARDS)))
def test_quarries_and_fishing_grounds_are_named_by_token(index: int, lang: str) -> None:
    ctx = _ctx(index, lang)
    b = ctx.board
    stone = "S" if lang == "de" else "St"
    for h in b.quarries:
        assert hex_short_name(b, h, lang) == f"{b.hexes[h].number}{stone}"
        # The robber goes onto a quarry; it is named like any land hex.
        _roundtrip(RobberOrder(h, (1,)), ctx)
    for h in b.fishing_grounds:
        assert hex_short_name(b, h, lang) == f"{b.hexes[h].number}F"
        assert hex_text(b, h, lang).startswith(b.hexes[h].label)
    # A crossing on a fishing ground is echoed with its token, and `Meer` still names it.
    h = b.fishing_grounds[0]
    c = next(c for c in b.hex_crossings[h] if b.crossing_land[c])
    text = _roundtrip(Settlement(c), ctx)
    assert f"{b.hexes[h].number}F" in text


@FAST
@given(
    st.integers(0, len(BOARDS) - 1),
    st.sampled_from(LANGS),
    st.integers(0, 6),
    st.integers(1, 12),
    st.integers(0, 6),
    st.integers(1, 3),
)
def test_bank_trades_with_stone_and_fish(
    index: int, lang: str, give: int, n: int, get: int, m: int
) -> None:
    assume(n >= m)  # a bank trade written the other way round reads as its reverse
    _roundtrip(MaritimeTrade(give, n, get, m), _ctx(index, lang))


@FAST
@given(st.integers(0, len(BOARDS) - 1), st.sampled_from(LANGS), st.integers(0, 6))
def test_cards_name_stone_and_fish(index: int, lang: str, r: int) -> None:
    ctx = _ctx(index, lang)
    _roundtrip(Monopoly(r), ctx)
    _roundtrip(YearOfPlenty(r, (r + 1) % 7), ctx)
    _roundtrip(Feast(r), ctx)


@pytest.mark.parametrize("lang", LANGS)
def test_make_and_feast_every_good(lang: str) -> None:
    ctx = _ctx(0, lang)
    for good in GOODS:
        for n in (1, 2, 12):
            _roundtrip(Make(good, n), ctx)
        _roundtrip(Feast(good), ctx)
    _roundtrip(BuildersHut(), ctx)
    _roundtrip(HarbourPrivilege(), ctx)


counts10 = st.tuples(*[st.integers(0, 2)] * KRON_WIDTH).filter(any)


@FAST
@given(st.integers(0, len(BOARDS) - 1), st.sampled_from(LANGS), counts10, counts10)
def test_trades_and_discards_with_goods(
    index: int, lang: str, give: tuple[int, ...], get: tuple[int, ...]
) -> None:
    ctx = _ctx(index, lang)
    if not any(a and b for a, b in zip(give, get, strict=True)):
        _roundtrip(TradeOffer(1, give, get), ctx)
    cards = tuple(r for r, k in enumerate(give) for _ in range(k))
    _roundtrip(DiscardPreference(cards), ctx)


def _kron_actions(ctx: Context) -> st.SearchStrategy[BuildAction]:
    crossings = st.sampled_from(_land_crossings(ctx.board))
    return st.one_of(
        st.builds(Workshop, st.integers(0, 2), crossings),
        st.builds(Make, st.sampled_from(GOODS), st.integers(1, 5)),
        st.builds(Castle, crossings),
        st.builds(Residence, crossings),
        st.just(BuildersHut()),
        st.just(HarbourPrivilege()),
        st.builds(Feast, st.integers(0, 9)),
        st.builds(City, crossings),
        st.builds(MaritimeTrade, st.integers(0, 6), st.integers(2, 4), st.integers(0, 6)),
    )


@FAST
@given(st.data())
def test_turn_orders_with_kronlande_lines_round_trip_through_a_mail(data: st.DataObject) -> None:
    ctx = _ctx(data.draw(st.integers(0, len(BOARDS) - 1)), data.draw(st.sampled_from(LANGS)))
    actions = _kron_actions(ctx)
    lines: st.SearchStrategy[BuildLine] = st.one_of(
        actions, st.lists(actions, min_size=2, max_size=3).map(lambda xs: Alternatives(tuple(xs)))
    )
    orders = TurnOrders(
        discard=DiscardPreference((WERKZEUG, STEIN, BROT, FISCH)),
        monopoly=Monopoly(data.draw(st.integers(0, 6))),
        trades=(TradeOffer(1, (0,) * 7 + (1, 0, 0), (0,) * 5 + (2, 0, 0, 0, 0)),),
        builds=tuple(data.draw(st.lists(lines, max_size=4))),
        substitutes=SubstituteBlock(tuple(data.draw(st.lists(lines, max_size=2)))),
    )
    body = "\n".join(format_turn_orders(orders, ctx))
    parsed = parse_mail(body, ctx)
    assert parsed.ok, [str(r.error) for r in parsed.lines if r.error]
    assert parsed.turn_orders() == orders


# -- how players write them --------------------------------------------------------------------

#: (line, lang) → what it means; `{c}` is a crossing's labels.
WRITTEN: list[tuple[str, str, object]] = [
    ("Schmiede {c}", "de", Workshop(SCHMIEDE, -1)),
    ("Baue eine Schmiede auf meiner Stadt {c}", "de", Workshop(SCHMIEDE, -1)),
    ("Weberei an {c}", "de", Workshop(WEBEREI, -1)),
    ("Bäckerei {c}", "de", Workshop(BAECKEREI, -1)),
    ("Baeckerei {c}", "de", Workshop(BAECKEREI, -1)),
    ("Smithy at {c}", "en", Workshop(SCHMIEDE, -1)),
    ("Build a weaving mill on my settlement {c}", "en", Workshop(WEBEREI, -1)),
    ("Bakery {c}", "en", Workshop(BAECKEREI, -1)),
    ("Herstellen 2 Brot", "de", Make(BROT, 2)),
    ("Herstellen: 2Br", "de", Make(BROT, 2)),
    ("Herstellen zwei Brot", "de", Make(BROT, 2)),
    ("Herstellen Werkzeug", "de", Make(WERKZEUG, 1)),
    ("Herstellen 1St", "de", Make(STOFF, 1)),
    ("Herstellen 3Wz", "de", Make(WERKZEUG, 3)),
    ("Make 2 bread", "en", Make(BROT, 2)),
    ("Make bread", "en", Make(BROT, 1)),
    ("Make 3To", "en", Make(WERKZEUG, 3)),
    ("Make 1Cl", "en", Make(STOFF, 1)),
    ("Make 2 cloth", "de", Make(STOFF, 2)),  # full names in either language
    ("Burg {c}", "de", Castle(-1)),
    ("Burg bei Stadt {c}", "de", Castle(-1)),
    ("Castle at the city {c}", "en", Castle(-1)),
    ("Residenz bei Burg {c}", "de", Residence(-1)),
    ("Residence {c}", "en", Residence(-1)),
    # The upgrade in words: the building it becomes after `zur`/`to`/`til`/`->`.
    ("Stadt {c} zur Burg ausbauen", "de", Castle(-1)),
    ("Baue Stadt {c} zur Burg aus", "de", Castle(-1)),
    ("Burg {c} zur Residenz ausbauen", "de", Residence(-1)),
    ("Stadt {c} -> Burg", "de", Castle(-1)),
    ("Upgrade {c} to a castle", "en", Castle(-1)),
    ("Upgrade my city {c} to a castle", "en", Castle(-1)),
    ("Upgrade my castle {c} to a residence", "en", Residence(-1)),
    ("Bauhütte", "de", BuildersHut()),
    ("Bauhuette", "de", BuildersHut()),
    ("Spiele Bauhütte aus", "de", BuildersHut()),
    ("Builders' hut", "en", BuildersHut()),
    ("Play builder's hut card", "en", BuildersHut()),
    ("Hafenprivileg", "de", HarbourPrivilege()),
    ("Harbour privilege", "en", HarbourPrivilege()),
    ("Harbor privilege", "en", HarbourPrivilege()),
    ("Festmahl Brot", "de", Feast(BROT)),
    ("Festmahl: Stein", "de", Feast(STEIN)),
    ("Festmahl F", "de", Feast(FISCH)),
    ("Feast bread", "en", Feast(BROT)),
    ("Feast on fish", "en", Feast(FISCH)),
    ("Feast tools", "en", Feast(WERKZEUG)),
    # A count of one and a separator say nothing more: one card is what a feast names.
    ("Festmahl 1 Brot", "de", Feast(BROT)),
    ("Festmahl: eine Brot", "de", Feast(BROT)),
    ("Festmahl 1Br", "de", Feast(BROT)),
    ("Festmahl - Stein", "de", Feast(STEIN)),
    ("Festmahl, 1 Fisch", "de", Feast(FISCH)),
    ("Feast 1 bread", "en", Feast(BROT)),
    ("Feast: one bread", "en", Feast(BROT)),
    ("Feast 1To", "en", Feast(WERKZEUG)),
    ("Feast on 1 fish", "en", Feast(FISCH)),
    ("Monopol, 1 Stein", "de", Monopoly(STEIN)),
    ("Monopol Stein", "de", Monopoly(STEIN)),
    ("Monopoly stone", "en", Monopoly(STEIN)),
    ("Erfindung S F", "de", YearOfPlenty(STEIN, FISCH)),
    ("Year of plenty 1St F", "en", YearOfPlenty(STEIN, FISCH)),
    ("Year of plenty stone F", "en", YearOfPlenty(STEIN, FISCH)),
    ("Seehandel 4S gegen 1E", "de", MaritimeTrade(STEIN, 4, ERZ, 1)),
    ("Maritime 4St for 1O", "en", MaritimeTrade(STEIN, 4, ERZ, 1)),
    ("Seehandel 4 Fisch gegen 1 Holz", "de", MaritimeTrade(FISCH, 4, HOLZ, 1)),
    ("Abwurf: 1Wz 1St 1Br S F", "de", DiscardPreference((WERKZEUG, STOFF, BROT, STEIN, FISCH))),
    ("Discard: 1To 1Cl 1Br 1St F", "en", DiscardPreference((WERKZEUG, STOFF, BROT, STEIN, FISCH))),
    ("Abwurf: Werkzeug Stoff Brot", "de", DiscardPreference((WERKZEUG, STOFF, BROT))),
    ("Discard: W W Tools G", "en", DiscardPreference((WOLLE, WOLLE, WERKZEUG, GETREIDE))),
    (
        "Handel blau: gebe 1Wz 1St, bekomme 2S",
        "de",
        TradeOffer(1, (0,) * 7 + (1, 1, 0), (0,) * 5 + (2, 0, 0, 0, 0)),
    ),
    (
        "Trade blue: give 1 tools, get 2 stone",
        "en",
        TradeOffer(1, (0,) * 7 + (1, 0, 0), (0,) * 5 + (2, 0, 0, 0, 0)),
    ),
]


@pytest.mark.parametrize(("line", "lang", "meant"), WRITTEN)
def test_lines_as_players_write_them(line: str, lang: str, meant: object) -> None:
    ctx = _ctx(0, lang)
    c = _a_crossing(ctx)
    text = line.format(c=ctx.board.crossing_label(c))
    if isinstance(meant, Workshop):
        meant = Workshop(meant.kind, c)
    elif isinstance(meant, Castle):
        meant = Castle(c)
    elif isinstance(meant, Residence):
        meant = Residence(c)
    item = parse_line(text, ctx)
    assert item == meant, text
    _roundtrip(item, ctx)


def test_the_canonical_echo_in_both_languages() -> None:
    de, en = _ctx(0, "de"), _ctx(0, "en")
    c = _a_crossing(de)
    labels = de.board.crossing_label(c)
    assert format_item(Workshop(SCHMIEDE, c), de).startswith(f"Schmiede {labels}")
    assert format_item(Workshop(WEBEREI, c), en).startswith(f"Weaving mill {labels}")
    assert format_item(Make(BROT, 2), de) == "Herstellen 2 Brot"
    assert format_item(Make(WERKZEUG, 1), en) == "Make 1 Tools"
    assert format_item(Castle(c), de).startswith(f"Burg {labels}")
    assert format_item(Residence(c), en).startswith(f"Residence {labels}")
    assert format_item(BuildersHut(), de) == "Bauhütte"
    assert format_item(HarbourPrivilege(), en) == "Harbour privilege"
    assert format_item(Feast(STOFF), de) == "Festmahl Stoff"
    assert format_item(MaritimeTrade(STEIN, 4, WOLLE, 1), de) == "Seehandel 4S gegen 1W"
    assert format_item(MaritimeTrade(STEIN, 4, WOLLE, 1), en) == "Maritime 4St for 1W"
    offer = TradeOffer(1, (0,) * 7 + (1, 1, 1), (0,) * 6 + (3, 0, 0, 0))
    assert format_item(offer, de) == "Handel blau: gebe 1Wz 1St 1Br, bekomme 3F"
    assert format_item(offer, en) == "Trade blue: give 1To 1Cl 1Br, get 3F"


# -- one meaning per form ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_letters_are_unambiguous_in_each_language(lang: str) -> None:
    from pbm.notation.vocab import KRON_WORDS, letters

    lows = [x.lower() for x in letters(lang, kron=True)]
    assert len(set(lows)) == len(lows) == KRON_WIDTH
    # No letter is a word for another card.
    assert all(KRON_WORDS.get(x, i) == i for i, x in enumerate(lows))
    ctx = _ctx(0, lang)
    discard = "Abwurf" if lang == "de" else "Discard"
    for r, x in enumerate(lows):
        item = parse_line(f"{discard}: 1{x} 1{x.upper()}", ctx)
        assert item == DiscardPreference((r, r))
        # A letter of two is a card only right after its count: alone it may be a word.
        if len(x) == 2:
            for alone in (x, x.title(), f"{x.title()}.", f"2{x.title()}."):
                error = _error(f"{discard}: {alone} W", ctx)
                assert error.key == "letters_with_count", alone
            # With a blank after the count it is asked back, with the line to copy.
            error = _error(f"{discard}: 2 {x.title()} W", ctx)
            assert error.key in ("letters_ask_one", "letters_ask_two"), x
            assert f"{discard}: " in error.message


def test_stein_is_stone_in_kronlande_and_ore_in_a_base_game() -> None:
    for lang in LANGS:
        assert parse_line("Monopol Stein", _ctx(0, lang)) == Monopoly(STEIN)
        assert parse_line("Monopol Stein", _base_ctx(lang)) == Monopoly(ERZ)
    assert parse_line("Seehandel 4 Stein gegen 1 Holz", _base_ctx()) == MaritimeTrade(ERZ, 4, 0)
    assert parse_line("Seehandel 4 Stein gegen 1 Holz", _ctx(0, "de")) == MaritimeTrade(
        STEIN, 4, HOLZ
    )


def test_stone_and_goods_letters_mean_nothing_in_a_base_game() -> None:
    for line in ("Abwurf: S", "Abwurf: St", "Abwurf: F", "Abwurf: Wz", "Abwurf: Br"):
        assert _error(line, _base_ctx()).key == "resource_expected", line
    for line in ("Discard: St", "Discard: To", "Discard: Cl"):
        assert _error(line, _base_ctx("en")).key == "resource_expected", line


def test_st_is_stoff_in_german_and_stone_in_english() -> None:
    assert parse_line("Abwurf: 1St", _ctx(0, "de")) == DiscardPreference((STOFF,))
    assert parse_line("Discard: 1St", _ctx(0, "en")) == DiscardPreference((STEIN,))
    # `S` before a path is still the road, also in Kronlande; after `Abwurf:` it is Stein.
    ctx = _ctx(0, "de")
    b = ctx.board
    e = next(e for e in range(len(b.path_hexes)) if b.path_land[e])
    assert parse_line(f"S {b.path_label(e)}", ctx) == Road(e)
    assert parse_line("Abwurf: S S", ctx) == DiscardPreference((STEIN, STEIN))


def test_the_other_languages_letters_are_asked_back_with_the_line_to_copy() -> None:
    parsed = parse_mail("Trade blue: give 1Wz, get 1E\n", _ctx(0, "en"))
    err = parsed.lines[0].error
    assert err is not None and err.key == "german_letters_kron"
    assert "'Trade blue: give 1To, get 1O'" in err.message
    parsed = parse_mail("Abwurf: 1To 1Cl\n", _ctx(0, "de"))
    err = parsed.lines[0].error
    assert err is not None and err.key == "english_letters_kron"
    assert "'Abwurf: 1Wz 1St'" in err.message
    assert "'Abwurf: 1Wz 1St'" in err.localized("de")


# -- refused, with the reason -----------------------------------------------------------------

REFUSED: list[tuple[str, str, str]] = [
    ("Seehandel 4Wz gegen 1S", "de", "goods_not_with_bank"),
    ("Seehandel 4H gegen 1Br", "de", "goods_not_with_bank"),
    ("Maritime 4To for 1St", "en", "goods_not_with_bank"),
    ("Maritime 2 bread for 1 ore", "en", "goods_not_with_bank"),
    ("Erfindung Brot Stein", "de", "goods_not_with_bank"),
    ("Year of plenty Cl Cl", "en", "goods_not_with_bank"),
    ("Seehandel 2 Wz gegen 1H", "de", "goods_not_with_bank"),
    ("Monopol Brot", "de", "monopoly_no_goods"),
    ("Monopoly tools", "en", "monopoly_no_goods"),
    ("Herstellen 2 Holz", "de", "make_goods"),
    ("Make 1 stone", "en", "make_goods"),
    ("Herstellen", "de", "make_form"),
    ("Herstellen 0 Brot", "de", "make_at_least_one"),
    ("Make 0 bread", "en", "make_at_least_one"),
    ("Festmahl", "de", "feast_form"),
    ("Feast", "en", "feast_form"),
    ("Bauhütte Brot", "de", "card_alone"),
    ("Harbour privilege twice", "en", "card_alone"),
    ("Festmahl Kuchen", "de", "resource_expected"),
    ("Schmide C4 C5 D5", "de", "did_you_mean"),
    # Ordinary words are never cards: a letter of two only right after its count.
    ("Trade blue: give 1 wool to get 1 ore", "en", "letters_with_count"),
    ("Discard: W W to G", "en", "letters_with_count"),
    ("Maritime 4 St for 1 O", "en", "letters_ask_one"),
    ("Handel blau: gebe 2 St. Holz, bekomme 1 Erz", "de", "letters_with_count"),
    ("Abwurf: 2 St. Wolle", "de", "letters_with_count"),
    ("Handel blau: gebe 2St. Holz, bekomme 1 Erz", "de", "letters_with_count"),
    ("Herstellen 1 Br", "de", "letters_ask_one"),
    ("Feast To", "en", "letters_by_name"),
    ("Monopoly St", "en", "letters_by_name"),
    ("Festmahl Br", "de", "letters_by_name"),
    ("Festmahl 1 Br", "de", "letters_ask_one"),
    ("Feast 1 to", "en", "letters_ask_one"),
    # Another count than one is no feast's: refused, not read as one.
    ("Festmahl 2 Brot", "de", "resource_expected"),
    ("Festmahl 2Br", "de", "resource_expected"),
    ("Feast 11 bread", "en", "resource_expected"),
    # A good's letters in a bank trade or card, whatever the spacing: the goods' refusal, and
    # where the letters begin a resource's name (Stoff's `St`, Stein), the line for it.
    ("Seehandel 4 St gegen 1W", "de", "good_at_bank_ask"),
    ("Monopol St", "de", "good_in_monopoly_ask"),
    ("Erfindung St W", "de", "good_at_bank_ask"),
    ("Maritime 4Br for 1O", "en", "good_at_bank_ask"),
    # A letter of two with a blank after its count: the lines for what it may mean.
    ("Handel blau: gebe 4 St, bekomme 1H", "de", "letters_ask_two"),
    ("Discard: 2 Br", "en", "letters_ask_two"),
]


@pytest.mark.parametrize(("line", "lang", "key"), REFUSED)
def test_refused_lines_say_why_in_both_languages(line: str, lang: str, key: str) -> None:
    err = _error(line, _ctx(0, lang))
    assert err.key == key, (line, err.key, err.message)
    de, en = err.localized("de"), err.localized("en")
    assert de != en
    if key != "did_you_mean":
        # The German text speaks German: none of the English text's own words.
        assert not re.search(r"\b(goods|never|only|made|names|played|bank)\b", de), de


@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("Seehandel 4St gegen 1W", "good_at_bank_ask"),
        ("Monopol St", "good_in_monopoly_ask"),
        ("Erfindung St W", "good_at_bank_ask"),
        ("Seehandel 2Br gegen 1E", "goods_not_with_bank"),
    ],
)
def test_a_good_with_the_bank_is_refused_as_such_never_put_down_to_english_letters(
    line: str, key: str
) -> None:
    """`St` is Stoff in a German game: the line names a good, which no bank takes. That it would
    read as Stein with the English letters does not make it an English line (a mail check)."""
    (result,) = parse_mail(line + "\n", _ctx(0, "de")).lines
    assert result.error is not None and result.error.key == key, str(result.error)
    assert "Waren" in result.error.localized("de") or "Ware" in result.error.localized("de")


#: A good's letters where only resources are taken, or a letter of two after a blank: the
#: question back names the line to copy for each card the letters may mean (issue 27: the
#: guide promises it). (line, game language, lines to copy, in the order named)
ASKED_BACK: list[tuple[str, str, list[str]]] = [
    ("Seehandel 4 St gegen 1H", "de", ["Seehandel 4S gegen 1H"]),
    ("Seehandel 4St gegen 1H", "de", ["Seehandel 4S gegen 1H"]),
    ("Tausche mit der Bank 4 St gegen 1 H", "de", ["Seehandel 4S gegen 1H"]),
    ("Seehandel 4H gegen 1 St", "de", ["Seehandel 4H gegen 1S"]),
    ("Erfindung St W", "de", ["Erfindung 1S 1W"]),
    ("Monopol St", "de", ["Monopol Stein"]),
    ("Monopol St", "de@modern", ["Tribut Stein"]),
    (
        "Handel blau: gebe 4 St, bekomme 1H",
        "de",
        ["Handel blau: gebe 4St, bekomme 1H", "Handel blau: gebe 4S, bekomme 1H"],
    ),
    ("Abwurf: 2 St", "de", ["Abwurf: 2St", "Abwurf: 2S"]),
    ("Herstellen 1 Br", "de", ["Herstellen 1 Brot"]),
    ("Maritime 4 Br for 1O", "en", ["Maritime 4B for 1O"]),
    ("Monopoly Br", "en", ["Monopoly Brick"]),
    ("Trade blue: give 4 St, get 1O", "en", ["Trade blue: give 4St, get 1O"]),
    ("Discard: 2 Br", "en", ["Discard: 2Br", "Discard: 2B"]),
]


@pytest.mark.parametrize(("line", "lang", "copies"), ASKED_BACK)
def test_a_goods_letters_are_asked_back_with_the_lines_to_copy(
    line: str, lang: str, copies: list[str]
) -> None:
    ctx = _ctx(0, lang)
    (result,) = parse_mail(line + "\n", ctx).lines
    err = result.error
    assert err is not None and err.key in (
        "good_at_bank_ask",
        "good_in_monopoly_ask",
        "letters_ask_one",
        "letters_ask_two",
    ), str(err)
    text = err.localized(lang)
    # Every line to copy, in the order given, and each is read as it stands.
    at = [text.find(repr(copy)) for copy in copies]
    assert -1 not in at and at == sorted(at), text
    for copy in copies:
        assert parse_mail(copy + "\n", ctx).lines[0].ok, copy


def test_the_testers_line_is_asked_back_in_the_guides_words() -> None:
    """`Seehandel 4 St gegen 1H` in a German Kronlande game: `St` is Stoff, which no bank
    takes; the answer says so and gives the line for Stein to copy."""
    err = _error("Seehandel 4 St gegen 1H", _ctx(0, "de"))
    assert err.localized("de") == (
        "'4 St' ist Stoff, eine Ware, und Waren handelst du nur mit Mitspielern, nie mit der "
        "Bank; für Stein schreibe 'Seehandel 4S gegen 1H'"
    )
    assert err.localized("en") == (
        "'4 St' is Stoff, a good, which is traded between players only, never with the bank; "
        "for Stein, write 'Seehandel 4S gegen 1H'"
    )
    # The guides quote the answers as they are.
    root = Path(__file__).resolve().parent.parent / "pbm" / "guides"
    guide = " ".join((root / "player-guide.de.md").read_text(encoding="utf-8").split())
    assert f"„{err.localized('de')}“" in guide
    english = _error("Maritime 4 Br for 1O", _ctx(0, "en")).localized("en")
    guide = " ".join((root / "player-guide.en.md").read_text(encoding="utf-8").split())
    assert f'"{english}"' in guide


def test_what_has_no_other_reading_keeps_its_refusal() -> None:
    ctx = _ctx(0, "de")
    # Written out, or a good without a resource of its letters: no question.
    assert _error("Seehandel 4 Stoff gegen 1H", ctx).key == "goods_not_with_bank"
    assert _error("Seehandel 2 Wz gegen 1H", ctx).key == "goods_not_with_bank"
    # `St.` is Stück, `St` alone may be a word: the refusal says how to write a card.
    assert _error("Handel blau: gebe 2 St. Holz, bekomme 1 Erz", ctx).key == "letters_with_count"
    assert _error("Abwurf: St W", ctx).key == "letters_with_count"
    assert _error("Trade blue: give 1 wool to get 1 ore", _ctx(0, "en")).key == (
        "letters_with_count"
    )


def test_the_messages_name_the_card_and_the_form_to_write() -> None:
    err = _error("Trade blue: give 1 wool to get 1 ore", _ctx(0, "en"))
    assert err.localized("en") == (
        "'to' is not read as a card: write Tools with its count right before the letters "
        "('1To') or by its name"
    )
    err = _error("Handel blau: gebe 2 St. Holz, bekomme 1 Erz", _ctx(0, "de"))
    assert err.localized("de") == (
        "'St.' wird nicht als Karte gelesen: schreibe Stoff mit der Anzahl direkt vor den "
        "Buchstaben ('1St') oder mit Namen"
    )
    err = _error("Festmahl Br", _ctx(0, "de"))
    assert err.localized("de") == "'Br' wird nicht als Karte gelesen: schreibe den Namen, 'Brot'"


@pytest.mark.parametrize("lang", LANGS)
def test_cards_of_two_letters_are_echoed_by_name_where_no_count_stands(lang: str) -> None:
    """A discard list and a year of plenty are echoed card by card: a card whose letters are two
    is echoed by its name, which reads back (one-letter cards keep their letter)."""
    ctx = _ctx(0, lang)
    for item in (
        DiscardPreference((WOLLE, WERKZEUG, STOFF, BROT, STEIN, FISCH)),
        YearOfPlenty(STEIN, FISCH),
    ):
        text = _roundtrip(item, ctx)
        assert not re.search(r"(?<![0-9A-Za-z])(Wz|St|Br|To|Cl)(?![a-z])", text), text


def test_several_goods_on_a_line_are_several_makes_in_the_order_written() -> None:
    """`Herstellen 2 Brot, 1 Werkzeug, 1 Brot`: three builds as written, each all or none; the
    last Brot is never merged into the first (a make of 3 would fail where 2 succeed)."""
    from pbm.rules.workshops import place_workshop

    line = "Herstellen 2 Brot, 1 Werkzeug, 1 Brot"
    makes = (Make(BROT, 2), Make(WERKZEUG, 1), Make(BROT, 1))
    (result,) = parse_mail(line + "\n", _ctx(0, "de")).lines
    assert result.canonical == "Herstellen 2 Brot; Herstellen 1 Werkzeug; Herstellen 1 Brot"
    s = kron_game()
    for kind, i in ((BAECKEREI, 0), (SCHMIEDE, 4)):
        c = settle_at(s, 0, free_crossing(s, s.board.robber_hexes[i]))
        place_workshop(s, 0, Workshop(kind, c), [], free=True)
    ctx = Context(s.board, "de", DEFAULT_COLOURS[:4], "round")
    parsed = parse_mail(line + "\n", ctx)
    assert parsed.turn_orders().builds == makes
    set_hand(s, 0, Getreide=2, Fisch=2, Holz=1, Erz=1)
    after, _ = play(s, s0=parsed.turn_orders())
    assert cards(after, 0) == {"Werkzeug": 1, "Brot": 2}
    # The same good twice is two makes: the first is paid, the second fails alone.
    parsed = parse_mail("Herstellen 1 Brot, 1 Brot\n", ctx)
    assert parsed.turn_orders().builds == (Make(BROT, 1), Make(BROT, 1))
    set_hand(s, 0, Getreide=1, Fisch=1)
    after, _ = play(s, s0=parsed.turn_orders())
    assert cards(after, 0) == {"Brot": 1}


PLAYED: list[tuple[str, str, object]] = [
    ("Karte Hafenprivileg spielen", "de", HarbourPrivilege()),
    ("Karte Bauhütte", "de", BuildersHut()),
    ("Spiele die Karte Festmahl: Brot", "de", Feast(BROT)),
    ("Play card Feast: bread", "en", Feast(BROT)),
    ("Play the card Harbour privilege", "en", HarbourPrivilege()),
]


@pytest.mark.parametrize(("line", "lang", "meant"), PLAYED)
def test_the_card_word_before_a_project_card_plays_it_and_buys_nothing(
    line: str, lang: str, meant: object
) -> None:
    parsed = parse_mail(line + "\n", _ctx(0, lang))
    assert parsed.ok, str(parsed.lines[0].error)
    assert parsed.turn_orders().builds == (meant,)


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        # A project card played after a purchase on one line: two builds, in every language
        # (English `harbour privilege` is two words, `GameWords.build_pairs`).
        ("Karte kaufen und Hafenprivileg spielen", "de"),
        ("Kaufe eine Karte und spiele Hafenprivileg", "de"),
        ("Buy card and play Harbour privilege", "en"),
        ("Buy a card and then play the harbor privilege", "en"),
        ("Køb kort og spil havneprivilegium", "da"),
    ],
)
def test_a_card_bought_and_a_project_card_played_on_one_line(line: str, lang: str) -> None:
    parsed = parse_mail(line + "\n", _ctx(0, lang))
    assert parsed.ok, str(parsed.lines[0].error)
    assert parsed.turn_orders().builds == (BuyCard(), HarbourPrivilege())


def test_builders_hut_after_a_build_is_a_build_of_its_own() -> None:
    parsed = parse_mail("Buy card and play builders hut\n", _ctx(0, "en"))
    assert parsed.turn_orders().builds == (BuyCard(), BuildersHut())
    # In a base game the words are no order: `harbour` there ends a harbour's name.
    assert not parse_mail("Buy card and play harbour privilege\n", _base_ctx("en")).ok


@pytest.mark.parametrize(
    ("line", "lang", "meant"),
    [
        ("Play card Year of plenty: wool, ore", "en", (YearOfPlenty(WOLLE, 4),)),
        ("Play the card Year of plenty: wool, ore", "en", (YearOfPlenty(WOLLE, 4),)),
        ("Spiele Karte Erfindung: Holz, Erz", "de", (YearOfPlenty(HOLZ, 4),)),
        ("Karte Erfindung Holz Erz", "de", (YearOfPlenty(HOLZ, 4),)),
        # A purchase said as such stays one, before the card played.
        ("Karte kaufen, Erfindung Holz Erz", "de", (BuyCard(), YearOfPlenty(HOLZ, 4))),
        ("Buy card, Year of plenty: wool ore", "en", (BuyCard(), YearOfPlenty(WOLLE, 4))),
    ],
)
def test_the_card_word_before_a_card_played_buys_nothing_in_a_base_game(
    line: str, lang: str, meant: tuple[object, ...]
) -> None:
    parsed = parse_mail(line + "\n", _base_ctx(lang))
    assert parsed.ok, str(parsed.lines[0].error)
    assert parsed.turn_orders().builds == meant


#: Base-game lines as the base game always read them: Kronlande's words (make, castle, builders,
#: Fisch, Burg, produce) are ordinary words there, in remarks and clauses.
BASE_AS_EVER: list[tuple[str, str, str]] = [
    ("en", "Settlement 11L 4L 6B (make it count)", "Settlement B2 C2 C3 (11L 4L 6B)"),
    ("en", "Road 11L 6B, if I can produce enough", "Road B2 C3 (11L 6B)"),
    ("en", "Settlement 11L 4L 6B (my castle)", "Settlement B2 C2 C3 (11L 4L 6B)"),
    ("en", "Road 11L 6B (builders note)", "Road B2 C3 (11L 6B)"),
    ("de", "Siedlung 11H 4H 6L (Fisch!)", "Siedlung B2 C2 C3 (11H 4H 6L)"),
    ("de", "Stadt 11H 4H 6L, wenn es reicht (Burg als Ziel)", "Stadt B2 C2 C3 (11H 4H 6L)"),
]


@pytest.mark.parametrize(("lang", "line", "canonical"), BASE_AS_EVER)
def test_kronlande_words_mean_nothing_in_a_base_game(lang: str, line: str, canonical: str) -> None:
    ctx = Context(generate_board("medium", 1), lang, DEFAULT_COLOURS[:4], "round")
    (result,) = parse_mail(line + "\n", ctx).lines
    assert result.ok and result.canonical == canonical, str(result.error)


def test_an_english_game_is_shown_the_english_order_words() -> None:
    err = _error("Herstellen 2 Holz", _ctx(0, "en"))
    assert "To, Cl, Br" in err.localized("en") and "Wz, St, Br" in err.message
    err = _error("Bauhütte Brot", _ctx(0, "en"))
    assert "'Builders' hut'" in err.localized("en")


def test_did_you_mean_names_the_kronlande_word_only_in_a_kronlande_game() -> None:
    err = _error("Schmide C4 C5 D5", _ctx(0, "de"))
    assert "'Schmiede'" in err.message
    assert _error("Schmide C4 C5 D5", _base_ctx()).key == "order_expected"


@pytest.mark.parametrize(
    "line",
    [
        "Burg C3 C4 D4",
        "Schmiede C3 C4 D4",
        "Herstellen 2 Brot",
        "Bauhütte",
        "Hafenprivileg",
        "Festmahl Brot",
        "Castle C3 C4 D4",
        "Make 2 bread",
    ],
)
def test_a_base_game_refuses_the_kronlande_lines(line: str) -> None:
    err = _error(line, _base_ctx())
    assert err.key == "kronlande_only"
    assert line.split()[0] in err.message
    assert "Kronlande" in err.localized("de") and err.localized("de") != err.message


def test_an_incomplete_crossing_lists_the_crossings_to_copy_back() -> None:
    ctx = _ctx(0, "de")
    c = _a_crossing(ctx)
    two = " ".join(ctx.board.crossing_label(c).split()[:2])
    err = _error(f"Burg {two}", ctx)
    assert err.key == "crossing_pick"
    assert any(cand.startswith(ctx.board.crossing_label(c)) for cand in err.candidates)
    # A quarry's token names it like any hex; two of them are an ambiguity with candidates.
    q = ctx.board.hexes[ctx.board.quarries[0]]
    err = _error(f"Räuber {q.number}X", ctx)
    assert err.key in ("no_hex", "no_hex_near")


@pytest.mark.parametrize("lang", LANGS)
def test_a_token_on_two_quarries_lists_both(lang: str) -> None:
    # The large island of seed 2 has two quarries with a 4.
    b = _board("large", 2)
    ctx = Context(b, lang, DEFAULT_COLOURS[:4], "round")
    fours = [h for h in b.quarries if b.hexes[h].number == 4]
    assert len(fours) == 2
    name = hex_short_name(b, fours[0], lang)
    err = _error(f"{'Räuber' if lang == 'de' else 'Robber'} {name}", ctx)
    assert isinstance(err, AmbiguousError)
    assert sorted(err.candidates) == sorted(b.hexes[h].label for h in fours)
    # Each is named by its label; the echo shows the token beside it (the label decides),
    # and reads back as the same hex.
    for h in fours:
        shown = hex_text(b, h, lang)
        assert shown == f"{b.hexes[h].label} ({name})"
        robber = parse_line(f"{'Räuber' if lang == 'de' else 'Robber'} {shown}", ctx)
        assert isinstance(robber, RobberOrder) and robber.hex == h


# -- oder, Ersatzbau ---------------------------------------------------------------------------


def test_oder_and_ersatzbau_take_the_kronlande_lines() -> None:
    ctx = _ctx(0, "de")
    c = _a_crossing(ctx)
    labels = ctx.board.crossing_label(c)
    other = next(
        x for x in _land_crossings(ctx.board) if not set(ctx.board.crossing_hexes[x]) & {0}
    )
    body = (
        f"Burg {labels} oder Stadt {ctx.board.crossing_label(other)}\n"
        f"Schmiede {labels}\n"
        f"oder Weberei {labels}\n"
        "Herstellen 2 Brot, 1 Werkzeug\n"
        "Ersatzbau:\n"
        "Hafenprivileg\n"
        "Seehandel 2S gegen 1E oder Festmahl Fisch\n"
    )
    parsed = parse_mail(body, ctx)
    assert parsed.ok, [str(r.error) for r in parsed.lines if r.error]
    orders = parsed.turn_orders()
    assert orders.builds == (
        Alternatives((Castle(c), City(other))),
        Alternatives((Workshop(SCHMIEDE, c), Workshop(WEBEREI, c))),
        Make(BROT, 2),
        Make(WERKZEUG, 1),
    )
    assert orders.substitutes.lines == (
        HarbourPrivilege(),
        Alternatives((MaritimeTrade(STEIN, 2, ERZ, 1), Feast(FISCH))),
    )
    assert [r.block for r in parsed.lines] == ["main"] * 4 + ["substitute"] * 3
    # Several goods on one line are several builds, echoed as such.
    assert parsed.lines[3].canonical == "Herstellen 2 Brot; Herstellen 1 Werkzeug"
    assert isinstance(parse_line("Herstellen 2 Brot, 1 Werkzeug", ctx), Builds)


def test_two_builds_on_a_line_and_an_option_without_its_word() -> None:
    ctx = _ctx(0, "de")
    b = ctx.board
    c = _a_crossing(ctx)
    d = next(x for x in _land_crossings(b) if x != c)
    line = f"Herstellen 1 Brot und Burg {b.crossing_label(c)}"
    assert parse_line(line, ctx) == Builds((Make(BROT, 1), Castle(c)))
    line = f"Burg {b.crossing_label(c)} oder {b.crossing_label(d)}"
    assert parse_line(line, ctx) == Alternatives((Castle(c), Castle(d)))


# -- at receipt ---------------------------------------------------------------------------------


def _receipt(body: str, lang: str = "de") -> list[str | None]:
    """The receipt refusals of a mail by seat 0 of a Kronlande game where seat 0 has a city at
    the first quarry's crossing and a settlement two crossings away, seat 1 a city elsewhere."""
    s = kron_game()
    b = s.board
    city = b.hex_crossings[b.quarries[0]][0]
    settle_at(s, 0, city, level=2)
    ctx = Context(b, lang, s.colours, "round")
    parsed = parse_mail(body.format(city=b.crossing_label(city)), ctx)
    assert parsed.ok, [str(r.error) for r in parsed.lines if r.error]
    check_receipt(parsed, s, 0, lang)
    out: list[str | None] = []
    for r in parsed.lines:
        if isinstance(r.error, IllegalOrderError):
            out.append(str(r.error.rule))
        else:
            out.append(None)
    return out


def test_receipt_refuses_what_no_line_of_the_mail_can_change() -> None:
    assert _receipt("Residenz {city}\n") == ["not_own_castle"]
    assert _receipt("Herstellen 1 Brot\n") == ["no_workshop"]
    assert _receipt("Bauhütte\n") == ["card_not_held"]
    assert _receipt("Burg {city}\nSchmiede {city}\n") == [None, None]


def test_receipt_follows_the_earlier_lines_of_the_mail() -> None:
    # The Burg of the first line makes the Residenz possible; the Bäckerei the bread.
    assert _receipt("Burg {city}\nResidenz {city}\n") == [None, None]
    assert _receipt("Bäckerei {city}\nHerstellen 2 Brot\n") == [None, None]
    # Either workshop may be the one built (the first may lack its cards): both stay.
    assert _receipt("Bäckerei {city}\nSchmiede {city}\n") == [None, None]


def test_receipt_texts_are_localised() -> None:
    s = kron_game()
    ctx = Context(s.board, "de", s.colours, "round")
    parsed = parse_mail("Herstellen 1 Brot\n", ctx)
    check_receipt(parsed, s, 0, "de")
    err = parsed.lines[0].error
    assert isinstance(err, IllegalOrderError)
    assert err.localized("en") == "you need the workshop that makes this good"
    assert err.localized("de") != err.localized("en")


def test_goods_never_reach_the_bank_even_written_out() -> None:
    # The parser's answer (not only the receipt's): the board alone rules it out.
    for line in ("Seehandel 4 Werkzeug gegen 1 Stein", "Tausche mit der Bank 2 Brot gegen 1 Erz"):
        assert _error(line, _ctx(0, "de")).key == "goods_not_with_bank"
    assert parse_line("Seehandel 4G gegen 1S", _ctx(0, "de")) == MaritimeTrade(GETREIDE, 4, STEIN)


def test_orders_check_reads_a_kronlande_mail() -> None:
    from typer.testing import CliRunner

    from pbm.cli import app

    body = "Kennwort: x\nHerstellen 2 Brot\nFestmahl Stein\nAbwurf: S 1Wz\n"
    args = ["orders", "check", "--seed", "1", "--kronlande", "--json", "-"]
    result = CliRunner().invoke(app, args, input=body)
    assert result.exit_code == 0, result.output
    huge = CliRunner().invoke(app, [*args[:-2], "--size", "huge", "-"], input=body)
    assert huge.exit_code == 0, huge.output
    base = CliRunner().invoke(app, ["orders", "check", "--seed", "1", "-"], input=body)
    assert base.exit_code == 1  # no Kronlande lines on a base board
    small = CliRunner().invoke(app, [*args[:-2], "--size", "medium", "-"], input=body)
    assert small.exit_code != 0 and "large or the huge" in small.output


def test_not_an_error_refused_by_nothing() -> None:
    # Lines that are no Kronlande orders stay what they were in a Kronlande game.
    ctx = _ctx(0, "de")
    c = _a_crossing(ctx)
    assert parse_line(f"Stadt {ctx.board.crossing_label(c)}", ctx) == City(c)
    with pytest.raises(NotationError):
        parse_line("Turm C3 C4 D4", ctx)


# -- the player guides -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "heading"),
    [
        ("de", "## Kronlande: Stein, Fisch, Waren, Burgen und Residenzen"),
        ("en", "## Kronlande: stone, fish, goods, castles and residences"),
    ],
)
def test_the_player_guides_kronlande_examples_read_on_a_kronlande_island(
    lang: str, heading: str
) -> None:
    from pathlib import Path

    guide = Path(__file__).resolve().parent.parent / "pbm" / "guides" / f"player-guide.{lang}.md"
    text = guide.read_text(encoding="utf-8")
    chapter = text[text.index(heading) :].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in chapter.split("```text\n")[1:]]
    ctx = _ctx(0, lang)
    orders = [b for b in blocks if not b.startswith(("Steinbrüche:", "Quarries:"))]
    assert len(orders) == 4
    for block in orders:
        mail = parse_mail(block, ctx)
        assert mail.ok, [(r.text, str(r.error)) for r in mail.lines if not r.ok]
    # The echo the guide quotes for several goods on a line.
    make = parse_mail(orders[1], ctx).lines[-1].canonical
    assert make is not None and make in chapter
    # The legend the guide shows is the map's.
    legend = next(b for b in blocks if b.startswith(("Steinbrüche:", "Quarries:")))
    from pbm.reports.kron_map import _kron_legend

    assert legend.splitlines()[1:] == _kron_legend(lang)[1:]


@pytest.mark.parametrize(
    ("text", "lang", "r"),
    [
        ("Monopol, Erz", "de", ERZ),
        ("Monopol - Erz", "de", ERZ),
        ("Monopol 1 Erz", "de", ERZ),
        ("Monopol 1E", "de", ERZ),
        ("Monopol auf eine Wolle", "de", WOLLE),
        ("Monopoly: one ore", "en", ERZ),
        ("Monopoly – a wool", "en", WOLLE),
    ],
)
def test_a_base_monopoly_with_a_separator_or_a_count_of_one(text: str, lang: str, r: int) -> None:
    """The base game's monopoly reads as the feast does: one card is what it names."""
    assert parse_line(text, _base_ctx(lang)) == Monopoly(r)
    assert _error("Monopol 2 Erz", _base_ctx()).key == "resource_expected"


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        # Making goods and workshops in the words players use.
        ("Herstelle 2 Brot", "de", "Herstellen 2 Brot"),
        ("Backe 2 Brot", "de", "Herstellen 2 Brot"),
        ("Make 2 breads", "en", "Make 2 Bread"),
        ("Bake 2 bread", "en", "Make 2 Bread"),
        ("Bag 2 brød", "da", "Fremstil 2 Brød"),
        ("Producer 2 brød", "da", "Fremstil 2 Brød"),
    ],
)
def test_goods_made_in_the_words_players_use(line: str, lang: str, canonical: str) -> None:
    ctx = _ctx(0, lang)
    (result,) = parse_mail(line + "\n", ctx).lines
    assert result.item is not None, str(result.error)
    assert format_item(result.item, ctx) == canonical


def test_a_blacksmith_is_a_smithy() -> None:
    ctx = _ctx(0, "en")
    smithy = parse_line("Smithy C4 C5 D5", ctx)
    assert parse_line("Blacksmith C4 C5 D5", ctx) == smithy
