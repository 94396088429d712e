"""What a Kronlande game is (`identity.KindPart`): its name on its island and the rules it
adds."""

from __future__ import annotations

from pbm.i18n import translator
from pbm.rules.state import GameState, Settings

from .describe import title_name
from .identity import KIND_PARTS, KindPart


def _name(settings: Settings, lang: str) -> str:
    tr = translator(lang)
    kron = {
        "large": tr.gettext("Kronlande on the large island"),
        "huge": tr.gettext("Kronlande on the huge island"),
    }
    return kron.get(settings.size, kron["large"])


def _kron_rules(settings: Settings, state: GameState | None, lang: str) -> list[str]:
    _ = translator(lang).gettext
    return [
        _(
            "Quarries pay stone, fishing grounds (sea hexes with a number) fish; fish pays for "
            "missing grain in any cost."
        ),
        _(
            "Workshops on your buildings make goods: the smithy tools, the weaving mill cloth, "
            "the bakery bread; goods are traded between players, never with the bank."
        ),
        _(
            "A city becomes a castle (3 VP), a castle a residence (5 VP); the most castles and "
            "residences (at least 2) hold the title {title} (2 VP)."
        ).format(title=title_name("builder", lang)),
    ]


KIND_PARTS.append(KindPart(of=lambda settings: settings.kronlande, name=_name, rules=_kron_rules))
