"""Rounds rolled back and not yet resolved again (docs/service-decisions.md, "Rollback").

A round's rolls come from the game seed alone (docs/fair-dice.md), so resolving it again gives
the rolls its first report showed. What may change is up to the game master: the orders stay
as they were unless the round is reopened (`pbm round rollback GAME --reopen`), and the round
waits for its deadline or `pbm round resolve --now` (no early resolution). Its next report
is a correction: the GM's reason and the lines that changed, to everyone.

`Game.corrections` holds one entry per such round, as JSON by round number:
`{"why": str, "reopen": bool, "sent": bool, "events": [...]}`; `events` are those of the report
the players read last (kept when a later resolution of the round went out to nobody).
"""

from __future__ import annotations

import json
from typing import Any

from pbm.store.models import Game
from pbm.store.statuses import GamePhase


def entries(game: Game) -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(game.corrections or "{}")
    return data


def _save(game: Game, data: dict[str, dict[str, Any]]) -> None:
    game.corrections = json.dumps(data, separators=(",", ":")) if data else ""


def entry(game: Game, round_: int) -> dict[str, Any] | None:
    return entries(game).get(str(round_))


def note_rollback(
    game: Game, round_: int, why: str, reopen: bool, sent: bool, events: list[Any]
) -> dict[str, Any]:
    """Remember a rolled-back round. The events players read stay those of the last report
    that went out, and the report counts as sent if any of its resolutions went out."""
    data = entries(game)
    earlier = data.get(str(round_))
    shown = events if sent or earlier is None else earlier["events"]
    new = {
        "why": why or (earlier["why"] if earlier else ""),
        "reopen": reopen,
        "sent": sent or bool(earlier and earlier["sent"]),
        "events": shown,
    }
    data[str(round_)] = new
    _save(game, data)
    return new


def take(game: Game, round_: int) -> dict[str, Any] | None:
    """The round's entry, taken out: its resolution is the correction."""
    data = entries(game)
    found = data.pop(str(round_), None)
    _save(game, data)
    return found


def _open_entry(game: Game) -> dict[str, Any] | None:
    if game.phase != GamePhase.ROUNDS:
        return None
    return entry(game, game.round)


def closed(game: Game) -> bool:
    """The open round was rolled back and not reopened: its orders stay as they were."""
    found = _open_entry(game)
    return found is not None and not found["reopen"]


def waiting(game: Game) -> bool:
    """The open round was rolled back: it resolves at its deadline or by the GM, not early."""
    return _open_entry(game) is not None


def rolls_public(game: Game) -> bool:
    """The open round's rolls went out already (in the report that was rolled back)."""
    found = _open_entry(game)
    return found is not None and bool(found["sent"])


def corrected(game: Game) -> dict[str, list[dict[str, Any]]]:
    """The rounds corrected after their report went out (`Game.corrected`), by round number:
    one entry per correction, oldest first, `{"why": str, "events": [...]}` with the events of
    the report the players had read before it. Kept for the archive: unlike `entries`, a
    round's entry stays once the round is resolved again."""
    data: dict[str, list[dict[str, Any]]] = json.loads(game.corrected or "{}")
    return data


def note_corrected(game: Game, round_: int, why: str, events: list[Any]) -> None:
    """The round's resolution is a correction of a report the players read (`events`)."""
    data = corrected(game)
    data.setdefault(str(round_), []).append({"why": why, "events": events})
    game.corrected = json.dumps(data, separators=(",", ":"))
