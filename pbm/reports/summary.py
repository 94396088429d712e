"""The game-end report's summary of the whole game, from every step's events: per player what
they produced, robbed, lost, traded, built and played, and the title changes. Plain text, no
links: it is read in the mail, long after the game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.rules import events as ev
from pbm.rules.kron_events import FeastGiven, GoodsMade
from pbm.rules.state import GameState

from .describe import title_name

#: The per-player counts, in the order of the summary's columns.
COLUMNS = (
    "produced",
    "robbed",
    "lost",
    "discarded",
    "traded",
    "settlements",
    "cities",
    "roads",
    "cards",
    "knights",
)


#: Kronlande's rows besides: workshops, Burgen and Residenzen built, goods made (and taken by
#: Bauhütte).
KRON_COLUMNS = ("workshops", "castles", "residences", "goods")
#: Seafarers' row besides: ships built (a ship moved is not built again).
SEA_COLUMNS = ("ships",)
#: Kronlande's workshops (`Built.piece`).
_WORKSHOPS = ("smithy", "weaving_mill", "bakery")


def _kron_headings(lang: str) -> tuple[str, ...]:
    tr = translator(lang)
    return (
        tr.pgettext("game summary", "workshops"),
        tr.pgettext("game summary", "castles"),
        tr.pgettext("game summary", "residences"),
        tr.pgettext("game summary", "goods made"),
    )


def _headings(lang: str) -> tuple[str, ...]:
    """The row headings of the summary's table, in the order of `COLUMNS`."""
    tr = translator(lang)
    return (
        tr.pgettext("game summary", "produced"),
        tr.pgettext("game summary", "robbed"),
        tr.pgettext("game summary", "lost"),
        tr.pgettext("game summary", "discarded"),
        tr.pgettext("game summary", "trades"),
        tr.pgettext("game summary", "settlements"),
        tr.pgettext("game summary", "cities"),
        tr.pgettext("game summary", "roads"),
        tr.pgettext("game summary", "cards"),
        tr.pgettext("game summary", "knights"),
    )


#: The text table: two spaces and a row heading of 12, then one column per player.
_ROOM = 72 - 2 - 12
#: Columns are never narrower than this (six players of 8 fit in 72 columns).
_MIN_WIDTH = 8


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def column_heads(colours: list[str], names: list[str]) -> dict[str, Any]:
    """The heads of the text table's player columns, as the reports name the players: one line
    "gelb (Carol)" per column where every label fits, else two lines, the colour above and
    "(Carol)" below (a name too long for its column is cut with "…"). `width`: the width of
    a column, so that the table stays within 72 columns for up to six players."""
    labels = [f"{c} ({n})" if n else c for c, n in zip(colours, names, strict=True)]
    most = max(_MIN_WIDTH, _ROOM // max(1, len(colours)))
    if all(len(label) < most for label in labels):
        width = max(_MIN_WIDTH, *(len(label) + 1 for label in labels))
        return {"heads": ["".join(f"{x:>{width}}" for x in labels)], "width": width}
    lower = [f"({n})" if n else "" for n in names]
    width = max(_MIN_WIDTH, min(most, max(len(x) + 1 for x in [*colours, *lower])))
    return {
        "heads": [
            "".join(f"{_cut(x, width - 1):>{width}}" for x in colours),
            "".join(f"{_cut(x, width - 1):>{width}}" for x in lower).rstrip(),
        ],
        "width": width,
    }


def name_columns(summary: dict[str, Any], names: list[str]) -> None:
    """Name the players of `game_summary`'s data as "gelb (Carol)" (`names` by seat, "" for a
    name not shown): the HTML table's heads and the text table's (`column_heads`)."""
    colours = summary["colours"]
    summary["players"] = [f"{c} ({n})" if n else c for c, n in zip(colours, names, strict=True)]
    summary.update(column_heads(colours, names))


def numbers_text(rounds: int, sevens: int, lang: str) -> str:
    """The game's length and its sevens in words, as the end mail and the archive say them:
    "16 Runden; die 7 fiel 6-mal" ("16 rounds; the 7 was rolled 6 times")."""
    tr = translator(lang)
    length = tr.ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)
    if sevens == 0:
        # Translators: no roll of the whole game made 7 (after "16 rounds; ").
        seven = tr.gettext("no 7 was rolled")
    elif sevens == 1:
        # Translators: one roll of the whole game made 7 (after "16 rounds; ").
        seven = tr.gettext("the 7 was rolled once")
    else:
        # Translators: how often a roll made 7 in the whole game (after "16 rounds; "); every
        # form keeps {n} (the count is 2 or more here).
        seven = tr.ngettext("the 7 was rolled {n} time", "the 7 was rolled {n} times", sevens)
        seven = seven.format(n=sevens)
    # Translators: the game's length, then how often the 7 was rolled ("16 rounds; the 7 …").
    return tr.gettext("{length}; {sevens}").format(length=length, sevens=seven)


def _count(totals: list[dict[str, int]], p: int, key: str, n: int = 1) -> None:
    if 0 <= p < len(totals):
        totals[p][key] += n


def game_summary(
    steps: Iterable[tuple[int, Sequence[ev.Event]]], final: GameState, lang: str
) -> dict[str, Any]:
    """`steps`: (round, events) of every step, setup included, in order."""
    tr = translator(lang)
    players = len(final.colours)
    totals = [dict.fromkeys((*COLUMNS, *SEA_COLUMNS, *KRON_COLUMNS), 0) for _ in range(players)]
    sevens = 0
    titles: list[str] = []
    rounds = 0

    def name(p: int) -> str:
        return vocab.colour_name(final.colours[p], lang) if p >= 0 else tr.gettext("nobody")

    for round_, events in steps:
        rounds = max(rounds, round_)
        for e in events:
            if isinstance(e, ev.Produced):
                _count(totals, e.player, "produced", e.amount)
            elif isinstance(e, ev.Rolled) and e.total == 7:
                sevens += 1
            elif isinstance(e, ev.Stole):
                _count(totals, e.thief, "robbed")
                _count(totals, e.victim, "lost")
            elif isinstance(e, ev.MonopolyTaken):
                _count(totals, e.player, "robbed", e.amount)
                _count(totals, e.victim, "lost", e.amount)
            elif isinstance(e, FeastGiven):
                # Kronlande's Festmahl takes as a monopoly does: one card from each holder.
                _count(totals, e.player, "robbed")
                _count(totals, e.giver, "lost")
            elif isinstance(e, ev.Discarded):
                _count(totals, e.player, "discarded", sum(e.cards))
            elif isinstance(e, ev.TradeDone):
                _count(totals, e.first, "traded")
                _count(totals, e.second, "traded")
            elif isinstance(e, ev.MaritimeTraded):
                _count(totals, e.player, "traded")
            elif isinstance(e, ev.Built) and e.piece in ("settlement", "city", "road"):
                _count(
                    totals,
                    e.player,
                    {"settlement": "settlements", "city": "cities", "road": "roads"}[e.piece],
                )
            elif isinstance(e, ev.Built) and e.piece in ("castle", "residence"):
                _count(totals, e.player, "castles" if e.piece == "castle" else "residences")
            elif isinstance(e, ev.Built) and e.piece == "ship":
                _count(totals, e.player, "ships")
            elif isinstance(e, ev.Built) and e.piece in _WORKSHOPS:
                _count(totals, e.player, "workshops")
            elif isinstance(e, GoodsMade):
                _count(totals, e.player, "goods", e.count)
            elif isinstance(e, ev.CardBought):
                _count(totals, e.player, "cards")
            elif isinstance(e, ev.CardPlayed) and e.card == "knight":
                _count(totals, e.player, "knights")
            elif isinstance(e, ev.TitleChanged):
                text = tr.gettext("Round {round}: {title} {old} → {new} ({length})")
                titles.append(
                    text.format(
                        round=round_,
                        title=title_name(e.title, lang),
                        old=name(e.old),
                        new=name(e.new),
                        length=e.length,
                    )
                )
    # One row per count, one column per player: six players still fit in 72 columns.
    # Translators: the heading of the summary's row of victory points (German: Siegpunkte).
    table = [(tr.pgettext("game summary", "VP"), [final.vp(p) for p in range(players)])]
    headings = _headings(lang)
    table += [(headings[i], [totals[p][c] for p in range(players)]) for i, c in enumerate(COLUMNS)]
    if final.sea is not None:
        # Translators: the row of ships built in the game summary (German: Schiffe).
        ships = translator(lang).pgettext("game summary", "ships")
        table.append((ships, [totals[p]["ships"] for p in range(players)]))
    if final.kron is not None:
        kron = _kron_headings(lang)
        table += [
            (kron[i], [totals[p][c] for p in range(players)]) for i, c in enumerate(KRON_COLUMNS)
        ]
    colours = [name(p) for p in range(players)]
    return {
        "rounds": rounds,
        "sevens": sevens,
        "numbers": numbers_text(rounds, sevens, lang),
        "colours": colours,
        "players": colours,
        **column_heads(colours, [""] * players),
        "table": table,
        "titles": titles,
    }
