"""The static web archive (issue 15): `pbm game archive`, kept up to date by `pbm serve` with
`[archive] dir`; the VP chart; `Verlauf` / `History`; nothing secret in any file."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from databases import game_row, outbox, replies_to, seated
from harness import Games, Mailer, make_service, play_round, set_archive, start_game
from sqlmodel import Session, select

from pbm.reports import codebook
from pbm.service.archive import keep_archives, write_archive
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.store.models import Game, Player

SEED = 987654321
LINK = re.compile(r'(?:href|src)="([^"#]+)"')


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def _secrets(svc: Service, table_passwords: dict[str, str]) -> list[str]:
    """Every secret of the game: passwords and their hashes, addresses, codebook keys and the
    codes of every codebook row, the dice seed and the seal nonce."""
    out = [str(SEED)]
    with Session(svc.engine) as s:
        out += [g.seal_nonce for g in s.exec(select(Game))]
        for p in s.exec(select(Player)):
            out += [p.address, p.password_hash, p.codebook_secret]
            if p.codebook_secret:
                for k in range(1, 26):
                    # Codes are short; only the longer ones are told apart from other text.
                    out += [c for c in codebook.row(p.codebook_secret, k) if len(c) >= 4]
    out += list(table_passwords.values())
    return [x for x in out if x]


def test_the_archive_of_a_running_game(svc: Service, games: Games, tmp_path: Path) -> None:
    table = games.start("alpha", round_=4, seed=SEED)
    folder = tmp_path / "arch"
    written = write_archive(svc, "alpha", folder)
    files = _files(folder)
    assert {"index.html", "vp.svg", "round-001.html", "round-003.html", "board-002.png"} <= set(
        files
    )
    assert len(written) == len(files)
    index = files["index.html"].decode()
    for p in seated(svc, "alpha").values():
        assert p.name in index  # "rot (Spieler 1)"
    assert "<svg" in index and 'href="round-001.html"' in index
    # Every link and picture of every page is a file of the archive.
    for name, data in files.items():
        if name.endswith(".html"):
            for target in LINK.findall(data.decode()):
                assert target in files, (name, target)
    r2 = files["round-002.html"].decode()
    assert 'rel="prev" href="round-001.html"' in r2 and 'rel="next" href="round-003.html"' in r2
    # Nothing secret, in any file (the pictures too).
    for name, data in files.items():
        for secret in _secrets(svc, table.passwords):
            assert secret.encode() not in data, (name, secret)
    # No card type of anybody's hand: only a card played is named (in the log).
    from pbm.notation import vocab

    for name, data in files.items():
        if name.endswith(".html"):
            text = data.decode()
            # What the pages say of the players: the table cells and the log's lines.
            said = re.findall(r"<td>(.*?)</td>", text)
            said += "".join(re.findall(r'<pre id="log">(.*?)</pre>', text, re.S)).splitlines()
            for card in vocab.CARD_NAMES["de"].values():
                for line in said:
                    if card in line:
                        assert " spielt " in line, (name, line)
    # A rollback's round goes away from the archive, and the next write has it again.
    write_archive(svc, "alpha", folder)
    assert _files(folder).keys() == files.keys()


def test_the_archive_lists_every_piece_and_where_the_pirate_is(
    svc: Service, games: Games, tmp_path: Path
) -> None:
    """A Seafarers game's round pages list each player's pieces as the report does, ships
    too, and name the robber's and the pirate's hexes in words."""
    from pbm.reports.pieces import pieces_text, places_text
    from pbm.service.games import load_state

    games.start("isles", round_=2, scenario="vier-inseln")
    folder = tmp_path / "isles"
    write_archive(svc, "isles", folder)
    page = (folder / "round-001.html").read_text(encoding="utf-8")
    state = load_state(game_row(svc, "isles"))
    assert state.sea is not None and any(state.sea.ships)
    pieces = re.findall(r'<ul id="pieces">(.*?)</ul>', page, re.S)[0]
    for p in range(len(state.colours)):
        assert html.escape(pieces_text(state, p, "de")) in pieces
    assert "Schiffe " in pieces
    assert f'<p id="places">{html.escape(places_text(state, "de"))}</p>' in page
    assert "Pirat: " in page


def test_serve_keeps_the_archive_in_archive_dir(tmp_path: Path, clock: FakeClock) -> None:
    root = tmp_path / "web"
    svc = make_service(tmp_path, clock)
    mailer = Mailer(svc)
    start_game(mailer, clock, "alpha")
    set_archive(svc, dir=str(root))
    keep_archives(svc, ["alpha"])
    assert (root / "alpha" / "index.html").exists()
    assert not (root / "alpha" / "round-001.html").exists()
    play_round(mailer, clock, "alpha")
    keep_archives(svc, ["alpha"])
    assert (root / "alpha" / "round-001.html").exists()
    keep_archives(svc, ["nope"])  # logged, never raised


BAD_NAMES = [
    "/tmp/x",
    "../../..",
    "..",
    ".",
    "",
    "a/b",
    "a\\b",
    ".hidden",
    "-rf",
    "_x",
    "two words",
    "Königsinsel",
    "x" * 33,
    "tab\tname",
    "line\nbreak",
    "semi;colon",
    "insel.",  # a sentence ending with the name would end "insel.."
]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_game_name_that_is_not_a_plain_word_is_refused(svc: Service, name: str) -> None:
    from pbm.service import admin
    from pbm.service.games import ServiceError

    with pytest.raises(ServiceError, match="cannot be a game's name"):
        admin.new_game(svc, name)
    assert admin.list_games(svc) == []


def test_the_names_a_game_may_have_are_the_ones_a_stray_answer_repeats(svc: Service) -> None:
    from pbm.service import admin, stray
    from pbm.service.games import GAME_NAME

    assert stray.PLAUSIBLE_NAME is GAME_NAME
    good = ["a", "Insel", "insel-2", "Runde_3.b", "x" * 32, "0.1"]
    for name in good:
        admin.new_game(svc, name)
    assert [g["name"] for g in admin.list_games(svc)] == good


def test_pbm_game_create_refuses_a_path_as_a_name(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbm.cli import app

    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "pbm.db"}"\n', encoding="utf-8")
    for name in ("../../..", "/tmp/x"):
        result = CliRunner().invoke(app, ["--config", str(cfg), "game", "create", name])
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"error: {name!r} cannot be a game's name"), result.output


@pytest.mark.parametrize("name", ["../escaped", "/ABSOLUTE", "..", ".", "a/b", "../web2/x"])
def test_the_archive_is_never_written_outside_archive_dir_whatever_a_game_is_called(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture, name: str
) -> None:
    """A game created before names were checked may be called anything: `[archive] dir`
    joined with `/tmp/x` was /tmp/x, with `../../..` three folders up."""
    from pbm.service import archive
    from pbm.store.db import transaction
    from pbm.store.models import Game

    root = tmp_path / "web"
    svc = make_service(tmp_path, clock)
    mailer = Mailer(svc)
    start_game(mailer, clock, "alpha")
    set_archive(svc, dir=str(root))
    name = name.replace("/ABSOLUTE", str(tmp_path / "absolute"))
    with transaction(svc.engine) as s:  # as an old game may be named: no check on the way
        game = s.exec(select(Game).where(Game.name == "alpha")).one()
        game.name = name
    before = {p for p in tmp_path.rglob("*") if p.name != "pbm.db" and "pbm.db" not in p.name}
    keep_archives(svc, [name])
    after = {p for p in tmp_path.rglob("*") if p.name != "pbm.db" and "pbm.db" not in p.name}
    assert after - before <= {root}, sorted(after - before)
    assert "archive of" in caplog.text and "not a folder inside" in caplog.text
    with pytest.raises(ValueError):
        archive.game_folder(root, name)
    assert archive.game_folder(root, "alpha") == root.resolve() / "alpha"


def test_history_links_into_the_archive(tmp_path: Path, clock: FakeClock) -> None:
    svc = make_service(tmp_path, clock)
    mailer = Mailer(svc)
    table = start_game(mailer, clock, "alpha", round_=3)
    set_archive(svc, url="https://example.org/pbm/")
    me = table.seats[0]
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nVerlauf\n")
    (row,) = replies_to(svc, mailer.last_id, "history")
    assert "https://example.org/pbm/alpha/index.html" in row.body
    assert "Runde 2: https://example.org/pbm/alpha/round-002.html" in row.body


def test_history_without_an_archive_sends_the_last_reports(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    table = games.start("alpha", round_=5)
    me = table.seats[1]
    mailer.send(me, "x", f"Kennwort: {table.passwords[me]}\nHistory\n")
    (row,) = replies_to(svc, mailer.last_id, "history")
    reports = outbox(svc, "report")
    assert reports[-1].subject in row.body and reports[-3].subject in row.body
    assert reports[-4].subject not in row.body
    mailer.send(me, "x", "Spiel: alpha\nVerlauf\n")  # needs the password
    assert replies_to(svc, mailer.last_id, "history") == []


@pytest.mark.slow
def test_the_end_mail_and_the_archive_of_a_finished_game(
    svc: Service, mailer: Mailer, clock: FakeClock, games: Games, tmp_path: Path
) -> None:
    games.start("short", vp_target=4, seed=SEED)
    for _ in range(80):
        if game_row(svc, "short").phase == "ended":
            break
        play_round(mailer, clock, "short")
    assert game_row(svc, "short").phase == "ended"
    (end,) = outbox(svc, "end")
    # The chart is a PNG inline (cid:): Gmail strips inline SVG; the archive keeps the SVG.
    assert 'src="cid:vpchart@pbm"' in end.html and "<svg" not in end.html
    assert end.chart is not None and end.chart[:8] == b"\x89PNG\r\n\x1a\n"
    write_archive(svc, "short", tmp_path / "a")
    index = (tmp_path / "a" / "index.html").read_text()
    assert 'id="summary"' in index and "<svg" in index
    # Why it ended: the winner with their points; the numbers in the words of the end mail.
    end_line = re.findall(r'<p id="end">(.*?)</p>', index)[0]
    assert re.fullmatch(r"Das Spiel ist aus: \S+ \(Spieler \d\) hat mit \d+ Siegpunkten gewonnen\.",
                        end_line), end_line  # fmt: skip
    numbers = re.findall(r'<p id="numbers">(.*?)</p>', index)[0]
    assert f"Das Spiel in Zahlen ({numbers}):" in end.body
