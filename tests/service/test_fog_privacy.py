"""The fog keeps its secret (issue 18, Oceania): no mail, map, picture, archive page, island
preview, help or status answer, board JSON or `pbm game board` output shows anything of a hex
before it is discovered (the reports' JSON attachments too).

The test plays one Oceania game by mail twice, identically, but for what lies under the fog:
the second time the fog stack and the token stack are the same as far as the first game
discovered them and different after that. Every output of both games must then be the same,
byte for byte (random passwords, keys and Message-IDs are drawn from one seeded generator in
both). Had any output shown a hidden hex, its tile or its token, the two would differ.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from pathlib import Path

import pytest
from databases import game_state, outbox, seated
from harness import Mailer, make_service, new_game, play_round, play_setup_by_mail, signup

from pbm.reports.text_map import draw
from pbm.rules import fog
from pbm.service import admin
from pbm.service.archive import write_archive
from pbm.service.context import Service
from pbm.service.games import ServiceError

NAME = "nebel"
SEED = 9
#: The rounds played: the autopilot's ships discover fog in rounds 5 and 7 of this seed.
ROUNDS = 9


def _outputs(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    """Every player-facing output of the game after ROUNDS rounds, and its discoveries."""
    rng = random.Random(1)
    monkeypatch.setattr(secrets, "choice", rng.choice)
    monkeypatch.setattr(secrets, "token_hex", lambda n=32: rng.randbytes(n).hex())
    tmp.mkdir()
    svc = make_service(tmp)
    mailer = Mailer(svc)
    new_game(svc, NAME, players=4, seed=SEED, scenario="ozeanien")
    signup(mailer, NAME, 4)
    play_setup_by_mail(mailer, NAME)
    players = seated(svc, NAME)
    mailer.send(players[0].address, "Hilfe", f"Spiel: {NAME}\nHilfe\n")
    clock = svc.clock
    while game_state(svc, NAME)[1].round <= ROUNDS:
        play_round(mailer, clock, NAME)  # type: ignore[arg-type]
        mailer.send(players[1].address, "Status", f"Spiel: {NAME}\nStatus\n")
    _, state = game_state(svc, NAME)
    archive = tmp / "archive"
    write_archive(svc, NAME, archive)
    mails = [
        (o.kind, o.recipients, o.subject, o.body, o.html, o.image, o.chart, o.attachment)
        for o in outbox(svc)
    ]
    assert state.sea is not None
    return {
        "mails": mails,
        "archive": {
            p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(archive.iterdir())
        },
        "map": admin.board_map(svc, NAME),
        "picture": admin.board_picture(svc, NAME),
        "maps": [draw(state, lang) for lang in ("de", "en")],
        "json": json.dumps(state.board.to_json(), sort_keys=True),
        "found": list(state.sea.fog),
        "hidden": len(state.board.fog),
    }


@pytest.mark.slow  # two games of ten rounds by mail
def test_nothing_shows_what_the_fog_hides(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as m:
        first = _outputs(tmp_path / "first", m)
    found = first["found"]
    assert isinstance(found, list) and found, "the game must discover some fog"
    assert first["hidden"], "and leave some hidden"
    tiles, tokens = fog.stacks("ozeanien", 4, SEED)
    used_tiles = len(found)
    used_tokens = sum(1 for _, _, t in found if t is not None)
    # The same stacks as far as they were used, then others: the rest turned round, and a
    # token (the stacks' rest can read the same backwards) moved from the end to the front.
    other_tiles = tiles[:used_tiles] + tiles[used_tiles:][::-1]
    rest = tokens[used_tokens:]
    other_tokens = tokens[:used_tokens] + rest[-1:] + rest[:-1]
    if other_tiles == tiles:
        other_tiles = tiles[:used_tiles] + tiles[used_tiles + 1 :] + tiles[used_tiles]
    assert (other_tiles, other_tokens) != (tiles, tokens)
    with monkeypatch.context() as m:
        m.setattr(fog, "stacks", lambda key, players, seed: (other_tiles, other_tokens))
        second = _outputs(tmp_path / "second", m)
    for key in first:
        assert first[key] == second[key], key
    # And the rest of the stacks really differ: the next discovery would show it.
    assert (other_tiles[used_tiles:], other_tokens[used_tokens:]) != (
        tiles[used_tiles:],
        tokens[used_tokens:],
    )


def test_the_stored_state_holds_no_stack(tmp_path: Path) -> None:
    """What is stored of a game names only the hexes discovered: the stacks are not in it, and
    the board it lays out is fog where nothing has been found."""
    svc = make_service(tmp_path)
    mailer = Mailer(svc)
    new_game(svc, NAME, players=3, seed=SEED, scenario="ozeanien")
    signup(mailer, NAME, 3)
    game, state = game_state(svc, NAME)
    assert state.sea is not None and not state.sea.fog
    stored = json.loads(game.state or "{}")
    assert stored["sea"].keys() >= {"scenario", "ships"} and "fog" not in stored["sea"]
    hexes = state.board.to_json()["hexes"]
    assert isinstance(hexes, list)
    fogged = [h for h in hexes if h["terrain"] == "fog"]
    assert len(fogged) == 12
    assert all((h["resource"], h["number"]) == (None, None) for h in fogged)


def test_an_oceania_game_is_created_by_the_gm(svc: Service, mailer: Mailer) -> None:
    """`pbm game create NAME --scenario ozeanien`: 3 or 4 players, the scenario's VP target; its
    board, as `pbm game board` draws it, is fog beyond the strait."""
    data = admin.new_game(svc, "oz", scenario="ozeanien", players=4, seed=5)
    assert data["name"] == "oz"
    with pytest.raises(ServiceError, match="3 or 4"):
        admin.new_game(svc, "oz5", scenario="ozeanien", players=5)
    signup(mailer, "oz", 4)
    _, state = game_state(svc, "oz")
    assert state.settings.scenario == "ozeanien" and state.settings.vp_target == 12
    text = admin.board_map(svc, "oz")
    assert "Nebel: ? unentdeckt" in text and text.count("  ?  ") >= 10
