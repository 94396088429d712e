"""`pbm game show` and `pbm game list --json` say what is played: the island, the Seafarers
scenario with its pirate, Kronlande, the VP target and the bank mode."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbm.cli import app


@pytest.fixture
def cli(tmp_path: Path) -> Iterator[tuple[CliRunner, Path]]:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text('[database]\nurl = "sqlite:///pbm.db"\n\n[service]\naddress = "gm@pbm.test"\n')
    yield CliRunner(), cfg


def _run(cli: tuple[CliRunner, Path], *args: str) -> str:
    runner, cfg = cli
    result = runner.invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def test_show_names_the_board_scenario_and_kronlande(cli: tuple[CliRunner, Path]) -> None:
    _run(cli, "game", "create", "base", "--players", "4", "--seed", "3")
    _run(cli, "game", "create", "sea", "--players", "4", "--scenario", "wueste", "--no-pirate")
    _run(cli, "game", "create", "kron", "--players", "5", "--kronlande", "--size", "huge")
    shown = {n: json.loads(_run(cli, "game", "show", n, "--json")) for n in ("base", "sea", "kron")}
    keys = ("size", "scenario", "pirate", "kronlande", "vp_target", "bank")
    assert {k: shown["base"][k] for k in keys} == {
        "size": "medium",
        "scenario": None,
        "pirate": None,
        "kronlande": False,
        "vp_target": 10,
        "bank": "classic",
    }
    assert shown["sea"]["scenario"] == "wueste" and shown["sea"]["pirate"] is False
    assert shown["sea"]["size"] is None  # the scenario's board, no island size
    assert shown["sea"]["kronlande"] is False
    assert shown["kron"]["kronlande"] is True and shown["kron"]["size"] == "huge"
    assert shown["kron"]["scenario"] is None and shown["kron"]["seats"] == 5
    listed = {r["name"]: r for r in json.loads(_run(cli, "game", "list", "--json"))}
    assert listed["kron"]["kronlande"] is True and listed["sea"]["scenario"] == "wueste"
    # `pbm game list` names it on each game's line.
    lines = {line.split()[0]: line for line in _run(cli, "game", "list").splitlines()}
    assert lines["base"].rstrip().endswith("0/4 players, medium island")
    assert lines["sea"].rstrip().endswith("0/4 players, wueste (no pirate)")
    assert lines["kron"].rstrip().endswith("0/5 players, Kronlande huge")
    # The text form has a line for each.
    text = _run(cli, "game", "show", "kron")
    assert "plays            Kronlande on the huge island" in text


def test_a_game_whose_settings_or_state_cannot_be_read_is_listed_as_broken(
    cli: tuple[CliRunner, Path],
) -> None:
    """One game's damaged `settings` column made `pbm game list` and `pbm game show` raise
    for every game. Now that game is listed as broken, with why, and the others as before."""
    from sqlmodel import select

    from pbm.store.db import make_engine, transaction
    from pbm.store.models import Game

    for name in ("base", "odd", "alien", "thawed", "fine"):
        _run(cli, "game", "create", name, "--players", "4", "--seed", "3")
    engine = make_engine(f"sqlite:///{cli[1].parent}/pbm.db")
    try:
        with transaction(engine) as s:
            games = {g.name: g for g in s.exec(select(Game))}
            games["base"].settings = '{"players": 4, "size": "med'
            games["odd"].settings = '{"players": 4, "no such setting": 1}'
            games["alien"].settings = "[1, 2, 3]"
            games["thawed"].state = '{"this is": "not a game state"}'
    finally:
        engine.dispose()
    listed = {r["name"]: r for r in json.loads(_run(cli, "game", "list", "--json"))}
    assert list(listed) == ["base", "odd", "alien", "thawed", "fine"]
    assert listed["base"]["broken"].startswith("settings cannot be read: JSONDecodeError: ")
    assert listed["odd"]["broken"].startswith("settings cannot be read: TypeError: ")
    assert listed["alien"]["broken"].startswith("settings cannot be read: TypeError: ")
    assert listed["thawed"]["broken"].startswith("state cannot be read: ")
    assert listed["fine"]["broken"] == "" and listed["fine"]["seats"] == 4
    for name in ("base", "odd", "alien"):
        assert listed[name]["seats"] is None and listed[name]["size"] is None
    lines = {line.split()[0]: line for line in _run(cli, "game", "list").splitlines()}
    assert "0/? players, settings unreadable (broken: settings cannot be read: " in lines["base"]
    assert "(broken: state cannot be read: " in lines["thawed"]
    assert lines["fine"].rstrip().endswith("0/4 players, medium island")
    for name in ("base", "thawed"):
        shown = json.loads(_run(cli, "game", "show", name, "--json"))
        assert shown["broken"] == listed[name]["broken"] and shown["players_list"] == []
        assert f"broken           {listed[name]['broken']}" in _run(cli, "game", "show", name)
    assert json.loads(_run(cli, "game", "show", "fine", "--json"))["broken"] == ""
