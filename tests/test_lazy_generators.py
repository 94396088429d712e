"""A sealed round's discard, steal and robber generators are seeded when first drawn from
(`rng._Deferred`): the very streams of `random.Random(derive_seed(seed, purpose, round))`,
whatever is drawn first, and plain generators once drawn from (no reference cycle: freed at
once, copied and pickled as any generator)."""

from __future__ import annotations

import copy
import gc
import pickle
import random
import weakref
from collections.abc import Callable
from typing import Any

import pytest

from pbm.rules.rng import Chance, _Deferred, derive_seed

Draw = Callable[[random.Random], Any]


def _shuffled(r: random.Random) -> list[int]:
    cards = list(range(30))
    r.shuffle(cards)
    return cards


def _bound_first(r: random.Random) -> list[int]:
    """`getrandbits` taken before the first draw and called after it (`randrange` does so)."""
    bits = r.getrandbits
    return [bits(5), bits(64), r.randrange(10**30), bits(3)]


DRAWS: dict[str, Draw] = {
    "random": lambda r: [r.random() for _ in range(5)],
    "randrange": lambda r: [r.randrange(10**20), r.randrange(7), r.randint(1, 6)],
    "choice and sample": lambda r: [r.choice("abc"), r.sample(range(50), 5), r.choices("xyz", k=4)],
    "weighted choices": lambda r: r.choices("xyz", weights=[1, 2, 3], k=6),
    "shuffle": _shuffled,
    "bits and bytes": lambda r: [r.getrandbits(77), r.randbytes(9)],
    "gauss first": lambda r: [r.gauss(), r.normalvariate(), r.random()],
    "floats": lambda r: [r.uniform(1, 2), r.expovariate(1.5), r.triangular()],
    "state first": lambda r: (r.getstate(), r.random()),
    "seed first": lambda r: (r.seed(99), r.random()),
    "a method bound before the first draw": lambda r: _bound_first(r),
    "copy": lambda r: [copy.copy(r).random(), r.random(), copy.deepcopy(r).random()],
    "pickle": lambda r: [pickle.loads(pickle.dumps(r)).random(), r.random()],
}


@pytest.mark.parametrize("draw", list(DRAWS.values()), ids=list(DRAWS))
def test_the_same_stream_as_the_generator_seeded_at_once(draw: Draw) -> None:
    for seed, purpose, number in ((5, "steal", 9), (-3, "discard", 1), (2**200, "robber", 44)):
        eager = random.Random(derive_seed(seed, purpose, number))
        lazy = _Deferred(seed, purpose, number)
        assert draw(lazy) == draw(eager)
        assert lazy.random() == eager.random()  # and on from there


def test_a_generator_drawn_from_is_freed_at_once() -> None:
    gc.disable()
    try:
        lazy = _Deferred(1, "steal", 3)
        lazy.random()
        gone = weakref.ref(lazy)
        del lazy
        assert gone() is None
    finally:
        gc.enable()


def test_a_sealed_round_makes_each_generator_when_asked() -> None:
    chance = Chance.sealed(7, 12, 4)
    for purpose in ("discard", "steal", "robber"):
        made = getattr(chance, purpose)
        assert getattr(chance, purpose) is made  # one generator a purpose
        assert made.random() == random.Random(derive_seed(7, purpose, 12)).random()
