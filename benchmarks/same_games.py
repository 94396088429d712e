"""Fingerprints of whole games of every kind, to show that a refactoring changes no game.

    python benchmarks/same_games.py > after.json
    git archive OLD pbm | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python benchmarks/same_games.py > before.json
    diff before.json after.json     # nothing: every game plays and reads alike

For the base game (4 and 5 players), Kronlande (large, huge) and every Seafarers scenario (3
and 4 players), with the autopilot and the random bot: the SHA-256 of every event of whole
games (`sim.simulate_game`, two seeds); the text and JSON forms of a game's state after 12
rounds (read back and written again alike); the report lines of every event in German,
English and Danish (`describe_all`), and every seat's legal moves (as a set), bank rates,
playable cards, ship and workshop lists after each round. Run it from the repository's root
with the interpreter of a checkout's venv; it prints one JSON object.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys

from pbm.reports.describe import describe_all
from pbm.rules.legal import LegalMoves
from pbm.rules.scenarios import SCENARIOS
from pbm.rules.serial import state_from_text, state_to_json, state_to_text
from pbm.rules.sim import play_game, simulate_game
from pbm.rules.state import Settings


def game_kinds() -> list[tuple[str, Settings]]:
    kinds = [
        ("base4", Settings.for_players(4)),
        ("base5", Settings.for_players(5)),
        ("kron4", Settings.for_kronlande(4)),
        ("kron5", Settings.for_kronlande(5, "huge")),
    ]
    for key in sorted(SCENARIOS):
        for n in (3, 4):
            with contextlib.suppress(ValueError):  # a scenario for one table size only
                kinds.append((f"{key}{n}", Settings.for_scenario(key, n)))
    return kinds


def fingerprints() -> dict[str, object]:
    out: dict[str, object] = {}
    for name, settings in game_kinds():
        for bot in ("autopilot", "random"):
            for seed in (1, 2):
                r = simulate_game(settings, seed, bot)
                out[f"{name}/{bot}/{seed}"] = [r.digest, r.winner, r.rounds]
            h = hashlib.sha256()
            for after, events in play_game(settings, 5, bot, max_rounds=40):
                for lang in ("de", "en", "da"):
                    h.update("\n".join(describe_all(events, after, lang, {0: "Ann"})).encode())
                for p in range(settings.players):
                    legal = LegalMoves(after, p)
                    h.update(repr(sorted(map(repr, legal))).encode())
                    lists = (legal.bank_rates(), legal.playable_cards(), legal.ships())
                    h.update(repr((lists, legal.workshops())).encode())
            out[f"{name}/{bot}/reports-and-moves"] = h.hexdigest()
        last = [after for after, _events in play_game(settings, 3, "random", max_rounds=12)][-1]
        text = state_to_text(last)
        assert state_to_text(state_from_text(text)) == text
        out[f"{name}/text"] = text
        out[f"{name}/json"] = json.dumps(state_to_json(last))
    return out


if __name__ == "__main__":
    json.dump(fingerprints(), sys.stdout, indent=0, sort_keys=True)
    print()
