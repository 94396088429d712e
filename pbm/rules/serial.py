"""Lossless serialisation of the game state: JSON for storage, one text line for fixtures.

The text form reads like chess's FEN: space-separated `key=value` fields, players separated by
`/`, pieces as `crossing:seat` (a `c` after the seat for a city) and `path:seat`. A board laid
by `generate_board(size, seed)` is written as `size@seed`; any other board is written out hex by
hex. Example (a game in round 5):

    board=medium@7 players=4 seed=7 vp=10 bank=classic:19 limit=7 protect=0 lang=de
    colours=rot,blau,gelb,weiss phase=rounds round=5 setup=8 hands=1.0.2.0.1/…
    stock=18.19.17.19.18 deck=KVKM… cards=K3.V1/-/-/- bought=2.0.0.0 knights=0.1.0.0
    played=-1.3.-1.-1 build=12:0,14:0c,… roads=3:0,5:1,… robber=9 longest=- army=1 winner=-
    rules=4

`rules` is the rules version the game is played by (`state.RULES`); a state written without it
(JSON or text) was played by rules 1.

The JSON form has a format version `v`. Version 1 is the base game, written exactly as before
Seafarers, so every stored base game loads and replays byte for byte. Version 2 is a Seafarers
game: version 1 plus the settings' `scenario` and `pirate`, a `sea` object (`sea.SeaState`) and,
on a board written hex by hex, each hex's area and the pirate's start. The text form adds
`scenario=KEY` (the board then is the scenario's for `@seed`) and `sea=` (the `sea` JSON,
%-quoted). Version 3 is a Kronlande game: version 1 plus the settings' `kronlande` and a `kron`
object (`kron.KronState`); its hands have 10 entries, its bank 7, a Residenz is a building of
level 3. The text form adds `kron=` (the `kron` JSON, %-quoted; the board then is the
Kronlande island for `@seed`) and writes a Residenz as `c:pr` in `build=`.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote, unquote

from .board import Board, HexSpec, Terrain
from .layouts import CARD_TYPES, KRON_CARD_TYPES
from .parts import PARTS
from .state import GameState, Phase, Settings, board_for, board_version_for

#: The JSON format versions this code reads (see the module doc).
VERSIONS = (1, 2, 3)

CARD_LETTERS = {
    "knight": "K",
    "vp": "V",
    "road_building": "R",
    "year_of_plenty": "Y",
    "monopoly": "M",
    # Kronlande's project cards.
    "builders_hut": "B",
    "harbour_privilege": "H",
    "feast": "F",
}
LETTER_CARDS = {v: k for k, v in CARD_LETTERS.items()}
assert set(CARD_LETTERS) == set(CARD_TYPES + KRON_CARD_TYPES)


def _board_specs(board: Board) -> list[list[Any]]:
    out = []
    for h in board.hexes:
        hb = h.harbor
        faces = [board.hexes[hb.faces].row, board.hexes[hb.faces].x] if hb else None
        spec = [h.row, h.x, str(h.terrain), h.resource, h.number, hb.resource if hb else None]
        spec.append(faces)
        if board.has_areas:
            spec.append(h.area)  # Seafarers boards only: the base boards' specs stay as they were
        out.append(spec)
    return out


def _board_from_specs(
    specs: list[list[Any]], name: str, pirate: tuple[int, int] | None = None
) -> Board:
    return Board(
        [
            HexSpec(
                row,
                x,
                Terrain(t),
                res,
                num,
                hres,
                tuple(faces) if faces else None,
                area[0] if area else None,
            )
            for row, x, t, res, num, hres, faces, *area in specs
        ],
        name=name,
        pirate_start=pirate,
    )


def _custom_board_json(board: Board) -> dict[str, Any]:
    out: dict[str, Any] = {"name": board.name, "hexes": _board_specs(board)}
    if board.pirate_start is not None:
        h = board.hexes[board.pirate_start]
        out["pirate"] = [h.row, h.x]
    return out


def _board_version(version: object, settings: Settings) -> int:
    """A stored board's version, checked: one pbm lays (an int from 1 to the newest that
    changed this board, `board_version_for`)."""
    newest = board_version_for(settings)
    if type(version) is not int or version < 1 or version > newest > 1:
        raise ValueError(f"unknown board version {version!r}")
    if version > newest:
        raise ValueError(f"board version {version} on a board that has only version 1")
    return version


def _seeded_board_json(s: GameState) -> dict[str, Any]:
    """A board laid from a seed: the seed, and its version when not the first (the boards of
    games stored before versions were written stay exactly as they were)."""
    out: dict[str, Any] = {"seed": s.board_seed}
    if s.board_version != 1:
        out["version"] = s.board_version
    return out


def state_to_json(s: GameState) -> dict[str, Any]:
    st = s.settings
    out: dict[str, Any] = {
        "v": 1,
        "settings": {
            "players": st.players,
            "size": st.size,
            "vp_target": st.vp_target,
            "bank": st.bank,
            "bank_count": st.bank_count,
            "card_limit": st.card_limit,
            "newcomer_protection": st.newcomer_protection,
            "lang": st.lang,
        },
        "seed": s.seed,
        "board": _seeded_board_json(s) if s.board_seed is not None else _custom_board_json(s.board),
        "colours": list(s.colours),
        "phase": str(s.phase),
        "round": s.round,
        "setup_step": s.setup_step,
        "hands": [h[:] for h in s.hands],
        "bank": s.bank[:] if s.bank is not None else None,
        "deck": "".join(CARD_LETTERS[c] for c in s.deck),
        "cards": [[f"{CARD_LETTERS[c]}{r}" for c, r in hand] for hand in s.cards],
        "cards_bought": s.cards_bought[:],
        "knights": s.knights[:],
        "last_card_round": s.last_card_round[:],
        "buildings": [[c, p, s.level[c]] for c, p in enumerate(s.owner) if p >= 0],
        "roads": [[e, p] for e, p in enumerate(s.road) if p >= 0],
        "robber": s.robber,
        "longest_road": s.longest_road,
        "largest_army": s.largest_army,
        "winner": s.winner,
        "rules": s.rules,
    }
    for kind in PARTS:
        part = getattr(s, kind.field)
        if part is not None:
            # An expansion's game: its format version, its settings and its part.
            out["v"] = kind.version
            out["settings"].update(kind.settings_json(st))
            out[kind.field] = part.to_json()
    return out


def state_from_json(d: dict[str, Any]) -> GameState:
    if d.get("v") not in VERSIONS:
        raise ValueError(f"unknown state version {d.get('v')!r}")
    settings = Settings(**d["settings"])
    s = GameState.__new__(GameState)
    s.settings = settings
    s.seed = d["seed"]
    if "seed" in d["board"]:
        s.board_seed = d["board"]["seed"]
        # A board stored without its version was laid by the first (`layouts.BOARD_VERSION`,
        # `scenarios.BOARD_VERSION`).
        s.board_version = _board_version(d["board"].get("version", 1), settings)
        s.board = board_for(settings, d["board"]["seed"], s.board_version)
    else:
        s.board_seed = None
        s.board_version = 1
        pirate = d["board"].get("pirate")
        s.board = _board_from_specs(
            d["board"]["hexes"],
            d["board"].get("name", "custom"),
            (pirate[0], pirate[1]) if pirate else None,
        )
    s.colours = tuple(d["colours"])
    s.phase = Phase(d["phase"])
    s.round = d["round"]
    s.setup_step = d["setup_step"]
    s.hands = [list(h) for h in d["hands"]]
    s.bank = list(d["bank"]) if d["bank"] is not None else None
    s.deck = [LETTER_CARDS[x] for x in d["deck"]]
    s.cards = [[(LETTER_CARDS[x[0]], int(x[1:])) for x in hand] for hand in d["cards"]]
    s.cards_bought = list(d["cards_bought"])
    s.knights = list(d["knights"])
    s.last_card_round = list(d["last_card_round"])
    s.owner = [-1] * len(s.board.crossing_hexes)
    s.level = [0] * len(s.board.crossing_hexes)
    for c, p, lvl in d["buildings"]:
        s.owner[c], s.level[c] = p, lvl
    s.road = [-1] * len(s.board.path_hexes)
    for e, p in d["roads"]:
        s.road[e] = p
    s.robber = d["robber"]
    s.longest_road = d["longest_road"]
    s.largest_army = d["largest_army"]
    s.winner = d["winner"]
    # A state stored before the rules had versions was played by rules 1.
    s.rules = d.get("rules", 1)
    for kind in PARTS:
        setattr(s, kind.field, None)
    for kind in PARTS:
        data = d.get(kind.field)
        if data is not None:
            setattr(s, kind.field, kind.read(data, s))
    s.rebuild_indexes()
    return s


#: The suffix of a building's level in the text form's `build=` (a Residenz has level 3).
_LEVEL = ("", "", "c", "r")
_LEVEL_OF = {"": 1, "c": 2, "r": 3}


def _ints(xs: list[int], sep: str = ".") -> str:
    return sep.join(str(x) for x in xs)


def _seat(x: int) -> str:
    return "-" if x < 0 else str(x)


def state_to_text(s: GameState) -> str:
    d = state_to_json(s)
    st = s.settings
    if s.board_seed is not None:
        # size@seed, and /version for a board laid by a later version than the first.
        board = f"{st.size}@{s.board_seed}"
        if s.board_version != 1:
            board += f"/{s.board_version}"
    else:
        # custom:<size>:<board name, %-quoted>:<hex specs>
        board = f"custom:{st.size}:{quote(s.board.name, safe='')}:" + ";".join(
            ".".join(
                "" if v is None else (f"{v[0]},{v[1]}" if isinstance(v, list) else str(v))
                for v in spec
            )
            for spec in d["board"]["hexes"]
        )
    fields = [
        f"board={board}",
        f"players={st.players}",
        f"seed={s.seed}",
        f"vp={st.vp_target}",
        f"bank={st.bank}:{st.bank_count}",
        f"limit={st.card_limit}",
        f"protect={int(st.newcomer_protection)}",
        f"lang={st.lang}",
        f"colours={','.join(s.colours)}",
        f"phase={s.phase}",
        f"round={s.round}",
        f"setup={s.setup_step}",
        "hands=" + "/".join(_ints(h) for h in s.hands),
        "stock=" + ("-" if s.bank is None else _ints(s.bank)),
        "deck=" + (d["deck"] or "-"),
        "cards=" + "/".join(".".join(hand) or "-" for hand in d["cards"]),
        f"bought={_ints(s.cards_bought)}",
        f"knights={_ints(s.knights)}",
        f"played={_ints(s.last_card_round)}",
        "build=" + (",".join(f"{c}:{p}{_LEVEL[lvl]}" for c, p, lvl in d["buildings"]) or "-"),
        "roads=" + (",".join(f"{e}:{p}" for e, p in d["roads"]) or "-"),
        f"robber={s.robber}",
        f"longest={_seat(s.longest_road)}",
        f"army={_seat(s.largest_army)}",
        f"winner={_seat(s.winner)}",
        f"rules={s.rules}",
    ]
    for kind in PARTS:
        if getattr(s, kind.field) is not None:
            fields += kind.text_fields(s, d)
    return " ".join(fields)


def state_from_text(text: str) -> GameState:
    f = dict(part.split("=", 1) for part in text.split())

    def ints(v: str) -> list[int]:
        return [int(x) for x in v.split(".")]

    def seat(v: str) -> int:
        return -1 if v == "-" else int(v)

    bank_mode, bank_count = f["bank"].split(":")
    settings = Settings(
        players=int(f["players"]),
        size="",
        vp_target=int(f["vp"]),
        bank=bank_mode,
        bank_count=int(bank_count),
        card_limit=int(f["limit"]),
        newcomer_protection=f["protect"] == "1",
        lang=f["lang"],
    )
    if f["board"].startswith("custom:"):
        _, size, name, spec_text = f["board"].split(":", 3)
        specs = []
        for spec in spec_text.split(";"):
            parts = spec.split(".")
            vals: list[Any] = [int(parts[0]), int(parts[1]), parts[2]]
            vals += [int(p) if p else None for p in parts[3:6]]
            vals.append([int(x) for x in parts[6].split(",")] if parts[6] else None)
            if len(parts) > 7:  # a Seafarers board: the hex's area
                vals.append(int(parts[7]) if parts[7] else None)
            specs.append(vals)
        board: dict[str, Any] = {"name": unquote(name), "hexes": specs}
        if "pirate" in f:
            board["pirate"] = [int(x) for x in f["pirate"].split(",")]
    else:
        size, board_seed = f["board"].split("@")
        seed_text, _, version = board_seed.partition("/")
        board = {"seed": int(seed_text)}
        if version:
            board["version"] = int(version)
    settings_d = {
        "players": settings.players,
        "size": size,
        "vp_target": settings.vp_target,
        "bank": settings.bank,
        "bank_count": settings.bank_count,
        "card_limit": settings.card_limit,
        "newcomer_protection": settings.newcomer_protection,
        "lang": settings.lang,
    }
    format_version = 1
    part_json: dict[str, Any] = {}
    for kind in PARTS:
        if kind.field in f:
            settings_d.update(kind.text_settings(f))
            part_json[kind.field] = json.loads(unquote(f[kind.field]))
            format_version = kind.version
    build = (
        []
        if f["build"] == "-"
        else [
            [int(c), int(p.rstrip("cr")), _LEVEL_OF[p.lstrip("0123456789")]]
            for c, p in (x.split(":") for x in f["build"].split(","))
        ]
    )
    roads = (
        []
        if f["roads"] == "-"
        else [[int(e), int(p)] for e, p in (x.split(":") for x in f["roads"].split(","))]
    )
    return state_from_json(
        {
            "v": format_version,
            **part_json,
            "settings": settings_d,
            "seed": int(f["seed"]),
            "board": board,
            "colours": f["colours"].split(","),
            "phase": f["phase"],
            "round": int(f["round"]),
            "setup_step": int(f["setup"]),
            "hands": [ints(h) for h in f["hands"].split("/")],
            "bank": None if f["stock"] == "-" else ints(f["stock"]),
            "deck": "" if f["deck"] == "-" else f["deck"],
            "cards": [[] if h == "-" else h.split(".") for h in f["cards"].split("/")],
            "cards_bought": ints(f["bought"]),
            "knights": ints(f["knights"]),
            "last_card_round": ints(f["played"]),
            "buildings": build,
            "roads": roads,
            "robber": int(f["robber"]),
            "longest_road": seat(f["longest"]),
            "largest_army": seat(f["army"]),
            "winner": seat(f["winner"]),
            "rules": int(f.get("rules", "1")),
        }
    )
