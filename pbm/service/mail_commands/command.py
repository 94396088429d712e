"""What a mail command is: its word, arguments, description and handler."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..request import Request


@dataclass(frozen=True)
class MailCommand:
    """A command players write; its word in each language is the order word `name`
    (`notation.format.word`), its arguments and description are English msgids."""

    name: str
    args: str
    description: str
    needs_password: bool
    process: Callable[[Request], str | None]
