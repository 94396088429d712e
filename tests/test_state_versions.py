"""The state's format version (issue 17): base games are written as version 1 exactly as before
Seafarers, so every stored base game loads and replays identically; Seafarers games are
version 2. The fixture holds rounds of base games (rules 1 and 2, 3–5 players) written by pbm
before the Seafarers states (tests/fixtures/base_rounds_v1.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pbm.rules.events import Event
from pbm.rules.round import resolve_round
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.serial import state_from_json, state_from_text, state_to_json, state_to_text
from pbm.rules.ships import place_ship, ship_sites
from pbm.rules.state import Phase, Settings, new_game
from pbm.store import codec

FIXTURE = Path(__file__).parent / "fixtures" / "base_rounds_v1.json"
ROUNDS: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["rounds"]


@pytest.mark.parametrize("i", range(len(ROUNDS)))
def test_stored_base_rounds_load_and_replay_identically(i: int) -> None:
    r = ROUNDS[i]
    state = state_from_json(r["before"])
    assert state.sea is None
    assert state_to_json(state) == r["before"]
    assert json.dumps(state_to_json(state)) == json.dumps(r["before"])
    assert state_to_text(state_from_text(r["before_text"])) == r["before_text"]
    orders = {int(p): codec.from_data(o) for p, o in r["orders"].items()}
    after, events = resolve_round(state, orders)
    assert [e.to_json() for e in events] == r["events"]
    assert state_to_json(after) == r["after"]


def test_base_games_stay_version_1() -> None:
    s = new_game(Settings.for_players(4), 3)
    d = state_to_json(s)
    assert d["v"] == 1 and "sea" not in d and "scenario" not in d["settings"]


def _seafarers(key: str, players: int) -> Any:
    s = new_game(Settings.for_scenario(key, players), 11)
    board = s.board
    assert s.sea is not None
    # A settlement and a ship for seat 0 on a coast, a special VP, a home island.
    coast = next(
        c
        for c in range(len(board.crossing_hexes))
        if board.crossing_land[c] and any(board.path_sea[e] for e in board.crossing_paths[c])
    )
    s.owner[coast], s.level[coast] = 0, 1
    s.phase, s.round, s.setup_step = Phase.ROUNDS, 4, 2 * players
    s.rebuild_indexes()
    events: list[Event] = []
    place_ship(s, s.sea, 0, ship_sites(s, s.sea, 0)[0], events, free=True)
    s.sea.moved[0] = 3
    s.sea.home[0] = (1,)
    s.sea.specials[0].append((coast, 2, 1))
    return s


@pytest.mark.parametrize("key", list(SCENARIOS))
def test_seafarers_states_are_version_2_and_round_trip(key: str) -> None:
    s = _seafarers(key, 4)
    d = state_to_json(s)
    assert d["v"] == 2 and d["settings"]["scenario"] == key and d["sea"]["ships"]
    back = state_from_json(json.loads(json.dumps(d)))
    assert back == s and back.sea == s.sea
    assert back.board.to_json() == s.board.to_json()
    assert back.visible_vp(0) == 2  # the settlement and its special VP
    assert state_from_text(state_to_text(s)) == s
    assert state_to_text(state_from_text(state_to_text(s))) == state_to_text(s)


def test_a_seafarers_board_written_hex_by_hex_keeps_areas_and_pirate() -> None:
    from pbm.rules.scenarios import scenario_board

    board = scenario_board("wueste", 3, 2)
    s = new_game(Settings.for_scenario("wueste", 3), 2, board=board)
    d = state_to_json(s)
    assert "seed" not in d["board"] and d["board"]["pirate"]
    back = state_from_json(d)
    assert back.board.to_json() == board.to_json()
    assert state_from_text(state_to_text(s)).board.to_json() == board.to_json()


def test_unknown_version_is_refused() -> None:
    d = state_to_json(new_game(Settings.for_players(3), 1))
    d["v"] = 4
    with pytest.raises(ValueError, match="unknown state version"):
        state_from_json(d)


def test_settings_for_scenario() -> None:
    st = Settings.for_scenario("neue-ufer", 3)
    assert (st.scenario, st.vp_target, st.bank_count, st.pirate) == ("neue-ufer", 13, 19, True)
    with pytest.raises(ValueError, match="3 or 4 players"):
        Settings.for_scenario("neue-ufer", 5)
    with pytest.raises(ValueError, match="unknown scenario"):
        Settings.for_scenario("atlantis", 4)
    s = new_game(Settings.for_scenario("neue-ufer", 4, pirate=False), 1)
    assert s.sea is not None and s.sea.pirate == -1
    assert s.board.name == "neue-ufer-4" and s.board_seed == 1


@pytest.mark.parametrize("size", ["small", "large", "huge"])
def test_a_board_keeps_the_version_it_was_laid_by(size: str) -> None:
    """A new base game on the small, large or huge island is laid by board version 2 (red
    tokens spread) and says so in its stored forms; a game stored before (no version) keeps
    the board of version 1, whatever pbm lays now."""
    from pbm.rules.layouts import BOARD_VERSION, generate_board

    players = 5 if size != "small" else 3
    new = new_game(Settings.for_players(players, size), 4)
    assert new.board_version == BOARD_VERSION == 2
    stored = state_to_json(new)
    assert stored["board"] == {"seed": 4, "version": 2}
    for back in (state_from_json(stored), state_from_text(state_to_text(new))):
        assert back.board_version == 2 and back.board.hexes == new.board.hexes
        assert state_to_json(back) == stored
    assert f"board={size}@4/2 " in state_to_text(new)

    old = dict(stored, board={"seed": 4})
    before = state_from_json(old)
    assert before.board_version == 1
    assert before.board.hexes == generate_board(size, 4, 1).hexes
    assert state_to_json(before) == old
    assert f"board={size}@4 " in state_to_text(before)
    # Played on, a copy keeps it.
    assert before.copy().board_version == 1


def test_the_medium_island_scenarios_and_kronlande_stay_version_1() -> None:
    for settings in (
        Settings.for_players(4),
        Settings.for_scenario("wueste", 4),
        Settings.for_kronlande(4, "large"),
    ):
        state = new_game(settings, 4)
        assert state.board_version == 1
        assert "version" not in state_to_json(state)["board"]


@pytest.mark.parametrize("version", [0, -1, 3, 99, 2.0, "2", None, True])
def test_a_board_version_pbm_never_wrote_is_refused(version: object) -> None:
    stored = state_to_json(new_game(Settings.for_players(5), 4))
    with pytest.raises(ValueError, match="board version"):
        state_from_json(dict(stored, board={"seed": 4, "version": version}))


def test_a_version_on_a_board_that_has_one_only_is_refused() -> None:
    for settings in (Settings.for_players(4), Settings.for_scenario("wueste", 4)):
        stored = state_to_json(new_game(settings, 4))
        with pytest.raises(ValueError, match="only version 1"):
            state_from_json(dict(stored, board={"seed": 4, "version": 2}))


@pytest.mark.parametrize(("key", "players"), [("neue-ufer", 3), ("neue-ufer", 4), ("wueste", 3)])
def test_a_scenario_board_keeps_the_version_it_was_laid_by(key: str, players: int) -> None:
    """Scenario board version 2 (New Shores' main island by the base rules, the seed's nine
    harbours): new games get it and say so; a game stored before keeps its board of version 1."""
    from pbm.rules.scenarios import scenario_board

    new = new_game(Settings.for_scenario(key, players), 4)
    assert new.board_version == 2
    assert new.board.hexes == scenario_board(key, players, 4, 2).hexes
    stored = state_to_json(new)
    assert stored["board"] == {"seed": 4, "version": 2}
    for back in (state_from_json(stored), state_from_text(state_to_text(new))):
        assert back.board_version == 2 and back.board.hexes == new.board.hexes
        assert state_to_json(back) == stored
    old = dict(stored, board={"seed": 4})
    before = state_from_json(old)
    assert before.board_version == 1
    assert before.board.hexes == scenario_board(key, players, 4, 1).hexes != new.board.hexes
    assert state_to_json(before) == old
    assert before.copy().board_version == 1
    for version in (3, 0, "2"):
        with pytest.raises(ValueError, match="board version"):
            state_from_json(dict(stored, board={"seed": 4, "version": version}))
