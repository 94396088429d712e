"""Issue 21: the modern edition's catalogue and guide words (seed 002), and the beginner board
of seed 000."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from pbm import i18n
from pbm.notation import Context
from pbm.notation.format import format_item
from pbm.notation.lines import parse_line
from pbm.reports.guide_text import player_guide
from pbm.rules.beginner import HARBOURS, STARTS, beginner_board, beginner_game
from pbm.rules.building import settlement_site_rule
from pbm.rules.layouts import SIZES, generate_board
from pbm.rules.state import Settings

LOCALE = Path(i18n.__file__).parent / "locale"
MODERN = "de@modern"
CLASSIC = re.compile(
    r"räuber|entwicklungskarte|entw\.|handelsstra|rittermacht|straßenbau|erfindung|monopol"
    r"|siegpunkt(?!e|zahl|ziel)",
    re.I,
)


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, abort_invalid=True)


def _strings(m: object) -> tuple[str, ...]:
    s = m.string  # type: ignore[attr-defined]
    return s if isinstance(s, tuple) else (s,)


def test_the_edition_is_a_variant_not_a_language() -> None:
    assert i18n.languages() == ("da", "de", "en")
    assert i18n.variant("da", "modern") == "da"  # Danish has one vocabulary too
    assert i18n.variant("de", "modern") == MODERN
    assert i18n.variant("de", "klassisch") == "de"
    assert i18n.variant("en", "modern") == "en"  # English has one vocabulary
    assert i18n.language(MODERN) == MODERN and i18n.language("en@modern") == "en"
    tr = i18n.translator(MODERN)
    assert tr.pgettext("order word", "Robber") == "Bandit"
    assert tr.gettext("Accepted:") == i18n.translator("de").gettext("Accepted:")


def test_the_modern_catalogue_holds_only_known_texts_with_their_placeholders() -> None:
    pot = {(m.id, m.context) for m in _read(LOCALE / "pbm.pot") if m.id}
    modern = _read(LOCALE / "de" / "modern.po")
    fields = re.compile(r"\{(\w+)|%\((\w+)\)s")
    for m in modern:
        if not m.id:
            continue
        assert (m.id, m.context) in pot, m.id
        assert not m.fuzzy and all(_strings(m)), m.id
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        allowed = {f for i in ids for f in fields.findall(i)}
        for s in _strings(m):
            assert set(fields.findall(s)) <= allowed, (m.id, s)


def test_every_classic_german_word_has_its_modern_text() -> None:
    """A German text with a classic word needs a text in the modern edition without one."""
    modern = {(m.id, m.context): m for m in _read(LOCALE / "de" / "modern.po") if m.id}
    for m in _read(LOCALE / "de" / "LC_MESSAGES" / "pbm.po"):
        if m.id and any(CLASSIC.search(s) for s in _strings(m)):
            key = (m.id, m.context)
            assert key in modern, f"de/modern.po lacks {key}"
            assert not any(CLASSIC.search(s) for s in _strings(modern[key])), key


def test_modern_order_words_are_read_back_and_classic_ones_too() -> None:
    board = generate_board("medium", 1)
    modern = Context(board, MODERN, ("rot", "blau", "gelb", "weiss"), "round")
    classic = Context(board, "de", ("rot", "blau", "gelb", "weiss"), "round")
    for line in ("Projektkarte", "Bandit 9H, raube blau", "Tribut Erz", "Glücksfund H L"):
        item = parse_line(line, modern)
        assert parse_line(format_item(item, classic), modern) == item  # type: ignore[arg-type]
        assert format_item(item, modern).split()[0] == line.split()[0]  # type: ignore[arg-type]
        assert parse_line(line, classic) == item  # every German game reads both


@pytest.mark.parametrize("line", ["Wahrzeichen", "Spiele Wahrzeichen", "Siegpunktkarte"])
def test_a_victory_point_card_is_never_played(line: str) -> None:
    ctx = Context(generate_board("medium", 1), MODERN, ("rot", "blau", "gelb", "weiss"), "round")
    with pytest.raises(Exception) as caught:
        parse_line(line, ctx)
    assert "ein Wahrzeichen wird nicht gespielt" in caught.value.localized(MODERN)  # type: ignore[attr-defined]


def test_the_modern_guide_has_no_classic_word_outside_the_passage_on_both() -> None:
    guide = player_guide(MODERN)
    both = guide.index("**Klassische und moderne Wörter.**")
    outside = guide[:both] + guide[guide.index("\n\n", both) :]
    # (`monopoly` is the card's key in `pbm decode`'s output, the same in both editions.)
    lines = [line.split("](")[0].replace("`monopoly`", "") for line in outside.splitlines()]
    left = [line for line in lines if CLASSIC.search(line)]
    assert not left
    assert "den Banditen" in guide and "<!--" not in guide
    assert "<!--" not in player_guide("de") and "Räuber" in player_guide("de")


def test_the_beginner_board_is_a_medium_island_of_seed_000() -> None:
    board = beginner_board()
    medium = SIZES["medium"]
    land = [h for h in board.hexes if h.resource is not None]
    assert Counter(h.resource for h in land) == Counter(medium.tiles)
    assert Counter(h.number for h in land) == Counter(medium.tokens)
    assert sum(1 for h in board.hexes if h.is_land and h.resource is None) == 1
    harbours = [h.harbor for h in board.hexes if h.harbor is not None]
    assert Counter(h.resource for h in harbours) == Counter(medium.harbors)
    # Red numbers (6, 8) never side by side.
    red = {(h.row, h.x) for h in land if h.number in (6, 8)}
    steps = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
    assert not any((r + dr, x + dx) in red for r, x in red for dr, dx in steps)
    # Harbours on every other hex of the frame.
    assert [sea for sea, _, _ in HARBOURS] == ["A1", "A3", "B5", "D7", "F5", "G3", "G1", "E1", "C1"]


@pytest.mark.parametrize("players", [3, 4])
def test_the_beginner_pieces_keep_the_distance_rule(players: int) -> None:
    state = beginner_game(Settings.for_players(players), 1)
    sites = [c for p in range(players) for c in state.settlements[p]]
    assert len(sites) == 2 * players
    for c in sites:
        assert not any(n in sites for n in state.board.crossing_neighbors[c])
    assert [sum(h) for h in state.hands] == [3] * players
    assert all(state.visible_vp(p) == 2 for p in range(players))
    assert len(STARTS) == 4 and state.settings.players == players
    # The robber starts in the desert; every free crossing still follows the rules.
    assert state.board.hexes[state.robber].resource is None
    assert settlement_site_rule(state, sites[0]) is not None
