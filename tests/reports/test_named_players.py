"""Reports and the end mail name players "gelb (Carol)" (issue 15): the log lines of the players
who act (builds, trades, the robber, steals), the tables, the winner and the columns of the game
in numbers; every line of the text within 72 columns; a seat whose name is not shown keeps its
colour alone."""

from __future__ import annotations

import pytest

from pbm.notation import vocab
from pbm.reports.describe import describe
from pbm.reports.render import render
from pbm.reports.report_data import report_data, report_log
from pbm.reports.summary import column_heads
from pbm.rules import events as ev

from . import scenes

NAMES = dict(enumerate(scenes.NAMES))


def _label(colour: str, seat: int, lang: str) -> str:
    name = vocab.colour_name(colour, lang)
    return f"{name} ({scenes.NAMES[seat]})" if scenes.NAMES[seat] else name


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_acting_players_are_named_in_the_log(lang: str) -> None:
    _, after, events = scenes.midgame()
    for e in events:
        line = describe(e, after, lang, NAMES)
        assert line is not None or not isinstance(
            e, (ev.Built, ev.TradeDone, ev.RobberMoved, ev.Stole)
        )
        if isinstance(e, (ev.Built, ev.MaritimeTraded, ev.RobberMoved, ev.CardPlayed)):
            assert _label(after.colours[e.player], e.player, lang) in (line or ""), line
        if isinstance(e, ev.TradeDone):
            for p in (e.first, e.second):
                assert _label(after.colours[p], p, lang) in (line or ""), line
        if isinstance(e, ev.Stole):
            for p in (e.thief, e.victim):
                assert _label(after.colours[p], p, lang) in (line or ""), line
        if isinstance(e, (ev.Rolled, ev.Produced)):
            # Mechanical lines keep the colour alone: the report stays short.
            assert "(" + scenes.NAMES[0] + ")" not in (line or "")


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_without_names_the_log_is_as_before(lang: str) -> None:
    """No names (or names not shown, as in an anonymous game): the colour alone."""
    _, after, events = scenes.midgame()
    plain = report_log(list(events), after, lang, scenes.SECRETS)
    hidden = report_log(
        list(events), after, lang, scenes.SECRETS, names=dict.fromkeys(range(4), "")
    )
    assert plain == hidden
    assert not any(f"({n})" in line for line in plain for n in scenes.NAMES if n)


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("scene", ["round_report", "end_report", "correction_report"])
def test_named_reports_stay_within_72_columns(scene: str, lang: str) -> None:
    _, rendered = getattr(scenes, scene)(lang)
    long = [line for line in rendered.text.splitlines() if len(line) > 72]
    assert not long, long


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_a_long_name_wraps_the_line_and_keeps_it_whole(lang: str) -> None:
    _, after, events = scenes.midgame()
    names = dict.fromkeys(range(4), "Maximilian Alexander von Habsburg-Lothringen")
    for line in report_log(list(events), after, lang, scenes.SECRETS, names=names):
        parts = line.split("\n")
        assert all(len(p) <= 72 for p in parts), line
        assert all(p.startswith("    ") for p in parts[1:]), line


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_the_end_summary_names_its_columns(lang: str) -> None:
    _, rendered = scenes.end_report(lang)
    text = rendered.text
    for name in scenes.NAMES:
        if name:
            # In the table under "The game in numbers (16 rounds; the 7 …):".
            heading = "Das Spiel in Zahlen (" if lang == "de" else "The game in numbers ("
            assert f"({name})" in text.split(heading, 1)[1]
    st, _ = scenes.final()
    for p, colour in enumerate(st.colours):
        assert f"<th>{_label(colour, p, lang)}</th>" in rendered.html


def test_column_heads_fit_six_players_with_long_names() -> None:
    colours = ["rot", "blau", "gelb", "weiß", "grün", "braun"]
    names = ["Anna", "Christopher", "Carol", "", "Bartholomäus-Maximilian", "Eve"]
    heads = column_heads(colours, names)
    assert len(heads["heads"]) == 2
    for line in heads["heads"]:
        assert 2 + 12 + len(line) <= 72, line
    assert "(Anna)" in heads["heads"][1] and "…" in heads["heads"][1]
    assert 2 + 12 + 6 * heads["width"] <= 72


def test_column_heads_one_line_when_the_labels_fit() -> None:
    heads = column_heads(["rot", "blau", "gelb"], ["Anna", "Bernd", ""])
    assert heads["heads"] == ["".join(f"{x:>13}" for x in ("rot (Anna)", "blau (Bernd)", "gelb"))]
    assert column_heads(["rot", "blau"], ["", ""]) == {"heads": ["     rot    blau"], "width": 8}


def test_report_data_without_names_keeps_colours() -> None:
    _, after, events = scenes.midgame()
    data = report_data(after, list(events), "de", "g", scenes.SECRETS)
    assert [p["label"] for p in data["players"]] == [p["colour"] for p in data["players"]]
    text = render("report", "r", data).text
    assert "(Anna)" not in text
