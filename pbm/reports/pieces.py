"""What stands on the board, in words: every piece a player owns, and where the robber and the
pirate are. One function for every game kind (the base game, the Seafarers scenarios,
Kronlande), used by every list that names pieces: the report's text and HTML parts and the
pages of the web archive.

- `pieces_text`: a player's settlements, cities (Kronlande: castles and residences), workshops,
  roads and ships (`Siedlung C3 C4 D3 (…); Straßen …; Schiffe …`).
- `places_text`: the robber's hex (off the island in Kronlande, after a castle sent it away)
  and, in Seafarers, the pirate's, named as the log names hexes (`Räuber: D3 (Wüste); Pirat: B2
  (Meer)`), so that nobody needs to find `***` or `<P>` in the map.
"""

from __future__ import annotations

from pbm.i18n import N_, translator
from pbm.notation.names import crossing_text, hex_short_name, path_text, ship_path_text
from pbm.rules.board import Board
from pbm.rules.kron import BURG, NO_CASTLE, RESIDENZ
from pbm.rules.state import GameState

#: A player's workshops in the lists of pieces, by kind.
WORKSHOP_TEXTS = (N_("smithy {crossing}"), N_("weaving mill {crossing}"), N_("bakery {crossing}"))


def pieces_text(state: GameState, p: int, lang: str) -> str:
    """Every piece of seat p on the board, "-" for none: settlements, cities (Kronlande: as
    castles and residences), workshops, roads, ships; each kind in the board's order."""
    board = state.board
    _ = translator(lang).gettext
    parts = []
    for c in sorted(state.settlements[p]):
        parts.append(_("settlement {crossing}").format(crossing=crossing_text(board, c, lang)))
    kron = state.kron
    for c in sorted(state.cities[p]):
        rank = kron.castle[c] if kron is not None else NO_CASTLE
        text = _("city {crossing}")
        if rank == BURG:
            text = _("castle {crossing}")
        elif rank == RESIDENZ:
            text = _("residence {crossing}")
        parts.append(text.format(crossing=crossing_text(board, c, lang)))
    if kron is not None:
        for kind, c in enumerate(kron.workshops[p]):
            if c >= 0:
                text = _(WORKSHOP_TEXTS[kind])
                parts.append(text.format(crossing=crossing_text(board, c, lang)))
    roads = ", ".join(path_text(board, e, lang) for e in sorted(state.roads[p]))
    if roads:
        parts.append(_("roads {paths}").format(paths=roads))
    sea = state.sea
    if sea is not None and sea.ships[p]:
        ships = ", ".join(ship_path_text(board, e, lang) for e in sorted(sea.ships[p]))
        parts.append(_("ships {paths}").format(paths=ships))
    return "; ".join(parts) or "-"


def hex_words(board: Board, h: int, lang: str) -> str:
    """A hex as the log names it: its label and what it is (`D3 (Wüste)`, `B2 (Meer)`)."""
    short = hex_short_name(board, h, lang)
    label = board.hexes[h].label
    return label if short == label else f"{label} ({short})"


def places_text(state: GameState, lang: str) -> str:
    """Where the robber stands and, in Seafarers with the pirate, where the pirate sails."""
    _ = translator(lang).gettext
    board = state.board
    if 0 <= state.robber < len(board.hexes):
        parts = [_("Robber: {hex}").format(hex=hex_words(board, state.robber, lang))]
    else:
        # Kronlande: a castle next to it sent the robber off the island; a scenario without
        # a desert starts without it.
        parts = [_("Robber: not on the board")]
    sea = state.sea
    if sea is not None and 0 <= sea.pirate < len(board.hexes):
        parts.append(_("Pirate: {hex}").format(hex=hex_words(board, sea.pirate, lang)))
    return "; ".join(parts)
