"""Issue 27 through the service: a player learns from the mails alone what game they are in.
The welcome, the island preview, round 1, the help mail and the answer to `Status` name the
game kind and its victory-point target (the welcome and the preview also its special rules and
islands); the setup prompt of a Seafarers game asks for a road or a ship, with a coast line to
copy; the welcome says what the draw did with the player's colour wishes."""

from __future__ import annotations

import pytest
from databases import outbox, seated
from harness import Mailer, new_game, setup_by_deadline, signup

from pbm.service.clock import FakeClock
from pbm.service.context import Service

#: The title of a game of the Four Islands: on one line in German, on two in English (it is
#: longer than a line of a text mail).
TITLES = {
    "de": "Seefahrer-Szenario „Die vier Inseln“ – 3 Spieler, Ziel: 12 Siegpunkte\n",
    "en": "Seafarers scenario “The Four Islands”\n3 players, goal: 12 victory points\n",
}
#: The island bonus of the Four Islands, as the welcome and the preview put it (wrapped).
BONUS = {"de": "Inselbonus: +1 Sonderpunkt", "en": "Island bonus: +1 VP"}
ISLANDS = {"de": "Nordwestinsel: B2 B3 C2 C3", "en": "North-west island: B2 B3 C2 C3"}
SETUP_SUBJECT = {
    "de": "[sea] Du bist dran: Siedlung mit Straße oder Schiff setzen",
    "en": "[sea] Your turn: place a settlement with a road or a ship",
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_four_islands_game_names_itself_in_every_mail_that_introduces_it(
    svc: Service, mailer: Mailer, clock: FakeClock, lang: str
) -> None:
    new_game(svc, "sea", players=3, scenario="vier-inseln", lang=lang, seed=1)
    addresses = signup(mailer, "sea", 3, colours=["rot, gelb"] * 3)
    title = TITLES[lang]
    assert all(title in m.body for m in outbox(svc, "joined"))
    welcomes = outbox(svc, "welcome")
    assert len(welcomes) == 3
    for mail in welcomes:
        assert title in mail.body and BONUS[lang] in mail.body and ISLANDS[lang] in mail.body
    preview = outbox(svc, "preview")[0].body
    assert title in preview and BONUS[lang] in preview and ISLANDS[lang] in preview
    # The setup prompt asks for a road or a ship and gives a line with a ship to copy.
    prompt = outbox(svc, "setup")[0]
    assert prompt.subject == SETUP_SUBJECT[lang]
    assert (" Schiff " if lang == "de" else " Ship ") in prompt.body
    setup_by_deadline(svc, clock, "sea")
    round_open = outbox(svc, "round_open")
    assert round_open and all(title in m.body for m in round_open)
    # The reports of the setup named every player's home islands.
    home = "Heimatinsel" if lang == "de" else "home island"
    assert any(home in m.body for m in outbox(svc, "placed"))
    me = addresses[0]
    mailer.send(me, "Hilfe", "Spiel: sea\nHilfe\n")
    help_mail = outbox(svc, "help", to=me)[-1].body
    assert title in help_mail and BONUS[lang] in help_mail
    mailer.send(me, "Status", "Spiel: sea\nStatus\n")
    status = outbox(svc, "status", to=me)[-1].body
    assert title in status


def test_the_welcome_says_which_colour_wishes_others_took(svc: Service, mailer: Mailer) -> None:
    """Three players all wish rot, then gelb: the first the draw serves gets rot, the next gelb,
    the last blau, and each welcome says which of the wishes others took first."""
    new_game(svc, "wish", players=3, seed=4)
    signup(mailer, "wish", 3, colours=["rot, gelb"] * 3)
    by_colour = {p.colour: p.address for p in seated(svc, "wish").values()}
    assert set(by_colour) == {"rot", "gelb", "blau"}
    body = {c: outbox(svc, "welcome", to=a)[0].body for c, a in by_colour.items()}
    drawn = "Farben und Plätze wurden ausgelost"
    assert all(drawn in b and "Deine Farbwünsche: rot, gelb." in b for b in body.values())
    assert "bekommen" not in body["rot"]
    assert "rot hat ein Spieler bekommen, der vor dir an der Reihe war." in body["gelb"]
    assert "rot, gelb haben Spieler bekommen, die vor dir an der Reihe waren." in body["blau"]


def test_a_wish_the_table_does_not_play_is_named(svc: Service, mailer: Mailer) -> None:
    new_game(svc, "small", players=3, seed=4, lang="en")
    signup(mailer, "small", 3, colours=["gruen, braun", "rot", "blau"])
    welcomes = " ".join(m.body for m in outbox(svc, "welcome"))
    assert "Your colour wishes: green, brown." in welcomes
    assert "green, brown are not played at this table." in welcomes


@pytest.mark.parametrize(
    ("settings", "title"),
    [
        ({"kronlande": True}, "Kronlande auf der großen Insel – 4 Spieler, Ziel: 12 Siegpunkte"),
        (
            {"layout": "beginner"},
            "Grundspiel in der Startaufstellung für Einsteiger\n4 Spieler, Ziel: 10 Siegpunkte",
        ),
        ({"edition": "modern"}, "Grundspiel auf der mittleren Insel – 4 Spieler, Ziel: 10"),
    ],
    ids=["kronlande", "beginner", "modern"],
)
def test_other_kinds_name_themselves_too(
    svc: Service, mailer: Mailer, settings: dict[str, object], title: str
) -> None:
    new_game(svc, "kind", players=4, **settings)
    signup(mailer, "kind", 4)
    for kind in ("welcome", "preview"):
        assert all(title in m.body for m in outbox(svc, kind)), kind
    if settings.get("layout") == "beginner":
        # Round 1 begins at the draw: its mail names the game too.
        assert all(title in m.body for m in outbox(svc, "round_open"))
    if settings.get("edition") == "modern":
        assert "Ausgabe: modern" in outbox(svc, "preview")[0].body


#: The limited bank's line in a modern game, by language (the German modern edition's words).
LIMITED_BANK = {
    "de": "Die Bank ist begrenzt (die klassische Bank): 19 Karten je Rohstoff.",
    "en": "The bank is limited (the classic bank): 19 cards of each resource.",
    "da": "Banken er begrænset (den klassiske bank): 19 kort af hvert råstof.",
}


@pytest.mark.parametrize("lang", sorted(LIMITED_BANK))
def test_a_modern_game_with_the_classic_bank_says_the_bank_is_limited(
    svc: Service, mailer: Mailer, clock: FakeClock, lang: str
) -> None:
    """QA: `--edition modern --bank classic`; the guide says the modern bank is unlimited
    unless the GM chooses otherwise, and no mail said the GM had."""
    new_game(svc, "mod", players=3, edition="modern", bank="classic", lang=lang, seed=3)
    addresses = signup(mailer, "mod", 3)
    line = LIMITED_BANK[lang]
    for kind in ("welcome", "preview"):
        mails = outbox(svc, kind)
        assert mails and all(line in " ".join(m.body.split()) for m in mails), kind
    # ("Round 1 begins" names the kind and the target only, as in every game.)
    setup_by_deadline(svc, clock, "mod")
    help_word = {"de": "Hilfe", "en": "Help", "da": "Hjælp"}[lang]
    mailer.send(addresses[0], help_word, f"Spiel: mod\n{help_word}\n")
    help_mail = outbox(svc, "help", to=addresses[0])[-1].body
    assert line in " ".join(help_mail.split())
    assert "unbegrenzt" not in help_mail and "unlimited" not in help_mail
