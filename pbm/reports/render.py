"""Rendering templates/ (Jinja2) from plain data: a text part complete on its own, an HTML part.

Templates get dictionaries prepared by `report_data.py`; they never derive rules themselves.
Their texts come from the message catalogue of the data's `lang` (`pbm.i18n`): `{% trans %}`,
`_()`, `pgettext()` (jinja2.ext.i18n, new-style: placeholders are `%(name)s`, and values are
escaped in the HTML part while the catalogue's texts are markup as the templates are).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from pbm import i18n

from .text_rows import table_row
from .wrap import wrap_text

#: The Content-ID of the board picture in a report's HTML part.
BOARD_CID = "board@pbm"
#: The game-end mail's VP chart (PNG), the second inline picture of its HTML part.
CHART_CID = "vpchart@pbm"


@dataclass
class Rendered:
    text: str
    html: str


@cache
def environment(lang: str) -> Environment:
    """The templates with the catalogue of one language (one environment per language: the
    gettext functions are the environment's)."""
    env = Environment(
        loader=PackageLoader("pbm", "templates"),
        autoescape=select_autoescape(
            enabled_extensions=("html", "html.j2"), default_for_string=False
        ),
        undefined=StrictUndefined,
        trim_blocks=False,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
        # The templates are package data: no stat of every template file at every render.
        auto_reload=False,
    )
    env.install_gettext_translations(i18n.translator(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["table_row"] = table_row
    env.filters["unwrapped"] = unwrapped
    env.filters["blocks"] = blocks
    env.filters["inline"] = inline
    env.filters["one_stop"] = one_stop
    return env


#: A line that keeps its shape in the HTML part: indented (a line to copy, an echoed order,
#: a table's row), or with columns (two blanks between words).
_SHAPED = re.compile(r"^\s|\S {2,}\S")
#: A list item: its mark and the blanks after it (`- `, `* `, `→ `, `2. `).
_ITEM = re.compile(r"^(?P<mark>[-*•→]|\d{1,3}[.)]) +(?=\S)")
#: A line of prose this long was wrapped by the text part: the next line goes on with it.
_WRAPPED = 60


@dataclass(frozen=True)
class Block:
    """A part of a plain text as the HTML part shows it: `kind` "pre", lines that keep their
    shape (a `<pre>` block); "p", prose, each of its `lines` a line of its own in a paragraph
    the screen wraps; "list", list items (`marks`: each item's mark, "" where a bullet shows
    it); "heading", a heading of the player guide."""

    kind: str
    lines: tuple[str, ...]
    marks: tuple[str, ...] = ()

    @property
    def pre(self) -> bool:
        return self.kind == "pre"


def blocks(text: str, reflowed: bool = False) -> list[Block]:
    """A plain text (an answer, a refusal, a chapter of the guide) for the HTML part: its
    paragraphs (split at blank lines); in each, runs of prose lines, of list items and of
    shaped lines (`_SHAPED`: indented, or in columns), the last kept as they are (`<pre>`). A
    paragraph of prose is never a `<pre>` block of 76-column lines: on a phone those scroll
    sideways. Prose lines the text part wrapped (at least `_WRAPPED` long; every line of a
    `reflowed` text, as the guide's) are joined again, and so are a list item's lines hanging
    under its text; a shorter line keeps its end (a line break). In a `reflowed` text a line
    of `#` is a heading."""
    return [
        block
        for paragraph in re.split(r"\n[ \t]*\n", text.strip("\n"))
        for block in _paragraph(paragraph.rstrip(), reflowed)
    ]


def _paragraph(paragraph: str, reflowed: bool) -> list[Block]:
    """One paragraph's blocks (`blocks`)."""
    # Each block as it grows: its kind, its lines and its list items' marks.
    groups: list[tuple[str, list[str], list[str]]] = []
    hang = 0
    wrapped = False
    for line in paragraph.split("\n"):
        item = _ITEM.match(line)
        kind, run, marks = groups[-1] if groups else ("", [], [])
        hanging = hang and line[:hang].isspace() and line[hang : hang + 1].strip()
        if kind == "list" and item is None and hanging:
            run[-1] = f"{run[-1]} {line.strip()}"  # a list item's next line
            continue
        if item is not None:
            new = "list"
        elif reflowed and line.startswith("#"):
            new = "heading"
        elif _SHAPED.search(line):
            new = "pre"
        else:
            new = "p"
        if new != kind or new == "heading":
            run, marks = [], []
            groups.append((new, run, marks))
        if item is not None:
            hang = item.end()
            mark = item.group("mark")
            marks.append("" if mark in "-*•" else mark)
            run.append(line[hang:].strip() if mark in "-*•" else line.strip())
        elif new == "pre":
            run.append(line.rstrip())
        elif new == "heading":
            run.append(line.lstrip("#").strip())
        elif run and (reflowed or wrapped):
            run[-1] = f"{run[-1]} {line.strip()}"
        else:
            run.append(line.strip())
        # Whether the next prose line goes on with this one (it reached the wrapping width).
        wrapped = new == "p" and len(line.strip()) >= _WRAPPED
    return [Block(kind, tuple(run), tuple(marks)) for kind, run, marks in groups if run]


#: The guide's marks within a line: `**bold**` and `` `code` ``.
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")


def inline(line: str) -> Markup:
    """A line of the player guide for the HTML part: escaped, its `**bold**` and `` `code` ``
    set as such."""
    html = str(escape(line))
    return Markup(_CODE.sub(r"<code>\1</code>", _BOLD.sub(r"<b>\1</b>", html)))


#: A sentence's full stop right after the full stop its last word ends with (a name such as
#: "Clara K."), a closing tag between them in HTML ("<b>Clara K.</b>.").
_DOUBLE_STOP = re.compile(r"(?<=[^.\s])\.((?:</\w+>)*+)\.(?=\s|$)")


def one_stop(sentence: str) -> str:
    """A sentence that ends with a name ending in a full stop ("Du bist angemeldet als Clara
    K.") with one full stop, not two: the name's stands for the sentence's. Markup stays
    markup (only a full stop is taken out)."""
    out = _DOUBLE_STOP.sub(r".\1", str(sentence))
    return Markup(out) if isinstance(sentence, Markup) else out


def unwrapped(line: str) -> str:
    """A log line as one line again (`report_data._wrap_log` wraps it at 72 columns for the
    text part): in HTML the screen wraps it, and a phone's narrower screen wrapping the
    text's short lines again left fragments of a word or two on lines of their own."""
    return re.sub(r"\n +", " ", line)


def render(kind: str, subject: str, data: dict[str, Any]) -> Rendered:
    """`kind`.txt.j2 and `kind`.html.j2 with the data (plus the subject), in the language of
    `data["lang"]`; the text part's lines within `wrap.WIDTH` columns."""
    env = environment(i18n.language(data["lang"]))
    values = {"subject": subject, **data}
    text = env.get_template(f"{kind}.txt.j2").render(values)
    html = env.get_template(f"{kind}.html.j2").render(values)
    return Rendered(wrap_text(text.rstrip()) + "\n", html)


def render_message(subject: str, body: str, lang: str, game: str) -> Rendered:
    """Any plain message (acknowledgement, error, notice) as text and HTML."""
    return render("message", subject, {"body": body.rstrip(), "lang": lang, "game": game})
