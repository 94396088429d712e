"""Issue 21: the beginner setup of seed 000 and the modern edition's words of seed 002, through
the service (create, draw, preview, round 1, orders in both vocabularies, replay)."""

from __future__ import annotations

import pytest
from databases import game_row, game_state, outbox, replies_to
from harness import Games, Mailer, send_orders

from pbm.rules import Phase
from pbm.rules.beginner import STARTS
from pbm.service import admin
from pbm.service.context import Service
from pbm.service.games import ServiceError


def test_beginner_game_skips_the_setup_and_pays_the_starting_cards(
    svc: Service, games: Games
) -> None:
    games.start("alpha", layout="beginner")
    game, state = game_state(svc, "alpha")
    assert game.layout == "beginner" and state.board.name == "beginner"
    assert state.phase == Phase.ROUNDS and state.round == 1
    # No setup prompt or placement was ever sent; the preview shows pieces and starting cards.
    assert not outbox(svc, "setup") and not outbox(svc, "placed")
    preview = outbox(svc, "preview")[0].body
    assert "Startaufstellung für Einsteiger" in preview and "Startkarten" in preview
    assert outbox(svc, "round_open")
    for p, start in enumerate(STARTS):
        marked = state.board.crossing_by_labels(start.marked.split())
        other = state.board.crossing_by_labels(start.other.split())
        assert state.owner[marked] == p and state.owner[other] == p
        assert len(state.roads[p]) == 2
        # One card for each producing hex next to the marked settlement, none for the other.
        producing = [
            h for h in state.board.crossing_hexes[marked] if state.board.hexes[h].number is not None
        ]
        assert sum(state.hands[p]) == len(producing) == 3
    # The game replays from the beginner start.
    send_orders(games.mailer, "alpha", range(4))
    assert game_row(svc, "alpha").round == 2
    assert admin.replay_game(svc, "alpha").ok


def test_beginner_layout_is_for_three_or_four_on_the_medium_island(
    svc: Service, games: Games
) -> None:
    for kw in ({"players": 5}, {"players": 4, "size": "large"}):
        with pytest.raises(ServiceError, match="beginner"):
            admin.new_game(svc, "x", layout="beginner", **kw)
    with pytest.raises(ServiceError, match="layout"):
        admin.new_game(svc, "x", layout="fixed")
    with pytest.raises(ServiceError, match="edition"):
        admin.new_game(svc, "x", edition="neu")
    games.start("three", players=3, layout="beginner")
    _, state = game_state(svc, "three")
    assert len(state.settlements[0]) == 2 and sum(len(s) for s in state.settlements) == 6


def test_the_edition_chooses_the_bank_and_the_words(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    modern = admin.new_game(svc, "neu", edition="modern")
    classic = admin.new_game(svc, "alt")
    assert (modern["edition"], classic["edition"]) == ("modern", "klassisch")
    assert game_state_bank(svc, "neu") == "unlimited"
    assert game_state_bank(svc, "alt") == "classic"
    # The GM may still choose: a modern game with the classic bank.
    admin.new_game(svc, "neu2", edition="modern", bank="classic")
    assert game_state_bank(svc, "neu2") == "classic"

    table = games.start("mod", edition="modern")
    welcome = outbox(svc, "welcome")[0].body
    assert "Projektkarte" in welcome or "Bandit" in outbox(svc, "preview")[0].body
    assert "Räuber" not in outbox(svc, "preview")[0].body
    # Orders in the classic words are read in a modern game, and answered in modern words.
    address = table.seats[0]
    mailer.send(address, "Züge", f"Spiel: mod\nKennwort: {table.passwords[address]}\nRäuber 9H\n")
    ack = replies_to(svc, mailer.last_id)[0].body
    assert "Bandit" in ack and "Räuber" not in ack.split("> ")[0]


def game_state_bank(svc: Service, name: str) -> str:
    from pbm.service.games import settings_of

    return settings_of(game_row(svc, name)).bank
