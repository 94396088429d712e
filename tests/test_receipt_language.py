"""Refusals at receipt speak the game's language (the rule code is the same in both)."""

from __future__ import annotations

from helpers import game, settle

from pbm.notation import Context, IllegalOrderError, parse_mail
from pbm.notation.checks import check_receipt


def test_a_taken_crossing_is_refused_in_german_and_english() -> None:
    s = game()
    settle(s, 1, "C3 C4 D4")
    for lang, message in (("de", "dieser Platz ist besetzt"), ("en", "that place is taken")):
        parsed = parse_mail("Siedlung C3 C4 D4\n", Context(s.board, lang, s.colours))
        check_receipt(parsed, s, 0, lang)
        (line,) = parsed.lines
        assert isinstance(line.error, IllegalOrderError)
        assert (line.error.rule, line.error.message) == ("occupied", message)
