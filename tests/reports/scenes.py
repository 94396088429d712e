"""Fixed scenes for the report tests: states and events from fixed seeds, fixed secrets.

Everything here is deterministic: the simulated games are seeded, the codebook secrets are
constants, and the cipher text of the sealed notices (whose nonce may be random) is masked by
`normalise_sealed`.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime
from functools import cache

from pbm.notation import Context, vocab
from pbm.notation.mail import parse_mail
from pbm.reports import codebook
from pbm.reports.render import BOARD_CID, Rendered, render, render_message
from pbm.reports.report_data import preview_data, report_data
from pbm.reports.welcome import welcome_data
from pbm.rules import autopilot, resolve_round
from pbm.rules import events as ev
from pbm.rules.orders import TradeOffer
from pbm.rules.sim import play_game
from pbm.rules.state import GameState, Phase, Settings, new_game
from pbm.service import texts
from pbm.service.answers import ack_body
from pbm.store.models import Game

GAME = "alpha"
SEED = 3
#: The round of seed 3 whose resolution has a 7 with a discard and a steal, a card purchase,
#: builds done and failed, a maritime trade; the scene adds a domestic trade and a failed one.
MID_ROUND = 19
#: One fixed codebook secret per seat ("00"*32, "01"*32, …).
SECRETS = {seat: f"{seat:02x}" * 32 for seat in range(6)}
DEADLINE = datetime(2026, 1, 3, 12, 0)
PASSWORD = "blau-kiefer-42"
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


MID_KINDS = {ev.CardBought, ev.Discarded, ev.Stole, ev.RobberMoved, ev.TradeDone,
             ev.TradeFailed, ev.Built, ev.OrderFailed, ev.MaritimeTraded, ev.Produced}


def next_line(lang: str, round_: int) -> str:
    return texts.t(lang, "next", round=round_, deadline=DEADLINE.strftime("%Y-%m-%d %H:%M UTC"))


def round_report(lang: str) -> tuple[str, Rendered]:
    before, after, events = midgame()
    subject = texts.t(lang, "report_subject", game=GAME, round=before.round)
    data = report_data(after, list(events), lang, GAME, SECRETS, next_line(lang, after.round),
                       BOARD_CID)
    return subject, render("report", subject, data)


def end_report(lang: str) -> tuple[str, Rendered]:
    st, events = final()
    subject = texts.t(lang, "end_subject", game=GAME, round=st.round)
    return subject, render("report", subject, report_data(st, events, lang, GAME, SECRETS, "",
                                                          BOARD_CID))


def fresh_state(seed: int = SEED, players: int = 4, size: str | None = None) -> GameState:
    return new_game(Settings.for_players(players, size), seed)


def welcome(lang: str, seat: int = 1) -> tuple[str, Rendered]:
    st = fresh_state()
    colour = vocab.colour_name(st.colours[seat], lang)
    subject = texts.t(lang, "welcome_subject", game=GAME, colour=colour)
    return subject, render("welcome", subject, welcome_data(
        st, GAME, colour, seat, PASSWORD, SECRETS[seat], lang))


def preview(lang: str) -> tuple[str, Rendered]:
    subject = f"[{GAME}] " + ("Island preview" if lang == "en" else "Inselvorschau")
    return subject, render("preview", subject, preview_data(fresh_state(), lang, GAME,
                                                            BOARD_CID))


ORDERS = {
    "de": "Kennwort: {pw}\nRunde: 20\nRäuber E2, raube weiß\nAbwurf: G G W\n"
          "Handel blau: gebe 1H, bekomme 1L\nSiedlung D2 E1 E2\nStraße Mondschein\n"
          "Entwicklungskarte\n\n-- \nGruß, Bernd\n",
    "en": "Password: {pw}\nRound: 20\nRobber E2, steal white\nDiscard: G G W\n"
          "Trade blue: give 1L, get 1B\nSettlement D2 E1 E2\nRoad moonshine\n"
          "Buy card\n\n-- \nCheers, Bernd\n",
}


def message(lang: str) -> tuple[str, Rendered]:
    """A plain message: the acknowledgement of an order mail with a rejected line."""
    _, after, _ = midgame()
    body = ORDERS[lang].format(pw=PASSWORD)
    parsed = parse_mail(body, Context(after.board, lang, after.colours, "round"))
    game = Game(name=GAME, settings="{}", seed=SEED, lang=lang, phase="rounds",
                round=after.round, deadline=DEADLINE, created_at=DEADLINE)
    text = ack_body(parsed, body, game, replaced=True)
    subject = texts.t(lang, "ack_subject", game=GAME, round=after.round)
    return subject, render_message(subject, text, lang, GAME)


SCENES = {
    "report_round": round_report,
    "report_end": end_report,
    "welcome": welcome,
    "preview": preview,
    "message_ack": message,
}


def card_names() -> dict[str, str]:
    """Every spelling of every card type → its internal name."""
    out = {name: card for lang in LANGS for card, name in codebook.CARD_NAMES[lang].items()}
    out.update({card: card for card in codebook.CARD_NAMES["de"]})
    return out
