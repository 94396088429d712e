"""The Seafarers orders (issue 17, step b): `Schiff <Weg>` / `Ship <path>`, `Schiff versetzen
<Weg> nach <Weg>` / `Move ship <path> to <path>`, `Gold: Erz, Holz` / `Gold: ore, lumber`, ships
in road building and in the setup. Round trip `parse(format(x)) == x` over every sea side of
every scenario board in both languages, the canonical echo, errors with candidates, and the
refusal on base boards."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbm.notation import Context, format_item, parse_line, parse_mail
from pbm.notation.errors import NotationError, OrderError
from pbm.notation.format import format_turn_orders
from pbm.rules.board import Board
from pbm.rules.orders import (
    Alternatives,
    GoldPreference,
    MoveShip,
    Road,
    RoadBuilding,
    Settlement,
    SetupPlacement,
    Ship,
    SubstituteBlock,
    TurnOrders,
)
from pbm.rules.scenarios import SCENARIOS, scenario_board
from pbm.rules.state import DEFAULT_COLOURS, GameState, Settings, new_game

BOARDS = [(key, players) for key in SCENARIOS for players in (3, 4)]
LANGS = ["de", "en"]
FAST = settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))


@cache
def _board(key: str, players: int) -> Board:
    return scenario_board(key, players, 7)


def _ctx(index: int, lang: str, phase: str = "round") -> Context:
    key, players = BOARDS[index]
    return Context(_board(key, players), lang, DEFAULT_COLOURS[:players], phase)


def _has_gold(b: Board) -> bool:
    from pbm.rules.board import Terrain

    return bool(b.fog) or any(h.terrain == Terrain.GOLD for h in b.hexes)


def _sea_paths(b: Board) -> list[int]:
    return [e for e in range(len(b.path_hexes)) if b.path_sea[e]]


def _roundtrip(item: object, ctx: Context) -> str:
    text = format_item(item, ctx)  # type: ignore[arg-type]
    back = parse_line(text, ctx)
    assert back == item, f"{text!r} read back as {back!r}"
    assert format_item(back, ctx) == text
    return text


@pytest.mark.parametrize("index", range(len(BOARDS)))
@pytest.mark.parametrize("lang", LANGS)
def test_every_sea_side_round_trips_as_a_ship(index: int, lang: str) -> None:
    ctx = _ctx(index, lang)
    sea = _sea_paths(ctx.board)
    assert sea
    for e in sea:
        _roundtrip(Ship(e), ctx)


@FAST
@given(st.data())
def test_moves_gold_road_building_and_setup_round_trip(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(BOARDS) - 1))
    lang = data.draw(st.sampled_from(LANGS))
    ctx = _ctx(index, lang)
    b = ctx.board
    sea = st.sampled_from(_sea_paths(b))
    land = st.sampled_from([e for e in range(len(b.path_hexes)) if b.path_land[e]])
    _roundtrip(MoveShip(data.draw(sea), data.draw(sea)), ctx)
    gold = data.draw(st.lists(st.integers(0, 4), min_size=1, max_size=5))
    if _has_gold(b):  # a board without gold rivers refuses the line (`gold_none_here`)
        _roundtrip(GoldPreference(tuple(gold)), ctx)
    first_ship = data.draw(st.booleans())
    first = data.draw(sea if first_ship else land)
    second = data.draw(st.none() | st.tuples(st.booleans(), sea, land))
    if second is None:
        rb = RoadBuilding(first, None, first_ship)
    else:
        ship2, e_sea, e_land = second
        rb = RoadBuilding(first, e_sea if ship2 else e_land, first_ship, ship2)
    if rb.first_ship or rb.second_ship:
        _roundtrip(rb, ctx)
    e = data.draw(sea)
    c = data.draw(st.sampled_from([c for c in b.path_crossings[e] if b.crossing_land[c]] or [-1]))
    if c >= 0:
        _roundtrip(SetupPlacement(c, e, True), _ctx(index, lang, "setup"))


def test_the_order_words_and_what_players_write() -> None:
    ctx = _ctx(BOARDS.index(("neue-ufer", 4)), "de")
    b = ctx.board
    sea = _sea_paths(b)
    label = b.path_label(sea[0])
    assert parse_line(f"Schiff {label}", ctx) == Ship(sea[0])
    assert parse_line(f"Ship {label}", ctx) == Ship(sea[0])
    other = b.path_label(sea[1])
    for text in (
        f"Schiff versetzen {label} nach {other}",
        f"Schiff bewegen {label} nach {other}",
        f"Move ship {label} to {other}",
        f"Versetze das Schiff {label} nach {other}",
    ):
        assert parse_line(text, ctx) == MoveShip(sea[0], sea[1]), text
    assert parse_line("Gold: Erz, Holz", ctx) == GoldPreference((4, 0))
    assert parse_line("Gold: E E G", ctx) == GoldPreference((4, 4, 3))
    en = _ctx(BOARDS.index(("neue-ufer", 4)), "en")
    assert parse_line("Gold: ore, lumber", en) == GoldPreference((4, 0))
    assert format_item(GoldPreference((4, 0)), en) == "Gold: Ore, Lumber"
    assert format_item(GoldPreference((4, 0)), ctx) == "Gold: Erz, Holz"
    assert format_item(MoveShip(sea[0], sea[1]), en).startswith("Move ship ")
    assert " to " in format_item(MoveShip(sea[0], sea[1]), en)
    assert format_item(MoveShip(sea[0], sea[1]), ctx).startswith("Schiff versetzen ")
    # A ship line with a settlement after it is two builds; `oder` works for ships.
    c = next(c for c in range(len(b.crossing_hexes)) if b.crossing_land[c])
    two = parse_line(f"Schiff {label} oder Schiff {other}", ctx)
    assert two == Alternatives((Ship(sea[0]), Ship(sea[1])))
    both = parse_line(f"Schiff {label} und {format_item(Settlement(c), ctx)}", ctx)
    assert getattr(both, "actions", None) == (Ship(sea[0]), Settlement(c))


def test_errors_name_the_form_and_the_near_word() -> None:
    ctx = _ctx(BOARDS.index(("neue-ufer", 4)), "de")
    label = ctx.board.path_label(_sea_paths(ctx.board)[0])
    with pytest.raises(NotationError) as e:
        parse_line(f"Schif {label}", ctx)
    assert e.value.key == "did_you_mean" and "Schiff" in str(e.value)
    with pytest.raises(NotationError) as e:
        parse_line(f"Schiff versetzen {label}", ctx)
    assert e.value.key == "move_ship_form"
    with pytest.raises(OrderError):
        parse_line("Gold: Erz, Bananen", ctx)
    # One hex of a sea side: the sides along it, to copy back.
    with pytest.raises(OrderError) as e:
        parse_line(f"Schiff {label.split()[0]}", ctx)
    assert e.value.key == "path_pick"


def test_base_boards_refuse_ships_and_gold() -> None:
    from pbm.rules.layouts import generate_board

    ctx = Context(generate_board("medium", 1), "de")
    for text in ("Schiff A4 B4", "Schiff versetzen A4 B4 nach B4 C4", "Move ship A4 B4 to B4 C4"):
        with pytest.raises(NotationError) as e:
            parse_line(text, ctx)
        assert e.value.key == "ships_seafarers", text
    with pytest.raises(NotationError) as e:
        parse_line("Gold: Erz", ctx)
    assert e.value.key == "gold_seafarers"


def test_a_whole_mail_reads_into_turn_orders_and_back() -> None:
    s = new_game(Settings.for_scenario("neue-ufer", 4), 7)  # with gold rivers
    sea = _sea_paths(s.board)
    land = [e for e in range(len(s.board.path_hexes)) if s.board.path_land[e]]
    orders = TurnOrders(
        builds=(Ship(sea[0]), MoveShip(sea[1], sea[2]), Road(land[0])),
        substitutes=SubstituteBlock((Ship(sea[3]),)),
        gold=(4, 2),
    )
    for lang in LANGS:
        ctx = Context(s.board, lang, s.colours)
        text = "\n".join(format_turn_orders(orders, ctx))
        mail = parse_mail(text, ctx)
        assert mail.ok, [r for r in mail.lines if not r.ok]
        assert mail.turn_orders() == orders
    # A second gold line is refused, the first counts.
    ctx = Context(s.board, "de", s.colours)
    mail = parse_mail("Gold: Erz\nGold: Holz", ctx)
    assert mail.turn_orders().gold == (4,)
    assert not mail.ok


def _four_islands_round_one() -> GameState:
    """Four Islands, four players, seed 3, at the start of round 1 (the setup played by the
    bots)."""
    from pbm.rules.sim import play_game
    from pbm.rules.state import Phase

    return next(
        st
        for st, _ in play_game(Settings.for_scenario("vier-inseln", 4), 3, max_rounds=0)
        if st.phase == Phase.ROUNDS
    )


def test_receipt_checks_refuse_a_ship_nowhere_near_and_follow_earlier_lines() -> None:
    from pbm.notation.checks import check_receipt
    from pbm.rules.legal import LegalMoves
    from pbm.rules.reasons import Reason

    state = _four_islands_round_one()
    p = next(q for q in range(4) if LegalMoves(state, q).ships())
    legal = LegalMoves(state, p)
    first = legal.ships()[0]
    # A side two ships away is reached only after the first ship of the mail stands.
    after = legal.after(Ship(first))
    second = next(e for e in after.ships() if e not in legal.ships())
    far = next(
        e
        for e in _sea_paths(state.board)
        if legal.problem(Ship(e)) is not None
        and after.problem(Ship(e)) is not None
        and state.sea is not None
        and state.sea.ship[e] < 0
    )
    ctx = Context(state.board, "de", state.colours)
    text = "\n".join(format_item(x, ctx) for x in (Ship(first), Ship(second), Ship(far)))
    mail = parse_mail(text, ctx)
    check_receipt(mail, state, p, "de")
    errors = [r.error for r in mail.lines if r.error is not None]
    assert len(errors) == 1 and getattr(errors[0], "rule", None) == Reason.SHIP_NOT_CONNECTED


def test_orders_check_reads_ships_on_a_scenario_board() -> None:
    from typer.testing import CliRunner

    from pbm.cli import app

    body = "Kennwort: x\nGold: E E G\n"
    args = ["orders", "check", "--seed", "1", "--scenario", "neue-ufer", "--json", "-"]
    result = CliRunner().invoke(app, args, input=body)
    assert result.exit_code == 0, result.output
    base = CliRunner().invoke(app, ["orders", "check", "--seed", "1", "-"], input=body)
    assert base.exit_code == 1  # gold is chosen only in Seafarers games
    wrong = CliRunner().invoke(app, [*args[:4], "--scenario", "atlantis", "-"], input=body)
    assert wrong.exit_code != 0 and "scenario" in wrong.output


def test_an_or_else_line_under_a_ship_line_adds_an_option() -> None:
    """`Schiff …` then `oder Schiff …` on the next line reads as `Schiff … oder Schiff …` on
    one: every build-step order takes an `oder …` line (`orders.BUILD_ACTIONS`)."""
    from pbm.notation import Context, parse_mail
    from pbm.rules.orders import Alternatives, Ship
    from pbm.rules.scenarios import scenario_board
    from pbm.rules.state import DEFAULT_COLOURS

    ctx = Context(scenario_board("neue-ufer", 4, 1, 2), "de", DEFAULT_COLOURS[:4], "round")
    one = parse_mail("Schiff B7 C7 oder Schiff C7 C8", ctx).lines[0].item
    first, second = parse_mail("Schiff B7 C7\noder Schiff C7 C8", ctx).lines
    assert second.error is None and first.item == one
    assert isinstance(one, Alternatives) and all(isinstance(o, Ship) for o in one.options)


def test_moving_a_ship_the_line_above_built_is_refused_with_its_rule() -> None:
    """`Schiff C5 C6` / `Schiff versetzen C5 C6 nach …`: refused as "no ship of yours there",
    the reason before the line above; the rule is that a ship built this round stays."""
    from pbm.notation.checks import check_receipt
    from pbm.rules.legal import LegalMoves
    from pbm.rules.orders import MoveShip
    from pbm.rules.reasons import Reason

    state = _four_islands_round_one()
    p = next(q for q in range(4) if LegalMoves(state, q).ships())
    legal = LegalMoves(state, p)
    built = legal.ships()[0]
    after = legal.after(Ship(built))
    target = next(e for e in after.ships() if e != built)
    ctx = Context(state.board, "de", state.colours)
    text = "\n".join(format_item(x, ctx) for x in (Ship(built), MoveShip(built, target)))
    mail = parse_mail(text, ctx)
    check_receipt(mail, state, p, "de")
    assert mail.lines[0].error is None
    assert getattr(mail.lines[1].error, "rule", None) == Reason.SHIP_BUILT_THIS_ROUND


def test_a_bank_trade_at_a_harbour_the_pirate_blocks_says_so() -> None:
    """`Søhandel 3U for 1M` at the player's 3:1 harbour with the pirate on it was refused as
    "below the harbour rate", while the player's map still shows the harbour."""
    from rules_fixtures import pirate_on_own_harbour

    from pbm.notation.checks import check_receipt
    from pbm.rules.orders import MaritimeTrade

    state = _four_islands_round_one()
    pirate_on_own_harbour(state)
    ctx = Context(state.board, "de", state.colours)
    mail = parse_mail(format_item(MaritimeTrade(0, 3, 4, 1), ctx), ctx)
    check_receipt(mail, state, 0, "de")
    said = mail.lines[0].error.localized("de")  # type: ignore[union-attr]
    assert "der Pirat sperrt deinen Hafen" in said and "4:1" in said


def test_a_knight_that_moves_the_pirate_off_the_harbour_frees_it_for_the_trades() -> None:
    """`Knight after roll: pirate to H9` and `Maritime 3O for 1W` at the harbour he stood on:
    the trade was refused at receipt, though the knight runs before every build; the round
    carries it out."""
    from rules_fixtures import pirate_on_own_harbour

    from pbm.notation.checks import check_receipt
    from pbm.rules.layouts import KNIGHT
    from pbm.rules.legal import LegalMoves
    from pbm.rules.orders import Knight, MaritimeTrade, RobberOrder, Timing

    state = _four_islands_round_one()
    h = pirate_on_own_harbour(state)
    state.cards[0].append((KNIGHT, 0))
    elsewhere = next(x for x in LegalMoves(state, 0).pirate_hexes() if x != h)
    ctx = Context(state.board, "de", state.colours)
    trade = format_item(MaritimeTrade(0, 3, 4, 1), ctx)
    knight = format_item(Knight(Timing.AFTER_ROLL, RobberOrder(elsewhere, (), True)), ctx)
    # Written below the trade too: the knight runs with the rolls all the same.
    for text in (f"{knight}\n{trade}", f"{trade}\n{knight}"):
        mail = parse_mail(text, ctx)
        check_receipt(mail, state, 0, "de")
        assert [r.error for r in mail.lines] == [None, None], text
    # Without the knight the trade is refused, and says why.
    mail = parse_mail(trade, ctx)
    check_receipt(mail, state, 0, "de")
    assert "der Pirat sperrt deinen Hafen" in mail.lines[0].error.localized("de")  # type: ignore[union-attr]


def test_an_empty_gold_line_and_gold_on_a_board_without_it_are_refused() -> None:
    """`Gold:` left empty (the form's line uncommented) was passed over as a heading, and
    `Gold: Erz` on a board without gold rivers was accepted: neither pays anything."""
    from pbm.notation import OrderError

    with_gold = _ctx(BOARDS.index(("neue-ufer", 4)), "de")
    for line in ("Gold:", "Gold"):
        mail = parse_mail(f"{line}\n", with_gold)
        assert mail.lines and mail.lines[0].error is not None, line
        assert mail.lines[0].error.key == "gold_form"
    without = _ctx(BOARDS.index(("vier-inseln", 4)), "de")
    with pytest.raises(OrderError) as e:
        parse_line("Gold: Erz", without)
    assert e.value.key == "gold_none_here"
    # Under fog nothing is said of what it hides.
    fog = _ctx(BOARDS.index(("ozeanien", 4)), "de")
    assert parse_line("Gold: Erz", fog) == GoldPreference((4,))


def test_a_settlement_above_the_ship_that_reaches_it_says_which_line_to_move() -> None:
    """`Siedlung …` written above the ship that reaches it was refused without the hint roads
    get ("the road on line 4 is built after it")."""
    from pbm.notation.checks import check_receipt
    from pbm.rules.legal import LegalMoves
    from pbm.rules.orders import Settlement
    from pbm.rules.reasons import Reason

    state = _four_islands_round_one()
    found = None
    for p in range(4):
        legal = LegalMoves(state, p)
        for e1 in legal.ships():
            one = legal.after(Ship(e1))
            for e2 in one.ships():
                two = one.after(Ship(e2))
                for c in state.board.path_crossings[e2]:
                    site = Settlement(c)
                    if (
                        legal.certain_problem(site) == Reason.SETTLEMENT_NOT_REACHED
                        and two.certain_problem(site) is None
                    ):
                        found = p, e1, e2, c
                        break
                if found:
                    break
            if found:
                break
        if found:
            break
    assert found is not None
    p, e1, e2, c = found
    ctx = Context(state.board, "de", state.colours)
    lines = [format_item(x, ctx) for x in (Settlement(c), Ship(e1), Ship(e2))]
    mail = parse_mail("\n".join(lines), ctx)
    check_receipt(mail, state, p, "de")
    said = mail.lines[0].error.localized("de")  # type: ignore[union-attr]
    assert "das Schiff in Zeile 3 wird erst danach gebaut" in said, said


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        # A ship moved as players write it: their own ship, an arrow for `to`, a colon, a
        # subject before the verb.
        ("Move my ship B2 C2 to C2 C3", "en", "Move ship B2 C2 to C2 C3"),
        ("I move my ship from B2 C2 to C2 C3", "en", "Move ship B2 C2 to C2 C3"),
        ("Move ship B2 C2 -> C2 C3", "en", "Move ship B2 C2 to C2 C3"),
        ("Move ship B2 C2 → C2 C3", "en", "Move ship B2 C2 to C2 C3"),
        ("Versetze mein Schiff von B2 C2 nach C2 C3", "de", "Schiff versetzen B2 C2 nach C2 C3"),
        ("Schiff versetzen: B2 C2 nach C2 C3", "de", "Schiff versetzen B2 C2 nach C2 C3"),
        ("Schiff versetzen B2 C2 -> C2 C3", "de", "Schiff versetzen B2 C2 nach C2 C3"),
        ("Flyt mit skib B2 C2 til C2 C3", "da", "Flyt skib B2 C2 til C2 C3"),
        ("Flyt skib B2 C2 -> C2 C3", "da", "Flyt skib B2 C2 til C2 C3"),
    ],
)
def test_a_ship_moved_as_players_write_it(line: str, lang: str, canonical: str) -> None:
    ctx = Context(scenario_board("neue-ufer", 4, 1, 2), lang, DEFAULT_COLOURS[:4], "round")
    (result,) = parse_mail(line + "\n", ctx).lines
    assert result.error is None, str(result.error)
    assert result.item is not None and format_item(result.item, ctx) == canonical


@pytest.mark.parametrize(
    ("lang", "line", "said"),
    [
        (
            "de",
            "Siedlung C7 C8 D7",
            "C7, C8, D7 treffen an einer Kreuzung zusammen, die an Nebel grenzt (C8): dort wird "
            "nichts gebaut, bis eine Straße oder ein Schiff den Nebel dort aufgedeckt hat",
        ),
        (
            "en",
            "Settlement C7 C8 D7",
            "C7, C8, D7 meet at a crossing that touches fog (C8): nothing is built there until "
            "a road or ship has discovered what the fog hides",
        ),
        (
            "da",
            "Hus C7 C8 D7",
            "C7, C8, D7 mødes i et kryds, der grænser op til tågen (C8): der bygges intet, før "
            "en vej eller et skib har opdaget, hvad tågen skjuler",
        ),
        ("da", "By B7 B8 C8", "B7, B8, C8 mødes i et kryds, der grænser op til tågen (B8, C8)"),
        (
            "de",
            "Straße C7 C8",
            "der Weg zwischen C7, C8 grenzt an Nebel (C8): dort wird nichts gebaut",
        ),
        ("en", "Road C7 C8", "the path between C7, C8 touches fog (C8): nothing is built"),
        ("da", "Vej C7 C8", "strækningen mellem C7, C8 grænser op til tågen (C8)"),
    ],
)
def test_a_place_touching_fog_is_refused_for_the_fog(lang: str, line: str, said: str) -> None:
    """Oceania (seed 1), C8 still fog: `Hus C7 C8 D7` was "C7, C8, D7 mødes ikke i noget kryds",
    though they meet on the map. The answer names the fog instead; a ship beside it reads."""
    s = new_game(Settings.for_scenario("ozeanien", 4), 1)
    assert s.board.hex_by_label("C8").id in s.board.fog
    ctx = Context(s.board, lang, s.colours, "round")
    err = parse_mail(f"{line}\n", ctx).lines[0].error
    assert err is not None and err.key in ("crossing_fog", "path_fog"), err
    assert said in err.localized(lang)
    if line.split()[0] in ("Siedlung", "Settlement", "Hus"):
        # A start settlement there is refused for the fog as well.
        road = {"de": "Straße", "en": "Road", "da": "Vej"}[lang]
        setup = Context(s.board, lang, s.colours, "setup")
        err = parse_mail(f"{line} {road} C7 C8\n", setup).lines[0].error
        assert err is not None and err.key == "crossing_fog", err
    # Hexes that meet nowhere are still said to meet nowhere; a ship beside the fog reads.
    with pytest.raises(OrderError) as info:
        parse_line(line.split()[0] + " A1 A2 B3", ctx)
    assert info.value.key in ("no_crossing", "crossing_three_hexes", "no_path", "path_two_hexes")
    ship = {"de": "Schiff", "en": "Ship", "da": "Skib"}[lang]
    assert isinstance(parse_line(f"{ship} B7 B8", ctx), Ship)
