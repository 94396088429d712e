"""The GM's command line names the colours in its own language, English (docs/gm-guide.md
"Colours on the command line"), whatever the game's language: `game show`, `player list`,
`round status` and the lines that confirm a GM command print `white`, never the stored `weiss`
of a Danish game, as `game verify` always has. Every command takes a colour in any language
and spelling (`hvid`, `weiß`, `weiss`, `white`); `--json` keeps the colour as the game stores
it, for scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from harness import GM, Games
from typer.testing import CliRunner

from pbm.cli import app
from pbm.service.context import Service

ENGLISH = {"red", "blue", "yellow", "white"}
#: The colours as a German or Danish game names them, and as the game stores them.
OTHERS = {"rot", "blau", "gelb", "weiß", "weiss", "rød", "blå", "gul", "hvid"}


def _cli(cfg: Path, *args: str) -> str:
    result = CliRunner().invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == 0, (args, result.output, result.exception)
    return result.output


def _config(tmp_path: Path, db_url: str) -> Path:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "{GM}"\n')
    return cfg


def _colour_column(text: str, head: str = "colour") -> set[str]:
    """The words of the column headed `head` of the table in `text`."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if re.search(rf"\b{head}\b", line))
    start = lines[at].index(head)
    return {line[start:].split()[0] for line in lines[at + 1 :] if len(line) > start}


@pytest.mark.parametrize("lang", ["da", "de"])
def test_the_tables_name_the_colours_in_english(
    svc: Service, games: Games, db_url: str, tmp_path: Path, lang: str
) -> None:
    games.start("alpha", round_=2, lang=lang)
    cfg = _config(tmp_path, db_url)
    for command in (("game", "show", "alpha"), ("player", "list", "alpha")):
        text = _cli(cfg, *command)
        assert _colour_column(text) == ENGLISH, text
        assert not set(re.findall(r"\w+", text)) & OTHERS, text
    status = _cli(cfg, "round", "status", "alpha")
    assert _colour_column(status) == ENGLISH, status
    assert not set(re.findall(r"\w+", status)) & OTHERS, status
    # The JSON keeps the stored colour (the key every command also takes).
    rows = json.loads(_cli(cfg, "player", "list", "alpha", "--json"))
    assert {r["colour"] for r in rows} == {"rot", "blau", "gelb", "weiss"}


def test_a_colour_in_any_language_is_taken_and_confirmed_in_english(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    games.start("alpha", round_=2, lang="da")
    cfg = _config(tmp_path, db_url)
    assert _cli(cfg, "player", "autopilot", "alpha", "hvid", "on") == (
        "alpha: autopilot on for white\n"
    )
    assert _cli(cfg, "player", "autopilot", "alpha", "weiß", "on") == (
        "alpha: the autopilot was on for white already; nothing changed\n"
    )
    assert _cli(cfg, "player", "autopilot", "alpha", "white", "off") == (
        "alpha: autopilot off for white\n"
    )
    out = _cli(cfg, "player", "password", "alpha", "gul")
    assert out.startswith("alpha: a new password for yellow is queued to "), out
    out = _cli(cfg, "player", "replace", "alpha", "rød", "new@players.test")
    assert out.startswith("alpha: red is now new@players.test;"), out
    listed = _cli(cfg, "player", "list", "alpha")
    red = next(line for line in listed.splitlines() if "new@players.test" in line)
    assert " red " in red, listed
