"""Issue 19: a Kronlande game through the service: created with `--kronlande` on the large or the
huge island, signed up and set up, rounds by mail with the new lines (acknowledged in their
canonical form, refused at receipt where no line of the mail can help), reports with goods,
castles and the map's marks, the help mail's lines, and the replay of the recorded rounds."""

from __future__ import annotations

import json

import pytest
from databases import game_row, game_state, outbox
from harness import Games, Mailer, play_round

from pbm.rules import Phase
from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import ServiceError


def test_kronlande_games_are_checked_when_created(svc: Service) -> None:
    with pytest.raises(ServiceError, match="large or the huge island"):
        admin.new_game(svc, "x", kronlande=True, size="medium")
    with pytest.raises(ServiceError, match="exclude each other"):
        admin.new_game(svc, "x", kronlande=True, scenario="neue-ufer", players=3)
    with pytest.raises(ServiceError, match="own island"):
        admin.new_game(svc, "x", kronlande=True, layout="beginner")
    admin.new_game(svc, "k", kronlande=True, players=3)
    admin.new_game(svc, "h", kronlande=True, players=6, size="huge")
    large = json.loads(game_row(svc, "k").settings)
    huge = json.loads(game_row(svc, "h").settings)
    assert large["kronlande"] and large["size"] == "large" and large["players"] == 3
    assert huge["kronlande"] and huge["size"] == "huge" and huge["players"] == 6


@pytest.mark.parametrize("players", [1, 2, 7, 8])
def test_kronlande_is_for_three_to_six_players_everywhere(svc: Service, players: int) -> None:
    from typer.testing import CliRunner

    from pbm.cli import app
    from pbm.rules.state import Settings

    with pytest.raises(ValueError, match="3 to 6 players"):
        Settings.for_kronlande(players, "large")
    with pytest.raises(ServiceError, match="3 to 6 players"):
        admin.new_game(svc, "x", kronlande=True, players=players)
    n = str(players)
    for args in (
        ["board", "--kronlande", "--json", "--players", n],
        ["board", "--kronlande", "--players", n],
        ["sim", "--kronlande", "--games", "1", "--players", n],
        ["orders", "check", "--kronlande", "--players", n, "-"],
        ["demo", "--kronlande", "--players", n],
    ):
        out = CliRunner().invoke(app, args, input="")
        assert out.exit_code == 2 and "'--players'" in out.output, (args, out.output)


def test_the_cli_refuses_another_island_clearly() -> None:
    from typer.testing import CliRunner

    from pbm.cli import app

    out = CliRunner().invoke(app, ["board", "--kronlande", "--size", "small"])
    assert out.exit_code != 0 and "large or the huge" in out.output
    out = CliRunner().invoke(app, ["board", "--kronlande", "--size", "huge", "--seed", "4"])
    assert out.exit_code == 0, out.output
    assert "Steinbrüche:" in out.output
    assert max(len(line) for line in out.output.splitlines()) <= 72


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_help_mail_of_a_kronlande_game_lists_its_lines(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    admin.new_game(svc, "kron", kronlande=True, players=3, lang=lang)
    admin.new_game(svc, "base", players=3, lang=lang)
    for game in ("kron", "base"):
        mailer.send(f"asker-{game}@players.test", "Hilfe", f"Spiel: {game}\nHilfe\n")
    kron = outbox(svc, "help", to="asker-kron@players.test")[0].body
    base = outbox(svc, "help", to="asker-base@players.test")[0].body
    lines = (
        [
            "Schmiede <Kreuzung>",
            "Herstellen 1 <Ware>",
            "Burg <Kreuzung>",
            "Festmahl <Rohstoff oder Ware>",
        ]
        if lang == "de"
        else ["Smithy <crossing>", "Make 1 <good>", "Castle <crossing>", "Feast <resource or good>"]
    )
    for line in lines:
        assert f"\n  {line}\n" in kron
        assert f"\n  {line}\n" not in base
    chapter = "Hilfe Kronlande — Kronlande" if lang == "de" else "Help Kronlande — Kronlande"
    assert chapter in kron and chapter not in base
    # The letters of its cards, goods too.
    assert ("St Stoff" if lang == "de" else "Cl Cloth") in kron


def test_kronlande_lines_by_mail_are_echoed_and_checked_at_receipt(
    svc: Service, games: Games, mailer: Mailer
) -> None:
    table = games.start("kron", players=3, kronlande=True)
    _, state = game_state(svc, "kron")
    assert state.kron is not None and state.phase == Phase.ROUNDS
    seat = 0
    address = table.seats[seat]
    city = state.settlements[seat][0]
    where = state.board.crossing_label(city)
    body = (
        f"Kennwort: {table.passwords[address]}\n"
        f"Schmiede {where}\n"
        "Herstellen 1 Werkzeug\n"
        "Herstellen 2 Brot\n"
        f"Burg {where}\n"
        "Handel blau: gebe 1Wz, bekomme 1S\n"
        "Seehandel 4Br gegen 1S\n"
    )
    r = mailer.send(address, "Züge", body)
    assert r.status == "done", r
    ack = " ".join(outbox(svc, "ack", to=address)[-1].body.split())  # across wrapped lines
    assert f"Schmiede {where}" in ack
    assert "Herstellen 1 Werkzeug" in ack  # the Schmiede of the line above makes it
    # No workshop of this mail makes bread, the settlement is no city yet, goods never go to
    # the bank: each refused with its reason.
    assert "Herstellen 2 Brot" in ack and "Werkstatt" in ack
    assert "Burg" in ack and "Stadt" in ack
    assert "nie mit der Bank" in ack


def test_a_goods_letters_at_the_bank_are_asked_back_by_mail(
    svc: Service, games: Games, mailer: Mailer
) -> None:
    """The tester's line: `Seehandel 4 St gegen 1H` names Stoff, a good, which no bank
    takes. The answer asks back with the line to copy for Stein (`S`), as the guide says;
    the other lines of the mail are taken."""
    table = games.start("kron", players=3, kronlande=True)
    address = table.seats[0]
    body = (
        f"Kennwort: {table.passwords[address]}\n"
        "Seehandel 4 St gegen 1H\n"
        "Handel blau: gebe 2 St, bekomme 1H\n"
        "Entwicklungskarte\n"
    )
    assert mailer.send(address, "Züge", body).status == "done"
    ack = " ".join(outbox(svc, "ack", to=address)[-1].body.split())  # across wrapped lines
    assert "'4 St' ist Stoff, eine Ware" in ack
    assert "für Stein schreibe 'Seehandel 4S gegen 1H'" in ack
    assert "für Stoff schreibe 'Handel blau: gebe 2St, bekomme 1H'" in ack
    assert "für Stein 'Handel blau: gebe 2S, bekomme 1H'" in ack
    assert "Entwicklungskarte" in ack


@pytest.mark.slow  # a setup and rounds by mail until the Kronlande pieces stand
def test_a_kronlande_game_by_mail_is_reported_and_replays(
    svc: Service, games: Games, mailer: Mailer, clock: FakeClock
) -> None:
    games.start("kron", players=4, round_=10, by_mail=True, kronlande=True, size="large")
    # The autopilot's mails, round after round, until a workshop and a Burg stand.
    for _ in range(40):
        _, state = game_state(svc, "kron")
        kron = state.kron
        assert kron is not None and state.settings.kronlande
        if state.phase == Phase.ENDED or (
            any(c >= 0 for seat in kron.workshops for c in seat) and any(kron.burgen)
        ):
            break
        play_round(mailer, clock, "kron")
    assert kron is not None
    assert any(c >= 0 for seat in kron.workshops for c in seat) and any(kron.burgen)
    report = outbox(svc, "report")[-1].body
    assert "Steinbrüche:" in report and "Werkstätten:" in report
    assert "baut Burg" in "\n".join(o.body for o in outbox(svc, "report"))
    long = [x for x in report.split("Karten auf der Hand")[1].splitlines() if len(x) > 72]
    assert not long, long
    assert admin.replay_game(svc, "kron").ok


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_the_codebook_of_a_kronlande_welcome_mail_heads_each_of_its_columns(
    svc: Service, games: Games
) -> None:
    """A Kronlande row has eight codes (its three project cards after the five): the HTML
    table's head has a column for each, not the base game's five."""
    games.start("kron", players=3, kronlande=True)
    welcome = outbox(svc, "welcome")[0]
    table = welcome.html.split("<tr><th>#</th>", 1)[1].split("</table>", 1)[0]
    head, first = table.split("</tr>")[:2]
    assert head.count("<th>") == 8 == first.count("<td><b>")
