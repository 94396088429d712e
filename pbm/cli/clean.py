"""What the GM's terminal is shown of text a player could have written.

Names, addresses, subjects and (through the errors they provoke) parts of error lines come from
players. Escape sequences in them could clear or rewrite the terminal, bidi overrides reorder
what follows, line separators split a line; `--json` output goes to terminals too, and
json.dumps with ensure_ascii=False writes C1 controls and bidi overrides as they are. So
everything printed goes through `clean`, in the text output and in `--json` alike.
"""

from __future__ import annotations

import unicodedata
from typing import Any

#: Unicode categories removed from everything printed: controls (C0 and C1, so ESC and the
#: one-character CSI U+009B), format characters (bidi overrides such as U+202E, which reorder
#: what follows), line and paragraph separators, and lone surrogates (which no terminal
#: encoding can write).
UNPRINTED = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
#: Player names are cut to this many characters where the CLI prints them (text and JSON).
NAME_WIDTH = 40


def clean(text: object, limit: int | None = None) -> str:
    """`text` as it may be printed: without the characters of UNPRINTED, and cut to `limit`
    characters (the last one an ellipsis) when it is longer."""
    s = "" if text is None else str(text)
    # isprintable() is False for every character of UNPRINTED (and for some harmless ones,
    # such as a no-break space), so the usual text skips the loop.
    if not s.isprintable():
        s = "".join(ch for ch in s if unicodedata.category(ch) not in UNPRINTED)
    if limit is not None and len(s) > limit:
        s = s[: limit - 1] + "…"
    return s


def cleaned(data: Any) -> Any:
    """Every string in `data` (dict keys too) cleaned, for `--json`: json.dumps escapes the C0
    controls but, with ensure_ascii=False, writes C1 controls and bidi overrides as they are."""
    if isinstance(data, str):
        return clean(data)
    if isinstance(data, dict):
        return {clean(k) if isinstance(k, str) else k: cleaned(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [cleaned(v) for v in data]
    return data


def with_names_cut(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows cleaned, each `name` cut to NAME_WIDTH."""
    return [{**cleaned(r), "name": clean(r["name"], NAME_WIDTH)} for r in rows]
