"""The bots play as a careful player would (issue 31, finding 5): the autopilot (an absent
player's seat) and the random bot never send the robber or the pirate where it stands when
their orders are written, nor their 7 where their own knight sends it in the same round; the
Seafarers autopilot writes a `Gold:` line for what its next build lacks.

What no order written before the rolls can avoid: another player's 7 or knight earlier in the
round may move the robber onto the hex a bot named (docs/rules-decisions.md, "Bots")."""

from __future__ import annotations

import random

import pytest
from helpers import crossing, game, hand, settle
from rules_fixtures import give_card, hex_id

from pbm.rules import autopilot, randombot
from pbm.rules.autopilot_sea import gold_preference
from pbm.rules.events import OrderFailed, RobberMoved
from pbm.rules.layouts import KNIGHT
from pbm.rules.orders import RobberOrder, Timing, TurnOrders
from pbm.rules.reasons import Reason
from pbm.rules.resources import COST_CITY, COST_SETTLEMENT, ERZ, GETREIDE, HOLZ, LEHM, WOLLE
from pbm.rules.rng import derive_seed
from pbm.rules.sea_events import PirateMoved
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Settings

MUST_MOVE = (Reason.ROBBER_MUST_MOVE, Reason.PIRATE_MUST_MOVE)


def _knight_position(before_roll: bool) -> GameState:
    """Seat 0 (the autopilot) holds a knight from an earlier round; before the roll it plays
    it when the robber blocks one of its hexes, after the roll when it brings the largest army
    (its third knight)."""
    s = game(round_=3)
    settle(s, 0, "C3 C4 D4")
    settle(s, 1, "D5 D6 E5")
    settle(s, 2, "E2 E3 F2")
    give_card(s, 0, KNIGHT)
    if before_roll:
        s.robber = hex_id(s, "C4")
    else:
        s.knights[0] = 2
    hand(s, 1, "2H 2E")
    return s


@pytest.mark.parametrize("before_roll", [True, False])
def test_the_autopilots_seven_never_names_the_hex_its_knight_takes(before_roll: bool) -> None:
    s = _knight_position(before_roll)
    orders = autopilot.turn_orders(s, 0)
    assert orders.knight is not None and orders.robber is not None
    assert orders.knight.timing == (Timing.BEFORE_ROLL if before_roll else Timing.AFTER_ROLL)
    knight, seven = orders.knight.robber.hex, orders.robber.hex
    assert knight != seven and s.robber not in (knight, seven)
    # The knight takes the best hex (the one the autopilot names without a knight to play).
    s.cards[0].clear()
    alone = autopilot.turn_orders(s, 0)
    assert alone.knight is None and alone.robber == RobberOrder(knight, alone.robber.victims)


def test_the_random_bots_seven_never_names_the_hex_its_knight_takes() -> None:
    s = _knight_position(before_roll=False)
    rng = random.Random(5)
    knights = 0
    for _ in range(300):
        o = randombot.random_orders(s, 0, rng)
        assert o.robber is not None and o.robber.hex != s.robber
        if o.knight is not None:
            knights += 1
            assert o.knight.robber.hex not in (o.robber.hex, s.robber)
    assert knights > 50


@pytest.mark.parametrize("bot", ["autopilot", "random"])
@pytest.mark.parametrize(
    "settings",
    [
        Settings.for_players(4),
        Settings.for_scenario("vier-inseln", 4),
        Settings.for_scenario("wueste", 3),
        Settings.for_kronlande(4),
    ],
    ids=["base", "vier-inseln", "wueste", "kronlande"],
)
def test_no_bot_sends_the_robber_where_it_stands_or_where_its_own_knight_went(
    settings: Settings, bot: str
) -> None:
    """Whole games: every robber, pirate and knight order the bot writes names another hex than
    the robber's (the pirate's) when it writes them, and its 7 another than its own knight's.
    A 7 or knight that finds the robber already there was sent there by someone else."""
    for i in range(3):
        seed = derive_seed(31, "bots", i)
        rng = random.Random(derive_seed(seed, "bot"))
        state: GameState | None = None
        for after, events in play_game(settings, seed, bot, max_rounds=60):
            if state is not None and state.phase == after.phase == "rounds":
                _check_orders(state, bot, rng)
            # Who sent the robber (False) or the pirate (True) where it stands, by an order:
            # -1 nobody this round, -2 a rule (the NMR robber, a castle built next to it).
            moved_by: dict[bool, int] = {}
            for e in events:
                if isinstance(e, (RobberMoved, PirateMoved)):
                    ordered = e.cause in ("seven", "knight")
                    moved_by[isinstance(e, PirateMoved)] = e.player if ordered else -2
                elif isinstance(e, OrderFailed) and e.rule in MUST_MOVE:
                    pirate = e.rule == Reason.PIRATE_MUST_MOVE
                    assert moved_by.get(pirate, -1) not in (-1, e.player), (seed, e)
            state = after


def _check_orders(state: GameState, bot: str, rng: random.Random) -> None:
    sea = state.sea
    pirate_at = sea.pirate if sea is not None else -1
    for p in range(state.settings.players):
        if bot == "autopilot":
            o = autopilot.turn_orders(state, p)
        else:
            o = randombot.random_orders(state, p, random.Random(rng.random()))
        named = [x for x in (o.robber, o.robber_else) if x is not None]
        for x in named + ([o.knight.robber] if o.knight else []):
            assert x.hex != (pirate_at if x.pirate else state.robber), (p, x)
        if o.knight is not None:
            k = o.knight.robber
            assert all((x.hex, x.pirate) != (k.hex, k.pirate) for x in named), (p, o)


def test_the_gold_line_asks_for_what_the_next_build_lacks_most() -> None:
    s = game()
    c = settle(s, 0, "C3 C4 D4")
    assert s.owner[c] == 0
    # A city lacks 1 Getreide and 3 Erz: Erz first, as often as it lacks it.
    hand(s, 0, "1G")
    assert gold_preference(s, 0, COST_CITY) == (ERZ, ERZ, ERZ, GETREIDE)
    # Ties go to what its buildings produce least: C3 C4 D4 is 6L 5L 3E (medium, seed 1).
    hand(s, 0, "")
    assert gold_preference(s, 0, COST_SETTLEMENT) == (HOLZ, WOLLE, GETREIDE, LEHM)
    # Paid already: what a second settlement would lack; paid twice: no line (the fewest held).
    hand(s, 0, "1H 2L 1W 1G")
    assert gold_preference(s, 0, COST_SETTLEMENT) == (HOLZ, WOLLE, GETREIDE)
    hand(s, 0, "2H 2L 2W 2G")
    assert gold_preference(s, 0, COST_SETTLEMENT) == ()
    assert crossing(s, "C3 C4 D4") == c


def test_the_seafarers_autopilot_writes_a_gold_line() -> None:
    """Every round of New Shores games: a `Gold:` line whenever its next build lacks a card."""
    settings = Settings.for_scenario("neue-ufer", 4)
    lines = 0
    for state, _ in play_game(settings, 3, max_rounds=20):
        if state.phase != "rounds":
            continue
        for p in range(4):
            o: TurnOrders = autopilot.turn_orders(state, p)
            lines += bool(o.gold)
            assert all(0 <= r < 5 for r in o.gold)
    assert lines > 40
