"""The round report as JSON, for programs (`runde-N.json` in a German game, `round-N.json` in
an English one): attached to every round report and to the game-end report.

Its schema is `pbm/schemas/round-report.schema.json`, documented in docs/report-json.md. It
holds what the report's reader may see, no more:

- the board as it lies: hexes (terrain, resource, number), harbours; a hex still under the fog
  is `fog`, with neither resource nor number (the state's board shows no more: `rules/fog.py`);
- every piece of every player, the robber and the pirate, the visible victory points, titles;
- of every player the counts the report shows (cards in hand, development cards, knights
  played), never their cards;
- under `you`, the reader's own seat: their hand by resource and their development cards by
  type. An observer's copy has `you: null`.

A report goes to several recipients as one outbox row: the public part is stored once and
each seat's own part beside it, by address (`attachment_value`); the sender joins them for
each recipient (`for_recipient`). Nothing here reads a codebook or another seat's cards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib.resources import files
from typing import Any

from pbm.i18n import base, translator
from pbm.notation import vocab
from pbm.rules.board import Board, Terrain
from pbm.rules.state import GameState

#: What the document is and its version: a program checks both before it reads on.
FORMAT = "pbm-round-report"
VERSION = 1
#: The schema's file among the package's data (`schema()`).
SCHEMA_FILE = "round-report.schema.json"

#: Resources and goods by index of a hand (`rules/resources.py`): language-neutral ids.
RESOURCE_IDS = (
    "lumber",
    "brick",
    "wool",
    "grain",
    "ore",
    "stone",
    "fish",
    "tools",
    "cloth",
    "bread",
)
#: The colours as the state stores them → language-neutral ids.
COLOUR_IDS = {
    "rot": "red",
    "blau": "blue",
    "gelb": "yellow",
    "weiss": "white",
    "gruen": "green",
    "braun": "brown",
    "orange": "orange",
    "schwarz": "black",
}


def schema() -> dict[str, Any]:
    """The JSON Schema of the document (package data)."""
    text = files("pbm").joinpath("schemas", SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def filename(lang: str, round_: int) -> str:
    """`runde-12.json` (German), `round-12.json` (English)."""
    # Translators: the file name of the round report's JSON attachment: ASCII letters, digits
    # and "-" only.
    return translator(lang).gettext("round-{round}.json").format(round=round_)


def _resource(r: int | None) -> str | None:
    return None if r is None else RESOURCE_IDS[r]


def _colour(state: GameState, p: int) -> str:
    canonical = state.colours[p]
    return COLOUR_IDS.get(canonical, canonical)


def _hexes(board: Board) -> list[dict[str, Any]]:
    out = []
    for h in board.hexes:
        fog = h.terrain == Terrain.FOG
        out.append(
            {
                "label": h.label,
                "row": h.row,
                "x": h.x,
                "terrain": str(h.terrain),
                # A hex under the fog: the state's board knows nothing of it yet.
                "resource": None if fog else _resource(h.resource),
                "number": None if fog else h.number,
                "area": h.area,
            }
        )
    return out


def _harbours(board: Board) -> list[dict[str, Any]]:
    out = []
    for h in board.hexes:
        harbour = h.harbor
        if harbour is None:
            continue
        faces = board.hexes[harbour.faces]
        if Terrain.FOG in (h.terrain, faces.terrain):
            continue  # never on a board drawn so far; a harbour in the fog stays hidden
        pair = (min(h.id, faces.id), max(h.id, faces.id))
        crossings = board.path_crossings[board.path_id[pair]]
        out.append(
            {
                "hex": h.label,
                "faces": faces.label,
                "rate": harbour.rate,
                "resource": _resource(harbour.resource),
                "crossings": [board.crossing_label(c) for c in crossings],
            }
        )
    return out


def _titles(state: GameState, p: int) -> list[str]:
    out = []
    if state.longest_road == p:
        out.append("longest_road")
    if state.largest_army == p:
        out.append("largest_army")
    return out


class JsonPart:
    """What an expansion adds to the report's JSON: its module (`sea_json.py`, `kron_json.py`)
    registers one in `JSON_PARTS`. Each fills in keys the base game writes with their empty
    value (so the keys keep their place and a base game's file is as it was), and only for a
    game with its part of the state."""

    def public(self, state: GameState, out: dict[str, Any]) -> None:
        """The game's keys: its `kind`, the pirate."""

    def player(self, state: GameState, p: int, row: dict[str, Any]) -> None:
        """A player's keys: titles, special points, castles, residences, workshops, ships."""


#: The expansions' parts of the report's JSON.
JSON_PARTS: list[JsonPart] = []


def _player(state: GameState, p: int, lang: str, name: str, ended: bool) -> dict[str, Any]:
    board = state.board
    row: dict[str, Any] = {
        "seat": p,
        "colour": _colour(state, p),
        "colour_name": vocab.colour_name(state.colours[p], lang),
        "name": name,
        "vp": state.visible_vp(p),
        "titles": _titles(state, p),
        "special_vp": 0,
        "cards_in_hand": sum(state.hands[p]),
        "development_cards": len(state.cards[p]),
        "knights_played": state.knights[p],
        "road_length": state.road_lengths[p],
        "settlements": [board.crossing_label(c) for c in sorted(state.settlements[p])],
        "cities": [board.crossing_label(c) for c in sorted(state.cities[p])],
        "castles": [],
        "residences": [],
        "workshops": [],
        "roads": [board.path_label(e) for e in sorted(state.roads[p])],
        "ships": [],
    }
    for part in JSON_PARTS:
        part.player(state, p, row)
    if ended:
        # The game-end report reveals every card and the points they make.
        row["final_vp"] = state.vp(p)
        row["revealed_cards"] = [card for card, _ in state.cards[p]]
    return row


def public_part(
    state: GameState,
    game: str,
    lang: str,
    round_: int,
    log: list[str],
    deadline: datetime | None,
    names: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """What every reader of the report of `round_` gets (`state`: after it); `log`: the
    report's lines of what happened; `deadline`: the next round's, if any."""
    settings = state.settings
    ended = state.winner >= 0
    robber = state.robber
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "language": base(lang),
        "kind": "base",
        "scenario": settings.scenario,
        "vp_target": settings.vp_target,
        "round": round_,
        "ended": ended,
        "winner": _colour(state, state.winner) if ended else None,
        "next_round": None if ended else state.round,
        "deadline": (
            None
            if ended or deadline is None
            else deadline.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        ),
        "board": {"hexes": _hexes(state.board), "harbours": _harbours(state.board)},
        "robber": state.board.hexes[robber].label if robber >= 0 else None,
        "pirate": None,
        "players": [
            _player(state, p, lang, (names or {}).get(p, ""), ended)
            for p in range(len(state.colours))
        ],
        "log": list(log),
    }
    for part in JSON_PARTS:
        part.public(state, out)
    return out


def own_part(state: GameState, seat: int) -> dict[str, Any]:
    """What only the player of `seat` gets: their hand and development cards."""
    width = state.settings.hand_width
    hand = state.hands[seat]
    return {
        "seat": seat,
        "colour": _colour(state, seat),
        "hand": {RESOURCE_IDS[r]: hand[r] if r < len(hand) else 0 for r in range(width)},
        "development_cards": [
            {"card": card, "bought_in_round": bought} for card, bought in state.cards[seat]
        ],
        # The visible points and the player's own victory point cards.
        "vp_total": state.vp(seat),
    }


def attachment_value(public: dict[str, Any], own: Mapping[str, dict[str, Any]], name: str) -> str:
    """The outbox row's `attachment`: the file name, the public part once and each recipient's
    own part by address (`for_recipient` joins them)."""
    return json.dumps(
        {"filename": name, "public": public, "own": dict(own)},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def for_recipient(stored: Mapping[str, Any], address: str) -> tuple[str, bytes]:
    """(file name, the document's bytes) for one recipient of a row whose `attachment` is
    `stored` (parsed): the public part with `you`, their own part or null."""
    document = {**stored["public"], "you": stored["own"].get(address)}
    # Compact: the C encoder (an indent would take the pure-Python one, several times slower
    # for every recipient of every report); `python -m json.tool` shows it indented.
    data = json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"
    return str(stored["filename"]), data.encode("utf-8")


# The expansions' parts register themselves (`JSON_PARTS`); importing them here, last (they
# use this module), means whoever writes a report's JSON writes them all.
from . import kron_json  # noqa: E402, F401, I001
from . import sea_json  # noqa: E402, F401
