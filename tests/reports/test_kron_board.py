"""The Kronlande board in the reports (issue 19): the text map within 72 columns with quarries
(`3S`), fishing grounds (`10F`), Burg `+`, Residenz `#` and workshop marks beside the building's
letter, and its legend; the PNG with quarries, fishing grounds, castle towers and workshop
tags; the preview's yields of Stein and Fisch."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from pbm.reports import picture
from pbm.reports.report_data import preview_data
from pbm.reports.text_map import (
    CASTLE_MARKS,
    WORKSHOP_MARKS,
    colour_letters,
    crossing_cell,
    draw,
    hex_centre,
)
from pbm.rules.kron import BURG, RESIDENZ
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Settings, new_game

from . import scenes
from .test_picture import expected_size


def _grid(text: str) -> list[str]:
    """The map's lines, up to the blank line before its legend."""
    lines = text.splitlines()
    legend = next(i for i, x in enumerate(lines) if x.startswith(("Farben:", "Colours:")))
    return lines[: legend - 1]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_text_map_marks_castles_residences_and_workshops(lang: str) -> None:
    state, _ = scenes.kron_round()
    kron = state.kron
    assert kron is not None
    text = draw(state, lang)
    assert max(len(line) for line in text.splitlines()) <= 72
    grid = _grid(text)
    letter = colour_letters(state.colours, lang)
    marked = 0
    for c, owner in enumerate(state.owner):
        if owner < 0:
            continue
        line, col = crossing_cell(state.board, c)
        row = grid[line].ljust(col + 2)
        assert row[col].lower() == letter[state.colours[owner]]
        if kron.castle[c]:
            assert row[col - 1] == CASTLE_MARKS[kron.castle[c]]
            assert row[col].isupper()
            marked += 1
        if kron.workshop[c] >= 0:
            assert row[col + 1] == WORKSHOP_MARKS[kron.workshop[c]]
            marked += 1
    assert marked >= 3  # a Burg, a Residenz and a Bäckerei stand
    assert {kron.castle[c] for c in range(len(kron.castle))} >= {BURG, RESIDENZ}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_quarries_and_fishing_grounds_show_their_tokens(lang: str) -> None:
    state = new_game(Settings.for_kronlande(4, "large"), scenes.SEED)
    b = state.board
    grid = _grid(draw(state, lang))
    stone = "S" if lang == "de" else "St"
    for h in (*b.quarries, *b.fishing_grounds):
        line, col = hex_centre(b, h)
        token = f"{b.hexes[h].number}{stone if h in b.quarries else 'F'}"
        assert token in grid[line][col - 3 : col + 4], (b.hexes[h].label, grid[line])
    assert ("Steinbrüche:" if lang == "de" else "Quarries:") in draw(state, lang)


@pytest.mark.parametrize("size", ["large", "huge"])
def test_whole_games_keep_the_map_within_72_columns(size: str) -> None:
    steps = list(play_game(Settings.for_kronlande(6 if size == "huge" else 4, size), 5))
    last = steps[-1][0]
    assert last.kron is not None and any(last.kron.castle)
    for lang in ("de", "en"):
        assert max(len(line) for line in draw(last, lang).splitlines()) <= 72


def _image(state: GameState) -> Image.Image:
    data = picture.board_png(state)
    with Image.open(io.BytesIO(data)) as raw:
        raw.verify()
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def test_the_picture_draws_quarries_and_castles() -> None:
    state, _ = scenes.kron_round()
    img = _image(state)
    assert img.size == expected_size(state.board)
    colours = set(img.get_flattened_data())
    assert picture.QUARRY in colours and picture.SEA in colours
    # The Burg's tower stands above its square, in its owner's colour.
    kron = state.kron
    assert kron is not None
    c = next(c for c in range(len(kron.castle)) if kron.castle[c] == BURG)
    centres = picture._layout(state.board)[1]
    x = sum(centres[h][0] for h in state.board.crossing_hexes[c]) / 3
    y = sum(centres[h][1] for h in state.board.crossing_hexes[c]) / 3
    owner = picture.PIECE[state.colours[state.owner[c]]]
    assert img.getpixel((round(x), round(y - 15))) == owner


def test_base_pictures_keep_their_palette() -> None:
    state = new_game(Settings.for_players(4), 1)
    img = _image(state)
    assert picture.QUARRY not in set(img.get_flattened_data())
    palette = picture._palette(True).getpalette() or []
    base = picture._palette().getpalette() or []
    rgb = [tuple(palette[i : i + 3]) for i in range(0, len(palette), 3)]
    assert picture.QUARRY in rgb
    assert picture.QUARRY not in [tuple(base[i : i + 3]) for i in range(0, len(base), 3)]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_preview_yields_stone_and_fish(lang: str) -> None:
    state = new_game(Settings.for_kronlande(4, "large"), scenes.SEED)
    data = preview_data(state, lang, "alpha")
    names = [name for name, _ in data["yields"]]
    assert len(names) == 7
    assert names[5:] == (["Stein", "Fisch"] if lang == "de" else ["Stone", "Fish"])
    b = state.board
    fish = sum(b.hexes[h].pips for h in b.fishing_grounds)
    assert data["yields"][6][1] == fish > 0


@pytest.mark.parametrize(
    ("lang", "text", "off"),
    [
        ("de", "  der Räuber geht nach {hex}: er steht nie neben einer Burg", ""),
        ("en", "  the robber goes to {hex}: it never stands next to a castle", ""),
        ("de", "", "  der Räuber verlässt die Insel: er steht nie neben einer Burg"),
        ("en", "", "  the robber leaves the island: it never stands next to a castle"),
    ],
)
def test_the_log_tells_the_robber_sent_away_by_a_castle(lang: str, text: str, off: str) -> None:
    from pbm.reports.describe import describe
    from pbm.rules import events as ev

    state, _ = scenes.kron_round()
    if off:
        assert describe(ev.RobberMoved(0, -1, "castle"), state, lang) == off
        return
    start = state.board.robber_start
    assert start is not None
    label = state.board.hexes[start].label
    line = describe(ev.RobberMoved(0, start, "castle"), state, lang)
    assert line is not None and line.startswith(text.split("{hex}")[0] + label)
    assert line.endswith(text.split("{hex}")[1])


@pytest.mark.slow  # the same work again in interpreters of other hash seeds
def test_the_kronlande_report_is_the_same_under_any_hash_seed() -> None:
    """The round, its report and the order echo of a Kronlande game do not depend on the
    process (set and dict order, string hashing): two interpreters, two hash seeds, one text."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    tests = Path(__file__).resolve().parent.parent
    code = (
        "from reports import scenes\n"
        "from pbm.notation import Context, parse_mail\n"
        "for lang in ('de', 'en'):\n"
        "    print(scenes.normalise_sealed(scenes.report_kron(lang)[1].text))\n"
        "    s, _ = scenes.kron_round()\n"
        "    m = parse_mail('Festmahl Stein\\nHerstellen 2 Brot, 1 Stoff\\n'\n"
        "                   'Abwurf: S Wz F\\n', Context(s.board, lang, s.colours))\n"
        "    print([r.canonical for r in m.lines])\n"
    )
    outs = []
    for seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        env["PYTHONPATH"] = os.pathsep.join([str(tests), env.get("PYTHONPATH", "")])
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300
        )
        assert done.returncode == 0, done.stderr
        outs.append(done.stdout)
    assert outs[0] == outs[1]
    assert "Festmahl Stein" in outs[0] and "Feast Stone" in outs[0]


#: Names as long as the service keeps them (`signup.NAME_MAX`, 40 characters).
LONG_NAMES = {
    0: "Annabelle-Marie Freifrau v. Hohenzollern",
    1: "Bernd-Christoph Müller-Lüdenscheidt III.",
    2: "Carol",
    3: "",
}


@pytest.mark.parametrize("lang", ["de", "en", "de@modern"])
@pytest.mark.parametrize("long_names", [False, True])
@pytest.mark.parametrize("ended", [False, True])
def test_the_report_tables_stay_within_72_columns(lang: str, long_names: bool, ended: bool) -> None:
    """Every kind of card in every hand (ten, two-digit counts), every title on one player,
    names as long as the service keeps: the tables' rows go on under their text, never past
    72 columns, and every card count is still there."""
    from pbm.reports.render import BOARD_CID, render
    from pbm.reports.report_data import hand_text, report_data
    from pbm.service.signup import NAME_MAX

    assert all(len(n) <= NAME_MAX for n in LONG_NAMES.values())
    after, events = scenes.kron_round()
    # A copy: the scene's state is cached for the whole process (its golden reads it too).
    after = after.copy()
    for p in range(4):
        after.hands[p] = [12] * 10
    after.longest_road = after.largest_army = 0
    assert after.kron is not None and after.kron.builder == 0
    after.cards[0] = [("knight", 0)] * 6 + [("vp", 0)] * 5 + [("monopoly", 0), ("feast", 0)]
    if ended:
        after.winner = 0
    names = LONG_NAMES if long_names else dict(enumerate(scenes.NAMES))
    data = report_data(
        after,
        list(events),
        lang,
        scenes.GAME,
        scenes.SECRETS,
        scenes.next_line(lang, after.round),
        BOARD_CID,
        names=names,
    )
    text = render("report", "s", data).text
    too_long = [x for x in text.splitlines() if len(x) > 72]
    assert not too_long, too_long
    flat = " ".join(text.split())
    for p in range(4):
        assert hand_text(after, p, lang) in flat
