"""Who plays whom (issue 15): the roster, players named as "gelb (Carol)", and the time zone a
player reads deadlines in.

A roster shows each seat's colour, the player's name and, unless the game is anonymous
(`pbm game create --anonymous`), the address. In an anonymous game a name that is an address
(a player who gave no `Name:` is named by the address) is not shown either.
"""

from __future__ import annotations

import textwrap
from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlmodel import Session

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.reports.notices import RosterRow
from pbm.reports.report_data import player_label
from pbm.store.models import Game, Player
from pbm.store.statuses import GamePhase

from . import texts
from .games import ServiceError, load_state, player_at, players_of


def shown_name(game: Game, player: Player) -> str:
    """The name others see: never an address (a player who gave no name has their address as
    it; reports and answers also reach observers and strangers, who never see addresses)."""
    if "@" in player.name or player.name == player.address:
        return ""
    return player.name


def label(game: Game, player: Player) -> str:
    """ "gelb (Carol)": the colour in the game's language and the name shown."""
    return player_label(
        vocab.colour_name(player.colour or "", game.locale), shown_name(game, player)
    )


def roster_rows(session: Session, game: Game, *, addresses: bool = True) -> list[RosterRow]:
    """The seated players by seat; their addresses only if `addresses` and the game is not
    anonymous."""
    show = addresses and not game.anonymous
    return [
        RosterRow(
            vocab.colour_name(p.colour or "", game.locale) if p.colour else "-",
            shown_name(game, p),
            p.address if show else "",
        )
        for p in players_of(session, game)
    ]


def names_by_seat(
    session: Session, game: Game, players: list[Player] | None = None
) -> dict[int, str]:
    """The names shown in reports, by seat ("" when not shown); `players`: the seated players,
    when the caller has them already."""
    seated = players if players is not None else players_of(session, game)
    return {p.seat: shown_name(game, p) for p in seated if p.seat is not None}


def zone(name: str) -> ZoneInfo | None:
    """The IANA time zone of that name, or None (unknown, or "")."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def local_deadline(game: Game, player: Player | None) -> str:
    """The open deadline as this player reads it: in their time zone and in UTC, or only in
    UTC when they have set none; or that the GM resolves."""
    if game.deadline is None:
        return texts.t(game.locale, "no_deadline")
    return when_text(game.deadline, player.timezone if player else "")


def setup_turn(session: Session, game: Game) -> tuple[int, str]:
    """The seat whose setup placement is awaited, and its player as the game names them (the
    colour alone for a seat without its player row)."""
    from pbm.rules.setup import setup_player

    state = load_state(game)
    seat = setup_player(state)
    try:
        return seat, label(game, player_at(session, game, seat))
    except ServiceError:
        return seat, vocab.colour_name(state.colours[seat], game.locale)


def where_it_stands(session: Session, game: Game, player: Player) -> str:
    """What the game waits for from this player now, in one sentence of the game's language:
    the open round and its deadline (in the player's time zone), or in the setup whether it is
    their turn to place; "" when it waits for nothing (the signup, an ended game). For the
    mails that put a player back into a game they lost track of: a new password, the return
    from an absence."""
    _ = translator(game.locale).gettext
    if game.phase not in (GamePhase.SETUP, GamePhase.ROUNDS):
        return ""
    if game.paused:
        # Whatever deadline is stored, the resume sets the one that counts.
        return _("The game is paused: nothing is resolved and no orders are taken.")
    if game.phase == GamePhase.ROUNDS:
        if game.deadline is None:
            return _("Round {round} is open: send your orders.").format(round=game.round)
        return _("Round {round} is open: send your orders by {deadline}.").format(
            round=game.round, deadline=local_deadline(game, player)
        )
    seat, who = setup_turn(session, game)
    if seat == player.seat:
        if game.deadline is None:
            return _("It is your turn in the setup: send a placement.")
        return _("It is your turn in the setup: send a placement by {deadline}.").format(
            deadline=local_deadline(game, player)
        )
    return _(
        "The setup is under way: {player} places now. You get a mail when it is your turn."
    ).format(player=who)


def as_utc(moment: datetime) -> datetime:
    """Stored moments are naive UTC: never read them in the machine's own zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment


def when_text(moment: datetime, timezone: str) -> str:
    """A moment as "2026-01-03 13:00 Europe/Berlin (12:00 UTC)", or "… UTC" without a zone."""
    utc = moment.strftime("%Y-%m-%d %H:%M UTC")
    tz = zone(timezone)
    if tz is None:
        return utc
    local = as_utc(moment).astimezone(tz)
    same_day = local.date() == moment.date()
    utc_short = moment.strftime("%H:%M UTC" if same_day else "%Y-%m-%d %H:%M UTC")
    return f"{local:%Y-%m-%d %H:%M} {timezone} ({utc_short})"


def shared_when(moment: datetime, zones: list[tuple[str, str]], room: int = 46) -> str:
    """A moment for a mail everyone reads: UTC, then the local time of each zone a player set,
    "2026-12-24 12:00 UTC (gelb: 13:00 Europe/Berlin)". `zones`: (colour, zone name) by seat
    ("" as the colour lists the zone alone); colours of one zone share an entry, a local date
    other than UTC's is written out. Longer than `room` (what the line leaves after its
    text), the zones go on the next lines, indented, within 72 columns."""
    utc = moment.strftime("%Y-%m-%d %H:%M UTC")
    by_zone: dict[str, list[str]] = {}
    for colour, name in zones:
        if zone(name) is not None:
            by_zone.setdefault(name, [])
            if colour:
                by_zone[name].append(colour)
    if not by_zone:
        return utc
    groups = []
    for name, colours in by_zone.items():
        tz = zone(name)
        assert tz is not None
        local = as_utc(moment).astimezone(tz)
        when = f"{local:%H:%M}" if local.date() == moment.date() else f"{local:%Y-%m-%d %H:%M}"
        head = f"{', '.join(colours)}: " if colours else ""
        groups.append(f"{head}{when} {name}")
    one_line = f"{utc} ({'; '.join(groups)})"
    if len(one_line) <= room:
        return one_line
    # A zone's entry is never broken across lines.
    glued = "(" + "; ".join(g.replace(" ", "\u00a0") for g in groups) + ")"
    wrapped = textwrap.fill(
        glued, 72, initial_indent="  ", subsequent_indent="   ", break_on_hyphens=False
    )
    return f"{utc}\n{wrapped.replace(chr(0xA0), ' ')}"


def shared_deadline(
    session: Session, game: Game, room: int = 46, players: list[Player] | None = None
) -> str:
    """The open deadline for a mail to everyone (`shared_when`): UTC and the local time of
    every seated player who set a time zone; in an anonymous game the zones without colours.
    Or that the GM resolves. `players`: the seated players, when the caller has them."""
    if game.deadline is None:
        return texts.t(game.locale, "no_deadline")
    seated = players if players is not None else players_of(session, game)
    zones = [
        ("" if game.anonymous else vocab.colour_name(p.colour or "", game.locale), p.timezone)
        for p in seated
        if p.timezone
    ]
    return shared_when(game.deadline, zones, room)
