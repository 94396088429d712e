"""A gettext catalogue (`.po`) read with the standard library alone, compiled in memory.

What Babel's `read_po(…, abort_invalid=True)` and `write_mo` made of pbm's catalogues, without
importing Babel into every process that looks a text up (`pbm serve` stays smaller; Babel is
still what the developers' tools use to extract and update the catalogues, and
tests/test_pofile.py checks that both read every catalogue alike). The subset read is the one
Babel writes: `msgctxt`, `msgid`, `msgid_plural`, `msgstr` and `msgstr[n]`, strings continued on
following lines, comments (`#, fuzzy` entries are left out, `#~` obsolete ones too), the escapes
`\\n \\t \\r \\" \\\\`. Anything else is an error naming the line, not a text silently lost.
"""

from __future__ import annotations

import gettext
import io
import re
import struct
from dataclasses import dataclass, field

#: Babel's unescaping: these five escapes, any other backslash kept as it stands.
_ESCAPE = re.compile(r"\\([\\trn\"])")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")
_STRING = re.compile(r"^(\".*\")\s*$")


def _unquote(quoted: str) -> str:
    inner = quoted[1:-1]
    if "\\" not in inner:
        return inner
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), inner)


@dataclass
class _Entry:
    context: str | None = None
    msgid: str | None = None
    plural: str | None = None
    strings: dict[int, str] = field(default_factory=dict)
    fuzzy: bool = False
    obsolete: bool = False


def read_po(data: bytes, name: str = "catalogue") -> list[_Entry]:
    """The entries of a catalogue (UTF-8), in file order; raises ValueError at a line it
    cannot read."""
    entries: list[_Entry] = []
    entry = _Entry()
    # Where a continued string goes: ("msgid"|"msgctxt"|"msgid_plural"|"msgstr", index).
    target: tuple[str, int] | None = None

    def finish() -> None:
        nonlocal entry, target
        if entry.msgid is not None:
            entries.append(entry)
        elif entry.strings or entry.context is not None:
            raise ValueError(f"{name}: an entry without msgid before line {number}")
        entry, target = _Entry(), None

    number = 0
    for number, raw in enumerate(data.decode("utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            entry.obsolete = True
            continue
        if line.startswith("#"):
            if entry.msgid is not None and entry.strings:
                finish()  # comments start the next entry
            if line.startswith("#,"):
                entry.fuzzy = entry.fuzzy or "fuzzy" in (f.strip() for f in line[2:].split(","))
            continue
        keyword = _KEYWORD.match(line)
        if keyword:
            word, index, quoted = keyword.group(1), keyword.group(2), keyword.group(3)
            text = _unquote(quoted)
            if word in ("msgctxt", "msgid") and entry.strings:
                finish()  # a new entry without a blank line between
            if word == "msgctxt":
                entry.context, target = text, ("msgctxt", 0)
            elif word == "msgid":
                entry.msgid, target = text, ("msgid", 0)
            elif word == "msgid_plural":
                entry.plural, target = text, ("msgid_plural", 0)
            else:
                i = int(index) if index is not None else 0
                entry.strings[i], target = text, ("msgstr", i)
            continue
        string = _STRING.match(line)
        if string and target is not None:
            text = _unquote(string.group(1))
            kind, i = target
            if kind == "msgctxt":
                entry.context = (entry.context or "") + text
            elif kind == "msgid":
                entry.msgid = (entry.msgid or "") + text
            elif kind == "msgid_plural":
                entry.plural = (entry.plural or "") + text
            else:
                entry.strings[i] += text
            continue
        raise ValueError(f"{name}, line {number}: cannot read {raw!r}")
    finish()
    return [e for e in entries if not e.obsolete]


def compile_mo(entries: list[_Entry]) -> bytes:
    """The `.mo` file of the entries as Babel's `write_mo` writes it: the header, then every
    entry neither fuzzy nor untranslated, sorted; an empty plural form is the msgid's."""
    pairs: list[tuple[bytes, bytes]] = []
    for e in entries:
        assert e.msgid is not None
        is_header = e.msgid == "" and e.context is None
        if not is_header and (e.fuzzy or not any(e.strings.values())):
            continue
        if e.plural is not None:
            count = max(e.strings, default=0) + 1
            forms = [
                e.strings.get(i, "") or (e.msgid if i == 0 else e.plural) for i in range(count)
            ]
            msgid = f"{e.msgid}\x00{e.plural}"
            msgstr = "\x00".join(forms)
        else:
            msgid, msgstr = e.msgid, e.strings.get(0, "")
        if e.context is not None:
            msgid = f"{e.context}\x04{msgid}"
        pairs.append((msgid.encode(), msgstr.encode()))
    pairs.sort()
    ids = bytearray()
    strs = bytearray()
    offsets: list[tuple[int, int, int, int]] = []
    for key, value in pairs:
        offsets.append((len(ids), len(key), len(strs), len(value)))
        ids += key + b"\x00"
        strs += value + b"\x00"
    keystart = 7 * 4 + 16 * len(pairs)
    valuestart = keystart + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_at, id_len, str_at, str_len in offsets:
        key_table += [id_len, id_at + keystart]
        value_table += [str_len, str_at + valuestart]
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(pairs), 7 * 4, 7 * 4 + len(pairs) * 8, 0, 0)
    tables = struct.pack(f"{len(key_table)}i", *key_table)
    tables += struct.pack(f"{len(value_table)}i", *value_table)
    return head + tables + bytes(ids) + bytes(strs)


def translations(data: bytes, name: str = "catalogue") -> gettext.GNUTranslations:
    """The catalogue `data` (a `.po` file's bytes) as `gettext` reads a compiled one."""
    return gettext.GNUTranslations(io.BytesIO(compile_mo(read_po(data, name))))
