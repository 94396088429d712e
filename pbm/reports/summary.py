"""The game-end report's summary of the whole game, from every step's events: per player what
they produced, robbed, lost, traded, built and played, and the title changes. Plain text, no
links: it is read in the mail, long after the game."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pbm.notation import vocab
from pbm.rules import events as ev
from pbm.rules.state import GameState

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
HEADINGS = {
    "de": (
        "Ertrag",
        "geraubt",
        "verloren",
        "abgeworfen",
        "Handel",
        "Siedlungen",
        "Städte",
        "Straßen",
        "Karten",
        "Ritter",
    ),
    "en": (
        "produced",
        "robbed",
        "lost",
        "discarded",
        "trades",
        "settlements",
        "cities",
        "roads",
        "cards",
        "knights",
    ),
}
_TITLES = {
    "de": {"longest_road": "Längste Handelsstraße", "largest_army": "Größte Rittermacht"},
    "en": {"longest_road": "Longest road", "largest_army": "Largest army"},
}


def _count(totals: list[dict[str, int]], p: int, key: str, n: int = 1) -> None:
    if 0 <= p < len(totals):
        totals[p][key] += n


def game_summary(
    steps: Iterable[tuple[int, Sequence[ev.Event]]], final: GameState, lang: str
) -> dict[str, Any]:
    """`steps`: (round, events) of every step, setup included, in order."""
    lang = "en" if lang == "en" else "de"
    players = len(final.colours)
    totals = [dict.fromkeys(COLUMNS, 0) for _ in range(players)]
    sevens = 0
    titles: list[str] = []
    rounds = 0

    def name(p: int) -> str:
        return (
            vocab.colour_name(final.colours[p], lang)
            if p >= 0
            else ("nobody" if lang == "en" else "niemand")
        )

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
                what = _TITLES[lang].get(e.title, e.title)
                titles.append(
                    f"{'Round' if lang == 'en' else 'Runde'} {round_}: {what} "
                    f"{name(e.old)} → {name(e.new)} ({e.length})"
                )
    # One row per count, one column per player: six players still fit in 72 columns.
    table = [("Siegpunkte" if lang == "de" else "VP", [final.vp(p) for p in range(players)])]
    table += [
        (HEADINGS[lang][i], [totals[p][c] for p in range(players)]) for i, c in enumerate(COLUMNS)
    ]
    return {
        "rounds": rounds,
        "sevens": sevens,
        "players": [name(p) for p in range(players)],
        "table": table,
        "titles": titles,
    }
