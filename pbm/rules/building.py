"""Where pieces may go, placing them, paying for them, and the longest road.

Checks return None when an order is legal, else the `Reason` that forbids it (the events and
reports carry it), so the same code serves the engine, the checks at receipt and the legal-move
view (`legal.py`). `check_cost=False` leaves the hand out: orders are written before the rolls.
"""

from __future__ import annotations

from .events import Built, Event, TitleChanged
from .kron_events import FishPaid  # also joins Kronlande's events to the event table
from .piece_hooks import PIECE_HOOKS
from .reasons import SPLIT_RULES, Reason
from .resources import COST_CITY, COST_ROAD, COST_SETTLEMENT, FISCH, Counts, can_pay, payment
from .state import MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, GameState

LONGEST_ROAD_MIN = 5


def settlement_site_rule(state: GameState, c: int) -> Reason | None:
    """Board rules for any settlement: land, free, and the distance rule; in Oceania not on a
    crossing touching fog (`fog.py`)."""
    board = state.board
    if board.crossing_fog[c]:
        return Reason.UNEXPLORED
    if not board.crossing_land[c]:
        return Reason.NOT_LAND
    owner = state.owner
    if owner[c] >= 0:
        return Reason.OCCUPIED
    for n in board.crossing_neighbors[c]:
        if owner[n] >= 0:
            return Reason.DISTANCE_RULE
    return None


def settlement_rule(state: GameState, p: int, c: int, check_cost: bool = True) -> Reason | None:
    rule = settlement_site_rule(state, c)
    if rule:
        return rule
    road = state.road
    if not any(road[e] == p for e in state.board.crossing_paths[c]) and not any(
        # An expansion's piece may reach it (Seafarers: the player's ship line reaching land).
        hook.reaches(state, p, c)
        for hook in PIECE_HOOKS
    ):
        if state.rules < SPLIT_RULES:
            return Reason.NOT_CONNECTED
        for hook in PIECE_HOOKS:
            reason = hook.unreached(state)
            if reason is not None:
                return reason
        return Reason.SETTLEMENT_NOT_CONNECTED
    if len(state.settlements[p]) >= MAX_SETTLEMENTS:
        return Reason.NO_PIECES_LEFT
    if check_cost and not can_pay(state.hands[p], COST_SETTLEMENT):
        return Reason.CANNOT_AFFORD
    return None


def city_rule(state: GameState, p: int, c: int, check_cost: bool = True) -> Reason | None:
    if state.owner[c] != p or state.level[c] != 1:
        return Reason.NOT_OWN_SETTLEMENT
    if len(state.cities[p]) >= MAX_CITIES:
        return Reason.NO_PIECES_LEFT
    if check_cost and not can_pay(state.hands[p], COST_CITY):
        return Reason.CANNOT_AFFORD
    return None


def road_rule(state: GameState, p: int, e: int, check_cost: bool = True) -> Reason | None:
    board = state.board
    if not board.path_land[e]:
        return Reason.NOT_LAND
    road = state.road
    if road[e] >= 0 or any(hook.takes(state, e) for hook in PIECE_HOOKS):
        return Reason.OCCUPIED
    if not road_connects(state, p, e):
        return Reason.NOT_CONNECTED
    if len(state.roads[p]) >= MAX_ROADS:
        return Reason.NO_PIECES_LEFT
    if check_cost and not can_pay(state.hands[p], COST_ROAD):
        return Reason.CANNOT_AFFORD
    return None


def road_connects(state: GameState, p: int, e: int) -> bool:
    """A road joins the player's building, or their road through a crossing no opponent holds."""
    board = state.board
    owner = state.owner
    road = state.road
    for c in board.path_crossings[e]:
        o = owner[c]
        if o == p:
            return True
        if o >= 0:
            continue  # an opponent's building cuts the connection
        for f in board.crossing_paths[c]:
            if f != e and road[f] == p:
                return True
    return False


def pay(state: GameState, p: int, cost: Counts, events: list[Event] | None = None) -> None:
    """p pays a cost to the bank. Kronlande: Fisch pays for missing Getreide (a `FishPaid`
    event tells it), and goods paid go back to the supply, not the bank."""
    hand = state.hands[p]
    bank = state.bank
    if len(hand) != 5:
        _pay_wide(state, p, cost, events)
        return
    for r in range(5):
        n = cost[r]
        if n:
            hand[r] -= n
            if bank is not None:
                bank[r] += n


def _pay_wide(state: GameState, p: int, cost: Counts, events: list[Event] | None) -> None:
    hand = state.hands[p]
    bank = state.bank
    given = payment(hand, cost)
    fish = given[FISCH] - (cost[FISCH] if len(cost) > FISCH else 0)
    if fish and events is not None:
        events.append(FishPaid(p, fish))
    for r, n in enumerate(given):
        if n:
            hand[r] -= n
            if bank is not None and r < len(bank):
                bank[r] += n


def place_settlement(state: GameState, p: int, c: int, events: list[Event], free: bool) -> None:
    if not free:
        pay(state, p, COST_SETTLEMENT, events)
    state.owner[c] = p
    state.level[c] = 1
    state.payees = None
    state.settlements[p].append(c)
    events.append(Built(p, "settlement", c, free))
    for hook in PIECE_HOOKS:
        hook.settled(state, p, c, events)
    # A settlement can cut an opponent's road: re-measure everyone with a road here (and
    # whoever an expansion's pieces here make it touch: Seafarers' ship lines).
    road = state.road
    paths = state.board.crossing_paths[c]
    touched = {road[e] for e in paths if road[e] >= 0 and road[e] != p}
    for hook in PIECE_HOOKS:
        touched |= hook.touched(state, p, c)
    if touched:
        for q in sorted(touched):
            state.road_lengths[q] = longest_road_length(state, q)
        update_longest_road(state, events)
    for hook in PIECE_HOOKS:
        hook.built(state, p, events)


def place_city(state: GameState, p: int, c: int, events: list[Event], free: bool = False) -> None:
    if not free:
        pay(state, p, COST_CITY, events)
    state.level[c] = 2
    state.payees = None
    state.settlements[p].remove(c)
    state.cities[p].append(c)
    events.append(Built(p, "city", c, False))


def place_road(state: GameState, p: int, e: int, events: list[Event], free: bool) -> None:
    if not free:
        pay(state, p, COST_ROAD, events)
    state.road[e] = p
    state.roads[p].append(e)
    events.append(Built(p, "road", e, free))
    state.road_lengths[p] = _length_with_road(state, p, e)
    update_longest_road(state, events)
    for hook in PIECE_HOOKS:
        hook.built(state, p, events)


def longest_road_length(state: GameState, p: int) -> int:
    """The longest trail of p's roads (each road once), not passing an opponent's building.
    An expansion may measure it otherwise (Seafarers: the trade route of roads and ships,
    `route.py`)."""
    for hook in PIECE_HOOKS:
        length = hook.route_length(state, p)
        if length is not None:
            return length
    adj, blocked = _network(state, p)
    if not adj:
        return 0
    return max(_walk(adj, blocked, c, 0) for c in _trail_starts(adj, blocked))


def _length_with_road(state: GameState, p: int, e: int) -> int:
    """`longest_road_length` once p's road e is laid (the last of p's roads), from the length
    before it (`road_lengths`, exact before every road).

    Laying a road takes no trail away, so the longest is the old one or one along e. When
    an end x of e has no other road of p's, every trail along e ends at x (a trail passing x
    would need a second road there), so the longest along e is the longest trail from x: one
    walk instead of the walks from every start. Joining two roads or closing a ring, and
    an expansion's routes (Seafarers' trade routes), are measured whole."""
    for hook in PIECE_HOOKS:
        length = hook.route_length(state, p)
        if length is not None:
            return length
    board = state.board
    road = state.road
    for x in board.path_crossings[e]:
        if sum(1 for f in board.crossing_paths[x] if road[f] == p) == 1:
            adj, blocked = _network(state, p)
            return max(state.road_lengths[p], _walk(adj, blocked, x, 0))
    return longest_road_length(state, p)


def _network(state: GameState, p: int) -> tuple[dict[int, list[tuple[int, int]]], set[int]]:
    """p's roads as crossing -> [(road bit, crossing at its other end)], and the crossings of
    the network an opponent's building blocks."""
    board = state.board
    owner = state.owner
    adj: dict[int, list[tuple[int, int]]] = {}
    for i, e in enumerate(state.roads[p]):
        u, v = board.path_crossings[e]
        adj.setdefault(u, []).append((1 << i, v))
        adj.setdefault(v, []).append((1 << i, u))
    blocked = {c for c in adj if owner[c] >= 0 and owner[c] != p}
    return adj, blocked


def _walk(adj: dict[int, list[tuple[int, int]]], blocked: set[int], c: int, used: int) -> int:
    """The longest trail from crossing c on the roads not in `used`; it may end at a blocked
    crossing but not pass it."""
    best = 0
    for bit, nxt in adj[c]:
        if not used & bit:
            n = 1 if nxt in blocked else 1 + _walk(adj, blocked, nxt, used | bit)
            if n > best:
                best = n
    return best


def _trail_starts(adj: dict[int, list[tuple[int, int]]], blocked: set[int]) -> list[int]:
    """The crossings a longest trail can be found from: those with an odd number of roads,
    the blocked ones, and one crossing of each part of the network that has neither.

    Why: a trail that starts at an open crossing with a road it does not use can be made
    longer by that road, so a longest one starts at a blocked crossing or uses every road at
    its start: one road to leave, two for each later visit, an odd number; unless it also ends
    there, and then every road at each of its crossings is on it (else it could be turned to
    start at that crossing and take the road first), so it is the whole part, and any of the
    part's crossings is a start. Walks from only these find the same length as walks from
    every crossing, in about half the walks."""
    starts: list[int] = []
    seen: set[int] = set()
    for c in sorted(adj):
        if c in seen:
            continue
        part = [c]
        seen.add(c)
        for x in part:  # grows while read: the part of the network c is on
            for _, nxt in adj[x]:
                if nxt not in seen:
                    seen.add(nxt)
                    part.append(nxt)
        ends = [x for x in part if len(adj[x]) & 1 or x in blocked]
        starts.extend(ends or (c,))
    return starts


def update_longest_road(state: GameState, events: list[Event]) -> None:
    """Seed 000's title rule, with the cut road and the set-aside card of docs/rules-decisions.md.

    The holder keeps the title while no one is strictly longer and their road is still ≥ 5.
    When they lose it, a single longest player (≥ 5) takes it; a tie sets it aside, and an
    unheld title goes to whoever alone has the longest road of at least 5.
    """
    lengths = state.road_lengths
    best = max(lengths)
    holder = state.longest_road
    if holder >= 0 and lengths[holder] >= best and lengths[holder] >= LONGEST_ROAD_MIN:
        return
    leaders = [p for p, n in enumerate(lengths) if n == best] if best >= LONGEST_ROAD_MIN else []
    new = leaders[0] if len(leaders) == 1 else -1
    if new != holder:
        state.longest_road = new
        events.append(TitleChanged("longest_road", holder, new, best))


def update_largest_army(state: GameState, p: int, events: list[Event]) -> None:
    """Largest army: at least 3 knights, and strictly more than the holder."""
    k = state.knights[p]
    holder = state.largest_army
    if k < 3 or holder == p:
        return
    if holder < 0 or k > state.knights[holder]:
        state.largest_army = p
        events.append(TitleChanged("largest_army", holder, p, k))
