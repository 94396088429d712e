"""Prose in the HTML part is in paragraphs, never in a `<pre>` block of the text part's
76-column lines: on a phone those scroll sideways (QA: the answer to a stranger's mail, the
refusals, the guide's chapters of the help mail). What keeps its shape (lines to copy, a
table, an order example, a map) stays in a `<pre>` block (`render.blocks`)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from pbm.reports.render import Block, blocks, render_message

from . import scenes

LANGS = ("de", "de@modern", "en", "da")


def _pres(html: str) -> list[str]:
    body = html.split("<body>", 1)[1]
    return [
        unescape(re.sub(r"<[^>]+>", "", p))
        for p in re.findall(r"<pre[^>]*>(.*?)</pre>", body, re.S)
    ]


def test_prose_is_a_paragraph_and_lines_to_copy_keep_their_shape() -> None:
    text = (
        "Your mail was not read as a signup: a signup needs a line that starts with the word "
        "'Join' (in a sentence, the word is not read as one).\n"
        "To join insel, send a mail with these lines:\n\n"
        "  Game: insel\n  Join\n  Name: Bernd\n"
    )
    assert blocks(text) == [
        Block("p", (text.split("\n\n")[0].replace("\n", " "),)),
        Block("pre", ("  Game: insel", "  Join", "  Name: Bernd")),
    ]
    # Wrapped by a text part (76 columns): joined again; a short line keeps its end.
    wrapped = "A" * 55 + " bb cc dd\neeee ff.\nShort.\nNext"
    assert blocks(wrapped) == [Block("p", ("A" * 55 + " bb cc dd eeee ff.", "Short.", "Next"))]
    # Columns (two blanks between words) keep their shape too.
    assert blocks("red      3\nblue     4")[0].kind == "pre"


def test_the_guides_text_has_its_headings_lists_and_examples() -> None:
    guide = (
        "## Ships\n\nA ship costs 1 lumber and\n1 wool.\n\n"
        "- a list item whose line\n  hangs under it\n- another\n\n    Ship A4 B4\n"
    )
    assert blocks(guide, reflowed=True) == [
        Block("heading", ("Ships",)),
        Block("p", ("A ship costs 1 lumber and 1 wool.",)),
        Block("list", ("a list item whose line hangs under it", "another"), ("", "")),
        Block("pre", ("    Ship A4 B4",)),
    ]
    # Not reflowed (an answer): a short line keeps its end, `#` is no heading.
    assert blocks("# 1\nshort")[0] == Block("p", ("# 1", "short"))


def test_a_plain_answer_has_no_pre_block_of_prose() -> None:
    body = (
        "Games open for signup: insel. To join one, write a mail with the lines 'Game: <name>', "
        "'Join' and 'Name: <your name>'.\n"
    )
    html = render_message("pbm: Games open for signup", body, "en", "").html
    assert _pres(html) == [] and "<p>Games open for signup: insel." in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_refusal_is_in_paragraphs(lang: str) -> None:
    _, rendered = scenes.SCENES["error"](lang)
    assert _pres(rendered.html) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_chapter_of_the_guide_is_prose_with_its_examples_in_blocks(lang: str) -> None:
    """`Hilfe Schiffe`: the chapter came as one `<pre>` block of 72-column prose."""
    _, rendered = scenes.SCENES["help_chapter"](lang)
    pres = _pres(rendered.html)
    assert pres, "the order examples keep their shape"
    for pre in pres:
        # Only the guide's code blocks (indented) are preformatted.
        assert all(line.startswith("    ") for line in pre.splitlines() if line), pre
    html = rendered.html
    assert "<h2>" in html and "<ul>" in html and "<code>" in html and "<b>" in html
    # Nothing of the text part is lost: its words stand in the HTML part.
    shown = set(re.findall(r"\w+", unescape(re.sub(r"<[^>]+>", " ", html))))
    guide = rendered.text.rstrip().rsplit("\n", 1)[0]  # the text's last line names the game
    assert set(re.findall(r"\w+", guide)) <= shown
