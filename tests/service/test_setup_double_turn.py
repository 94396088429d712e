"""Two setup turns in a row (the end of the snake): one mail with ranked placements serves
both, "my first settlement … / my second settlement …", rather than the player being asked
again for the second."""

from __future__ import annotations

import html

import pytest
from databases import game_state, outbox, passwords, replies_to, seated
from harness import Mailer, new_game, setup_text, signup

from pbm.rules.setup import setup_player
from pbm.service.context import Service


def _first_turns(svc: Service, mailer: Mailer, turns: int = 2, lang: str = "de") -> str:
    """A three-player game whose first `turns` setup turns got one placement each; the
    address of the player whose turn it is now."""
    new_game(svc, "alpha", players=3, lang=lang)
    signup(mailer, "alpha", 3)
    pw = passwords(svc)
    seats = seated(svc, "alpha")
    for _ in range(turns):
        _, state = game_state(svc, "alpha")
        seat = setup_player(state)
        me = seats[seat].address
        mailer.send(me, "Aufstellung", setup_text(state, seat, pw[me], 1, lang))
    _, state = game_state(svc, "alpha")
    return seats[setup_player(state)].address


def _send_ranked(svc: Service, mailer: Mailer, me: str, alternatives: int) -> None:
    _, state = game_state(svc, "alpha")
    seat = setup_player(state)
    mailer.send(me, "Aufstellung", setup_text(state, seat, passwords(svc)[me], alternatives))


def test_one_mail_of_ranked_placements_serves_both_turns_in_a_row(
    svc: Service, mailer: Mailer
) -> None:
    me = _first_turns(svc, mailer)
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 2 and setup_player(state) == 2
    asked_before = len(outbox(svc, "setup", to=me))
    _send_ranked(svc, mailer, me, alternatives=3)
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 4, "both placements made from the one mail"
    assert len(state.settlements[2]) == 2
    assert len(outbox(svc, "setup", to=me)) == asked_before  # not asked again


def test_a_single_placement_still_leaves_the_second_turn_to_a_new_mail(
    svc: Service, mailer: Mailer
) -> None:
    me = _first_turns(svc, mailer)
    _send_ranked(svc, mailer, me, alternatives=1)
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 3 and setup_player(state) == 2


def test_the_answer_names_both_placements_made(svc: Service, mailer: Mailer) -> None:
    me = _first_turns(svc, mailer)
    _send_ranked(svc, mailer, me, alternatives=3)
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    text = " ".join(ack.body.split())
    placed = text.split("daher ist jetzt gesetzt:")[1] if "daher ist jetzt gesetzt:" in text else ""
    assert placed.count("Siedlung") >= 2 and "; " in placed, ack.body


def test_the_placements_made_are_named_in_the_order_written(svc: Service, mailer: Mailer) -> None:
    """The stored state keeps a seat's settlements by crossing: the answer listed two
    placements so, the second placed first when its crossing came first. They are named in
    the order the mail's placements are tried, which is the order they are made in."""
    from databases import game_row

    from pbm.service.setup_phase import setup_outcome

    me = _first_turns(svc, mailer)
    _, before = game_state(svc, "alpha")
    seat = setup_player(before)
    mailer.send(me, "Aufstellung", setup_text(before, seat, passwords(svc)[me], 3))
    _, after = game_state(svc, "alpha")
    made = [c for c in after.settlements[seat] if c not in before.settlements[seat]]
    assert len(made) == 2
    game = game_row(svc, "alpha")
    named, _ = setup_outcome(game, before, seat, 2, made)
    reverse, _ = setup_outcome(game, before, seat, 2, made[::-1])
    assert named.count("; ") == 1 and reverse.split("; ") == named.split("; ")[::-1]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("lang", "single", "double", "rule", "heading"),
    [
        (
            "en",
            "Several lines with one placement each are tried in order",
            "Your turn in the setup, twice in a row: place your first and your second "
            "settlement, each with a road.",
            "One mail serves both placements: its lines are used in order, the first one "
            "still free for your first settlement, the next one still free for your second;",
            'Lines under a line "Second settlement:" serve your second settlement only.',
        ),
        (
            "de",
            "Mehrere Zeilen mit je einer Aufstellung werden der Reihe nach versucht",
            "Du bist in der Aufstellung zweimal hintereinander dran: setze deine 1. und "
            "deine 2. Siedlung, jede mit Straße.",
            "Eine Mail gilt für beide Aufstellungen: ihre Zeilen werden der Reihe nach "
            "genommen, die erste noch freie für deine 1. Siedlung, die nächste noch freie "
            "für deine 2.;",
            "Zeilen unter einer Zeile „Zweite Siedlung:“ gelten nur für deine 2. Siedlung.",
        ),
        (
            "da",
            "Flere linjer med hver sin placering prøves i rækkefølge",
            "Din tur i opstillingen, to gange i træk: placér dit første og dit andet hus, "
            "hvert med en vej.",
            "Én mail gælder for begge placeringer: dens linjer bruges i rækkefølge,",
            'Linjer under en linje "Andet hus:" gælder kun dit andet hus.',
        ),
    ],
)
def test_the_prompt_of_two_turns_in_a_row_says_one_mail_serves_both(
    svc: Service, mailer: Mailer, lang: str, single: str, double: str, rule: str, heading: str
) -> None:
    """QA: the prompt to the seat placing twice in a row said "the first line still free
    counts", but a mail of two placements made both. The prompt says what is done: the lines
    in order for the first and then the second placement, and how to give fallbacks."""
    me = _first_turns(svc, mailer, lang=lang)
    prompts = outbox(svc, "setup")
    # Seats 0 and 1 place once: the old rule; seat 2 places twice in a row: the new one.
    for row in prompts[:-1]:
        text = " ".join(row.body.split())
        assert single in text and rule not in text
    (last,) = [row for row in prompts if me in row.recipients.split(",")]
    text = " ".join(last.body.split())
    assert double in text and rule in text and heading in text, last.body
    assert single not in text
    assert html.unescape(" ".join(last.html.split())).count(heading) == 1, last.html


@pytest.mark.parametrize(
    ("lang", "second", "replaced"),
    [
        ("de", "Zweite Siedlung", "Diese Mail ersetzt deine früheren Züge"),
        ("en", "Second settlement", "This mail replaces your earlier orders"),
        ("da", "Andet hus", "Denne mail erstatter dine tidligere ordrer"),
    ],
)
def test_a_newer_mail_says_it_replaced_the_placement_kept_for_the_second_turn(
    svc: Service, mailer: Mailer, lang: str, second: str, replaced: str
) -> None:
    """At two turns in a row, a mail whose only placement was labelled the second kept it
    for the second turn; a newer mail with the first placement alone dropped it (a newer mail
    replaces the older as a whole) without a word, and the player was asked for the second
    placement again (QA, 2026-12)."""
    me = _first_turns(svc, mailer, lang=lang)
    _, state = game_state(svc, "alpha")
    seat = setup_player(state)
    password, ranked = setup_text(state, seat, passwords(svc)[me], 2, lang).splitlines()
    first, other = ranked.split({"de": " oder ", "en": " or ", "da": " eller "}[lang])
    mailer.send(me, "setup", f"{password}\n{second}: {other}\n")
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert replaced not in ack.body
    mailer.send(me, "setup", f"{password}\n{first}\n")
    (ack,) = replies_to(svc, mailer.last_id, "ack")
    assert replaced in " ".join(ack.body.split()), ack.body
    assert replaced in html.unescape(" ".join(ack.html.split()))
    _, state = game_state(svc, "alpha")
    assert state.setup_step == 3 and setup_player(state) == seat
