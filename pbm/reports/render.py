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
    return env


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
    paragraphs = [p for p in body.strip().split("\n\n") if p.strip()]
    return render(
        "message",
        subject,
        {"body": body.rstrip(), "paragraphs": paragraphs, "lang": lang, "game": game},
    )
