"""Gold rivers (Seafarers): each gold card is a resource of the owner's choice.

Spec `seafarers.md`, "The mail round": a player's `Gold:` preference is used left to right,
repeating, for every gold card of the round (all rolls of the round share it); without one, each
card is the resource the player holds fewest of at that moment, counting the cards of this
payout (ties in the order H L W G E). The chosen cards are then paid like any production, so the
classic bank's shortage rule (`production.produce`) applies to them as well.
"""

from __future__ import annotations

from collections.abc import Mapping

from .resources import N_RESOURCES


class GoldChoices:
    """The round's `Gold:` preferences and how far each has been used."""

    __slots__ = ("prefs", "used")

    def __init__(self, prefs: Mapping[int, tuple[int, ...]] | None = None) -> None:
        self.prefs: dict[int, tuple[int, ...]] = {p: r for p, r in (prefs or {}).items() if r}
        self.used: dict[int, int] = {}

    def choose(self, p: int, holding: list[int]) -> int:
        """The resource of p's next gold card; `holding` is p's hand with this payout so far."""
        pref = self.prefs.get(p)
        if pref:
            i = self.used.get(p, 0)
            self.used[p] = i + 1
            return pref[i % len(pref)]
        return min(range(N_RESOURCES), key=lambda r: (holding[r], r))
