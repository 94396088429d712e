"""The three kinds of order errors, after python-chess's invalid / illegal / ambiguous moves.

Every error knows the line number and the line's text in the player's mail, and a column where
that helps; `AmbiguousError` also carries the candidates in label form, ready to copy back.

The parser's errors are made from a stable key and parameters (`NotationError.make`, texts in
`messages.py`): `message` is the English text, `localized(lang)` the text in a game language,
from the message catalogue.
"""

from __future__ import annotations

from typing import Self

from .messages import (
    RECEIPT,
    TEXTS,
    bank_rate_text,
    city_there_text,
    receipt_text,
    render,
    road_below_text,
)

#: The most candidates an error lists (a line of the answer each): a name that fits more says
#: how to name the place instead (`names.py`), and no list is ever longer.
MAX_CANDIDATES = 8


class OrderError(Exception):
    """Base class: a line of a mail that cannot be taken as written."""

    def __init__(
        self,
        message: str,
        *,
        line: int = 0,
        text: str = "",
        column: int | None = None,
        candidates: list[str] | None = None,
        rule: str | None = None,
        key: str | None = None,
        params: dict[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        #: English (for an `IllegalOrderError`: the language the receipt checks were run in).
        self.message = message
        self.line = line
        self.text = text
        self.column = column
        self.candidates = (candidates or [])[:MAX_CANDIDATES]
        self.rule = rule
        #: The message's key in `messages.py` and what fills it in, when made with `make`.
        self.key = key
        self.params = params or {}

    @classmethod
    def make(
        cls,
        key: str,
        *,
        column: int | None = None,
        candidates: list[str] | None = None,
        **params: object,
    ) -> Self:
        """The error with the text `key` of `messages.py`; `message` is its English form."""
        return cls(
            TEXTS[key].format(**params),
            column=column,
            candidates=candidates,
            key=key,
            params=params,
        )

    def localized(self, lang: str) -> str:
        """The message in a game language (its catalogue); a receipt refusal by its rule. Line
        and column are not part of it."""
        if self.key is not None:
            return render(self.key, lang, self.params)
        if self.rule is not None and self.rule in RECEIPT:
            each = self.params.get("each")
            if isinstance(each, list):  # several builds on one line, each refused
                return "; ".join(f"{label}: {receipt_text(why, lang)}" for label, why in each)
            if self.params.get("city_there"):
                return city_there_text(lang)
            text = receipt_text(self.rule, lang)
            below = self.params.get("road_below")
            if isinstance(below, int):  # the road that would reach it stands on a later line
                text += ": " + road_below_text(below, lang, bool(self.params.get("ship_below")))
            rate = self.params.get("bank_rate")
            if isinstance(rate, tuple):  # the player's rate for the resource, and the line
                text += ": " + bank_rate_text(*rate, lang=lang)
            return text
        return self.message

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
