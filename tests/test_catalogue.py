"""The message catalogue: every catalogue language complete, the catalogues holding exactly the
texts the code and the templates use, and a new language being a catalogue file and nothing else.

docs/translating.md says how to extract, update and add a language; this file is what fails
until that is done.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from pbm import i18n
from pbm.notation import Context, format_item, parse_line, parse_mail
from pbm.reports import notices
from pbm.reports import render as render_module
from pbm.rules.layouts import generate_board
from pbm.rules.orders import (
    BuyCard,
    City,
    DiscardPreference,
    Knight,
    MaritimeTrade,
    Monopoly,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    Timing,
    TradeOffer,
    YearOfPlenty,
)
from pbm.service.context import Service
from pbm.service.games import ServiceError, create_game
from pbm.store.db import transaction

ROOT = Path(__file__).resolve().parent.parent
PBM = ROOT / "pbm"
LOCALE = PBM / "locale"

Key = tuple[str | None, str]


def _catalogue(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _po(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "pbm.po"


def _key(message_id: str | Sequence[str], context: str | None) -> Key:
    return context, message_id if isinstance(message_id, str) else message_id[0]


def _keys(catalog: Catalog) -> set[Key]:
    return {_key(m.id, m.context) for m in catalog if m.id}


def _python_naming_a_keyword(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[Any]:
    """Babel's python extractor, on a module that names one of the `keywords` (`_`,
    `gettext`, …) at all: a module that does not has no message for it to find (it looks
    for a keyword's name followed by a call), and tokenizing the other 150 modules of pbm was
    half of the extraction's second. The bytes are searched as Latin-1 (every ASCII keyword
    is found as it is), and only an ASCII letter, digit or underscore before or after a
    name makes it another word."""
    data = fileobj.read()
    names = "|".join(re.escape(k) for k in keywords)
    if not re.search(rf"(?<![A-Za-z0-9_])(?:{names})(?![A-Za-z0-9_])", data.decode("latin-1")):
        return
    fileobj.seek(0)
    yield from extract_python(fileobj, keywords, comment_tags, options)


def _extracted() -> dict[Key, list[str]]:
    """What Babel's extractors (python, and jinja2 for the templates) find in pbm/ with the
    mapping of babel.cfg, as `pybabel extract -F babel.cfg … pbm` runs them."""
    with (ROOT / "babel.cfg").open(encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)  # type: ignore[no-untyped-call]
    method_map = [
        (pattern, _python_naming_a_keyword if method == "python" else method)
        for pattern, method in method_map
    ]
    found: dict[Key, list[str]] = {}
    for filename, _, message, _, context in extract_from_dir(PBM, method_map, options_map):
        found.setdefault(_key(message, context), []).append(filename)
    return found


@pytest.fixture(scope="module")
def extracted() -> dict[Key, list[str]]:
    return _extracted()


def test_the_languages_are_the_catalogues_present() -> None:
    on_disk = sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/pbm.po"))
    assert list(i18n.catalogues()) == on_disk
    assert list(i18n.languages()) == [lang for lang in on_disk if i18n.reads_order_words(lang)]
    assert {"de", "en"} <= set(i18n.languages())


@pytest.fixture
def danish_not_playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Danish as it was before its order words were read: a catalogue, not a game language
    (how the next language starts, docs/translating.md)."""
    monkeypatch.setattr(i18n, "reads_order_words", lambda lang: lang != "da")
    i18n.languages.cache_clear()
    yield "da"
    monkeypatch.undo()
    i18n.languages.cache_clear()


def test_danish_is_a_game_language() -> None:
    assert "da" in i18n.languages()
    assert i18n.translator("da").pgettext("order word", "Settlement") == "Hus"


def test_a_catalogue_not_yet_playable_is_read_but_no_game_language(
    danish_not_playable: str,
) -> None:
    """A complete catalogue whose order words the parser does not read yet: its texts are
    looked up (and tested below like every catalogue's), but no game is made in it, and every
    game language's texts stay as they are."""
    assert "da" in i18n.catalogues() and "da" not in i18n.languages()
    assert i18n.language("da") == "da"
    tr = i18n.translator("da")
    assert tr.pgettext("order word", "Settlement") == "Hus"
    assert tr.ngettext("{n} trade line", "{n} trade lines", 2) == "{n} handelslinjer"
    assert "da" not in list(i18n.PerLanguage(lambda lang: lang))  # iterated: the game languages


def test_a_mail_renders_in_a_language_not_yet_playable(danish_not_playable: str) -> None:
    """The texts of a language not yet playable reach a mail as every catalogue's do (the
    templates look them up by the data's language), though no game is made in it."""
    ctx = Context(generate_board("medium", 1), "da")
    data = notices.ack(parse_mail("", ctx), "", "da", replaced=False, round_=2, deadline="x")
    ack = render_module.render("ack", "", {"game": "g", **data})
    assert ack.text.startswith("Accepteret:") and "frist x" in ack.text and 'lang="da"' in ack.html


def test_no_game_is_made_in_a_language_not_yet_playable(
    svc: Service, danish_not_playable: str
) -> None:
    with transaction(svc.engine) as session, pytest.raises(ServiceError, match="lang must be"):
        create_game(svc, session, "dansk", lang="da")


@pytest.mark.parametrize("lang", i18n.catalogues())
def test_every_message_has_a_text_in_every_language(lang: str) -> None:
    catalog = _catalogue(_po(lang))
    assert catalog.locale is not None and str(catalog.locale) == lang
    untranslated, fuzzy = [], []
    for m in catalog:
        if not m.id:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(m.id, tuple):
            assert len(forms) == catalog.num_plurals, (m.id, forms)
        if not all(forms):
            untranslated.append(_key(m.id, m.context))
        if m.fuzzy:
            fuzzy.append(_key(m.id, m.context))
    assert not untranslated, f"{lang}: no text for {untranslated}"
    assert not fuzzy, f"{lang}: fuzzy (check, then remove the flag): {fuzzy}"
    assert not catalog.obsolete, f"{lang}: obsolete entries: {list(catalog.obsolete)}"


@pytest.mark.parametrize("lang", i18n.catalogues())
def test_translations_keep_their_placeholders(lang: str) -> None:
    """Babel's checks (%-placeholders of the templates' texts, plural forms), and the
    `{name}` fields of the code's texts: a translation may leave one out, never add one that
    the English text does not have (the code would not fill it in)."""
    catalog = _catalogue(_po(lang))
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check() if errors]
    assert not problems
    fields = re.compile(r"\{(\w+)")
    for m in catalog:
        if not m.id or m.id == "a value was expected after '{word}'":
            continue  # (that one's German text quotes the word as written: `shown`)
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        allowed = {f for i in ids for f in fields.findall(str(i))}
        for s in strings:
            assert set(fields.findall(str(s))) <= allowed, (lang, m.id, s)


def test_extraction_finds_no_text_missing_from_the_catalogues(
    extracted: dict[Key, list[str]],
) -> None:
    assert len(extracted) > 300
    for path in [LOCALE / "pbm.pot", *(_po(lang) for lang in i18n.catalogues())]:
        missing = sorted(set(extracted) - _keys(_catalogue(path)), key=str)
        assert not missing, (
            f"{path.relative_to(ROOT)} lacks {missing} (from {[extracted[k] for k in missing]}): "
            "extract and update (docs/translating.md)"
        )


def test_the_catalogues_hold_no_text_the_code_does_not_use(
    extracted: dict[Key, list[str]],
) -> None:
    for path in [LOCALE / "pbm.pot", *(_po(lang) for lang in i18n.catalogues())]:
        unused = sorted(_keys(_catalogue(path)) - set(extracted), key=str)
        assert not unused, f"{path.relative_to(ROOT)}: no code uses {unused}"


def test_templates_do_not_branch_on_the_language() -> None:
    for path in sorted((PBM / "templates").glob("*.j2")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\blang\s*[!=]=|\ben\b\s*=|if en\b", text), path.name


#: Modules whose texts are all in the catalogue: no text chosen by comparing the language.
CATALOGUED = [
    "notation/errors.py",
    "notation/format.py",
    "notation/messages.py",
    "reports/describe.py",
    "reports/notices.py",
    "reports/report_data.py",
    "reports/summary.py",
    "reports/text_map.py",
    "reports/welcome.py",
    "service/answers.py",
    "service/authentication.py",
    "service/dispatch.py",
    "service/mail_commands",
    "service/order_intake.py",
    "service/request.py",
    "service/signup.py",
    "service/stray.py",
    "service/texts.py",
]


@pytest.mark.parametrize("module", CATALOGUED)
def test_code_does_not_choose_texts_by_language(module: str) -> None:
    path = PBM / module
    files = sorted(path.glob("*.py")) if path.is_dir() else [path]
    text = "".join(f.read_text(encoding="utf-8") for f in files)
    assert not re.search(r"""[!=]=\s*["'](de|en)["']|["'](de|en)["']\s*[!=]=""", text)
    assert not re.search(r"""\[["'](de|en)["']\]""", text)


def _items() -> Iterator[object]:
    lumber, brick, wool, grain, ore = range(5)
    yield Settlement(10)
    yield City(10)
    yield Road(12)
    yield BuyCard()
    yield MaritimeTrade(lumber, 4, ore, 1)
    yield YearOfPlenty(brick, grain)
    yield RoadBuilding(12, 13)
    yield RobberOrder(5, (1, 2))
    yield Knight(Timing.AFTER_ROLL, RobberOrder(5, (1,)))
    yield Monopoly(wool)
    yield DiscardPreference((ore, lumber))
    yield TradeOffer(1, (1, 0, 0, 0, 0), (0, 2, 0, 0, 0))


@pytest.mark.parametrize("lang", i18n.languages())
def test_the_order_words_of_every_language_are_read_back(lang: str) -> None:
    """The catalogue gives the words pbm writes; the parser must read them in that language
    (a new language needs its order words in `pbm/languages/<lang>.toml` too)."""
    ctx = Context(generate_board("medium", 1), lang, ("rot", "blau", "gelb", "weiss"), "round")
    for item in _items():
        line = format_item(item, ctx)  # type: ignore[arg-type]
        assert parse_line(line, ctx) == item, (lang, line)


@pytest.fixture
def with_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The catalogues plus a made-up language "xx": the English catalogue with two texts
    changed, as a translator would start one, and taken for a language with its order words
    (the file of its words is tests/test_language_data.py's part)."""
    for lang in i18n.catalogues():
        (tmp_path / lang / "LC_MESSAGES").mkdir(parents=True)
        (tmp_path / lang / "LC_MESSAGES" / "pbm.po").write_bytes(_po(lang).read_bytes())
    catalog = _catalogue(_po("en"))
    catalog.locale = None
    catalog["Accepted:"].string = "XX-accepted:"
    (tmp_path / "xx" / "LC_MESSAGES").mkdir(parents=True)
    with (tmp_path / "xx" / "LC_MESSAGES" / "pbm.po").open("wb") as f:
        write_po(f, catalog)

    def clear() -> None:
        i18n.catalogues.cache_clear()
        i18n.languages.cache_clear()
        i18n._variant_path.cache_clear()
        i18n.translator.cache_clear()
        render_module.environment.cache_clear()

    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path)
    reads = i18n.reads_order_words
    monkeypatch.setattr(i18n, "reads_order_words", lambda lang: lang == "xx" or reads(lang))
    clear()
    yield "xx"
    monkeypatch.undo()
    clear()


def test_a_new_language_is_a_catalogue_file(with_language: str) -> None:
    assert with_language in i18n.languages()
    ctx = Context(generate_board("medium", 1), with_language)
    data = notices.ack(
        parse_mail("", ctx), "", with_language, replaced=False, round_=2, deadline=""
    )
    assert data["lang"] == with_language
    ack = render_module.render("ack", "", {"game": "g", **data})
    assert "XX-accepted:" in ack.text and 'lang="xx"' in ack.html
    assert i18n.translator(with_language).pgettext("colour", "red") == "red"
