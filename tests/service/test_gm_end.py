"""An honest end (issue 28): a game the GM ends reveals the hidden cards, gives the final
standing with the GM's reason (equal points share a place), and every number of that mail is
the archive's; `pbm game list` shows the game as ended, at no round."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from databases import outbox
from harness import GM, Games
from sqlmodel import Session
from typer.testing import CliRunner

from pbm.cli import app
from pbm.notation import vocab
from pbm.rules.layouts import VICTORY_POINT
from pbm.service import admin
from pbm.service.archive import archive_data, write_archive
from pbm.service.context import Service
from pbm.service.games import get_game, load_state, save_state
from pbm.store.db import transaction

WHY = "Zwei Spieler sind ausgestiegen."


def _hide_cards(svc: Service) -> list[int]:
    """Seat 0 holds two hidden VP cards, seat 1 one and a knight: the points everyone saw are
    less than the points the seats have. Returns every seat's points, hidden cards counted."""
    with transaction(svc.engine) as s:
        game = get_game(s, "alpha", lock=True)
        state = load_state(game)
        state.cards[0] += [(VICTORY_POINT, 1), (VICTORY_POINT, 2)]
        state.cards[1] += [(VICTORY_POINT, 2), ("knight", 2)]
        save_state(game, state)
        assert state.visible_vp(0) == state.vp(0) - 2
        return [state.vp(p) for p in range(4)]


def _final_rows(body: str) -> dict[str, tuple[int, int, str]]:
    """The mail's final standing: colour → (place, points, revealed cards)."""
    block = body.split("Endstand mit verdeckten Karten:\n", 1)[1].split("\n\n", 1)[0]
    # A row's hidden cards may wrap onto the next line, indented under the points.
    joined: list[str] = []
    for line in block.splitlines():
        if joined and not re.match(r"  \d\. ", line):
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    rows = {}
    for line in joined:
        m = re.fullmatch(
            r"  (\d)\. (\S+)(?: \([^)]*\))?\s+(\d+)(?: \(verdeckte Karten: (.*)\))?", line
        )
        assert m, line
        rows[m.group(2)] = (int(m.group(1)), int(m.group(3)), m.group(4) or "")
    return rows


def _numbers(body: str) -> dict[str, list[int]]:
    """The mail's game in numbers: heading → a number per seat."""
    block = body.split("Das Spiel in Zahlen", 1)[1].split("\n\n", 1)[0]
    table = {}
    for line in block.splitlines()[1:]:
        m = re.fullmatch(r"  (\S+)\s+([\d ]+)", line)
        if m:
            table[m.group(1)] = [int(n) for n in m.group(2).split()]
    return table


def test_the_gm_ends_a_game_with_the_final_standing_and_the_archive_agrees(
    svc: Service, games: Games, tmp_path: Path
) -> None:
    games.start("alpha", round_=4)
    points = _hide_cards(svc)
    admin.end_game(svc, "alpha", WHY)
    (notice,) = [o for o in outbox(svc, "gm_notice") if "beendet" in o.subject]
    body = notice.body
    assert WHY in body
    assert "Niemand hat 10 Siegpunkte erreicht: Das Spiel hat keinen Sieger." in body
    with Session(svc.engine) as s:
        game = get_game(s, "alpha")
        state = load_state(game)
        data = archive_data(s, game)
    colours = [vocab.colour_name(c, "de") for c in state.colours]
    final = _final_rows(body)
    # Every seat, its points with the hidden cards, its cards shown; places shared by equals.
    assert {c: final[c][1] for c in colours} == dict(zip(colours, points, strict=True))
    for place, vp, _cards in final.values():
        assert place == 1 + sum(1 for other in final.values() if other[1] > vp)
    # (the cards a seat held before, then those given above)
    assert final[colours[0]][2].endswith("Siegpunkt, Siegpunkt")
    assert final[colours[1]][2].endswith("Siegpunkt, Ritter")
    # The archive counts the same: its final standing, its VP row and the mail's numbers.
    standing = {row["label"].split(" ")[0]: row["vp"] for row in data["standing"]}
    assert standing == {c: final[c][1] for c in colours}
    numbers = _numbers(body)
    archived = {heading: values for heading, values in data["summary"]["table"]}
    assert numbers == archived
    assert numbers["Siegpunkte"] == points
    # And so does the page: the final standing's VP column is the mail's points.
    write_archive(svc, "alpha", tmp_path / "web")
    index = (tmp_path / "web" / "index.html").read_text(encoding="utf-8")
    table = index.split('<table id="standing">', 1)[1].split("</table>", 1)[0]
    cells = re.findall(r"<tr><td>([^<]*)</td>(?:<td>\d+</td>){3}<td>(\d+)</td></tr>", table)
    assert {label.split(" ")[0]: int(vp) for label, vp in cells} == standing
    assert "Endstand" in index
    # Nothing of it was hidden before the end: the seed is revealed too.
    assert f"Würfel-Startwert: {game.seed}" in body


def test_game_list_shows_an_ended_game_as_ended(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    games.start("alpha", round_=2)
    admin.end_game(svc, "alpha", WHY)
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "{GM}"\n')
    out = CliRunner().invoke(app, ["--config", str(cfg), "game", "list"])
    assert out.exit_code == 0, out.output
    (line,) = out.output.splitlines()
    assert line.split()[:2] == ["alpha", "ended"] and "round" not in line
    assert line.rstrip().endswith("4/4 players, medium island")


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_the_levers_of_a_running_game_are_refused_once_it_has_ended(
    svc: Service, games: Games
) -> None:
    """Pausing, an autopilot and a new player are for a game that goes on: after `pbm game
    end` they are refused, and nobody is mailed about a game that is over."""
    from pbm.service.games import ServiceError

    table = games.start("alpha")
    admin.end_game(svc, "alpha", WHY)
    mails = len(outbox(svc))
    colour = vocab.colour_name("rot", "de")
    for lever in (
        lambda: admin.pause_game(svc, "alpha"),
        lambda: admin.set_autopilot(svc, "alpha", colour, True),
        lambda: admin.replace_player(svc, "alpha", colour, "neu@players.test"),
    ):
        with pytest.raises(ServiceError, match="alpha has ended"):
            lever()
    assert len(outbox(svc)) == mails
    assert table.name == "alpha"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_a_mail_with_a_password_no_longer_valid_is_not_sent_again(
    svc: Service, games: Games
) -> None:
    """`pbm outbox retry` of a welcome mail dropped when the seat got a new password: its
    password is gone (it would reach the player as nothing), so it is refused with the way
    to a new one; a mail waiting already is refused too."""
    from pbm.service.games import ServiceError

    games.start("alpha")
    colour = vocab.colour_name("rot", "de")
    admin.new_password(svc, "alpha", colour)
    dropped = [o for o in outbox(svc, "welcome") if o.status == "dropped"]
    pending = [o for o in outbox(svc, "welcome") if o.status == "pending"]
    assert dropped
    with pytest.raises(ServiceError, match="pbm player password"):
        admin.retry_outbox(svc, dropped[0].id or 0)
    assert pending
    with pytest.raises(ServiceError, match="waiting to be sent already"):
        admin.retry_outbox(svc, pending[0].id or 0)
