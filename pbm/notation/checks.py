"""Checks at receipt: what can already be seen to fail for this player on this board now.

Hands change with the rolls, so cost is never checked here; the engine decides final legality
at resolution. What is checked is what no roll can change: a crossing taken, a road or
settlement touching nothing of the player's (counting what the same mail builds before it),
a card the player does not hold, a robber sent to sea, a trade that breaks the trading rules.
A line that fails here gets an `IllegalOrderError` and is left out of the orders.

The rules decide: each line is asked of the legal-move view (`LegalMoves.certain_problem`), and
the later lines of the mail are asked of the view after the earlier ones (`LegalMoves.after`),
which never changes the state it is given.
"""

from __future__ import annotations

from pbm.rules.legal import LegalMoves
from pbm.rules.reasons import Reason
from pbm.rules.state import GameState

from .errors import IllegalOrderError
from .mail import ParsedMail
from .messages import receipt_text


def _illegal(rule: Reason, lang: str = "en") -> IllegalOrderError:
    # The message is in the language the checks run in (`localized` gives any other): the
    # texts are the catalogue's, `messages.RECEIPT`.
    return IllegalOrderError(receipt_text(rule, lang), rule=rule)


def check_receipt(parsed: ParsedMail, state: GameState, seat: int, lang: str = "en") -> None:
    """Mark the lines of a parsed mail that can already be seen to fail (the mail's results
    change; the state does not).

    Later lines may build on earlier ones, so each line is checked on the view after the earlier
    lines (the first workable option of an `oder` line). Substitute lines run only when a main
    line failed, so they pass if they work either after the main lines or without them.
    """
    main = LegalMoves(state, seat)
    without_main = main  # for the substitute block: as if no main line had been built
    for result in parsed.lines:
        item = result.item
        if not result.ok or item is None:
            continue
        views = (main, without_main) if result.substitute else (main,)
        rules = [view.certain_problem(item) for view in views]
        rule = rules[0]
        if rule is not None and all(rules):
            result.error = _illegal(rule, lang).at(result.line, result.text)
            result.item = None
            continue
        if rule is None:
            main = main.after(item)
        if result.substitute and rules[1] is None:
            without_main = without_main.after(item)
