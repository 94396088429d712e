"""Data for the service's short mails, one function per template (`templates/<kind>.*.j2`):
acknowledgement, error, help, signup to confirm, signup received, setup prompt, placement
announced, round 1 begins, reminder, NMR notice, autopilot on/off and the GM digest.

Each returns a plain dictionary; the service adds the game's name and renders it. Nothing here
reads the database, so the golden tests render every template from fixed data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbm.i18n import language, translator
from pbm.notation import Context, vocab
from pbm.notation.clean import clean_lines
from pbm.notation.format import format_item, word
from pbm.notation.lines import Pass
from pbm.notation.mail import ParsedMail
from pbm.rules import events as ev
from pbm.rules.orders import SetupPlacement
from pbm.rules.state import GameState

from .describe import describe, in_log_order
from .report_data import board_map, hand_text, player_label, revealed_seal


@dataclass(frozen=True)
class RosterRow:
    """One seat of a roster: its colour (in the game's language), the player's name as shown
    ("" when not shown) and address ("" when not shown)."""

    colour: str
    name: str
    address: str = ""

    @property
    def label(self) -> str:
        return player_label(self.colour, self.name)


def players_(lang: str, roster: list[RosterRow], anonymous: bool) -> dict[str, Any]:
    """The answer to `Mitspieler` / `Players`: the roster (addresses unless anonymous)."""
    return {"lang": lang_code(lang), "roster": roster, "anonymous": anonymous}


def gm_notice(
    lang: str,
    event: str,
    *,
    deadline: str = "",
    round_: int = 0,
    colour: str = "",
    name: str = "",
    text: str = "",
    final: list[dict[str, Any]] | None = None,
    summary: dict[str, Any] | None = None,
    vp_target: int = 0,
    until: str = "",
    waits: bool = False,
    seed: int | None = None,
    nonce: str = "",
    on: bool = False,
    start: str = "",
    end: str = "",
    back: str = "",
) -> dict[str, Any]:
    """A GM action told to the players (`service.tell`): `event` is paused, resumed, deadline,
    replaced, replaced_out, ended, announce or autopilot (`on`: switched on, else off, for
    `colour`, the seat's label); `text` the GM's own words (announce, ended, a deadline's
    reason); `final` an ended game's standing (`gm.final_standing`), `summary` its numbers
    (`summary.game_summary`), `vp_target` the points nobody reached; `seed` and `nonce` the
    dice seed and the seal nonce an ended game reveals (docs/fair-dice.md). An absence:
    `away` and `back` tell the others, `name` the player's label ("" in an anonymous game);
    `away_own` confirms it to the absent player, from `start` until `until` (the day), ending
    at `end` (the moment), with `back` the words that end it earlier."""
    final = final or []
    return {
        "lang": lang_code(lang),
        "event": event,
        "deadline": deadline,
        "round": round_,
        "colour": colour,
        "name": name,
        "text": text.strip(),
        "final": final,
        "label_width": max([8, *(len(str(row["label"])) for row in final)]),
        "summary": summary,
        "vp_target": vp_target,
        "until": until,
        "waits": waits,
        "on": on,
        "start": start,
        "end": end,
        "back": back,
        **revealed_seal(seed or 0, nonce, seed is not None),
    }


def press(
    lang: str, author: str, text: str, *, to_all: bool, reply: str, from_gm: bool = False
) -> dict[str, Any]:
    """A message through pbm: who wrote it ("" when anonymous; `from_gm`: the game master), to
    all or to you, the text, and the line to answer with ("" when it cannot be answered)."""
    return {
        "lang": lang_code(lang),
        "author": author,
        "from_gm": from_gm,
        "text": text,
        "to_all": to_all,
        "reply": reply,
    }


def press_gm(
    lang: str, who: str, text: str, game: str, colour: str, unverified: bool = False
) -> dict[str, Any]:
    """A player's message to the GM, with the command that answers it. `unverified`: sent
    from the seat's address without its right password (a lost one, most likely)."""
    return {
        "lang": lang_code(lang),
        "who": who,
        "text": text,
        "game": game,
        "colour": colour,
        "unverified": unverified,
    }


def lang_code(lang: str) -> str:
    """A game's language as the catalogue knows it (`pbm.i18n.language`)."""
    return language(lang)


def ack(
    parsed: ParsedMail,
    raw_text: str,
    lang: str,
    *,
    replaced: bool,
    round_: int | None,
    deadline: str,
    stored: bool = True,
    notes: list[str] | None = None,
    placed: str = "",
    setup_failed: bool = False,
    closed: bool = False,
    changed: bool = False,
    autopilot: bool = False,
    complete: bool = False,
) -> dict[str, Any]:
    """What was understood (canonical form), what was not (with why), what was not read.
    `round_` is None during the setup; `stored` False when the mail held no order at all (and
    so replaced nothing). A setup placement on the player's turn is used at once: `placed` is
    what was placed (canonical form), `setup_failed` that none of the placements could be (a
    mail of its own says why); else the answer says it waits for the player's turn. `closed`:
    the deadline has passed since the mail reached the mailbox in time (it counts, and no
    later mail replaces it). `changed`: the mail did something besides its orders (a time zone
    set, a resignation: its notes say what), so "nothing was stored" would be untrue when it
    holds no order. `autopilot`: the autopilot plays the seat when no orders come (on, the
    player resigned or away), not the NMR rule. `complete`: these orders are the last the
    round waited for, and it resolves early, at once (no later mail replaces them)."""
    accepted = [
        {"line": r.line, "text": r.canonical, "left_out": r.left_out, "never_built": r.never_built}
        for r in parsed.lines
        if r.ok
    ]
    rejected = []
    for r in parsed.lines:
        if r.error is not None:
            rejected.append(
                {
                    "line": r.line,
                    "text": r.text,
                    "message": r.error.localized(lang),
                    "column": r.error.column,
                    "candidates": r.error.candidates,
                }
            )
    total = len([x for x in raw_text.replace("\r\n", "\n").split("\n") if x.strip()])
    return {
        "lang": lang_code(lang),
        "replaced": replaced,
        "accepted": accepted,
        "rejected": rejected,
        "ignored": max(0, total - len(clean_lines(raw_text))),
        "round": round_,
        "deadline": deadline,
        "stored": stored,
        # `Ich passe`: the player's orders for the round are none, on purpose (not an NMR).
        "passed": any(r.ok and isinstance(r.item, Pass) for r in parsed.lines),
        # What else the mail did: a message forwarded, an absence or a time zone set (issue 15).
        "notes": notes or [],
        "placed": placed,
        "setup_failed": setup_failed,
        "closed": closed,
        "complete": complete and stored,
        "changed": changed,
        "autopilot": autopilot,
    }


def error(reason: str, lang: str, *, changed_nothing: bool = True) -> dict[str, Any]:
    """A refusal: why, and (usually) that nothing was changed."""
    return {"lang": lang_code(lang), "reason": reason.strip(), "changed_nothing": changed_nothing}


@dataclass(frozen=True)
class CommandLine:
    word: str
    args: str
    description: str
    needs_password: bool


def joined(
    lang: str,
    name: str,
    missing: int,
    kind: dict[str, Any] | None = None,
    paused: bool = False,
    colours: list[str] | None = None,
) -> dict[str, Any]:
    """A player joined: as whom, what game it is (`identity.game_kind`), how many are
    missing; `paused`: the table is full but the GM paused the game (the draw waits);
    `colours`: what the mail's colour wishes came to where a word was no colour of the
    table (`signup.colours_told`)."""
    return {
        "lang": lang_code(lang),
        "name": name,
        "missing": missing,
        "kind": kind,
        "paused": paused,
        "colours": colours or [],
    }


def signup_confirm(lang: str, token: str, colours: list[str] | None = None) -> dict[str, Any]:
    """The request to confirm a sign-up asked for by mail: nothing the requesting mail said
    (name, colours) is repeated to the address, which may not have written it, but for the
    lines on a `Farben:` line's words that are no colour of the table (`colours`,
    `signup.colours_told`: a short word of letters at most is repeated, never a link)."""
    return {"lang": lang_code(lang), "token": token, "colours": colours or []}


def setup_prompt(
    lang: str, nth: int, deadline: str, state: GameState, double: bool = False
) -> dict[str, Any]:
    """Whose turn it is in the setup, with lines to copy: the placement the service would make
    (`automatic_placement`); in a Seafarers game whose coasts facing other islands take a ship
    (`coast`: "must", or "should" where it is advice), also one at such a coast with its ship,
    unless the first is one. A line whose crossing is named by labels alone (at a coast the
    hexes' contents do not tell one crossing) gets the hexes it touches (`…_hexes`).
    `double`: the seat places twice in a row (the turn of the snake), and one mail serves both
    placements: its lines in order, the first still free for the first placement, the next
    still free for the second; lines under `Zweite Siedlung:` (`second`) serve the second
    only."""
    from pbm.notation.names import crossing_text, hex_short_name
    from pbm.rules.scenarios import scenario
    from pbm.rules.setup import automatic_placement

    board = state.board
    ctx = Context(board, lang, state.colours, "setup")

    def hexes(c: int) -> str:
        if crossing_text(board, c, lang) != board.crossing_label(c):
            return ""
        return ", ".join(
            f"{board.hexes[h].label} {hex_short_name(board, h, lang)}"
            for h in board.crossing_hexes[c]
        )

    place = automatic_placement(state)
    coast, coast_line, coast_hexes = "", "", ""
    if state.sea is not None and scenario(state.sea.scenario).ship_coast != "none":
        coast = scenario(state.sea.scenario).ship_coast
        site = None if place.ship else coast_placement(state)
        if site is not None:
            coast_line, coast_hexes = format_item(site, ctx), hexes(site.crossing)
        elif not place.ship:
            coast = ""
    return {
        "lang": lang_code(lang),
        "nth": nth,
        "double": double,
        "second": word("second_settlement", lang),
        "deadline": deadline,
        "sea": state.sea is not None,
        "example": format_item(place, ctx),
        "example_hexes": hexes(place.crossing),
        "coast": coast,
        "coast_example": coast_line,
        "coast_hexes": coast_hexes,
    }


def coast_placement(state: GameState) -> SetupPlacement | None:
    """A Seafarers setup placement at a coast facing other islands, with a ship: the free start
    site there with the most pips (ties: lowest label), its first free sea side; None where
    there is none."""
    from pbm.rules.building import settlement_site_rule
    from pbm.rules.sea_setup import setup_pieces
    from pbm.rules.special import open_coast, setup_area_ok

    sea = state.sea
    if sea is None:
        return None
    board = state.board
    sites = [
        c
        for c in range(len(board.crossing_hexes))
        if open_coast(state, c)
        and settlement_site_rule(state, c) is None
        and setup_area_ok(state, sea, c)
    ]
    for c in sorted(sites, key=lambda x: (-board.crossing_pips[x], x)):
        ships = [e for e, ship in setup_pieces(state, sea, c) if ship]
        if ships:
            return SetupPlacement(c, ships[0], True)
    return None


def _standings(state: GameState, lang: str) -> list[dict[str, Any]]:
    return [
        {
            "colour": vocab.colour_name(colour, lang),
            "hand": hand_text(state, p, lang),
            "vp": state.visible_vp(p),
        }
        for p, colour in enumerate(state.colours)
    ]


def placed(
    state: GameState,
    events: list[ev.Event],
    lang: str,
    *,
    failed: bool = False,
    after: tuple[str, str] | None = None,
    prompt: dict[str, Any] | None = None,
    automatic: bool = False,
    own: bool = False,
) -> dict[str, Any]:
    """A setup placement (or, with `failed`, why the player's placements could not be used),
    with the hands, the points and the board after it. `after`: who places next and until
    when ("" for no deadline), while the setup goes on. `prompt`: with `failed`, the turn's
    prompt (`setup_prompt`): what to place, a line to copy and the deadline. `automatic`:
    pbm chose the placement at the turn's deadline (nothing the player sent could be used):
    its line is marked so, for everyone; `own`: the mail to that player, which says so first."""
    # The placement's line names the settlement and the road; their Built events add nothing.
    # Why a placement ranked before the one placed failed is the player's own business: only
    # the mail to the player whose placements all failed tells it.
    told = [
        e
        for e in events
        if not isinstance(e, ev.Built) and (failed or not isinstance(e, ev.SetupFailed))
    ]
    _ = translator(lang).gettext
    # The mark of a placement pbm chose, which the mail to its player names in its first
    # sentence: under the placement it marks, indented as the lines that belong to an event.
    mark = _("placed automatically")
    note = _("  {mark}: the deadline passed").format(mark=mark) if automatic else ""
    log = []
    for e in in_log_order(told):
        line = describe(e, state, lang)
        if line is None:
            continue
        log.append(line)
        if automatic and isinstance(e, ev.SetupPlaced):
            log.append(note)
    return {
        "lang": lang_code(lang),
        "log": log,
        "own_automatic": automatic and own,
        "automatic_mark": mark,
        "automatic_note": note,
        "failed": failed,
        "players": _standings(state, lang),
        "board_map": board_map(state, lang),
        "next_player": after[0] if after else "",
        "next_deadline": after[1] if after else "",
        **(prompt or {}),
    }


def round_open(
    lang: str,
    order: list[str],
    deadline: str,
    roster: list[RosterRow] | None = None,
    order_form: list[str] | None = None,
    kind: dict[str, Any] | None = None,
    orders_mail: dict[str, str] | None = None,
    observer: bool = False,
) -> dict[str, Any]:
    """Round 1 begins: what game this is (`identity.game_kind`), the build order, the
    deadline, the roster, and the order form of round 1 (`report_data.order_form`): no report
    came before it. `orders_mail`: where to send the orders, and the link that writes them
    (`report_data.orders_mail`). `observer`: the mail of those who watch, who send no orders
    (neither the request for them nor the form)."""
    return {
        "lang": lang_code(lang),
        "order": order,
        "deadline": deadline,
        "roster": roster or [],
        "order_form": [] if observer else order_form or [],
        "kind": kind,
        "orders_mail": None if observer else orders_mail,
        "observer": observer,
    }


def reminder(lang: str, round_: int, deadline: str) -> dict[str, Any]:
    return {"lang": lang_code(lang), "round": round_, "deadline": deadline}


def nmr(
    lang: str,
    round_: int,
    count: int,
    autopilot_after: int,
    late: bool = False,
    early: bool = False,
) -> dict[str, Any]:
    """`left`: NMRs still to come before the autopilot takes the seat (0: it does now).
    `late`: the player's mail for the round came after its deadline (refused as late): the
    notice says so rather than that nothing came. `early`: the game master resolved the round
    before its deadline (the player had not missed it)."""
    return {
        "lang": lang_code(lang),
        "round": round_,
        "count": count,
        "left": max(0, autopilot_after - count),
        "late": late,
        "early": early,
    }


def autopilot(
    lang: str, colour: str, on: bool, round_: int | None = None, deadline: str = ""
) -> dict[str, Any]:
    """The autopilot on or off; off in the rounds, the open round and its deadline (the
    player's next step)."""
    return {
        "lang": lang_code(lang),
        "colour": colour,
        "on": on,
        "round": round_,
        "deadline": deadline,
    }


def new_password(lang: str, colour: str, password: str, now: str) -> dict[str, Any]:
    """A seat's new password (`pbm player password`), to its player: which seat it is for,
    that the old one no longer works, and `now`, what the game waits for (the open round and
    its deadline, or the setup's turn: `table.where_it_stands`). No codebook: the key stays
    as the welcome mail gave it."""
    return {"lang": lang_code(lang), "colour": colour, "password": password, "now": now}


@dataclass(frozen=True)
class DigestRow:
    colour: str
    name: str
    #: "orders", "nmr" or "autopilot".
    sent: str
    vp: int


@dataclass(frozen=True)
class BrokenGame:
    name: str
    reason: str


def digest(
    lang: str,
    round_: int,
    rows: list[DigestRow],
    winner: str,
    deadline: str,
    log: list[str],
    broken: list[BrokenGame] | None = None,
) -> dict[str, Any]:
    """The GM's view of a resolution: who sent orders, the points (hidden ones included), what
    happened, and the next deadline (or the winner); and every game the service stopped after
    an error (`broken`), so the GM hears of it with each digest until it is repaired."""
    return {
        "lang": lang_code(lang),
        "round": round_,
        "rows": rows,
        "winner": winner,
        "deadline": deadline,
        "log": log,
        "broken": broken or [],
    }
