"""The three kinds of order errors, after python-chess's invalid / illegal / ambiguous moves.

Every error knows the line number and the line's text in the player's mail, and a column where
that helps; `AmbiguousError` also carries the candidates in label form, ready to copy back.
"""

from __future__ import annotations


class OrderError(Exception):
    """Base class: a line of a mail that cannot be taken as written."""

    def __init__(
        self, message: str, *, line: int = 0, text: str = "", column: int | None = None,
        candidates: list[str] | None = None, rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.text = text
        self.column = column
        self.candidates = candidates or []
        self.rule = rule

    def at(self, line: int, text: str) -> OrderError:
        """The same error, placed at a line of a mail."""
        self.line, self.text = line, text
        return self

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        col = f" (column {self.column})" if self.column is not None else ""
        return f"{where}{self.message}{col}"


class NotationError(OrderError):
    """Malformed: the line does not say anything the order language knows, or names a place
    that is not on this board. Says what was expected, and where."""


class AmbiguousError(OrderError):
    """Several crossings, paths or hexes match; `candidates` lists each in label form."""


class IllegalOrderError(OrderError):
    """Well formed, but impossible on this board now (crossing taken, road touching nothing of
    the player's, a card not held). Final legality is the engine's, at resolution."""
