"""Seeds: every chance outcome of a game comes from a generator seeded from the game seed.

Per-round seeds are derived with SHA-256, never with `hash()`, so they are the same in every
process whatever PYTHONHASHSEED is.
"""

from __future__ import annotations

import hashlib


def derive_seed(seed: int, purpose: str, number: int = 0) -> int:
    """A 63-bit seed for one purpose ("round", "setup", …) and number of a game."""
    digest = hashlib.sha256(f"{seed}:{purpose}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
