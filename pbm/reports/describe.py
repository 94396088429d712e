"""Events as lines of plain text, in the game's language. Public events only: a card bought
shows as its number (the codebook code comes with the reports of issue 6), never its type."""

from __future__ import annotations

from pbm.notation import vocab
from pbm.notation.names import crossing_text, hex_text, path_text
from pbm.reports.codebook import CARD_NAMES
from pbm.rules import events as ev
from pbm.rules.resources import Counts
from pbm.rules.state import GameState


def _counts(c: Counts, lang: str) -> str:
    letters = vocab.letters(lang)
    return " ".join(f"{n}{letters[r]}" for r, n in enumerate(c) if n) or "-"


def describe(e: ev.Event, state: GameState, lang: str = "de") -> str | None:
    """One line for an event, or None for events that need no line of their own."""
    de = lang != "en"
    b = state.board

    def who(p: int) -> str:
        return vocab.colour_name(state.colours[p], lang) if p >= 0 else ("niemand" if de else
                                                                         "nobody")

    letters = vocab.letters(lang)
    if isinstance(e, ev.RoundStarted):
        order = ", ".join(who(p) for p in e.build_order)
        return f"Runde {e.round}, Reihenfolge: {order}" if de else \
            f"Round {e.round}, order: {order}"
    if isinstance(e, ev.Rolled):
        return f"Wurf für {who(e.player)}: {e.die1}+{e.die2} = {e.total}" if de else \
            f"Roll for {who(e.player)}: {e.die1}+{e.die2} = {e.total}"
    if isinstance(e, ev.Produced):
        return f"  {who(e.player)} erhält {e.amount}{letters[e.resource]} " \
               f"({hex_text(b, e.hex, lang)})" if de else \
            f"  {who(e.player)} gets {e.amount}{letters[e.resource]} ({hex_text(b, e.hex, lang)})"
    if isinstance(e, ev.ProductionBlocked):
        return f"  {hex_text(b, e.hex, lang)} ist vom Räuber besetzt" if de else \
            f"  {hex_text(b, e.hex, lang)} is held by the robber"
    if isinstance(e, ev.BankShort):
        return (f"  Die Bank hat nur {e.available}{letters[e.resource]} für {e.owed}: "
                f"{who(e.paid_to)} bekommt den Rest") if de else (
            f"  The bank has only {e.available}{letters[e.resource]} for {e.owed}: "
            f"{who(e.paid_to)} gets what is left")
    if isinstance(e, ev.Discarded):
        return f"  {who(e.player)} wirft ab: {_counts(e.cards, lang)}" if de else \
            f"  {who(e.player)} discards {_counts(e.cards, lang)}"
    if isinstance(e, ev.RobberMoved):
        return f"  Räuber von {who(e.player)} nach {hex_text(b, e.hex, lang)}" if de else \
            f"  {who(e.player)} moves the robber to {hex_text(b, e.hex, lang)}"
    if isinstance(e, ev.Stole):
        return f"  {who(e.thief)} raubt {who(e.victim)} 1{letters[e.resource]}" if de else \
            f"  {who(e.thief)} steals 1{letters[e.resource]} from {who(e.victim)}"
    if isinstance(e, ev.NothingToSteal):
        return "  nichts zu rauben" if de else "  nothing to steal"
    if isinstance(e, ev.NmrRobberRoll):
        return f"  NMR-Räuberwurf: {e.die1 + e.die2}" if de else \
            f"  NMR robber roll: {e.die1 + e.die2}"
    if isinstance(e, ev.TradeDone):
        return (f"Handel {who(e.first)} ↔ {who(e.second)}: {_counts(e.first_gives, lang)} "
                f"gegen {_counts(e.second_gives, lang)}") if de else (
            f"Trade {who(e.first)} ↔ {who(e.second)}: {_counts(e.first_gives, lang)} "
            f"for {_counts(e.second_gives, lang)}")
    if isinstance(e, ev.TradeFailed):
        return (f"Handel {who(e.player)} → {who(e.partner)} gescheitert ({e.reason})") if de \
            else f"Trade {who(e.player)} → {who(e.partner)} failed ({e.reason})"
    if isinstance(e, ev.MaritimeTraded):
        return (f"{who(e.player)}: Seehandel {e.give_count}{letters[e.give]} gegen "
                f"{e.get_count}{letters[e.get]}") if de else (
            f"{who(e.player)}: maritime {e.give_count}{letters[e.give]} for "
            f"{e.get_count}{letters[e.get]}")
    if isinstance(e, ev.Built):
        piece = {"settlement": ("Siedlung", "settlement"), "city": ("Stadt", "city"),
                 "road": ("Straße", "road")}[e.piece][0 if de else 1]
        where = path_text(b, e.where, lang) if e.piece == "road" else \
            crossing_text(b, e.where, lang)
        return f"{who(e.player)} baut {piece} {where}" if de else \
            f"{who(e.player)} builds a {piece} at {where}"
    if isinstance(e, ev.OrderFailed):
        return f"{who(e.player)}: {e.line} nicht ausgeführt ({e.rule})" if de else \
            f"{who(e.player)}: {e.line} not carried out ({e.rule})"
    if isinstance(e, ev.CardBought):
        return f"{who(e.player)}: Karte {e.number} gekauft" if de else \
            f"{who(e.player)}: card {e.number} bought"
    if isinstance(e, ev.CardPlayed):
        card = CARD_NAMES["de" if de else "en"][e.card]
        return f"{who(e.player)} spielt {card}" if de else f"{who(e.player)} plays {card}"
    if isinstance(e, ev.MonopolyTaken):
        return f"  {who(e.victim)} gibt {e.amount}{letters[e.resource]}" if de else \
            f"  {who(e.victim)} gives {e.amount}{letters[e.resource]}"
    if isinstance(e, ev.PlentyTaken):
        return f"  {who(e.player)} nimmt {_counts(e.cards, lang)}" if de else \
            f"  {who(e.player)} takes {_counts(e.cards, lang)}"
    if isinstance(e, ev.TitleChanged):
        title = {"longest_road": ("Längste Handelsstraße", "Longest road"),
                 "largest_army": ("Größte Rittermacht", "Largest army")}[e.title][0 if de else 1]
        return f"{title}: {who(e.old)} → {who(e.new)}"
    if isinstance(e, ev.NoOrders):
        return f"{who(e.player)}: keine Züge erhalten (NMR)" if de else \
            f"{who(e.player)}: no moves received (NMR)"
    if isinstance(e, ev.GameWon):
        return f"{who(e.player)} gewinnt mit {e.vp} Siegpunkten!" if de else \
            f"{who(e.player)} wins with {e.vp} victory points!"
    if isinstance(e, ev.SetupPlaced):
        return (f"{who(e.player)} setzt Siedlung {crossing_text(b, e.crossing, lang)}, "
                f"Straße {path_text(b, e.path, lang)}") if de else (
            f"{who(e.player)} places a settlement at {crossing_text(b, e.crossing, lang)}, "
            f"road {path_text(b, e.path, lang)}")
    return None


def describe_all(events: list[ev.Event], state: GameState, lang: str = "de") -> list[str]:
    return [line for e in events if (line := describe(e, state, lang)) is not None]
