"""The parser's caps and the refusals they bring, in both languages; numbers that are too long;
the confirmation line, the unobserve command and password lines with trailing text.

The caps (pbm/notation/limits.py, docs/order-language.md "Limits"): a line of more than 1000
characters is refused unread, at most 300 cleaned lines of a body are read, a number has at
most 6 digits.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

from pbm.notation import Context, NotationError, OrderError, format_item, parse_line, parse_mail
from pbm.notation.clean import clean_lines
from pbm.notation.limits import MAX_DIGITS, MAX_LINE_CHARS, MAX_MAIL_LINES
from pbm.notation.lines import (
    Command,
    Confirmation,
    Password,
    RoundGuard,
)
from pbm.notation.mail import scan_mail
from pbm.rules.layouts import generate_board
from pbm.rules.orders import DiscardPreference, MaritimeTrade, RobberOrder

NOTATION = Path(__file__).resolve().parent.parent / "pbm" / "notation"


@cache
def _ctx(lang: str = "de", phase: str = "round") -> Context:
    return Context(generate_board("medium", 1), lang, ("rot", "blau", "gelb", "weiss"), phase)


def _error(line: str, lang: str = "de") -> OrderError:
    with pytest.raises(OrderError) as info:
        parse_line(line, _ctx(lang))
    return info.value


def test_the_caps_are_the_documented_ones() -> None:
    assert (MAX_LINE_CHARS, MAX_MAIL_LINES, MAX_DIGITS) == (1000, 300, 6)
    doc = (NOTATION.parent.parent / "docs" / "order-language.md").read_text(encoding="utf-8")
    for number in ("1000 characters", "300 lines", "6 digits"):
        assert f"**{number}**" in doc


# -- long lines ------------------------------------------------------------------------------


def test_a_line_over_the_cap_is_refused_for_its_length() -> None:
    line = "Siedlung " + "6L " * 400
    err = _error(line)
    assert isinstance(err, NotationError)
    assert err.key == "line_too_long"
    assert err.message == (
        "this line is 1209 characters long; lines of more than 1000 characters are not read"
    )
    assert err.localized("en") == err.message
    assert err.localized("de") == (
        "diese Zeile ist 1209 Zeichen lang; Zeilen mit mehr als 1000 Zeichen werden nicht gelesen"
    )


def test_a_line_at_the_cap_is_read() -> None:
    secret = "x" * (MAX_LINE_CHARS - len("Kennwort: "))
    assert parse_line("Kennwort: " + secret, _ctx()) == Password(secret)
    assert _error("Kennwort: " + secret + "x").key == "line_too_long"
    # Read, and refused for what it says (not for its length).
    assert _error("Siedlung " + "(" * (MAX_LINE_CHARS - 9)).key != "line_too_long"


def test_a_long_line_in_a_mail_is_refused_and_the_mail_read_on() -> None:
    long = "Straße 6L 5L" + " (" * 1_000
    parsed = parse_mail(f"Kennwort: abc\n\n{long}\nEntwicklungskarte\n", _ctx())
    _, refused, last = parsed.lines
    assert parsed.password == "abc"
    assert refused.line == 3 and refused.error is not None
    assert refused.error.key == "line_too_long" and refused.error.params["length"] == len(long)
    # The answer does not repeat the whole line.
    assert refused.text == long[:MAX_LINE_CHARS] + "…" == refused.error.text
    assert last.ok and last.canonical == "Entwicklungskarte"
    assert parsed.has_orders()


def test_long_lines_are_not_cleaned_but_passed_on() -> None:
    header = "On Monday, " + "Anna " * (MAX_LINE_CHARS // 5) + "wrote:"
    body = "\n".join(
        [
            "> " + "(" * 5_000,  # a quote: skipped, however long
            "# " + "x" * 5_000,  # a comment: skipped
            header,  # would be a quote header, but is too long to look at
            "From: " + "a@b.de " * MAX_LINE_CHARS,  # would end the mail, but is too long to look at
            "-" * (MAX_LINE_CHARS + 1),  # would be a separator line
            "Status",
            "Ende",
            "Hilfe",
        ]
    )
    assert [n for n, _ in clean_lines(body)] == [3, 4, 5, 6]
    # The same lines within the cap are cleaned as always.
    short = "\n".join(["On Monday, Anna wrote:", "Status", "From: a@b.de", "Hilfe"])
    assert clean_lines(short) == [(2, "Status")]


def test_a_long_wrapped_quote_header_is_not_skipped() -> None:
    """Gmail's two-line header: a second line over the cap is not looked at."""
    assert clean_lines("On Monday, Anna <a@b.de>\nwrote:\nStatus") == [(3, "Status")]
    body = "On Monday, Anna <a@b.de>\nwrote:" + " " * MAX_LINE_CHARS + "x\nStatus"
    assert [n for n, _ in clean_lines(body)] == [1, 2, 3]


def test_a_subject_over_the_cap_is_ignored() -> None:
    assert parse_mail("", _ctx(), "Re: AW: Hilfe").commands == ["help"]
    assert parse_mail("", _ctx(), "Re: " * 248 + "Hilfe ").commands == ["help"]  # 997 characters
    assert parse_mail("", _ctx(), "Re: " * 249 + "Hilfe").commands == []  # 1001
    assert parse_mail("", _ctx(), "Spiel: " + "x" * MAX_LINE_CHARS).game is None
    assert parse_mail("", _ctx(), "Spiel: " + "x" * 10).game == "x" * 10


@pytest.mark.parametrize(
    "subject",
    [
        "Re: [alpha] Hilfe",  # a reply to pbm's own help mail
        "[alpha] Re: Hilfe",
        "SV: Hjælp",  # Danish Outlook and Apple Mail
        "VS: Sv: Hjælp",
        "Antw: Hilfe",
        "RE : Hilfe",  # French spacing
        "Re[2]: Hilfe",
        "Re^3: AW(2): Hilfe",
        "[EXTERN] Re: [alpha] Help",
        "Fwd:Hilfe",
    ],
)
def test_reply_prefixes_and_game_tags_are_dropped_from_a_subject(subject: str) -> None:
    """What mail clients put before a subject they answer or forward, in any language, and the
    `[game]` tag of pbm's own subjects: the command after them is read."""
    assert parse_mail("", _ctx(), subject).commands == ["help"]
    assert scan_mail("", subject).commands == ["help"]


def test_a_subject_word_like_a_prefix_is_not_dropped() -> None:
    assert parse_mail("", _ctx(), "Revolution Hilfe").commands == []
    assert parse_mail("", _ctx(), "Svar Hilfe").commands == []


# -- long mails ------------------------------------------------------------------------------


def test_a_mail_of_as_many_lines_as_the_cap_is_read_whole() -> None:
    parsed = parse_mail("Status\n" * MAX_MAIL_LINES + "Kennwort: abc\n", _ctx())
    assert len(parsed.lines) == MAX_MAIL_LINES + 1
    assert parsed.password is None  # the 301st line is the password line: not read
    assert parsed.lines[-1].error is not None
    parsed = parse_mail("Status\n" * (MAX_MAIL_LINES - 1) + "Kennwort: abc\n", _ctx())
    assert parsed.ok and parsed.password == "abc"


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "only the first 300 lines of a mail are read; the rest of this mail was not read"),
        (
            "de",
            "nur die ersten 300 Zeilen einer Mail werden gelesen; der Rest dieser Mail blieb "
            "ungelesen",
        ),
    ],
)
def test_the_rest_of_a_long_mail_is_refused_once(lang: str, text: str) -> None:
    # Blank, quoted and comment lines do not count; line numbers stay those of the body.
    body = "> quote\n\n# comment\n" + "Entwicklungskarte\n" * 20_000 + "Kennwort: abc\n"
    parsed = parse_mail(body, _ctx(lang))
    assert len(parsed.lines) == MAX_MAIL_LINES + 1
    assert all(r.ok for r in parsed.lines[:-1])
    last = parsed.lines[-1]
    assert last.line == 3 + MAX_MAIL_LINES + 1 and last.text == "Entwicklungskarte"
    assert last.error is not None and last.error.key == "rest_not_read"
    assert last.error.line == last.line
    assert last.error.localized(lang) == text
    assert parsed.password is None
    assert not parsed.ok and parsed.has_orders()


def test_a_mail_over_the_cap_with_long_lines_shows_them_cut() -> None:
    parsed = parse_mail(("x" * 10_000 + "\n") * 1_000, _ctx())
    assert len(parsed.lines) == MAX_MAIL_LINES + 1
    assert {len(r.text) for r in parsed.lines} == {MAX_LINE_CHARS + 1}
    assert parsed.lines[-1].error is not None
    assert parsed.lines[-1].error.key == "rest_not_read"


# -- numbers ---------------------------------------------------------------------------------


def test_a_round_of_5000_digits_is_refused_clearly() -> None:
    (r,) = parse_mail("Runde " + "9" * 5_000, _ctx()).lines
    assert r.error is not None and r.error.key == "line_too_long"
    # Within the line cap, the number itself is refused.
    digits = "9" * (MAX_LINE_CHARS - len("Runde "))
    err = _error("Runde " + digits)
    assert err.key == "number_too_long"
    assert err.message == f"a number of {len(digits)} digits is too long here (at most 6 digits)"
    assert err.localized("de") == (
        f"eine Zahl mit {len(digits)} Ziffern ist hier zu lang (höchstens 6 Ziffern)"
    )
    assert err.column == len("Runde ") + 1


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Runde 999999", RoundGuard(999_999)),
        ("Runde: 0000012", RoundGuard(12)),
        ("Round 7.", RoundGuard(7)),
        ("Runde ٣", RoundGuard(3)),
    ],
)
def test_rounds_within_six_digits_are_read(line: str, expected: RoundGuard) -> None:
    assert parse_line(line, _ctx()) == expected


def test_a_round_of_seven_digits_is_refused() -> None:
    err = _error("Runde 1000000")
    assert (err.key, err.params["digits"]) == ("number_too_long", 7)


@pytest.mark.parametrize(
    "line",
    [
        "Abwurf: " + "9" * 300 + "W",
        "Abwurf: " + "9" * 300 + " W",
        "Handel blau: gebe " + "5" * 300 + "H, bekomme 1E",
        "Erfindung " + "1" * 7 + "H",
        "Abwurf: 100W",
    ],
)
def test_long_counts_are_refused_as_too_high(line: str) -> None:
    err = _error(line)
    assert err.key == "count_too_high"
    assert str(err.params["count"]).lstrip("0") in line


def test_a_long_count_shows_its_digits() -> None:
    err = _error("Abwurf: 000" + "7" * 20 + "W")
    assert err.message == f"{'7' * 20} cards of one kind are more than anyone holds"
    assert err.column == len("Abwurf: ") + 1


def test_a_discard_list_holds_at_most_99_cards() -> None:
    """It is echoed card by card: a line of `99W 99W …` would come back 50 times as long."""
    item = parse_line("Abwurf: 50W 49H", _ctx())
    assert isinstance(item, DiscardPreference) and len(item.resources) == 99
    err = _error("Abwurf: 50W 49H G")
    assert (err.key, err.column) == ("too_many_cards", len("Abwurf: 50W 49H ") + 1)
    assert err.localized("de") == "100 Karten hat niemand (höchstens 99 in einer Liste)"
    (r,) = parse_mail("Abwurf: " + "99W " * 240, _ctx()).lines
    assert r.error is not None and r.error.key == "too_many_cards"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Abwurf: 0000002W", DiscardPreference((2, 2))),
        ("Abwurf: ٣W", DiscardPreference((2, 2, 2))),
        ("Seehandel 0000004H gegen 1E", MaritimeTrade(0, 4, 4, 1)),
    ],
)
def test_counts_with_leading_zeros_and_other_digits_are_read(line: str, expected: object) -> None:
    assert parse_line(line, _ctx()) == expected


@pytest.mark.parametrize(
    "line",
    [
        "Seehandel " + "4" * 300 + "H gegen 1E",
        "Seehandel 4H gegen " + "1" * 300 + "E",
        "Seehandel 1000000H gegen 1E",
    ],
)
def test_long_bank_trade_counts_are_too_many(line: str) -> None:
    assert _error(line).key == "maritime_too_many"


@pytest.mark.parametrize("line", ["Abwurf: ²", "Abwurf: 2²", "Abwurf: ²W", "Discard: ¹ W"])
def test_digits_that_are_not_decimal_are_no_count(line: str) -> None:
    """`str.isdigit()` holds for superscripts, which `int()` refuses: this raised ValueError."""
    (r,) = parse_mail(line, _ctx()).lines
    assert r.error is not None and r.error.key == "resource_expected"


def test_int_is_only_ever_given_bounded_digits() -> None:
    """Every `int()` in the notation modules: in `_number` (at most MAX_DIGITS significant
    digits) or on a `\\d{1,2}` group."""
    # `_away`: on `\d{4}` and `\d{1,2}` groups of `Urlaub bis 2026-12-24` (issue 15).
    # `choice_number`: on the `\d{1,2}` group of a setup choice's label (`Alternativ 2:`).
    # `_discard`: on the `[1-9][0-9]?+` group of a discard's count (`Discard 4: …`).
    allowed = {
        ("counts.py", "_number"),
        ("names.py", "_hex_candidates"),
        ("headers.py", "_away"),
        ("setup.py", "choice_number"),
        ("robber.py", "_discard"),
    }
    found = set()
    for path in sorted(NOTATION.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "int"
                ):
                    found.add((path.name, fn.name))
    assert found == allowed


# -- confirmation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "token"),
    [
        ("Bestätigen: AB-12cd", "AB-12cd"),
        ("Bestaetigen AB-12cd", "AB-12cd"),
        ("bestätigen:ab12", "ab12"),
        ("Confirm: x-1", "x-1"),
        ("CONFIRM x-1.", "x-1"),
        ("Bestätigen: AB-12 (aus der Mail)", "AB-12"),
        ("Confirm: AB-12, thanks", "AB-12"),
        ("Bestätigen: " + "a" * 40, "a" * 40),
    ],
)
def test_a_confirmation_line_gives_its_code(line: str, token: str) -> None:
    for lang in ("de", "en"):
        assert parse_line(line, _ctx(lang)) == Confirmation(token)


def test_a_confirmation_is_echoed_and_not_an_order() -> None:
    for lang, echo in (("de", "Bestätigen: AB-12"), ("en", "Confirm: AB-12")):
        parsed = parse_mail("Bestätigen: AB-12\n", _ctx(lang))
        (r,) = parsed.lines
        assert r.canonical == echo
        assert parsed.confirm == "AB-12"
        assert not parsed.has_orders()
        assert parse_line(echo, _ctx(lang)) == Confirmation("AB-12")
        assert format_item(Confirmation("AB-12"), _ctx(lang)) == echo
    assert parse_mail("Status\n", _ctx()).confirm is None
    # Not from the subject: an auto-reply would send the code back by itself.
    assert parse_mail("Status\n", _ctx(), "Re: Bestätigen: AB-12").confirm is None


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("Bestätigen: ab_c", "ab_c"),
        ("Bestätigen: " + "a" * 41, "a" * 41),
        ("Confirm: äbc", "äbc"),
    ],
)
def test_a_bad_confirmation_code_is_refused(line: str, shown: str) -> None:
    err = _error(line)
    assert err.key == "token_expected" and err.params["shown"] == shown
    assert err.message == (
        "a confirmation code (letters, digits and '-', at most 40 "
        f"characters) was expected, not {shown!r}"
    )
    assert err.localized("de") == (
        f"{shown!r} ist kein Bestätigungscode (Buchstaben, Ziffern und '-', höchstens 40 Zeichen)"
    )
    assert err.column == line.index(shown) + 1


def test_a_confirmation_without_a_code_is_refused() -> None:
    assert _error("Bestätigen:").key == "value_expected"
    assert _error("Confirm").key == "value_expected"


# -- observing -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Beobachten beenden",
        "nicht mehr beobachten",
        "Nicht mehr zuschauen",
        "Stop observing",
        "stop watching",
        "Unobserve",
        "unobserve.",
    ],
)
def test_unobserve(line: str) -> None:
    assert parse_line(line, _ctx()) == Command("unobserve")


def test_observe_is_unchanged_and_unobserve_is_echoed() -> None:
    for line in ("Beobachten", "Observe", "zuschauen", "watch"):
        assert parse_line(line, _ctx()) == Command("observe")
    for lang, echo in (("de", "Beobachten beenden"), ("en", "Stop observing")):
        assert format_item(Command("unobserve"), _ctx(lang)) == echo
        assert parse_line(echo, _ctx(lang)) == Command("unobserve")
    assert parse_mail("", _ctx(), "Re: Beobachten beenden").commands == ["unobserve"]
    assert not parse_mail("Unobserve", _ctx()).has_orders()


# -- passwords -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "secret"),
    [
        ("Kennwort: blau-kadu-mepi (aus der Mail)", "blau-kadu-mepi"),
        ("Passwort: xyz, Runde 4", "xyz"),
        ("Password: abc def", "abc"),
        ("PW = abc,def", "abc"),
        ("Kennwort:\tabc\tdef", "abc"),
        ("Kennwort: Xy.Z!", "Xy.Z"),  # sentence punctuation after it is no part of it
        ("Kennwort xyz", "xyz"),
    ],
)
def test_a_password_line_gives_only_the_password(line: str, secret: str) -> None:
    assert parse_line(line, _ctx()) == Password(secret)


def test_a_password_line_with_trailing_text_sets_nothing_else() -> None:
    parsed = parse_mail("Passwort: xyz, Runde 4\n", _ctx())
    assert (parsed.password, parsed.round) == ("xyz", None)
    assert parsed.lines[0].canonical == "Kennwort: ****"


def test_a_password_line_without_a_password_is_refused() -> None:
    for line in ("Kennwort:", "Kennwort: ,", "Kennwort: , ,"):
        assert _error(line).key == "value_expected"


# -- found on the way ------------------------------------------------------------------------


def test_steal_from_names_the_victim() -> None:
    """`steal from` was read as `steal` and `from` as a colour."""
    ctx = _ctx("en")
    item = parse_line("Robber C3, steal from red", ctx)
    assert isinstance(item, RobberOrder) and item.victims == (0,)
    assert parse_line("Robber C3, steal red", ctx) == item


@pytest.mark.parametrize(
    "subject",
    [
        "Re: [alpha] Anmeldung erhalten",
        "Re: [alpha] Anmeldung bestätigen",
        "AW: [a] Anmeldung",
        # pbm's own subjects kept as they are by an unmarked responder: no new signup either.
        "[alpha] Anmeldung erhalten",
        "[alpha] Signup received",
        "[alpha] Tilmelding modtaget",
    ],
)
def test_a_reply_to_pbms_signup_mail_is_no_new_signup(subject: str) -> None:
    """A tagged subject is pbm's own mail answered: it asks again only what answers (help,
    status, players, history), never a signup."""
    assert parse_mail("", _ctx(), subject).commands == []
    assert scan_mail("", subject).commands == []
    assert parse_mail("", _ctx(), "Anmeldung").commands == ["join"]


@pytest.mark.parametrize(
    ("subject", "tag"),
    [
        ("[EXTERN] Re: [alpha] Help", "alpha"),
        ("Re[2]: [alpha] x", "alpha"),
        ("[alpha] Re: Hilfe", "alpha"),
        ("Re [2]: Hilfe", ""),
        ("Hilfe [x]", ""),
    ],
)
def test_the_tag_nearest_a_subjects_text_names_the_game(subject: str, tag: str) -> None:
    from pbm.notation.mail import subject_tag
    from pbm.service.mail_lookup import bracketed

    assert subject_tag(subject) == tag
    assert bracketed("Re [2]: Hilfe") == "" and bracketed("Re[2]: Hilfe") == ""
