"""The text map and the width of the text parts.

The map (issue 6): every hex with its label, token and resource, the buildings on their crossings
and the roads on their paths by colour letter, harbours and the robber, readable at 72 columns,
in the game's language. Positions are checked against the layout functions of `text_map`, and
the layout functions against the board's geometry. The text parts of the mails: no line over 100
columns, except the codebook rows and the sealed notices.
"""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from pbm.notation import vocab
from pbm.reports import text_map
from pbm.reports.render import render
from pbm.reports.report_data import board_map, report_data
from pbm.reports.text_map import colour_letters, crossing_cell, draw, hex_centre, path_cells
from pbm.rules.board import Board, Terrain
from pbm.rules.serial import state_from_text, state_to_text
from pbm.rules.sim import play_game
from pbm.rules.state import DEFAULT_COLOURS, GameState, Phase, Settings, new_game

from . import scenes

SIZES = {"small": 3, "medium": 4, "large": 5, "huge": 6}
LABEL = re.compile(r"(?<![A-Za-z0-9])[A-Z]{1,2}\d{1,2}(?![0-9])")
LEGEND_LINES = 5
#: Offsets (line, column) of a hex's six corners from its centre.
CORNERS = {(-5, 0), (-1, 4), (1, 4), (5, 0), (1, -4), (-1, -4)}


@cache
def _states(size: str) -> tuple[GameState, ...]:
    """A fresh board, and every hex of it under the robber once."""
    st = new_game(Settings.for_players(SIZES[size], size), 21)
    out = [st]
    for h in st.board.robber_hexes:
        moved = st.copy()
        moved.robber = h
        out.append(moved)
    return tuple(out)


@cache
def _played(size: str) -> tuple[GameState, ...]:
    """A game of bots: the state after the setup, every tenth round and at the end."""
    out = []
    for st, _ in play_game(Settings.for_players(SIZES[size], size), 4):
        if st.phase != Phase.SETUP and (st.round % 10 == 1 or st.phase == Phase.ENDED):
            out.append(st)
    assert out[-1].phase == Phase.ENDED
    return tuple(out)


def _mid_game(size: str) -> GameState:
    played = _played(size)
    return played[len(played) // 2]


def _map_lines(text: str) -> list[str]:
    """The map without its legend (which follows an empty line)."""
    lines = text.splitlines()
    assert lines[-LEGEND_LINES - 1] == ""
    return lines[: -LEGEND_LINES - 1]


def _at(lines: list[str], line: int, col: int, length: int = 1) -> str:
    row = lines[line] if line < len(lines) else ""
    return row[col : col + length].ljust(length)


def _text_at(lines: list[str], line: int, centre: int, text: str) -> str:
    """What the map shows where `text` is centred on `centre` (as `text_map` centres it)."""
    return _at(lines, line, centre - len(text) // 2, len(text))


def expected_code(state: GameState, h: int, lang: str) -> str:
    """The hex's token and resource as the map should print it in the game's language."""
    x = state.board.hexes[h]
    letters = vocab.letters(lang)
    if x.terrain == Terrain.SEA:
        if x.harbor is None:
            return "~"
        res = x.harbor.resource
        return "3:1" if res is None else f"2:1{letters[res]}"
    if x.terrain == Terrain.DESERT:
        return "Desert" if lang == "en" else "Wüste"
    if x.terrain == Terrain.GOLD:
        return f"{x.number}Gold"
    if x.terrain == Terrain.FOG:
        return "?"
    return f"{x.number}{letters[x.resource or 0]}"


# -- the layout against the board's geometry -------------------------------------------------


def _boards() -> list[Board]:
    return [_states(size)[0].board for size in SIZES]


@pytest.mark.parametrize("board", _boards(), ids=list(SIZES))
def test_every_crossing_is_a_corner_of_its_three_hexes(board: Board) -> None:
    cells = [crossing_cell(board, c) for c in range(len(board.crossing_hexes))]
    assert len(set(cells)) == len(cells)
    for c, (line, col) in enumerate(cells):
        for h in board.crossing_hexes[c]:
            cl, cc = hex_centre(board, h)
            assert (line - cl, col - cc) in CORNERS, board.crossing_label(c)


@pytest.mark.parametrize("board", _boards(), ids=list(SIZES))
def test_every_path_runs_between_its_two_crossings(board: Board) -> None:
    seen: set[tuple[int, int]] = set()
    crossings = {crossing_cell(board, c) for c in range(len(board.crossing_hexes))}
    for e, (u, v) in enumerate(board.path_crossings):
        cells = [(line, col) for line, col, _ in path_cells(board, e)]
        assert not seen & set(cells) and not crossings & set(cells), board.path_label(e)
        seen |= set(cells)
        # A straight run of characters, one line apart, from next to one end to the other.
        for (l1, c1), (l2, c2) in itertools.pairwise(cells):
            assert l2 - l1 == 1 and abs(c2 - c1) <= 1
        ends = {crossing_cell(board, u), crossing_cell(board, v)}
        first, last = cells[0], cells[-1]
        above = (first[0] - 1, first[1] - (cells[1][1] - first[1] if len(cells) > 1 else 0))
        below = (last[0] + 1, last[1] + (last[1] - cells[-2][1] if len(cells) > 1 else 0))
        assert ends == {above, below}, board.path_label(e)
        # The plain character slants the way the path does.
        chars = {ch for _, _, ch in path_cells(board, e)}
        step = cells[-1][1] - cells[0][1]
        assert chars == ({"|"} if step == 0 else {"/"} if step < 0 else {"\\"})


# -- every hex, label and code ---------------------------------------------------------------


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_every_hex_label_and_code_at_its_place(size: str, lang: str) -> None:
    st = _states(size)[0]
    lines = _map_lines(draw(st, lang))
    labels = [m.group(0) for line in lines for m in LABEL.finditer(line)]
    assert sorted(labels) == sorted(h.label for h in st.board.hexes)
    wrong = []
    for h in st.board.hexes:
        line, col = hex_centre(st.board, h.id)
        code = expected_code(st, h.id, lang)
        if _text_at(lines, line - 2, col, h.label) != h.label:
            wrong.append(f"{h.label}: label not at its place")
        if _text_at(lines, line, col, code) != code:
            wrong.append(f"{h.label}: {_text_at(lines, line, col, code)!r}, not {code!r}")
    assert not wrong, wrong[:10]


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_map_lines_fit_72_columns(size: str, lang: str) -> None:
    for st in (*_states(size), *_played(size)):
        for line in draw(st, lang).splitlines():
            assert len(line) <= text_map.WIDTH, (size, len(line), line)


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_robber_marked_on_its_hex_only(size: str, lang: str) -> None:
    for st in _states(size):
        lines = _map_lines(draw(st, lang))
        assert sum(line.count(text_map.ROBBER) for line in lines) == 1
        line, col = hex_centre(st.board, st.robber)
        assert _text_at(lines, line + 2, col, text_map.ROBBER) == text_map.ROBBER
        # The mark never covers the hex's label, code or outline.
        assert (
            _text_at(lines, line - 2, col, st.board.hexes[st.robber].label)
            == st.board.hexes[st.robber].label
        )


def _check_pieces(st: GameState, lang: str) -> list[str]:
    board = st.board
    lines = _map_lines(draw(st, lang))
    letter = colour_letters(st.colours, lang)
    harbours = {
        board.path_id[(min(h.id, h.harbor.faces), max(h.id, h.harbor.faces))]
        for h in board.hexes
        if h.harbor is not None
    }
    wrong = []
    for c, owner in enumerate(st.owner):
        want = "."
        if owner >= 0:
            want = letter[st.colours[owner]]
            want = want.upper() if st.level[c] == 2 else want
        if _at(lines, *crossing_cell(board, c)) != want:
            wrong.append(
                f"crossing {board.crossing_label(c)}: "
                f"{_at(lines, *crossing_cell(board, c))!r}, not {want!r}"
            )
    for e, owner in enumerate(st.road):
        for line, col, plain in path_cells(board, e):
            want = letter[st.colours[owner]] if owner >= 0 else ":" if e in harbours else plain
            if _at(lines, line, col) != want:
                wrong.append(f"path {board.path_label(e)}: {_at(lines, line, col)!r}, not {want!r}")
    return wrong


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_buildings_and_roads_drawn_at_their_places(size: str, lang: str) -> None:
    played = _played(size)
    assert any(st.cities[p] for st in played for p in range(st.settings.players))
    for st in (_states(size)[0], *played):
        assert not (wrong := _check_pieces(st, lang)), wrong[:10]


@pytest.mark.parametrize("size", list(SIZES))
def test_nothing_else_on_crossings_and_paths(size: str) -> None:
    """Labels, codes and the robber never overwrite a crossing or path character."""
    st = _mid_game(size)
    lines = _map_lines(draw(st, "de"))
    piece_cells = {crossing_cell(st.board, c) for c in range(len(st.board.crossing_hexes))}
    piece_cells |= {
        (line, col)
        for e in range(len(st.board.path_hexes))
        for line, col, _ in path_cells(st.board, e)
    }
    letters = set(colour_letters(st.colours, "de").values())
    allowed = letters | {x.upper() for x in letters} | set("./\\|:")
    for n, line in enumerate(lines):
        for col, ch in enumerate(line):
            if (n, col) in piece_cells:
                assert ch in allowed, (n, col, line)
            elif ch in "./\\|":
                raise AssertionError((n, col, line))
            elif ch == ":":  # off the paths only in a harbour's code
                assert line[col - 1 : col + 2] in ("3:1", "2:1"), (n, col, line)


def test_english_map_uses_english_resource_letters() -> None:
    """An English report names hexes as `9L` (lumber) in its lines; its map must use the
    same letters, not the German ones (`9H`)."""
    st = _states("medium")[0]
    lines = _map_lines(draw(st, "en"))
    for h in st.board.hexes:
        line, col = hex_centre(st.board, h.id)
        want = expected_code(st, h.id, "en")
        assert _text_at(lines, line, col, want) == want


def test_board_map_is_the_text_map() -> None:
    st = _mid_game("medium")
    for lang in scenes.LANGS:
        assert board_map(st, lang) == draw(st, lang)


# -- colour letters and the legend -----------------------------------------------------------

ALL_COLOURS = tuple(vocab.COLOUR_NAMES["de"])


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_colour_letters_differ_in_every_table(lang: str) -> None:
    for n in range(3, 7):
        for colours in (
            itertools.permutations(ALL_COLOURS, n)
            if n == 3
            else itertools.combinations(ALL_COLOURS, n)
        ):
            letters = colour_letters(colours, lang)
            assert len(set(letters.values())) == n, (colours, letters)
            assert all(x.isascii() and x.islower() for x in letters.values())
            for c in colours:  # a colour whose initial no other colour has keeps it
                initial = vocab.colour_name(c, lang)[0].lower()
                if sum(vocab.colour_name(o, lang)[0].lower() == initial for o in colours) == 1:
                    assert letters[c] == initial


def test_colour_letters_of_shared_initials() -> None:
    de = colour_letters(DEFAULT_COLOURS, "de")
    assert de == {"rot": "r", "blau": "b", "gelb": "g", "weiss": "w", "gruen": "n", "braun": "a"}
    en = colour_letters(("schwarz", "braun", "blau"), "en")
    assert en == {"blau": "b", "braun": "n", "schwarz": "k"}
    # The order of the seats does not matter: blau keeps b.
    assert colour_letters(("braun", "blau", "rot"), "de")["blau"] == "b"
    assert colour_letters(("braun", "gelb", "rot"), "de")["braun"] == "b"


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_legend_names_every_colour_letter(lang: str) -> None:
    st = _states("large")[0]
    legend = draw(st, lang).splitlines()[-LEGEND_LINES:]
    letters = colour_letters(st.colours, lang)
    for c in st.colours:
        assert f"{letters[c]} {vocab.colour_name(c, lang)}" in legend[0]
    assert text_map.ROBBER in legend[-1]
    assert any("3:1" in line and "2:1" in line for line in legend)


# -- determinism -----------------------------------------------------------------------------


def test_map_deterministic() -> None:
    st = _mid_game("large")
    text = draw(st, "de")
    assert draw(st.copy(), "de") == text
    assert draw(state_from_text(state_to_text(st)), "de") == text


@pytest.mark.slow  # the same work again in interpreters of other hash seeds
def test_map_independent_of_hash_seed() -> None:
    script = (
        "from pbm.reports.text_map import draw\n"
        "from pbm.rules.sim import play_game\n"
        "from pbm.rules.state import Settings\n"
        "for st, _ in play_game(Settings.for_players(6, 'huge'), 4, max_rounds=15):\n"
        "    pass\n"
        "print(draw(st, 'en'))\n"
    )
    outs = []
    for seed in ("0", "7"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run(
            [sys.executable, "-c", script],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        outs.append(done.stdout)
    *_, last = play_game(Settings.for_players(6, "huge"), 4, max_rounds=15)
    assert outs[0] == outs[1] == draw(last[0], "en") + "\n"


# -- the width of whole text parts -----------------------------------------------------------

CODEBOOK_ROW = re.compile(r"^(Karte|Card) +\d+: ")


def _long_lines(text: str, limit: int = 100) -> list[str]:
    out = []
    for line in text.splitlines():
        if len(line) <= limit or CODEBOOK_ROW.match(line) or scenes.SEALED.fullmatch(line.strip()):
            continue
        out.append(line)
    return out


@cache
def _reports(size: str, lang: str) -> tuple[str, ...]:
    texts = []
    for st, events in play_game(Settings.for_players(SIZES[size], size), 4):
        if st.phase == Phase.SETUP:
            continue
        data = report_data(
            st,
            events,
            lang,
            "a-rather-long-game-name",
            scenes.SECRETS,
            scenes.next_line(lang, st.round),
        )
        texts.append(render("report", "s", data).text)
    return tuple(texts)


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("size", list(SIZES))
def test_report_lines_fit_100_columns(size: str, lang: str) -> None:
    long = [line for text in _reports(size, lang) for line in _long_lines(text)]
    assert not long, sorted(set(long), key=len)[-3:]


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("name", sorted(scenes.SCENES))
def test_mail_text_lines_fit_100_columns(name: str, lang: str) -> None:
    _, rendered = scenes.SCENES[name](lang)
    assert not _long_lines(rendered.text), [f"{len(x)}: {x}" for x in _long_lines(rendered.text)]


def test_a_map_drawn_keeps_no_board_alive() -> None:
    """A board no game holds any more is not kept by the map's tables (a cache of 256
    boards by count held 3 MB of them in `pbm serve` after a tick over a thousand games)."""
    import gc
    import weakref

    from pbm.rules.layouts import generate_board

    state = new_game(Settings(), 1, board=generate_board.__wrapped__("medium", 4242))
    draw(state, "de")
    board = weakref.ref(state.board)
    del state
    gc.collect()
    assert board() is None
