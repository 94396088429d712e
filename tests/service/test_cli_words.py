"""The CLI speaks to people in tables and words (issue 28): no `None`, `True` or `False`, no
Python list or dict, no time with seconds or microseconds in any command's text output; the
`--json` form keeps every key and the machine's times."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from harness import GM, Games, prepared
from typer.testing import CliRunner

from pbm.cli import app
from pbm.service import admin
from pbm.service.context import Service

#: What a Python value looks like printed as it is.
REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\[\]|\{\}|\['|\[\{|\{'|\[\d+, ")
#: A time to the second or finer (`07:29:31`, `07:29:31.633735`, `T07:29`).
SECONDS = re.compile(r"\d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d")

TEXT_COMMANDS = [
    ("game", "list"),
    ("game", "show", "alpha"),
    ("game", "show", "beta"),
    ("game", "show", "gamma"),
    ("game", "verify", "alpha"),
    ("game", "replay", "alpha"),
    ("game", "board", "alpha"),
    ("round", "status", "alpha"),
    ("round", "status", "beta"),
    ("player", "list", "alpha"),
    ("player", "list", "beta"),
    ("observer", "list", "alpha"),
    ("outbox", "list"),
    ("mail", "quarantine"),
    ("game", "tick"),
    ("sim", "--games", "2", "--players", "3"),
]


def _three_games(svc: Service, games: Games) -> None:
    # gamma first: starting a game plays the rounds of every game on the moving clock.
    games.start("gamma", round_=2)
    admin.end_game(svc, "gamma", "Zu wenige Spieler")
    games.start("alpha", round_=3)
    admin.new_game(svc, "beta", players=3, scenario="vier-inseln")
    admin.add_player(svc, "beta", "someone@players.test", "Someone")


@pytest.fixture
def cfg(svc: Service, games: Games, db_url: str, tmp_path: Path) -> Path:
    # The same three games for every test: played once per process, copied for the others.
    prepared(games.mailer, games.clock, "cli_words", lambda: _three_games(svc, games))
    path = tmp_path / "pbm.toml"
    path.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "{GM}"\n')
    return path


def _run(cfg: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


@pytest.mark.parametrize("command", TEXT_COMMANDS, ids=["-".join(c[:3]) for c in TEXT_COMMANDS])
def test_text_output_is_words(cfg: Path, command: tuple[str, ...]) -> None:
    text = _run(cfg, *command)
    assert text.strip(), command
    for line in text.splitlines():
        assert not REPR.search(line), (command, line)
        assert not SECONDS.search(line), (command, line)


def test_game_show_is_settings_in_words_and_a_table_of_players(cfg: Path) -> None:
    text = _run(cfg, "game", "show", "beta")
    assert "plays            Seafarers: The Four Islands (vier-inseln), with the pirate" in text
    assert "goal             12 victory points" in text
    assert "players          1 of 3 seats" in text
    assert "deadline         none (preset normal)" in text
    assert "seal nonce" not in text  # not revealed before the end
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("seat "))
    assert lines[head].split() == [
        "seat",
        "colour",
        "name",
        "address",
        "status",
        "autopilot",
        "NMRs",
    ]
    alpha = _run(cfg, "game", "show", "alpha")
    assert re.search(
        r"^deadline         \d{4}-\d\d-\d\d \d\d:\d\d UTC \(preset normal\)$", alpha, re.M
    )
    assert re.search(r"^phase            rounds, round 3$", alpha, re.M)
    table = alpha.split("\nseat ", 1)[1].splitlines()[1:]
    assert len(table) == 4 and all(row.split()[-2:] == ["no", "0"] for row in table), table
    gamma = _run(cfg, "game", "show", "gamma")
    assert re.search(r"^phase            ended$", gamma, re.M)
    assert re.search(r"^seal nonce       \S+$", gamma, re.M)


def test_round_status_shows_the_deadline_to_the_minute(cfg: Path) -> None:
    first = _run(cfg, "round", "status", "alpha").splitlines()[0]
    assert re.fullmatch(r"alpha round 3, deadline \d{4}-\d\d-\d\d \d\d:\d\d UTC", first), first
    data = json.loads(_run(cfg, "round", "status", "alpha", "--json"))
    # The machine form as it was: every key (and `phase`, added), the time as ISO 8601 with
    # its seconds.
    assert set(data) == {"game", "phase", "round", "deadline", "players", "paused"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", data["deadline"])
    assert set(data["players"][0]) == {
        "colour",
        "name",
        "orders",
        "autopilot",
        "away",
        "waited_for",
        "status",
    }


def test_round_status_says_the_game_is_paused(cfg: Path) -> None:
    """QA: while paused, `round status` read as ever (a deadline, players waited for): the
    GM had to remember the pause."""
    _run(cfg, "game", "pause", "alpha")
    first = _run(cfg, "round", "status", "alpha").splitlines()[0]
    assert "paused" in first, first
    assert json.loads(_run(cfg, "round", "status", "alpha", "--json"))["paused"] is True
    _run(cfg, "game", "resume", "alpha")
    assert "paused" not in _run(cfg, "round", "status", "alpha").splitlines()[0]


def test_game_create_json_has_the_keys_of_game_list(cfg: Path) -> None:
    created = json.loads(_run(cfg, "game", "create", "delta", "--json"))
    (listed,) = [g for g in json.loads(_run(cfg, "game", "list", "--json")) if g["name"] == "delta"]
    assert set(created) == set(listed) and created["broken"] == ""


def test_game_show_json_keeps_every_key(cfg: Path) -> None:
    data = json.loads(_run(cfg, "game", "show", "beta", "--json"))
    assert set(data) == {
        "name", "phase", "paused", "round", "players", "seats", "size", "scenario", "pirate",
        "kronlande", "vp_target", "bank", "deadline", "deadline_preset", "lang", "edition",
        "layout", "seed", "seed_text", "seal_nonce", "anonymous", "press", "away_wait_days",
        "broken", "players_list", "card_limit", "newcomer_protection", "nmr_autopilot_after",
        "early_resolve",
    }  # fmt: skip
    assert data["size"] is None and data["seal_nonce"] is None
    assert data["seed_text"] == str(data["seed"])
    assert isinstance(data["players_list"], list) and data["players_list"][0]["seat"] is None


def test_game_show_names_the_variants_a_game_was_created_with(cfg: Path) -> None:
    """QA: the card limit, the newcomer protection, the autopilot's NMRs and the early
    resolution were set at `game create` and shown nowhere after it."""
    args = ["--players", "5", "--edition", "modern", "--bank", "classic", "--card-limit", "9"]
    args += ["--newcomer-protection", "--nmr-autopilot", "2", "--no-early"]
    _run(cfg, "game", "create", "insel", *args)
    data = json.loads(_run(cfg, "game", "show", "insel", "--json"))
    assert (data["card_limit"], data["newcomer_protection"]) == (9, True)
    assert (data["nmr_autopilot_after"], data["early_resolve"]) == (2, False)
    assert data["bank"] == "classic" and data["edition"] == "modern"
    text = _run(cfg, "game", "show", "insel")
    for line in (
        "bank             classic (not the edition's unlimited)",
        "card limit       9: a 7 makes a player holding more than 9 cards discard half",
        "newcomers        protected: the robber never goes next to 2 visible victory points",
        "early resolve    off: a round resolves at its deadline",
        "autopilot        after 2 rounds in a row without orders",
    ):
        assert line in text, (line, text)
    beta = _run(cfg, "game", "show", "beta")  # created with the defaults
    assert "bank             classic (the edition's)" in beta
    assert "card limit       7: " in beta and "newcomers        not protected" in beta
    assert "early resolve    on: a round resolves once every seat's orders are in" in beta
    assert "autopilot        after 3 rounds in a row without orders" in beta
