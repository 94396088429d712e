"""The words that make a line an order in one kind of game (`GameWords`): every keyword's first
word, the first words of a build and the resource words. A game reads the base game's, or those
of the expansion its board is (`Context.words`); an expansion whose orders have words of their
own registers them in `EXPANSION_WORDS` from its module (`kron_words.py`), so no reader asks
which expansion a game plays. The words are the language files' (`lexicon`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbm.rules.board import Board

from . import lexicon, vocab


@dataclass(frozen=True)
class GameWords:
    #: Every keyword's first word, folded: a line starting with one is an order, not a heading.
    keyword_starts: frozenset[str]
    #: First words of a build: where a second build on the same line starts.
    build_starts: frozenset[str]
    #: The resources' full names in every language, each to its card (`Holz`, `ore`).
    resources: Mapping[str, int]
    #: Builds whose name is two words, neither a build word alone (`harbour privilege`:
    #: `harbour` also ends a harbour's name in a crossing), as pairs of folded words.
    build_pairs: frozenset[tuple[str, str]] = frozenset()

    def joined(self, other: GameWords) -> GameWords:
        """These words and `other`'s (a name both have is `other`'s card)."""
        return GameWords(
            self.keyword_starts | other.keyword_starts,
            self.build_starts | other.build_starts,
            {**self.resources, **other.resources},
            self.build_pairs | other.build_pairs,
        )


#: The base game's words (a line read without a board is read with these).
BASE_WORDS = GameWords(
    lexicon.word_set("words", "keyword_starts"),
    lexicon.word_set("words", "build_starts"),
    vocab.RESOURCE_WORDS,
)

#: An expansion's words: whether a board is one of its games, and the words its games read.
EXPANSION_WORDS: list[tuple[Callable[[Board], bool], GameWords]] = []


def game_words(board: Board) -> GameWords:
    """The words read in a game on `board`."""
    for plays, words in EXPANSION_WORDS:
        if plays(board):
            return words
    return BASE_WORDS


def every_game_words() -> GameWords:
    """The words of every kind of game at once."""
    out = BASE_WORDS
    for _plays, words in EXPANSION_WORDS:
        out = out.joined(words)
    return out


# The expansions' words register themselves; importing them here, last, means whoever imports
# this module reads them all.
from . import kron_words  # noqa: E402, F401
