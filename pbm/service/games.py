"""Games: creating, finding, loading and saving their state, pausing, deadlines."""

from __future__ import annotations

import dataclasses
import json
import re
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import bindparam, func
from sqlmodel import Session, col, select

from pbm import i18n
from pbm.rules import SIZES, GameState, Settings, state_from_json, state_to_json
from pbm.store.models import Game, Player
from pbm.store.statuses import OBSERVING, PENDING, GamePhase, PlayerStatus

from . import texts
from .context import DEADLINE_PRESETS, Service

#: `--press`: normal (signed with the sender's colour), anonymous (may also be sent unsigned),
#: none (players write only to the GM).
PRESS = ("normal", "anonymous", "none")
#: The longest a deadline may wait for an absent player (`--away-wait`).
MAX_AWAY_WAIT_DAYS = 30
#: `--edition`: the classic words, or seed 002's (whose bank is unlimited by default).
EDITIONS = ("klassisch", "modern")
#: `--layout`: seed 000's seeded variable setup, or the rule book's beginner setup.
LAYOUTS = ("variable", "beginner")


class ServiceError(Exception):
    """A request the service refuses, with a message for the GM or the player."""


#: A game's name: ASCII letters, digits, `-`, `_` and `.`, not starting with `-`, `_` or `.`,
#: at most 32 characters. Players write it after `Spiel:`, mails repeat it
#: (`stray.PLAUSIBLE_NAME` is this pattern), and it names the game's folder in
#: `[archive] dir` and its web address: never a path, a blank or a character a mail program
#: could take apart.
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")


def check_game_name(name: str) -> None:
    """A new game's name: `GAME_NAME`, and not ending with a full stop (the mails' sentences
    that end with a game's name would end "insel.."; a game named so before keeps its name)."""
    if not GAME_NAME.fullmatch(name) or name.endswith("."):
        raise ServiceError(
            f"{name!r} cannot be a game's name: use letters (a-z, A-Z), digits, -, _ and ., "
            "starting with a letter or digit, not ending with ., at most 32 characters"
        )


#: The ranges of a game's numbers (a game outside them cannot be played as meant: a target of
#: 0 points is won by the setup, a card limit below 0 has every hand of two discard).
VP_TARGETS = range(3, 31)
CARD_LIMITS = range(0, 100)
NMR_AUTOPILOT = range(1, 100)


def _check_numbers(
    size: str | None, seed: int | None, card_limit: int, vp_target: int | None, nmr: int
) -> None:
    if size is not None and size not in SIZES:
        raise ServiceError(f"size must be one of {', '.join(SIZES)}")
    if seed is not None and not 0 <= seed < 2**128:
        raise ServiceError("seed must be 0 or more, and below 2^128 (a random one is 128 bits)")
    if card_limit not in CARD_LIMITS:
        raise ServiceError(f"card limit must be {CARD_LIMITS[0]} to {CARD_LIMITS[-1]}")
    if vp_target is not None and vp_target not in VP_TARGETS:
        raise ServiceError(f"victory point target must be {VP_TARGETS[0]} to {VP_TARGETS[-1]}")
    if nmr not in NMR_AUTOPILOT:
        raise ServiceError(
            f"NMRs before the autopilot must be {NMR_AUTOPILOT[0]} to {NMR_AUTOPILOT[-1]}"
        )


def create_game(
    svc: Service,
    session: Session,
    name: str,
    *,
    players: int = 4,
    size: str | None = None,
    bank: str | None = None,
    deadline: str = "normal",
    lang: str = "de",
    seed: int | None = None,
    early_resolve: bool = True,
    card_limit: int = 7,
    newcomer_protection: bool = False,
    vp_target: int | None = None,
    nmr_autopilot_after: int = 3,
    reminder_hours: float = 12.0,
    anonymous: bool = False,
    press: str = "normal",
    away_wait_days: int = 0,
    edition: str = "klassisch",
    layout: str = "variable",
    scenario: str | None = None,
    pirate: bool = True,
    kronlande: bool = False,
) -> Game:
    """A game in signup. `bank` None: the edition's bank (seed 002: unlimited in the modern
    edition, the classic bank in the classic one). `scenario`: a Seafarers scenario
    (`rules.scenarios.SCENARIOS`, 3 or 4 players, its own board and VP target); `pirate`
    False plays it without the pirate. `kronlande`: Kronlande (issue 19) on the large or the
    huge island (`size`, default large), 3–6 players."""
    check_game_name(name)
    if scenario is not None:
        _check_scenario(scenario, players, size, layout)
    if kronlande:
        _check_kronlande(players, size, layout, scenario)
    if edition not in EDITIONS:
        raise ServiceError(f"edition must be {' or '.join(EDITIONS)}")
    if layout not in LAYOUTS:
        raise ServiceError(f"layout must be {' or '.join(LAYOUTS)}")
    if layout == "beginner":
        from pbm.rules.beginner import check_beginner

        problem = check_beginner(players, size)
        if problem:
            raise ServiceError(problem)
    if bank is None:
        bank = "unlimited" if edition == "modern" else "classic"
    if deadline not in DEADLINE_PRESETS:
        raise ServiceError(f"deadline must be one of {', '.join(DEADLINE_PRESETS)}")
    if lang not in i18n.languages():
        # The game languages are the catalogues present (pbm/locale/): "de or en".
        names = i18n.languages()
        listed = " or ".join(x for x in (", ".join(names[:-1]), names[-1]) if x)
        raise ServiceError(f"lang must be {listed}")
    if bank not in ("classic", "unlimited"):
        raise ServiceError("bank must be classic or unlimited")
    if press not in PRESS:
        raise ServiceError(f"press must be one of {', '.join(PRESS)}")
    if not 0 <= away_wait_days <= MAX_AWAY_WAIT_DAYS:
        raise ServiceError(f"away wait must be 0 to {MAX_AWAY_WAIT_DAYS} days")
    _check_numbers(size, seed, card_limit, vp_target, nmr_autopilot_after)
    # Mails name games in any case (`Spiel: Insel`): two names that differ only in case
    # would leave them guessing.
    same = session.exec(select(Game).where(func.lower(Game.name) == name.lower())).first()
    if same is not None:
        raise ServiceError(
            f"a game named {name!r} exists already"
            if same.name == name
            else f"a game named {same.name!r} exists already (names are read in any case)"
        )
    overrides: dict[str, Any] = {
        "bank": bank,
        "card_limit": card_limit,
        "newcomer_protection": newcomer_protection,
        "lang": lang,
    }
    if vp_target is not None:
        overrides["vp_target"] = vp_target
    try:
        if scenario is not None:
            settings = Settings.for_scenario(scenario, players, pirate=pirate, **overrides)
        elif kronlande:
            settings = Settings.for_kronlande(players, size or "large", **overrides)
        else:
            settings = Settings.for_players(players, size, **overrides)
    except (ValueError, KeyError) as e:
        raise ServiceError(str(e)) from None
    game = Game(
        name=name,
        settings=json.dumps(dataclasses.asdict(settings)),
        # 128 bits: nobody finds the seed by trying seeds against the board or the dice.
        seed=seed if seed is not None else secrets.randbits(128),
        # The dice seal is SHA-256 of `SEED:NONCE`: the nonce's 128 bits hide the seed from
        # the seal whatever the seed is, one given with `--seed` too (docs/fair-dice.md).
        seal_nonce=secrets.token_hex(16),
        lang=lang,
        deadline_preset=deadline,
        early_resolve=early_resolve,
        nmr_autopilot_after=nmr_autopilot_after,
        reminder_hours=reminder_hours,
        anonymous=anonymous,
        press=press,
        away_wait_days=away_wait_days,
        edition=edition,
        layout=layout,
        created_at=svc.clock.now(),
    )
    session.add(game)
    session.flush()
    return game


def _check_scenario(scenario: str, players: int, size: str | None, layout: str) -> None:
    from pbm.rules.scenarios import PLAYER_COUNTS, SCENARIOS, game_refusal

    if scenario not in SCENARIOS:
        raise ServiceError(f"scenario must be one of {', '.join(SCENARIOS)}")
    if players not in PLAYER_COUNTS:
        raise ServiceError("a Seafarers scenario is for 3 or 4 players")
    why = game_refusal(scenario, players)
    if why is not None:
        raise ServiceError(why)
    if size is not None or layout != "variable":
        raise ServiceError("a Seafarers scenario has its own board: no --size, no --layout")


#: The islands Kronlande is played on (spec kronlande.md: large and huge only).
KRONLANDE_SIZES = ("large", "huge")


def _check_kronlande(players: int, size: str | None, layout: str, scenario: str | None) -> None:
    if scenario is not None:
        raise ServiceError("Kronlande and a Seafarers scenario exclude each other")
    if size is not None and size not in KRONLANDE_SIZES:
        raise ServiceError(
            f"Kronlande is played on the large or the huge island (--size large or --size huge), "
            f"not {size}"
        )
    if not 3 <= players <= 6:
        raise ServiceError("Kronlande is for 3 to 6 players")
    if layout != "variable":
        raise ServiceError("Kronlande has its own island: no --layout beginner")


def settings_of(game: Game) -> Settings:
    return Settings(**json.loads(game.settings))


def game_kind_of(game: Game, state: GameState | None = None) -> dict[str, Any]:
    """What game this is, in its words (`reports.identity.game_kind`): the kind, the players,
    the victory-point target, the special rules and (given the state) the islands."""
    from pbm.reports.identity import game_kind

    return game_kind(
        settings_of(game), game.locale, edition=game.edition, layout=game.layout, state=state
    )


def first_state(
    game: Game,
    colours: tuple[str, ...],
    rules: int | None = None,
    settings: Settings | None = None,
    board_version: int | None = None,
) -> GameState:
    """The game as its seats are drawn: before the setup on the variable island; at round 1
    with the rule book's pieces placed in the beginner layout (`--layout beginner`)."""
    from pbm.rules.beginner import beginner_game
    from pbm.rules.state import RULES, new_game

    settings = settings or settings_of(game)
    rules = RULES if rules is None else rules
    if game.layout == "beginner":
        return beginner_game(settings, game.seed, colours, rules=rules)
    return new_game(settings, game.seed, colours=colours, rules=rules, board_version=board_version)


#: The queries of every resolution, built once: building a statement and its cache key costs
#: as much as running it on SQLite (docs/performance.md, "Due rounds").
_GAME = select(Game).where(Game.name == bindparam("name"))
_GAME_LOCKED = _GAME.with_for_update().execution_options(populate_existing=True)
_GAME_ANY_CASE = select(Game).where(func.lower(Game.name) == bindparam("name"))
_GAME_ANY_CASE_LOCKED = _GAME_ANY_CASE.with_for_update().execution_options(populate_existing=True)


def get_game(session: Session, name: str, lock: bool = False) -> Game:
    """The game `name`; written in another case (`pbm game show Insel` for `insel`), the one
    game of that name whatever the case (`create_game` lets no two differ only in case)."""
    game = session.exec(_GAME_LOCKED if lock else _GAME, params={"name": name}).first()
    if game is None:
        query = _GAME_ANY_CASE_LOCKED if lock else _GAME_ANY_CASE
        found = list(session.exec(query, params={"name": name.lower()}))
        game = found[0] if len(found) == 1 else None
    if game is None:
        raise ServiceError(f"no game named {name!r}")
    return game


class StateUnreadable(ServiceError):
    """A game's stored state cannot be read (damaged in the database): a refusal naming the
    game for the GM's commands; the service marks the game broken (`broken.reason_of` gives
    the cause)."""


def load_state(game: Game) -> GameState:
    if not game.state:
        raise ServiceError(f"game {game.name} has not started")
    try:
        return state_from_json(json.loads(game.state))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        raise StateUnreadable(
            f"the stored state of game {game.name} cannot be read "
            f"({type(exc).__name__}: {exc}): restore the database from a backup"
        ) from exc


def save_state(game: Game, state: GameState) -> None:
    game.state = json.dumps(state_to_json(state), separators=(",", ":"))
    game.round = state.round
    game.phase = GamePhase(state.phase)


#: Player rows that hold no seat.
NOT_SEATED = (PlayerStatus.REPLACED, *OBSERVING, PlayerStatus.SIGNUP_PENDING)
#: Player rows that get no reports.
NO_REPORTS = (PlayerStatus.REPLACED, *PENDING)


def observers_of(session: Session, game: Game) -> list[Player]:
    """Observers, confirmed and pending, in the order they asked."""
    query = select(Player).where(Player.game_id == game.id, col(Player.status).in_(OBSERVING))
    return sorted(session.exec(query), key=lambda p: p.id or 0)


def pending_signups(session: Session, game: Game) -> list[Player]:
    """Sign-ups asked for by mail and not yet confirmed, in the order they came."""
    query = select(Player).where(
        Player.game_id == game.id, Player.status == PlayerStatus.SIGNUP_PENDING
    )
    return sorted(session.exec(query), key=lambda p: p.id or 0)


def remove_observer(session: Session, game: Game, address: str) -> Player:
    """The GM stops an observer's reports (`pbm observer remove`)."""
    wanted = address.strip().lower()
    for p in observers_of(session, game):
        if p.address == wanted:
            session.delete(p)
            return p
    raise ServiceError(f"{wanted} does not observe {game.name}")


_SEATED = select(Player).where(
    Player.game_id == bindparam("game_id"), col(Player.status).not_in(NOT_SEATED)
)
_PLAYERS = select(Player).where(Player.game_id == bindparam("game_id"))


def players_of(session: Session, game: Game) -> list[Player]:
    """The seated players by seat (signup order before the draw): not the replaced, not
    observers."""
    rows = list(session.exec(_SEATED, params={"game_id": game.id}))
    return sorted(rows, key=lambda p: (p.seat if p.seat is not None else 99, p.id or 0))


def game_players(session: Session, game: Game) -> list[Player]:
    """Every player row of the game (seated, replaced, observing), in the order they came:
    one read for a resolution, which needs the seated players (`seated`), the snapshot of
    every row (`records.record`) and the report's addresses (`report_addresses`)."""
    return sorted(session.exec(_PLAYERS, params={"game_id": game.id}), key=lambda p: p.id or 0)


def seated(rows: list[Player]) -> list[Player]:
    """`players_of` from the rows of `game_players`."""
    return sorted(
        (p for p in rows if p.status not in NOT_SEATED),
        key=lambda p: (p.seat if p.seat is not None else 99, p.id or 0),
    )


def report_addresses(rows: list[Player]) -> list[str]:
    """`recipients` from the rows of `game_players`."""
    return sorted({p.address for p in rows if p.status not in NO_REPORTS})


def recipients(session: Session, game: Game) -> list[str]:
    """Who receives the reports: the seated players and the confirmed observers."""
    query = select(Player.address).where(
        Player.game_id == game.id, col(Player.status).not_in(NO_REPORTS)
    )
    return sorted(set(session.exec(query)))


def player_at(session: Session, game: Game, seat: int) -> Player:
    for p in players_of(session, game):
        if p.seat == seat:
            return p
    raise ServiceError(f"no player at seat {seat}")


def round_hours(svc: Service, game: Game) -> float | None:
    return DEADLINE_PRESETS[game.deadline_preset]


def turn_hours(svc: Service, game: Game, setup: bool) -> float | None:
    """The time a turn gets: a round's, or in the setup its share (`setup_deadline_share`);
    None without deadlines."""
    hours = round_hours(svc, game)
    if hours is None or not setup:
        return hours
    return hours * svc.config.service.setup_deadline_share


def set_deadline(svc: Service, game: Game, hours: float | None) -> None:
    game.deadline = None if hours is None else svc.clock.now() + svc.config.service.hours(hours)
    game.reminded = False


def extend_deadline(svc: Service, game: Game, hours: float) -> datetime:
    base = game.deadline or svc.clock.now()
    game.deadline = base + timedelta(hours=hours * svc.config.service.time_scale)
    game.reminded = False
    return game.deadline


def summary(session: Session, game: Game) -> dict[str, Any]:
    """A game as `pbm game list` and `show` give it. A game whose settings cannot be read
    (`broken.unreadable` says why) has None for what they say: it is listed all the same."""
    players = players_of(session, game)
    return {
        "name": game.name,
        "phase": game.phase,
        "paused": game.paused,
        "round": game.round,
        "players": len(players),
        **_played(game),
        "deadline": game.deadline.isoformat(timespec="seconds") if game.deadline else None,
        "deadline_preset": game.deadline_preset,
        "lang": game.lang,
        "edition": game.edition,
        "layout": game.layout,
        "seed": game.seed,
        # The same as text: a 128-bit number is beyond a double (jq, JavaScript), and the GM
        # needs it exact (`pbm orders check --seed`).
        "seed_text": str(game.seed),
        # The dice seal's nonce, only once the game has ended (its end mail revealed it
        # then); null before, and for a game created before seal nonces.
        "seal_nonce": (game.seal_nonce or None) if game.phase == GamePhase.ENDED else None,
        "anonymous": game.anonymous,
        "press": game.press,
        "away_wait_days": game.away_wait_days,
        # Rounds in a row without orders before the autopilot plays a seat, and whether a
        # round resolves as soon as every seat's orders are in (else at its deadline).
        "nmr_autopilot_after": game.nmr_autopilot_after,
        "early_resolve": game.early_resolve,
    }


def _played(game: Game) -> dict[str, Any]:
    """What is played: the seats, the island (None in Seafarers: the scenario's board), the
    Seafarers scenario (None: the base game) with its pirate, Kronlande, the VP target, the
    bank mode, the card limit of a 7 and the newcomer protection; all None when the settings
    cannot be read."""
    keys = (
        "seats",
        "size",
        "scenario",
        "pirate",
        "kronlande",
        "vp_target",
        "bank",
        "card_limit",
        "newcomer_protection",
    )
    try:
        settings = settings_of(game)
    except Exception:
        return dict.fromkeys(keys)
    return {
        "seats": settings.players,
        "size": settings.size if settings.scenario is None else None,
        "scenario": settings.scenario,
        "pirate": settings.pirate if settings.scenario is not None else None,
        "kronlande": settings.kronlande,
        "vp_target": settings.vp_target,
        "bank": settings.bank,
        "card_limit": settings.card_limit,
        "newcomer_protection": settings.newcomer_protection,
    }


def deadline_text(game: Game) -> str:
    """The open deadline as players read it, or that the GM resolves."""
    if game.deadline is None:
        return texts.t(game.locale, "no_deadline")
    return game.deadline.strftime("%Y-%m-%d %H:%M UTC")
