"""The pirate's orders (issue 18): `Pirat D5` / `Pirate D5`, `Ritter nach Wurf: Pirat D5` /
`Knight after roll: pirate D5`. Round trip over every sea hex of every scenario board in both
languages, the canonical echo, errors, the priority with the robber line, the receipt checks,
and the refusal on base boards."""

from __future__ import annotations

from functools import cache

import pytest

from pbm.notation import Context, format_item, parse_line, parse_mail
from pbm.notation.errors import NotationError, OrderError
from pbm.notation.format import format_turn_orders
from pbm.rules.board import Board, Terrain
from pbm.rules.orders import Knight, RobberOrder, Timing, TurnOrders
from pbm.rules.scenarios import SCENARIOS, scenario_board
from pbm.rules.state import DEFAULT_COLOURS, Settings, new_game

BOARDS = [(key, players) for key in SCENARIOS for players in (3, 4)]
LANGS = ["de", "en"]


@cache
def _board(key: str, players: int) -> Board:
    return scenario_board(key, players, 7)


def _ctx(index: int, lang: str) -> Context:
    key, players = BOARDS[index]
    return Context(_board(key, players), lang, DEFAULT_COLOURS[:players], "round")


def _sea_hexes(b: Board) -> list[int]:
    return [h.id for h in b.hexes if h.terrain == Terrain.SEA]


def _roundtrip(item: object, ctx: Context) -> str:
    text = format_item(item, ctx)  # type: ignore[arg-type]
    back = parse_line(text, ctx)
    assert back == item, f"{text!r} read back as {back!r}"
    assert format_item(back, ctx) == text
    return text


@pytest.mark.parametrize("index", range(len(BOARDS)))
@pytest.mark.parametrize("lang", LANGS)
def test_every_sea_hex_round_trips_for_the_pirate(index: int, lang: str) -> None:
    ctx = _ctx(index, lang)
    for h in _sea_hexes(ctx.board):
        _roundtrip(RobberOrder(h, (), True), ctx)
        _roundtrip(Knight(Timing.AFTER_ROLL, RobberOrder(h, (), True)), ctx)
        _roundtrip(Knight(Timing.BEFORE_ROLL, RobberOrder(h, (), True)), ctx)


def test_what_players_write_and_the_canonical_echo() -> None:
    index = BOARDS.index(("vier-inseln", 4))
    de, en = _ctx(index, "de"), _ctx(index, "en")
    h = _sea_hexes(de.board)[10]
    label = de.board.hexes[h].label
    pirate = RobberOrder(h, (), True)
    for ctx in (de, en):
        for text in (
            f"Pirat {label}",
            f"Pirate {label}",
            f"Pirat auf {label}",
            f"Pirate to {label.lower()}",
            f"Pirat: {label}",
            f"Bei einer 7: Pirat {label}",
            f"On a 7: move the pirate to {label}",
        ):
            assert parse_line(text, ctx) == pirate, text
        for text in (
            f"Ritter nach Wurf: Pirat {label}",
            f"Knight after roll: pirate {label}",
            f"Ritter nach dem Wurf, setze Pirat auf {label}",
        ):
            assert parse_line(text, ctx) == Knight(Timing.AFTER_ROLL, pirate), text
    assert format_item(pirate, de) == f"Pirat {label}"
    assert format_item(pirate, en) == f"Pirate {label}"
    assert format_item(Knight(Timing.AFTER_ROLL, pirate), de) == f"Ritter nach Wurf: Pirat {label}"
    assert format_item(Knight(Timing.AFTER_ROLL, pirate), en) == (
        f"Knight after roll: Pirate {label}"
    )


def test_errors() -> None:
    index = BOARDS.index(("vier-inseln", 4))
    ctx = _ctx(index, "de")
    b = ctx.board
    sea = b.hexes[_sea_hexes(b)[10]].label
    land = b.hexes[b.robber_hexes[0]].label
    cases = {
        "Pirat": "pirate_hex_expected",
        f"Pirat {land}": "pirate_on_sea",
        f"Pirat {sea}, raube blau": "pirate_no_victims",
        f"Pirat {sea} blau": "pirate_no_victims",
    }
    for text, key in cases.items():
        with pytest.raises(NotationError) as e:
            parse_line(text, ctx)
        assert e.value.key == key, text
    with pytest.raises(OrderError):
        parse_line("Pirat Z99", ctx)
    from pbm.rules.layouts import generate_board

    base = Context(generate_board("medium", 1), "de")
    for text in ("Pirat A1", "Ritter nach Wurf: Pirat A1"):
        with pytest.raises(NotationError) as e:
            parse_line(text, base)
        assert e.value.key == "pirate_seafarers", text


def test_robber_and_pirate_in_priority_order() -> None:
    s = new_game(Settings.for_scenario("vier-inseln", 4), 7)
    sea = _sea_hexes(s.board)
    pirate = RobberOrder(sea[10], (), True)
    robber = RobberOrder(s.board.robber_hexes[2], (1,))
    for lang in LANGS:
        ctx = Context(s.board, lang, s.colours)
        for first, second in ((pirate, robber), (robber, pirate)):
            orders = TurnOrders(robber=first, robber_else=second)
            text = "\n".join(format_turn_orders(orders, ctx))
            mail = parse_mail(text, ctx)
            assert mail.ok, [r for r in mail.lines if not r.ok]
            assert mail.turn_orders() == orders
    ctx = Context(s.board, "de", s.colours)
    mail = parse_mail(
        f"Pirat {s.board.hexes[sea[10]].label}\nPirat {s.board.hexes[sea[11]].label}", ctx
    )
    assert mail.turn_orders().robber == pirate and mail.turn_orders().robber_else is None
    errors = [r.error for r in mail.lines if r.error is not None]
    assert [getattr(e, "key", None) for e in errors] == ["second_pirate"]


def test_receipt_checks_refuse_the_pirates_own_hex_and_a_game_without_it() -> None:
    from pbm.notation.checks import check_receipt
    from pbm.rules.reasons import Reason

    for pirate in (True, False):
        s = new_game(Settings.for_scenario("vier-inseln", 4, pirate=pirate), 7)
        assert s.sea is not None
        start = s.board.pirate_start
        assert start is not None
        ctx = Context(s.board, "de", s.colours)
        other = next(h for h in _sea_hexes(s.board) if h != start)
        here, there = s.board.hexes[start].label, s.board.hexes[other].label
        text = f"Pirat {here}\nRitter nach Wurf: Pirat {there}"
        mail = parse_mail(text, ctx)
        check_receipt(mail, s, 0, "de")
        rules = [getattr(r.error, "rule", None) for r in mail.lines if r.error is not None]
        if pirate:
            # The knight is refused for the card the player does not hold.
            assert rules[0] == Reason.PIRATE_MUST_MOVE and len(rules) == 2
        else:
            assert rules[0] == Reason.NO_PIRATE


@pytest.mark.parametrize(("lang", "heading"), [("en", "**The pirate.**"), ("de", "**Der Pirat.**")])
def test_the_player_guides_pirate_example_reads_on_the_four_islands(
    lang: str, heading: str
) -> None:
    from pathlib import Path

    guide = Path(__file__).resolve().parent.parent / "pbm" / "guides" / f"player-guide.{lang}.md"
    text = guide.read_text(encoding="utf-8")
    block = text[text.index(heading) :].split("```text\n", 1)[1].split("```", 1)[0]
    s = new_game(Settings.for_scenario("vier-inseln", 4), 1)
    assert s.board.pirate_start == s.board.hex_by_label("E6").id
    mail = parse_mail(block, Context(s.board, lang, s.colours))
    assert mail.ok, [r.error for r in mail.lines if not r.ok]
    o = mail.turn_orders()
    assert o.robber == RobberOrder(s.board.hex_by_label("D5").id, (), True)
    assert o.robber_else is not None and not o.robber_else.pirate
    assert o.knight == Knight(
        Timing.AFTER_ROLL, RobberOrder(s.board.hex_by_label("D4").id, (), True)
    )


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "Pirate moves to {label}"),
        ("en", "The pirate goes to {label}"),
        ("de", "Pirat zieht nach {label}"),
        ("da", "Sørøveren flyttes til {label}"),
        ("da", "Soeroeveren skal til {label}"),
    ],
)
def test_a_pirate_line_with_its_verb(lang: str, line: str) -> None:
    """As the robber's (`Robber moves to 9L`): the verb between the pirate and its hex was
    refused, "a hex name was expected, not 'moves'" (QA, 2026-12)."""
    ctx = _ctx(BOARDS.index(("wueste", 4)), lang)
    h = _sea_hexes(ctx.board)[10]
    assert parse_line(line.format(label=ctx.board.hexes[h].label), ctx) == RobberOrder(h, (), True)
