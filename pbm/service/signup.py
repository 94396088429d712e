"""Signup: joins until the table is full, then the draw of colours and seats
(docs/service-decisions.md, "Lifecycle").

A sign-up by mail is only a request (`request_join`): it holds no seat until a mail from the
address itself gives back the token mailed to it (`confirm_join`), so a forged From seats
nobody. The GM seats an address directly (`add_player`). The table fills with confirmed
players only, and the draw starts when it is full.

The draw: players in an order drawn by lot each take their most preferred free colour (the
first free colour of the table's list if none of theirs is free); then the order of the colours
is drawn by lot, and that is the seat order. Each player then gets a welcome mail with their
password; only its hash is stored.
"""

from __future__ import annotations

import random
import secrets
import unicodedata
from typing import TYPE_CHECKING

from sqlmodel import Session

from pbm.mail.outgoing import PASSWORD_PLACEHOLDER
from pbm.reports import notices
from pbm.rules.rng import derive_seed
from pbm.rules.state import DEFAULT_COLOURS, GameState, Phase
from pbm.store.models import Game, Player
from pbm.store.statuses import GamePhase, PlayerStatus

from . import gm_alerts, texts
from .context import Service
from .games import (
    ServiceError,
    first_state,
    game_kind_of,
    pending_signups,
    players_of,
    recipients,
    save_state,
    settings_of,
)
from .outbox import enqueue, notify
from .secrets import hash_password, masked_text, new_password, new_secret
from .setup_phase import start_setup

if TYPE_CHECKING:
    from pbm.reports.render import Rendered

#: The longest name kept for a player (reports' tables and the GM's terminal stay readable).
NAME_MAX = 40


def display_name(name: str) -> str:
    """A name as stored and shown: no control, format (bidi) or line-break characters, blanks
    collapsed, nothing shaped like a password (`masked_text`: every player reads the names), at
    most `NAME_MAX` characters."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in name
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cs")
    )
    return masked_text(" ".join(kept.split()))[:NAME_MAX].strip()


def _refusal(key: str, about: Game, gm: bool, written: str | None, **kw: object) -> ServiceError:
    """A signup refused: for a player, who may not read the game's language, in every
    language, the one the mail is written in (`written`) and the game's first, or only that
    one when they agree (`texts.answer_languages`); in English for the GM's command line
    (which speaks English, docs/translating.md)."""
    if gm:
        return ServiceError(texts.t("en", key, **kw))
    langs = texts.answer_languages([about.locale], written)
    return ServiceError(" / ".join(texts.in_languages(langs, key, **kw)))


def _check_open(game: Game, gm: bool = False, written: str | None = None) -> None:
    if game.phase == GamePhase.ENDED:
        if gm:  # the command line's own words, not the mail's "no longer read"
            raise ServiceError(f"{game.name} has ended: a new player is for a game that goes on")
        raise _refusal("game_over", game, gm, written, games=game.name)
    if game.phase != GamePhase.SIGNUP:
        raise _refusal("game_started", game, gm, written, game=game.name)


def _check_not_seated(
    session: Session, game: Game, address: str, gm: bool = False, written: str | None = None
) -> None:
    if any(p.address == address for p in players_of(session, game)):
        raise _refusal("joined_already", game, gm, written, address=address)


def request_join(
    svc: Service,
    session: Session,
    game: Game,
    address: str,
    name: str,
    preferences: tuple[str, ...] = (),
    written: str | None = None,
) -> Player:
    """A sign-up asked for by mail (`Anmeldung` / `Join`): a pending row that holds no seat,
    with the confirmation token the caller mails to `address`. Asked again, the same row keeps
    its token and takes the name and colour wishes the new mail gives (the others stay). Only
    `confirm_join`, on a mail from the address with the token, seats it: a forged From seats
    nobody. `written`: the language the mail is written in, if told (for a refusal)."""
    _check_open(game, written=written)
    address = address.strip().lower()
    _check_not_seated(session, game, address, written=written)
    pending = next((p for p in pending_signups(session, game) if p.address == address), None)
    if pending is None:
        pending = Player(
            game_id=game.id or 0,
            address=address,
            name=address,
            status=PlayerStatus.SIGNUP_PENDING,
            confirm_token=secrets.token_hex(6),
            joined_at=svc.clock.now(),
        )
        session.add(pending)
    if display_name(name):
        pending.name = display_name(name)
    if preferences:
        pending.preferences = ",".join(preferences)
    return pending


def confirm_join(
    svc: Service,
    session: Session,
    game: Game,
    pending: Player,
    name: str = "",
    preferences: tuple[str, ...] = (),
    reply_to: str = "",
    written: str | None = None,
    unknown: tuple[str, ...] = (),
) -> Player:
    """The address confirmed its sign-up: it takes a seat if the signup is still open (the
    name and colour wishes of the confirming mail, where it gives them, else those of the
    request). After the draw the request is dropped and the refusal says the game is full
    (`written`: the language the mail is written in, if told). `unknown`: the words of the
    mail's `Farben:` line that are not colours, which the answer names (`colours_told`)."""
    if game.phase != GamePhase.SIGNUP:
        session.delete(pending)
        _check_open(game, written=written)
    if name:
        pending.name = display_name(name) or pending.address
    if preferences:
        pending.preferences = ",".join(preferences)
    told = colours_told(game, pending, unknown, preferences)
    return _seat(svc, session, game, pending, reply_to, told)


def colours_told(
    game: Game,
    player: Player,
    unknown: tuple[str, ...],
    written: tuple[str, ...],
    hint: bool = False,
) -> list[str]:
    """What the answer to a signup mail says of its `Farben:` line when a word of it is not a
    colour of this table (`unknown`: no colour at all; or a colour of `written` beyond the
    table's): those words, the table's colours, the wishes kept (the colours are kept, the
    rest dropped); with `hint`, how to change them. [] when all is well."""
    from pbm.reports.welcome import colours_refused

    table = list(DEFAULT_COLOURS[: settings_of(game).players])
    kept = [c for c in player.preferences.split(",") if c]
    return colours_refused(list(unknown), list(written), kept, table, game.locale, hint)


#: Characters no mail address holds outside quotes (a quoted local part is not for a seat).
_NOT_IN_ADDRESS = frozenset('<>()[],;:\\"')


def seat_address(address: str) -> str:
    """An address the GM seats (`pbm player add`, `pbm player replace`), lower-cased: one `@`
    between a local part and a domain of dotted labels, no blanks, control characters or the
    characters that end an address. Letters beyond ASCII are allowed (an internationalised
    address); the mail server refuses what it cannot deliver, for that player alone."""
    address = address.strip().lower()
    local, at, domain = address.rpartition("@")
    labels = domain.split(".")
    if (
        not at
        or not local
        or "@" in local
        or len(address) > 254
        or any(not label for label in labels)
        or any(ch.isspace() or not ch.isprintable() or ch in _NOT_IN_ADDRESS for ch in address)
    ):
        raise ServiceError(f"not a mail address: {address!r} (write it as name@example.org)")
    return address


def add_player(
    svc: Service,
    session: Session,
    game: Game,
    address: str,
    name: str = "",
    preferences: tuple[str, ...] = (),
) -> Player:
    """The GM seats an address (`pbm player add`): no confirmation by mail. A pending sign-up
    of the address is confirmed (its name and wishes kept unless given here)."""
    _check_open(game, gm=True)
    address = seat_address(address)
    _check_not_seated(session, game, address, gm=True)
    pending = next((p for p in pending_signups(session, game) if p.address == address), None)
    if pending is not None:
        return confirm_join(svc, session, game, pending, name, preferences)
    player = Player(
        game_id=game.id or 0,
        address=address,
        name=display_name(name) or address,
        preferences=",".join(preferences),
        joined_at=svc.clock.now(),
    )
    session.add(player)
    return _seat(svc, session, game, player)


def _seat(
    svc: Service,
    session: Session,
    game: Game,
    player: Player,
    reply_to: str = "",
    colours: list[str] | None = None,
) -> Player:
    """A confirmed player joins the table; the draw follows when the table is full.
    `colours`: what the answer says of the confirming mail's colour wishes (`colours_told`)."""
    player.status = PlayerStatus.ACTIVE
    player.confirm_token = ""
    player.joined_at = svc.clock.now()
    session.flush()
    missing = settings_of(game).players - len(players_of(session, game))
    notify(
        svc,
        session,
        "joined",
        [player.address],
        game,
        texts.t(game.locale, "joined_subject", game=game.name),
        notices.joined(
            game.locale,
            player.name,
            missing,
            game_kind_of(game),
            paused=game.paused,
            colours=colours or [],
        ),
        in_reply_to=reply_to,
    )
    if missing <= 0 and not game.paused:
        # A paused game draws when the GM resumes it (`broken._unpause`): a setup turn with a
        # deadline would start for a game that takes no orders.
        draw(svc, session, game)
    return player


def draw(svc: Service, session: Session, game: Game) -> None:
    """Colours and seats by lot, passwords, welcome mails; then the setup begins."""
    players = players_of(session, game)
    settings = settings_of(game)
    if len(players) != settings.players:
        raise ServiceError(f"{len(players)} players joined, the table has {settings.players}")
    rng = random.Random(derive_seed(game.seed, "draw"))
    pool = list(DEFAULT_COLOURS[: settings.players])
    free = list(pool)
    order = sorted(players, key=lambda p: p.id or 0)
    rng.shuffle(order)
    wishes: dict[int, list[str]] = {}
    for p in order:
        wanted = [c for c in p.preferences.split(",") if c in free]
        p.colour = wanted[0] if wanted else free[0]
        free.remove(p.colour)
        wishes[p.id or 0] = _wishes_told(p.preferences, p.colour, pool, game.locale)
    rng.shuffle(pool)
    for p in players:
        assert p.colour is not None
        p.seat = pool.index(p.colour)
    players.sort(key=lambda p: p.seat if p.seat is not None else 0)
    state = first_state(game, tuple(p.colour or "" for p in players), settings=settings)
    save_state(game, state)
    for p in players:
        password = new_password(password_word(p.colour or "x", game.locale))
        p.password_hash = hash_password(password)
        p.codebook_secret = new_secret()
        send_welcome(svc, session, game, state, p, password, wishes[p.id or 0])
    _send_preview(svc, session, game, state)
    if state.phase == Phase.SETUP:
        start_setup(svc, session, game, state)
    else:
        # The beginner layout: the pieces stand, round 1 is open (seed 000).
        from .rounds import begin_round

        begin_round(svc, session, game, state)
    gm_alerts.started(svc, session, game, players)


def _wishes_told(preferences: str, colour: str, pool: list[str], lang: str) -> list[str]:
    """What the welcome tells a player of their colour wishes: the wishes up to the colour they
    got, those of them another player took first and those the table does not play."""
    from pbm.reports.welcome import colour_wishes

    wished = [c for c in preferences.split(",") if c]
    before = wished[: wished.index(colour)] if colour in wished else wished
    taken = [c for c in before if c in pool]
    absent = [c for c in before if c not in pool]
    return colour_wishes(wished, taken, absent, lang)


def _send_preview(svc: Service, session: Session, game: Game, state: GameState) -> None:
    """The island preview before the setup: the board, yields, the setup order."""
    from pbm.reports.picture import board_png
    from pbm.reports.render import BOARD_CID, render
    from pbm.reports.report_data import preview_data

    subject = texts.t(game.locale, "preview_subject", game=game.name)
    data = preview_data(state, game.locale, game.name, BOARD_CID, game_kind_of(game, state))
    mail = render("preview", subject, data)
    enqueue(
        svc,
        session,
        "preview",
        recipients(session, game),
        subject,
        mail.text,
        html=mail.html,
        image=board_png(state, game.locale),
        game_id=game.id,
    )


def password_word(colour: str, lang: str) -> str:
    """The colour in the game's language, as plain ASCII (passwords are typed on phones)."""
    from pbm.notation import vocab
    from pbm.notation.text import simple

    return simple(vocab.colour_name(colour, lang))


def send_welcome(
    svc: Service,
    session: Session,
    game: Game,
    state: GameState,
    player: Player,
    password: str,
    wishes: list[str] | None = None,
    takes_over: bool = True,
) -> None:
    """The one mail that carries a password and the codebook: to its owner only. `wishes`:
    what the draw did with the player's colour wishes (None for a player who takes over a
    seat). `takes_over`: in a running game, whether the player takes over the seat from
    someone else (False: the seat's own player, whose first welcome mail never went out)."""
    from pbm.notation import vocab
    from pbm.reports.render import render
    from pbm.reports.welcome import welcome_data

    from .table import local_deadline, roster_rows

    colour = vocab.colour_name(player.colour or "", game.locale)
    # A player who joins a running game (takes over a seat) gets where it stands with it.
    deadline = local_deadline(game, player) if game.phase == GamePhase.ROUNDS else ""
    subject = texts.t(game.locale, "welcome_subject", game=game.name, colour=colour)
    # The password is put in only when the mail is built for sending: the stored row holds a
    # placeholder, and the password itself (`Outbox.secret`) only until the mail is sent.
    mail = render(
        "welcome",
        subject,
        welcome_data(
            state,
            game.name,
            colour,
            player.seat or 0,
            PASSWORD_PLACEHOLDER,
            player.codebook_secret,
            game.locale,
            roster_rows(session, game),
            deadline,
            game.seal_nonce,
            kind=game_kind_of(game, state),
            wishes=wishes,
            takes_over=takes_over,
        ),
    )
    _enqueue_with_password(svc, session, game, player, subject, mail, password)


def _enqueue_with_password(
    svc: Service,
    session: Session,
    game: Game,
    player: Player,
    subject: str,
    mail: Rendered,
    password: str,
) -> None:
    """A mail that carries the seat's password, to its player only: of kind `welcome`, its
    password put in only when it is sent (`secret`)."""
    enqueue(
        svc,
        session,
        "welcome",
        [player.address],
        subject,
        mail.text,
        html=mail.html,
        game_id=game.id,
        secret=password,
    )


def send_new_password(
    svc: Service, session: Session, game: Game, player: Player, password: str
) -> None:
    """A seat's new password (`gm.new_password_for`), to its player only: for which seat and
    game, that the old one no longer works, and what the game waits for now. Queued as a
    `welcome` mail, the kind that carries a password: its password is put in only when it is
    sent, and it is dropped like a welcome when the password is replaced again."""
    from pbm.notation import vocab
    from pbm.reports.render import render

    from .table import where_it_stands

    colour = vocab.colour_name(player.colour or "", game.locale)
    subject = texts.t(game.locale, "new_password_subject", game=game.name, colour=colour)
    data = notices.new_password(
        game.locale, colour, PASSWORD_PLACEHOLDER, where_it_stands(session, game, player)
    )
    mail = render("new_password", subject, {"game": game.name, **data})
    _enqueue_with_password(svc, session, game, player, subject, mail, password)


def draw_now(svc: Service, session: Session, game: Game) -> None:
    """The GM closes the signup early: the table shrinks to the players who joined (≥ 3)."""
    import dataclasses
    import json

    if game.phase != GamePhase.SIGNUP:
        raise ServiceError(f"game {game.name} is past its signup")
    joined = len(players_of(session, game))
    if joined < 3:
        raise ServiceError(f"only {joined} players joined; a game needs at least 3")
    settings = settings_of(game)
    if joined != settings.players:
        settings = dataclasses.replace(settings, players=joined)
        game.settings = json.dumps(dataclasses.asdict(settings))
    draw(svc, session, game)
