"""The lines of Seafarers' events (ships, the pirate, gold, fog, special points, trade lines),
and how it tells the base events it changes: a gold river's production, a ship in the setup.
Registered with `describe.event_line` and `describe.refines` on import (`describe.py` imports
this module, so every report has these lines)."""

from __future__ import annotations

from pbm.i18n import N_, translator
from pbm.notation import vocab
from pbm.notation.names import crossing_text, ship_path_text
from pbm.rules import events as ev
from pbm.rules.board import Terrain
from pbm.rules.resources import LETTERS_DE
from pbm.rules.scenarios.data import DESERT, GOLD
from pbm.rules.sea_events import (
    HexDiscovered,
    HomeIslands,
    PirateMoved,
    ShipMoved,
    SpecialVP,
    TradeLineGained,
    TradeLineLost,
)
from pbm.rules.state import GameState

from .describe import ORDERED_BY, PIECE_LINES, Teller, event_line, refines

PIECE_LINES["ship"] = (N_("{player} builds a ship at {path}"), ship_path_text)
# A ship moved and the pirate a 7 or a knight moves carry out the seat's orders.
ORDERED_BY[ShipMoved] = lambda e: e.player
ORDERED_BY[PirateMoved] = lambda e: e.player if e.cause in ("seven", "knight") else None


@refines(ev.Produced)
def _gold(e: ev.Produced, t: Teller) -> str | None:
    """A gold river's cards are the owner's choice; the line says what they became."""
    if t.board.hexes[e.hex].terrain != Terrain.GOLD:
        return None
    return t._("  {player}: gold from {hex} becomes {cards} ({resource})").format(
        player=t.who(e.player),
        hex=t.hex(e.hex),
        cards=t.res(e.amount, e.resource),
        resource=vocab.resource_name(e.resource, t.lang),
    )


@refines(ev.SetupPlaced)
def _setup_ship(e: ev.SetupPlaced, t: Teller) -> str | None:
    """The placement took a ship (as far as the state shows; a ship moved away later reads as
    a road in a report written after the move)."""
    sea = t.state.sea
    if sea is None or sea.ship[e.path] < 0:
        return None
    return t._("{player} places a settlement at {crossing}, ship {path}").format(
        player=t.actor(e.player),
        crossing=crossing_text(t.board, e.crossing, t.lang),
        path=ship_path_text(t.board, e.path, t.lang),
    )


@event_line.register
def _(e: PirateMoved, t: Teller) -> str:
    return t._("  {player} moves the pirate to {hex}").format(
        player=t.actor(e.player), hex=t.hex(e.hex)
    )


@event_line.register
def _(e: ShipMoved, t: Teller) -> str:
    return t._("{player} moves a ship from {source} to {target}").format(
        player=t.actor(e.player),
        source=ship_path_text(t.board, e.source, t.lang),
        target=ship_path_text(t.board, e.target, t.lang),
    )


@event_line.register
def _(e: SpecialVP, t: Teller) -> str:
    text = t.ngettext(
        "  {player}: +{vp} VP for the first settlement there ({island}: {crossing})",
        "  {player}: +{vp} VP for the first settlement there ({island}: {crossing})",
        e.vp,
    )
    return text.format(
        player=t.who(e.player),
        vp=e.vp,
        island=_island(t.state, e.area, t.lang),
        crossing=crossing_text(t.board, e.crossing, t.lang),
    )


@event_line.register
def _(e: TradeLineGained, t: Teller) -> str:
    return t._(
        "  {player}: +1 VP for the trade line {start} – {end} ({own} of its {pieces} ships"
        " and roads)"
    ).format(
        player=t.who(e.player),
        # Labels only: the line is long enough without the hexes' contents.
        start=t.board.crossing_label(e.start),
        end=t.board.crossing_label(e.end),
        own=e.own,
        pieces=e.pieces,
    )


@event_line.register
def _(e: TradeLineLost, t: Teller) -> str:
    return t._("  {player}: -1 VP, the trade line {start} – {end} is lost").format(
        player=t.who(e.player),
        start=t.board.crossing_label(e.start),
        end=t.board.crossing_label(e.end),
    )


@event_line.register
def _(e: HexDiscovered, t: Teller) -> str:
    return t._("{player} discovers {hex}: {found}").format(
        player=t.actor(e.player), hex=t.board.hexes[e.hex].label, found=_found(e, t.lang)
    )


@event_line.register
def _(e: HomeIslands, t: Teller) -> str:
    islands = ", ".join(_island(t.state, a, t.lang) for a in e.areas)
    return t.ngettext(
        "{player}: home island (by the start settlements): {islands}",
        "{player}: home islands (by the start settlements): {islands}",
        len(e.areas),
    ).format(player=t.who(e.player), islands=islands)


def _island(state: GameState, area: int, lang: str) -> str:
    """An island of the game's Seafarers board by its name (`identity_sea.island_names`)."""
    from .identity_sea import island_names

    return island_names(state, lang).get(area, str(area))


def _found(e: HexDiscovered, lang: str) -> str:
    """What a fog hex turned out to be, from the event alone: `9L (Lehm)`, `4Gold (a gold
    river)`, `sea`, `desert`."""
    _ = translator(lang).gettext
    if e.tile == GOLD:
        return _("{number}Gold (a gold river)").format(number=e.number)
    if e.tile == DESERT:
        return _("desert")
    if e.tile not in LETTERS_DE:
        return _("sea")
    r = LETTERS_DE.index(e.tile)
    return f"{e.number}{vocab.letters(lang)[r]} ({vocab.resource_name(r, lang)})"
