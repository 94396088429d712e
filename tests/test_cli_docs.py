"""The README's command tables against the CLI's parser: every command and subcommand is in
them, every option of every command too (`--json` and `--help` are said once for all), and
nothing in them is not in the CLI. The help texts name things, never the source seeds."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from typer.testing import CliRunner

from pbm.cli import app

ROOT = Path(__file__).resolve().parent.parent
#: Said once for every command in the README's text, not in each row.
SAID_ONCE = {"--json", "--help"}
SPAN = re.compile(r"`([^`]+)`")
OPTION = re.compile(r"--[a-z][a-z-]*")


def _commands(cmd: Any = None, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every command of the CLI (a leaf), by its path (`("game", "create")`)."""
    cmd = cmd if cmd is not None else typer.main.get_command(app)
    subs = getattr(cmd, "commands", None)
    if subs is None:
        yield path, cmd
        return
    for name, sub in subs.items():
        yield from _commands(sub, (*path, name))


def _options(cmd: Any) -> list[tuple[str, ...]]:
    """A command's long options, each with its other spellings (`--early` / `--no-early`)."""
    out = []
    for p in cmd.params:
        names = [o for o in [*p.opts, *getattr(p, "secondary_opts", [])] if o.startswith("--")]
        if names:
            out.append(tuple(names))
    return out


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else None]


def _rows(section: str) -> list[str]:
    """The first cells of the section's table rows (not the heads, not the rules)."""
    cells = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            # A `\|` inside a cell is a pipe of the command, not a cell's end.
            first = re.split(r"(?<!\\)\|", line)[1].strip()
            if first not in ("command", "option"):
                cells.append(first.replace("\\|", "|"))
    return cells


def _documented(section: str) -> tuple[dict[tuple[str, ...], set[str]], set[str], list[str]]:
    """What the tables name: each command's path with the options in its span, the options
    of the `game create` table, and every mistake (a command or option the CLI has not)."""
    commands = dict(_commands())
    groups = {path[:i] for path in commands for i in range(1, len(path))}
    named: dict[tuple[str, ...], set[str]] = {}
    create: set[str] = set()
    wrong: list[str] = []
    for cell in _rows(section):
        for span in SPAN.findall(cell):
            if span.startswith("--"):
                create |= set(OPTION.findall(span))
                continue
            if not span.startswith("pbm "):
                continue
            words = span.split()[1:]
            path: tuple[str, ...] = ()
            for word in words:
                if (*path, word) in commands or (*path, word) in groups:
                    path = (*path, word)
                else:
                    break
            if path not in commands:
                wrong.append(f"{span}: no such command")
                continue
            options = set(OPTION.findall(span))
            known = {o for names in _options(commands[path]) for o in names}
            passed_on = commands[path].context_settings.get("allow_extra_args", False)
            if not passed_on:
                wrong += [f"{span}: {o} is no option of it" for o in sorted(options - known)]
            named.setdefault(path, set()).update(options)
    known = {o for names in _options(commands[("game", "create")]) for o in names}
    wrong += [f"game create option {o}: not in the CLI" for o in sorted(create - known)]
    return named, create, wrong


def test_the_readme_tables_list_every_command_and_option_of_the_cli() -> None:
    section = _section((ROOT / "README.md").read_text(encoding="utf-8"), "## Game master commands")
    named, create, wrong = _documented(section)
    assert wrong == []
    commands = dict(_commands())
    assert sorted(set(commands) - set(named)) == [], "commands missing from the README's tables"
    named[("game", "create")] |= create
    missing = []
    for path, cmd in commands.items():
        for names in _options(cmd):
            if set(names) & SAID_ONCE:
                continue
            if not set(names) & named[path]:
                missing.append(f"pbm {' '.join(path)} {names[0]}")
    assert missing == [], "options missing from the README's tables"
    # The commands the GM asked about by name, and every option of `game create`.
    for path in [("game", "end"), ("game", "message"), ("game", "announce"), ("game", "archive")]:
        assert path in named, path
    for option in ("--scenario", "--kronlande", "--press", "--anonymous", "--away-wait"):
        assert option in create, option


def test_a_table_that_names_what_the_cli_has_not_is_caught() -> None:
    section = (
        "## Game master commands\n| command | what it does |\n|---|---|\n"
        "| `pbm game frobnicate GAME` | nothing |\n| `pbm game show GAME --colour` | x |\n"
        "| `--no-such-option` | | |\n"
    )
    _named, _create, wrong = _documented(section)
    assert wrong == [
        "pbm game frobnicate GAME: no such command",
        "pbm game show GAME --colour: --colour is no option of it",
        "game create option --no-such-option: not in the CLI",
    ]


def _help_texts() -> Iterator[tuple[str, str]]:
    for path, cmd in _commands():
        yield " ".join(path), cmd.help or ""
        for p in cmd.params:
            yield f"{' '.join(path)} {p.name}", getattr(p, "help", None) or ""


def test_no_help_text_names_a_source_seed() -> None:
    """`seed 002` is where a word came from, not what a GM knows it by; `--seed` (the dice)
    is an option of its own and may say what it fixes."""
    for where, text in _help_texts():
        assert not re.search(r"\bseed 0\d\d\b|\(seed\b", text, re.I), (where, text)


def test_game_create_help_names_the_modern_edition() -> None:
    result = CliRunner().invoke(app, ["game", "create", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "--edition" in result.output and "seed 00" not in result.output
    (edition,) = [h for where, h in _help_texts() if where == "game create edition"]
    assert "modern edition" in edition, edition


def test_every_option_says_what_it_does() -> None:
    """QA: `pbm game create --help` said nothing of `--card-limit` and `--newcomer-protection`.
    Every option of every command has a help text, and `game create`'s arguments too."""
    bare = [where for where, text in _option_help() if not text.strip()]
    assert bare == []
    cmd = dict(_commands())[("game", "create")]
    assert all(getattr(p, "help", None) for p in cmd.params), "game create: an argument"


def _option_help() -> Iterator[tuple[str, str]]:
    for path, cmd in _commands():
        for p in cmd.params:
            if isinstance(p, typer.core.TyperOption) and p.name != "help":
                yield f"{' '.join(path)} {p.name}", getattr(p, "help", None) or ""


def test_game_create_help_shows_every_help_text_whole() -> None:
    """The help is rendered as rich markup: a `[…]` in a text would vanish from it (the
    bank's default did)."""
    result = CliRunner().invoke(app, ["game", "create", "--help"], env={"COLUMNS": "2000"})
    assert result.exit_code == 0, result.output
    shown = " ".join(result.output.replace("│", " ").split())
    cmd = dict(_commands())[("game", "create")]
    for p in cmd.params:
        text = " ".join((getattr(p, "help", None) or "").split())
        assert text in shown, (p.name, text)
    assert "unlimited if modern" in shown
