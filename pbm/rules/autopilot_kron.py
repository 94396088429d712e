"""The autopilot's Kronlande play (`autopilot.py` asks this module when the state carries a
`KronState`). Deterministic, like the autopilot.

It keeps the base plan (cities, then settlements and the roads towards them) and adds, in this
order of goals: a Residenz on a Burg, a Burg on a city, the next workshop (Bäckerei, Schmiede,
Weberei). For a Burg or Residenz it makes the goods it lacks in the same build step (lines
`Make` before the upgrade), so its bank trades aim at the raw resources of the whole chain. A
card is played as in the base game, else a Bauhütte, a Festmahl for what it needs most, or a
Hafenprivileg when its trades gain by it. Goods are kept longest when cards must go.
"""

from __future__ import annotations

from .autopilot import (
    TURN_PLANS,
    _knight_or_monopoly,
    _road_plan,
    _robber_for_seven,
    _robber_target,
    _settle_roads_card,
    _site_score,
)
from .kron import BAECKEREI, SCHMIEDE, WEBEREI, workshop_for
from .layouts import (
    BUILDERS_HUT,
    FEAST,
    HARBOUR_PRIVILEGE,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from .legal import LegalMoves
from .orders import (
    BuildersHut,
    BuildLine,
    Castle,
    City,
    DiscardPreference,
    Feast,
    HarbourPrivilege,
    Make,
    MaritimeTrade,
    Residence,
    RoadBuilding,
    TurnOrders,
    Workshop,
    YearOfPlenty,
)
from .resources import (
    COST_CASTLE,
    COST_CITY,
    COST_RESIDENCE,
    COST_ROAD,
    COST_SETTLEMENT,
    COST_WORKSHOP,
    ERZ,
    GOODS,
    KRON_WIDTH,
    N_KRON_RESOURCES,
    RECIPES,
    STEIN,
    Counts,
    missing,
    widen,
)
from .state import GameState

#: The order the autopilot builds its workshops in: bread and tools serve every castle.
WORKSHOP_ORDER = (BAECKEREI, SCHMIEDE, WEBEREI)


def _chain(state: GameState, p: int, cost: Counts) -> tuple[Counts, list[Make]] | None:
    """A cost with goods, as the raw resources it takes: goods in hand are used, the missing
    ones made from their recipes (the `Make` lines for them). None when a missing good has no
    workshop of p's."""
    kron = state.kron
    assert kron is not None
    hand = state.hands[p]
    raw = list(widen(cost, KRON_WIDTH))
    makes: list[Make] = []
    for good in GOODS:
        short = raw[good] - hand[good]
        if short > 0:
            if kron.workshops[p][workshop_for(good)] < 0:
                return None
            makes.append(Make(good, short))
            for r, n in enumerate(RECIPES[good]):
                raw[r] += n * short
        raw[good] = min(raw[good], hand[good])
    return tuple(raw), makes


def _next_workshop(state: GameState, legal: LegalMoves) -> Workshop | None:
    """The first workshop kind of `WORKSHOP_ORDER` p lacks, on its best building without one;
    the Weberei only once p has a Burg to make a Residenz of."""
    kron = state.kron
    assert kron is not None
    p = legal.seat
    options = legal.workshops()
    for kind in WORKSHOP_ORDER:
        if kind == WEBEREI and not kron.burgen[p] and not kron.residenzen[p]:
            continue
        spots = [w.crossing for w in options if w.kind == kind]
        if spots:
            pips = state.board.crossing_pips
            return Workshop(kind, min(spots, key=lambda c: (-pips[c], c)))
    return None


def _trades(state: GameState, p: int, rates: list[int], target: Counts) -> list[MaritimeTrade]:
    """Bank trades of surplus resources (beyond the target) into what the target lacks (Fisch
    counted for Getreide); goods never go to the bank."""
    hand = state.hands[p][:]
    need = list(missing(hand, target))
    out: list[MaritimeTrade] = []
    for want in range(N_KRON_RESOURCES):
        while need[want]:
            spare = sorted(
                range(N_KRON_RESOURCES),
                key=lambda r: (-(hand[r] - (target[r] if r < len(target) else 0)), r),
            )
            giver = next(
                (
                    r
                    for r in spare
                    if r != want and hand[r] - (target[r] if r < len(target) else 0) >= rates[r]
                ),
                None,
            )
            if giver is None:
                return out
            hand[giver] -= rates[giver]
            hand[want] += 1
            need[want] -= 1
            out.append(MaritimeTrade(giver, rates[giver], want, 1))
    return out


def _discard(state: GameState, p: int, target: Counts) -> DiscardPreference | None:
    """Resources beyond the target first, goods last."""
    hand = state.hands[p][:]
    goal = widen(target, KRON_WIDTH)
    prefs: list[int] = []
    for _ in range(sum(hand)):
        r = max(
            range(KRON_WIDTH),
            key=lambda r: (hand[r] > 0, r < N_KRON_RESOURCES, hand[r] - goal[r], -r),
        )
        if hand[r] == 0:
            break
        hand[r] -= 1
        prefs.append(r)
    return DiscardPreference(tuple(prefs)) if prefs else None


def _feast_item(state: GameState, p: int, target: Counts) -> int | None:
    """What a Festmahl names: the needed item the others hold most of, else anything two or
    more others hold."""
    n = state.settings.players
    held = [sum(1 for q in range(n) if q != p and state.hands[q][r] > 0) for r in range(KRON_WIDTH)]
    need = missing(state.hands[p], target)
    wanted = [r for r in range(KRON_WIDTH) if need[r] and held[r]]
    if wanted:
        return max(wanted, key=lambda r: (held[r], -r))
    best = max(range(KRON_WIDTH), key=lambda r: (held[r], -r))
    return best if held[best] >= 2 else None


def turn_orders(state: GameState, p: int, legal: LegalMoves) -> TurnOrders:
    kron = state.kron
    assert kron is not None
    pips = state.board.crossing_pips
    cities = sorted(legal.cities(), key=lambda c: (-pips[c], c))
    castles = sorted(legal.castles(), key=lambda c: (-pips[c], c))
    residences = sorted(legal.residences(), key=lambda c: (-pips[c], c))
    sites = sorted(legal.settlements(), key=lambda c: (-_site_score(state, c, p), c))
    roads = _road_plan(state, legal) if not sites else []
    workshop = _next_workshop(state, legal)
    residence_chain = _chain(state, p, COST_RESIDENCE) if residences else None
    castle_chain = _chain(state, p, COST_CASTLE) if castles else None
    makes: list[Make] = []
    if cities:
        target = COST_CITY
    elif residence_chain is not None:
        target, makes = residence_chain
    elif castle_chain is not None:
        target, makes = castle_chain
    elif workshop is not None and (castles or residences or kron.burgen[p]):
        target = COST_WORKSHOP
    elif sites:
        target = COST_SETTLEMENT
    elif workshop is not None:
        target = COST_WORKSHOP
    else:
        target = COST_ROAD
    target = widen(target, KRON_WIDTH)
    lines: list[BuildLine] = []
    robber = _robber_target(state, legal)
    playable = legal.playable_cards()
    knight, monopoly = _knight_or_monopoly(state, p, robber, playable)
    rates = legal.bank_rates()
    trades = _trades(state, p, rates, target)
    if knight is None and monopoly is None:
        need = missing(state.hands[p], target)
        wants = [r for r in range(N_KRON_RESOURCES) for _ in range(need[r])]
        feast = _feast_item(state, p, target) if FEAST in playable else None
        cheaper = _trades(state, p, [2] * N_KRON_RESOURCES, target)
        if YEAR_OF_PLENTY in playable:
            pair = [*wants, STEIN, ERZ]
            lines.append(YearOfPlenty(pair[0], pair[1]))
        elif BUILDERS_HUT in playable:
            lines.append(BuildersHut())
        elif feast is not None:
            lines.append(Feast(feast))
        elif HARBOUR_PRIVILEGE in playable and len(cheaper) > len(trades):
            lines.append(HarbourPrivilege())
            trades = cheaper
        elif ROAD_BUILDING in playable and roads:
            lines.append(RoadBuilding(roads[0], roads[1] if len(roads) > 1 else None))
            roads = roads[2:]
    lines.extend(trades)
    lines.extend(makes)
    lines.extend(Residence(c) for c in residences)
    lines.extend(Castle(c) for c in castles)
    lines.extend(City(c) for c in cities)
    if workshop is not None and (target == widen(COST_WORKSHOP, KRON_WIDTH) or not sites):
        lines.append(workshop)
    _settle_roads_card(lines, sites, roads, legal)
    return TurnOrders(
        robber=_robber_for_seven(state, legal, robber, knight),
        discard=_discard(state, p, target),
        knight=knight,
        monopoly=monopoly,
        builds=tuple(lines),
    )


def _turn_plan(state: GameState, p: int, legal: LegalMoves) -> TurnOrders | None:
    return None if state.kron is None else turn_orders(state, p, legal)


TURN_PLANS.append(_turn_plan)
