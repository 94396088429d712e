"""Oceania's fog (issue 18, spec seafarers.md "Fog"): the boards and their hidden stacks, the
discovery of fog hexes by roads and ships in the build step (the card it pays, gold by the
`Gold:` preference, the bank's shortage, several hexes in label order), the Weite See rules
along the fog, and the state keeping its discoveries."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections import Counter, deque

import pytest
from helpers import Dice, hand

from pbm.rules import fog
from pbm.rules.board import Terrain, hex_neighbours
from pbm.rules.building import road_rule, settlement_site_rule
from pbm.rules.events import BankShort, Built, Produced
from pbm.rules.gold import GoldChoices
from pbm.rules.legal import LegalMoves
from pbm.rules.orders import MoveShip, Road, RoadBuilding, RobberOrder, Settlement, Ship, TurnOrders
from pbm.rules.pirate import pirate_hex_rule
from pbm.rules.reasons import Reason
from pbm.rules.resources import ERZ, LEHM, LETTERS_DE
from pbm.rules.robber import robber_target_rule
from pbm.rules.round import resolve_round
from pbm.rules.scenarios import SCENARIOS, scenario_board
from pbm.rules.scenarios.data import read_map
from pbm.rules.scenarios.lay import RED
from pbm.rules.sea_events import HexDiscovered
from pbm.rules.serial import state_from_json, state_from_text, state_to_json, state_to_text
from pbm.rules.ships import place_ship, ship_rule
from pbm.rules.sim import play_game, simulate
from pbm.rules.special import setup_area_ok
from pbm.rules.state import GameState, Phase, Settings, new_game

BOARDS = SCENARIOS["ozeanien"].boards or {}


def _after_setup(players: int = 3, seed: int = 3) -> GameState:
    for state, _ in play_game(Settings.for_scenario("ozeanien", players), seed, max_rounds=0):
        if state.phase == Phase.ROUNDS:
            return state
    raise AssertionError("setup did not end")


def _quiet(s: GameState) -> list[tuple[int, int]]:
    """Rolls (one per player) whose total pays nobody and is no 7."""
    for total in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        hexes = s.board.number_hexes.get(total, ())
        if all(all(s.owner[c] < 0 for c in s.board.hex_crossings[h]) for h in hexes):
            d1 = min(6, total - 1)
            return [(d1, total - d1)] * s.settings.players
    raise AssertionError("no quiet total")


def _alone(s: GameState, p: int, o: TurnOrders) -> tuple[GameState, list]:
    orders: dict[int, TurnOrders | None] = {q: TurnOrders() for q in range(s.settings.players)}
    orders[p] = o
    return resolve_round(s, orders, Dice(_quiet(s)))


def _ship_route(s: GameState, p: int) -> list[int]:
    """The shortest line of ships from p's buildings to a crossing touching fog (any length)."""
    assert s.sea is not None
    b = s.board
    start = sorted(set(s.settlements[p]) | set(s.cities[p]))
    prev: dict[int, tuple[int, int]] = {}
    seen = set(start)
    queue = deque(start)
    while queue:
        c = queue.popleft()
        if b.crossing_fog[c]:
            out = []
            while c in prev:
                c, e = prev[c]
                out.append(e)
            return out[::-1]
        for e in b.crossing_paths[c]:
            if not b.path_sea[e] or s.sea.ship[e] >= 0 or s.road[e] >= 0:
                continue
            if s.sea.pirate in b.path_hexes[e]:
                continue
            nxt = next(x for x in b.path_crossings[e] if x != c)
            if nxt not in seen and s.owner[nxt] in (-1, p):
                seen.add(nxt)
                prev[nxt] = (c, e)
                queue.append(nxt)
    return []


def _to_the_fog(players: int = 3, seed: int = 3) -> tuple[GameState, int, int]:
    """A state after the setup where seat p has a settlement on the main island's coast and
    ships from it one side short of the fog: (state, p, the side whose ship reaches it)."""
    s = _after_setup(players, seed)
    assert s.sea is not None
    p = s.build_order()[0]
    best: tuple[int, int, list[int]] | None = None
    for c in range(len(s.board.crossing_hexes)):
        if settlement_site_rule(s, c) is not None or not setup_area_ok(s, s.sea, c):
            continue
        s.owner[c], s.level[c] = p, 1
        s.rebuild_indexes()
        route = _ship_route(s, p)
        s.owner[c], s.level[c] = -1, 0
        s.rebuild_indexes()
        if len(route) >= 2 and (best is None or len(route) < len(best[2])):
            best = (c, len(route), route)
    assert best is not None, "a coast site with a ship line to the fog"
    c, _, route = best
    s.owner[c], s.level[c] = p, 1
    s.rebuild_indexes()
    for e in route[:-1]:
        place_ship(s, s.sea, p, e, [], free=True)
    s.round += 1  # the ships stand from an earlier round
    assert fog.fog_reached(s.board, route[-1])
    assert not any(fog.fog_reached(s.board, e) for e in route[:-1])
    return s, p, route[-1]


# -- the boards and the stacks ---------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_boards_hide_twelve_fog_hexes_beyond_the_strait(players: int) -> None:
    for seed in range(10):
        b = scenario_board("ozeanien", players, seed)
        hidden = [h for h in b.hexes if h.terrain == Terrain.FOG]
        assert len(hidden) == 12 and b.fog == tuple(h.id for h in hidden)
        # Nothing of a fog hex shows: no token, resource, area or harbour.
        assert all(
            (h.number, h.resource, h.area, h.harbor) == (None, None, None, None) for h in hidden
        )
        # Fog is neither land nor sea: no road, ship or settlement along it on its account.
        for e, (a, c) in enumerate(b.path_hexes):
            kinds = {b.hexes[a].terrain, b.hexes[c].terrain}
            if kinds == {Terrain.FOG}:
                assert not b.path_land[e] and not b.path_sea[e]
        assert all(b.crossing_fog[c] for h in b.fog for c in b.hex_crossings[h])


@pytest.mark.parametrize("players", [3, 4])
def test_fog_stacks_hold_the_spec_counts_and_come_from_the_seed(players: int) -> None:
    data = BOARDS[players]
    assert Counter(data.fog_tiles) == Counter(
        {"~": 2, "$": 2, **Counter(t for t in data.fog_tiles if t in "HLWGE")}
    )
    assert sum(t in "HLWGE" for t in data.fog_tiles) == 8
    assert len(data.fog_tokens) == 10 and not RED & set(data.fog_tokens)
    assert len(data.fog_tiles) == len(read_map(data.map).fog)
    seen = set()
    for seed in range(20):
        tiles, tokens = fog.stacks("ozeanien", players, seed)
        assert sorted(tiles) == sorted(data.fog_tiles)
        assert sorted(tokens) == sorted(data.fog_tokens)
        assert fog.stacks("ozeanien", players, seed) == (tiles, tokens)
        seen.add((tiles, tokens))
    assert len(seen) == 20
    assert fog.stacks("wueste", players, 1) == ("", ())


@pytest.mark.parametrize("players", [3, 4])
def test_no_start_settlement_reaches_the_fog(players: int) -> None:
    """The strait keeps the fog out of the setup: no start site's road or ship touches it."""
    for seed in range(5):
        s = new_game(Settings.for_scenario("ozeanien", players), seed)
        assert s.sea is not None
        legal = LegalMoves(s, 0)
        sites = [c for c in legal.sites() if setup_area_ok(s, s.sea, c)]
        assert sites
        for c in sites:
            for e in s.board.crossing_paths[c]:
                assert fog.fog_reached(s.board, e) == []


@pytest.mark.parametrize("players", [3, 4])
def test_red_tokens_stay_apart_whatever_the_order_of_discovery(players: int) -> None:
    rng = random.Random(5)
    for seed in range(30):
        s = new_game(Settings.for_scenario("ozeanien", players), seed)
        assert s.sea is not None
        order = list(s.board.fog)
        rng.shuffle(order)
        for h in order:
            if s.board.hexes[h].terrain != Terrain.FOG:
                continue
            e = next(e for e, pair in enumerate(s.board.path_hexes) if h in pair)
            fog.discover(s, 0, e, [])
        b = s.board
        assert not b.fog
        at = {(h.row, h.x): h for h in b.hexes}
        for h in b.hexes:
            if h.number in RED:
                assert h.terrain != Terrain.GOLD
                assert all(at[n].number not in RED for n in hex_neighbours((h.row, h.x)) if n in at)


# -- discovery --------------------------------------------------------------------------------


def test_a_ship_reaching_the_fog_discovers_it_in_the_build_step() -> None:
    s, p, last = _to_the_fog()
    hand(s, p, "1H 1W")
    hidden = fog.fog_reached(s.board, last)
    tiles, tokens = fog.stacks("ozeanien", 3, s.seed)
    new, events = _alone(s, p, TurnOrders(builds=(Ship(last),)))
    found = [e for e in events if isinstance(e, HexDiscovered)]
    # Every fog hex at the ship's two ends, in label order, from the top of the stacks.
    assert [e.hex for e in found] == hidden == sorted(hidden)
    assert [e.tile for e in found] == list(tiles[: len(hidden)])
    land = [e for e in found if e.tile != fog.SEA_TILE]
    assert [e.number for e in land] == list(tokens[: len(land)])
    assert events.index(Built(p, "ship", last, False)) < events.index(found[0])
    assert new.sea is not None
    assert [(h, t) for h, t, _ in new.sea.fog] == [(e.hex, e.tile) for e in found]
    for e in found:
        x = new.board.hexes[e.hex]
        assert x.terrain != Terrain.FOG and x.number == e.number
        assert new.board.hexes[e.hex].label == s.board.hexes[e.hex].label
    # Each land hex paid a card of its resource at once (the bank is full); sea pays nothing.
    paid = [e for e in events if isinstance(e, Produced) and e.player == p]
    assert [x.hex for x in paid] == [e.hex for e in land]
    for x in paid:
        tile = next(e.tile for e in found if e.hex == x.hex)
        if tile in LETTERS_DE:
            assert x.resource == LETTERS_DE.index(tile)
    assert sum(new.hands[p]) == len(land)


def test_several_hexes_are_found_in_label_order_and_pay_each() -> None:
    s, p, last = _to_the_fog()
    tiles, _ = fog.stacks("ozeanien", 3, s.seed)
    events: list = []
    hidden = fog.fog_reached(s.board, last)
    assert s.sea is not None
    place_ship(s, s.sea, p, last, events, free=True)
    fog.discover(s, p, last, events)
    assert [e.hex for e in events if isinstance(e, HexDiscovered)] == sorted(hidden)
    # The next discovery takes the next tile of the stack.
    assert [t for _, t, _ in s.sea.fog] == list(tiles[: len(hidden)])


def _gold_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fog stack with its gold rivers on top (the tokens as the seed lays them)."""
    real = fog.stacks

    def stacks(key: str, players: int, seed: int) -> tuple[str, tuple[int, ...]]:
        tiles, tokens = real(key, players, seed)
        return "".join(sorted(tiles, key=lambda t: t != "$")), tokens

    monkeypatch.setattr(fog, "stacks", stacks)


def _first_fog(s: GameState) -> tuple[int, int]:
    """(the first fog hex in label order, a side along it)."""
    h = s.board.fog[0]
    return h, next(e for e, pair in enumerate(s.board.path_hexes) if h in pair)


def test_gold_pays_by_the_gold_preference(monkeypatch: pytest.MonkeyPatch) -> None:
    _gold_first(monkeypatch)
    s = new_game(Settings.for_scenario("ozeanien", 3), 1)
    h, e = _first_fog(s)
    events: list = []
    fog.discover(s, 1, e, events, GoldChoices({1: (ERZ,)}))
    assert events[0] == HexDiscovered(1, h, "$", events[0].number)
    assert events[1] == Produced(1, h, ERZ, 1)
    assert s.board.hexes[h].terrain == Terrain.GOLD and s.board.hexes[h].number is not None


def test_gold_without_a_preference_is_the_resource_held_fewest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _gold_first(monkeypatch)
    s = new_game(Settings.for_scenario("ozeanien", 3), 1)
    s.hands[2] = [3, 1, 3, 3, 3]
    h, e = _first_fog(s)
    events: list = []
    fog.discover(s, 2, e, events)
    assert events[1] == Produced(2, h, LEHM, 1)


def test_the_classic_bank_pays_only_what_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    _gold_first(monkeypatch)
    s = new_game(Settings.for_scenario("ozeanien", 3), 1)
    assert s.bank is not None
    s.bank[ERZ] = 0
    h, e = _first_fog(s)
    events: list = []
    fog.discover(s, 1, e, events, GoldChoices({1: (ERZ,)}))
    # Erz chosen, the bank has none: the shortage rule, and no other resource instead.
    assert events[0].hex == h and events[1] == BankShort(ERZ, 1, 0, 1)
    assert s.hands[1][ERZ] == 0 and s.bank[ERZ] == 0


def test_sea_pays_nothing_and_takes_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fog.stacks

    def sea_first(key: str, players: int, seed: int) -> tuple[str, tuple[int, ...]]:
        tiles, tokens = real(key, players, seed)
        rest = "".join(t for t in tiles if t != fog.SEA_TILE)
        return fog.SEA_TILE + rest + fog.SEA_TILE, tokens

    monkeypatch.setattr(fog, "stacks", sea_first)
    s = new_game(Settings.for_scenario("ozeanien", 3), 1)
    # A side whose ends reach two fog hexes: the first found is sea, the second land.
    e = next(e for e in range(len(s.board.path_hexes)) if len(fog.fog_reached(s.board, e)) == 2)
    sea_hex, land_hex = fog.fog_reached(s.board, e)
    events: list = []
    fog.discover(s, 0, e, events)
    found = [x for x in events if isinstance(x, HexDiscovered)]
    assert found[0] == HexDiscovered(0, sea_hex, fog.SEA_TILE, None)
    assert found[1].hex == land_hex and found[1].tile != fog.SEA_TILE
    # The land hex takes the first token of the stack: the sea hex took none.
    assert found[1].number == fog.stacks("ozeanien", 3, s.seed)[1][0]
    assert [x.hex for x in events if isinstance(x, Produced)] == [land_hex]
    assert sum(s.hands[0]) == 1
    assert s.board.hexes[sea_hex].terrain == Terrain.SEA and s.board.hexes[sea_hex].number is None


def test_a_moved_ship_discovers_as_a_new_one_does() -> None:
    s, p, last = _to_the_fog()
    assert s.sea is not None
    # A second ship branching off the line's last crossing but one: its front is free, so it
    # may be moved onto the side that reaches the fog.
    line = [e for e in s.sea.ships[p]]
    shared = set(s.board.path_crossings[last]).intersection(
        *(s.board.path_crossings[e] for e in line[-1:])
    )
    (c,) = shared
    other = next(c2 for c2 in s.board.path_crossings[line[-1]] if c2 != c)
    branch = next(
        e
        for e in s.board.crossing_paths[other]
        if e not in line
        and ship_rule(s, s.sea, p, e, check_cost=False) is None
        and not fog.fog_reached(s.board, e)
    )
    place_ship(s, s.sea, p, branch, [], free=True)
    s.round += 1
    move = MoveShip(branch, last)
    assert move in LegalMoves(s, p).ship_moves()
    hidden = fog.fog_reached(s.board, last)
    new, events = _alone(s, p, TurnOrders(builds=(move,)))
    assert [x.hex for x in events if isinstance(x, HexDiscovered)] == hidden
    assert new.sea is not None and new.sea.ship[last] == p and new.sea.ship[branch] == -1


def test_road_building_discovers_with_each_piece() -> None:
    s, p, last = _to_the_fog()
    s.cards[p].append(("road_building", 0))
    s.deck.remove("road_building")
    _, events = _alone(s, p, TurnOrders(builds=(RoadBuilding(last, None, True),)))
    assert Built(p, "ship", last, True) in events
    found = [x for x in events if isinstance(x, HexDiscovered)]
    assert found and events.index(Built(p, "ship", last, True)) < events.index(found[0])


def test_a_road_reaching_the_fog_discovers_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = fog.stacks

    def land_first(key: str, players: int, seed: int) -> tuple[str, tuple[int, ...]]:
        tiles, tokens = real(key, players, seed)
        return "".join(sorted(tiles, key=lambda t: t not in LETTERS_DE)), tokens

    monkeypatch.setattr(fog, "stacks", land_first)
    s = _after_setup()
    assert s.sea is not None
    # A fog hex found by hand (land, the stack says), a settlement of seat 0 at a corner it
    # shares with fog still hidden; a road along it from there reaches more fog.
    h = s.board.fog[0]
    s.sea.fog.append((h, "H", 5))
    s.board = fog.discovered_board(s.board, tuple(s.sea.fog))
    road = next(
        e
        for e, pair in enumerate(s.board.path_hexes)
        if h in pair and s.board.path_land[e] and fog.fog_reached(s.board, e)
    )
    c = s.board.path_crossings[road][0]
    s.owner[c], s.level[c] = 0, 1
    s.rebuild_indexes()
    hand(s, 0, "1H 1L")
    hidden = fog.fog_reached(s.board, road)
    new, events = _alone(s, 0, TurnOrders(builds=(Road(road),)))
    assert Built(0, "road", road, False) in events
    assert [x.hex for x in events if isinstance(x, HexDiscovered)] == hidden
    assert new.sea is not None and all(new.board.hexes[x].terrain != Terrain.FOG for x in hidden)


# -- the Weite See rules along the fog ---------------------------------------------------------


def test_no_settlement_on_fog_no_ship_without_known_sea_no_road_without_known_land() -> None:
    s = new_game(Settings.for_scenario("ozeanien", 3), 1)
    assert s.sea is not None
    b = s.board
    for c, touches in enumerate(b.crossing_fog):
        if touches:
            assert settlement_site_rule(s, c) == Reason.UNEXPLORED
    kinds = {e: {b.hexes[h].terrain for h in pair} for e, pair in enumerate(b.path_hexes)}
    sea_fog = next(e for e, k in kinds.items() if k == {Terrain.FOG, Terrain.SEA})
    # Along fog and sea a ship may go (it touches known sea), a road may not.
    assert b.path_sea[sea_fog] and not b.path_land[sea_fog]
    assert ship_rule(s, s.sea, 0, sea_fog, check_cost=False) == Reason.SHIP_NOT_CONNECTED
    assert road_rule(s, 0, sea_fog, check_cost=False) == Reason.NOT_LAND
    fog_fog = next(e for e, k in kinds.items() if k == {Terrain.FOG})
    assert ship_rule(s, s.sea, 0, fog_fog, check_cost=False) == Reason.NOT_SEA
    assert road_rule(s, 0, fog_fog, check_cost=False) == Reason.NOT_LAND
    # Neither robber nor pirate goes onto fog.
    for h in b.fog:
        assert robber_target_rule(s, h) is not None
        assert pirate_hex_rule(s, h) == Reason.PIRATE_NOT_ON_SEA


def test_what_the_fog_decides_is_not_refused_at_receipt() -> None:
    s, p, last = _to_the_fog()
    legal = LegalMoves(s, p)
    # A settlement where the ship will end: the fog there is found first at resolution.
    after = legal.after(Ship(last))
    end = next(c for c in s.board.path_crossings[last] if s.board.crossing_fog[c])
    assert after.problem(Settlement(end)) in (Reason.UNEXPLORED, Reason.NOT_LAND)
    assert after.certain_problem(Settlement(end)) is None
    # What no fog decides is still refused.
    far = next(c for c, t in enumerate(s.board.crossing_fog) if not t and s.owner[c] >= 0)
    assert legal.certain_problem(Settlement(far)) == Reason.OCCUPIED
    # A road on a side of sea alone is refused even where its ends touch fog.
    sea_side = next(
        e
        for e, pair in enumerate(s.board.path_hexes)
        if all(s.board.hexes[h].terrain == Terrain.SEA for h in pair)
        and fog.fog_reached(s.board, e)
    )
    assert legal.certain_problem(Road(sea_side)) == Reason.NOT_LAND
    assert legal.certain_problem(RobberOrder(s.board.fog[0])) is not None


# -- the state keeps its discoveries ---------------------------------------------------------


def test_discoveries_survive_json_and_text() -> None:
    s, p, last = _to_the_fog()
    hand(s, p, "1H 1W")
    new, _ = _alone(s, p, TurnOrders(builds=(Ship(last),)))
    assert new.sea is not None and new.sea.fog
    for back in (state_from_json(state_to_json(new)), state_from_text(state_to_text(new))):
        assert back == new
        assert back.sea is not None and back.sea.fog == new.sea.fog
        assert [h.terrain for h in back.board.hexes] == [h.terrain for h in new.board.hexes]
        assert back.board.number_hexes == new.board.number_hexes
    assert "fog" in state_to_json(new)["sea"]
    # A state without discoveries writes no fog key: the other scenarios' states are as before.
    assert "fog" not in state_to_json(s)["sea"]


def test_the_same_seed_discovers_the_same() -> None:
    def run() -> list[tuple]:
        out = []
        for _, events in play_game(Settings.for_scenario("ozeanien", 3), 13, "autopilot"):
            out += [e.values() for e in events if isinstance(e, HexDiscovered)]
        return out

    first = run()
    assert first and first == run()


# -- determinism --------------------------------------------------------------------------------

#: `pbm sim --scenario ozeanien --players 3 --games 3 --json`: a change to Oceania's rules, its
#: boards or its bots shows here first (and must be meant). Rules 3 changed it: its refusals
#: carry reasons of their own (`ship_not_connected` …), and issue 31 changed the autopilot (its
#: 7 never sends the robber where its own knight does; a `Gold:` line for its next build):
#: 23e799bd (rules 3) and 6520266f (the bots) → 1a70a7f8 (both).
OCEANIA_DIGEST = "1a70a7f8"


def test_oceania_games_replay_to_the_same_digest() -> None:
    first = simulate(3, 3, 1, "autopilot", scenario="ozeanien")
    assert first.finished == 3
    assert first.digest().startswith(OCEANIA_DIGEST)
    assert simulate(3, 3, 1, "autopilot", scenario="ozeanien").digest() == first.digest()


@pytest.mark.slow  # fresh interpreters
@pytest.mark.parametrize("bot", ["autopilot", "random"])
def test_oceania_sims_do_not_depend_on_the_hash_seed(bot: str) -> None:
    digests = set()
    args = ["sim", "--scenario", "ozeanien", "--players", "4", "--games", "2", "--json"]
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        out = subprocess.run(
            [sys.executable, "-m", "pbm", *args, "--bot", bot],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=300,
        ).stdout
        digests.add(json.loads(out)["digest"])
    assert len(digests) == 1


# -- the command line -------------------------------------------------------------------------


def test_pbm_board_and_sim_know_oceania() -> None:
    from typer.testing import CliRunner

    from pbm.cli import app

    runner = CliRunner()
    text = runner.invoke(app, ["board", "--scenario", "ozeanien", "--players", "3", "--seed", "4"])
    assert text.exit_code == 0 and "Nebel: ? unentdeckt" in text.output
    board = runner.invoke(
        app, ["board", "--scenario", "ozeanien", "--players", "4", "--seed", "4", "--json"]
    )
    hexes = json.loads(board.output)["hexes"]
    assert sum(h["terrain"] == "fog" for h in hexes) == 12
    assert all(
        h["number"] is None and h["resource"] is None for h in hexes if h["terrain"] == "fog"
    )
    sim = runner.invoke(
        app, ["sim", "--scenario", "ozeanien", "--players", "3", "--games", "2", "--json"]
    )
    out = json.loads(sim.output)
    assert out["finished"] == 2 and sum(out["wins"].values()) == 2
    assert out["digest"] == simulate(2, 3, 1, "autopilot", scenario="ozeanien").digest()


# -- the player guides' example ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "heading"), [("de", "## Ozeanien: der Nebel"), ("en", "## Oceania: the fog")]
)
def test_the_player_guides_fog_example_is_the_golden_round(lang: str, heading: str) -> None:
    """The chapter's orders are the lines of the golden Oceania round (tests/reports/scenes.py,
    `sea_fog_round`), and its report lines and map legend are that round's report."""
    from pathlib import Path

    from pbm.notation import Context
    from pbm.notation.mail import parse_mail

    root = Path(__file__).resolve().parent.parent
    guide = (root / "pbm" / "guides" / f"player-guide.{lang}.md").read_text(encoding="utf-8")
    chapter = guide.split(heading + "\n", 1)[1].split("\n## ", 1)[0]
    orders, report, legend = (b.split("```", 1)[0] for b in chapter.split("```text\n")[1:])
    golden = (root / "tests" / "reports" / "golden" / f"report_sea_fog_{lang}.txt").read_text(
        encoding="utf-8"
    )
    assert report in golden
    assert legend.strip() in golden.splitlines()
    s = new_game(Settings.for_scenario("ozeanien", 3), 1)
    mail = parse_mail(orders, Context(s.board, lang, s.colours))
    assert mail.ok, [r.error for r in mail.lines if not r.ok]
    o = mail.turn_orders()
    b = s.board
    assert o.builds == (Ship(b.path_by_labels(["B7", "C7"])), Ship(b.path_by_labels(["B7", "C8"])))
    assert o.gold == (ERZ,)
    # The fog the example speaks of is fog on that board before the round.
    assert {b.hexes[h].label for h in b.fog} >= {"B8", "C8"}


def test_every_listed_move_is_one_the_round_accepts_along_the_fog() -> None:
    """The legal-move view agrees with the rules on boards half discovered: what it lists the
    round accepts, and it lists no settlement at the fog and no road or ship beside it but on
    known land or sea."""
    rng = random.Random(4)
    checked = 0
    for state, _ in play_game(Settings.for_scenario("ozeanien", 3), 13, "autopilot", 40):
        b = state.board
        if state.phase != Phase.ROUNDS or not state.sea or not state.sea.fog or rng.random() < 0.6:
            continue
        for p in range(3):
            legal = LegalMoves(state, p)
            for order in legal:
                assert legal.problem(order) is None, order
                assert legal.certain_problem(order) is None, order
            assert not any(b.crossing_fog[c] for c in legal.settlements())
            assert all(b.path_land[e] for e in legal.roads())
            assert all(b.path_sea[e] for e in legal.ships())
            checked += 1
    assert checked > 0


def test_the_answer_to_a_mail_reads_the_fog_as_the_map_shows_it() -> None:
    """At receipt the robber and the pirate are refused on fog, a ship that will discover it is
    not; a settlement on a crossing of sea and fog alone cannot be named (the map shows no land
    there), and the answer says why."""
    from pbm.notation import Context
    from pbm.notation.checks import check_receipt
    from pbm.notation.mail import parse_mail

    s, p, last = _to_the_fog()
    b = s.board
    fog_hex = b.hexes[b.fog[0]].label
    end = next(c for c in b.path_crossings[last] if b.crossing_fog[c])
    assert not b.crossing_land[end]
    lines = [
        f"Räuber {fog_hex}",
        f"Pirat {fog_hex}",
        f"Schiff {b.path_label(last)}",
        f"Siedlung {b.crossing_label(end)}",
    ]
    mail = parse_mail("\n".join(lines), Context(b, "de", s.colours))
    check_receipt(mail, s, p, "de")
    robber, pirate, ship, settlement = mail.lines
    assert not robber.ok and "number" in str(robber.error)
    assert not pirate.ok and "sea hex" in str(pirate.error)
    assert ship.ok
    assert not settlement.ok and getattr(settlement.error, "rule", None) is None
