"""Kronlande games played whole by both bots: the legal-move view agrees with the rules on every
Kronlande order; every step keeps the cards, the VP and the title Baumeister straight and
survives both state forms and the events' JSON; the same seed plays the same game (in other
processes and under other string-hash seeds too); the bots finish their games."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest
from helpers import game
from test_determinism import _run_all

from pbm.rules import autopilot, trade
from pbm.rules.cards import play_rule
from pbm.rules.castles import castle_rule, residence_rule
from pbm.rules.events import Built, CardPlayed, Event, OrderFailed, event_from_json
from pbm.rules.kron import BUILDER_MIN, BURG, RESIDENZ, WORKSHOPS
from pbm.rules.kron_events import GoodsMade
from pbm.rules.legal import PLAYABLE, PROJECTS, LegalMoves, action_rule
from pbm.rules.orders import (
    BuildersHut,
    Castle,
    Feast,
    HarbourPrivilege,
    Make,
    MaritimeTrade,
    Residence,
    TurnOrders,
    Workshop,
)
from pbm.rules.reasons import Reason
from pbm.rules.resources import GOODS, KRON_WIDTH
from pbm.rules.robber import robber_hex_rule
from pbm.rules.round import resolve_round
from pbm.rules.serial import state_from_json, state_from_text, state_to_json, state_to_text
from pbm.rules.sim import play_game, simulate
from pbm.rules.state import GameState, Phase, Settings
from pbm.rules.workshops import make_rule, workshop_rule

GAMES = 6


@cache
def positions() -> tuple[GameState, ...]:
    """Every 3rd round of a few whole Kronlande games (3 to 6 players, both bots)."""
    out = []
    for i in range(GAMES):
        settings = Settings.for_kronlande(3 + i % 4, ("large", "huge")[i % 2])
        bot = ("autopilot", "random")[i % 2]
        for k, (state, _) in enumerate(play_game(settings, 700 + i, bot, max_rounds=120)):
            if k % 3 == 0 and state.phase == Phase.ROUNDS:
                out.append(state)
    return tuple(out)


def test_positions_have_workshops_castles_and_project_cards() -> None:
    states = positions()
    assert any(s.kron is not None and any(k >= 0 for k in s.kron.workshop) for s in states)
    assert any(s.kron is not None and BURG in s.kron.castle for s in states)
    assert any(any(c in PROJECTS for c, _ in hand) for s in states for hand in s.cards)


def test_the_kronlande_lists_are_exactly_what_the_rules_accept() -> None:
    for s in positions():
        n = len(s.owner)
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            listed = set(legal.workshops())
            for kind in WORKSHOPS:
                for c in range(n):
                    w = Workshop(kind, c)
                    ok = workshop_rule(s, p, w, check_cost=False) is None
                    assert (w in listed) == ok == (w in legal), (p, w)
            for c in range(n):
                ok = castle_rule(s, p, c, check_cost=False) is None
                assert (c in legal.castles()) == ok == (Castle(c) in legal)
                ok = residence_rule(s, p, c, check_cost=False) is None
                assert (c in legal.residences()) == ok == (Residence(c) in legal)
            for good in GOODS:
                ok = make_rule(s, p, Make(good, 1), check_cost=False) is None
                assert (good in legal.goods()) == ok == (Make(good, 2) in legal)
            hexes = legal.robber_hexes()
            for h in range(len(s.board.hexes)):
                assert (h in hexes) == (robber_hex_rule(s, p, h) is None)
            rates = legal.bank_rates()
            assert rates == [trade.harbour_rate(s, p, r) for r in range(7)]
            trades = legal.bank_trades()
            for give in range(KRON_WIDTH):
                for get in range(KRON_WIDTH):
                    t = MaritimeTrade(give, rates[give] if give < 7 else 4, get)
                    ok = trade.maritime_rule(s, p, t, check_cost=False) is None
                    assert (t in trades) == ok == (t in legal), (p, t)
            playable = legal.playable_cards()
            for card in PLAYABLE + PROJECTS:
                assert (card in playable) == (play_rule(s, p, card) is None), (p, card)
            for order in (BuildersHut(), HarbourPrivilege(), Feast(0)):
                assert (legal.problem(order) is None) == (
                    {BuildersHut: "builders_hut", HarbourPrivilege: "harbour_privilege"}.get(
                        type(order), "feast"
                    )
                    in playable
                )


def test_listed_kronlande_moves_pass_the_resolution_with_the_cost_in_hand() -> None:
    for s in positions()[::2]:
        for p in range(s.settings.players):
            rich = s.copy()
            rich.hands[p] = [9] * KRON_WIDTH
            moves = list(LegalMoves(s, p))
            assert moves == list(LegalMoves(rich, p))
            for move in moves:
                assert action_rule(rich, p, move) is None, (p, move)


def test_what_the_resolution_would_do_is_never_refused_at_receipt() -> None:
    for s in positions()[::2]:
        n = len(s.owner)
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            orders: list[object] = [Workshop(k, c) for k in WORKSHOPS for c in range(n)]
            orders += [Castle(c) for c in range(n)] + [Residence(c) for c in range(n)]
            orders += [Make(g, k) for g in range(KRON_WIDTH) for k in (0, 1, 3)]
            orders += [BuildersHut(), HarbourPrivilege()] + [Feast(r) for r in range(11)]
            orders += [MaritimeTrade(g, 4, t) for g in range(KRON_WIDTH) for t in range(10)]
            for order in orders:
                if legal.problem(order) is None:
                    assert legal.certain_problem(order) is None, (p, order)


def test_the_view_never_changes_the_state() -> None:
    for s in positions()[::4]:
        before = state_to_json(s)
        for p in range(s.settings.players):
            legal = LegalMoves(s, p)
            list(legal)
            for w in legal.workshops():
                assert legal.after(w).state.kron.workshop[w.crossing] == w.kind  # type: ignore[union-attr]
            for c in legal.castles():
                assert legal.after(Castle(c)).state.kron.castle[c] == BURG  # type: ignore[union-attr]
            for c in legal.residences():
                assert legal.after(Residence(c)).state.level[c] == 3
        assert state_to_json(s) == before


def _check_step(s: GameState, events: list[Event]) -> None:
    kron = s.kron
    assert kron is not None
    n = s.settings.players
    # Cards: the classic bank and the hands hold every resource card there is; goods >= 0.
    assert s.bank is not None and len(s.bank) == 7
    for r in range(7):
        assert s.bank[r] + sum(h[r] for h in s.hands) == s.settings.bank_count, r
    assert all(len(h) == KRON_WIDTH and min(h) >= 0 for h in s.hands)
    # VP from scratch: levels and castles.
    for p in range(n):
        vp = 0
        for c, o in enumerate(s.owner):
            if o == p:
                vp += {1: 1, 2: 3 if kron.castle[c] == BURG else 2, 3: 5}[s.level[c]]
                assert (s.level[c] == 3) == (kron.castle[c] == RESIDENZ)
        vp += 2 * (s.longest_road == p) + 2 * (s.largest_army == p) + 2 * (kron.builder == p)
        assert s.visible_vp(p) == vp
        for kind, c in enumerate(kron.workshops[p]):
            assert c < 0 or (s.owner[c] == p and kron.workshop[c] == kind)
    # Baumeister: held by someone with at least 2, and no one has more.
    counts = [kron.castles(p) for p in range(n)]
    if kron.builder >= 0:
        assert counts[kron.builder] >= BUILDER_MIN and counts[kron.builder] == max(counts)
    else:
        assert max(counts) < BUILDER_MIN
    # The robber never stands next to a Burg or Residenz (off the island, -1, when a Burg sent
    # it from a hex and no desert was free).
    assert s.robber < 0 or not any(kron.castle[c] for c in s.board.hex_crossings[s.robber])
    for e in events:
        back = event_from_json(json.loads(json.dumps(e.to_json())))
        assert back == e, e
    for back in (state_from_json(state_to_json(s)), state_from_text(state_to_text(s))):
        assert state_to_json(back) == state_to_json(s)


@pytest.mark.parametrize("bot", ["autopilot", "random"])
def test_every_step_keeps_the_invariants(bot: str) -> None:
    seen: set[str] = set()
    for i in range(4):
        settings = Settings.for_kronlande(3 + i, ("large", "huge")[i % 2])
        for s, events in play_game(settings, 40 + i, bot, max_rounds=150):
            if s.phase != Phase.SETUP:
                _check_step(s, events)
            seen.update(e.piece for e in events if isinstance(e, Built))
            seen.update(e.card for e in events if isinstance(e, CardPlayed))
            seen.update("make" for e in events if isinstance(e, GoodsMade))
    assert {"bakery", "smithy", "make"} <= seen and seen & set(PROJECTS)
    if bot == "autopilot":
        assert "castle" in seen


def test_a_round_resolves_the_same_from_a_stored_state() -> None:
    for s in positions()[::5]:
        orders = {p: autopilot.turn_orders(s, p) for p in range(s.settings.players)}
        a, ea = resolve_round(s, orders)
        b, eb = resolve_round(state_from_text(state_to_text(s)), orders)
        assert [e.values() for e in ea] == [e.values() for e in eb]
        assert state_to_json(a) == state_to_json(b)


def test_the_same_seed_plays_the_same_game() -> None:
    first = simulate(2, 5, 5, "random", "large", kronlande=True).digest()
    assert simulate(2, 5, 5, "random", "large", kronlande=True).digest() == first
    assert simulate(2, 5, 6, "random", "large", kronlande=True).digest() != first


@pytest.mark.slow  # whole simulated games, in fresh interpreters
def test_the_kronlande_digest_is_independent_of_the_hash_seed() -> None:
    args = ["-m", "pbm", "sim", "--kronlande", "--size", "huge", "--games", "3"]
    outs = _run_all([*args, "--players", "5", "--seed", "3", "--json"])
    digests = {json.loads(out)["digest"] for out in outs}
    assert len(digests) == 1


def test_the_autopilot_finishes_kronlande_games() -> None:
    for size in ("large", "huge"):
        result = simulate(6, 3 + (size == "huge") * 2, 17, "autopilot", size, kronlande=True)
        assert result.finished == 6


@pytest.mark.slow(seconds=7)  # 200 whole games on each island
@pytest.mark.parametrize("size", ["large", "huge"])
def test_the_autopilot_finishes_200_kronlande_games(size: str) -> None:
    result = simulate(200, 4, 1, "autopilot", size, kronlande=True)
    assert result.finished == 200


def test_orders_of_a_base_game_for_kronlande_are_refused() -> None:
    s = game()
    legal = LegalMoves(s, 0)
    for order in (Workshop(0, 0), Make(7, 1), Castle(0), Residence(0)):
        assert legal.problem(order) == legal.certain_problem(order) == Reason.NOT_KRONLANDE
    _, events = resolve_round(s, {0: TurnOrders(builds=(Castle(0),))}, random.Random(1))
    fails = [e for e in events if isinstance(e, OrderFailed) and e.line == "build 1"]
    assert [e.rule for e in fails] == [Reason.NOT_KRONLANDE]


@pytest.mark.parametrize("module", ["pbm.rules", "pbm.rules.events", "pbm.service.records"])
def test_kronlande_events_load_after_one_import(module: str) -> None:
    """A stored Kronlande round loads in a fresh interpreter that imported one module of the
    rules (or the service's records) and nothing that makes or tells Kronlande events."""
    import subprocess
    import sys
    from pathlib import Path

    code = (
        f"import {module}\n"
        "from pbm.rules.events import event_from_json\n"
        "for d in ({'kind': 'fish_paid', 'player': 0, 'fish': 1},\n"
        "          {'kind': 'goods_made', 'player': 0, 'good': 9, 'count': 2},\n"
        "          {'kind': 'goods_taken', 'player': 1, 'cards': [0] * 7 + [1, 0, 1]},\n"
        "          {'kind': 'feast_given', 'player': 0, 'giver': 2, 'item': 5}):\n"
        "    print(type(event_from_json(d)).__name__)\n"
    )
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=False
    )
    assert done.returncode == 0, done.stderr[-600:]
    assert done.stdout.split() == ["FishPaid", "GoodsMade", "GoodsTaken", "FeastGiven"]
