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
    option_text,
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
        #: The option of a line of choices the error is about (`in_option`): its number, how
        #: many the line has, its text as written.
        self.option: tuple[int, int, str] | None = None
        #: The errors of the line's other options that fail too (`with_others`): said after
        #: this one's.
        self.others: list[OrderError] = []

    def in_option(self, number: int, count: int, option: str) -> Self:
        """The same error, said of option `number` of a line of `count` choices (`option` as
        written): "option 2 of 2 ('Siedlung A2 B1 B2'): A2, B1, B2 meet at no crossing"."""
        if self.option is None and option and count > 1:
            self.option = (number, count, option)
            self.message = option_text(number, count, option, self.message, "en")
        return self

    def with_others(self, others: list[OrderError]) -> Self:
        """The same error, with the errors of the line's other options that fail too (each
        said of its option): one refusal names every option's reason. The candidates are
        those of the one that lists any (at most one may: each list fits its option)."""
        if others:
            self.others = others
            every: list[OrderError] = [self, *others]
            self.candidates = next((e.candidates for e in every if e.candidates), [])
            self.message = "; ".join([self.message, *(o.message for o in others)])
        return self

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
        text = self._localized(lang)
        if self.option is not None:
            text = option_text(*self.option, text, lang)
        return "; ".join([text, *(o.localized(lang) for o in self.others)])

    def _localized(self, lang: str) -> str:
        if self.key is not None:
            return render(self.key, lang, self.params)
        if self.rule is not None and self.rule in RECEIPT:
            each = self.params.get("each")
            if isinstance(each, list):  # several builds or choices on one line, each refused
                # The later line whose road would reach an option: (its index, line, ship).
                reached = self.params.get("each_below")
                lines = (
                    {i: (n, ship) for i, n, ship in reached} if isinstance(reached, list) else {}
                )
                text = "; ".join(
                    f"{label}: {receipt_text(why, lang)}"
                    + (f": {road_below_text(lines[i][0], lang, lines[i][1])}" if i in lines else "")
                    for i, (label, why) in enumerate(each)
                )
            elif self.params.get("city_there"):
                return city_there_text(lang)
            else:
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


def choices_refused(failed: list[tuple[int, str, OrderError]], count: int) -> OrderError:
    """The refusal of a line of `count` choices (`Siedlung … oder Siedlung …`) of which
    `failed` cannot be read, each as (its number, its text as written, its error): each
    option's reason, said of it ("option 2 of 2 ('Siedlung A2 B1 B2'): …"); one reason alone
    when every option fails for it (`Siedlung X oder Siedlung Y` in the setup: no road). Two
    options that each list candidates to copy back: the first of them alone (a list fits its
    option)."""
    errors = [e for _, _, e in failed]
    if len(failed) == count and len({e.message for e in errors}) == 1:
        return errors[0]
    named = [e.in_option(n, count, text) for n, text, e in failed]
    listing = [e for e in named if e.candidates]
    if len(listing) > 1:
        return listing[0]
    return named[0].with_others(named[1:])


class NotationError(OrderError):
    """Malformed: the line does not say anything the order language knows, or names a place
    that is not on this board. Says what was expected, and where."""


class AmbiguousError(OrderError):
    """Several crossings, paths or hexes match; `candidates` lists each in label form."""


class IllegalOrderError(OrderError):
    """Well formed, but impossible on this board now (crossing taken, road touching nothing of
    the player's, a card not held). Final legality is the engine's, at resolution."""
