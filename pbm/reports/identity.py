"""What game this is, in the game's words: its kind, its victory-point target, its special rules
and its islands. Every mail that introduces a game (the welcome, the island preview, round 1,
the help mail, the answer to `Status`) takes them from here, so all of them say the same.

`game_kind` works from the settings alone (a game in its signup has no board yet); given the
state it also lists the islands of a Seafarers board with their hexes. Islands are named by the
scenario's board data (`scenarios.data.Area`: the names of seed 001 where it gives them,
Catanien and Transcatanien, else pbm's names after the shape of the published scenario, such as
"Nordwestinsel"); the generated islands of New World have no names and are lettered A, B, C …
in label order ("Insel A"), the letter drawn on the text map and the picture
(docs/rules-decisions.md, "Seafarers: island names").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pbm.i18n import translator
from pbm.rules.state import GameState, Settings

#: The width of a line of a text mail.
TEXT_WIDTH = 72


def _nothing(state: GameState, lang: str) -> list[str]:
    return []


@dataclass(frozen=True)
class KindPart:
    """An expansion's part of what a game is (`identity_sea`, `identity_kron`, registered in
    `KIND_PARTS` by their modules): whether a game is of its kind, the kind's name, the
    special rules it adds, the islands of its board and, per seat, the islands that still pay."""

    of: Callable[[Settings], bool]
    name: Callable[[Settings, str], str]
    rules: Callable[[Settings, GameState | None, str], list[str]]
    islands: Callable[[GameState, str], list[str]] = _nothing
    players: Callable[[GameState, str], list[str]] = _nothing


#: The expansions' parts, filled by their modules (imported at the end of this one).
KIND_PARTS: list[KindPart] = []


def kind_part(settings: Settings) -> KindPart | None:
    """The part of the expansion a game is of; None for the base game."""
    return next((part for part in KIND_PARTS if part.of(settings)), None)


def player_islands(state: GameState, lang: str) -> list[str]:
    """Per seat, what its islands still pay (home islands, the island bonus left), for the
    round report; [] in a game whose kind has none."""
    part = kind_part(state.settings)
    return part.players(state, lang) if part is not None else []


def _kind_name(settings: Settings, layout: str, lang: str) -> str:
    tr = translator(lang)
    part = kind_part(settings)
    if part is not None:
        return part.name(settings, lang)
    if layout == "beginner":
        return tr.gettext("Base game in the beginner setup")
    sizes = {
        "small": tr.gettext("Base game on the small island"),
        "medium": tr.gettext("Base game on the medium island"),
        "large": tr.gettext("Base game on the large island"),
        "huge": tr.gettext("Base game on the huge island"),
    }
    return sizes.get(settings.size, sizes["medium"])


def _rules(
    settings: Settings, edition: str, layout: str, state: GameState | None, lang: str
) -> list[str]:
    _ = translator(lang).gettext
    part = kind_part(settings)
    lines = part.rules(settings, state, lang) if part is not None else []
    if layout == "beginner":
        lines.append(
            _(
                "Beginner setup: the rule book's island, every colour's two settlements and two "
                "roads already stand; there are no setup rounds."
            )
        )
    if edition == "modern":
        lines.append(_("Edition: modern."))
    # The bank: said when it is unlimited (the classic edition's bank is the classic one,
    # the modern edition's unlimited: the modern edition's players read it said anyway), and
    # when it is the classic one in the modern edition, whose players expect it unlimited.
    if settings.bank == "unlimited":
        lines.append(_("The bank is unlimited: every roll pays in full."))
    elif edition == "modern":
        lines.append(
            _(
                "The bank is limited (the classic bank): {count} cards of each resource. If it "
                "has too few of a resource for everyone a roll pays it to, nobody gets it (one "
                "player alone gets what is left)."
            ).format(count=settings.bank_count)
        )
    if settings.newcomer_protection:
        lines.append(
            _(
                "Newcomer protection: the robber may not go next to a player with 2 visible VP "
                "or less."
            )
        )
    if settings.card_limit != 7:
        lines.append(
            _("A 7 makes you discard half your cards if you hold more than {limit}.").format(
                limit=settings.card_limit
            )
        )
    return lines


def game_kind(
    settings: Settings,
    lang: str,
    *,
    edition: str = "klassisch",
    layout: str = "variable",
    state: GameState | None = None,
) -> dict[str, Any]:
    """The game's identity for the templates (`_game_kind.*.j2`): `title` names the kind, the
    players and the victory-point target (`title_lines`: on one line of a text mail, or on
    two); `rules` are the special rules in a few sentences; `islands` one line per island of a
    Seafarers board, with its hexes (given the state)."""
    tr = translator(lang)
    part = kind_part(settings)
    name = _kind_name(settings, layout, lang)
    values = {"players": settings.players, "target": settings.vp_target}
    title = tr.gettext("{kind} – {players} players, goal: {target} victory points")
    title = title.format(kind=name, **values)
    # A title too long for a line of a text mail goes on two: the kind, then the goal.
    goal = tr.gettext("{players} players, goal: {target} victory points").format(**values)
    return {
        "title": title,
        "title_lines": [title] if len(title) <= TEXT_WIDTH else [name, goal],
        "target": settings.vp_target,
        "rules": _rules(settings, edition, layout, state, lang),
        "islands": part.islands(state, lang) if part is not None and state is not None else [],
    }


# The expansions register their parts (after `KindPart` and `KIND_PARTS` exist).
from . import identity_kron as _identity_kron  # noqa: E402, F401
from . import identity_sea as _identity_sea  # noqa: E402, F401
