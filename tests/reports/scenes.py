"""Fixed scenes for the report tests: states and events from fixed seeds, fixed secrets.

Everything here is deterministic: the simulated games are seeded, the codebook secrets are
constants, and the cipher text of the sealed notices (whose nonce may be random) is masked by
`normalise_sealed`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any

from pbm.i18n import base
from pbm.notation import Context, vocab
from pbm.notation.format import format_item
from pbm.notation.format import word as format_word
from pbm.notation.mail import parse_mail
from pbm.reports import codebook, notices
from pbm.reports.describe import describe_all
from pbm.reports.guide_text import guide_for_mail
from pbm.reports.render import BOARD_CID, Rendered, render
from pbm.reports.report_data import (
    correction_data,
    preview_data,
    report_data,
    report_log,
)
from pbm.reports.summary import game_summary
from pbm.reports.welcome import welcome_data
from pbm.rules import autopilot, resolve_round
from pbm.rules import events as ev
from pbm.rules.beginner import beginner_game
from pbm.rules.orders import TradeOffer
from pbm.rules.setup import automatic_placement, place_setup_automatic
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings, new_game
from pbm.service import texts
from pbm.service.answers import ORDER_HELP
from pbm.service.commands import command_lines, player_guide

GAME = "alpha"
SEED = 3
#: The round of seed 3 whose resolution has a 7 with a discard and a steal, a card purchase,
#: builds done and failed (one for want of cards), a maritime trade; the scene adds a domestic
#: trade and a failed one. (Round 19 before the dice were sealed: the rolls changed.)
MID_ROUND = 12
#: The round the reminder and NMR notices name.
NOTICE_ROUND = 19
#: One fixed codebook secret per seat ("00"*32, "01"*32, …).
SECRETS = {seat: f"{seat:02x}" * 32 for seat in range(6)}
#: The game's seal nonce (a real game's is 128 random bits): the dice seal is SHA-256 of
#: `SEED:NONCE`, and the game's end reveals both.
NONCE = "5ea1" * 8
DEADLINE = datetime(2026, 1, 3, 12, 0)
PASSWORD = "blau-kiefer-42"
#: The game's address (`[service] address`): where the reports' "Write orders" link writes to.
ADDRESS = "pbm@pbm.test"
LANGS = ("de", "en")

#: `game:seat:number:` then the URL-safe base64 of nonce and ciphertext.
SEALED = re.compile(r"\b([A-Za-z0-9_-]+:\d+:\d+:)([A-Za-z0-9_=-]{20,})")


def normalise_sealed(text: str) -> str:
    """Sealed notices are cipher text: keep their visible prefix, mask the rest."""
    return SEALED.sub(r"\1<sealed>", text)


@cache
def _game(seed: int) -> tuple[tuple[GameState, tuple[ev.Event, ...]], ...]:
    return tuple((st, tuple(evs)) for st, evs in play_game(Settings.for_players(4), seed))


def state_before_round(seed: int, round_: int) -> GameState:
    for st, _ in _game(seed):
        if st.phase == Phase.ROUNDS and st.round == round_:
            return st
    raise AssertionError(f"seed {seed} never reaches round {round_}")


def final(seed: int = SEED) -> tuple[GameState, list[ev.Event]]:
    st, evs = _game(seed)[-1]
    assert st.phase == Phase.ENDED and st.winner >= 0, "the simulated game must end"
    return st, list(evs)


@cache
def midgame() -> tuple[GameState, GameState, tuple[ev.Event, ...]]:
    """Round 19 of seed 3 with the autopilot's orders, plus a domestic trade rot ↔ blau
    (1 Holz for 1 Lehm) and an offer gelb → rot that rot does not confirm."""
    before = state_before_round(SEED, MID_ROUND)
    orders = {p: autopilot.turn_orders(before, p) for p in range(4)}
    one_h, one_l = (1, 0, 0, 0, 0), (0, 1, 0, 0, 0)
    orders[0] = dataclasses.replace(orders[0], trades=(TradeOffer(1, one_h, one_l),))
    orders[1] = dataclasses.replace(orders[1], trades=(TradeOffer(0, one_l, one_h),))
    orders[2] = dataclasses.replace(orders[2], trades=(TradeOffer(0, one_l, one_h),))
    after, events = resolve_round(before, orders)
    return before, after, tuple(events)


MID_KINDS = {
    ev.CardBought,
    ev.Discarded,
    ev.Stole,
    ev.RobberMoved,
    ev.TradeDone,
    ev.TradeFailed,
    ev.Built,
    ev.OrderFailed,
    ev.MaritimeTraded,
    ev.Produced,
}


def next_line(lang: str, round_: int) -> str:
    return texts.t(lang, "next", round=round_, deadline=DEADLINE.strftime("%Y-%m-%d %H:%M UTC"))


def round_report(lang: str) -> tuple[str, Rendered]:
    before, after, events = midgame()
    subject = texts.t(lang, "report_subject", game=GAME, round=before.round)
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        names=dict(enumerate(NAMES)),
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def end_report(lang: str) -> tuple[str, Rendered]:
    st, events = final()
    subject = texts.t(lang, "end_subject", game=GAME, round=st.round)
    summary = game_summary(((s.round, evs) for s, evs in _game(SEED)), st, lang)
    data = report_data(
        st,
        events,
        lang,
        GAME,
        SECRETS,
        "",
        BOARD_CID,
        summary,
        names=dict(enumerate(NAMES)),
        nonce=NONCE,
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def correction_report(lang: str) -> tuple[str, Rendered]:
    """The report of round 12 as a correction: the first resolution (sent, then rolled back)
    lacked the domestic trades; the GM's reason and the changed lines come first. The rolls
    are the same in both (they come from the seed alone)."""
    before, after, events = midgame()
    first = {p: autopilot.turn_orders(before, p) for p in range(4)}
    _, first_events = resolve_round(before, first)
    report = texts.t(lang, "report_subject", game=GAME, round=before.round)
    subject = texts.t(lang, "correction_subject", subject=report)
    why = "Rot's and Blau's trade mails were quarantined by an error; they count now."
    names = dict(enumerate(NAMES))
    amends = correction_data(
        why,
        report_log(first_events, after, lang, SECRETS, names=names),
        report_log(list(events), after, lang, SECRETS, names=names),
    )
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        correction=amends,
        names=names,
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def fresh_state(seed: int = SEED, players: int = 4, size: str | None = None) -> GameState:
    return new_game(Settings.for_players(players, size), seed)


#: The table of the scenes: names and addresses by seat (seat 3 gave no name).
NAMES = ("Anna", "Bernd", "Carol", "")
ADDRESSES = ("anna@web.test", "bernd@firma.test", "carol@gmail.test", "dieter@icloud.test")


def roster(st: GameState, lang: str, addresses: bool = True) -> list[notices.RosterRow]:
    return [
        notices.RosterRow(vocab.colour_name(c, lang), NAMES[p], ADDRESSES[p] if addresses else "")
        for p, c in enumerate(st.colours)
    ]


def welcome(lang: str, seat: int = 1) -> tuple[str, Rendered]:
    st = fresh_state()
    colour = vocab.colour_name(st.colours[seat], lang)
    subject = texts.t(lang, "welcome_subject", game=GAME, colour=colour)
    return subject, render(
        "welcome",
        subject,
        welcome_data(
            st, GAME, colour, seat, PASSWORD, SECRETS[seat], lang, roster(st, lang), nonce=NONCE
        ),
    )


def welcome_replacement(lang: str, seat: int = 2) -> tuple[str, Rendered]:
    """The welcome mail of a player who takes over a seat in round 19: hand, board, deadline."""
    _, st, _ = midgame()
    colour = vocab.colour_name(st.colours[seat], lang)
    subject = texts.t(lang, "welcome_subject", game=GAME, colour=colour)
    data = welcome_data(
        st,
        GAME,
        colour,
        seat,
        PASSWORD,
        SECRETS[seat],
        lang,
        roster(st, lang),
        DEADLINE_TEXT,
        nonce=NONCE,
    )
    return subject, render("welcome", subject, data)


def players(lang: str) -> tuple[str, Rendered]:
    st = fresh_state()
    subject = texts.t(lang, "players_subject", game=GAME)
    return subject, _render("players", subject, notices.players_(lang, roster(st, lang), False))


def players_anonymous(lang: str) -> tuple[str, Rendered]:
    st = fresh_state()
    subject = texts.t(lang, "players_subject", game=GAME)
    rows = roster(st, lang, addresses=False)
    return subject, _render("players", subject, notices.players_(lang, rows, True))


def preview(lang: str) -> tuple[str, Rendered]:
    subject = f"[{GAME}] " + ("Island preview" if lang == "en" else "Inselvorschau")
    return subject, render("preview", subject, preview_data(fresh_state(), lang, GAME, BOARD_CID))


def preview_beginner(lang: str) -> tuple[str, Rendered]:
    """The preview of a game in the beginner layout: the pieces placed, the starting cards."""
    subject = f"[{GAME}] " + ("Island preview" if lang == "en" else "Inselvorschau")
    st = beginner_game(Settings.for_players(4), SEED)
    return subject, render("preview", subject, preview_data(st, lang, GAME, BOARD_CID))


ORDERS = {
    "de": "Kennwort: {pw}\nRunde: 20\nRäuber E2, raube weiß\nAbwurf: G G W\n"
    "Handel blau: gebe 1H, bekomme 1L\nSiedlung D2 E1 E2\nStraße Mondschein\n"
    "Entwicklungskarte\n\n-- \nGruß, Bernd\n",
    "en": "Password: {pw}\nRound: 20\nRobber E2, steal white\nDiscard: G G W\n"
    "Trade blue: give 1L, get 1B\nSettlement D2 E1 E2\nRoad moonshine\n"
    "Buy card\n\n-- \nCheers, Bernd\n",
}


DEADLINE_TEXT = DEADLINE.strftime("%Y-%m-%d %H:%M UTC")


def _render(kind: str, subject: str, data: dict[str, object]) -> Rendered:
    return render(kind, subject, {"game": GAME, **data})


def ack(lang: str) -> tuple[str, Rendered]:
    """The acknowledgement of an order mail with a rejected line, replacing earlier orders."""
    _, after, _ = midgame()
    body = ORDERS[base(lang)].format(pw=PASSWORD)
    parsed = parse_mail(body, Context(after.board, lang, after.colours, "round"))
    subject = texts.t(lang, "ack_subject", game=GAME, round=after.round)
    return subject, _render(
        "ack",
        subject,
        notices.ack(parsed, body, lang, replaced=True, round_=after.round, deadline=DEADLINE_TEXT),
    )


SETUP_ORDERS = {
    "de": "Kennwort: {pw}\nSiedlung {place}\nSiedlung Z9 Z8 Z7 Straße Z9 Z8\n",
    "en": "Password: {pw}\nSettlement {place}\nSettlement Z9 Z8 Z7 Road Z9 Z8\n",
}


def setup_ack(lang: str) -> tuple[str, Rendered]:
    """The acknowledgement of ranked setup placements, one of them naming no crossing."""
    st = fresh_state()
    ctx = Context(st.board, lang, st.colours, "setup")
    place = format_item(automatic_placement(st), ctx).split(" ", 1)[1]
    body = SETUP_ORDERS[base(lang)].format(pw=PASSWORD, place=place)
    subject = texts.t(lang, "setup_ack_subject", game=GAME)
    return subject, _render(
        "ack",
        subject,
        notices.ack(
            parse_mail(body, ctx), body, lang, replaced=False, round_=None, deadline=DEADLINE_TEXT
        ),
    )


def error(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "error_subject", game=GAME)
    reason = (
        "Diese Züge sind für Runde 7, offen ist Runde 8."
        if lang == "de"
        else "These orders are for round 7; round 8 is open."
    )
    return subject, _render("error", subject, notices.error(reason, lang))


def help_mail(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "help_subject", game=GAME)
    return subject, _render(
        "help",
        subject,
        notices.help_(
            lang, command_lines(lang), ORDER_HELP[lang], guide_for_mail(player_guide(lang))
        ),
    )


def joined(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "joined_subject", game=GAME)
    return subject, _render("joined", subject, notices.joined(lang, "Bernd", 2))


def signup_confirm(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "signup_confirm_subject", game=GAME)
    return subject, _render("signup_confirm", subject, notices.signup_confirm(lang, "3f9a0c1d2e4b"))


def setup_prompt(lang: str) -> tuple[str, Rendered]:
    st = fresh_state()
    example = format_item(automatic_placement(st), Context(st.board, lang, st.colours, "setup"))
    subject = texts.t(lang, "setup_subject", game=GAME)
    return subject, _render(
        "setup_prompt", subject, notices.setup_prompt(lang, 1, DEADLINE_TEXT, example)
    )


def placed(lang: str) -> tuple[str, Rendered]:
    """The first automatic placement of the setup."""
    st = fresh_state()
    after, events = place_setup_automatic(st)
    subject = texts.t(lang, "placed_subject", game=GAME)
    return subject, _render("placed", subject, notices.placed(after, events, lang))


def round_open(lang: str) -> tuple[str, Rendered]:
    st = state_before_round(SEED, 1)
    order = [vocab.colour_name(st.colours[p], lang) for p in st.build_order()]
    subject = texts.t(lang, "round_open_subject", game=GAME)
    return subject, _render(
        "round_open", subject, notices.round_open(lang, order, DEADLINE_TEXT, roster(st, lang))
    )


#: Time zones players of the scenes set (issue 15), by canonical colour: two share one, one is
#: a day ahead of UTC at the deadline.
ZONES = (("gelb", "Europe/Berlin"), ("rot", "Europe/Berlin"), ("weiss", "Pacific/Auckland"))


def zones_deadline(lang: str, room: int) -> str:
    """The deadline of a mail to everyone with the players' zones (`table.shared_when`)."""
    from pbm.service.table import shared_when

    return shared_when(DEADLINE, [(vocab.colour_name(c, lang), z) for c, z in ZONES], room)


def round_open_zones(lang: str) -> tuple[str, Rendered]:
    """The round-1 mail when players set time zones: one zone fits the line, two do not."""
    st = state_before_round(SEED, 1)
    order = [vocab.colour_name(st.colours[p], lang) for p in st.build_order()]
    subject = texts.t(lang, "round_open_subject", game=GAME)
    return subject, _render(
        "round_open",
        subject,
        notices.round_open(lang, order, zones_deadline(lang, 60), roster(st, lang)),
    )


def gm_deadline_zones(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "gm_deadline_subject", game=GAME)
    data = notices.gm_notice(lang, "deadline", deadline=zones_deadline(lang, 56), round_=MID_ROUND)
    return subject, _render("gm_notice", subject, data)


def gm_resumed_zone(lang: str) -> tuple[str, Rendered]:
    from pbm.service.table import shared_when

    subject = texts.t(lang, "gm_resumed_subject", game=GAME)
    deadline = shared_when(DEADLINE, [(vocab.colour_name("gelb", lang), "Europe/Berlin")], 60)
    return subject, _render(
        "gm_notice", subject, notices.gm_notice(lang, "resumed", deadline=deadline)
    )


def reminder(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "reminder_subject", game=GAME, round=NOTICE_ROUND)
    return subject, _render(
        "reminder", subject, notices.reminder(lang, NOTICE_ROUND, DEADLINE_TEXT)
    )


def nmr(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "nmr_subject", game=GAME, round=NOTICE_ROUND)
    return subject, _render("nmr", subject, notices.nmr(lang, NOTICE_ROUND, 1, 3))


def nmr_autopilot(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "nmr_subject", game=GAME, round=NOTICE_ROUND)
    return subject, _render("nmr", subject, notices.nmr(lang, NOTICE_ROUND, 3, 3))


def autopilot_on(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "autopilot_on_subject", game=GAME)
    return subject, _render(
        "autopilot", subject, notices.autopilot(lang, vocab.colour_name("blue", lang), True)
    )


def autopilot_off(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "autopilot_off_subject", game=GAME)
    return subject, _render(
        "autopilot", subject, notices.autopilot(lang, vocab.colour_name("blue", lang), False)
    )


def digest(lang: str) -> tuple[str, Rendered]:
    before, after, events = midgame()
    sent = ["orders", "nmr", "autopilot", "orders"]
    rows = [
        notices.DigestRow(vocab.colour_name(c, lang), f"Player {p + 1}", sent[p], after.vp(p))
        for p, c in enumerate(after.colours)
    ]
    subject = texts.t(lang, "digest_subject", game=GAME, round=before.round)
    return subject, _render(
        "digest",
        subject,
        notices.digest(
            lang, before.round, rows, "", DEADLINE_TEXT, describe_all(list(events), after, lang)
        ),
    )


def _gm_notice(event: str, **values: Any) -> Callable[[str], tuple[str, Rendered]]:
    def scene(lang: str) -> tuple[str, Rendered]:
        subject = texts.t(lang, f"gm_{event}_subject", game=GAME)
        extra = dict(values)
        named = extra.pop("named", "")
        if "colour" in extra:
            extra["colour"] = vocab.colour_name(str(extra["colour"]), lang)
            if named:  # the seat's label, "gelb (Carol)"
                extra["colour"] = f"{extra['colour']} ({named})"
        if event == "ended":
            extra["standing"] = texts.public_summary(midgame()[1], lang)
            # The game is over: the dice seed and the seal nonce are revealed (issue 14).
            extra["seed"], extra["nonce"] = SEED, NONCE
        return subject, _render("gm_notice", subject, notices.gm_notice(lang, event, **extra))

    return scene


PRESS_TEXT = "Hallo Carol,\n\nich gebe dir 2 Holz für 1 Erz. Einverstanden?\n\nAnna"


def press(lang: str) -> tuple[str, Rendered]:
    author = f"{vocab.colour_name('rot', lang)} (Anna)"
    subject = texts.t(lang, "press_subject", game=GAME, author=author)
    reply = f"{format_word('message', lang)} {vocab.colour_name('rot', lang)}: …"
    data = notices.press(lang, author, PRESS_TEXT, to_all=False, reply=reply)
    return subject, _render("press", subject, data)


def press_anonymous_all(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "press_all_subject", game=GAME, author=texts.t(lang, "press_anonymous"))
    data = notices.press(lang, "", PRESS_TEXT, to_all=True, reply="")
    return subject, _render("press", subject, data)


def press_from_gm(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "press_from_gm_subject", game=GAME)
    reply = f"{format_word('to_gm', lang)}: …"
    data = notices.press(lang, "", GM_TEXT, to_all=True, reply=reply, from_gm=True)
    return subject, _render("press", subject, data)


def press_gm(lang: str) -> tuple[str, Rendered]:
    author = f"{vocab.colour_name('gelb', lang)} (Carol)"
    subject = texts.t(lang, "press_gm_subject", game=GAME, author=author)
    data = notices.press_gm(lang, f"{author} <carol@gmail.test>", PRESS_TEXT, GAME, "gelb")
    return subject, _render("press_gm", subject, data)


GM_TEXT = "Wegen der Feiertage ist die nächste Frist länger.\n\nFrohes Fest!"


@cache
def sea_gold_round() -> tuple[GameState, tuple[ev.Event, ...]]:
    """A New Shores round (3 players, seed 1, after the setup) whose rolls hit the gold
    rivers: seat 0's city on one takes Erz, Getreide by its `Gold:` line (left to right,
    again from the start), seat 1's settlement on the other the resource it holds fewest of."""
    from helpers import Dice

    from pbm.rules.board import Terrain
    from pbm.rules.orders import TurnOrders
    from pbm.rules.resources import ERZ, GETREIDE

    st = next(
        s
        for s, _ in play_game(Settings.for_scenario("neue-ufer", 3), 1, max_rounds=0)
        if s.phase == Phase.ROUNDS
    )
    b = st.board
    gold = [h for h in b.hexes if h.terrain == Terrain.GOLD]
    for seat, hex_, level in ((0, gold[0], 2), (1, gold[1], 1)):
        c = next(x for x in b.hex_crossings[hex_.id] if b.crossing_land[x] and st.owner[x] < 0)
        st.owner[c], st.level[c] = seat, level
    st.rebuild_indexes()
    totals = [h.number for h in (gold[0], gold[1], gold[0])]
    rolls = [(min(6, t - 1), t - min(6, t - 1)) for t in totals if t is not None]
    orders = {0: TurnOrders(gold=(ERZ, GETREIDE)), 1: TurnOrders(), 2: TurnOrders()}
    after, events = resolve_round(st, orders, Dice(rolls))
    return after, tuple(events)


def report_sea_gold(lang: str) -> tuple[str, Rendered]:
    """The report of a Seafarers round: the compact map, its legend, gold cards named."""
    after, events = sea_gold_round()
    subject = texts.t(lang, "report_subject", game=GAME, round=after.round - 1)
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        names=dict(enumerate(NAMES)),
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def sea_pirate_round() -> tuple[GameState, tuple[ev.Event, ...]]:
    """A New Shores round (3 players, seed 1, after the setup): seat 0 rolls a 7 and sends the
    pirate to a sea hex where seats 1 and 2 have ships; it takes a card from each."""
    from helpers import Dice

    from pbm.rules.board import Terrain
    from pbm.rules.orders import RobberOrder, TurnOrders
    from pbm.rules.pirate import hex_sides

    st = next(
        s
        for s, _ in play_game(Settings.for_scenario("neue-ufer", 3), 1, max_rounds=0)
        if s.phase == Phase.ROUNDS
    )
    sea = st.sea
    assert sea is not None
    h = next(
        x.id
        for x in st.board.hexes
        if x.terrain == Terrain.SEA
        and x.id not in st.board.frame
        and x.id != sea.pirate
        and all(sea.ship[e] < 0 and st.road[e] < 0 for e in hex_sides(st, x.id))
    )
    for e, seat in zip(hex_sides(st, h), (1, 2), strict=False):
        sea.ship[e], sea.built[e] = seat, 0
    sea.rebuild(3)
    st.hands = [[1, 1, 0, 0, 0], [2, 0, 1, 0, 0], [0, 0, 0, 2, 1]]
    quiet = next(
        t
        for t in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
        if all(
            all(st.owner[c] < 0 for c in st.board.hex_crossings[x])
            for x in st.board.number_hexes.get(t, ())
        )
    )
    rolls = [(3, 4)] + [(min(6, quiet - 1), quiet - min(6, quiet - 1))] * 2
    order = st.build_order()
    assert order[0] == 0
    orders = {0: TurnOrders(robber=RobberOrder(h, (), True)), 1: TurnOrders(), 2: TurnOrders()}
    after, events = resolve_round(st, orders, Dice(rolls))
    return after, tuple(events)


def report_sea_pirate(lang: str) -> tuple[str, Rendered]:
    """The report of a Seafarers round where the pirate moves and robs two ship owners."""
    after, events = sea_pirate_round()
    subject = texts.t(lang, "report_subject", game=GAME, round=after.round - 1)
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        names=dict(enumerate(NAMES)),
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


@cache
def kron_round() -> tuple[GameState, tuple[ev.Event, ...]]:
    """A Kronlande round (large island, seed 3, four players, pieces laid by hand): rot builds a
    Bäckerei, makes bread paying Fisch for the Getreide it lacks, raises a Burg (the title
    Baumeister) and a Residenz and holds a Festmahl for Stein; blau and gelb trade Werkzeug for
    Stein, blau plays a Bauhütte, gelb a Hafenprivileg and trades 2:1 with the bank; weiß's two
    Burgen fail (no city there; cards missing). The rolls hit a quarry and a fishing ground."""
    from helpers import Dice
    from kron_fixtures import free_crossing, kron_game, set_hand, settle_at

    from pbm.rules.kron import BAECKEREI
    from pbm.rules.orders import (
        BuildersHut,
        Castle,
        Feast,
        HarbourPrivilege,
        Make,
        MaritimeTrade,
        Residence,
        TurnOrders,
        Workshop,
    )
    from pbm.rules.resources import BROT, HOLZ, STEIN, WOLLE

    s = kron_game(players=4, size="large", seed=SEED)
    b = s.board
    quarry, fish = b.quarries[0], b.fishing_grounds[0]
    land = [h.id for h in b.hexes if h.is_land and h.id != quarry]
    city = settle_at(s, 0, free_crossing(s, quarry), level=2)
    settle_at(s, 1, free_crossing(s, fish), level=1)
    burg = settle_at(s, 0, free_crossing(s, land[0]), level=3)
    settle_at(s, 2, free_crossing(s, land[-1]), level=2)
    weiss_city = settle_at(s, 3, free_crossing(s, land[-5]), level=2)
    weiss_settlement = settle_at(s, 3, free_crossing(s, land[-9]), level=1)
    set_hand(s, 0, Holz=2, Lehm=1, Stein=6, Fisch=2, Werkzeug=2, Stoff=1, Brot=2)
    set_hand(s, 1, Wolle=2, Werkzeug=1, Stein=1)
    set_hand(s, 2, Holz=3, Stein=2, Brot=1)
    set_hand(s, 3, Stein=1, Erz=2)
    s.cards[0].append(("feast", 0))
    s.cards[1].append(("builders_hut", 0))
    s.cards[2].append(("harbour_privilege", 0))
    tools, stone = (0,) * 7 + (1, 0, 0), (0,) * 5 + (1, 0, 0, 0, 0)
    orders = {
        0: TurnOrders(
            builds=(
                Workshop(BAECKEREI, city),
                Make(BROT, 1),
                Castle(city),
                Residence(burg),
                Feast(STEIN),
            )
        ),
        1: TurnOrders(trades=(TradeOffer(2, tools, stone),), builds=(BuildersHut(),)),
        2: TurnOrders(
            trades=(TradeOffer(1, stone, tools),),
            builds=(HarbourPrivilege(), MaritimeTrade(HOLZ, 2, WOLLE, 1)),
        ),
        3: TurnOrders(builds=(Castle(weiss_settlement), Castle(weiss_city))),
    }
    totals = [b.hexes[h].number or 0 for h in (quarry, fish, quarry, fish)]
    after, events = resolve_round(
        s, orders, Dice([(min(6, t - 1), t - min(6, t - 1)) for t in totals])
    )
    return after, tuple(events)


def report_kron(lang: str) -> tuple[str, Rendered]:
    """The report of a Kronlande round: workshops, goods, Burg, Residenz, the project cards,
    Fisch for Getreide, hands with goods, the map's marks and legend."""
    after, events = kron_round()
    subject = texts.t(lang, "report_subject", game=GAME, round=after.round - 1)
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        names=dict(enumerate(NAMES)),
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def sea_trade_line_round() -> tuple[GameState, tuple[ev.Event, ...]]:
    """A round of The Great Crossing (4 players, seed 1): red's third ship reaches white's road
    at F5 F6 G6 and closes a trade line to white's settlement inland (+1 for red, 3 ships
    against 2 roads); then white builds a settlement where its road meets the ship, which ends
    red's line there: the line to the inland settlement is lost, the one to the new
    settlement red's (3 ships against none)."""
    from helpers import Dice, crossing, path, road, settle

    from pbm.rules.orders import Settlement, Ship, TurnOrders
    from pbm.rules.ships import place_ship

    st = new_game(Settings.for_scenario("ueberfahrt", 4), 1)
    st.phase, st.round, st.setup_step = Phase.ROUNDS, 1, 8
    assert st.sea is not None
    settle(st, 0, "D5 E5 E6")
    settle(st, 0, "C3 C4 D3")
    settle(st, 3, "G6 G7 H6")
    settle(st, 3, "H7 H8 I8")
    road(st, 3, "G6 G7")
    road(st, 3, "F6 G6")
    for labels in ("E5 E6", "E6 F5"):
        place_ship(st, st.sea, 0, path(st, labels), [], free=True)
    st.hands = [[1, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 0]]
    orders = {
        0: TurnOrders(builds=(Ship(path(st, "F5 F6")),)),
        1: TurnOrders(),
        2: TurnOrders(),
        3: TurnOrders(builds=(Settlement(crossing(st, "F5 F6 G6")),)),
    }
    after, events = resolve_round(st, orders, Dice([(1, 1)] * 4))
    return after, tuple(events)


def report_sea_trade_line(lang: str) -> tuple[str, Rendered]:
    """The report of a Great Crossing round: a trade line made, then lost and made again."""
    after, events = sea_trade_line_round()
    subject = texts.t(lang, "report_subject", game=GAME, round=after.round - 1)
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        names=dict(enumerate(NAMES)),
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def sea_fog_round() -> tuple[GameState, tuple[ev.Event, ...]]:
    """An Oceania round (3 players, seed 1): red's ship line from its settlement on the main
    island's east coast reaches the fog twice: the first ship finds sea (C8), the second land
    (B8), which pays red a card at once."""
    from helpers import Dice, path, settle

    from pbm.rules.orders import Ship, TurnOrders
    from pbm.rules.ships import place_ship

    st = new_game(Settings.for_scenario("ozeanien", 3), 1)
    st.phase, st.round, st.setup_step = Phase.ROUNDS, 2, 6
    assert st.sea is not None
    settle(st, 0, "B5 C5 C6")
    settle(st, 1, "D3 D4 E4")
    settle(st, 2, "F3 G3 G4")
    for labels in ("B5 C6", "B6 C6", "B6 C7"):
        place_ship(st, st.sea, 0, path(st, labels), [], free=True)
    st.sea.built = [min(b, 1) for b in st.sea.built]
    st.hands = [[2, 0, 2, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    orders = {
        0: TurnOrders(builds=(Ship(path(st, "B7 C7")), Ship(path(st, "B7 C8")))),
        1: TurnOrders(),
        2: TurnOrders(),
    }
    after, events = resolve_round(st, orders, Dice([(1, 1)] * 3))
    return after, tuple(events)


def report_sea_fog(lang: str) -> tuple[str, Rendered]:
    """The report of an Oceania round: two discoveries (sea, then land paying a card) and the
    map with the fog left (`?`)."""
    after, events = sea_fog_round()
    subject = texts.t(lang, "report_subject", game=GAME, round=after.round - 1)
    data = report_data(
        after,
        list(events),
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        names=dict(enumerate(NAMES)),
        address=ADDRESS,
    )
    return subject, render("report", subject, data)


def preview_kron(lang: str) -> tuple[str, Rendered]:
    """The island preview of a Kronlande game: Stein and Fisch among the yields, quarries and
    fishing grounds on the map."""
    subject = f"[{GAME}] " + ("Island preview" if lang == "en" else "Inselvorschau")
    st = new_game(Settings.for_kronlande(4, "large"), SEED)
    return subject, render("preview", subject, preview_data(st, lang, GAME, BOARD_CID))


SCENES = {
    "round_open_zones": round_open_zones,
    "gm_deadline_zones": gm_deadline_zones,
    "gm_resumed_zone": gm_resumed_zone,
    "gm_paused": _gm_notice("paused"),
    "gm_resumed": _gm_notice("resumed", deadline=DEADLINE_TEXT),
    "gm_deadline": _gm_notice("deadline", deadline=DEADLINE_TEXT, round_=MID_ROUND),
    "gm_replaced": _gm_notice("replaced", colour="gelb", name="Dora"),
    "gm_replaced_out": _gm_notice("replaced_out", colour="gelb"),
    "gm_ended": _gm_notice("ended", text="Zwei Spieler sind ausgestiegen."),
    "gm_announce": _gm_notice("announce", text=GM_TEXT),
    "gm_autopilot_on": _gm_notice("autopilot", colour="gelb", named="Carol", on=True),
    "gm_autopilot_off": _gm_notice("autopilot", colour="gelb", named="Carol", on=False),
    "gm_away": _gm_notice("away", name="gelb (Carol)", until="2026-12-24", deadline=DEADLINE_TEXT),
    "gm_away_waits": _gm_notice(
        "away", name="gelb (Carol)", until="2026-12-24", waits=True, deadline=DEADLINE_TEXT
    ),
    "press": press,
    "press_anonymous_all": press_anonymous_all,
    "press_from_gm": press_from_gm,
    "press_gm": press_gm,
    "report_round": round_report,
    "report_end": end_report,
    "report_correction": correction_report,
    "report_sea_gold": report_sea_gold,
    "report_sea_pirate": report_sea_pirate,
    "report_sea_fog": report_sea_fog,
    "report_kron": report_kron,
    "preview_kron": preview_kron,
    "report_sea_trade_line": report_sea_trade_line,
    "welcome": welcome,
    "welcome_replacement": welcome_replacement,
    "players": players,
    "players_anonymous": players_anonymous,
    "preview": preview,
    "preview_beginner": preview_beginner,
    "ack": ack,
    "ack_setup": setup_ack,
    "error": error,
    "help": help_mail,
    "joined": joined,
    "signup_confirm": signup_confirm,
    "setup_prompt": setup_prompt,
    "placed": placed,
    "round_open": round_open,
    "reminder": reminder,
    "nmr": nmr,
    "nmr_autopilot": nmr_autopilot,
    "autopilot_on": autopilot_on,
    "autopilot_off": autopilot_off,
    "digest": digest,
}


def card_names() -> dict[str, str]:
    """Every spelling of every card type → its internal name."""
    out = {name: card for lang in LANGS for card, name in codebook.CARD_NAMES[lang].items()}
    out.update({card: card for card in codebook.CARD_NAMES["de"]})
    return out
