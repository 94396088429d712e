"""Kronlande's order words (issue 19), registered with `game_words.EXPANSION_WORDS`: its
keywords (`Burg`, `Herstellen`, `feast`, …) and build words are order words in a Kronlande game
only, and there Stein, Fisch and the goods are resources (`Stein` is stone, never ore); in any
other game they are ordinary words (`(my castle)`, `(Fisch!)` are remarks there)."""

from __future__ import annotations

from . import lexicon, vocab
from .game_words import BASE_WORDS, EXPANSION_WORDS, GameWords
from .names import is_kron

#: Kronlande's words: its keywords' first words, its build words (not `harbour`, which ends a
#: harbour's name in a crossing: `harbour privilege` is a pair) and its resource names.
KRON_WORDS = BASE_WORDS.joined(
    GameWords(
        lexicon.word_set("words", "kron_keyword_starts"),
        lexicon.word_set("words", "kron_build_starts"),
        vocab.KRON_WORDS,
        frozenset(
            (first, second)
            for first, second in (p.split() for p in lexicon.words("words", "kron_build_pairs"))
        ),
    )
)

EXPANSION_WORDS.append((is_kron, KRON_WORDS))
