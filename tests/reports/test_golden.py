"""Golden files: the text parts of the mails players read, from fixed states, both languages.

`PBM_UPDATE_GOLDEN=1 pytest tests/reports/test_golden.py` rewrites tests/reports/golden/*.txt;
read the diff before committing it. Sealed notices are cipher text (their nonce was random at
first, and may be again), so their tokens are masked (`alpha:2:2:<sealed>`); a test of their
own checks that each one opens to the true card.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import pytest

from pbm.reports import codebook
from pbm.rules import events as ev

from . import scenes

GOLDEN = Path(__file__).parent / "golden"
#: The modern edition of a German game (`pbm.i18n.variant("de", "modern")`).
MODERN = "de@modern"
UPDATE = os.environ.get("PBM_UPDATE_GOLDEN") == "1"


@functools.cache  # the modern edition's test reads the German text of every scene again
def _golden_text(name: str, lang: str) -> str:
    subject, rendered = scenes.SCENES[name](lang)
    return f"Subject: {subject}\n\n" + scenes.normalise_sealed(rendered.text)


def _check(path: Path, actual: str) -> None:
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    assert path.exists(), f"{path.name} missing: run with PBM_UPDATE_GOLDEN=1 to create it"
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        import difflib

        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"golden/{path.name}",
                "rendered",
            )
        )
        pytest.fail(
            f"{path.name} differs from the rendered text (PBM_UPDATE_GOLDEN=1 rewrites it):\n{diff}"
        )


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("name", sorted(scenes.SCENES))
def test_golden(name: str, lang: str) -> None:
    _check(GOLDEN / f"{name}_{lang}.txt", _golden_text(name, lang))


@pytest.mark.parametrize("name", scenes.DANISH_SCENES)
def test_golden_danish(name: str) -> None:
    """Every scene's mail in a Danish game, as German and English have them: what players and
    the GM write is Danish too (`scenes.DANISH_INPUT`)."""
    _check(GOLDEN / f"{name}_{scenes.DANISH}.txt", _golden_text(name, scenes.DANISH))


#: The classic edition's words (German); a mail that has one is kept in the modern edition's
#: words too (`pbm game create --edition modern`, seed 002).
CLASSIC = re.compile(
    r"Räuber|Entwicklungskarte|Handelsstraße|Rittermacht|Straßenbau|Erfindung|Monopol"
    r"|Siegpunktkarte|=Siegpunkt\b"
)
#: Where a modern mail names the classic words on purpose: what players wrote, quoted back
#: (the ack and the error mail of scenes.ORDERS), and the guide's passage on both editions.
QUOTED = re.compile(r"^> |Räuber E2, raube|` oder `|klassisch|heißt modern")


@pytest.mark.parametrize("name", sorted(scenes.SCENES))
def test_golden_modern_edition(name: str) -> None:
    """Every mail with a classic word, in the modern edition's words: the golden file, and no
    classic word left but where a player's own words are quoted. (Which scenes have one is
    found here, not when the tests are collected: every worker would render them all.)"""
    path = GOLDEN / f"{name}_{MODERN}.txt"
    if not CLASSIC.search(_golden_text(name, "de")):
        assert UPDATE or not path.exists(), f"{path.name}: no classic word in the scene; remove it"
        return
    text = _golden_text(name, MODERN)
    _check(path, text)
    left = [line for line in text.splitlines() if CLASSIC.search(line) and not QUOTED.search(line)]
    assert not left, f"{name}: classic words in the modern edition: {left}"


def test_rendering_is_deterministic() -> None:
    """Apart from the sealed notices' nonces, rendering twice gives the same text and HTML."""
    for name, scene in scenes.SCENES.items():
        for lang in scenes.LANGS:
            (s1, r1), (s2, r2) = scene(lang), scene(lang)
            assert s1 == s2, name
            assert scenes.normalise_sealed(r1.text) == scenes.normalise_sealed(r2.text), name
            assert scenes.normalise_sealed(r1.html) == scenes.normalise_sealed(r2.html), name


def test_mid_round_scene_has_everything() -> None:
    """The round of the golden report shows every kind of event it is meant to show."""
    _, _, events = scenes.midgame()
    kinds = {type(e) for e in events}
    assert kinds >= scenes.MID_KINDS, scenes.MID_KINDS - kinds
    assert any(isinstance(e, ev.Rolled) and e.total == 7 for e in events)
    assert any(
        isinstance(e, ev.TradeFailed) and e.reason == "not_confirmed_by_partner" for e in events
    )


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_sealed_notices_in_the_report_open_to_the_true_card(lang: str) -> None:
    _, _, events = scenes.midgame()
    bought = [e for e in events if isinstance(e, ev.CardBought)]
    _, rendered = scenes.round_report(lang)
    tokens = [
        line.strip() for line in rendered.text.splitlines() if scenes.SEALED.fullmatch(line.strip())
    ]
    assert len(tokens) == len(bought) >= 1
    for token, e in zip(tokens, bought, strict=True):
        assert token.startswith(f"{scenes.GAME}:{e.player}:{e.number}:")
        assert codebook.unseal(scenes.SECRETS[e.player], token) == e.card
        for other, secret in scenes.SECRETS.items():
            if other != e.player:
                assert codebook.unseal(secret, token) is None


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_round_report_names_every_player_and_the_next_round(lang: str) -> None:
    from pbm.notation import vocab

    before, after, _ = scenes.midgame()
    _, rendered = scenes.round_report(lang)
    for colour in after.colours:
        assert vocab.colour_name(colour, lang) in rendered.text
    assert scenes.next_line(lang, after.round) in rendered.text
    assert f"{before.round}" in rendered.text.splitlines()[0]


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_text_part_is_complete_without_html(lang: str) -> None:
    """What the HTML part says in words, the text part says too (hands, VP, log lines)."""
    import html as htmlmod
    import re

    _, rendered = scenes.round_report(lang)
    pre = re.findall(r"<pre[^>]*>(.*?)</pre>", rendered.html, flags=re.S)
    assert len(pre) >= 3
    # The HTML part's log lines are whole (the screen wraps them); the text part wraps them at
    # 72 columns: compared with the blanks and line breaks as one space.
    text = " ".join(rendered.text.split())
    for block in pre:
        for line in htmlmod.unescape(block).splitlines():
            assert " ".join(line.split()) in text, line


def test_the_html_log_has_each_event_on_one_line() -> None:
    """The text part wraps a long log line at 72 columns; the HTML part keeps it whole, for the
    screen to wrap (a phone wrapping the short lines again left a word or two on a line)."""
    import html as htmlmod
    import re

    _, rendered = scenes.round_report("de")
    log = re.findall(r"<pre[^>]*>(.*?)</pre>", rendered.html, flags=re.S)[0]
    lines = htmlmod.unescape(log).splitlines()
    assert any(len(line) > 72 for line in lines)
    assert not any(line.startswith("    ") for line in lines)  # no continuation line
