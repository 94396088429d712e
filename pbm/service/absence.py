"""Absence (issue 15): `Urlaub bis 2026-12-24` / `Away until 2026-12-24`.

While a player is away the autopilot plays their seat (`rounds.plays_itself`). A game created
with `--away-wait N` instead lets the open deadline wait for the absent player, up to N days,
once per player and game; a longer absence is played by the autopilot after that. The absent
player gets a confirmation of their own, with the dates; the others are told who is away
(colour and name), unless the game is anonymous: then only that a player is. The absence ends
at the end of the given day in the player's time zone (UTC without one), or earlier with `Ich
bin zurück` / `I'm back`, which the others are told the same way.

When every seat is played by the autopilot, the game does not play itself out: it is paused and
the GM is told (`unattended`).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlmodel import Session

from pbm.i18n import translator
from pbm.notation.format import word
from pbm.store.models import Game, Player
from pbm.store.statuses import GamePhase

from . import texts
from .context import Service
from .games import players_of, recipients
from .outbox import enqueue
from .table import label, shared_deadline, when_text, zone
from .tell import tell

#: An absence is announced for at most this long.
MAX_AWAY_DAYS = 366


def away_end(player: Player, until: date) -> datetime:
    """The moment the absence ends: midnight after `until`, in the player's time zone."""
    tz = zone(player.timezone) or UTC
    return datetime.combine(until + timedelta(days=1), time(0), tz).astimezone(UTC)


def set_away(svc: Service, session: Session, game: Game, player: Player, until: date) -> str:
    """Record the absence, let the deadline wait if the game says so, tell everyone; returns
    the line that tells the player what was done."""
    _ = translator(game.locale).gettext
    now = svc.clock.now()
    if until > now.date() + timedelta(days=MAX_AWAY_DAYS):
        # Before any date arithmetic: `31.12.9999` has no day after it.
        return _("An absence may be announced for a year at most: nothing was recorded.")
    end = away_end(player, until)
    if end <= now:
        return _("That day has passed: your absence was not recorded.")
    if end > now + timedelta(days=MAX_AWAY_DAYS):
        return _("An absence may be announced for a year at most: nothing was recorded.")
    player.away_until = end
    waits = False
    if (
        game.away_wait_days > 0
        and not player.away_waited
        and game.phase == GamePhase.ROUNDS
        and game.deadline is not None
    ):
        # A day after the return, so the player can send orders before the waited deadline;
        # never more than the game's wait.
        later = min(
            end + svc.config.service.hours(24.0),
            game.deadline + svc.config.service.hours(24.0 * game.away_wait_days),
        )
        if later > game.deadline:
            game.deadline, game.reminded = later, False
            player.away_waited = waits = True
            player.away_wait_until = later
    # The others and the GM (issue 28); the absent player gets a confirmation of their own.
    others = [p.address for p in players_of(session, game) if p.id != player.id]
    others += svc.config.service.gm_inbox
    name = _told_name(game, player)
    tell(
        svc,
        session,
        game,
        "away",
        to=others,
        subject=_subject(game, "away", name, until=until.isoformat()),
        name=name,
        until=until.isoformat(),
        waits=waits,
        deadline=shared_deadline(session, game, room=50),
    )
    local = now.astimezone(zone(player.timezone) or UTC)
    tell(
        svc,
        session,
        game,
        "away_own",
        to=[player.address],
        subject=texts.t(game.locale, "away_own_subject", game=game.name, until=until.isoformat()),
        start=local.date().isoformat(),
        until=until.isoformat(),
        end=when_text(end, player.timezone),
        waits=waits,
        deadline=when_text(game.deadline, player.timezone) if waits and game.deadline else "",
        back=word("back", game.locale),
    )
    if waits:
        return _("You are away until {until}; the deadline waits until {deadline}.").format(
            until=until.isoformat(), deadline=when_text(game.deadline or end, player.timezone)
        )
    return _("You are away until {until}; the autopilot plays for you until then.").format(
        until=until.isoformat()
    )


def announce_back(svc: Service, session: Session, game: Game, player: Player) -> None:
    """Tell the others that an absent player is back. A deadline that was moved to wait for
    the player stays where it is: the others planned around it, and the returning player needs
    the time to write orders; the notice says so, so nobody waits for a change."""
    now = svc.clock.now()
    waited = covered_by_wait(game, player, now)
    others = [p.address for p in players_of(session, game) if p.id != player.id]
    name = _told_name(game, player)
    others += svc.config.service.gm_inbox
    tell(
        svc,
        session,
        game,
        "back",
        to=others,
        subject=_subject(game, "back", name),
        name=name,
        deadline=shared_deadline(session, game, room=50) if waited else None,
    )


def announce_resigned(svc: Service, session: Session, game: Game, player: Player) -> None:
    """Tell the others (players and observers) that a player resigned and the autopilot
    plays the seat to the end: else a trade offered to that seat fails "not confirmed by the
    partner" with no word why. The GM hears it by a `gm_alert`."""
    others = [a for a in recipients(session, game) if a != player.address]
    name = _told_name(game, player)
    tell(
        svc,
        session,
        game,
        "resigned",
        to=others,
        subject=_subject(game, "resigned", name),
        name=name,
    )


def _told_name(game: Game, player: Player) -> str:
    """Whom the others are told of: "gelb (Carol)"; "" in an anonymous game, where they are
    told only that a player is away (or back)."""
    return "" if game.anonymous else label(game, player)


def _subject(game: Game, event: str, name: str, **values: str) -> str:
    """The subject of an absence told to the others: who, unless the game is anonymous."""
    if not name:
        return texts.t(game.locale, f"gm_{event}_subject", game=game.name, **values)
    return texts.t(game.locale, f"{event}_named_subject", game=game.name, name=name, **values)


def covered_by_wait(game: Game, player: Player, now: datetime | None = None) -> bool:
    """Whether the open deadline is the one that waits for this absent player: until it
    passes the seat is awaited (the autopilot does not play it, the round does not resolve
    early without it); at it, a player still away is played by the autopilot."""
    if player.away_wait_until is None or game.deadline is None:
        return False
    waited = _utc(player.away_wait_until)
    return _utc(game.deadline) == waited and (now is None or _utc(now) < waited)


def _utc(moment: datetime) -> datetime:
    """Stored times are UTC without a zone; times made in the process carry one."""
    return (
        moment.replace(tzinfo=None)
        if moment.tzinfo is None
        else moment.astimezone(UTC).replace(tzinfo=None)
    )


def unattended(svc: Service, session: Session, game: Game) -> bool:
    """Every seat played by the autopilot: pause the game and tell the GM (once). True when
    the game was paused now."""
    from .rounds import plays_itself

    now = svc.clock.now()
    seats = players_of(session, game)
    if not seats or not all(plays_itself(game, p, now) for p in seats):
        return False
    game.paused = True
    if svc.config.service.gm_inbox:
        enqueue(
            svc,
            session,
            "unattended",
            svc.config.service.gm_inbox,
            texts.t(game.locale, "unattended_subject", game=game.name),
            texts.t(game.locale, "unattended_body", game=game.name),
            game_id=game.id,
            limited=False,
            lang=game.locale,
        )
    return True
