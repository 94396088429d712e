"""Sealed dice in the engine (issue 14, docs/fair-dice.md): the rolls of a round come from their
own stream of the game seed, drawn first, so nothing a player orders changes them; the other
random choices come from streams of their own; the standalone script of contrib/ computes the
same rolls; games of rules 1 (an older pbm's) still resolve exactly as they did."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import Dice, game, hand, settle

from pbm.rules import autopilot, resolve_round
from pbm.rules.events import NmrRobberRoll, RobberMoved, Rolled
from pbm.rules.layouts import KNIGHT
from pbm.rules.orders import (
    DiscardPreference,
    Knight,
    MaritimeTrade,
    RobberOrder,
    Timing,
    TurnOrders,
)
from pbm.rules.rng import (
    DIE_LIMIT,
    dice_stream,
    is_nonce,
    nmr_robber_dice,
    round_rolls,
    seal,
    seal_check,
)
from pbm.rules.serial import state_from_json, state_from_text, state_to_json, state_to_text
from pbm.rules.setup import place_setup, place_setup_automatic
from pbm.rules.ships import free_end
from pbm.rules.sim import play_game
from pbm.rules.state import RULES, GameState, Phase, Settings, new_game
from pbm.store import codec

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "contrib" / "verify_dice.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("verify_dice", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NONCE = "0123456789abcdef" * 2


def _sh(command: str) -> str:
    return subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=True).stdout


def test_the_seal_is_sha256_of_seed_colon_nonce() -> None:
    seed = 2**127 + 98765
    assert seal(seed, NONCE) == hashlib.sha256(f"{seed}:{NONCE}".encode()).hexdigest()
    # The command the end mail prints, and the Python line of docs/fair-dice.md and the guides.
    assert seal_check(seed, NONCE) == f"printf %s {seed}:{NONCE} | sha256sum"
    assert _sh(seal_check(seed, NONCE)).split()[0] == seal(seed, NONCE)
    doc = (ROOT / "docs" / "fair-dice.md").read_text(encoding="utf-8")
    [python] = [line for line in doc.splitlines() if line.startswith("python3 -c ")]
    line = python.replace("python3", sys.executable, 1).replace("SEED:NONCE", f"{seed}:{NONCE}")
    assert _sh(line).strip() == seal(seed, NONCE)
    # Even a seed anyone would try first is hidden: its seal is none of the small seeds'.
    small = {seal(s) for s in range(1000)}
    assert seal(5, NONCE) not in small and seal(5, NONCE) != seal(5, "f" * 32)


def test_a_game_without_a_nonce_has_the_seal_of_its_seeds_digits() -> None:
    """Games created before seal nonces: SHA-256 of the seed alone, as their mails said."""
    seed = 281474976710655
    assert seal(seed) == hashlib.sha256(str(seed).encode()).hexdigest()
    assert seal_check(seed) == f"printf %s {seed} | sha256sum"
    assert _sh(seal_check(seed)).split()[0] == seal(seed) != seal(seed, NONCE)


@pytest.mark.parametrize(
    "nonce", ["0" * 31, "0" * 33, "G" * 32, "ABCDEF" + "0" * 26, " " + "0" * 31]
)
def test_a_nonce_is_32_lower_case_hex_digits(nonce: str) -> None:
    assert is_nonce(NONCE) and not is_nonce(nonce)
    with pytest.raises(ValueError, match="32 lower-case hex digits"):
        seal(5, nonce)


def test_dice_are_fair_faces_of_the_bytes_below_252() -> None:
    """Each byte below 252 is one die (byte % 6 + 1), each face 42 bytes: no face favoured."""
    faces = Counter(b % 6 + 1 for b in range(DIE_LIMIT))
    assert set(faces.values()) == {42} and sorted(faces) == [1, 2, 3, 4, 5, 6]
    block = hashlib.sha256(b"7:dice:1:0").digest()
    kept = [b % 6 + 1 for b in block if b < DIE_LIMIT]
    stream = dice_stream("7:dice:1")
    assert [next(stream) for _ in kept] == kept
    counts = Counter(d for _, d in zip(range(60_000), dice_stream("fair"), strict=False))
    assert all(abs(n - 10_000) < 400 for n in counts.values()), counts


def test_a_rounds_rolls_are_its_stream_in_build_order() -> None:
    s = game(round_=3)
    _, events = resolve_round(s, {p: TurnOrders() for p in range(4)})
    rolls = [(e.player, e.die1, e.die2) for e in events if isinstance(e, Rolled)]
    order = s.build_order()
    assert rolls == [(p, a, b) for p, (a, b) in zip(order, round_rolls(s.seed, 3, 4), strict=True)]


def _seven_for(seed_from: int) -> tuple[int, int]:
    """A seed whose round 1 gives seat 0 a 7 (so discards and the robber happen)."""
    for seed in range(seed_from, seed_from + 500):
        a, b = round_rolls(seed, 1, 4)[0]
        if a + b == 7:
            return seed, 1
    raise AssertionError("no 7")


def test_nothing_a_player_orders_changes_the_rolls() -> None:
    """A discard list, a knight, a missing robber order, an NMR: other random draws (cards
    discarded at random, the victim and the card stolen, the NMR robber), the same rolls."""
    seed, _ = _seven_for(1)
    s = game(seed=seed)
    for p, site in enumerate(("C1 C2 D2", "C3 C4 D4", "E2 E3 F2", "B3 B4 C4")):
        settle(s, p, site)
        hand(s, p, "3H 3L 3W")
    s.cards[1] = [(KNIGHT, 0)]
    target = next(h for h in s.board.robber_hexes if h != s.robber)
    variants = [
        {p: TurnOrders() for p in range(4)},
        {p: TurnOrders(discard=DiscardPreference((2, 2, 1))) for p in range(4)},
        {0: None, 1: TurnOrders(knight=Knight(Timing.BEFORE_ROLL, RobberOrder(target, (0,))))},
        {0: TurnOrders(robber=RobberOrder(target, (1,))), 1: None, 2: None, 3: None},
    ]
    seen = []
    for orders in variants:
        _, events = resolve_round(s, orders)
        seen.append([(e.player, e.die1, e.die2) for e in events if isinstance(e, Rolled)])
    assert seen[0][0][1] + seen[0][0][2] == 7
    assert all(rolls == seen[0] for rolls in seen), seen


def test_the_contrib_script_computes_the_engines_rolls() -> None:
    script = _script()
    for seed in (7, 2**127 + 3, 281474976710655):
        for r in (1, 2, 17):
            for n in (3, 4, 6):
                mine = round_rolls(seed, r, n)
                theirs = script.round_rolls(str(seed), r, n)
                order = [(r - 1 + i) % n for i in range(n)]
                assert theirs == [(s, a, b) for s, (a, b) in zip(order, mine, strict=True)]
            dice = nmr_robber_dice(seed, r, 2)
            assert script.nmr_robber_rolls(str(seed), r, 2, 3) == [
                (next(dice), next(dice)) for _ in range(3)
            ]
    # A whole game by the bots: every roll in its events is the script's.
    for state, events in play_game(Settings.for_players(4), 11, max_rounds=12):
        rolled = [(e.player, e.die1, e.die2) for e in events if isinstance(e, Rolled)]
        if rolled and state.phase == Phase.ROUNDS:
            expected = script.round_rolls("11", state.round - 1, 4)
            assert rolled == expected[: len(rolled)]


def test_the_contrib_script_runs_with_the_standard_library_alone() -> None:
    seed = 123456789
    out = subprocess.run(
        [
            *(sys.executable, "-I", "-S", str(SCRIPT), str(seed)),
            *("--nonce", NONCE.upper(), "--seal", seal(seed, NONCE)),
            *("--players", "3", "--rounds", "2", "--colours", "rot,blau,gelb", "--nmr"),
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f"seal ok: sha256 of seed:nonce is {seal(seed, NONCE)}"
    (a, b), (c, d), (e, f) = round_rolls(seed, 2, 3)
    assert f"round 2: blau {a}+{b}={a + b}, gelb {c}+{d}={c + d}, rot {e}+{f}={e + f}" in lines
    wrong = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            str(seed),
            "--seal",
            "0" * 64,
            "--players",
            "3",
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
    )
    assert wrong.returncode == 1 and wrong.stdout.startswith("seal WRONG")
    # A seed or a nonce not as the report writes it is refused, not hashed.
    for bad in (["0123"], ["12a"], [str(seed), "--nonce", "123"], [str(seed), "--nonce", "x" * 32]):
        refused = subprocess.run(
            [sys.executable, str(SCRIPT), *bad, "--players", "3", "--rounds", "1"],
            capture_output=True,
            text=True,
        )
        assert refused.returncode == 2 and "error:" in refused.stderr, bad


def test_the_nmr_robber_prefers_a_hex_next_to_an_opponent() -> None:
    """Rules 2: an absent player's 7 does not rob the absent player's own hexes while a hex with
    an opponent next to it can take the robber (rules 1 drew among every settled hex)."""
    for seed in range(1, 200):
        s = game(seed=seed)
        settle(s, 0, "C1 C2 D2")  # the absent roller's own hexes: C2, D2 (and C1, sea)
        settle(s, 1, "E4 E5 F4")
        hand(s, 1, "2L")
        orders = {0: None, 1: TurnOrders(), 2: TurnOrders(), 3: TurnOrders()}
        _, events = resolve_round(s, orders, rng=Dice([(3, 4), (1, 2), (1, 2), (1, 2)], seed))
        [moved] = [e for e in events if isinstance(e, RobberMoved)]
        corners = s.board.hex_crossings[moved.hex]
        assert any(s.owner[c] == 1 for c in corners), (seed, moved)
        s.rules = 1
        _, legacy = resolve_round(s, orders, rng=Dice([(3, 4), (1, 2), (1, 2), (1, 2)], seed))
        hexes = {e.hex for e in legacy if isinstance(e, RobberMoved)}
        if any(all(s.owner[c] in (-1, 0) for c in s.board.hex_crossings[h]) for h in hexes):
            return  # rules 1 robbed the absent player's own hex here; rules 2 did not
    pytest.fail("rules 1 never put the robber on the absent player's own hex")


def test_a_bank_trade_takes_what_a_short_classic_bank_still_has() -> None:
    """Seed 002, "Banktausch nimmt nur, was sie noch hat": 8H for 2E with one E left trades
    4H for 1E (rules 1 failed the whole trade)."""
    s = game()
    hand(s, 0, "8H")
    assert s.bank is not None
    s.bank[4] = 1
    orders = {0: TurnOrders(builds=(MaritimeTrade(0, 8, 4, 2),))}
    new, _ = resolve_round(s, orders, rng=Dice([(1, 2)] * 4))
    assert new.hands[0] == [4, 0, 0, 0, 1] and new.bank is not None and new.bank[4] == 0
    s.rules = 1
    old, _ = resolve_round(s, orders, rng=Dice([(1, 2)] * 4))
    assert old.hands[0] == [8, 0, 0, 0, 0]


def test_a_state_stored_without_rules_is_rules_1() -> None:
    s = new_game(Settings.for_players(4), 5)
    assert s.rules == RULES == 4
    data = state_to_json(s)
    assert data["rules"] == 4 and state_from_json(data) == s
    del data["rules"]
    assert state_from_json(data).rules == 1
    text = state_to_text(s)
    assert text.endswith(" rules=4") and state_from_text(text) == s
    assert state_from_text(text.removesuffix(" rules=4")).rules == 1


#: The orders of whole games as the bots of pbm 7ecd49d wrote them (setup placements, then each
#: round's orders by seat), so that these games replay whatever the bots write now: the
#: autopilot and the random bot changed since (issue 31), the rules these games were played by
#: must not. Three base games by rules 1, and a Seafarers game by rules 2 (The Great Crossing,
#: whose ship lines are cut by opponents' buildings in twelve positions: rules 3 reads those
#: lines as open, rules 2 as closed); then the three games of `RULES_2`, as the bots of pbm
#: 2542e5d (before issue 31) wrote them.
FROZEN = Path(__file__).parent / "fixtures" / "bot_orders_old_rules.json.gz"

#: A digest over every step's events and state: the rules-1 games' as pbm resolved them before
#: sealed dice (commit c8fa5e1; JSON without the `rules` key, which pbm did not have), the
#: rules-2 game's as pbm 7ecd49d resolved it.
OLD_RULES = {
    (3, "medium", 5): "f45a75f6e1bdb3e57936d035d745fcfdd633a7ad00f8f7085d1f944268cfd4f8",
    (4, "large", 6): "509e93d521c96ad817e2d83ed925d72123c8af658da74c2ca554f54b87d3a426",
    (5, "medium", 8): "cb8e09c79b1b3433d9214f554a7d2151c38db297b809939e51368d0db443f50a",
    (4, "ueberfahrt", 3): "c02ec794e8470a313363babf7e0a6ad77c3a5265819655a7690a857315709257",
}


def _frozen_games() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(gzip.decompress(FROZEN.read_bytes()))["games"]
    return games


@pytest.mark.parametrize("i", range(4))
def test_games_of_older_rules_resolve_as_the_older_pbm_resolved_them(i: int) -> None:
    # (The games after the fourth are those of `RULES_2`, with their own test.)
    """Their recorded rounds must replay. Rules 1: one generator per round, dice drawn as
    rolled, the NMR robber among every settled hex, bank trades all or nothing, the deck by
    the island. Rules 2: a ship line cut by an opponent's building is closed (its ships stay)."""
    g = _frozen_games()[i]
    players, rules = g["players"], g["rules"]
    if "scenario" in g:
        settings = Settings.for_scenario(g["scenario"], players)
        key = (players, g["scenario"], g["seed"])
    else:
        settings = Settings.for_players(players, g["size"])
        key = (players, g["size"], g["seed"])
    # A stored game keeps the board it was laid by (these: board version 1).
    state = new_game(settings, g["seed"], rules=rules, board_version=1)
    h = hashlib.sha256()
    cut = 0
    for step in g["steps"]:
        if state.phase == Phase.SETUP:
            state, events, placed = place_setup(state, codec.from_data(step))
            if not placed:
                state, more = place_setup_automatic(state)
                events += more
        else:
            orders = {p: None if o is None else codec.from_data(o) for p, o in enumerate(step)}
            state, events = resolve_round(state, orders)
            cut += _cut_lines(state)
        d = state_to_json(state)
        assert d.pop("rules") == rules
        if rules > 1:
            d["rules"] = rules
        h.update(json.dumps([e.to_json() for e in events], sort_keys=True).encode())
        h.update(json.dumps(d, sort_keys=True).encode())
    assert h.hexdigest() == OLD_RULES[key]
    assert cut == (12 if rules == 2 else 0)


def _cut_lines(state: GameState) -> int:
    """Ships whose line rules 2 reads as closed and rules 3 as open (an opponent's building
    between them and the player's next ship)."""
    sea = state.sea
    if sea is None:
        return 0
    now = state.copy()
    now.rules = RULES
    return sum(
        free_end(state, sea, p, e) != free_end(now, sea, p, e)
        for p in range(state.settings.players)
        for e in sea.ships[p]
    )


#: Games played by rules 2 (before each refusal had a reason of its own, issue 27): a digest over
#: every step's events and state, taken with the pbm of rules 2. Their failed ships, settlements
#: and ship moves carry the shared reasons (`not_connected`, `next_to_pirate`, …).
RULES_2 = [
    ("vier-inseln", 4, 1, 80, "f5a64f0d268d58dc7feb45ff6302fb4440d64534e06a2cb454b45b478822b36c"),
    ("", 4, 5, 150, "57bc16e35385ed6811c68204f2386a01da03fcbe56e2f9dfa00e3ef49006dfc7"),
    ("kronlande", 4, 3, 80, "3fc15337e512b9d832106a04f49a58f02610b05d11b76aabe25d1cbaccd5a03e"),
]


@pytest.mark.parametrize(("kind", "players", "seed", "rounds", "digest"), RULES_2)
def test_games_of_rules_2_resolve_as_before_the_reasons_were_split(
    kind: str, players: int, seed: int, rounds: int, digest: str
) -> None:
    """Their recorded rounds must replay: a ship, a settlement or a ship move refused by rules 2
    keeps the reason rules 2 gave (`reasons.SPLIT_RULES`). The random bot's orders of those
    games are frozen in `FROZEN` (the bots changed since, issue 31; the rules must not)."""
    (g,) = [
        g
        for g in _frozen_games()
        if g["rules"] == 2
        and g["seed"] == seed
        and (g.get("scenario") or ("kronlande" if "kronlande" in g else "")) == kind
    ]
    if kind == "kronlande":
        settings = Settings.for_kronlande(players, g["kronlande"])
    elif kind:
        settings = Settings.for_scenario(kind, players)
    else:
        settings = Settings.for_players(players, g["size"])
    state = new_game(settings, seed, rules=2, board_version=1)
    h = hashlib.sha256()
    rules: Counter[str] = Counter()
    for step in g["steps"]:
        if state.phase == Phase.SETUP:
            state, events, placed = place_setup(state, codec.from_data(step))
            if not placed:
                state, more = place_setup_automatic(state)
                events += more
        else:
            orders = {p: None if o is None else codec.from_data(o) for p, o in enumerate(step)}
            state, events = resolve_round(state, orders)
        assert state.rules == 2
        h.update(json.dumps([e.to_json() for e in events], sort_keys=True).encode())
        h.update(json.dumps(state_to_json(state), sort_keys=True).encode())
        rules.update(str(getattr(e, "rule", "")) for e in events)
    assert h.hexdigest() == digest
    if kind == "vier-inseln":
        assert rules["not_connected"] and rules["next_to_pirate"]


#: The members rules 3 split off, by the member rules 2 gave for the same refusal.
SPLIT = {
    "settlement_not_connected": "not_connected",
    "settlement_not_reached": "not_connected",
    "ship_not_connected": "not_connected",
    "ship_held_by_pirate": "next_to_pirate",
    "ship_same_place": "occupied",
    "ship_side_occupied": "road_occupied",
    "ship_not_at_settlement": "road_not_at_settlement",
    "no_ships": "not_sea",
}


@pytest.mark.parametrize("kind", ["vier-inseln", "neue-ufer", "ozeanien"])
def test_rules_3_resolve_as_rules_2_but_for_the_reasons(kind: str) -> None:
    """Rules 3 change the reasons of refusals and nothing else: the same game by both rules
    has the same states and events, once the split reasons are read as the old ones."""
    settings = Settings.for_scenario(kind, 4)
    old = play_game(settings, 2, "random", 40, rules=2)
    new = play_game(settings, 2, "random", 40, rules=3)
    split = 0
    for (s2, e2), (s3, e3) in zip(old, new, strict=True):
        d2, d3 = state_to_json(s2), state_to_json(s3)
        assert (d2.pop("rules"), d3.pop("rules")) == (2, 3) and d2 == d3
        read = []
        for e in e3:
            d = e.to_json()
            for key in ("rule", "reason"):
                if d.get(key) in SPLIT:
                    d[key] = SPLIT[d[key]]
                    split += 1
            read.append(d)
        assert read == [e.to_json() for e in e2]
    assert split > 0


def test_rules_4_resolve_as_rules_3_but_for_why_the_nmr_robber_rolls_again() -> None:
    """Rules 4 add the reasons of the NMR robber's rolls rolled again (`NmrRobberRoll.why`)
    and change nothing else: the same rounds by both rules have the same states and events,
    once the reasons are left out; a round by rules 3 stores none."""
    why: Counter[str] = Counter()
    for seed in range(1, 200):
        a, b = round_rolls(seed, 1, 4)[0]
        if a + b != 7:
            continue
        s = game(seed=seed)
        for p, site in enumerate(("C1 C2 D2", "C3 C4 D4", "E2 E3 F2", "B3 B4 C4")):
            settle(s, p, site)
        orders = {0: None, 1: TurnOrders(), 2: TurnOrders(), 3: TurnOrders()}
        s.rules = 3
        old, old_events = resolve_round(s, orders)
        s.rules = 4
        new, new_events = resolve_round(s, orders)
        d3, d4 = state_to_json(old), state_to_json(new)
        assert (d3.pop("rules"), d4.pop("rules")) == (3, 4) and d3 == d4
        read = []
        for e in new_events:
            d = e.to_json()
            why.update(d.pop("why", ()))
            read.append(d)
        assert read == [e.to_json() for e in old_events]
    assert {"seven", "unsettled", "own", "robber_must_move"} <= set(why), why


def test_the_deck_goes_by_the_players_and_an_old_game_keeps_its_own() -> None:
    assert len(new_game(Settings.for_players(4, "huge"), 1).deck) == 25
    assert len(new_game(Settings.for_players(5, "medium"), 1).deck) == 34
    assert len(new_game(Settings.for_players(4, "huge"), 1, rules=1).deck) == 34
    # The autopilot still plays a rules-2 game through.
    st = new_game(Settings.for_players(4), 3)
    assert autopilot.turn_orders(st, 0) is not None


def test_nmr_robber_rolls_come_from_the_rollers_stream() -> None:
    seed, _ = _seven_for(1)
    s = game(seed=seed)
    settle(s, 1, "C1 C2 D2")
    _, events = resolve_round(s, {0: None, 1: TurnOrders(), 2: TurnOrders(), 3: TurnOrders()})
    rollers = {e.player for e in events if isinstance(e, NmrRobberRoll)}
    assert 0 in rollers
    for p in rollers:
        rolls = [(e.die1, e.die2) for e in events if isinstance(e, NmrRobberRoll) and e.player == p]
        dice = nmr_robber_dice(seed, 1, p)
        assert rolls == [(next(dice), next(dice)) for _ in rolls]


def test_the_script_in_the_docs_is_the_script_in_contrib() -> None:
    doc = (ROOT / "docs" / "fair-dice.md").read_text(encoding="utf-8")
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    assert block == SCRIPT.read_text(encoding="utf-8")
