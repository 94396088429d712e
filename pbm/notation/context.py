"""What every reader of a line is given: the game's `Context` (board, language, seat
colours, phase) and `Text`, a piece of the line with its folded form and its columns (errors
name the column as the player wrote it)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from pbm.rules.board import Board

from .game_words import GameWords, game_words
from .names import is_kron
from .text import fold


@dataclass(frozen=True)
class Context:
    board: Board
    lang: str = "de"
    #: Seat colours (canonical German names), to turn colours into seats.
    colours: tuple[str, ...] = ("rot", "blau", "gelb", "weiss")
    phase: str = "round"
    #: Letters read as the card given wherever they stand (`vocab.resource`): set only to
    #: read a line again for its question back (`parse_line`).
    read_as: tuple[tuple[str, int], ...] = ()
    #: The players' names (folded, as `fold` writes them) and their seats, for a partner or a
    #: victim named instead of a colour (`Handel mit Anna: …`, `raube Anna`): only names that
    #: are one player's alone and no colour. Empty where nobody's names are known.
    names: tuple[tuple[str, int], ...] = ()

    @property
    def words(self) -> GameWords:
        """The words that make a line an order in this game (Kronlande's too on its board)."""
        return game_words(self.board)

    @property
    def kron(self) -> bool:
        """A Kronlande game (its board has quarries and fishing grounds): Kronlande's letters,
        words and orders are read (`Stein` is stone, never ore)."""
        return is_kron(self.board)


class Text:
    """A piece of a line: the player's text, its folded form and where it sits in the line."""

    def __init__(self, original: str, offset: int = 0) -> None:
        self.original = original
        self.offset = offset
        self.folded, self._index = fold(original)

    def col(self, folded_pos: int) -> int:
        """1-based column in the line of a position in the folded text."""
        if folded_pos >= len(self._index):
            return self.offset + len(self.original) + 1
        return self.offset + self._index[folded_pos] + 1

    def sub(self, start: int, end: int | None = None) -> Text:
        """The piece between two folded positions, as a new Text."""
        a = self._index[start] if start < len(self._index) else len(self.original)
        b = (
            (self._index[end - 1] + 1)
            if end is not None and end > start
            else (len(self.original) if end is None else a)
        )
        return Text(self.original[a:b], self.offset + a)

    def replaced(self, start: int, end: int, by: str = "") -> Text:
        """The same piece with the characters of folded positions start..end written `by`,
        padded with blanks to the same length: columns stay where the player wrote them."""
        return self.rewritten([(start, end, by)])

    def rewritten(self, spans: list[tuple[int, int, str]]) -> Text:
        """`replaced` for several spans at once (sorted, not overlapping), in one pass."""
        out: list[str] = []
        done = 0
        for start, end, by in spans:
            if start >= end:
                continue
            a = self._index[start] if start < len(self._index) else len(self.original)
            b = self._index[end - 1] + 1 if end - 1 < len(self._index) else len(self.original)
            if a < done:
                continue
            out.append(self.original[done:a])
            out.append(by[: b - a].ljust(b - a))
            done = b
        if not out:
            return self
        out.append(self.original[done:])
        return Text("".join(out), self.offset)


def seat_names(players: Iterable[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Each player's name and first name (folded) with the seat, for `Context.names`: a name
    two players share, or that is a colour, is left out."""
    from . import vocab

    found: dict[str, set[int]] = {}
    for name, seat in players:
        if not name.strip():
            continue
        full = fold(" ".join(name.split()))[0]
        for word in {full, full.split()[0]}:
            found.setdefault(word, set()).add(seat)
    return tuple(
        sorted(
            (word, next(iter(seats)))
            for word, seats in found.items()
            if len(seats) == 1 and word not in vocab.COLOUR_WORDS and " " not in word
        )
    )
