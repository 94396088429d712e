"""Resolutions as records: the events of each step with the states before and after it."""

from __future__ import annotations

import json

from sqlalchemy import bindparam, func, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from pbm.rules import GameState, state_to_json
from pbm.rules.events import Event, event_from_json
from pbm.store.models import Game, OrderSet, Player, RoundRecord

from .context import Service

#: Queries of every resolution, built once (as in `games`).
_LAST_STEP = (
    select(RoundRecord.step)
    .where(RoundRecord.game_id == bindparam("game_id"))
    .order_by(col(RoundRecord.step).desc())
)
_LIVE_ORDERS = select(OrderSet).where(
    OrderSet.game_id == bindparam("game_id"),
    OrderSet.round == bindparam("round"),
    OrderSet.superseded == False,  # noqa: E712  (SQL comparison)
)
_ROUND_ORDERS = _LIVE_ORDERS.order_by(col(OrderSet.id))
_ORDERS = OrderSet.__table__  # type: ignore[attr-defined]
#: Who has sent orders for a round: ids only (an order mail reads no other order's text).
_SENDERS = sa_select(_ORDERS.c.id, _ORDERS.c.player_id).where(
    _ORDERS.c.game_id == bindparam("game_id"),
    _ORDERS.c.round == bindparam("round"),
    _ORDERS.c.superseded == False,  # noqa: E712  (SQL comparison)
)
_SUPERSEDE = (
    update(_ORDERS)
    .where(_ORDERS.c.id.in_(bindparam("ids", expanding=True)))
    .values(superseded=True)
)
_ORDERS_INSERT = insert(_ORDERS)
_STEP_ORDERS = _LIVE_ORDERS.where(OrderSet.setup_step == bindparam("setup_step")).order_by(
    col(OrderSet.id)
)


def autopilot_seats(session: Session, game: Game) -> dict[int, frozenset[int]]:
    """By round: the seats the autopilot played in its newest resolution, the `quiet` of its
    report (`rounds.orders_for_round`): the seats the engine was given orders for that no
    player of the seat had sent (an NMR seat was given none)."""
    own = set(
        session.exec(
            select(OrderSet.round, Player.seat)
            .join(Player, col(Player.id) == OrderSet.player_id)
            .where(
                OrderSet.game_id == game.id,
                OrderSet.superseded == False,  # noqa: E712  (SQL comparison)
                OrderSet.round > 0,
            )
        )
    )
    out: dict[int, frozenset[int]] = {}
    for round_, orders in session.exec(
        select(RoundRecord.round, RoundRecord.orders)
        .where(RoundRecord.game_id == game.id, RoundRecord.kind == "round")
        .order_by(col(RoundRecord.step))
    ):
        by_seat = json.loads(orders)
        out[round_] = frozenset(
            seat
            for seat, given in enumerate(by_seat)
            if given is not None and (round_, seat) not in own
        )
    return out


def next_step(session: Session, game: Game) -> int:
    last = session.exec(_LAST_STEP, params={"game_id": game.id}).first()
    return (last or 0) + 1


def record(
    svc: Service,
    session: Session,
    game: Game,
    kind: str,
    before: GameState,
    after: GameState,
    events: list[Event],
    orders: str,
    players: list[Player] | None = None,
) -> int:
    """Write the step's record; `players`: every player row of the game (`game_players`),
    when the caller has read them already."""
    step = next_step(session, game)
    if players is None:
        players = list(session.exec(select(Player).where(Player.game_id == game.id)))
    snapshot = {str(p.id): [p.nmr_count, p.autopilot, p.status] for p in players}
    # A Core INSERT in the caller's transaction: nothing uses the record as an object, and the
    # ORM's object and its flush cost more than the row (docs/performance.md, "Due rounds").
    session.connection().execute(
        insert(_RECORDS),
        {
            "game_id": game.id or 0,
            "step": step,
            "round": before.round,
            "kind": kind,
            "orders": orders,
            "players_before": json.dumps(snapshot, separators=(",", ":")),
            "events": json.dumps([e.to_json() for e in events], separators=(",", ":")),
            "state_before": json.dumps(state_to_json(before), separators=(",", ":")),
            "state_after": json.dumps(state_to_json(after), separators=(",", ":")),
            "resolved_at": svc.clock.now(),
        },
    )
    return step


_RECORDS = RoundRecord.__table__  # type: ignore[attr-defined]


def current_orders(
    session: Session, game: Game, round_: int, setup_step: int = -1
) -> dict[int, OrderSet]:
    """The valid order set of each player (by player id) for a round or a setup step."""
    out: dict[int, OrderSet] = {}
    for row in round_orders(session, game, round_, setup_step):
        out[row.player_id] = row
    return out


def round_orders(session: Session, game: Game, round_: int, setup_step: int = -1) -> list[OrderSet]:
    """Every order set not replaced for a round or a setup step, oldest first."""
    params = {"game_id": game.id, "round": round_}
    if setup_step >= 0:
        query, params["setup_step"] = _STEP_ORDERS, setup_step
    else:
        query = _ROUND_ORDERS
    return list(session.exec(query, params=params))


def replace_orders(session: Session, orders: OrderSet) -> tuple[bool, set[int]]:
    """Store a player's orders for a round (no setup step), marking their earlier ones of the
    round replaced: whether there were any, and the ids of the players whose orders for the
    round are in now. By Core statements on the session's connection: an order mail reads
    no other order's text, and builds no objects it would flush (the ORM's read of the
    round's order sets and its flush of the new one were a tenth of a mail's cost)."""
    connection = session.connection()
    live = connection.execute(_SENDERS, {"game_id": orders.game_id, "round": orders.round}).all()
    earlier = [row.id for row in live if row.player_id == orders.player_id]
    if earlier:
        connection.execute(_SUPERSEDE, {"ids": earlier})
    values = {c.key: getattr(orders, c.key) for c in _ORDERS.columns if c.key != "id"}
    connection.execute(_ORDERS_INSERT, values)
    return bool(earlier), {row.player_id for row in live} | {orders.player_id}


def supersede(
    session: Session, game: Game, player: Player, round_: int, setup_step: int = -1
) -> bool:
    """Mark a player's earlier orders for a round (or setup step) replaced; True if any."""
    query = select(OrderSet).where(
        OrderSet.game_id == game.id,
        OrderSet.player_id == player.id,
        OrderSet.round == round_,
        OrderSet.superseded == False,  # noqa: E712
    )
    if setup_step >= 0:
        query = query.where(OrderSet.setup_step == setup_step)
    found = False
    for row in session.exec(query):
        row.superseded = True
        found = True
    return found


def last_round_played(session: Session, game: Game) -> int | None:
    """The newest round resolved (None before the first): the count of rounds the end mail's
    summary gives (`reports.summary.game_summary`)."""
    return session.exec(
        select(func.max(RoundRecord.round)).where(
            RoundRecord.game_id == game.id, RoundRecord.kind == "round"
        )
    ).one()


def game_events(session: Session, game: Game) -> list[tuple[int, list[Event]]]:
    """(round, events) of every step recorded so far, in order (for the game's summary)."""
    rows = session.exec(
        select(RoundRecord).where(RoundRecord.game_id == game.id).order_by(col(RoundRecord.step))
    )
    return [(r.round, [event_from_json(e) for e in json.loads(r.events)]) for r in rows]
