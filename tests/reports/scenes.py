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

from pbm.i18n import base, variant
from pbm.notation import Context, vocab
from pbm.notation.checks import check_setup_receipt
from pbm.notation.format import format_item
from pbm.notation.format import word as format_word
from pbm.notation.mail import parse_mail
from pbm.reports import codebook, notices
from pbm.reports.describe import describe_all
from pbm.reports.help import help_data, status_text
from pbm.reports.identity import game_kind
from pbm.reports.order_form import GameKind
from pbm.reports.render import BOARD_CID, Rendered, render
from pbm.reports.report_data import (
    correction_data,
    order_form,
    orders_mail,
    preview_data,
    report_data,
    report_log,
)
from pbm.reports.summary import game_summary, name_columns
from pbm.reports.welcome import colour_wishes, welcome_data
from pbm.rules import autopilot, resolve_round
from pbm.rules import events as ev
from pbm.rules.beginner import beginner_game
from pbm.rules.building import settlement_site_rule
from pbm.rules.orders import SetupPlacement, TradeOffer
from pbm.rules.sea_events import SpecialVP
from pbm.rules.setup import automatic_placement, place_setup, place_setup_automatic
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings, new_game
from pbm.service import texts
from pbm.service.mail_commands import command_lines

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
#: Danish (issue 29): a golden of every scene, as German and English have (`DANISH_SCENES`,
#: filled in below `SCENES`).
DANISH = "da"

#: What the scenes' players and GM write themselves (free text pbm passes on), as they would
#: write it in a Danish game; German and English games keep the German texts.
DANISH_INPUT = {
    "Wegen der Feiertage ist die nächste Frist länger.\n\nFrohes Fest!": (
        "På grund af helligdagene er den næste frist længere.\n\nGlædelig jul!"
    ),
    "Wegen der Feiertage.": "På grund af helligdagene.",
    "Zwei Spieler sind ausgestiegen.": "To spillere er stået af.",
    "Hallo Carol,\n\nich gebe dir 2 Holz für 1 Erz. Einverstanden?\n\nAnna": (
        "Hej Carol,\n\njeg giver dig 2 træ for 1 malm. Er det en aftale?\n\nAnna"
    ),
    "gelb (Carol)": "gul (Carol)",
    "Bitte alle warten": "Vent venligst alle sammen",
    "Züge Runde 4": "Ordrer runde 4",
    "Rot's and Blau's trade mails were quarantined by an error; they count now.": (
        "Røds og blås handelsmails blev sat i karantæne ved en fejl; de tæller nu."
    ),
    "Player": "Spiller",
}


def written(text: str, lang: str) -> str:
    """`text` as a player or the GM of a game in `lang` writes it (`DANISH_INPUT`)."""
    return DANISH_INPUT.get(text, text) if base(lang) == DANISH else text


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


#: A round of seed 3 in which Carol's seat (gelb, 2) builds, buys a card, plays a knight and
#: moves the robber: the round of the report whose seat the autopilot played.
AUTOPILOT_ROUND = 10


def autopilot_report(lang: str) -> tuple[str, Rendered]:
    """Round 10 of seed 3 with the autopilot's orders, Carol's seat (gelb, 2) played by the
    autopilot (Carol is away): what its orders did is marked, its failed lines left out."""
    before = state_before_round(SEED, AUTOPILOT_ROUND)
    after, events = resolve_round(before, {p: autopilot.turn_orders(before, p) for p in range(4)})
    subject = texts.t(lang, "report_subject", game=GAME, round=before.round)
    data = report_data(
        after,
        events,
        lang,
        GAME,
        SECRETS,
        next_line(lang, after.round),
        BOARD_CID,
        quiet=frozenset({2}),
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
    subject = texts.t(lang, "correction_subject", game=GAME, round=before.round)
    why = written(
        "Rot's and Blau's trade mails were quarantined by an error; they count now.", lang
    )
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


def kind(st: GameState, lang: str, layout: str = "variable", edition: str = "") -> dict[str, Any]:
    """What game the scene's state is (`identity.game_kind`): a game in the modern edition's
    words where the scene renders `de@modern` (or `edition` says so)."""
    edition = edition or ("modern" if lang.endswith("@modern") else "klassisch")
    return game_kind(st.settings, lang, edition=edition, layout=layout, state=st)


#: The games the mails that introduce a game are shown in (issue 27): a Seafarers scenario with
#: fog (Oceania, 3 players), Kronlande (the large island), the beginner layout and the modern
#: edition (its words in German, the unlimited bank); the base game is the scenes' own.
def sea_fog_state() -> GameState:
    return new_game(Settings.for_scenario("ozeanien", 3), SEED)


def kron_state() -> GameState:
    return new_game(Settings.for_kronlande(4, "large"), SEED)


def beginner_state() -> GameState:
    return beginner_game(Settings.for_players(4), SEED)


def modern_state() -> GameState:
    return new_game(Settings.for_players(4, bank="unlimited"), SEED)


#: Game kinds by scene suffix: the state, its layout and edition (`Game.layout`,
#: `Game.edition`); a game's mails are in `variant(lang, edition)`: `de@modern` for a German
#: game of the modern edition, English has one vocabulary.
KINDS: dict[str, tuple[Callable[[], GameState], str, str]] = {
    "sea_fog": (sea_fog_state, "variable", "klassisch"),
    "kron": (kron_state, "variable", "klassisch"),
    "beginner": (beginner_state, "beginner", "klassisch"),
    "modern": (modern_state, "variable", "modern"),
}


def _kind_locale(lang: str, edition: str) -> str:
    """The catalogue a scene of a game kind renders in: `de@modern` stays as it is."""
    return lang if "@" in lang else variant(base(lang), edition)


def _welcome(
    st: GameState,
    lang: str,
    seat: int,
    layout: str,
    wishes: list[str] | None,
    edition: str = "",
) -> tuple[str, Rendered]:
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
        nonce=NONCE,
        kind=kind(st, lang, layout, edition),
        wishes=wishes,
    )
    return subject, render("welcome", subject, data)


def welcome(lang: str, seat: int = 1) -> tuple[str, Rendered]:
    """Blau wished rot, then gelb: players the draw served first took both."""
    st = fresh_state()
    wishes = colour_wishes(["rot", "gelb"], ["rot", "gelb"], [], lang)
    return _welcome(st, lang, seat, "variable", wishes)


def _welcome_of(name: str) -> Callable[[str], tuple[str, Rendered]]:
    """The welcome of a game kind (`KINDS`), to seat 0, who wished gruen (not played at a
    table of four or fewer) and got its second wish."""

    def scene(lang: str) -> tuple[str, Rendered]:
        make, layout, edition = KINDS[name]
        st, lang = make(), _kind_locale(lang, edition)
        wishes = colour_wishes(["gruen", st.colours[0]], [], ["gruen"], lang)
        return _welcome(st, lang, 0, layout, wishes, edition)

    return scene


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
        kind=kind(st, lang),
    )
    return subject, render("welcome", subject, data)


def new_password(lang: str, seat: int = 2) -> tuple[str, Rendered]:
    """A new password for a seat whose player lost theirs (`pbm player password`), with the
    round that is open and its deadline (`table.where_it_stands`)."""
    from pbm.i18n import translator

    _, st, _ = midgame()
    colour = vocab.colour_name(st.colours[seat], lang)
    subject = texts.t(lang, "new_password_subject", game=GAME, colour=colour)
    now = (
        translator(lang)
        .gettext("Round {round} is open: send your orders by {deadline}.")
        .format(round=st.round, deadline=DEADLINE_TEXT)
    )
    data = notices.new_password(lang, colour, PASSWORD, now)
    return subject, render("new_password", subject, {"game": GAME, **data})


def players(lang: str) -> tuple[str, Rendered]:
    st = fresh_state()
    subject = texts.t(lang, "players_subject", game=GAME)
    return subject, _render("players", subject, notices.players_(lang, roster(st, lang), False))


def players_anonymous(lang: str) -> tuple[str, Rendered]:
    st = fresh_state()
    subject = texts.t(lang, "players_subject", game=GAME)
    rows = roster(st, lang, addresses=False)
    return subject, _render("players", subject, notices.players_(lang, rows, True))


def _preview(
    st: GameState, lang: str, layout: str = "variable", edition: str = ""
) -> tuple[str, Rendered]:
    subject = texts.t(lang, "preview_subject", game=GAME)
    data = preview_data(st, lang, GAME, BOARD_CID, kind(st, lang, layout, edition))
    return subject, render("preview", subject, data)


def preview(lang: str) -> tuple[str, Rendered]:
    return _preview(fresh_state(), lang)


def preview_beginner(lang: str) -> tuple[str, Rendered]:
    """The preview of a game in the beginner layout: the pieces placed, the starting cards."""
    return _preview(beginner_state(), lang, "beginner")


def _preview_of(name: str) -> Callable[[str], tuple[str, Rendered]]:
    def scene(lang: str) -> tuple[str, Rendered]:
        make, layout, edition = KINDS[name]
        return _preview(make(), _kind_locale(lang, edition), layout, edition)

    return scene


def preview_new_world(lang: str) -> tuple[str, Rendered]:
    """New World's generated islands, lettered on the map and named "Insel A" … (issue 27)."""
    return _preview(new_game(Settings.for_scenario("neue-welt", 3), 5), lang)


ORDERS = {
    "de": "Kennwort: {pw}\nRunde: 20\nRäuber E2, raube weiß\nAbwurf: G G W\n"
    "Handel blau: gebe 1H, bekomme 1L\nSiedlung D2 E1 E2\nStraße Mondschein\n"
    "Entwicklungskarte\n\n-- \nGruß, Bernd\n",
    "en": "Password: {pw}\nRound: 20\nRobber E2, steal white\nDiscard: G G W\n"
    "Trade blue: give 1L, get 1B\nSettlement D2 E1 E2\nRoad moonshine\n"
    "Buy card\n\n-- \nCheers, Bernd\n",
    # As a Danish player types on a phone: no `ø`, lower case.
    "da": "Adgangskode: {pw}\nRunde: 20\nroever E2, roev hvid\nAflever: K K U\n"
    "handel blaa: giv 1T, faa 1L\nhus D2 E1 E2\nvej maaneskin\n"
    "udviklingskort\n\n-- \nHilsen, Bernd\n",
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
    "da": "Adgangskode: {pw}\nHus {place}\nHus Z9 Z8 Z7 Vej Z9 Z8\n",
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
    """Orders for round 7 while round 8 is open: what became of round 7, and how the lines
    count now."""
    from pbm.service.answers import other_round

    subject = texts.t(lang, "error_subject", game=GAME)
    reason = other_round(lang, 7, 8, DEADLINE_TEXT)
    return subject, _render("error", subject, notices.error(reason, lang))


def _help(lang: str, state: GameState, topic: str, status: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "help_subject", game=GAME)
    data = help_data(lang, topic, GameKind.of_state(state), command_lines(lang), status)
    return subject, _render("help", subject, data | {"identity": kind(state, lang)})


def help_mail(lang: str) -> tuple[str, Rendered]:
    """`Hilfe` in a base game: the overview, with the open round and its deadline."""
    status = status_text(lang, "rounds", MID_ROUND, DEADLINE_TEXT, False)
    return _help(lang, state_before_round(SEED, MID_ROUND), "", status)


def help_sea(lang: str) -> tuple[str, Rendered]:
    """`Hilfe` in a Seafarers game with the pirate and gold rivers, in the setup."""
    state = new_game(Settings.for_scenario("neue-ufer", 4), SEED)
    return _help(lang, state, "", status_text(lang, "setup", 0, DEADLINE_TEXT, False))


def help_kron(lang: str) -> tuple[str, Rendered]:
    """`Hilfe Drachen` in a Kronlande game open for signup: no such chapter, the overview."""
    state = new_game(Settings.for_kronlande(4), SEED)
    return _help(lang, state, "drachen", status_text(lang, "signup", 0, "", False))


def help_chapter(lang: str) -> tuple[str, Rendered]:
    """`Hilfe Schiffe` / `Help ships`: the chapter of the guide."""
    state = new_game(Settings.for_scenario("neue-ufer", 4), SEED)
    topic = {"de": "schiffe", "da": "skibe"}.get(base(lang), "ships")
    return _help(lang, state, topic, status_text(lang, "setup", 0, DEADLINE_TEXT, False))


def _help_of(name: str) -> Callable[[str], tuple[str, Rendered]]:
    """The help overview of a game kind (`KINDS`) before its setup: what game it is."""

    def scene(lang: str) -> tuple[str, Rendered]:
        make, layout, edition = KINDS[name]
        st, lang = make(), _kind_locale(lang, edition)
        subject = texts.t(lang, "help_subject", game=GAME)
        status = status_text(lang, "setup", 0, DEADLINE_TEXT, False)
        data = help_data(
            lang,
            "",
            GameKind.of_state(st),
            command_lines(lang),
            status,
            beginner=layout == "beginner",
        ) | {"identity": kind(st, lang, layout, edition)}
        return subject, _render("help", subject, data)

    return scene


def _joined_of(name: str) -> Callable[[str], tuple[str, Rendered]]:
    """The mail of a player who joined a game of a kind (`KINDS`): what game it is."""

    def scene(lang: str) -> tuple[str, Rendered]:
        make, layout, edition = KINDS[name]
        st, lang = make(), _kind_locale(lang, edition)
        subject = texts.t(lang, "joined_subject", game=GAME)
        data = notices.joined(lang, "Bernd", 1, kind(st, lang, layout, edition))
        return subject, _render("joined", subject, data)

    return scene


def joined(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "joined_subject", game=GAME)
    return subject, _render(
        "joined", subject, notices.joined(lang, "Bernd", 2, kind(fresh_state(), lang))
    )


def signup_confirm(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "signup_confirm_subject", game=GAME)
    return subject, _render("signup_confirm", subject, notices.signup_confirm(lang, "3f9a0c1d2e4b"))


def _setup_prompt(st: GameState, lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "setup_sea_subject" if st.sea else "setup_subject", game=GAME)
    return subject, _render(
        "setup_prompt", subject, notices.setup_prompt(lang, 1, DEADLINE_TEXT, st)
    )


def setup_prompt(lang: str) -> tuple[str, Rendered]:
    return _setup_prompt(fresh_state(), lang)


def setup_prompt_four_islands(lang: str) -> tuple[str, Rendered]:
    """The Four Islands (3 players): every coast facing another island takes a ship; the
    example at such a coast names its hexes, which its labels alone do not."""
    return _setup_prompt(new_game(Settings.for_scenario("vier-inseln", 3), 1), lang)


def setup_prompt_new_shores(lang: str) -> tuple[str, Rendered]:
    """New Shores (3 players): a ship at the coast facing the islets is advice."""
    return _setup_prompt(new_game(Settings.for_scenario("neue-ufer", 3), 1), lang)


def _setup_prompt_of(name: str) -> Callable[[str], tuple[str, Rendered]]:
    def scene(lang: str) -> tuple[str, Rendered]:
        make, _, edition = KINDS[name]
        return _setup_prompt(make(), _kind_locale(lang, edition))

    return scene


def setup_ack_coast(lang: str) -> tuple[str, Rendered]:
    """The Four Islands: a start settlement at a coast facing other islands sent with a road;
    the answer gives the lines to copy, the settlement with a ship."""
    st = new_game(Settings.for_scenario("vier-inseln", 3), 1)
    ctx = Context(st.board, lang, st.colours, "setup")
    site = notices.coast_placement(st)
    assert site is not None
    road = next(e for e in st.board.crossing_paths[site.crossing] if st.board.path_land[e])
    line = format_item(SetupPlacement(site.crossing, road), ctx)
    body = f"{format_word('password', lang)}: {PASSWORD}\n{line}\n"
    parsed = parse_mail(body, ctx)
    check_setup_receipt(parsed, st, 0, lang)
    subject = texts.t(lang, "setup_ack_subject", game=GAME)
    return subject, _render(
        "ack",
        subject,
        notices.ack(parsed, body, lang, replaced=False, round_=None, deadline=DEADLINE_TEXT),
    )


def placed(lang: str) -> tuple[str, Rendered]:
    """The first placement of the setup (the one pbm would choose, as a player sent it)."""
    st = fresh_state()
    after, events = place_setup_automatic(st)
    subject = texts.t(lang, "placed_subject", game=GAME)
    return subject, _render("placed", subject, notices.placed(after, events, lang))


def _placed_automatic(own: bool) -> Callable[[str], tuple[str, Rendered]]:
    """The first placement of the setup, made by pbm at the turn's deadline: marked so for
    everyone, and (`own`) said first to the player it was made for."""

    def scene(lang: str) -> tuple[str, Rendered]:
        st = fresh_state()
        after, events = place_setup_automatic(st)
        subject = texts.t(lang, "placed_subject", game=GAME)
        data = notices.placed(after, events, lang, automatic=True, own=own)
        return subject, _render("placed", subject, data)

    return scene


def _round_open(
    st: GameState, lang: str, layout: str = "variable", edition: str = ""
) -> tuple[str, Rendered]:
    order = [vocab.colour_name(st.colours[p], lang) for p in st.build_order()]
    subject = texts.t(lang, "round_open_subject", game=GAME)
    rows = roster(st, lang)
    form = order_form(st, lang)
    data = notices.round_open(
        lang,
        order,
        DEADLINE_TEXT,
        rows,
        form,
        kind(st, lang, layout, edition),
        orders_mail(ADDRESS, GAME, 1, form, lang),
    )
    return subject, _render("round_open", subject, data)


def round_open(lang: str) -> tuple[str, Rendered]:
    return _round_open(state_before_round(SEED, 1), lang)


def _round_open_of(name: str) -> Callable[[str], tuple[str, Rendered]]:
    def scene(lang: str) -> tuple[str, Rendered]:
        make, layout, edition = KINDS[name]
        st = make()
        while st.phase == Phase.SETUP:
            st, _ = place_setup_automatic(st)
        return _round_open(st, _kind_locale(lang, edition), layout, edition)

    return scene


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
    form = order_form(st, lang)
    data = notices.round_open(
        lang,
        order,
        zones_deadline(lang, 60),
        roster(st, lang),
        form,
        kind(st, lang),
        orders_mail(ADDRESS, GAME, 1, form, lang),
    )
    return subject, _render("round_open", subject, data)


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
        "autopilot", subject, notices.autopilot(lang, vocab.colour_name("blau", lang), True)
    )


def autopilot_off(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "autopilot_off_subject", game=GAME)
    return subject, _render(
        "autopilot",
        subject,
        notices.autopilot(
            lang, vocab.colour_name("blau", lang), False, round_=4, deadline=DEADLINE_TEXT
        ),
    )


def digest(lang: str) -> tuple[str, Rendered]:
    before, after, events = midgame()
    sent = ["orders", "nmr", "autopilot", "orders"]
    rows = [
        notices.DigestRow(
            vocab.colour_name(c, lang), f"{written('Player', lang)} {p + 1}", sent[p], after.vp(p)
        )
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


def _gm_alert(event: str, subject_key: str, **values: Any) -> Callable[[str], tuple[str, Rendered]]:
    """A mail to the GM (`service/gm_alerts.py`)."""

    def scene(lang: str) -> tuple[str, Rendered]:
        extra = {k: written(v, lang) if isinstance(v, str) else v for k, v in values.items()}
        if "seat" in extra:
            extra["seat"] = f"{vocab.colour_name('gelb', lang)} (Carol)"
            extra["back"] = format_word("back", lang)
        if "seats" in extra:
            extra["seats"] = [
                {"label": f"{vocab.colour_name(c, lang)} ({n})", "address": f"{n.lower()}@x.test"}
                for c, n in (("rot", "Anna"), ("blau", "Bernd"), ("gelb", "Carol"))
            ]
        subject = texts.t(lang, subject_key, game=GAME, seat=extra.get("seat", ""), id=57)
        data = {"lang": notices.lang_code(lang), "event": event, "game": GAME, **extra}
        return subject, _render("gm_alert", subject, data)

    return scene


def _midgame_steps() -> list[tuple[int, tuple[ev.Event, ...]]]:
    """(round, events) of seed 3's steps to round 12 as `midgame` resolves it: the eight
    setup placements (round 0), rounds 1 to 11, and `midgame`'s round 12."""
    game = _game(SEED)
    setup = [(0, evs) for _, evs in game[:8]]
    rounds = [(r, game[7 + r][1]) for r in range(1, MID_ROUND)]
    return [*setup, *rounds, (MID_ROUND, midgame()[2])]


def _gm_notice(
    event: str, subject_key: str = "", **values: Any
) -> Callable[[str], tuple[str, Rendered]]:
    """The notice of `event`, with the subject of its own (`gm_<event>_subject`) or of
    `subject_key`, filled in with the notice's values."""

    def scene(lang: str) -> tuple[str, Rendered]:
        key = subject_key or f"gm_{event}_subject"
        extra = {k: written(v, lang) if isinstance(v, str) else v for k, v in values.items()}
        subject = texts.t(lang, key, game=GAME, **extra)
        named = extra.pop("named", "")
        if "colour" in extra:
            extra["colour"] = vocab.colour_name(str(extra["colour"]), lang)
            if named:  # the seat's label, "gelb (Carol)"
                extra["colour"] = f"{extra['colour']} ({named})"
        if "back" in extra:  # the words that end an absence, in the game's language
            extra["back"] = format_word("back", lang)
        if event == "ended":
            # Round 12 of seed 3, ended by the GM: every hidden card revealed and counted.
            from pbm.service.gm import final_standing

            state = midgame()[1]
            extra["final"] = final_standing(state, lang, {2: "Carol"})
            extra["vp_target"] = state.settings.vp_target
            summary = game_summary([(r, list(e)) for r, e in _midgame_steps()], state, lang)
            name_columns(summary, ["", "", "Carol", ""])
            extra["summary"] = summary
            # The game is over: the dice seed and the seal nonce are revealed (issue 14).
            extra["seed"], extra["nonce"] = SEED, NONCE
        return subject, _render("gm_notice", subject, notices.gm_notice(lang, event, **extra))

    return scene


PRESS_TEXT = "Hallo Carol,\n\nich gebe dir 2 Holz für 1 Erz. Einverstanden?\n\nAnna"


def press(lang: str) -> tuple[str, Rendered]:
    author = f"{vocab.colour_name('rot', lang)} (Anna)"
    subject = texts.t(lang, "press_subject", game=GAME, author=author)
    reply = f"{format_word('message', lang)} {vocab.colour_name('rot', lang)}: …"
    data = notices.press(lang, author, written(PRESS_TEXT, lang), to_all=False, reply=reply)
    return subject, _render("press", subject, data)


def press_anonymous_all(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "press_all_subject", game=GAME, author=texts.t(lang, "press_anonymous"))
    data = notices.press(lang, "", written(PRESS_TEXT, lang), to_all=True, reply="")
    return subject, _render("press", subject, data)


def press_from_gm(lang: str) -> tuple[str, Rendered]:
    subject = texts.t(lang, "press_from_gm_subject", game=GAME)
    reply = f"{format_word('to_gm', lang)}: …"
    data = notices.press(lang, "", written(GM_TEXT, lang), to_all=True, reply=reply, from_gm=True)
    return subject, _render("press", subject, data)


def press_gm(lang: str) -> tuple[str, Rendered]:
    author = f"{vocab.colour_name('gelb', lang)} (Carol)"
    subject = texts.t(lang, "press_gm_subject", game=GAME, author=author)
    text = written(PRESS_TEXT, lang)
    data = notices.press_gm(lang, f"{author} <carol@gmail.test>", text, GAME, "gelb")
    return subject, _render("press_gm", subject, data)


GM_TEXT = "Wegen der Feiertage ist die nächste Frist länger.\n\nFrohes Fest!"


def gm_mail_help(lang: str) -> tuple[str, Rendered]:
    """The answer to a GM mail pbm cannot place: why, and what the GM can do by mail."""
    from pbm.service.gm_mail import gm_mail

    return gm_mail(lang, GAME, problem=("not_placed", {}), senders="sl@example.org")


def gm_mail_not_understood(lang: str) -> tuple[str, Rendered]:
    from pbm.service.gm_mail import gm_mail

    lines = [written("Bitte alle warten", lang)]
    return gm_mail(lang, GAME, problem=("not_understood", {"lines": lines}), senders="sl@x.org")


def gm_mail_done(lang: str) -> tuple[str, Rendered]:
    """The answer to GM mail commands: what was done, a line each."""
    from pbm.i18n import translator
    from pbm.service.gm_mail import gm_mail

    _ = translator(lang).gettext
    done = [
        _("The game is paused; the players are told."),
        _("New deadline: {deadline}; the players are told, with your reason.").format(
            deadline=DEADLINE_TEXT
        ),
        translator(lang)
        .ngettext(
            "Your announcement went to {count} player or observer.",
            "Your announcement went to {count} players and observers.",
            5,
        )
        .format(count=5),
    ]
    return gm_mail(lang, GAME, done=done)


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
    # Red's start settlements stand on Catanien (area 1), white's on Transcatanien (area 2).
    st.sea.home = [(1,), (), (), (2,)]
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


@cache
def sea_four_islands_round() -> tuple[GameState, tuple[ev.Event, ...]]:
    """A Four Islands round (4 players, seed 1, after the setup; the tester's game of issue
    27): gelb builds a ship from its settlement; rot's ship at the far end of its road fails (a
    ship needs rot's building or ship at an end, a road does not count), and so does a
    settlement on a crossing no road or ship of rot's reaches; blau's ship next to the pirate
    cannot be moved. The pieces list every ship, the pirate's hex is named in words."""
    from helpers import Dice

    from pbm.rules.building import place_road, road_rule
    from pbm.rules.orders import MoveShip, Settlement, Ship, TurnOrders
    from pbm.rules.pirate import hex_sides
    from pbm.rules.ships import ship_site_rule

    st = next(
        s
        for s, _ in play_game(Settings.for_scenario("vier-inseln", 4), 1, max_rounds=0)
        if s.phase == Phase.ROUNDS
    )
    sea, b = st.sea, st.board
    assert sea is not None
    # gelb's ship at its coastal settlement.
    built = next(
        e
        for c in sorted(st.settlements[2])
        for e in b.crossing_paths[c]
        if ship_site_rule(st, sea, 2, e) is None
    )
    # rot's road to a coast (laid before the round), and a sea side at its far end.
    mine = set(st.settlements[0])
    far = -1
    for c in sorted(mine):
        for e in b.crossing_paths[c]:
            if road_rule(st, 0, e, check_cost=False) is not None:
                continue
            end = next(x for x in b.path_crossings[e] if x != c)
            coast = [f for f in b.crossing_paths[end] if b.path_sea[f] and sea.ship[f] < 0]
            if coast and far < 0:
                place_road(st, 0, e, [], free=True)
                far = coast[0]
    assert far >= 0
    # A free coastal crossing, far from every piece of rot's.
    lonely = next(
        c
        for c in range(len(b.crossing_hexes))
        if settlement_site_rule(st, c) is None
        and not any(st.road[e] >= 0 or sea.ship[e] >= 0 for e in b.crossing_paths[c])
        and any(b.path_sea[e] for e in b.crossing_paths[c])
    )
    # blau's ship beside the pirate, which holds it.
    held = next(
        e
        for e in hex_sides(st, sea.pirate)
        if st.road[e] < 0
        and not set(b.path_crossings[e]) & {c for p in range(4) for c in st.settlements[p]}
    )
    sea.ship[held], sea.built[held] = 1, 0
    sea.rebuild(4)
    target = next(e for e in hex_sides(st, sea.pirate) if e != held and sea.ship[e] < 0)
    st.hands = [[2, 1, 2, 1, 0], [0, 0, 0, 0, 0], [1, 0, 1, 0, 0], [0, 0, 0, 0, 0]]
    orders = {
        0: TurnOrders(builds=(Ship(far), Settlement(lonely))),
        1: TurnOrders(builds=(MoveShip(held, target),)),
        2: TurnOrders(builds=(Ship(built),)),
        3: TurnOrders(),
    }
    after, events = resolve_round(st, orders, Dice([(1, 1)] * 4))
    return after, tuple(events)


def report_sea_four_islands(lang: str) -> tuple[str, Rendered]:
    """The report of a Four Islands round: ships in every piece list, the pirate's hex in words,
    and refusals that name what the rule needs."""
    after, events = sea_four_islands_round()
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


def setup_ack_placed(lang: str) -> tuple[str, Rendered]:
    """The answer to a placement sent on the player's turn: it is placed at once, and says so."""
    st = fresh_state()
    ctx = Context(st.board, lang, st.colours, "setup")
    place = format_item(automatic_placement(st), ctx)
    body = SETUP_ORDERS[base(lang)].format(pw=PASSWORD, place=place.split(" ", 1)[1])
    subject = texts.t(lang, "setup_ack_subject", game=GAME)
    data = notices.ack(
        parse_mail(body, ctx),
        body,
        lang,
        replaced=False,
        round_=None,
        deadline=DEADLINE_TEXT,
        placed=place,
    )
    return subject, _render("ack", subject, data)


def setup_ack_failed(lang: str) -> tuple[str, Rendered]:
    """The answer to placements sent on the player's turn, none of which could be used."""
    st = fresh_state()
    ctx = Context(st.board, lang, st.colours, "setup")
    place = format_item(automatic_placement(st), ctx).split(" ", 1)[1]
    body = SETUP_ORDERS[base(lang)].format(pw=PASSWORD, place=place)
    subject = texts.t(lang, "setup_ack_subject", game=GAME)
    data = notices.ack(
        parse_mail(body, ctx),
        body,
        lang,
        replaced=False,
        round_=None,
        deadline=DEADLINE_TEXT,
        setup_failed=True,
    )
    return subject, _render("ack", subject, data)


def placed_failed(lang: str) -> tuple[str, Rendered]:
    """The mail to a player whose placements could not be used: each one's reason."""
    from pbm.rules.orders import SetupOrders, SetupPlacement

    st = fresh_state()
    first = automatic_placement(st)
    after, _ = place_setup_automatic(st)
    b = after.board
    # The crossing just taken, then a road away from a free crossing.
    free = next(c for c in range(len(b.crossing_hexes)) if settlement_site_rule(after, c) is None)
    away = next(e for e in range(len(b.path_hexes)) if e not in b.crossing_paths[free])
    orders = SetupOrders((first, SetupPlacement(free, away)))
    _, failed, placed = place_setup(after, orders)
    assert not placed
    subject = texts.t(lang, "setup_failed_subject", game=GAME)
    # With the turn's prompt, as the service sends it: what to place, a line, the deadline.
    prompt = notices.setup_prompt(lang, 1, DEADLINE_TEXT, after)
    data = notices.placed(after, failed, lang, failed=True, prompt=prompt)
    return subject, _render("placed", subject, data)


def preview_kron(lang: str) -> tuple[str, Rendered]:
    """The island preview of a Kronlande game: Stein and Fisch among the yields, quarries and
    fishing grounds on the map."""
    return _preview(kron_state(), lang)


@cache
def four_islands_bonus() -> tuple[GameState, tuple[ev.Event, ...]]:
    """The first round of a Four Islands game (4 players, autopilot, seed 3) in which a
    settlement earns the island bonus."""
    for st, evs in play_game(Settings.for_scenario("vier-inseln", 4), 3):
        if any(isinstance(e, SpecialVP) for e in evs):
            return st, tuple(evs)
    raise AssertionError("no island bonus in the game")


def report_four_islands(lang: str) -> tuple[str, Rendered]:
    """A Four Islands round: a settlement on a foreign island earns the bonus (named by its
    island), and the table of home islands and the islands that still pay a bonus."""
    after, events = four_islands_bonus()
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


def placed_four_islands(lang: str) -> tuple[str, Rendered]:
    """The last placement of a Four Islands setup: every player's home islands, named."""
    st = new_game(Settings.for_scenario("vier-inseln", 3), 1)
    while True:
        after, events = place_setup_automatic(st)
        if after.phase != Phase.SETUP:
            break
        st = after
    subject = texts.t(lang, "placed_subject", game=GAME)
    return subject, _render("placed", subject, notices.placed(after, events, lang))


SCENES = {
    "round_open_zones": round_open_zones,
    "gm_deadline_zones": gm_deadline_zones,
    "gm_resumed_zone": gm_resumed_zone,
    "gm_paused": _gm_notice("paused"),
    "gm_resumed": _gm_notice("resumed", deadline=DEADLINE_TEXT),
    "gm_deadline": _gm_notice("deadline", deadline=DEADLINE_TEXT, round_=MID_ROUND),
    "gm_deadline_why": _gm_notice(
        "deadline", deadline=DEADLINE_TEXT, round_=MID_ROUND, text="Wegen der Feiertage."
    ),
    "gm_alert_started": _gm_alert(
        "started", "gm_started_subject", seats=True, setup=True, deadline=DEADLINE_TEXT
    ),
    "gm_alert_autopilot_nmr": _gm_alert(
        "autopilot", "gm_autopilot_took_subject", seat=True, colour="gelb", why="nmr", count=3
    ),
    "gm_alert_autopilot_resigned": _gm_alert(
        "autopilot", "gm_autopilot_took_subject", seat=True, colour="gelb", why="resigned", count=0
    ),
    "gm_alert_quarantined": _gm_alert(
        "quarantined",
        "gm_quarantined_subject",
        id=57,
        sender="anna@web.test",
        mail_subject="Züge Runde 4",
        error="KeyError: 'weiss'",
    ),
    "gm_mail_help": gm_mail_help,
    "gm_mail_not_understood": gm_mail_not_understood,
    "gm_mail_done": gm_mail_done,
    "gm_replaced": _gm_notice("replaced", colour="gelb", name="Dora"),
    "gm_replaced_out": _gm_notice("replaced_out", colour="gelb"),
    "gm_ended": _gm_notice("ended", text="Zwei Spieler sind ausgestiegen."),
    "gm_announce": _gm_notice("announce", text=GM_TEXT),
    "gm_autopilot_on": _gm_notice("autopilot", colour="gelb", named="Carol", on=True),
    "gm_autopilot_off": _gm_notice("autopilot", colour="gelb", named="Carol", on=False),
    # An absence as the others are told of it: who, unless the game is anonymous.
    "gm_away": _gm_notice(
        "away",
        "away_named_subject",
        name="gelb (Carol)",
        until="2026-12-24",
        deadline=DEADLINE_TEXT,
    ),
    "gm_away_waits": _gm_notice(
        "away",
        "away_named_subject",
        name="gelb (Carol)",
        until="2026-12-24",
        waits=True,
        deadline=DEADLINE_TEXT,
    ),
    "gm_away_anonymous": _gm_notice("away", name="", until="2026-12-24", deadline=DEADLINE_TEXT),
    "gm_back": _gm_notice("back", "back_named_subject", name="gelb (Carol)"),
    "gm_back_anonymous": _gm_notice("back", name=""),
    # The absent player's own confirmation, with the dates.
    "gm_away_own": _gm_notice(
        "away_own",
        "away_own_subject",
        start="2026-06-01",
        until="2026-12-24",
        end="2026-12-25 00:00 Europe/Berlin (2026-12-24 23:00 UTC)",
        back="",
    ),
    "gm_away_own_waits": _gm_notice(
        "away_own",
        "away_own_subject",
        start="2026-06-01",
        until="2026-06-03",
        end="2026-06-04 00:00 UTC",
        waits=True,
        deadline="2026-06-05 00:00 UTC",
        back="",
    ),
    "press": press,
    "press_anonymous_all": press_anonymous_all,
    "press_from_gm": press_from_gm,
    "press_gm": press_gm,
    "report_round": round_report,
    "report_autopilot": autopilot_report,
    "report_end": end_report,
    "report_correction": correction_report,
    "report_sea_gold": report_sea_gold,
    "report_sea_pirate": report_sea_pirate,
    "report_sea_fog": report_sea_fog,
    "report_kron": report_kron,
    "preview_kron": preview_kron,
    "preview_new_world": preview_new_world,
    "report_four_islands": report_four_islands,
    "placed_four_islands": placed_four_islands,
    "setup_prompt_four_islands": setup_prompt_four_islands,
    "setup_prompt_new_shores": setup_prompt_new_shores,
    "ack_setup_coast": setup_ack_coast,
    **{f"welcome_{k}": _welcome_of(k) for k in KINDS},
    **{f"joined_{k}": _joined_of(k) for k in KINDS},
    **{f"preview_{k}": _preview_of(k) for k in KINDS if k not in ("beginner", "kron")},
    **{f"round_open_{k}": _round_open_of(k) for k in KINDS},
    **{f"help_overview_{k}": _help_of(k) for k in KINDS},
    **{f"setup_prompt_{k}": _setup_prompt_of(k) for k in KINDS if k != "beginner"},
    "report_sea_trade_line": report_sea_trade_line,
    "report_sea_four_islands": report_sea_four_islands,
    "welcome": welcome,
    "welcome_replacement": welcome_replacement,
    "new_password": new_password,
    "players": players,
    "players_anonymous": players_anonymous,
    "preview": preview,
    "preview_beginner": preview_beginner,
    "ack": ack,
    "ack_setup": setup_ack,
    "ack_setup_placed": setup_ack_placed,
    "ack_setup_failed": setup_ack_failed,
    "placed_failed": placed_failed,
    "error": error,
    "help": help_mail,
    "help_sea": help_sea,
    "help_kron": help_kron,
    "help_chapter": help_chapter,
    "joined": joined,
    "signup_confirm": signup_confirm,
    "setup_prompt": setup_prompt,
    "placed": placed,
    "placed_automatic": _placed_automatic(own=False),
    "placed_automatic_own": _placed_automatic(own=True),
    "round_open": round_open,
    "reminder": reminder,
    "nmr": nmr,
    "nmr_autopilot": nmr_autopilot,
    "autopilot_on": autopilot_on,
    "autopilot_off": autopilot_off,
    "digest": digest,
}

DANISH_SCENES = tuple(sorted(SCENES))


def card_names() -> dict[str, str]:
    """Every spelling of every card type → its internal name."""
    out = {name: card for lang in LANGS for card, name in codebook.CARD_NAMES[lang].items()}
    out.update({card: card for card in codebook.CARD_NAMES["de"]})
    return out
