"""The setup by mail: turn by turn in snake order, ranked placements sent ahead honoured,
automatic placement at the deadline, every placement announced to all."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlmodel import Session

from pbm.notation import Context
from pbm.notation.format import format_item
from pbm.notation.mail import ParsedMail
from pbm.reports import notices
from pbm.rules import GameState, Phase, place_setup, place_setup_automatic, setup_player
from pbm.rules.orders import SetupOrders, SetupPlacement
from pbm.rules.setup import setup_sequence
from pbm.store import codec
from pbm.store.models import Game, InboundMail, OrderSet, Player

from . import texts
from .context import Service
from .games import player_at, recipients, save_state, set_deadline, turn_hours
from .outbox import notify
from .records import current_orders, record, supersede
from .secrets import masked
from .table import label, local_deadline, shared_deadline


def context(game: Game, state: GameState, phase: str) -> Context:
    return Context(state.board, game.locale, state.colours, phase)


def start_setup(svc: Service, session: Session, game: Game, state: GameState) -> None:
    _begin_step(svc, session, game, state)


def _setup_deadline(svc: Service, game: Game) -> None:
    """A setup turn's deadline, from now."""
    set_deadline(svc, game, turn_hours(svc, game, setup=True))


def _prompt(game: Game, state: GameState, p: Player) -> dict[str, Any]:
    """The setup turn's prompt for `p`, the player on turn (`notices.setup_prompt`); at the
    turn of the snake, where the seat places twice in a row, it says that one mail serves
    both placements (`submit_setup`)."""
    nth = 1 if state.setup_step < state.settings.players else 2
    sequence = setup_sequence(state.settings.players)
    step = state.setup_step
    double = step + 1 < len(sequence) and sequence[step + 1] == sequence[step]
    return notices.setup_prompt(game.locale, nth, local_deadline(game, p), state, double)


def _begin_step(svc: Service, session: Session, game: Game, state: GameState) -> None:
    _setup_deadline(svc, game)
    p = player_at(session, game, setup_player(state))
    if not current_orders(session, game, 0, state.setup_step).get(p.id or 0):
        # A Seafarers game's placement takes a road or a ship.
        subject = "setup_sea_subject" if state.sea is not None else "setup_subject"
        notify(
            svc,
            session,
            "setup",
            [p.address],
            game,
            texts.t(game.locale, subject, game=game.name),
            _prompt(game, state, p),
            template="setup_prompt",
        )


def next_own_step(state: GameState, seat: int) -> int | None:
    """The setup step at which a seat places next (pre-sent placements wait for it)."""
    for i, p in enumerate(setup_sequence(state.settings.players)):
        if i >= state.setup_step and p == seat:
            return i
    return None


def submit_setup(
    svc: Service,
    session: Session,
    game: Game,
    player: Player,
    parsed: ParsedMail,
    text: str,
    mail: InboundMail | None,
) -> tuple[bool, int | None, bool]:
    """Store ranked placements for the player's next turn (and those labelled as their second
    for that turn); returns (replaced, step, whether any were stored for `step`)."""
    from .games import load_state

    state = load_state(game)
    seat = player.seat if player.seat is not None else -1
    step = next_own_step(state, seat)
    if step is None:
        return False, None, False
    orders = parsed.setup_orders()
    sequence = setup_sequence(state.settings.players)
    own = [i for i, p in enumerate(sequence) if p == seat]
    later = parsed.later_setup_orders()
    kept: list[tuple[int, SetupOrders]] = [(step, orders)]
    replaced = False
    if later.placements:
        # `Zweite Siedlung: …` (`LaterPlacement`): for the writer's second turn to place; when
        # that is the turn now, they come first, the other lines after them as choices.
        after = [i for i in own if i > step]
        if own.index(step) >= 1 or not after:
            kept = [(step, SetupOrders(later.placements + orders.placements))]
        else:
            kept = [(step, orders)] if orders.placements else []
            kept.append((after[0], later))
    elif step + 1 < len(sequence) and sequence[step + 1] == seat:
        # Two turns in a row (the end of the snake): a newer mail replaces what an older one
        # left for the second too, and a ranked list serves the second placement as well, its
        # first option that still works ("my first settlement … / my second settlement …" in
        # one mail), rather than asking again.
        # Said in the answer: a placement an older mail kept for the second turn is gone.
        replaced = supersede(session, game, player, 0, step + 1)
        if len(orders.placements) > 1:
            kept.append((step + 1, orders))
    for at, orders in kept:
        replaced = supersede(session, game, player, 0, at) or replaced
        session.add(
            OrderSet(
                game_id=game.id or 0,
                player_id=player.id or 0,
                round=0,
                setup_step=at,
                text=masked(text, parsed.password or ""),
                parsed=codec.dumps(orders),
                received_at=svc.clock.now(),
                mail_id=mail.id if mail else None,
            )
        )
    session.flush()
    advance_setup(svc, session, game)
    return replaced, step, any(at == step for at, _ in kept)


def setup_outcome(
    game: Game, before: GameState, seat: int, step: int, written: Sequence[int] = ()
) -> tuple[str, bool]:
    """What became of placements stored for `step` (`submit_setup`), for the answer: (the
    placements made, in canonical form and in the order made, "; " between the two of two
    turns in a row, or ""; whether they were tried on the player's turn and none could be
    used). Neither: they wait for the player's turn. `written`: the crossings of the mail's
    placements in the order they are tried, which is the order they are made in (the stored
    state keeps a seat's settlements by crossing)."""
    from .games import load_state

    after = load_state(game)
    if after.phase == Phase.SETUP and after.setup_step <= step:
        return "", before.phase == Phase.SETUP and setup_player(before) == seat
    made = [c for c in after.settlements[seat] if c not in before.settlements[seat]]
    order = {c: i for i, c in reversed(list(enumerate(written)))}
    made.sort(key=lambda c: order.get(c, len(order)))
    ctx = context(game, after, "setup")
    sea, old_sea = after.sea, before.sea
    shown: list[str] = []
    for c in made:
        # The piece placed with it: a road, or in Seafarers a ship, new at that crossing.
        for e in after.board.crossing_paths[c]:
            ship = (
                sea is not None and old_sea is not None and sea.ship[e] == seat != old_sea.ship[e]
            )
            road = after.road[e] == seat != before.road[e]
            if road or ship:
                shown.append(format_item(SetupPlacement(c, e, ship), ctx))
                break
    return "; ".join(shown), False


def _placed_at_once(session: Session, game: Game, state: GameState, player: Player) -> bool:
    """Whether the placements `player` sent ahead for the turn `state` waits for can be
    used: then that turn is played at once and not announced (if none can, the turn waits
    for the player as any other, and is announced)."""
    waiting = current_orders(session, game, 0, state.setup_step).get(player.id or 0)
    return waiting is not None and place_setup(state, codec.loads(waiting.parsed))[2]


def advance_setup(svc: Service, session: Session, game: Game, timeout: bool = False) -> None:
    """Place while the player whose turn it is has placements waiting (or the deadline passed).
    Leaves the game waiting for the next player, or starts round 1."""
    from .games import load_state
    from .rounds import begin_round

    state = load_state(game)
    while state.phase == Phase.SETUP:
        p = player_at(session, game, setup_player(state))
        waiting = current_orders(session, game, 0, state.setup_step).get(p.id or 0)
        sent = None
        # Whether pbm chose the placement (at the deadline, nothing usable sent): the notice
        # says so, and its player hears it in a mail of their own.
        automatic = False
        if waiting is not None:
            sent = codec.loads(waiting.parsed)
            new, events, placed = place_setup(state, sent)
            waiting.superseded = True
            if not placed:
                notify(
                    svc,
                    session,
                    "error",
                    [p.address],
                    game,
                    texts.t(game.locale, "setup_failed_subject", game=game.name),
                    # With the turn's prompt: the placement the player may still send (none
                    # when the deadline has passed: one is chosen for them now).
                    notices.placed(
                        state,
                        events,
                        game.locale,
                        failed=True,
                        prompt=None if timeout else _prompt(game, state, p),
                    ),
                    template="placed",
                )
                if not timeout:
                    return
                new, more = place_setup_automatic(state)
                events += more
                automatic = True
        elif timeout:
            new, events = place_setup_automatic(state)
            automatic = True
        else:
            return
        used = json.dumps({"orders": codec.to_data(sent), "auto": timeout})
        timeout = False
        step = record(svc, session, game, "setup", state, new, events, used)
        save_state(game, new)
        after = None
        if new.phase == Phase.SETUP:
            # Everyone learns whose turn it is now and until when (the deadline the next
            # step sets; the player on turn gets the prompt of their own after this). Not
            # when that player's placement is in already: it is placed at once, in a mail of
            # its own (QA: "Next: blue places, until …" announced a turn played already).
            _setup_deadline(svc, game)
            nxt = player_at(session, game, setup_player(new))
            if not _placed_at_once(session, game, new, nxt):
                after = (
                    label(game, nxt),
                    shared_deadline(session, game, room=200) if game.deadline else "",
                )
        subject = texts.t(game.locale, "placed_subject", game=game.name)
        everyone = recipients(session, game)
        own = [p.address] if automatic and p.address in everyone else []
        others = [a for a in everyone if a not in own]
        for group, to_player in ((others, False), (own, True)):
            if group:
                data = notices.placed(
                    new, events, game.locale, after=after, automatic=automatic, own=to_player
                )
                notify(svc, session, "placed", group, game, subject, data, step=step)
        state = new
        if state.phase == Phase.SETUP:
            _begin_step(svc, session, game, state)
    begin_round(svc, session, game, state)
