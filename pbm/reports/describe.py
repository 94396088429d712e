"""Events as lines of plain text, in the game's language. Public events only: a card bought
shows as its number (the codebook code comes with the reports of issue 6), never its type."""

from __future__ import annotations

from pbm.notation import vocab
from pbm.notation.names import crossing_text, hex_short_name, path_text
from pbm.reports.codebook import CARD_NAMES
from pbm.rules import events as ev
from pbm.rules.board import Board
from pbm.rules.resources import Counts
from pbm.rules.state import GameState

RULES = {
    "de": {
        "cannot_afford": "zu wenig Karten",
        "occupied": "der Platz ist besetzt",
        "distance_rule": "Abstandsregel",
        "not_connected": "keine eigene Straße dorthin",
        "no_pieces_left": "keine Figuren mehr",
        "not_own_settlement": "keine eigene Siedlung",
        "not_land": "nicht an Land",
        "card_not_held": "Karte nicht auf der Hand",
        "card_bought_this_round": "Karte erst diese Runde gekauft",
        "one_card_per_round": "nur eine Karte je Runde",
        "deck_empty": "keine Karten mehr",
        "bank_empty": "die Bank hat keine mehr",
        "no_legal_road": "keine erlaubte Straße",
        "below_harbour_rate": "unter dem Hafenkurs",
        "cards_not_held": "Karten nicht da",
        "same_resource": "gleicher Rohstoff",
        "robber_must_move": "der Räuber muss ziehen",
        "robber_not_on_number": "der Räuber muss auf ein Zahlenfeld",
        "newcomer_protection": "Neulingsschutz",
        "no_robber_order": "kein Räuberzug",
        "not_confirmed_by_partner": "vom Partner nicht bestätigt",
        "no_gifts": "Geschenk",
        "like_for_like": "Gleiches gegen Gleiches",
    },
    "en": {
        "cannot_afford": "not enough cards",
        "occupied": "the place is taken",
        "distance_rule": "distance rule",
        "not_connected": "no road of yours leads there",
        "no_pieces_left": "no pieces left",
        "not_own_settlement": "no settlement of yours",
        "not_land": "not on land",
        "card_not_held": "card not held",
        "card_bought_this_round": "card bought this round",
        "one_card_per_round": "one card per round",
        "deck_empty": "no cards left",
        "bank_empty": "the bank has none left",
        "no_legal_road": "no legal road",
        "below_harbour_rate": "below the harbour rate",
        "cards_not_held": "cards not held",
        "same_resource": "same resource",
        "robber_must_move": "the robber must move",
        "robber_not_on_number": "the robber goes onto a number",
        "newcomer_protection": "newcomer protection",
        "no_robber_order": "no robber order",
        "not_confirmed_by_partner": "not confirmed by the partner",
        "no_gifts": "a gift",
        "like_for_like": "like for like",
    },
}


#: Rules only a card play can break; with the "knight"/"monopoly" lines they name a card.
_CARD_RULES = frozenset(
    {
        "card_not_held",
        "card_bought_this_round",
        "one_card_per_round",
        "no_legal_road",
        "bank_empty",
        "robber_must_move",
        "robber_not_on_number",
        "newcomer_protection",
    }
)


def _card_play(e: ev.OrderFailed) -> bool:
    return e.line in ("knight", "monopoly") or (e.line != "robber" and e.rule in _CARD_RULES)


def rule_text(rule: str, lang: str) -> str:
    return RULES["en" if lang == "en" else "de"].get(rule, rule.replace("_", " "))


def _hex(board: Board, h: int, lang: str) -> str:
    """Label and token, always (a report names, it does not have to resolve)."""
    short = hex_short_name(board, h, lang)
    label = board.hexes[h].label
    return label if short == label else f"{label} ({short})"


def _counts(c: Counts, lang: str) -> str:
    letters = vocab.letters(lang)
    return " ".join(f"{n}{letters[r]}" for r, n in enumerate(c) if n) or "-"


def describe(e: ev.Event, state: GameState, lang: str = "de") -> str | None:
    """One line for an event, or None for events that need no line of their own."""
    de = lang != "en"
    b = state.board

    def who(p: int) -> str:
        return (
            vocab.colour_name(state.colours[p], lang) if p >= 0 else ("niemand" if de else "nobody")
        )

    letters = vocab.letters(lang)
    if isinstance(e, ev.RoundStarted):
        order = ", ".join(who(p) for p in e.build_order)
        return (
            f"Runde {e.round}, Reihenfolge: {order}" if de else f"Round {e.round}, order: {order}"
        )
    if isinstance(e, ev.Rolled):
        return (
            f"Wurf für {who(e.player)}: {e.die1}+{e.die2} = {e.total}"
            if de
            else f"Roll for {who(e.player)}: {e.die1}+{e.die2} = {e.total}"
        )
    if isinstance(e, ev.Produced):
        got, where = f"{e.amount}{letters[e.resource]}", _hex(b, e.hex, lang)
        return (
            f"  {who(e.player)} erhält {got} von {where}"
            if de
            else f"  {who(e.player)} gets {got} from {where}"
        )
    if isinstance(e, ev.ProductionBlocked):
        return (
            f"  {_hex(b, e.hex, lang)} ist vom Räuber besetzt"
            if de
            else f"  {_hex(b, e.hex, lang)} is held by the robber"
        )
    if isinstance(e, ev.BankShort):
        return (
            (
                f"  Die Bank hat nur {e.available}{letters[e.resource]} für {e.owed}: "
                f"{who(e.paid_to)} bekommt den Rest"
            )
            if de
            else (
                f"  The bank has only {e.available}{letters[e.resource]} for {e.owed}: "
                f"{who(e.paid_to)} gets what is left"
            )
        )
    if isinstance(e, ev.Discarded):
        return (
            f"  {who(e.player)} wirft ab: {_counts(e.cards, lang)}"
            if de
            else f"  {who(e.player)} discards {_counts(e.cards, lang)}"
        )
    if isinstance(e, ev.RobberMoved):
        return (
            f"  Räuber von {who(e.player)} nach {_hex(b, e.hex, lang)}"
            if de
            else f"  {who(e.player)} moves the robber to {_hex(b, e.hex, lang)}"
        )
    if isinstance(e, ev.Stole):
        return (
            f"  {who(e.thief)} raubt {who(e.victim)} 1{letters[e.resource]}"
            if de
            else f"  {who(e.thief)} steals 1{letters[e.resource]} from {who(e.victim)}"
        )
    if isinstance(e, ev.NothingToSteal):
        return "  nichts zu rauben" if de else "  nothing to steal"
    if isinstance(e, ev.NmrRobberRoll):
        return (
            f"  NMR-Räuberwurf: {e.die1 + e.die2}"
            if de
            else f"  NMR robber roll: {e.die1 + e.die2}"
        )
    if isinstance(e, ev.TradeDone):
        return (
            (
                f"Handel {who(e.first)} ↔ {who(e.second)}: {_counts(e.first_gives, lang)} "
                f"gegen {_counts(e.second_gives, lang)}"
            )
            if de
            else (
                f"Trade {who(e.first)} ↔ {who(e.second)}: {_counts(e.first_gives, lang)} "
                f"for {_counts(e.second_gives, lang)}"
            )
        )
    if isinstance(e, ev.TradeFailed):
        reason = rule_text(e.reason, lang)
        return (
            (f"Handel {who(e.player)} → {who(e.partner)} gescheitert ({reason})")
            if de
            else f"Trade {who(e.player)} → {who(e.partner)} failed ({reason})"
        )
    if isinstance(e, ev.MaritimeTraded):
        return (
            (
                f"{who(e.player)}: Seehandel {e.give_count}{letters[e.give]} gegen "
                f"{e.get_count}{letters[e.get]}"
            )
            if de
            else (
                f"{who(e.player)}: maritime {e.give_count}{letters[e.give]} for "
                f"{e.get_count}{letters[e.get]}"
            )
        )
    if isinstance(e, ev.Built):
        piece = {
            "settlement": ("Siedlung", "settlement"),
            "city": ("Stadt", "city"),
            "road": ("Straße", "road"),
        }[e.piece][0 if de else 1]
        where = (
            path_text(b, e.where, lang) if e.piece == "road" else crossing_text(b, e.where, lang)
        )
        return (
            f"{who(e.player)} baut {piece} {where}"
            if de
            else f"{who(e.player)} builds a {piece} at {where}"
        )
    if isinstance(e, ev.OrderFailed) and _card_play(e):
        # Which card failed (and why) would reveal a hidden card: the public line says less.
        return (
            f"{who(e.player)}: eine Karte konnte nicht gespielt werden"
            if de
            else f"{who(e.player)}: a card could not be played"
        )
    if isinstance(e, ev.OrderFailed):
        line = e.line.replace("build", "Bau").replace("substitute", "Ersatzbau") if de else e.line
        line = line.replace("option", "Möglichkeit") if de else line
        return (
            f"{who(e.player)}: {line} nicht ausgeführt ({rule_text(e.rule, lang)})"
            if de
            else f"{who(e.player)}: {line} not carried out ({rule_text(e.rule, lang)})"
        )
    if isinstance(e, ev.CardBought):
        return (
            f"{who(e.player)}: Karte {e.number} gekauft"
            if de
            else f"{who(e.player)}: card {e.number} bought"
        )
    if isinstance(e, ev.CardPlayed):
        card = CARD_NAMES["de" if de else "en"][e.card]
        return f"{who(e.player)} spielt {card}" if de else f"{who(e.player)} plays {card}"
    if isinstance(e, ev.MonopolyTaken):
        return (
            f"  {who(e.victim)} gibt {e.amount}{letters[e.resource]}"
            if de
            else f"  {who(e.victim)} gives {e.amount}{letters[e.resource]}"
        )
    if isinstance(e, ev.PlentyTaken):
        return (
            f"  {who(e.player)} nimmt {_counts(e.cards, lang)}"
            if de
            else f"  {who(e.player)} takes {_counts(e.cards, lang)}"
        )
    if isinstance(e, ev.TitleChanged):
        title = {
            "longest_road": ("Längste Handelsstraße", "Longest road"),
            "largest_army": ("Größte Rittermacht", "Largest army"),
        }[e.title][0 if de else 1]
        return f"{title}: {who(e.old)} → {who(e.new)}"
    if isinstance(e, ev.NoOrders):
        return (
            f"{who(e.player)}: keine Züge erhalten (NMR)"
            if de
            else f"{who(e.player)}: no moves received (NMR)"
        )
    if isinstance(e, ev.GameWon):
        return (
            f"{who(e.player)} gewinnt mit {e.vp} Siegpunkten!"
            if de
            else f"{who(e.player)} wins with {e.vp} victory points!"
        )
    if isinstance(e, ev.SetupPlaced):
        return (
            (
                f"{who(e.player)} setzt Siedlung {crossing_text(b, e.crossing, lang)}, "
                f"Straße {path_text(b, e.path, lang)}"
            )
            if de
            else (
                f"{who(e.player)} places a settlement at {crossing_text(b, e.crossing, lang)}, "
                f"road {path_text(b, e.path, lang)}"
            )
        )
    return None


def describe_all(events: list[ev.Event], state: GameState, lang: str = "de") -> list[str]:
    return [line for e in events if (line := describe(e, state, lang)) is not None]
