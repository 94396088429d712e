"""Seeds and dice: every chance outcome of a game comes from the game seed.

docs/fair-dice.md gives the derivation of every roll, and `contrib/verify_dice.py` recomputes
them with the standard library alone. In short (rules 2, every game started since sealed dice):

- the rolls of round r, one per player in build order, are the dice of the stream
  `SEED:dice:r`, drawn before anything else happens in the round, so nothing a player orders
  changes them;
- the NMR robber's rolls for the player in seat s are the dice of the stream
  `SEED:nmr-robber:r:s`;
- a die stream is SHA-256 of `LABEL:0`, `LABEL:1`, … one after the other; each byte below 252
  gives the die `byte % 6 + 1`, bytes 252 to 255 are skipped (252 = 42 × 6: every face is
  equally likely);
- the dice seal of the welcome mails is SHA-256 of `SEED:NONCE`, with a 128-bit nonce drawn
  with the game (`seal`): the game-end report reveals both;
- the other random choices (cards discarded at random, the victim drawn by lot, the card
  stolen, the NMR robber's hex among several with its number) come from generators of their own
  per round, seeded with `derive_seed(seed, "discard" | "steal" | "robber", r)`.

Games of rules 1 (started before sealed dice) drew everything of a round from one generator,
`derive_seed(seed, "round", r)`, dice when they were rolled; their recorded rounds replay that
way (`Chance.legacy`).

Per-round seeds are derived with SHA-256, never with `hash()`, so they are the same in every
process whatever PYTHONHASHSEED is.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from typing import Any

#: Bytes at or above this are skipped: 252 = 42 × 6, so each face is equally likely.
DIE_LIMIT = 252


def derive_seed(seed: int, purpose: str, number: int = 0) -> int:
    """A 63-bit seed for one purpose ("round", "setup", …) and number of a game."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


#: A seal nonce: 128 bits as 32 lower-case hex digits (the service draws it with `secrets`).
NONCE_DIGITS = 32


def is_nonce(text: str) -> bool:
    """Whether `text` is a seal nonce: exactly 32 lower-case hex digits."""
    return len(text) == NONCE_DIGITS and all(c in "0123456789abcdef" for c in text)


def sealed_text(seed: int, nonce: str = "") -> str:
    """What the dice seal is the SHA-256 of: `SEED:NONCE` (the seed's decimal digits, a colon,
    the nonce's 32 hex digits); a game without a nonce (created before seal nonces) has
    the seed's digits alone."""
    if not nonce:
        return str(seed)
    if not is_nonce(nonce):
        raise ValueError(f"a seal nonce is {NONCE_DIGITS} lower-case hex digits: {nonce!r}")
    return f"{seed}:{nonce}"


def seal(seed: int, nonce: str = "") -> str:
    """The dice seal: SHA-256 (hex) of `sealed_text(seed, nonce)`, as
    `printf %s SEED:NONCE | sha256sum` gives it (`printf %s SEED | sha256sum` without a
    nonce). The nonce hides the seed whatever it is: a seed of a few digits (`--seed 5`), or an
    older game's 48 bits, cannot be found by trying seeds against the seal."""
    return hashlib.sha256(sealed_text(seed, nonce).encode()).hexdigest()


def seal_check(seed: int, nonce: str = "") -> str:
    """The one-line shell command that prints the seal from the revealed values."""
    return f"printf %s {sealed_text(seed, nonce)} | sha256sum"


def dice_stream(label: str) -> Iterator[int]:
    """The dice of a stream: SHA-256 of `label:0`, `label:1`, …; each byte below 252 gives
    `byte % 6 + 1`."""
    block = 0
    while True:
        for b in hashlib.sha256(f"{label}:{block}".encode()).digest():
            if b < DIE_LIMIT:
                yield b % 6 + 1
        block += 1


#: Each byte's die (`byte % 6 + 1`) and the bytes skipped, for `bytes.translate`: the dice of
#: a block in one call.
_DIE_FACES = bytes(b % 6 + 1 if b < DIE_LIMIT else 0 for b in range(256))
_DIE_SKIPPED = bytes(range(DIE_LIMIT, 256))


def round_rolls(seed: int, round_: int, players: int) -> list[tuple[int, int]]:
    """The rolls of a round in build order: the i-th is the i-th player's. (`dice_stream`'s
    first 2 × players dice, read block by block: one block nearly always holds them all.)"""
    label = f"{seed}:dice:{round_}"
    need = 2 * players
    dice = hashlib.sha256(f"{label}:0".encode()).digest().translate(_DIE_FACES, _DIE_SKIPPED)
    block = 1
    while len(dice) < need:
        digest = hashlib.sha256(f"{label}:{block}".encode()).digest()
        dice += digest.translate(_DIE_FACES, _DIE_SKIPPED)
        block += 1
    # Two slices of `need // 2` each: strict=True would only check what cannot differ.
    return list(zip(dice[0:need:2], dice[1:need:2], strict=False))


def nmr_robber_dice(seed: int, round_: int, seat: int) -> Iterator[int]:
    """The dice of the NMR robber rule for the player in `seat`, in round `round_`."""
    return dice_stream(f"{seed}:nmr-robber:{round_}:{seat}")


class _Deferred(random.Random):
    """`random.Random(derive_seed(seed, purpose, number))`, seeded when first drawn from: the
    same stream, without the derivation and the seeding (some 5 µs) when nothing is drawn, as
    in most rounds (a 7 whose robber finds nobody to rob draws nothing, nor one that no hand
    over the limit meets). Every draw of `random.Random` goes through `random` or
    `getrandbits`; the first of them seeds and turns the object into a plain `random.Random`
    (its C methods from then on). Turning it, rather than keeping the generator's bound methods
    on it, leaves no reference cycle: a generator drawn from is freed at once, not by the
    garbage collector, and copies and pickles as any generator."""

    def __init__(self, seed: int, purpose: str, number: int) -> None:
        # No super().__init__(): it would seed now. `random.Random.__new__` does not seed.
        self._seeds = (seed, purpose, number)
        self.gauss_next = None  # as `random.Random.__init__` sets it

    # Each method calls `_start(self)` and the class's own method, never `self.…`: a method
    # bound before the first draw (`randrange` binds `getrandbits`) is still this class's.

    def random(self) -> float:
        _start(self)
        return random.Random.random(self)

    def getrandbits(self, k: int, /) -> int:
        _start(self)
        return random.Random.getrandbits(self, k)

    def seed(self, a: object = None, version: int = 2) -> None:
        _start(self)  # a seed given later wins, as on any generator
        random.Random.seed(self, a, version)  # type: ignore[arg-type]

    def getstate(self) -> tuple[Any, ...]:
        _start(self)
        return random.Random.getstate(self)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _start(self)
        random.Random.setstate(self, state)

    def __reduce__(self) -> Any:
        _start(self)
        return random.Random.__reduce__(self)


def _start(rng: random.Random) -> None:
    """Seeds a `_Deferred` at its first draw and makes it a plain generator."""
    seeds = rng.__dict__.pop("_seeds", None)
    if seeds is not None:
        rng.__class__ = random.Random
        random.Random.seed(rng, derive_seed(*seeds))


class Chance:
    """Every chance outcome of one round: the rolls, the NMR robber's dice, and the generators
    of the other random choices (`discard`, `steal`, `robber`)."""

    __slots__ = ("_made", "_nmr", "_roll_rng", "_rolls", "_seeds")

    def __init__(
        self,
        rolls: list[tuple[int, int]] | None,
        #: The NMR robber's dice streams by seat (a sealed round opens the missing ones), or
        #: one generator for every seat.
        nmr: dict[int, Iterator[int]] | random.Random,
        discard: random.Random | None,
        steal: random.Random | None,
        robber: random.Random | None,
        seeds: tuple[int, int] | None = None,
    ) -> None:
        self._rolls = rolls
        #: Rules 1: the generator the dice are drawn from as they are rolled.
        self._roll_rng = None if rolls is not None else discard
        self._nmr = nmr
        #: The generators by purpose; a sealed round makes each when it is first asked for
        #: (most rounds need none: seeding three generators was a tenth of a bot game's time).
        self._made: dict[str, random.Random] = {}
        if discard is not None and steal is not None and robber is not None:
            self._made = {"discard": discard, "steal": steal, "robber": robber}
        #: (game seed, round) the sealed generators derive from.
        self._seeds = seeds

    def _gen(self, purpose: str) -> random.Random:
        rng = self._made.get(purpose)
        if rng is None:
            assert self._seeds is not None
            seed, round_ = self._seeds
            rng = self._made[purpose] = _Deferred(seed, purpose, round_)
        return rng

    @property
    def discard(self) -> random.Random:
        """The generator of the discards on a 7."""
        return self._gen("discard")

    @property
    def steal(self) -> random.Random:
        """The generator of the cards stolen."""
        return self._gen("steal")

    @property
    def robber(self) -> random.Random:
        """The generator of the NMR robber's hex."""
        return self._gen("robber")

    @classmethod
    def sealed(cls, seed: int, round_: int, players: int) -> Chance:
        """Rules 2: the rolls drawn first from their own stream, everything else apart."""
        # The NMR robber's dice streams are opened when a seat first needs one (`nmr_die`).
        return cls(round_rolls(seed, round_, players), {}, None, None, None, (seed, round_))

    @classmethod
    def legacy(cls, rng: random.Random) -> Chance:
        """Rules 1: one generator for everything, the dice drawn when they are rolled."""
        return cls(None, rng, rng, rng, rng)

    @classmethod
    def scripted(cls, rng: random.Random, players: int) -> Chance:
        """For tests: the first rolls of `rng` are the round's rolls (drawn first, as the sealed
        dice are), then `rng` serves the NMR robber's dice and every other choice."""
        rolls = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(players)]
        return cls(rolls, rng, rng, rng, rng)

    def roll(self, i: int) -> tuple[int, int]:
        """The roll of the i-th player in build order."""
        if self._rolls is None:
            assert self._roll_rng is not None
            rng = self._roll_rng
            return rng.randint(1, 6), rng.randint(1, 6)
        return self._rolls[i]

    def nmr_die(self, seat: int) -> int:
        """The next die of the NMR robber rule for the player in `seat`."""
        if isinstance(self._nmr, random.Random):
            return self._nmr.randint(1, 6)
        dice = self._nmr.get(seat)
        if dice is None:
            assert self._seeds is not None
            dice = self._nmr[seat] = nmr_robber_dice(*self._seeds, seat)
        return next(dice)
