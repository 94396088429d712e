"""pbm.pofile reads every catalogue as Babel does (read_po with abort_invalid, write_mo): the same
texts, plural forms and charset, so that a process looking texts up never loads Babel."""

from __future__ import annotations

import gettext
import io
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbm.pofile import translations

LOCALE = Path(__file__).resolve().parents[1] / "pbm" / "locale"
CATALOGUES = sorted(LOCALE.rglob("*.po"))


def _babel(path: Path) -> gettext.GNUTranslations:
    with path.open("rb") as f:
        catalog = read_po(f, domain="pbm", abort_invalid=True)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


@pytest.mark.parametrize("path", CATALOGUES, ids=lambda p: str(p.relative_to(LOCALE)))
def test_reads_as_babel(path: Path) -> None:
    ours, babel = translations(path.read_bytes(), str(path)), _babel(path)
    texts = {k: v for k, v in ours._catalog.items() if k != ""}  # type: ignore[attr-defined]
    expected = {k: v for k, v in babel._catalog.items() if k != ""}  # type: ignore[attr-defined]
    assert texts == expected
    assert ours._charset == babel._charset  # type: ignore[attr-defined]
    assert [ours.plural(n) for n in range(30)] == [babel.plural(n) for n in range(30)]  # type: ignore[attr-defined]


def test_catalogues_found() -> None:
    assert len(CATALOGUES) >= 3


def test_entries_and_refusals() -> None:
    po = (
        b'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
        b'"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        b'#, fuzzy\nmsgid "Fuzzy"\nmsgstr "Flaumig"\n\n'
        b'msgid "Empty"\nmsgstr ""\n\n'
        b'msgctxt "order word"\nmsgid "City"\nmsgstr "St"\n"adt"\n\n'
        b'msgid "one card"\nmsgid_plural "%(n)s cards"\nmsgstr[0] "eine Karte"\n'
        b'msgstr[1] "%(n)s Karten"\n\n'
        b'msgid "Say:\\n\\"hi\\" \\\\ \\ "\nmsgstr "Sag:\\t\\"hallo\\""\n\n'
        b'#~ msgid "Old"\n#~ msgstr "Alt"\n'
    )
    tr = translations(po)
    assert tr.gettext("Fuzzy") == "Fuzzy" and tr.gettext("Empty") == "Empty"
    assert tr.pgettext("order word", "City") == "Stadt"
    assert tr.ngettext("one card", "%(n)s cards", 1) == "eine Karte"
    assert tr.ngettext("one card", "%(n)s cards", 3) == "%(n)s Karten"
    assert tr.gettext('Say:\n"hi" \\ \\ ') == 'Sag:\t"hallo"'
    assert tr.gettext("Old") == "Old"
    with pytest.raises(ValueError, match="line 2"):
        translations(b'msgid "x"\nmsgstr x\n')
