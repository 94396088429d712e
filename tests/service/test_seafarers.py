"""Issue 17: a Seafarers game through the service: created with `--scenario`, set up by mail
with ships on the "must" coasts, rounds by mail with ship, move and gold lines (the autopilot's
orders), stored, reported and replayed."""

from __future__ import annotations

import pytest
from databases import game_row, game_state, outbox
from harness import Games, Mailer

from pbm.rules import Phase
from pbm.service import admin
from pbm.service.context import Service
from pbm.service.games import ServiceError


@pytest.mark.slow  # a setup and four rounds by mail
def test_a_four_islands_game_by_mail(svc: Service, games: Games) -> None:
    games.start("sea", players=4, round_=5, by_mail=True, scenario="vier-inseln")
    _, state = game_state(svc, "sea")
    assert state.sea is not None and state.settings.scenario == "vier-inseln"
    assert state.phase == Phase.ROUNDS and state.round == 5
    assert game_row(svc, "sea").round == 5
    # Setup by mail put ships on the "must" coasts.
    assert sum(len(x) for x in state.sea.ships) >= 1
    assert all(state.sea.home[p] for p in range(4))
    reports = outbox(svc, "report")
    assert reports
    # The report's map is the compact one, with the ships' legend, within 72 columns.
    body = reports[-1].body
    assert "Schiffe: Großbuchstabe einer Farbe" in body
    assert admin.replay_game(svc, "sea").ok


@pytest.mark.slow  # a setup and four rounds by mail
def test_a_great_crossing_game_by_mail(svc: Service, games: Games) -> None:
    """The Great Crossing (issue 18) by mail: every seat's start settlements on one of the two
    large islands, the game stored with its trade lines and replayed."""
    games.start("crossing", players=4, round_=5, by_mail=True, scenario="ueberfahrt")
    _, state = game_state(svc, "crossing")
    assert state.sea is not None and state.settings.scenario == "ueberfahrt"
    assert state.settings.vp_target == 12 and state.phase == Phase.ROUNDS
    # One home island each: both start settlements on Catanien (1) or on Transcatanien (2).
    assert all(state.sea.home[p] in ((1,), (2,)) for p in range(4))
    assert admin.replay_game(svc, "crossing").ok


def test_scenario_games_are_checked_when_created(svc: Service) -> None:
    with pytest.raises(ServiceError, match="scenario must be"):
        admin.new_game(svc, "x", scenario="atlantis")
    with pytest.raises(ServiceError, match="3 or 4"):
        admin.new_game(svc, "x", scenario="neue-ufer", players=5)
    with pytest.raises(ServiceError, match="own board"):
        admin.new_game(svc, "x", scenario="neue-ufer", size="large")
    # The Great Crossing is for 4 players (its 3-player board is for `pbm sim` alone).
    with pytest.raises(ServiceError, match="The Great Crossing is for 4 players: with 3, "):
        admin.new_game(svc, "x", scenario="ueberfahrt", players=3)
    assert admin.new_game(svc, "z", scenario="ueberfahrt", players=4)["name"] == "z"
    data = admin.new_game(svc, "y", scenario="wueste", players=3, pirate=False)
    assert data["name"] == "y"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_help_mail_of_a_seafarers_game_lists_the_ship_lines(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    admin.new_game(svc, "sea", scenario="neue-ufer", players=3, lang=lang)
    admin.new_game(svc, "base", players=3, lang=lang)
    for game in ("sea", "base"):
        mailer.send(f"asker-{game}@players.test", "Hilfe", f"Spiel: {game}\nHilfe\n")
    sea = outbox(svc, "help", to="asker-sea@players.test")[0].body
    base = outbox(svc, "help", to="asker-base@players.test")[0].body
    lines = (
        [
            "Schiff <Weg>",
            "Schiff versetzen <Weg> nach <Weg>",
            "Gold: <Rohstoff>",
            "Pirat <Meerfeld>",
        ]
        if lang == "de"
        else ["Ship <path>", "Move ship <path> to <path>", "Gold: <resource>", "Pirate <sea hex>"]
    )
    for line in lines:
        assert f"\n  {line}" in sea
        assert f"\n  {line}" not in base
    # The overview names the Seafarers chapter in a Seafarers game only; the guide itself is
    # in neither.
    chapter = "Hilfe Schiffe — Seefahrer" if lang == "de" else "Help ships — Seafarers"
    assert chapter in sea and chapter not in base
    assert "## " not in sea and "## " not in base
