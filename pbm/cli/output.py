"""Printing: every line through `clean`, `--json` as one JSON value."""

from __future__ import annotations

import json
from collections.abc import Callable
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
    """`data` as JSON (cleaned; a datetime as its str()), or whatever `text` prints."""
    if as_json:
        typer.echo(json.dumps(cleaned(data), ensure_ascii=False, default=lambda o: clean(str(o))))
    else:
        text()
