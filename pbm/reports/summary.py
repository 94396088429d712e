"""The game-end report's summary of the whole game, from every step's events: per player what
they produced, robbed, lost, traded, built and played, and the title changes. Plain text, no
links: it is read in the mail, long after the game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.rules import events as ev
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


def _count(totals: list[dict[str, int]], p: int, key: str, n: int = 1) -> None:
    if 0 <= p < len(totals):
        totals[p][key] += n


def game_summary(
    steps: Iterable[tuple[int, Sequence[ev.Event]]], final: GameState, lang: str
) -> dict[str, Any]:
    """`steps`: (round, events) of every step, setup included, in order."""
    tr = translator(lang)
    players = len(final.colours)
    totals = [dict.fromkeys(COLUMNS, 0) for _ in range(players)]
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
    return {
        "rounds": rounds,
        "sevens": sevens,
        "players": [name(p) for p in range(players)],
        "table": table,
        "titles": titles,
    }
