"""The player guide (Markdown) as the text of a mail: links reduced to their text, tables to
one entry per row, paragraphs and list items reflowed to 72 columns. Code blocks (order
examples) are kept exactly, indented."""

from __future__ import annotations

import re
import textwrap

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
