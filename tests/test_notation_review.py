"""Lines a review found read with another meaning than the player's (or dropped unseen), each
with the reading it must get: refused with a reason, or read whole."""

from __future__ import annotations

import time

import pytest

from pbm.notation import Context, parse_line, parse_mail
from pbm.notation.clean import clean_lines, iter_clean_lines
from pbm.notation.lines import Heading, Knight, RobberOrder
from pbm.rules.layouts import generate_board
from pbm.rules.state import DEFAULT_COLOURS


def _ctx(lang: str = "de", phase: str = "round") -> Context:
    return Context(generate_board("medium", 1), lang, DEFAULT_COLOURS[:4], phase)


def _read(body: str, lang: str = "de") -> list[tuple[int, bool, str | None, str]]:
    parsed = parse_mail(body, _ctx(lang))
    return [
        (r.line, r.ok, r.canonical if r.ok else (r.error.key if r.error else None), r.block)
        for r in parsed.lines
    ]


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("Spiele Ritter vor dem Wurf:", "de"),
        ("Zuerst Ritter spielen:", "de"),
        ("Build a city:", "en"),
        ("Then a road:", "en"),
        ("Play the knight after rolling:", "en"),
    ],
)
def test_a_line_in_heading_form_that_names_an_order_is_never_passed_over(
    line: str, lang: str
) -> None:
    parsed = parse_mail(f"{line}\n", _ctx(lang))
    assert [r.line for r in parsed.lines] == [1]
    assert not parsed.lines[0].ok


def test_a_heading_without_a_condition_is_passed_over() -> None:
    assert isinstance(parse_line("Bauen (in dieser Reihenfolge):", _ctx()), Heading)
    assert isinstance(parse_line("Meine Karten laut Bericht:", _ctx()), Heading)


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Ersatzbau:\nStraße 6L 5L\n\nHauptzüge:\nSiedlung 6L 5L 11G\n", "de"),
        ("Substitute:\nRoad 6B 5B\n\nMain builds:\nSettlement 6B 5B 11G\n", "en"),
    ],
)
def test_a_heading_ends_the_substitute_block(body: str, lang: str) -> None:
    blocks = [(line, block) for line, ok, _, block in _read(body, lang) if ok]
    assert blocks[-1] == (5, "main"), blocks


@pytest.mark.parametrize(
    "line",
    [
        "- Räuber 6L (blau)",
        "Bitte Räuber 6L (blau)",
        "Entwicklungskarte (zweimal)",
        "Seehandel 4H gegen 1E (dreimal)",
        "Stadt 8H 3E 4H (falls die Siedlung scheitert)",
        "Abwurf: W W (und G)",
        "Seehandel 4H gegen 1E (erst nach dem Handel mit rot)",
        "Siedlung 6L 5L 11G -- oder Stadt 8H 3E 4H",
        # After dashes as in brackets: the victim, the count, the resource (issue 13's rule).
        "Räuber 6L -- raube gelb",
        "Entwicklungskarte -- zweimal",
        "Seehandel 4H gegen 1E -- dreimal",
        "Abwurf: W W -- dann Erz",
        # A phone makes ` — ` of ` -- `.
        "Räuber 6L \u2014 raube gelb",
        "Entwicklungskarte \u2014 zweimal",
        "Stadt 8H 3E 4H, wenn mein Angebot angenommen wird",
        "Stadt 8H 3E 4H, wenn ich zu viele Karten habe",
    ],
)
def test_what_may_change_the_order_is_refused_never_dropped(line: str) -> None:
    [(_line, ok, key, _)] = _read(f"{line}\n")
    assert not ok, key


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("Entwicklungskarte (falls es reicht)", "Entwicklungskarte"),
        ("Straße 6L 5L # zuerst", "Straße C3 C4 (6L 5L)"),
        ("Straße 6L 5L -- endlich", "Straße C3 C4 (6L 5L)"),
        # An article or `one` is no count; a word of time no condition.
        ("Straße 6L 5L -- ein Versuch", "Straße C3 C4 (6L 5L)"),
        ("Straße 6L 5L -- endlich eine neue", "Straße C3 C4 (6L 5L)"),
        ("Straße C3 \u2014 C4", "Straße C3 C4 (6L 5L)"),
        ("Straße 6L 5L \u2014 zuerst", "Straße C3 C4 (6L 5L)"),
        # An em dash between hexes is a dash, no remark.
        ("Straße 6L \u2014 5L", "Straße C3 C4 (6L 5L)"),
        ("Straße 6L \u2013 5L", "Straße C3 C4 (6L 5L)"),
        # After `#`, the guide's mark of a remark, a colour is a remark.
        ("Räuber 6L # gelb hat die meisten Karten", "Räuber C3 (6L)"),
        ("Siedlung 6L 5L 11G (wichtig!)", "Siedlung C3 C4 D4 (6L 5L 11G)"),
        ("Runde 7 (gelb)", "Runde: 7"),
        ("Entwicklungskarte, falls dann noch was übrig ist.", "Entwicklungskarte"),
    ],
)
def test_remarks_on_paying_and_emphasis_are_passed_over(line: str, canonical: str) -> None:
    assert _read(f"{line}\n")[0][1:3] == (True, canonical)


def test_a_condition_heading_about_something_else_guards_the_lines_under_it() -> None:
    read = _read("Falls ich nicht beraubt werde:\nStadt 8H 3E 4H\n")
    assert [(line, ok) for line, ok, _, _ in read] == [(1, False), (2, False)]


def test_a_closing_in_the_middle_does_not_end_the_mail() -> None:
    read = _read(
        "Handel blau: gebe 1H, bekomme 1E\nDanke blau!\nStraße 6L 5L\n\nViele Grüße\nAnna\n"
    )
    assert [(line, ok) for line, ok, _, _ in read] == [(1, True), (3, True)]


def test_a_knight_with_a_comma_after_its_timing() -> None:
    knight = parse_line("Ritter nach Wurf, Räuber 6L, raube rot", _ctx())
    assert isinstance(knight, Knight) and knight.robber == RobberOrder(11, (0,))


def test_html_left_in_a_line_never_makes_a_second_line_or_eats_an_address() -> None:
    assert _read("Straße 6L 5L&nbsp;<br>\n") == [(1, True, "Straße C3 C4 (6L 5L)", "main")]
    quoted = "Hi\nAm Mo., 4. Mai 2026 um 09:00 Uhr schrieb Anna <b.schmidt@web.de>:\n> Runde: 5\n"
    assert _read(quoted) == []


@pytest.mark.slow  # timed, like tests/test_notation_linear.py
def test_many_build_words_on_a_line_stay_cheap() -> None:
    """`_split_builds` counts words once (it compared every pair of build words before)."""

    def cpu_seconds(words: int) -> float:
        body = "\n".join(["str " * words] * 300)
        best = float("inf")
        for _ in range(3):  # the best of three: other processes' cache misses count too
            start = time.process_time()
            parse_mail(body, _ctx())
            best = min(best, time.process_time() - start)
        return best

    # Ten times the words a line: ten times the time when linear, a hundred when quadratic.
    short, long = cpu_seconds(24), cpu_seconds(240)
    assert long < 30 * short, (short, long)


@pytest.mark.parametrize(
    ("closing", "quote"),
    [
        # Outlook's unquoted header block above the report, whose lines start like orders.
        (
            "Gruß\nHans",
            "Von: Spielleitung <gm@pbm.test>\nGesendet: Montag, 5. Januar 2026\n"
            "An: Hans\nBetreff: [alpha] Bericht Runde 2\n\nRäuber von blau nach 6L\nKennwort: x\n",
        ),
        ("Gruß\nHans", "-----Ursprüngliche Nachricht-----\nRäuber von blau nach 6L\nKennwort: x\n"),
        (
            "Thanks\nBob",
            "From: GM <gm@pbm.test>\nSent: Monday, 5 January 2026\nTo: Bob\n"
            "Subject: [alpha] Report\n\nRobber from blue to 6L\nPassword: x\n",
        ),
        (
            "Mvh\nJens",
            "Fra: Spilleder <gm@pbm.test>\nSendt: 5. januar 2026\nTil: Jens\n"
            "Emne: [alpha] Rapport\n\nRøver fra blå til 6L\nAdgangskode: x\n",
        ),
        ("Gruß\nHans", "________________________________\nRäuber von blau nach 6L\n"),
        ("Mvh\nJens", "Start på videresendt besked:\n\nHus 6L 5L 4H\n"),
    ],
)
def test_a_name_under_a_closing_is_not_read_when_an_unquoted_mail_follows(
    closing: str, quote: str
) -> None:
    """The look past a closing for more orders ends where the reading would end: a report
    below an Outlook reply (not quoted with `>`) holds lines that start like orders, and the
    player's name under the closing is then not an order line."""
    body = f"Kennwort: x\nStraße 6L 5L\n\n{closing}\n\n{quote}"
    assert [n for n, _ in clean_lines(body)] == [1, 2]


@pytest.mark.parametrize("mark", ["--", "\u2014", "\u2013"])
def test_a_phones_smart_dash_is_a_signature_mark(mark: str) -> None:
    """iOS turns a typed `--` into an em dash: the signature under it is not read."""
    body = f"Straße 6L 5L\n{mark}\nHans Müller\nTel. 0171 1234567\n"
    assert clean_lines(body) == [(1, "Straße 6L 5L")]


def test_danish_mail_clients_forms_end_the_text() -> None:
    """Gmail's wrapped quote header, the end word and Apple Mail's forward, in Danish."""
    wrapped = "Hus 6L 5L 4H\nDen søn. 11. jan. 2026 kl. 13.08 skrev Spilleder <\ngm@pbm.test>:\nx\n"
    assert [n for n, _ in clean_lines(wrapped)] == [1]
    assert [n for n, _ in clean_lines("Hus 6L 5L 4H\nSlut\nHans\n")] == [1]
    stops: list[str] = []
    forwarded = "Hus 6L 5L 4H\n\nStart på videresendt besked:\n\nFra: x@y.dk\nHus 1\n"
    assert [n for n, _ in iter_clean_lines(forwarded, stops)] == [1]
    assert stops == ["forwarded"]


@pytest.mark.parametrize(
    "body",
    [
        "Straße 6L 5L 👍\n",
        "STRASSE 6L 5L 🙂\n",
        "Straße 6L 5L ✔️\n",
        "👍🏽\nStraße 6L 5L\n",
        "Straße 6L 5L\n❤️\n",
    ],
)
def test_a_phones_pictographs_mean_nothing_in_an_order(body: str) -> None:
    """An emoji beside an order, or on a line of its own, is read as a blank: the order stands
    and nothing is refused for it."""
    read = _read(body)
    assert [(ok, canonical) for _, ok, canonical, _ in read] == [(True, "Straße C3 C4 (6L 5L)")]


def test_a_message_keeps_its_pictographs() -> None:
    parsed = parse_mail("Nachricht an rot: Hallo 👍 bis bald\n", _ctx())
    assert parsed.press is not None and parsed.press.first == "Hallo 👍 bis bald"


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Straße 6L 5L oder\nStraße 6L 4H\n", "de"),
        ("Straße 6L 5L ODER\nStraße 6L 4H\n", "de"),
        ("Road 6B 5B or\nRoad 6B 4L\n", "en"),
    ],
)
def test_an_alternative_after_oder_at_a_lines_end_is_the_next_line(body: str, lang: str) -> None:
    """A phone's line broken after `oder`: the next line is the alternative, as with `oder`
    at the start of the next line (it was refused, and the next line stood alone)."""
    read = _read(body, lang)
    assert [(line, ok) for line, ok, _, _ in read] == [(1, True)]
    assert f" {'oder' if lang == 'de' else 'or'} " in (read[0][2] or "")


def test_a_canonical_form_wrapped_inside_its_bracket_is_read_whole() -> None:
    """pbm's own echo, hard-wrapped by a mail client inside its bracket, copied back."""
    assert _read("Straße C3 C4 (6L\n5L)\n") == [(1, True, "Straße C3 C4 (6L 5L)", "main")]


def test_lines_are_joined_only_when_they_follow_each_other_and_the_next_closes() -> None:
    """A next line that is an order of its own, or a blank line inside a bracket: not
    joined."""
    read = _read("Straße 6L 5L (6L\nStraße 6L 4H\n")
    assert [(line, ok) for line, ok, _, _ in read] == [(1, False), (2, True)]
    read = _read("Straße C3 C4 (6L\n\n5L)\n")
    assert [(line, ok) for line, ok, _, _ in read] == [(1, False), (3, False)]


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Straße 6L 5L oder\n\nStraße 6L 4H\n", "de"),
        ("Straße 6L 5L oder\n \u00a0\n\nStraße 6L 4H\n", "de"),
        ("Road 6B 5B or\n\nRoad 6B 4L\n", "en"),
        ("Vej 6L 5L eller\n\nVej 6L 4T\n", "da"),
    ],
)
def test_a_blank_line_or_two_after_a_trailing_oder_still_lead_to_its_option(
    body: str, lang: str
) -> None:
    """Return pressed twice on a phone after `oder`: the next text line is the option."""
    read = _read(body, lang)
    assert [(line, ok) for line, ok, _, _ in read] == [(1, True)]


@pytest.mark.parametrize(
    ("body", "lang", "said"),
    [
        ("Straße 6L 5L oder\n", "de", "die Zeile endet auf 'oder'"),
        ("Straße 6L 5L oder\n\n\n\nStraße 6L 4H\n", "de", "die Zeile endet auf 'oder'"),
        ("Road 6B 5B or\n# my remark\n", "en", "the line ends on 'or'"),
        ("Vej 6L 5L eller\n", "da", "linjen ender på 'eller'"),
        # What is wrong before the `oder` is said first.
        ("Straße 6L 5Z oder\n", "de", "5Z"),
    ],
)
def test_a_trailing_oder_with_no_option_after_it_is_refused_for_what_it_is(
    body: str, lang: str, said: str
) -> None:
    """Not "a hex name was expected, not 'oder'": the player learns the option is missing."""
    parsed = parse_mail(body, _ctx(lang))
    first = parsed.lines[0]
    assert first.line == 1 and not first.ok and first.error is not None
    assert said in first.error.localized(lang)


@pytest.mark.parametrize(
    ("body", "lines"),
    [
        # A heading, a password, a command or a message after a trailing `oder` is its own line.
        ("Straße 6L 5L oder\nErsatzbau:\nStraße 6L 4H\n", [(1, False), (2, True), (3, True)]),
        ("Straße 6L 5L oder\nPasswort: geheim\n", [(1, False), (2, True)]),
        ("Straße 6L 5L oder\nHilfe\n", [(1, False), (2, True)]),
        ("Straße 6L 5L oder\nNachricht an blau: Hallo\nwie gehts\n", [(1, False), (2, True)]),
        # A remark is never continued.
        ("Straße 6L 5L # zum Hafen, oder\nStraße 6L 4H\n", [(1, False), (2, True)]),
        # A chain over three lines is read whole.
        ("Straße 6L 5L oder\nStraße 6L 4H oder\nStraße 6L 5L\n", [(1, True)]),
    ],
)
def test_a_line_is_joined_only_to_what_finishes_its_order(
    body: str, lines: list[tuple[int, bool]]
) -> None:
    parsed = parse_mail(body, _ctx())
    assert [(r.line, r.ok) for r in parsed.lines] == lines
    if "Passwort" in body:
        assert parsed.password == "geheim"
    if "Nachricht" in body:
        assert parsed.press is not None and parsed.press_text == "Hallo\nwie gehts"
    if "Ersatzbau" in body:
        assert parsed.lines[2].block == "substitute"


def test_a_message_line_ending_on_oder_is_not_joined_or_doubled() -> None:
    parsed = parse_mail("Nachricht an blau: Holz oder\nLehm?\n", _ctx())
    assert parsed.press_text == "Holz oder\nLehm?"


@pytest.mark.parametrize("mark", ["❌", "🚫", "✖", "✗"])
def test_a_line_crossed_out_is_refused_not_built(mark: str) -> None:
    """A mark that says "not this" is no blank: the line is refused, as it was."""
    assert [(ok, key) for _, ok, key, _ in _read(f"{mark} Straße 6L 5L\n")] == [
        (False, "order_expected")
    ]


@pytest.mark.parametrize("arrow", ["➡", "⬅", "⮕", "→"])
def test_a_phones_arrow_is_a_dash(arrow: str) -> None:
    assert _read(f"Straße 6L {arrow} 5L\n") == [(1, True, "Straße C3 C4 (6L 5L)", "main")]


def test_a_lone_dash_under_a_closing_does_not_end_the_look_for_orders() -> None:
    """Only a signature mark (`--`, `—`, `–`) ends it, as it ends the reading."""
    assert [n for n, _ in clean_lines("Straße 6L 5L\nDanke!\n-\nStadt B2 B3 C3\n")] == [1, 3, 4]
    assert [n for n, _ in clean_lines("Straße 6L 5L\nDanke!\n--\nStadt B2 B3 C3\n")] == [1]


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Siedlung bei 6L 5L 11G, Straße 6L 5L\n", "de"),
        ("Siedlung auf dem 6L 5L 11G mit Straße 6L 5L\n", "de"),
        ("Settlement at 6B 5B 11G, road 6B 5B\n", "en"),
        ("Settlement on 6B 5B 11G road 6B 5B\n", "en"),
        ("Hus ved 6L 5L 11K med vej 6L 5L\n", "da"),
        ("Hus 6L 5L 11K og vej 6L 5L\n", "da"),
        # The road on the line below its settlement.
        ("Siedlung 6L 5L 11G\nStraße 6L 5L\n", "de"),
        ("Settlement at 6B 5B 11G\nroad 6B 5B\n", "en"),
    ],
)
def test_a_setup_placement_reads_as_a_rounds_build_line_does(body: str, lang: str) -> None:
    """`Siedlung bei …`, `Settlement at …`, `Hus ved … med vej …` and the road on the next
    line: read in the setup as on a round's build line."""
    parsed = parse_mail(body, _ctx(lang, "setup"))
    assert [(r.line, r.ok) for r in parsed.lines] == [(1, True)], parsed.lines


def test_a_danish_setup_road_toward_a_hex() -> None:
    """`vej mod 4K` / `vej i retning af 4K`, as `Straße Richtung 4G`."""
    ctx = _ctx("de", "setup")
    (german,) = parse_mail("Siedlung 6L 5L 11G Straße Richtung 4G\n", ctx).lines
    assert german.ok
    for way in ("mod", "i retning af"):
        (danish,) = parse_mail(f"Hus 6L 5L 11K vej {way} 4K\n", _ctx("da", "setup")).lines
        assert danish.ok and danish.item == german.item


@pytest.mark.parametrize(
    ("line", "lang", "said"),
    [
        ("Siedlugn 6L 5L 11G Straße 6L 5L", "de", "meintest du 'Siedlung'?"),
        ("Sidlung 6L 5L 11G Straße 6L 5L", "de", "meintest du 'Siedlung'?"),
        ("Settlemnt 6B 5B 11G road 6B 5B", "en", "did you mean 'Settlement'?"),
        ("Bosætelse 6L 5L 11K vej 6L 5L", "da", "mente du 'Hus'?"),
    ],
)
def test_a_misspelt_setup_settlement_is_asked_back(line: str, lang: str, said: str) -> None:
    """Not "'Siedlugn' is no hex": the word meant, as on a round's line."""
    (result,) = parse_mail(line + "\n", _ctx(lang, "setup")).lines
    assert not result.ok and result.error is not None
    assert said in result.error.localized(lang)


@pytest.mark.parametrize(
    ("line", "lang", "command"),
    [
        ("Status bitte", "de", "status"),
        ("Bitte Status", "de", "status"),
        ("Bitte, Status!", "de", "status"),
        ("Mitspieler bitte", "de", "players"),
        ("Status please", "en", "status"),
        ("Status tak", "da", "status"),
    ],
)
def test_a_command_asked_for_politely_is_the_command(line: str, lang: str, command: str) -> None:
    """Not "'Status' is no command", which contradicts itself."""
    parsed = parse_mail(line + "\n", _ctx(lang))
    assert parsed.commands == [command] and parsed.lines[0].ok


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        ("Ritter ausspielen vor dem Wurf, Räuber nach 10G, raube blau", "de", "Ritter vor Wurf"),
        ("Knight played after the roll, robber 10G, steal blue", "en", "Knight after roll"),
        ("Ridder efter slaget: røver 10K, stjæl blå", "da", "Ridder efter slag"),
        ("Ridderkort spilles før slaget: røver 10K", "da", "Ridder før slag"),
        ("Køb kort", "da", "Udviklingskort"),
        ("Køb et kort", "da", "Udviklingskort"),
        ("Monopol på uld", "da", "Monopol Uld"),
        ("Aflever hvis nødvendigt: først uld, så korn", "da", "Aflever: 1U 1K"),
        ("Byt med banken: 4U for 1K", "da", "Søhandel 4U for 1K"),
        ("Opgrader 6L 5L 11K til by", "da", "By C3 C4 D4 (6L 5L 11K)"),
        # The seed's own name of the card, whose last word is a road's.
        ("Bygning af vej: 6L 5L og 5L 11K", "da", "Vejbygning: C3 C4 (6L 5L), C4 D4"),
    ],
)
def test_what_players_write_reads_as_meant(line: str, lang: str, canonical: str) -> None:
    """A knight with its verb and timing, and the Danish forms German and English had."""
    (result,) = parse_mail(line + "\n", _ctx(lang)).lines
    assert result.ok, result.error
    assert (result.canonical or "").startswith(canonical)


def test_an_oder_followed_by_a_line_that_does_not_read_keeps_its_own_refusal() -> None:
    """Something follows the `oder`: the line is not told that nothing does."""
    parsed = parse_mail("Stadt C3 C4 D4 oder\nStadt Z9 Z8 Z7\n", _ctx())
    first = parsed.lines[0]
    assert first.error is not None and first.error.key != "ends_on_or"


@pytest.mark.parametrize(
    ("line", "lang", "phase", "said"),
    [
        ("Hsu 6L 5L 11K", "da", "round", "mente du 'Hus'?"),
        ("Vje 6L 5L", "da", "round", "mente du 'Vej'?"),
        ("Hsu 6L 5L 11K vej 6L 5L", "da", "setup", "mente du 'Hus'?"),
        ("Raod 6B 5B", "en", "round", "did you mean 'Road'?"),
    ],
)
def test_two_letters_swapped_in_a_short_order_word_are_asked_back(
    line: str, lang: str, phase: str, said: str
) -> None:
    """`Hsu` for `Hus`: too short for a likeness ratio, a plain swap of neighbours."""
    (result,) = parse_mail(line + "\n", _ctx(lang, phase)).lines
    assert result.error is not None and said in result.error.localized(lang)


@pytest.mark.parametrize(
    ("with_clause", "plain", "lang"),
    [
        ("Straße B2 C2 falls möglich", "Straße B2 C2", "de"),
        ("Straße B2 C2 wenn es geht", "Straße B2 C2", "de"),
        ("Straße B2 C2, wenn ich kann", "Straße B2 C2", "de"),
        ("Road B2 C2 if possible", "Road B2 C2", "en"),
        ("Road B2 C2 if I can", "Road B2 C2", "en"),
        ("Road B2 C2, if possible", "Road B2 C2", "en"),
        ("Vej B2 C2 hvis muligt", "Vej B2 C2", "da"),
        ("Vej B2 C2 hvis jeg kan", "Vej B2 C2", "da"),
        ("Vej B2 C2, hvis jeg har råd", "Vej B2 C2", "da"),
    ],
)
def test_if_possible_after_a_build_is_what_every_build_says(
    with_clause: str, plain: str, lang: str
) -> None:
    """`Road D4 E4 if possible` was refused as "a hex name was expected, not 'if'"."""
    ctx = _ctx(lang)
    assert parse_line(with_clause, ctx) == parse_line(plain, ctx)


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("Straße B2 C2 wenn nicht möglich", "de"),
        ("Road B2 C2 if not possible", "en"),
        ("Vej B2 C2 hvis ikke muligt", "da"),
    ],
)
def test_a_clause_that_says_more_than_paying_is_still_refused(line: str, lang: str) -> None:
    with pytest.raises(Exception):  # noqa: B017  (any refusal)
        parse_line(line, _ctx(lang))


def test_an_inline_pgp_signed_mail_is_read_as_its_text() -> None:
    """The armor lines, `Hash:` and the signature's base64 were refused as orders (eight
    refused lines beside accepted orders), and the dash-escaped `- --` was no signature mark,
    so the name under it was refused too."""
    body = (
        "-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n"
        "Kennwort: rot-kadu-mepi-rosa-tule-wibo\n- - Straße B2 C2\nIch passe\n- -- \nBernd\n"
        "-----BEGIN PGP SIGNATURE-----\n\niQEzBAEBCAAdFiEE1234567890abcdefABCDEF12345678\n"
        "=abcd\n-----END PGP SIGNATURE-----\n"
    )
    assert clean_lines(body) == [
        (4, "Kennwort: rot-kadu-mepi-rosa-tule-wibo"),
        (5, "- Straße B2 C2"),
        (6, "Ich passe"),
    ]


@pytest.mark.parametrize(
    ("line", "lang", "canonical"),
    [
        ("4 Wolle gegen 1 Erz mit der Bank", "de", "Seehandel 4W gegen 1E"),
        ("Tausche 4 Holz gegen 1 Erz bei der Bank", "de", "Seehandel 4H gegen 1E"),
        ("Trade 4 wool with the bank for 1 grain", "en", "Maritime 4W for 1G"),
        ("4 wool for 1 grain with the bank", "en", "Maritime 4W for 1G"),
        ("Byt 4 uld for 1 malm med banken", "da", "Søhandel 4U for 1M"),
        ("4 uld til 1 malm med banken", "da", "Søhandel 4U for 1M"),
        # As before: the bank first.
        ("Tausche mit der Bank 4 Holz gegen 1 Erz", "de", "Seehandel 4H gegen 1E"),
        ("Trade with the bank: 4 wool for 1 grain", "en", "Maritime 4W for 1G"),
    ],
)
def test_a_bank_trade_may_name_the_bank_after_its_terms(
    line: str, lang: str, canonical: str
) -> None:
    """`4 Wolle gegen 1 Erz mit der Bank` was "'4' is no order"; the English one was sent to
    the form of a trade between players."""
    from pbm.notation.format import format_item

    ctx = _ctx(lang)
    assert format_item(parse_line(line, ctx), ctx) == canonical


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("Road B2 C2 if I can't", "en"),
        ("Road B2 C2, if I can’t", "en"),
        ("Road B2 C2 if I can first", "en"),
        ("Straße B2 C2 wenn möglich, sonst Stadt", "de"),
    ],
)
def test_a_clause_with_can_that_says_more_is_still_refused(line: str, lang: str) -> None:
    """`can` passes a clause over; `can't`, `first`, `only` say more than paying."""
    with pytest.raises(Exception):  # noqa: B017  (any refusal)
        parse_line(line, _ctx(lang))


@pytest.mark.parametrize(
    ("line", "lang"),
    [
        ("Handel mit gelb: 2 Holz gegen 1 Erz, sonst mit der Bank", "de"),
        ("Straße B2 C2 mit der Bank", "de"),
        ("Road B2 C2 with the bank", "en"),
    ],
)
def test_a_line_naming_the_bank_that_is_no_bank_trade_keeps_its_own_refusal(
    line: str, lang: str
) -> None:
    from pbm.notation.errors import OrderError

    with pytest.raises(OrderError) as refused:
        parse_line(line, _ctx(lang))
    assert "Seehandel" not in str(refused.value) and "Maritime" not in str(refused.value)


def test_a_setup_road_the_tokens_leave_open_is_the_one_at_the_settlement() -> None:
    """`Hus 10L 8L hav, skib 10L hav` was refused as "fits 3 paths", though one touches the
    house."""
    from pbm.notation.errors import AmbiguousError
    from pbm.notation.names import hex_short_name, resolve_path

    ctx = _ctx("de", "setup")
    board = ctx.board
    for c in range(len(board.crossing_hexes)):
        for e in board.crossing_paths[c]:
            if not board.path_land[e]:
                continue
            tokens = " ".join(hex_short_name(board, h, "de") for h in board.path_hexes[e])
            try:
                resolve_path(board, tokens, "de")
            except AmbiguousError:
                pass
            except Exception:
                continue
            else:
                continue
            line = f"Siedlung {board.crossing_label(c)} Straße {tokens}"
            try:
                placed = parse_line(line, ctx)
            except Exception:
                continue  # two of the paths touch this settlement: still a question
            assert placed.crossing == c and placed.path == e  # type: ignore[union-attr]
            return
    pytest.fail("no settlement with a road its tokens leave open on this board")


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        ("Vej 6L 5L\nErstatningsbyggeri:\nUdviklingskort\n", "da"),
        ("Vej 6L 5L\nErstatningsordrer:\nUdviklingskort\n", "da"),
        ("Vej 6L 5L\nByg i stedet:\nUdviklingskort\n", "da"),
        ("Road 6B 5B\nReplacement builds:\nBuy card\n", "en"),
        ("Road 6B 5B\nBuild instead:\nBuy card\n", "en"),
        ("Road 6B 5B\nSpare builds:\nBuy card\n", "en"),
        ("Straße 6L 5L\nStattdessen bauen:\nEntwicklungskarte\n", "de"),
    ],
)
def test_substitute_headings_in_other_words_make_substitutes(body: str, lang: str) -> None:
    """These headings were passed over as plain ones: the card under them was bought as a
    main build, spending cards the player meant to keep."""
    blocks = [(line, block) for line, ok, _, block in _read(body, lang) if ok]
    assert blocks[-1] == (3, "substitute"), blocks
