"""The player guide (Markdown) as the text of a mail: links reduced to their text, tables to
one entry per row, paragraphs and list items reflowed to 72 columns. Code blocks (order
examples) are kept exactly, indented.

The guide is read in chapters too (`Hilfe Schiffe`, `Help ships`): a line
`<!-- chapter KEY: Word, Word -->` before a heading starts a chapter, which runs to the next
such line. KEY is the same in every language's guide (the help mail names the chapters of a
game's kind by it, `pbm.reports.help`); the words are what players write after `Hilfe` to get
the chapter, the first of them the one the help mail shows. The markers never reach a mail.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from functools import cache

from pbm.i18n import base, language

WIDTH = 72
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_RULE = re.compile(r"^\|?\s*:?-{3,}")
_ITEM = re.compile(r"^(\s*(?:[-*]|\d+\.)\s+)")


def _flush(block: list[str], out: list[str]) -> None:
    """One paragraph or list item, joined and wrapped; a list item's lines hang under its text."""
    if not block:
        return
    first = block[0]
    indent = first[: len(first) - len(first.lstrip())]
    item = _ITEM.match(first)
    hang = indent + " " * (len(item.group(1)) - len(indent) if item else 0)
    text = " ".join(part.strip() for part in block)
    out += textwrap.wrap(
        text,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=hang,
        break_long_words=False,
        break_on_hyphens=False,
    )
    block.clear()


def guide_for_mail(markdown: str) -> str:
    out: list[str] = []
    block: list[str] = []
    in_code = False
    for raw in markdown.splitlines():
        if raw.lstrip().startswith("```"):
            _flush(block, out)
            in_code = not in_code
            continue
        if in_code:
            out.append("    " + raw)
            continue
        line = _LINK.sub(r"\1", raw).rstrip()
        stripped = line.strip()
        if not stripped:
            _flush(block, out)
            out.append("")
        elif stripped.startswith("|"):
            _flush(block, out)
            if not _RULE.match(stripped):
                cells = [c.strip() for c in stripped.strip("|").split("|")]
                block.append("- " + " — ".join(c for c in cells if c))
                _flush(block, out)
        elif stripped.startswith("#") or line.startswith("    "):
            _flush(block, out)
            out.append(line)
        elif _ITEM.match(line):
            _flush(block, out)
            block.append(line)
        else:
            block.append(line)
    _flush(block, out)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip() + "\n"


@cache
def _guide_files(lang: str) -> tuple[str, str]:
    """A game's guide as written and its edition's table of words: its language's guide (the
    English one for a language without a guide) and `player-guide.<lang>@<edition>.words`."""
    from importlib.resources import files

    guides = files("pbm").joinpath("guides")
    # A language without a guide of its own gets the English one.
    for name in (f"player-guide.{base(language(lang))}.md", "player-guide.en.md"):
        if guides.joinpath(name).is_file():
            break
    words = guides.joinpath(f"player-guide.{language(lang)}.words")
    table = words.read_text(encoding="utf-8") if words.is_file() else ""
    return guides.joinpath(name).read_text(encoding="utf-8"), table


def player_guide(lang: str) -> str:
    """The player guide in a game's words: its language's guide (the English one for a
    language without a guide), in its edition's words where the language has a table of them
    (`pbm/guides/player-guide.de@modern.words`, `guide_words.in_edition`)."""
    from .guide_words import in_edition

    return in_edition(*_guide_files(lang))


@cache
def guide_variants() -> tuple[str, ...]:
    """Every language and edition with a guide of its own words: the game languages and the
    editions with a table of words (`de@modern`)."""
    from importlib.resources import files

    from pbm.i18n import languages

    guides = files("pbm").joinpath("guides")
    editions = sorted(
        p.name.removeprefix("player-guide.").removesuffix(".words")
        for p in guides.iterdir()
        if p.name.startswith("player-guide.") and p.name.endswith(".words")
    )
    return (*languages(), *editions)


#: `<!-- chapter ships: Schiffe, Seefahrer -->`: where a chapter starts, its key and words.
_CHAPTER = re.compile(r"^<!-- chapter ([a-z-]+): ([^>]*?) -->\n", re.M)
_HEADING = re.compile(r"^#+ +(.+)$", re.M)


@dataclass(frozen=True)
class Chapter:
    """A chapter of the player guide, in a game's language and edition."""

    key: str
    #: What players write after `Hilfe` for it, as the guide names them (the first is shown).
    words: tuple[str, ...]
    #: Its heading.
    title: str
    #: The chapter, Markdown (`guide_for_mail` makes it a mail's text).
    markdown: str


@cache
def chapters(lang: str) -> tuple[Chapter, ...]:
    """The chapters of a game's guide, in the guide's order, in the edition's words (the
    words players write for a chapter too: `Hilfe Projektkarten` in the modern edition)."""
    from .guide_words import in_edition

    markdown, table = _guide_files(lang)
    marks = list(_CHAPTER.finditer(markdown))
    out = []
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(markdown)
        text = in_edition(markdown[m.end() : end], table)
        heading = _HEADING.search(text)
        words = tuple(in_edition(w.strip(), table) for w in m.group(2).split(",") if w.strip())
        title = _LINK.sub(r"\1", heading.group(1)).strip() if heading else words[0]
        out.append(Chapter(m.group(1), words, title, text))
    return tuple(out)
