"""Plain data for the templates, from the state and the events: what every player may see.

Card types stay secret: a purchase appears as its buyer's codebook code, a hand of development
cards as a count; only the game-end report reveals the cards.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.notation.format import word
from pbm.rules import events as ev
from pbm.rules.kron import BUILDER_VP, BURG_EXTRA_VP, RESIDENZ_EXTRA_VP
from pbm.rules.rng import seal, seal_check
from pbm.rules.state import GameState, Phase

from . import codebook
from .describe import describe, in_log_order, ordered_by, title_name
from .describe import player_label as player_label  # kept importable from here
from .identity import player_islands
from .order_form import GameKind, form_lines
from .pieces import pieces_text as pieces_text  # kept importable from here
from .pieces import places_text
from .summary import name_columns


def hand_text(state: GameState, p: int, lang: str) -> str:
    """`2H 1E`; in Kronlande with Stein, Fisch and the goods (`1S 2Wz`)."""
    return " ".join(f"{n}{vocab.letter(r, lang)}" for r, n in enumerate(state.hands[p]) if n) or "-"


def board_map(state: GameState, lang: str) -> str:
    """The hex map with the pieces, harbours and the robber, and its legend (`text_map`);
    at most 72 columns."""
    from .text_map import draw

    return draw(state, lang)


def _wrap(text: str) -> str:
    """Wrapped at 72 columns between places, never inside one (`E3 F3` stays together)."""
    glued = re.sub(
        r"(?<=[A-Z]\d) (?=[A-Z]\d)|(?<=\d) (?=\()|(?<=[A-Za-zü]) (?=[A-Z]\d)", "\u00a0", text
    )
    return textwrap.fill(glued, 72, subsequent_indent="    ", break_on_hyphens=False).replace(
        "\u00a0", " "
    )


def _wrap_log(line: str, width: int = 72) -> str:
    """A log line longer than `width` columns (players named "gelb (Carol)" make them longer)
    wrapped like `_wrap`, the continuation indented four more than the line."""
    line = re.sub(r"\n +", " ", line)
    if len(line) <= width:
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")))
    glued = re.sub(
        r"(?<=[A-Z]\d) (?=[A-Z]\d)|(?<=\d) (?=\()|(?<=[A-Za-zü]) (?=[A-Z]\d)", "\u00a0", line
    )
    return textwrap.fill(
        glued, width, subsequent_indent=indent + "    ", break_on_hyphens=False
    ).replace("\u00a0", " ")


def scored(state: GameState, p: int, lang: str) -> str:
    """How a seat's final points add up, for the end mail: "3 settlements, 2 cities (4),
    longest road (2), 1 victory point card, 2 for islands and specials"."""
    tr = translator(lang)
    settlements, cities = len(state.settlements[p]), len(state.cities[p])
    # A Kronlande Burg or Residenz stands on a city of its own: counted apart, with its city's 2.
    burgen, residenzen = (
        (state.kron.burgen[p], state.kron.residenzen[p]) if state.kron is not None else (0, 0)
    )
    plain = cities - burgen - residenzen
    parts = [
        tr.ngettext("%(n)s settlement", "%(n)s settlements", settlements) % {"n": settlements},
        tr.ngettext("%(n)s city (%(vp)s)", "%(n)s cities (%(vp)s)", plain)
        % {"n": plain, "vp": 2 * plain},
    ]
    if burgen:
        vp = (2 + BURG_EXTRA_VP) * burgen
        parts.append(
            tr.ngettext("%(n)s castle (%(vp)s)", "%(n)s castles (%(vp)s)", burgen)
            % {"n": burgen, "vp": vp}
        )
    if residenzen:
        vp = (2 + RESIDENZ_EXTRA_VP) * residenzen
        parts.append(
            tr.ngettext("%(n)s residence (%(vp)s)", "%(n)s residences (%(vp)s)", residenzen)
            % {"n": residenzen, "vp": vp}
        )
    if state.longest_road == p:
        parts.append(f"{title_name('longest_road', lang)} (2)")
    if state.largest_army == p:
        parts.append(f"{title_name('largest_army', lang)} (2)")
    cards = state.vp_cards(p)
    if cards:
        parts.append(
            tr.ngettext("%(n)s victory point card", "%(n)s victory point cards", cards)
            % {"n": cards}
        )
    if state.kron is not None and state.kron.builder == p:
        parts.append(f"{title_name('builder', lang)} ({BUILDER_VP})")
    known = settlements + 2 * cities + 2 * (state.longest_road == p)
    if state.kron is not None:
        known += BURG_EXTRA_VP * burgen + RESIDENZ_EXTRA_VP * residenzen
        known += BUILDER_VP * (state.kron.builder == p)
    other = state.vp(p) - known - 2 * (state.largest_army == p) - cards
    if other:
        # The expansion's own points: Seafarers' islands, specials and trade lines.
        if state.sea is not None:
            parts.append(tr.gettext("%(n)s for islands and specials") % {"n": other})
        else:
            parts.append(tr.gettext("%(n)s more") % {"n": other})
    return ", ".join(parts)


def _titles(state: GameState, p: int, lang: str) -> list[str]:
    out = []
    if state.longest_road == p:
        out.append(title_name("longest_road", lang))
    if state.largest_army == p:
        out.append(title_name("largest_army", lang))
    if state.kron is not None and state.kron.builder == p:
        out.append(title_name("builder", lang))
    lines = state.sea.line_vp(p) if state.sea is not None else 0
    if lines:
        # The Great Crossing: the trade lines that score for p, one VP each.
        text = translator(lang).ngettext("{n} trade line", "{n} trade lines", lines)
        out.append(text.format(n=lines))
    return out


def _sealed(
    events: list[ev.Event], state: GameState, game: str, secrets: dict[int, str]
) -> list[str]:
    """One sealed notice per purchase, for a program with the player's key (`pbm decode --key`)."""
    out = []
    for e in events:
        if isinstance(e, ev.CardBought) and e.player in secrets:
            out.append(codebook.seal(secrets[e.player], game, e.player, e.number, e.card))
    return out


def report_log(
    events: list[ev.Event],
    state: GameState,
    lang: str,
    secrets: dict[int, str],
    quiet: frozenset[int] = frozenset(),
    names: Mapping[int, str] | None = None,
) -> list[str]:
    """The lines of a report telling what happened (`log_lines`): a purchase as its buyer's
    code; a line longer than 72 columns is wrapped (one entry, its continuation indented)."""
    return [_wrap_log(line) for line in log_lines(events, state, lang, quiet, names, secrets)]


def log_lines(
    events: list[ev.Event],
    state: GameState,
    lang: str,
    quiet: frozenset[int] = frozenset(),
    names: Mapping[int, str] | None = None,
    secrets: dict[int, str] | None = None,
) -> list[str]:
    """The log of a round, a line per event that has one, in the log's order: the report's
    (`report_log`, with `secrets`: a purchase as its buyer's code) and the web archive's (no
    `secrets`: a purchase as its public line, "card 3 bought"). The seats in `quiet` were
    played by the autopilot (an absent, resigned or NMR seat): no failed line of theirs (its
    orders are a plan whose lines fail harmlessly), and what their orders did is marked
    "(autopilot)", so that nobody takes it for the player's own move. `names` (by seat, as the
    game shows them): the players who act are named "gelb (Carol)" (`describe`)."""
    _ = translator(lang).gettext
    lines = []
    for e in in_log_order(events):
        if isinstance(e, ev.OrderFailed) and e.player in quiet:
            continue
        line: str | None
        if isinstance(e, ev.CardBought) and secrets is not None:
            colour = vocab.colour_name(state.colours[e.player], lang)
            who = player_label(colour, (names or {}).get(e.player, ""))
            secret = secrets.get(e.player)
            code = codebook.code_for(secret, e.number, e.card) if secret else "?"
            line = _("{player}: card {number} → {code}").format(
                player=who, number=e.number, code=code
            )
        else:
            line = describe(e, state, lang, names)
        if line is None:
            continue
        if ordered_by(e) in quiet:
            # Translators: a line of the round report telling what the autopilot did for a
            # seat ("rot (Anna) builds a city at C2 C3 D3 (autopilot)").
            line = _("{line} (autopilot)").format(line=line)
        lines.append(line)
    return lines


def name_players(data: dict[str, Any], state: GameState, names: Mapping[int, str]) -> None:
    """Name the players of `report_data`'s data as "gelb (Carol)" (`names` by seat; a seat
    without a name keeps its colour), in the tables, the winner's line and the columns of the
    game's summary. The log's lines are named when `report_data` is given the names."""
    for p, row in enumerate(data["players"]):
        row["label"] = player_label(row["colour"], names.get(p, ""))
    data["label_width"] = max([8, *(len(row["label"]) for row in data["players"])])
    if data["ended"] and state.winner >= 0:
        data["winner"] = data["players"][state.winner]["label"]
    if data.get("summary"):
        name_columns(data["summary"], [names.get(p, "") for p in range(len(data["players"]))])


def order_form(state: GameState, lang: str) -> list[str]:
    """The player-independent lines of the next round's orders, to fill in: the form of the
    game's kind (`order_form.form_lines`)."""
    # Only the first two lines are orders as they stand; the rest are comments ("#") to fill
    # in and uncomment, so a form sent back untouched builds or buys nothing by accident.
    lines = form_lines(GameKind.of_state(state), lang)
    # Said in the form itself, a comment too: it goes with the lines into the mail the
    # player writes from the report's link, where a line filled in and left with its `#` is
    # not read.
    hint = translator(lang).gettext("Delete the '#' in front of each line you fill in.")
    return [
        f"{word('password', lang)}: ",
        f"{word('round', lang)}: {state.round}",
        f"# {hint}",
        *(f"# {line}" for line in lines),
    ]


#: A `mailto:` link longer than this is left out of the report: some mail programs cut or
#: refuse long links (a game kind's order form makes 600 to 1,100 characters).
MAILTO_MAX = 2000


def orders_mail(
    address: str, game: str, round_: int, form: list[str], lang: str
) -> dict[str, str] | None:
    """How to send the orders of round `round_`: to the game's `address`, the game's tag in
    the subject, and the link that writes that mail with the order form `form` as its body
    (a `mailto:` URL, RFC 6068: UTF-8, percent-encoded, lines ending in CRLF). The form holds
    no password, only the line to write it on. None without an address; the link is "" when
    it would be longer than `MAILTO_MAX` (the address and subject are still named)."""
    if not address:
        return None
    subject = (
        translator(lang).gettext("[{game}] Orders round {round}").format(game=game, round=round_)
    )
    body = "".join(f"{line}\r\n" for line in form)
    href = (
        f"mailto:{quote(address, safe='@')}"
        f"?subject={quote(subject, safe='')}&body={quote(body, safe='')}"
    )
    return {
        "address": address,
        "subject": subject,
        "href": href if len(href) <= MAILTO_MAX else "",
    }


def revealed_seal(seed: int, nonce: str, shown: bool) -> dict[str, str]:
    """What an ended game's last mail (the game-end report, the GM's end notice) reveals of the
    dice seal: the seed, the nonce ("" for a game created before seal nonces), the seal and
    the command that prints it from them; all "" unless `shown`."""
    if not shown:
        return {"seed": "", "nonce": "", "seal": "", "seal_check": ""}
    return {
        "seed": str(seed),
        "nonce": nonce,
        "seal": seal(seed, nonce),
        "seal_check": seal_check(seed, nonce),
    }


def report_data(
    state: GameState,
    events: list[ev.Event],
    lang: str,
    game: str,
    secrets: dict[int, str],
    next_line: str = "",
    image_cid: str = "",
    summary: dict[str, Any] | None = None,
    quiet: frozenset[int] = frozenset(),
    correction: dict[str, Any] | None = None,
    names: Mapping[int, str] | None = None,
    nonce: str = "",
    address: str = "",
) -> dict[str, Any]:
    """`summary`: the whole game's (`summary.game_summary`), for the game-end report.
    `quiet`: seats the autopilot wrote orders for; their failed lines are left out (its orders
    are a plan whose lines fail harmlessly), what they did is marked (`report_log`).
    `correction`: the GM's reason and the changed lines when the report corrects one sent
    before (`correction_data`). `names`: the players' names as the game shows them, by seat:
    the report names players "gelb (Carol)" in the log, the tables, the winner's line and the
    summary (`name_players`). `nonce`: the game's seal nonce, revealed with the seed by the
    game-end report ("" for a game created before seal nonces). `address`: the game's
    address, where the next round's orders go (`orders_mail`; "" for none)."""
    ended = state.winner >= 0
    form = order_form(state, lang)
    # Seafarers: each seat's home islands and the islands that still pay it a bonus.
    islands = player_islands(state, lang)
    players = []
    for p, colour in enumerate(state.colours):
        players.append(
            {
                "colour": vocab.colour_name(colour, lang),
                "label": vocab.colour_name(colour, lang),
                "hand": hand_text(state, p, lang),
                "cards": len(state.cards[p]),
                "knights": state.knights[p],
                "vp": state.visible_vp(p),
                # Hidden victory points only once the game is over.
                "final_vp": state.vp(p) if ended else state.visible_vp(p),
                "titles": _titles(state, p, lang),
                "pieces": _wrap(
                    vocab.colour_name(colour, lang) + ": " + pieces_text(state, p, lang)
                ),
                "revealed": [vocab.card_name(c, lang) for c, _ in state.cards[p]] if ended else [],
                "scored": scored(state, p, lang) if ended else "",
                "islands": islands[p] if islands else "",
            }
        )
    data = {
        "lang": lang,
        "game": game,
        "ended": ended,
        "winner": vocab.colour_name(state.colours[state.winner], lang) if ended else "",
        "log": report_log(events, state, lang, secrets, quiet, names),
        "sealed": _sealed(events, state, game, secrets),
        "players": players,
        "label_width": 8,
        "board_map": board_map(state, lang),
        "islands": bool(islands) and not ended,
        # Where the robber (and the pirate) stand, in words (`pieces.places_text`).
        "places": _wrap(places_text(state, lang)),
        "next_round": state.round,
        "next_order": [vocab.colour_name(state.colours[p], lang) for p in state.build_order()],
        "next_line": next_line,
        "order_form": form,
        "orders_mail": None if ended else orders_mail(address, game, state.round, form, lang),
        "image_cid": image_cid,
        "summary": summary if ended else None,
        # The game's end reveals the seed and the nonce of the dice seal of the welcome mail
        # (rules 2); never before.
        **revealed_seal(state.seed, nonce if ended else "", ended and state.rules >= 2),
        "correction": correction,
        # An observer's copy (`observer_copy`) shows no order form.
        "observer": False,
    }
    if names is not None:
        name_players(data, state, names)
    return data


def correction_data(why: str, old: list[str], new: list[str]) -> dict[str, Any]:
    """What a corrected report says first: the GM's reason, and the lines of the report's log
    that went (`removed`) and came (`added`), each as often as it changed, in report order. The
    rolls of a round never change (docs/fair-dice.md), so they are never among them."""
    # The GM's text as one paragraph within 72 columns (after "Why: ").
    why_text = textwrap.fill(" ".join(why.split()), 64, subsequent_indent="  ")
    removed, added = changed_lines(old, new)
    return {
        "why": why_text,
        # After "  - " or "  + ": wrapped at 68 to stay within 72 columns.
        "removed": [_wrap_log(x, 68) for x in removed],
        "added": [_wrap_log(x, 68) for x in added],
    }


def changed_lines(old: list[str], new: list[str]) -> tuple[list[str], list[str]]:
    """The log lines that went (`old` but not `new`) and came, each as often as it changed,
    in log order (the correction mail and the archive's corrected rounds say them so)."""
    return _picked(old, Counter(old) - Counter(new)), _picked(new, Counter(new) - Counter(old))


def _picked(lines: list[str], wanted: Counter[str]) -> list[str]:
    out = []
    for line in lines:
        if wanted[line] > 0:
            wanted[line] -= 1
            out.append(line)
    return out


def preview_data(
    state: GameState,
    lang: str,
    game: str,
    image_cid: str = "",
    kind: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The island before the setup: yields per resource and the snake order; `kind`: what
    game this is (`identity.game_kind`)."""
    from pbm.rules.setup import setup_sequence

    board = state.board
    # Kronlande: Stein and Fisch too (quarries, fishing grounds).
    yields = [0] * state.settings.bank_width
    for h in board.hexes:
        if h.resource is not None and h.number is not None:
            yields[h.resource] += h.pips
    order = [
        vocab.colour_name(state.colours[p], lang) for p in setup_sequence(state.settings.players)
    ]
    # The beginner setup (seed 000): the pieces stand and the starting cards are paid, so the
    # preview shows each colour's cards instead of a setup order.
    placed = state.phase != Phase.SETUP
    starts = [
        (vocab.colour_name(c, lang), hand_text(state, p, lang)) for p, c in enumerate(state.colours)
    ]
    return {
        "lang": lang,
        "game": game,
        "board_map": board_map(state, lang),
        "yields": [(vocab.resource_name(r, lang), n) for r, n in enumerate(yields)],
        "order": order,
        "placed": placed,
        "starts": starts if placed else [],
        "image_cid": image_cid,
        "kind": kind,
    }


def observer_copy(data: dict[str, Any]) -> dict[str, Any]:
    """The report as an observer reads it: the same round, without the order form and the
    address to send orders to (an observer sends none)."""
    return {**data, "observer": True, "order_form": [], "orders_mail": None}
