"""The archive tells the whole game (issue 28): what game it is (kind, target, special rules),
every piece on the board at the end, why it ended (a winner and their points, or the GM's
reason), which rounds were corrected after their report went out and what changed, and the
game in numbers in words, the same words and numbers as the last mail."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from databases import game_row, game_state, outbox, passwords, seated
from harness import Games, Mailer, orders_text, pass_deadline, play_round
from sqlmodel import Session, select

from pbm.reports.pieces import pieces_text, places_text
from pbm.reports.summary import numbers_text
from pbm.service import admin
from pbm.service.archive import archive_data, write_archive
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import game_kind_of, get_game, load_state
from pbm.service.tick import tick
from pbm.store.db import transaction
from pbm.store.models import Outbox
from pbm.store.statuses import OutboxStatus

WHY = "Zwei Spieler sind ausgestiegen."


def _deliver(svc: Service) -> None:
    """Every pending mail counts as sent (as the sender marks it)."""
    with transaction(svc.engine) as s:
        for o in s.exec(select(Outbox).where(Outbox.status == OutboxStatus.PENDING)):
            o.status = OutboxStatus.SENT


def _page(folder: Path, name: str) -> str:
    return (folder / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(("lang", "kind"), [("de", "Seefahrer-Szenario"), ("en", "Seafarers")])
def test_the_index_says_what_game_it_is_and_every_piece_at_the_end(
    svc: Service, games: Games, tmp_path: Path, lang: str, kind: str
) -> None:
    games.start("isles", round_=2, scenario="vier-inseln", lang=lang)
    admin.end_game(svc, "isles", WHY)
    folder = tmp_path / "isles"
    write_archive(svc, "isles", folder)
    index = _page(folder, "index.html")
    with Session(svc.engine) as s:
        game = get_game(s, "isles")
        state = load_state(game)
        identity = game_kind_of(game, state)
    # The kind, the players and the target, as every mail of the game names them.
    assert html.escape(identity["title"]) in index and kind in index
    for line in identity["rules"]:
        assert html.escape(line) in index
    # Every piece of every seat at the end (ships too), and where robber and pirate stand.
    pieces = re.findall(r'<ul id="pieces">(.*?)</ul>', index, re.S)[0]
    for p in range(4):
        assert html.escape(pieces_text(state, p, lang)) in pieces
    assert any(state.sea.ships) and ("Schiffe " in pieces or "ships " in pieces)  # type: ignore[union-attr]
    assert f'<p id="places">{html.escape(places_text(state, lang))}</p>' in index
    # Why it ended, and the numbers in words, in the game's language.
    end = re.findall(r'<p id="end">(.*?)</p>', index, re.S)[0]
    numbers = re.findall(r'<p id="numbers">(.*?)</p>', index)[0]
    if lang == "en":
        said = "The game master ended the game before anyone won. The game master's reason: "
        assert html.unescape(end) == said + WHY
        assert re.fullmatch(
            r"\d+ rounds?; (no 7 was rolled|the 7 was rolled (once|\d+ times))", numbers
        )
    else:
        assert end.startswith("Die Spielleitung hat das Spiel beendet")
        assert re.fullmatch(r"\d+ Runden?; die 7 fiel (nie|einmal|\d+-mal)", numbers), numbers


def test_a_game_the_gm_ended_says_so_with_the_reason_and_the_last_mails_numbers(
    svc: Service, games: Games, tmp_path: Path
) -> None:
    games.start("alpha", round_=4)
    admin.end_game(svc, "alpha", WHY)
    (notice,) = [o for o in outbox(svc, "gm_notice") if "beendet" in o.subject]
    folder = tmp_path / "web"
    write_archive(svc, "alpha", folder)
    index = _page(folder, "index.html")
    end = re.findall(r'<p id="end">(.*?)</p>', index, re.S)[0]
    assert "Die Spielleitung hat das Spiel beendet, bevor jemand gewonnen hat." in end
    assert f"Begründung der Spielleitung: {WHY}" in end
    # The game in numbers, in words, exactly as the end mail says it.
    with Session(svc.engine) as s:
        data = archive_data(s, get_game(s, "alpha"))
    numbers = data["summary"]["numbers"]
    assert re.fullmatch(r"\d+ Runden; die 7 fiel (nie|einmal|\d+-mal)", numbers), numbers
    assert f"Das Spiel in Zahlen ({numbers}):" in notice.body
    assert f'<p id="numbers">{numbers}</p>' in index
    assert " × 7" not in index and " × 7" not in notice.body
    assert game_row(svc, "alpha").ended_why == WHY


def test_the_numbers_in_words_take_the_plural_forms() -> None:
    assert numbers_text(1, 0, "de") == "1 Runde; die 7 fiel nie"
    assert numbers_text(16, 1, "de") == "16 Runden; die 7 fiel einmal"
    assert numbers_text(16, 6, "de") == "16 Runden; die 7 fiel 6-mal"
    assert numbers_text(1, 1, "en") == "1 round; the 7 was rolled once"
    assert numbers_text(16, 6, "en") == "16 rounds; the 7 was rolled 6 times"
    assert numbers_text(3, 0, "en") == "3 rounds; no 7 was rolled"
    assert numbers_text(16, 6, "de@modern") == "16 Runden; die 7 fiel 6-mal"


def test_a_corrected_round_is_marked_with_the_reason_and_what_changed(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, tmp_path: Path
) -> None:
    games.start("alpha")
    pw = passwords(svc)
    _, st = game_state(svc, "alpha")
    for seat, p in seated(svc, "alpha").items():
        mailer.send(p.address, "Züge", orders_text(st, seat, pw[p.address]))
    assert game_row(svc, "alpha").round == 2
    _deliver(svc)
    (first,) = outbox(svc, "report")
    folder = tmp_path / "web"
    write_archive(svc, "alpha", folder)
    assert "korrigiert" not in _page(folder, "index.html")
    assert 'class="corrected"' not in _page(folder, "round-001.html")
    # Rot's orders came late: the round is opened again, rot passes, it is resolved again.
    admin.rollback_round(svc, "alpha", why="Rots Züge kamen zu spät.", reopen=True)
    p = seated(svc, "alpha")[0]
    mailer.send(p.address, "Züge", f"Kennwort: {pw[p.address]}\nIch passe\n")
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]
    (again,) = outbox(svc, "report", status="pending")
    write_archive(svc, "alpha", folder)
    index = _page(folder, "index.html")
    assert re.search(r'<a href="round-001.html">Runde 1</a> \(korrigiert\)</li>', index), index
    page = _page(folder, "round-001.html")
    (block,) = re.findall(r'<div class="corrected">(.*?)</div>', page, re.S)
    assert (
        "Von der Spielleitung korrigiert, nachdem der Bericht dieser Runde verschickt war." in block
    )
    assert "Grund: Rots Züge kamen zu spät." in block
    removed = re.findall(r"^- (.*)$", block, re.M)
    added = re.findall(r"^\+ (.*)$", block, re.M)
    assert removed or added
    # What went was in the first report, what came is in the corrected one (the mail wraps
    # its lines at 72 columns: compared by their first words).
    flat = [" ".join(m.body.split()) for m in (first, again)]
    for line in removed:
        assert html.unescape(line)[:40] in flat[0], line
    for line in added:
        assert html.unescape(line)[:40] in flat[1], line
    # The next rounds are not marked.
    play_round(mailer, clock, "alpha")
    write_archive(svc, "alpha", folder)
    assert 'class="corrected"' not in _page(folder, "round-002.html")
    assert "(korrigiert)" not in _page(folder, "index.html").split("round-002.html", 1)[1]
