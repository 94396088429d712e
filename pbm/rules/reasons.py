"""Every reason the rules give for refusing an order: one vocabulary for engine, checks and texts.

A rule check returns None when an order is legal, else a `Reason`. Events (`OrderFailed.rule`,
`TradeFailed.reason`, `SetupFailed.reason`) and `IllegalOrderError.rule` carry these members.
The values are stored in every game's events and are the keys of the reason texts in the
reports and the order acknowledgements, so a value never changes once a game has used it; a new
rule gets a new member (see docs/architecture.md, "A rule").

Rules 3 (`state.RULES`) split the members that named two failures (`NOT_CONNECTED` for a road,
a settlement and a ship alike; `NOT_SEA` for a ship off the sea and in a game without ships; a
setup ship refused as a road): a game by rules 2 replays with the old members, and
`specific` tells what an old member meant for the order it refused, so its text fits that
order too.

A `StrEnum` member is a `str`: it compares, hashes and serialises to JSON as its value. Its
`repr` is the value's too, so the digests of `pbm sim` and `pbm bench engine` (made from the
`repr` of event values) are the same as when reasons were plain strings.
"""

from __future__ import annotations

from enum import StrEnum

#: The rules version (`GameState.rules`) from which the checks give the split members.
SPLIT_RULES = 3


class Reason(StrEnum):
    # -- building (building.py) ----------------------------------------------------------------
    #: A settlement on a crossing, or a road on a path, that touches no land.
    NOT_LAND = "not_land"
    #: The crossing or path already holds a piece.
    OCCUPIED = "occupied"
    #: A neighbouring crossing holds a building.
    DISTANCE_RULE = "distance_rule"
    #: A road with no road or building of the player's at either end (an opponent's building
    #: cuts a road). Rules 2 and older gave it for settlements and ships too (see below).
    NOT_CONNECTED = "not_connected"
    #: Rules 3: a settlement on a crossing no road of the player's touches.
    SETTLEMENT_NOT_CONNECTED = "settlement_not_connected"
    #: Rules 3, Seafarers: a settlement on a crossing no road or ship of the player's touches.
    SETTLEMENT_NOT_REACHED = "settlement_not_reached"
    #: All settlements, cities or roads of the player are on the board.
    NO_PIECES_LEFT = "no_pieces_left"
    #: The hand does not hold the cost (also a development card's).
    CANNOT_AFFORD = "cannot_afford"
    #: A city where the player has no settlement.
    NOT_OWN_SETTLEMENT = "not_own_settlement"

    # -- setup placements (setup.py) -----------------------------------------------------------
    ROAD_NOT_AT_SETTLEMENT = "road_not_at_settlement"
    ROAD_OCCUPIED = "road_occupied"
    ROAD_NOT_ON_LAND = "road_not_on_land"
    #: Rules 3, Seafarers: a setup ship on a side that does not touch its settlement (rules 2:
    #: `ROAD_NOT_AT_SETTLEMENT`).
    SHIP_NOT_AT_SETTLEMENT = "ship_not_at_settlement"
    #: Rules 3, Seafarers: a setup ship on a side that holds a piece (rules 2: `ROAD_OCCUPIED`).
    SHIP_SIDE_OCCUPIED = "ship_side_occupied"

    # -- the robber (robber.py, round.py) ------------------------------------------------------
    #: The robber must leave the hex it stands on.
    ROBBER_MUST_MOVE = "robber_must_move"
    #: The robber goes onto a land hex with a number token.
    ROBBER_NOT_ON_NUMBER = "robber_not_on_number"
    #: The hex touches a newcomer's building (the newcomer protection option).
    NEWCOMER_PROTECTION = "newcomer_protection"
    #: The player rolled a 7 and sent no robber order: the NMR robber rule moved it.
    NO_ROBBER_ORDER = "no_robber_order"

    # -- development cards (cards.py) ----------------------------------------------------------
    #: No card of this type in hand (at receipt: none bought in an earlier round).
    CARD_NOT_HELD = "card_not_held"
    #: The only such cards were bought this round.
    CARD_BOUGHT_THIS_ROUND = "card_bought_this_round"
    ONE_CARD_PER_ROUND = "one_card_per_round"
    DECK_EMPTY = "deck_empty"
    #: The classic bank has none of what a card or a bank trade would take from it.
    BANK_EMPTY = "bank_empty"
    #: Road building whose first road cannot be built.
    NO_LEGAL_ROAD = "no_legal_road"

    # -- trades (trade.py) ---------------------------------------------------------------------
    NO_GIFTS = "no_gifts"
    LIKE_FOR_LIKE = "like_for_like"
    TRADE_WITH_SELF = "trade_with_self"
    NO_SUCH_PLAYER = "no_such_player"
    NOT_CONFIRMED_BY_PARTNER = "not_confirmed_by_partner"
    #: The partner offered a trade back, on other terms (a counter-offer): no trade.
    TERMS_DIFFER = "terms_differ"
    #: A side of a trade no longer holds what it gives.
    CARDS_NOT_HELD = "cards_not_held"
    BELOW_HARBOUR_RATE = "below_harbour_rate"
    #: Seafarers: the terms meet the rate of the player's harbour, but the pirate stands on it.
    PIRATE_ON_HARBOUR = "pirate_on_harbour"
    SAME_RESOURCE = "same_resource"

    # -- ships (ships.py, Seafarers) -------------------------------------------------------
    #: A ship on a side that touches no sea (rules 2: also a ship in a game without ships).
    NOT_SEA = "not_sea"
    #: Rules 3: a ship built, moved or placed in a game without ships (not Seafarers).
    NO_SHIPS = "no_ships"
    #: Rules 3: a ship (built, moved there, or of road building) with no building or ship of
    #: the player's at either end (rules 2: `NOT_CONNECTED`).
    SHIP_NOT_CONNECTED = "ship_not_connected"
    #: Rules 3: a ship moved to the side it stands on (rules 2: `OCCUPIED`).
    SHIP_SAME_PLACE = "ship_same_place"
    #: Rules 3: a ship that stands next to the pirate is not moved away (rules 2:
    #: `NEXT_TO_PIRATE`).
    SHIP_HELD_BY_PIRATE = "ship_held_by_pirate"
    #: Oceania: a settlement on a crossing that touches fog (not yet discovered).
    UNEXPLORED = "unexplored"
    #: A ship on a side next to the pirate: none is built, placed or moved there (rules 2: nor
    #: moved away, now `SHIP_HELD_BY_PIRATE`).
    NEXT_TO_PIRATE = "next_to_pirate"
    #: A pirate order in a game without the pirate (a base game, or one made with --no-pirate).
    NO_PIRATE = "no_pirate"
    #: The pirate goes onto a sea hex.
    PIRATE_NOT_ON_SEA = "pirate_not_on_sea"
    #: The pirate stands on that hex now and must move.
    PIRATE_MUST_MOVE = "pirate_must_move"
    #: No ship of the player's stands there.
    NOT_OWN_SHIP = "not_own_ship"
    #: The ship is not the front of an open line (both its ends are held).
    SHIP_LINE_CLOSED = "ship_line_closed"
    #: The ship was built (or moved) this round.
    SHIP_BUILT_THIS_ROUND = "ship_built_this_round"
    #: The player has moved a ship this round already.
    ONE_SHIP_MOVE_PER_ROUND = "one_ship_move_per_round"
    #: A setup settlement outside the scenario's start areas (or on a bonus island).
    NOT_START_AREA = "not_start_area"
    #: A setup settlement on a "must" coast takes a ship, not a road.
    SHIP_REQUIRED = "ship_required"
    #: The Great Crossing: a second start settlement on the other island than the first.
    OTHER_START_ISLAND = "other_start_island"

    # -- Kronlande (workshops.py, castles.py, kron_cards.py) ------------------------------------
    #: A Kronlande order (workshop, goods, Burg, Residenz, project card) in another game.
    NOT_KRONLANDE = "not_kronlande"
    #: A workshop where the player has no settlement or city.
    NOT_OWN_BUILDING = "not_own_building"
    #: The building already carries a workshop.
    WORKSHOP_ON_BUILDING = "workshop_on_building"
    #: The player already has a workshop of this kind.
    WORKSHOP_KIND_HELD = "workshop_kind_held"
    #: Goods made without the workshop that makes them.
    NO_WORKSHOP = "no_workshop"
    #: A good that no workshop makes, or a count below 1.
    NOT_A_GOOD = "not_a_good"
    #: A Burg where the player has no city (a Burg or Residenz is one already).
    NOT_OWN_CITY = "not_own_city"
    #: A Residenz where the player has no Burg.
    NOT_OWN_CASTLE = "not_own_castle"
    #: The robber never stands next to a Burg or a Residenz.
    ROBBER_NEXT_TO_CASTLE = "robber_next_to_castle"
    #: Goods are traded between players only, never with the bank or a harbour, and no card
    #: (Year of Plenty, Monopoly) takes them.
    GOODS_NOT_WITH_BANK = "goods_not_with_bank"

    # The value's repr, in C (a Python-level method would slow the digests down).
    __repr__ = str.__repr__


def specific(rule: str, piece: str, sea: bool) -> str:
    """The member of rules 3 that an older, shared one meant for an order of `piece` (the
    order's kind: "settlement", "ship", "move_ship", "setup_ship", …) in a game with (`sea`)
    or without ships; any other rule as it is. For texts only: stored events keep their
    values."""
    if rule == Reason.NOT_CONNECTED and piece == "settlement":
        return Reason.SETTLEMENT_NOT_REACHED if sea else Reason.SETTLEMENT_NOT_CONNECTED
    if rule == Reason.NOT_CONNECTED and piece in ("ship", "move_ship"):
        return Reason.SHIP_NOT_CONNECTED
    if rule == Reason.NOT_SEA and not sea:
        return Reason.NO_SHIPS
    if rule == Reason.ROAD_NOT_AT_SETTLEMENT and piece == "setup_ship":
        return Reason.SHIP_NOT_AT_SETTLEMENT
    if rule == Reason.ROAD_OCCUPIED and piece == "setup_ship":
        return Reason.SHIP_SIDE_OCCUPIED
    return rule
