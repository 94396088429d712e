"""Kronlande on the text map (`text_map.MAP_PARTS`): beside a building, the cell left of its
letter marks a Burg `+` or a Residenz `#`, the cell right of it a workshop (`!` Schmiede, `&`
Weberei, `@` Bäckerei); and its lines of the legend (quarries, fishing grounds, the marks)."""

from __future__ import annotations

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.rules.resources import FISCH, STEIN
from pbm.rules.state import GameState

from .text_map import CASTLE_MARKS, MAP_PARTS, WORKSHOP_MARKS, MapPart


class KronMap(MapPart):
    def crossing_marks(self, state: GameState, crossing: int) -> dict[int, str]:
        kron = state.kron
        if kron is None:
            return {}
        marks = {}
        if kron.castle[crossing] in CASTLE_MARKS:
            marks[-1] = CASTLE_MARKS[kron.castle[crossing]]
        if kron.workshop[crossing] >= 0:
            marks[1] = WORKSHOP_MARKS[kron.workshop[crossing]]
        return marks

    def legend(self, state: GameState, lang: str) -> list[str]:
        return _kron_legend(lang) if state.kron is not None else []


def _kron_legend(lang: str) -> list[str]:
    _ = translator(lang).gettext
    return [
        _("Quarries: 6{stone} ({stone_name}); fishing grounds: sea with a number, 5{fish}").format(
            stone=vocab.letter(STEIN, lang),
            stone_name=vocab.resource_name(STEIN, lang),
            fish=vocab.letter(FISCH, lang),
        ),
        _("Beside a city's letter: +R a castle, #R a residence"),
        _("Workshops: R! smithy, R& weaving mill, R@ bakery"),
    ]


MAP_PARTS.append(KronMap())
