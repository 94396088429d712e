"""What a Seafarers game is (`identity.KindPart`): the scenario's name, its special rules, its
islands with their names and hexes, and per seat the islands that still pay
(docs/rules-decisions.md, "Seafarers: island names")."""

from __future__ import annotations

from string import ascii_uppercase

from pbm.i18n import translator
from pbm.rules.board import Board, Terrain
from pbm.rules.scenarios import Area, areas_of, scenario
from pbm.rules.scenarios.data import GOLD
from pbm.rules.state import GameState, Settings

from .identity import KIND_PARTS, KindPart


def scenario_name(key: str, lang: str) -> str:
    """A Seafarers scenario's name in a game language ("Die vier Inseln")."""
    tr = translator(lang)
    names = {
        "neue-ufer": tr.pgettext("scenario", "New Shores"),
        "vier-inseln": tr.pgettext("scenario", "The Four Islands"),
        "ozeanien": tr.pgettext("scenario", "Oceania"),
        "wueste": tr.pgettext("scenario", "Through the Desert"),
        "neue-welt": tr.pgettext("scenario", "New World"),
        "ueberfahrt": tr.pgettext("scenario", "The Great Crossing"),
    }
    return names.get(key, key)


def _island_names(lang: str) -> dict[str, str]:
    """The islands of the scenarios' board data by their English name (`Area.name_en`), in a
    game language; the German catalogue gives each its `Area.name_de` (a test holds them
    equal)."""
    tr = translator(lang)
    return {
        "main island": tr.pgettext("island", "main island"),
        "north islet": tr.pgettext("island", "north islet"),
        "east islet": tr.pgettext("island", "east islet"),
        "south islet": tr.pgettext("island", "south islet"),
        "west islet": tr.pgettext("island", "west islet"),
        "rock islet": tr.pgettext("island", "rock islet"),
        "north-east islet": tr.pgettext("island", "north-east islet"),
        "south-west islet": tr.pgettext("island", "south-west islet"),
        "north-west island": tr.pgettext("island", "north-west island"),
        "north-east island": tr.pgettext("island", "north-east island"),
        "south-west island": tr.pgettext("island", "south-west island"),
        "south-east island": tr.pgettext("island", "south-east island"),
        "desert belt": tr.pgettext("island", "desert belt"),
        "land beyond the desert": tr.pgettext("island", "land beyond the desert"),
        "Catania": tr.pgettext("island", "Catania"),
        "Transcatania": tr.pgettext("island", "Transcatania"),
    }


def island_letter(area: int) -> str:
    """The letter of a generated island (New World), by its number (1 = A, in label order)."""
    return ascii_uppercase[(area - 1) % len(ascii_uppercase)]


def lettered(key: str) -> bool:
    """Whether a scenario's islands are lettered (New World's, generated for each game) rather
    than named."""
    return scenario(key).boards is None


def island_name(key: str, area: int, info: Area, lang: str) -> str:
    """The name of one island (an area) of a scenario board in a game language: the board
    data's, or "Insel A" on a generated board."""
    if lettered(key):
        text = translator(lang).pgettext("island", "island {letter}")
        return text.format(letter=island_letter(area))
    return _island_names(lang).get(info.name_en, info.name_en)


def _areas(settings: Settings, state: GameState | None) -> dict[int, Area]:
    """The areas of the game's scenario board; {} without a scenario, or for a generated board
    without its state."""
    key = settings.scenario
    if key is None:
        return {}
    if state is not None:
        seed = state.board_seed if state.board_seed is not None else state.seed
        return areas_of(key, settings.players, seed)
    boards = scenario(key).boards
    return dict(boards[settings.players].areas) if boards is not None else {}


def island_hexes(board: Board) -> dict[int, list[str]]:
    """Each area's hex labels, in label order (the board's hexes are in label order)."""
    out: dict[int, list[str]] = {}
    for h in board.hexes:
        if h.area is not None:
            out.setdefault(h.area, []).append(h.label)
    return dict(sorted(out.items()))


def island_names(state: GameState, lang: str) -> dict[int, str]:
    """Every island of a Seafarers game's board by its area, named in the game's language; {}
    in a game without a scenario."""
    key = state.settings.scenario
    if key is None:
        return {}
    return {a: island_name(key, a, info, lang) for a, info in _areas(state.settings, state).items()}


def _has_gold(settings: Settings, state: GameState | None) -> bool:
    key = settings.scenario
    if key is None:
        return False
    if state is not None and any(h.terrain == Terrain.GOLD for h in state.board.hexes):
        return True
    boards = scenario(key).boards
    if boards is None:
        return False
    data = boards[settings.players]
    return any(GOLD in a.tiles for a in data.areas.values()) or GOLD in data.fog_tiles


def _sea_rules(settings: Settings, state: GameState | None, lang: str) -> list[str]:
    """The lines a Seafarers scenario adds: where to start, the coasts, the island bonus or the
    trade lines, fog, gold and the pirate."""
    _ = translator(lang).gettext
    key = settings.scenario
    assert key is not None
    sc = scenario(key)
    areas = _areas(settings, state)
    names = {a: island_name(key, a, info, lang) for a, info in areas.items()}
    lines = [
        _(
            "Ships (1 lumber, 1 wool) sail on the sides of sea hexes; where your ships reach "
            "land you may build a settlement."
        )
    ]
    starts = [names[a] for a, info in areas.items() if info.start]
    if sc.special == "trade_lines":
        lines.append(
            _(
                "Both start settlements stand on one of the two large islands, {first} or "
                "{second}: it is your home island."
            ).format(first=starts[0], second=starts[-1])
        )
    elif sc.special in ("foreign_1_2", "foreign_1"):
        lines.append(
            _(
                "Start settlements may stand on any island: the islands of your two start "
                "settlements are your home islands, every other island is foreign to you."
            )
        )
    elif key == "wueste":
        lines.append(
            _(
                "Start settlements stand on this island only, not beyond the desert belt: {island}."
            ).format(island=starts[0])
        )
    elif starts:
        lines.append(
            _("Start settlements stand on this island only: {island}.").format(island=starts[0])
        )
    if sc.ship_coast == "must":
        lines.append(
            _(
                "A start settlement on a coast facing other islands takes a ship instead of a "
                "road (a coast along the frame does not)."
            )
        )
    elif sc.ship_coast == "should":
        lines.append(
            _(
                "A start settlement on the coast facing the islets had better take a ship "
                "instead of a road, to put to sea at once."
            )
        )
    if sc.special == "bonus_areas":
        bonus = [names[a] for a, info in areas.items() if info.bonus]
        lines.append(
            _("Island bonus: +1 VP for your first settlement on each of: {islands}.").format(
                islands=", ".join(bonus)
            )
        )
    elif sc.special == "foreign_1_2":
        lines.append(
            _(
                "Island bonus: +1 VP for your first settlement on the first foreign island you "
                "reach, +2 for your first settlement on each further foreign island."
            )
        )
    elif sc.special == "foreign_1":
        lines.append(_("Island bonus: +1 VP for your first settlement on each foreign island."))
    elif sc.special == "trade_lines":
        lines.append(
            _(
                "Trade lines: +1 VP for each chain of ships and roads between a building on "
                "{first} and one on {second}, to whoever put more pieces into it; a line cut "
                "loses its point."
            ).format(first=starts[0], second=starts[-1])
        )
    else:
        lines.append(_("No island bonus: every building counts as in the base game."))
    if sc.boards is not None and sc.boards[settings.players].fog_tiles:
        lines.append(
            _(
                "Fog: the hexes marked ? are hidden until a road or ship reaches them; a land "
                "hex discovered pays you one card of it at once."
            )
        )
    if _has_gold(settings, state):
        lines.append(
            _(
                "Gold rivers ($) pay each building next to them a resource of its owner's "
                "choice (the 'Gold:' line)."
            )
        )
    if settings.pirate:
        lines.append(
            _(
                "The pirate (<P>) is on: on a 7 or with a knight you may move it instead of the "
                "robber; it robs every ship owner next to it and blocks ships beside it."
            )
        )
    else:
        lines.append(_("The pirate is off: this game is played without it."))
    return lines


def _island_lines(state: GameState, lang: str) -> list[str]:
    """One line per island: its name and hexes, and what it is for (start, bonus)."""
    key = state.settings.scenario
    if key is None:
        return []
    _ = translator(lang).gettext
    areas = _areas(state.settings, state)
    every_start = all(info.start for info in areas.values())
    out = []
    for a, labels in island_hexes(state.board).items():
        info = areas.get(a)
        if info is None:
            continue
        tags = []
        if info.start and not every_start:
            tags.append(_("start settlements here"))
        if info.bonus:
            tags.append(_("island bonus"))
        name = island_name(key, a, info, lang)
        tail = f" ({', '.join(tags)})" if tags else ""
        out.append(f"{name}: {' '.join(labels)}{tail}")
    return out


def _foreign_bonus(state: GameState, p: int, areas: dict[int, Area]) -> tuple[list[int], int]:
    """The islands that would still pay p an island bonus, and what the next one pays."""
    sea = state.sea
    assert sea is not None
    sc = scenario(sea.scenario)
    rewarded = {a for _, a, _ in sea.specials[p]}
    if sc.special == "bonus_areas":
        return [a for a, info in areas.items() if info.bonus and a not in rewarded], 1
    if sc.special in ("foreign_1_2", "foreign_1"):
        if not sea.home[p]:
            return [], 0
        left = [a for a in areas if a not in sea.home[p] and a not in rewarded]
        first = sc.special == "foreign_1" or not rewarded
        return left, 1 if first else 2
    return [], 0


def _player_islands(state: GameState, lang: str) -> list[str]:
    """Per seat, its home islands and the islands that still pay it an island bonus, for the
    round report; [] in a game without home islands or island bonus (the base game, Kronlande,
    Oceania)."""
    sea = state.sea
    if sea is None:
        return []
    sc = scenario(sea.scenario)
    if sc.special == "none":
        return []
    tr = translator(lang)
    areas = _areas(state.settings, state)
    names = island_names(state, lang)
    out = []
    for p in range(state.settings.players):
        parts = []
        home = ", ".join(names[a] for a in sea.home[p] if a in names)
        if home and sc.special in ("foreign_1_2", "foreign_1", "trade_lines"):
            parts.append(tr.gettext("home: {islands}").format(islands=home))
        if sc.special != "trade_lines":
            left, vp = _foreign_bonus(state, p, areas)
            if left and sc.special == "foreign_1_2" and vp == 1:
                text = tr.gettext("bonus still on: {islands} (+1 on the first, then +2)")
            elif left:
                text = tr.gettext("bonus still on: {islands} (+{vp} each)")
            elif sea.home[p] or sc.special == "bonus_areas":
                text = tr.gettext("no island bonus left")
            else:
                text = ""
            if text:
                parts.append(
                    text.format(islands=", ".join(names[a] for a in left if a in names), vp=vp)
                )
        out.append("; ".join(parts) or "-")
    return out


def _name(settings: Settings, lang: str) -> str:
    assert settings.scenario is not None
    return (
        translator(lang)
        .gettext("Seafarers scenario “{scenario}”")
        .format(scenario=scenario_name(settings.scenario, lang))
    )


KIND_PARTS.append(
    KindPart(
        of=lambda settings: settings.scenario is not None,
        name=_name,
        rules=_sea_rules,
        islands=_island_lines,
        players=_player_islands,
    )
)
