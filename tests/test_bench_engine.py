"""`pbm bench engine` measures pbm's engine in a process of its own: its peak RSS is that
process's, not the (larger) peak of the process that runs the bench; its random player chooses
among the affordable actions only."""

from __future__ import annotations

import json
import random
import resource

import pytest

from pbm.bench.affordable import affordable_orders, measure
from pbm.bench.engine import main
from pbm.bench.kron_engine import measure as measure_kron
from pbm.rules.orders import BuyCard, City, MaritimeTrade, Road, Settlement, YearOfPlenty
from pbm.rules.randombot import random_setup
from pbm.rules.resources import COST_CARD, COST_CITY, COST_ROAD, COST_SETTLEMENT
from pbm.rules.round import resolve_round
from pbm.rules.setup import place_setup
from pbm.rules.state import Phase, Settings, new_game


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_pbm_side_reports_its_own_peak_rss(capsys: pytest.CaptureFixture[str]) -> None:
    # Make this process's peak clearly larger than any engine run: 200 MB touched.
    ballast = bytearray(200 * 1024 * 1024)
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 200 * 1024
    del ballast

    args = ["--games", "2", "--sea-games", "0", "--kron-games", "0", "--skip-catanatron"]
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["pbm_games"] == 2 and result["pbm_rolls"] > 0
    assert result["catanatron_rss_mb"] is None and result["catanatron_rolls_per_s"] is None
    assert result["pbm_imports"] == ["pbm"]
    # A bare interpreter with the engine is some 15-25 MB; inherited, it would be over 200.
    assert 5 < result["pbm_rss_mb"] < 80, result
    assert result["rss_mb"] == result["pbm_rss_mb"]
    assert "RUSAGE_SELF" in result["rss_measure"]

    # The games are reproducible: the same seeds play the same games in this process.
    assert result["pbm_digest"] == measure(2, 1)["digest"]
    for key in ("pbm_rolls_per_s", "pbm_games_per_s", "pbm_finished", "pbm_policy", "counted"):
        assert key in result, key
    assert result["scenarios"] == {}  # --sea-games 0
    assert result["kronlande"] is None  # --kron-games 0


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_seafarers_rows(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--games", "1", "--sea-games", "1", "--scenario", "wueste", "--kron-games", "0"]
    args.append("--skip-catanatron")
    assert main([*args, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    row = result["scenarios"]["wueste"]
    assert row["games"] == 1 and row["rss_mb"] is not None
    assert set(row) >= {"rolls_per_s", "games_per_s", "finished", "digest"}


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_kronlande_row(capsys: pytest.CaptureFixture[str]) -> None:
    """Kronlande is a board of the bench, pbm alone, in a process of its own, played by the
    random bot that knows its builds (the affordable player knows the base five resources)."""
    args = ["--games", "1", "--sea-games", "0", "--kron-games", "2", "--skip-catanatron"]
    assert main([*args, "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["kronlande"]
    assert row["size"] == "large" and row["players"] == 4 and row["games"] == 2
    assert row["rss_mb"] is not None and row["finished"] >= 1 and row["rolls"] > 0
    assert row["rolls_per_s"] > 0 and "random bot" in row["policy"]
    # The same seeds play the same games in this process.
    assert row["digest"] == measure_kron(2, 1)["digest"]


def test_affordable_orders_are_affordable() -> None:
    """Every line the benchmark's player writes is paid from the hand it had, in order (a bank
    trade adds its card first): it chooses among the affordable actions only."""
    state = new_game(Settings.for_players(4), 7)
    rng = random.Random(3)
    while state.phase == Phase.SETUP:
        state, _, _ = place_setup(state, random_setup(state, rng))
    costs = {
        Road: COST_ROAD,
        Settlement: COST_SETTLEMENT,
        City: COST_CITY,
        BuyCard: COST_CARD,
    }
    written = 0
    for _ in range(60):
        if state.phase != Phase.ROUNDS:
            break
        orders = {p: affordable_orders(state, p, rng) for p in range(4)}
        for p, o in orders.items():
            hand = list(state.hands[p])
            for line in o.builds:
                if isinstance(line, MaritimeTrade):
                    hand[line.give] -= line.give_count
                    hand[line.get] += 1
                elif isinstance(line, YearOfPlenty):
                    hand[line.first] += 1
                    hand[line.second] += 1
                elif type(line) in costs:
                    hand = [h - c for h, c in zip(hand, costs[type(line)], strict=True)]
                written += 1
                assert min(hand) >= 0, (line, state.hands[p])
        state, _ = resolve_round(state, orders)
    assert written > 20


def test_turn_orders_made_by_slots_equal_the_constructors() -> None:
    """The player's `_turn_orders` sets every field by its slot: the same orders as
    `TurnOrders(...)`, every field (a new one too) set."""
    from pbm.bench.affordable import _turn_orders
    from pbm.rules.orders import Knight, Monopoly, RobberOrder, Timing, TurnOrders

    robber = RobberOrder(7, (2, 1))
    lines = (Road(3), BuyCard(), MaritimeTrade(0, 4, 2))
    for knight, monopoly, builds in [
        (None, None, ()),
        (Knight(Timing.AFTER_ROLL, robber), None, lines),
        (None, Monopoly(3), lines[:1]),
    ]:
        made = _turn_orders(robber, knight, monopoly, builds)
        expected = TurnOrders(robber=robber, knight=knight, monopoly=monopoly, builds=builds)
        assert type(made) is TurnOrders
        for name in TurnOrders.__slots__:
            assert getattr(made, name) == getattr(expected, name), name
        assert made == expected and hash(made) == hash(expected)
