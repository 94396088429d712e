"""Printing: every line through `clean`, `--json` as one JSON value.

Text output is for people: tables and words, times to the minute in UTC (`when`), never a
Python value's repr (`None`, `True`, a list or a dict); `--json` keeps the machine form (every
key, times as ISO 8601 with seconds) unchanged."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Annotated, Any

import typer

from .clean import clean, cleaned

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]


def echo(line: str, err: bool = False) -> None:
    """Print one line of text output, cleaned."""
    typer.echo(clean(line), err=err)


def echo_text(text: str) -> None:
    """Print a text of several lines (a report, a map), each line cleaned."""
    typer.echo("\n".join(clean(line) for line in text.split("\n")))


def show(data: Any, as_json: bool, text: Callable[[], None]) -> None:
    """`data` as JSON (cleaned; a time as ISO 8601 to the second, `_json_value`), or whatever
    `text` prints."""
    if as_json:
        typer.echo(json.dumps(cleaned(data), ensure_ascii=False, default=_json_value))
    else:
        text()


def _json_value(o: object) -> str:
    """What JSON has no type for: a datetime as `2026-12-07T18:34:25+00:00` (naive ones are
    the database's UTC), as every `--json` of pbm writes it; anything else as its text."""
    if isinstance(o, datetime):
        moment = o if o.tzinfo is not None else o.replace(tzinfo=UTC)
        return moment.isoformat(timespec="seconds")
    return clean(str(o))


def when(value: datetime | str | None, none: str = "none") -> str:
    """A time for people: `2026-12-07 07:29 UTC`, to the minute; `none` for no time. A naive
    datetime is UTC (the database's); a string is ISO 8601 (`--json`'s form)."""
    if value is None or value == "":
        return none
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return clean(value)
    if value.tzinfo is not None:
        value = value.astimezone(UTC)
    return f"{value:%Y-%m-%d %H:%M} UTC"


def yes_no(value: object) -> str:
    return "yes" if value else "no"


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    """Rows under their headers, each column as wide as its widest cell (cleaned) on the
    screen, two spaces apart; a cell that is None is "-"."""
    cells = [[clean("-" if c is None else c) for c in row] for row in rows]
    widths = [max([width(h), *(width(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    return [
        "  ".join(c + " " * (w - width(c)) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [list(headers), *cells]
    ]


def width(text: str) -> int:
    """How many columns a terminal gives `text`: two for a wide character (Chinese, Japanese,
    Korean, most emoji), none for a combining mark; a name in them lines up with the others."""
    if text.isascii():
        return len(text)
    return sum(
        0
        if unicodedata.combining(ch)
        else 2
        if unicodedata.east_asian_width(ch) in ("W", "F")
        else 1
        for ch in text
    )


def colour(stored: str | None) -> str | None:
    """A seat's colour as the command line names it: in English, the command line's language,
    whatever the game's (`weiss` is "white", in a Danish game too; docs/gm-guide.md "Colours on
    the command line"). None (a sign-up without a seat) stays None; `--json` keeps the stored
    colour."""
    from pbm.notation import vocab

    return vocab.colour_name(stored, "en") if stored else stored


def colour_named(word: str) -> str:
    """The colour a GM command named, in any language and spelling (`hvid`, `weiß`), as the
    command line names it (`colour`): the line that confirms the command says which seat it
    was. A word that is no colour stays as written."""
    from pbm.notation import vocab
    from pbm.notation.text import simple

    try:
        return colour(vocab.colour(simple(word))) or word
    except Exception:  # not a colour: the command has refused it already
        return word


def player_table(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The seated players as a table (`pbm player list`, `pbm game show`)."""
    heads = ("seat", "colour", "name", "address", "status", "autopilot", "NMRs")
    cells = [
        (
            r["seat"],
            colour(r["colour"]),
            r["name"],
            r["address"],
            r["status"],
            yes_no(r["autopilot"]),
            r["nmr"],
        )
        for r in rows
    ]
    return table(heads, cells)
