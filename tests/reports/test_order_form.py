"""The order form of every game kind: every line valid to copy.

Each line of each kind's form, its placeholders filled in with real places of a game of that
kind, is read by the order parser and accepted, in German, in English and in the modern
edition's words: the base game (the variable island of every size and the beginner layout),
each Seafarers scenario with and without the pirate, and Kronlande. The report's order form is
that form, each line a `#` comment to fill in; the help mail lists the same lines.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from pbm.notation import Context, parse_mail, vocab
from pbm.notation.lines import Heading
from pbm.reports.order_form import GameKind, Placeholders, form_lines, setup_lines
from pbm.reports.report_data import order_form
from pbm.rules.beginner import beginner_game
from pbm.rules.board import Terrain
from pbm.rules.resources import BROT, ERZ, HOLZ, LEHM
from pbm.rules.scenarios import SCENARIOS, game_refusal
from pbm.rules.setup import automatic_placement
from pbm.rules.state import GameState, Settings, new_game

LANGS = ("de", "en", "de@modern")
SEED = 7


def _kinds() -> dict[str, Settings]:
    out = {
        f"base-{size}": Settings.for_players(n, size)
        for size, n in (("small", 3), ("medium", 4), ("large", 5), ("huge", 6))
    }
    for key in SCENARIOS:
        players = 4 if game_refusal(key, 3) else 3
        out[key] = Settings.for_scenario(key, players)
        out[f"{key}-no-pirate"] = Settings.for_scenario(key, players, pirate=False)
    out["kronlande-large"] = Settings.for_kronlande(4, "large")
    out["kronlande-huge"] = Settings.for_kronlande(6, "huge")
    return out


KINDS = _kinds()


@cache
def _state(name: str) -> GameState:
    if name == "beginner":
        return beginner_game(Settings.for_players(4), SEED)
    return new_game(KINDS[name], SEED)


class _Filler:
    """Real places of a game for the placeholders, a new one for each time a placeholder
    stands in the same line (a trade gives one thing and gets another)."""

    def __init__(self, state: GameState, lang: str) -> None:
        board = state.board
        place = automatic_placement(state)
        letters = vocab.letters(lang, state.kron is not None)
        sea_paths = [e for e, sea in enumerate(board.path_sea) if sea]
        land_paths = [e for e, land in enumerate(board.path_land) if land]
        self.values = {
            "hex": [board.hexes[h].label for h in board.robber_hexes[:2]],
            "sea_hex": [h.label for h in board.hexes if h.terrain == Terrain.SEA][:2],
            "colour": [vocab.colour_name(c, lang) for c in state.colours[1:3]],
            "crossing": [board.crossing_label(place.crossing)],
            "path": [board.path_label(e) for e in [place.path, *(sea_paths or land_paths)[:2]]],
            "resources": [f"2{letters[HOLZ]}", f"1{letters[ERZ]} 1{letters[LEHM]}"],
            "resource": [letters[HOLZ], letters[ERZ]],
            # A good by its name: its letters of two are cards only right after a count.
            "good": [vocab.resource_name(BROT, lang)],
            "resource_or_good": [letters[ERZ]],
        }

    def fill(self, line: str, ph: Placeholders) -> str:
        names = {getattr(ph, key): key for key in self.values}
        seen: dict[str, int] = {}

        def one(m: re.Match[str]) -> str:
            key = names[m.group(0)]
            n = seen.get(key, 0)
            seen[key] = n + 1
            values = self.values[key]
            return values[min(n, len(values) - 1)]

        return re.sub("|".join(re.escape(p) for p in names), one, line)


def _read(lines: list[str], state: GameState, lang: str, phase: str) -> None:
    ctx = Context(state.board, lang, state.colours, phase)
    filler = _Filler(state, lang)
    ph = Placeholders.of(lang)
    for line in lines:
        filled = filler.fill(line, ph)
        assert "<" not in filled, (line, filled)
        parsed = parse_mail(filled + "\n", ctx)
        (result,) = parsed.lines
        assert result.ok, (lang, line, filled, str(result.error))
        assert not isinstance(result.item, Heading), (line, filled)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [*KINDS, "beginner"])
def test_every_line_of_every_form_is_read(name: str, lang: str) -> None:
    state = _state(name)
    kind = GameKind.of_state(state)
    _read(form_lines(kind, lang), state, lang, "round")
    _read(setup_lines(kind, lang), state, lang, "setup")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [*KINDS, "beginner"])
def test_the_reports_order_form_is_the_form_of_its_kind(name: str, lang: str) -> None:
    state = _state(name)
    form = order_form(state, lang)
    # The password and round lines, what to do with the `#` (a comment itself), the form.
    assert form[2].startswith("# ") and "'#'" in form[2]
    assert form[3:] == [f"# {line}" for line in form_lines(GameKind.of_state(state), lang)]
    form = form[:2] + form[3:]
    # Uncommented, the whole form is one mail the parser reads line by line.
    filler, ph = _Filler(state, lang), Placeholders.of(lang)
    body = "".join(filler.fill(line.removeprefix("# "), ph) + "\n" for line in form)
    ctx = Context(state.board, lang, state.colours, "round")
    parsed = parse_mail(body.replace(": \n", ": x\n", 1), ctx)
    assert len(parsed.lines) == len(form)
    assert all(r.ok for r in parsed.lines), [str(r.error) for r in parsed.lines if not r.ok]


def _words(lang: str, name: str) -> set[str]:
    """The order words of a kind's form: each line up to its first placeholder, count or ':'."""
    lines = form_lines(GameKind.of_state(_state(name)), lang)
    return {re.split(r"[<:\d]", line)[0].strip() for line in lines}


def test_each_kind_has_its_lines_and_no_others() -> None:
    """What the tester missed: a Seafarers game's form has the ship, pirate, gold and trade
    lines; a Kronlande game's its workshops, goods, castles and cards; neither's lines stand
    in the other's or the base game's form."""
    sea = _words("de", "neue-ufer")
    assert {"Schiff", "Schiff versetzen", "Pirat", "Gold", "Handel", "Seehandel"} <= sea
    assert "Pirat" not in _words("de", "neue-ufer-no-pirate")
    # No gold rivers in the Four Islands: no gold line; Oceania's fog hides two.
    assert "Gold" not in _words("de", "vier-inseln")
    assert "Gold" in _words("de", "ozeanien")
    kron = _words("de", "kronlande-large")
    kron_lines = {"Schmiede", "Weberei", "Bäckerei", "Herstellen", "Burg", "Residenz"}
    kron_lines |= {"Bauhütte", "Hafenprivileg", "Festmahl"}
    assert kron_lines <= kron
    base = _words("de", "base-medium")
    assert {"Handel", "Seehandel", "Räuber", "Ritter vor Wurf", "Monopol"} <= base
    assert not (base & {"Schiff", "Pirat", "Gold"}) and not (base & kron_lines)
    assert not (sea & kron_lines) and not (kron & {"Schiff", "Pirat", "Gold"})
    assert _words("de", "beginner") == base
    modern = _words("de@modern", "base-medium")
    assert {"Bandit", "Projektkarte", "Tribut", "Glücksfund", "Bautrupp"} <= modern
    assert {"Ship", "Move ship", "Pirate", "Gold", "Trade", "Maritime"} <= _words("en", "wueste")
