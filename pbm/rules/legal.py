"""The legal-move view: what a player may order now, after python-chess's `board.legal_moves`.

`LegalMoves(state, seat)` lists the moves open to the seat (roads, settlements, cities, robber
hexes and their victims, bank trades, playable cards, setup placements; Kronlande's workshops,
goods, Burgen and Residenzen), iterates over them and
answers `order in legal`. It never changes the state. Orders are written before the round's
rolls, so the hand is left out ("cost aside"): a listed build is one the resolution carries out
once the player holds its cost.

Two levels of checks, as python-chess has legal and pseudo-legal moves:

- `problem(order)`: why the resolution would refuse the order on this state now, cost aside
  (None when it would not). The lists hold exactly the moves for which it is None.
- `certain_problem(order)`: why the order fails whatever the round brings (the rolls, the other
  players' robbers): the checks at receipt of docs/order-language.md. The round's card play is
  still to come, so this is looser than `problem`. One exception is known at receipt and
  refused then: a robber (or a knight) sent to the hex the robber stands on now
  (docs/rules-decisions.md).

`after(order)` is the view once an order's pieces stand (Kronlande: also once a Hafenprivileg is
played), for the later lines of the same orders; `AFTER_KINDS` are the orders it changes.

The rules live in building, cards, robber, setup and trade; this module asks them, and lists
quickly what they would accept (tests/test_legal_moves.py checks that the two agree). An
expansion's moves, checks and placing come from its registrations in `legal_hooks`
(`sea_legal.py`, `kron_legal.py`, imported at the end of this module): the view never tests
which expansion a game plays.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from . import building, cards, trade, workshops
from .events import Event
from .layouts import (
    KNIGHT,
    MONOPOLY,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from .legal_hooks import CERTAIN_RULES, HOOKS, PLACERS, uncertain
from .legal_hooks import action_rule as action_rule  # the build step's check, kept here
from .orders import (
    Alternatives,
    BuildAction,
    BuyCard,
    City,
    DiscardPreference,
    Knight,
    MaritimeTrade,
    Monopoly,
    MoveShip,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    TradeOffer,
    Workshop,
    YearOfPlenty,
    is_build_action,
)
from .pirate import legal_pirate_hexes, ship_owners_at, thief_now_rule, thief_rule
from .reasons import Reason
from .robber import legal_robber_hexes, victims_at
from .setup import placement_rule
from .state import MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, GameState, Phase

#: Card types that are played (victory points count by themselves), in name order.
PLAYABLE = (KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY)

#: Everything a player can order: a build-step action and the rest of a round's or setup's lines.
Order = (
    BuildAction
    | Alternatives
    | RobberOrder
    | Knight
    | Monopoly
    | TradeOffer
    | DiscardPreference
    | SetupPlacement
)


def build_spots(state: GameState, p: int) -> tuple[list[int], list[int]]:
    """(paths for a road, crossings for a settlement) open to p now, cost aside, in id order.

    One pass over the ends of p's roads serves both (the bots ask for both every round); it
    agrees with `building.road_rule` and `building.settlement_rule` without the cost.
    """
    board = state.board
    owner, road = state.owner, state.road
    ends: set[int] = set()
    for e in state.roads[p]:
        ends.update(board.path_crossings[e])
    reach = ends
    for hook in HOOKS:
        # An expansion's pieces may reach sites too (Seafarers: a ship line reaching land).
        more = hook.reach_paths(state, p)
        if more:
            reach = set(reach)
            for e in more:
                reach.update(board.path_crossings[e])
    sites: list[int] = []
    if len(state.settlements[p]) < MAX_SETTLEMENTS:
        # Ends of p's pieces are connected by definition: only the site rules are left.
        neighbors, land, fog = board.crossing_neighbors, board.crossing_land, board.crossing_fog
        for c in sorted(reach):
            if owner[c] < 0 and land[c] and not fog[c]:
                for n in neighbors[c]:
                    if owner[n] >= 0:
                        break
                else:
                    sites.append(c)
    if len(state.roads[p]) >= MAX_ROADS:
        return [], sites
    # Roads go on from roads and buildings only.
    ends.update(state.settlements[p])
    ends.update(state.cities[p])
    found: set[int] = set()
    paths, path_land = board.crossing_paths, board.path_land
    # Every crossing of the network touches p's road or building; one an opponent holds cuts.
    for c in ends:
        o = owner[c]
        if o == p or o < 0:
            for e in paths[c]:
                if road[e] < 0 and path_land[e]:
                    found.add(e)
    for hook in HOOKS:
        taken = hook.path_taken(state)
        if taken is not None:
            found = {e for e in found if taken[e] < 0}
    return sorted(found), sites


class LegalMoves:
    """The moves of `seat` on `state`. Lists are in id order; treat them as read-only."""

    __slots__ = ("_spots", "seat", "state")

    def __init__(self, state: GameState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self._spots: tuple[list[int], list[int]] | None = None

    # -- the lists ------------------------------------------------------------------------------

    def roads(self) -> Sequence[int]:
        """Paths where a road may go (`road_rule` without the cost)."""
        if self._spots is None:
            self._spots = build_spots(self.state, self.seat)
        return self._spots[0]

    def settlements(self) -> Sequence[int]:
        """Crossings where a settlement may go (`settlement_rule` without the cost)."""
        if self._spots is None:
            self._spots = build_spots(self.state, self.seat)
        return self._spots[1]

    def ships(self) -> list[int]:
        """Seafarers: paths where a ship may be built (`ships.ship_rule` without the cost)."""
        return sea_legal.ship_sites(self.state, self.seat)

    def ship_moves(self) -> list[MoveShip]:
        """Seafarers: every ship move open to the seat now (`ships.move_rule`), by source,
        then target."""
        return sea_legal.ship_moves(self.state, self.seat)

    def cities(self) -> list[int]:
        """The seat's settlements, while it has a city left (`city_rule` without the cost)."""
        s, p = self.state, self.seat
        if len(s.cities[p]) >= MAX_CITIES:
            return []
        return sorted(s.settlements[p])

    def network(self) -> list[int]:
        """Crossings the seat's roads and buildings reach, in id order."""
        board = self.state.board
        seen = set(self.state.settlements[self.seat])
        seen.update(self.state.cities[self.seat])
        for e in self.state.roads[self.seat]:
            seen.update(board.path_crossings[e])
        return sorted(seen)

    def robber_hexes(self) -> list[int]:
        """Hexes the seat may send the robber to now (`robber_hex_rule`)."""
        return legal_robber_hexes(self.state, self.seat)

    def pirate_hexes(self) -> list[int]:
        """Seafarers: sea hexes the seat may send the pirate to now (`pirate.pirate_hex_rule`);
        empty in a game without the pirate."""
        return legal_pirate_hexes(self.state)

    def ship_owners(self, h: int) -> list[int]:
        """Opponents with a ship on a side of hex h, in seat order: whom the pirate robs."""
        return ship_owners_at(self.state, self.seat, h)

    def victims(self, h: int) -> list[int]:
        """Opponents with a building at hex h, in seat order (a new list each time)."""
        return victims_at(self.state, self.seat, h)

    def playable_cards(self) -> list[str]:
        """Card types the seat may play this round (`cards.play_rule`): bought in an earlier
        round, and no card played yet this round; an expansion's cards among them (Kronlande's
        project cards)."""
        s, p = self.state, self.seat
        if s.last_card_round[p] == s.round:
            return []
        rnd = s.round
        kinds: tuple[str, ...] = PLAYABLE
        for hook in HOOKS:
            kinds += hook.playable(s)
        return sorted({c for c, r in s.cards[p] if r < rnd and c in kinds})

    def bank_rates(self) -> list[int]:
        """The seat's bank rate for each resource (`trade.harbour_rate`, for all in one pass):
        4, 3 with a generic harbour, 2 at a harbour of that resource; an expansion may set
        others (`LegalHooks.bank_rates`; Kronlande: 2 after a Hafenprivileg this round, with
        a Residenz 3 and 2 for Stein)."""
        s, p = self.state, self.seat
        rates, harbours = [4, 4, 4, 4, 4], True
        for hook in HOOKS:
            own = hook.bank_rates(s, p)
            if own is not None:
                rates, harbours = own
                break
        if not harbours:
            return rates
        harbors = s.board.crossing_harbor
        # The harbour under the pirate does not trade (as `trade.harbour_rate` says).
        closed = trade.closed_harbour(s)
        for c in s.settlements[p] + s.cities[p]:
            hb = harbors[c]
            if hb is not None and hb is not closed:
                if hb.resource is None:
                    rates = [min(x, 3) for x in rates]
                else:
                    rates[hb.resource] = 2
        return rates

    def bank_trades(self) -> list[MaritimeTrade]:
        """Every bank trade of one card at the seat's rate that the bank can pay, hand aside."""
        rates = self.bank_rates()
        bank = self.state.bank
        width = len(rates)
        return [
            MaritimeTrade(give, rates[give], get, 1)
            for give in range(width)
            for get in range(width)
            if get != give and (bank is None or bank[get] > 0)
        ]

    # -- Kronlande ------------------------------------------------------------------------------

    def workshops(self) -> list[Workshop]:
        """Workshops the seat may build (`workshops.workshop_rule` without the cost): each kind
        it lacks, on each of its buildings without one; by kind, then crossing."""
        return kron_legal.workshop_orders(self.state, self.seat)

    def goods(self) -> list[int]:
        """Goods the seat has the workshop for (`workshops.make_rule` without the cost)."""
        return workshops.goods_makeable(self.state, self.seat)

    def castles(self) -> list[int]:
        """The seat's cities that may become a Burg (`castles.castle_rule` without the cost)."""
        return kron_legal.castle_sites(self.state, self.seat)

    def residences(self) -> list[int]:
        """The seat's Burgen, which may become a Residenz (`castles.residence_rule`)."""
        return kron_legal.residence_sites(self.state, self.seat)

    def can_buy_card(self) -> bool:
        """Whether a card is left to buy (`cards.buy_rule` without the cost; `BuyCard() in
        self`, without making an order)."""
        return len(self.state.deck) > 0

    def is_site(self, c: int) -> bool:
        """Whether a settlement may stand at crossing c by the board's rules (land, free,
        distance), connected or not: a setup site, or a place a road can head for."""
        return building.settlement_site_rule(self.state, c) is None

    def sites(self) -> list[int]:
        """Every crossing that `is_site`, in id order."""
        site_rule, s = building.settlement_site_rule, self.state
        return [c for c in range(len(s.board.crossing_hexes)) if site_rule(s, c) is None]

    def setup_roads(self, c: int) -> list[int]:
        """Paths a setup road from crossing c may take (on land, free), in the board's order."""
        board, road = self.state.board, self.state.road
        return [e for e in board.crossing_paths[c] if board.path_land[e] and road[e] < 0]

    def setup_pairs(self) -> list[tuple[int, int]]:
        """(crossing, path) of every base-game setup placement: `setup_roads(c)` for each of
        the `sites()`, in one pass and without making placements (a random setup keeps one
        of some 150)."""
        board, owner, road = self.state.board, self.state.owner, self.state.road
        fog, land, neighbors = board.crossing_fog, board.crossing_land, board.crossing_neighbors
        paths, path_land = board.crossing_paths, board.path_land
        pairs: list[tuple[int, int]] = []
        for c in range(len(board.crossing_hexes)):
            # `building.settlement_site_rule`: explored land, free, no neighbour built on.
            if fog[c] or not land[c] or owner[c] >= 0:
                continue
            for n in neighbors[c]:
                if owner[n] >= 0:
                    break
            else:
                pairs += [(c, e) for e in paths[c] if path_land[e] and road[e] < 0]
        return pairs

    def setup_pieces(self, c: int) -> list[tuple[int, bool]]:
        """(path, ship) a setup settlement on crossing c may take: in the base game its
        `setup_roads`; an expansion may say otherwise (Seafarers: also ships, and only those
        on a "must" coast, and nothing outside the start areas: `sea_setup.setup_pieces`)."""
        for hook in HOOKS:
            pieces = hook.setup_pieces(self, c)
            if pieces is not None:
                return pieces
        return [(e, False) for e in self.setup_roads(c)]

    def setup_options(self) -> list[tuple[int, int, bool]]:
        """(crossing, path, ship) of every legal setup placement, without making placements:
        the base game's `setup_pairs`, or an expansion's (`LegalHooks.setup_options`)."""
        for hook in HOOKS:
            options = hook.setup_options(self)
            if options is not None:
                return options
        return [(c, e, False) for c, e in self.setup_pairs()]

    def setup_placements(self) -> list[SetupPlacement]:
        """Every legal setup placement (`setup.placement_rule`), by crossing, then path."""
        return [SetupPlacement(c, e, ship) for c, e, ship in self.setup_options()]

    def __iter__(self) -> Iterator[Order]:
        """Setup placements in the setup; else the single build actions, cost aside: the base
        game's, then each expansion's (`LegalHooks.moves`)."""
        if self.state.phase == Phase.SETUP:
            yield from self.setup_placements()
            return
        yield from (Road(e) for e in self.roads())
        yield from (Settlement(c) for c in self.settlements())
        yield from (City(c) for c in self.cities())
        if self.can_buy_card():
            yield BuyCard()
        yield from self.bank_trades()
        for hook in HOOKS:
            yield from hook.moves(self)

    def __contains__(self, order: object) -> bool:
        return self.problem(order) is None

    # -- the checks -----------------------------------------------------------------------------

    def problem(self, order: object) -> Reason | None:
        """Why the resolution would refuse `order` on this state now, cost aside; None if it
        would carry it out. Of `Alternatives`, the first option's reason when all fail."""
        s, p = self.state, self.seat
        if is_build_action(order):
            # A card play costs nothing: its rule has no cost to leave out.
            return action_rule(s, p, order, check_cost=False)
        if isinstance(order, Alternatives):
            rules = [self.problem(o) for o in order.options]
            return rules[0] if all(rules) else None
        if isinstance(order, SetupPlacement):
            return placement_rule(s, order)
        if isinstance(order, RobberOrder):
            return thief_rule(s, p, order)
        if isinstance(order, Knight):
            return cards.knight_rule(s, p, order)
        if isinstance(order, Monopoly):
            return cards.monopoly_rule(s, p, order)
        if isinstance(order, TradeOffer):
            return trade.offer_rule(s, p, order)
        if isinstance(order, DiscardPreference):
            return None
        raise TypeError(f"not an order: {order!r}")

    def certain_problem(self, item: object) -> Reason | None:
        """Why `item` fails whatever the round brings, or None: the checks at receipt.

        Hands change with the rolls, so no cost; the robber may leave its hex and the round's
        card play is still to come. `item` may be a tuple of ranked setup placements (refused
        when every one fails); anything that is no order passes.
        """
        s, p = self.state, self.seat
        if isinstance(item, tuple):
            rules = [placement_rule(s, x) for x in item if isinstance(x, SetupPlacement)]
            return rules[0] if rules and all(rules) else None
        if isinstance(item, Alternatives):
            rules = [self.certain_problem(o) for o in item.options]
            return rules[0] if all(rules) else None
        if isinstance(item, SetupPlacement):
            return placement_rule(s, item)
        if isinstance(item, RobberOrder):
            return thief_now_rule(s, p, item)
        if isinstance(item, Knight):
            return cards.card_held_rule(s, p, KNIGHT) or thief_now_rule(s, p, item.robber)
        if isinstance(item, Monopoly):
            return cards.card_held_rule(s, p, MONOPOLY) or trade.bank_item_rule(s, item.resource)
        if isinstance(item, TradeOffer):
            return trade.offer_rule(s, p, item)
        if isinstance(item, Settlement):
            rule = building.settlement_rule(s, p, item.crossing, check_cost=False)
            return uncertain(s, rule, s.board.crossing_hexes[item.crossing])
        if isinstance(item, City):
            return building.city_rule(s, p, item.crossing, check_cost=False)
        if isinstance(item, Road):
            rule = building.road_rule(s, p, item.path, check_cost=False)
            return uncertain(s, rule, s.board.path_hexes[item.path])
        if isinstance(item, YearOfPlenty):
            return cards.card_held_rule(s, p, YEAR_OF_PLENTY) or trade.bank_item_rule(
                s, item.first, item.second
            )
        if isinstance(item, RoadBuilding):
            return cards.card_held_rule(s, p, ROAD_BUILDING) or uncertain(
                s,
                cards.piece_rule(s, p, item.first, item.first_ship),
                s.board.path_hexes[item.first],
            )
        if isinstance(item, MaritimeTrade):
            return trade.maritime_terms_rule(s, p, item)
        certain = CERTAIN_RULES.get(type(item))
        if certain is not None:
            return certain(self, item)
        return None

    # -- the next position ----------------------------------------------------------------------

    def after(self, item: object) -> LegalMoves:
        """The view once the pieces `item` builds stand, free of cost (this view stays as it
        is). Of `Alternatives`, the first option not certain to fail; of road building, the
        second road only if it can follow the first. What builds nothing, or is certain to fail,
        leaves the position as it is."""
        if isinstance(item, Alternatives):
            for option in item.options:
                if self.certain_problem(option) is None:
                    return self.after(option)
            return self
        place = PLACERS.get(type(item))
        if place is None:
            return self
        if self.certain_problem(item) is not None:
            return self
        s, p = self.state.copy(), self.seat
        ignored: list[Event] = []
        place(s, p, item, ignored)
        return LegalMoves(s, p)


# The expansions' parts of the view register themselves (`legal_hooks`); importing them here
# means whoever imports this module has them all.
from . import kron_legal, sea_legal  # noqa: E402

#: The orders `LegalMoves.after` changes the position for (the rest leave it as it is).
AFTER_KINDS: tuple[type, ...] = tuple(PLACERS)
#: Kronlande's project cards, in name order (kept importable from here).
PROJECTS = kron_legal.PROJECTS
