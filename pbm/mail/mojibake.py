"""Text that was UTF-8 read as Windows-1252 (or Latin-1) and written again: `StraÃŸe`,
`RÃ¤uber`, `Ã¸` for `ø`. A mail client or a web form on the way did it before the mail was
sent, so the mail's own charset is right and the letters are still wrong; each such sequence
is put back where its bytes are a UTF-8 letter, and nothing else is touched."""

from __future__ import annotations

import re

#: What a UTF-8 continuation byte (0x80–0xBF) reads as in Windows-1252, or in Latin-1 where
#: Windows-1252 leaves the byte undefined.
_CONTINUATION = "".join(
    bytes([b]).decode("cp1252", errors="ignore") or bytes([b]).decode("latin-1")
    for b in range(0x80, 0xC0)
)
#: The lead bytes German, English and Danish text gives, read so: `Ã` (0xC3: ä ö ü ß æ ø å
#: é and every other Latin-1 letter), `Â` (0xC2: the no-break space, `°`, `§`), `â` (0xE2:
#: `€`, quotes, dashes), each with its continuation bytes. Other leads are left alone: `Ö`,
#: `Å` or `Æ` before a quote or a no-break space is what a player may well have written.
_SEQUENCE = re.compile(
    "[\u00c2\u00c3][" + re.escape(_CONTINUATION) + "]|\u00e2[" + re.escape(_CONTINUATION) + "]{2}"
)
#: The lead characters: a text with none of them is returned as it is, without a search.
_LEADS = frozenset("\u00c2\u00c3\u00e2")


def _letter(m: re.Match[str]) -> str:
    seq = m.group(0)
    try:
        raw = seq.encode("cp1252")
    except UnicodeEncodeError:
        try:
            raw = seq.encode("latin-1")
        except UnicodeEncodeError:
            return seq
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return seq


def repaired(text: str) -> str:
    """`text` with every UTF-8 sequence read as Windows-1252 put back (`StraÃŸe` →
    `Straße`); the same text when it holds none."""
    if _LEADS.isdisjoint(text):
        return text
    return _SEQUENCE.sub(_letter, text)
