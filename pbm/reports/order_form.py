"""The order form of a game kind: every order line a player of such a game may write, with
placeholders (`<hex>`, `<crossing>`, …) where a place, a colour or cards go, in the game's
order words. One form per game kind serves every mail that shows the order lines: the report's
order form for the next round (`report_data.order_form`, its lines as `#` comments to fill in),
the mail that opens round 1, and the help mail's overview (`Hilfe`).

A game's kind is what changes its order lines (`GameKind`): ships (Seafarers), gold rivers,
the pirate, Kronlande's workshops, goods, castles and cards. Every line of every form parses
once its placeholders are filled in with real places of a game of that kind
(tests/reports/test_order_form.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.notation.format import word
from pbm.rules.board import Board, Terrain
from pbm.rules.state import GameState, Settings


@dataclass(frozen=True)
class GameKind:
    """What of a game decides its order lines and the guide's chapters for it."""

    #: A Seafarers scenario's key (`scenarios.SCENARIOS`), or None.
    scenario: str | None = None
    #: Seafarers: the pirate plays (`--no-pirate` leaves him out).
    pirate: bool = False
    #: Seafarers: the island has gold rivers, or fog that may hide some (Oceania).
    gold: bool = False
    kronlande: bool = False

    @property
    def seafarers(self) -> bool:
        return self.scenario is not None

    @classmethod
    def of(cls, settings: Settings, board: Board | None) -> GameKind:
        """The kind of a game with these settings on this board (a Seafarers game's gold
        rivers are its board's: none without one)."""
        sea = settings.scenario is not None
        hexes = board.hexes if board is not None else ()
        gold = sea and any(h.terrain in (Terrain.GOLD, Terrain.FOG) for h in hexes)
        return cls(settings.scenario, sea and settings.pirate, gold, settings.kronlande)

    @classmethod
    def of_state(cls, state: GameState) -> GameKind:
        return cls.of(state.settings, state.board)


@dataclass(frozen=True)
class Placeholders:
    """The placeholders of the forms in a game language (msgctxt "placeholder")."""

    hex: str
    sea_hex: str
    colour: str
    crossing: str
    path: str
    resources: str
    resource: str
    good: str
    resource_or_good: str

    @classmethod
    def of(cls, lang: str) -> Placeholders:
        tr = translator(lang)
        return cls(
            hex=tr.pgettext("placeholder", "<hex>"),
            sea_hex=tr.pgettext("placeholder", "<sea hex>"),
            colour=tr.pgettext("placeholder", "<colour>"),
            crossing=tr.pgettext("placeholder", "<crossing>"),
            path=tr.pgettext("placeholder", "<path>"),
            resources=tr.pgettext("placeholder", "<resources>"),
            resource=tr.pgettext("placeholder", "<resource>"),
            good=tr.pgettext("placeholder", "<good>"),
            resource_or_good=tr.pgettext("placeholder", "<resource or good>"),
        )


def form_lines(kind: GameKind, lang: str) -> list[str]:
    """Every order line of a round in a game of this kind, with placeholders, in the order a
    round reads them: the robber (and the pirate), the discard list, gold, the cards played
    first, trades, builds, the cards played in the build step, and the substitute builds'
    heading."""
    ph = Placeholders.of(lang)

    def w(key: str) -> str:
        return word(key, lang)

    robber = f"{w('robber')} {ph.hex}, {w('steal')} {ph.colour}"
    lines = [robber]
    if kind.pirate:
        lines.append(f"{w('pirate')} {ph.sea_hex}")
    lines.append(f"{w('discard')}: {ph.resources}")
    if kind.gold:
        lines.append(f"{w('gold')} {ph.resource}, {ph.resource}")
    lines += [
        f"{w('knight')} {w('before')}: {robber}",
        f"{w('monopoly')} {ph.resource}",
        f"{w('trade')} {ph.colour}: {w('give')} {ph.resources}, {w('get')} {ph.resources}",
        f"{w('maritime')} 4{ph.resource} {w('for')} 1{ph.resource}",
        f"{w('settlement')} {ph.crossing}",
        f"{w('road')} {ph.path}",
    ]
    if kind.seafarers:
        lines += [
            f"{w('ship')} {ph.path}",
            f"{w('move_ship')} {ph.path} {w('to')} {ph.path}",
        ]
    lines.append(f"{w('city')} {ph.crossing}")
    if kind.kronlande:
        lines += [
            f"{w('smithy')} {ph.crossing}",
            f"{w('weaving_mill')} {ph.crossing}",
            f"{w('bakery')} {ph.crossing}",
            f"{w('make')} 1 {ph.good}",
            f"{w('castle')} {ph.crossing}",
            f"{w('residence')} {ph.crossing}",
        ]
    lines += [
        w("buy"),
        f"{w('plenty')} {ph.resource} {ph.resource}",
        f"{w('road_building')}: {ph.path}, {ph.path}",
    ]
    if kind.kronlande:
        lines += [w("builders_hut"), w("harbour_privilege"), f"{w('feast')} {ph.resource_or_good}"]
    lines.append(w("substitute"))
    return lines


def setup_lines(kind: GameKind, lang: str) -> list[str]:
    """The placement of the setup: a settlement and its road (in Seafarers also: its ship)."""
    ph = Placeholders.of(lang)
    settlement = f"{word('settlement', lang)} {ph.crossing}"
    lines = [f"{settlement} {word('road', lang)} {ph.path}"]
    if kind.seafarers:
        lines.append(f"{settlement} {word('ship', lang)} {ph.path}")
    return lines


def letters_text(kind: GameKind, lang: str) -> str:
    """The cards' letters and names of the game: `H Holz, L Lehm, …` (a letter and its name
    joined by a no-break space)."""
    letters = vocab.letters(lang, kind.kronlande)
    return ", ".join(f"{x}\u00a0{vocab.resource_name(r, lang)}" for r, x in enumerate(letters))
