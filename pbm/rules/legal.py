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
quickly what they would accept (tests/test_legal_moves.py checks that the two agree).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from . import building, cards, castles, kron_cards, ships, trade, workshops
from .board import Terrain
from .events import Event
from .kron import BURG, NO_CASTLE, WORKSHOPS
from .layouts import (
    BUILDERS_HUT,
    FEAST,
    HARBOUR_PRIVILEGE,
    KNIGHT,
    MONOPOLY,
    ROAD_BUILDING,
    YEAR_OF_PLENTY,
)
from .orders import (
    Alternatives,
    BuildAction,
    BuildersHut,
    BuyCard,
    Castle,
    City,
    DiscardPreference,
    Feast,
    HarbourPrivilege,
    Knight,
    Make,
    MaritimeTrade,
    Monopoly,
    MoveShip,
    Residence,
    Road,
    RoadBuilding,
    RobberOrder,
    Settlement,
    SetupPlacement,
    Ship,
    TradeOffer,
    Workshop,
    YearOfPlenty,
    is_build_action,
)
from .pirate import legal_pirate_hexes, pirate_hex_rule, ship_owners_at, thief_rule
from .reasons import SPLIT_RULES, Reason
from .robber import legal_robber_hexes, robber_target_rule, victims_at
from .sea import MAX_SHIPS
from .setup import placement_rule
from .state import MAX_CITIES, MAX_ROADS, MAX_SETTLEMENTS, GameState, Phase

#: Card types that are played (victory points count by themselves), in name order.
PLAYABLE = (KNIGHT, MONOPOLY, ROAD_BUILDING, YEAR_OF_PLENTY)
#: Kronlande's project cards, in name order.
PROJECTS = (BUILDERS_HUT, FEAST, HARBOUR_PRIVILEGE)

#: The orders `LegalMoves.after` changes the position for (the rest leave it as it is).
AFTER_KINDS = (
    Settlement,
    City,
    Road,
    RoadBuilding,
    Ship,
    MoveShip,
    Workshop,
    Castle,
    Residence,
    HarbourPrivilege,
)

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


def action_rule(s: GameState, p: int, a: BuildAction, check_cost: bool = True) -> Reason | None:
    """Why a build-step action cannot be done now, or None: the resolution's own check."""
    if isinstance(a, Road):
        return building.road_rule(s, p, a.path, check_cost)
    if isinstance(a, Settlement):
        return building.settlement_rule(s, p, a.crossing, check_cost)
    if isinstance(a, City):
        return building.city_rule(s, p, a.crossing, check_cost)
    if isinstance(a, BuyCard):
        return cards.buy_rule(s, p, check_cost)
    if isinstance(a, MaritimeTrade):
        return trade.maritime_rule(s, p, a, check_cost)
    if isinstance(a, YearOfPlenty):
        return cards.plenty_rule(s, p, a)
    if isinstance(a, RoadBuilding):
        return cards.road_building_rule(s, p, a)
    if isinstance(a, Ship):
        if s.sea is None:
            return Reason.NOT_SEA if s.rules < SPLIT_RULES else Reason.NO_SHIPS
        return ships.ship_rule(s, s.sea, p, a.path, check_cost)
    if isinstance(a, MoveShip):
        if s.sea is None:
            return Reason.NOT_OWN_SHIP if s.rules < SPLIT_RULES else Reason.NO_SHIPS
        return ships.move_rule(s, s.sea, p, a.source, a.target)
    if isinstance(a, Workshop):
        return workshops.workshop_rule(s, p, a, check_cost)
    if isinstance(a, Make):
        return workshops.make_rule(s, p, a, check_cost)
    if isinstance(a, Castle):
        return castles.castle_rule(s, p, a.crossing, check_cost)
    if isinstance(a, Residence):
        return castles.residence_rule(s, p, a.crossing, check_cost)
    if isinstance(a, (BuildersHut, HarbourPrivilege, Feast)):
        return kron_cards.project_rule(s, p, a)
    raise TypeError(a)


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
    if state.sea is not None:
        # Seafarers: a settlement may stand where a ship line reaches land.
        for e in state.sea.ships[p]:
            ends.update(board.path_crossings[e])
    sites: list[int] = []
    if len(state.settlements[p]) < MAX_SETTLEMENTS:
        # Ends of p's roads are connected by definition: only the site rules are left.
        neighbors, land, fog = board.crossing_neighbors, board.crossing_land, board.crossing_fog
        for c in sorted(ends):
            if owner[c] < 0 and land[c] and not fog[c]:
                for n in neighbors[c]:
                    if owner[n] >= 0:
                        break
                else:
                    sites.append(c)
    if len(state.roads[p]) >= MAX_ROADS:
        return [], sites
    if state.sea is not None:
        # Roads go on from roads and buildings only, never from a ship.
        ends = set()
        for e in state.roads[p]:
            ends.update(board.path_crossings[e])
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
    if state.sea is not None:
        ship = state.sea.ship
        found = {e for e in found if ship[e] < 0}
    return sorted(found), sites


def _robber_now_rule(s: GameState, h: int) -> Reason | None:
    """A robber target as the receipt sees it: a hex with a number, and not the hex the robber
    stands on when the orders come in. (An earlier 7 of the round could move the robber away
    first; pbm refuses the order anyway, since the player sees where it stands, and answers
    with the fix: docs/rules-decisions.md.)"""
    if h == s.robber:
        return Reason.ROBBER_MUST_MOVE
    return robber_target_rule(s, h)


def _thief_now_rule(s: GameState, order: RobberOrder) -> Reason | None:
    """`_robber_now_rule` for a robber order naming either the robber or (Seafarers) the
    pirate: a sea hex, not the one the pirate stands on when the orders come in."""
    if not order.pirate:
        return _robber_now_rule(s, order.hex)
    return pirate_hex_rule(s, order.hex)


#: Rules a fog hex decides (Oceania): what it turns out to be when discovered.
_FOG_RULES = frozenset({Reason.NOT_LAND, Reason.NOT_SEA, Reason.UNEXPLORED})


def _unless_fog(s: GameState, rule: Reason | None, hexes: Sequence[int]) -> Reason | None:
    """A failure that a fog hex among these (a crossing's or a side's) decides is not certain
    at receipt: a piece built earlier in the round may discover it, and the checks never look
    under the fog."""
    if rule in _FOG_RULES and any(s.board.hexes[h].terrain == Terrain.FOG for h in hexes):
        return None
    return rule


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
        sea = self.state.sea
        if sea is None or len(sea.ships[self.seat]) >= MAX_SHIPS:
            return []
        return ships.ship_sites(self.state, sea, self.seat)

    def ship_moves(self) -> list[MoveShip]:
        """Seafarers: every ship move open to the seat now (`ships.move_rule`), by source,
        then target."""
        s, p, sea = self.state, self.seat, self.state.sea
        if sea is None:
            return []
        return [
            MoveShip(e, t)
            for e in sorted(ships.movable_ships(s, sea, p))
            for t in ships.ship_sites(s, sea, p, without=e)
            if t != e
        ]

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
        round, and no card played yet this round. Kronlande's project cards among them."""
        s, p = self.state, self.seat
        if s.last_card_round[p] == s.round:
            return []
        rnd = s.round
        if s.kron is not None:
            return sorted(
                {c for c, r in s.cards[p] if r < rnd and (c in PLAYABLE or c in PROJECTS)}
            )
        return sorted({c for c, r in s.cards[p] if r < rnd and c in PLAYABLE})

    def bank_rates(self) -> list[int]:
        """The seat's bank rate for each resource (`trade.harbour_rate`, for all in one pass):
        4, 3 with a generic harbour, 2 at a harbour of that resource; Kronlande: 2 after a
        Hafenprivileg this round, with a Residenz 3 and 2 for Stein."""
        s, p = self.state, self.seat
        kron = s.kron
        if kron is None:
            rates = [4, 4, 4, 4, 4]
        elif kron.privilege[p] == s.round:
            return [2] * s.settings.bank_width
        elif kron.residenzen[p]:
            rates = [3, 3, 3, 3, 3, 2, 3]
        else:
            rates = [4] * s.settings.bank_width
        harbors = s.board.crossing_harbor
        for c in s.settlements[p] + s.cities[p]:
            hb = harbors[c]
            if hb is not None:
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
        s, p = self.state, self.seat
        kron = s.kron
        if kron is None:
            return []
        free = sorted(c for c in s.settlements[p] + s.cities[p] if kron.workshop[c] < 0)
        return [Workshop(k, c) for k in WORKSHOPS if kron.workshops[p][k] < 0 for c in free]

    def goods(self) -> list[int]:
        """Goods the seat has the workshop for (`workshops.make_rule` without the cost)."""
        return workshops.goods_makeable(self.state, self.seat)

    def castles(self) -> list[int]:
        """The seat's cities that may become a Burg (`castles.castle_rule` without the cost)."""
        s, p = self.state, self.seat
        kron = s.kron
        if kron is None:
            return []
        return sorted(c for c in s.cities[p] if s.level[c] == 2 and kron.castle[c] == NO_CASTLE)

    def residences(self) -> list[int]:
        """The seat's Burgen, which may become a Residenz (`castles.residence_rule`)."""
        s, p = self.state, self.seat
        kron = s.kron
        if kron is None:
            return []
        return sorted(c for c in s.cities[p] if kron.castle[c] == BURG)

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
        `setup_roads`; in Seafarers also ships, and only those on a "must" coast, and nothing
        outside the start areas (`sea_setup.setup_pieces`)."""
        sea = self.state.sea
        if sea is None:
            return [(e, False) for e in self.setup_roads(c)]
        from .sea_setup import setup_pieces

        return setup_pieces(self.state, sea, c)

    def setup_placements(self) -> list[SetupPlacement]:
        """Every legal setup placement (`setup.placement_rule`), by crossing, then path."""
        if self.state.sea is not None:
            return [
                SetupPlacement(c, e, ship) for c in self.sites() for e, ship in self.setup_pieces(c)
            ]
        return [SetupPlacement(c, e) for c, e in self.setup_pairs()]

    def __iter__(self) -> Iterator[Order]:
        """Setup placements in the setup; else the single build actions, cost aside."""
        if self.state.phase == Phase.SETUP:
            yield from self.setup_placements()
            return
        yield from (Road(e) for e in self.roads())
        yield from (Ship(e) for e in self.ships())
        yield from self.ship_moves()
        yield from (Settlement(c) for c in self.settlements())
        yield from (City(c) for c in self.cities())
        if self.can_buy_card():
            yield BuyCard()
        yield from self.bank_trades()
        if self.state.kron is not None:
            yield from self.workshops()
            yield from (Make(g, 1) for g in self.goods())
            yield from (Castle(c) for c in self.castles())
            yield from (Residence(c) for c in self.residences())

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
            return _thief_now_rule(s, item)
        if isinstance(item, Knight):
            return cards.card_held_rule(s, p, KNIGHT) or _thief_now_rule(s, item.robber)
        if isinstance(item, Monopoly):
            return cards.card_held_rule(s, p, MONOPOLY) or trade.bank_item_rule(s, item.resource)
        if isinstance(item, TradeOffer):
            return trade.offer_rule(s, p, item)
        if isinstance(item, Settlement):
            rule = building.settlement_rule(s, p, item.crossing, check_cost=False)
            return _unless_fog(s, rule, s.board.crossing_hexes[item.crossing])
        if isinstance(item, City):
            return building.city_rule(s, p, item.crossing, check_cost=False)
        if isinstance(item, Road):
            rule = building.road_rule(s, p, item.path, check_cost=False)
            return _unless_fog(s, rule, s.board.path_hexes[item.path])
        if isinstance(item, Ship):
            rule = action_rule(s, p, item, check_cost=False)
            return _unless_fog(s, rule, s.board.path_hexes[item.path])
        if isinstance(item, MoveShip):
            rule = action_rule(s, p, item, check_cost=False)
            return _unless_fog(s, rule, s.board.path_hexes[item.target])
        if isinstance(item, YearOfPlenty):
            return cards.card_held_rule(s, p, YEAR_OF_PLENTY) or trade.bank_item_rule(
                s, item.first, item.second
            )
        if isinstance(item, RoadBuilding):
            return cards.card_held_rule(s, p, ROAD_BUILDING) or _unless_fog(
                s,
                cards.piece_rule(s, p, item.first, item.first_ship),
                s.board.path_hexes[item.first],
            )
        if isinstance(item, MaritimeTrade):
            return trade.maritime_terms_rule(s, p, item)
        if isinstance(item, (Workshop, Make, Castle, Residence)):
            return action_rule(s, p, item, check_cost=False)
        if isinstance(item, (BuildersHut, HarbourPrivilege, Feast)):
            return kron_cards.project_held_rule(s, p, item)
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
        if not isinstance(item, AFTER_KINDS):
            return self
        if self.certain_problem(item) is not None:
            return self
        s, p = self.state.copy(), self.seat
        ignored: list[Event] = []
        if isinstance(item, Settlement):
            building.place_settlement(s, p, item.crossing, ignored, free=True)
        elif isinstance(item, City):
            building.place_city(s, p, item.crossing, ignored, free=True)
        elif isinstance(item, Road):
            building.place_road(s, p, item.path, ignored, free=True)
        elif isinstance(item, Ship):
            assert s.sea is not None
            ships.place_ship(s, s.sea, p, item.path, ignored, free=True)
        elif isinstance(item, MoveShip):
            assert s.sea is not None
            ships.move_ship(s, s.sea, p, item.source, item.target, ignored)
        elif isinstance(item, Workshop):
            workshops.place_workshop(s, p, item, ignored, free=True)
        elif isinstance(item, Castle):
            castles.place_castle(s, p, item.crossing, ignored, free=True)
        elif isinstance(item, Residence):
            castles.place_residence(s, p, item.crossing, ignored, free=True)
        elif isinstance(item, HarbourPrivilege):
            # The later bank trades of the step at 2:1 (the card itself stays in this view).
            assert s.kron is not None
            s.kron.privilege[p] = s.round
        else:
            cards.place_piece(s, p, item.first, item.first_ship, ignored)
            second = item.second
            if second is not None and cards.piece_rule(s, p, second, item.second_ship) is None:
                cards.place_piece(s, p, second, item.second_ship, ignored)
        return LegalMoves(s, p)
