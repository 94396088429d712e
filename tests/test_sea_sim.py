"""Seafarers by bots (issue 17, step c): `pbm sim --scenario`, `pbm board --scenario`, every
scenario finished by the autopilot, determinism across PYTHONHASHSEED."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from pbm.cli import app
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.sim import simulate

KEYS = {"games", "finished", "rounds_mean", "rolls", "seconds", "rolls_per_s", "wins", "digest"}


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_pbm_sim_scenario_json_has_todays_keys() -> None:
    out = json.loads(
        _cli("sim", "--scenario", "vier-inseln", "--players", "3", "--games", "2", "--json")
    )
    assert set(out) == KEYS
    assert out["finished"] == 2 and sum(out["wins"].values()) == 2
    assert out["digest"] == simulate(2, 3, 1, "autopilot", scenario="vier-inseln").digest()


def test_pbm_sim_and_board_know_the_great_crossing() -> None:
    out = json.loads(
        _cli("sim", "--scenario", "ueberfahrt", "--players", "3", "--games", "2", "--json")
    )
    assert set(out) == KEYS and out["finished"] == 2
    data = json.loads(
        _cli("board", "--scenario", "ueberfahrt", "--players", "4", "--seed", "5", "--json")
    )
    assert data["name"] == "ueberfahrt-4"
    assert {h["area"] for h in data["hexes"]} == {None, 1, 2, 3, 4}
    assert "<P>" in _cli("board", "--scenario", "ueberfahrt", "--players", "3", "--lang", "en")


def test_pbm_sim_refuses_bad_scenarios() -> None:
    for args in (
        ["--scenario", "atlantis"],
        ["--scenario", "neue-ufer", "--players", "5"],
        ["--scenario", "neue-ufer", "--size", "large"],
    ):
        result = CliRunner().invoke(app, ["sim", "--games", "1", *args])
        assert result.exit_code != 0, args


def test_pbm_board_scenario_text_and_json() -> None:
    text = _cli("board", "--scenario", "wueste", "--players", "4", "--seed", "5")
    assert "Wüste" in text and "~" in text
    data = json.loads(
        _cli("board", "--scenario", "wueste", "--players", "4", "--seed", "5", "--json")
    )
    assert data["name"].startswith("wueste")
    assert any(h["terrain"] == "gold" for h in data["hexes"])
    result = CliRunner().invoke(app, ["board", "--scenario", "nowhere"])
    assert result.exit_code != 0


@pytest.mark.slow  # 24 whole games
@pytest.mark.parametrize("scenario", list(SCENARIOS))
@pytest.mark.parametrize("players", [3, 4])
def test_the_autopilot_finishes_every_scenario(scenario: str, players: int) -> None:
    result = simulate(3, players, 5, "autopilot", scenario=scenario)
    assert result.finished == 3


@pytest.mark.slow  # fresh interpreters
@pytest.mark.parametrize("scenario", ["neue-welt", "ueberfahrt"])
def test_scenario_sims_do_not_depend_on_the_hash_seed(scenario: str) -> None:
    digests = set()
    for hash_seed in ("0", "1", "random"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        args = ["sim", "--games", "1", "--players", "4", "--json", "--scenario", scenario]
        out = subprocess.run(
            [sys.executable, "-m", "pbm", *args, "--bot", "random"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=300,
        ).stdout
        digests.add(json.loads(out)["digest"])
    assert len(digests) == 1


@pytest.mark.parametrize("players", [3, 4])
def test_new_world_boards_keep_the_start_balance(players: int) -> None:
    from pbm.rules.scenarios import new_world

    # Every seat's greedy start sites sum to the same pips (the fairness check's bound).
    assert new_world.MAX_START_SPREAD == 0
    for seed in range(30):
        board = new_world.generate(players, seed)
        assert new_world.start_spread(board, players) == 0
