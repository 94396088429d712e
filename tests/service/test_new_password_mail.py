"""`pbm player password GAME COLOUR`: a player who lost their password gets a mail of its own,
not the welcome of a player taking over a seat ("Du overtager et igangværende spil: runde 5 er
åben…" with the whole codebook again). It says that this is a new password for their seat, that
the old one no longer works, the open round with its deadline and what to write; the codebook
key stays as it was (only the password is drawn anew), so it is not sent again."""

from __future__ import annotations

import asyncio
from email.message import EmailMessage

import pytest
from databases import game_row, game_state, order_sets, outbox, passwords, replies_to, seated
from harness import Games, Mailer, new_game, orders_text, signup

from pbm.mail.memory import MemorySmtp
from pbm.notation import vocab
from pbm.rules.setup import setup_player
from pbm.service import admin
from pbm.service.context import Service
from pbm.service.sending import send_pending

#: What the mail says in each game language: its subject's start, that the password is new and
#: the old one gone, the line to copy, the round that is open, that the codebook stays.
SAYS = {
    "de": {
        "subject": "[alpha] Neues Kennwort für",
        "new": "hat ein neues Kennwort für deinen Platz",
        "old": "Dein altes Kennwort gilt nicht mehr",
        "line": "Kennwort:",
        "round": "Runde 1 ist offen: schicke deine Züge bis",
        "codebook": "Dein Codebuch und dein Schlüssel",
        "takeover": "laufendes Spiel",
    },
    "en": {
        "subject": "[alpha] New password for",
        "new": "has drawn a new password for your seat",
        "old": "Your old password no longer works",
        "line": "Password:",
        "round": "Round 1 is open: send your orders by",
        "codebook": "Your codebook and your key",
        "takeover": "running game",
    },
    "da": {
        "subject": "[alpha] Ny adgangskode til",
        "new": "har lavet en ny adgangskode til din plads",
        "old": "Din gamle adgangskode virker ikke længere",
        "line": "Adgangskode:",
        "round": "Runde 1 er åben: send dine ordrer senest",
        "codebook": "Din kodebog og din nøgle",
        "takeover": "igangværende spil",
    },
}


def _send_all(svc: Service, smtp: MemorySmtp) -> None:
    """What the outbox holds goes out, as `pbm serve` sends it."""
    while asyncio.run(send_pending(svc, smtp.sender)).sent:
        pass


def _text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return " ".join(str(part.get_content()).split())  # the wrapped lines as one


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_new_password_comes_as_a_mail_of_its_own(
    svc: Service, mailer: Mailer, games: Games, smtp: MemorySmtp, lang: str
) -> None:
    table = games.start("alpha", lang=lang)
    _send_all(svc, smtp)  # the welcome mails went out when the game began
    player = seated(svc, "alpha")[1]
    old = table.passwords[player.address]
    key = player.codebook_secret
    admin.new_password(svc, "alpha", player.colour or "")
    # The new password waits beside the mail until it is sent (the body holds a placeholder).
    (queued,) = outbox(svc, "welcome", to=player.address, status="pending")
    new = queued.secret
    assert new and new != old
    sent = len(smtp.accepted)
    _send_all(svc, smtp)
    (mail,) = smtp.accepted[sent:]
    assert mail.rcpt_tos == [player.address]
    says = SAYS[lang]
    colour = vocab.colour_name(player.colour or "", lang)
    assert str(mail.message["Subject"]) == f"{says['subject']} {colour}"
    text = _text(mail.message)
    for part in ("new", "old", "codebook"):
        assert says[part] in text, (part, text)
    assert f"{says['line']} {new}" in text and old not in text
    deadline = game_row(svc, "alpha").deadline
    assert deadline is not None
    assert f"{says['round']} {deadline:%Y-%m-%d %H:%M} UTC." in text
    # Not the welcome of a player who takes over the seat, and no codebook sent again.
    assert says["takeover"] not in text
    assert key and key not in text
    # The new password reads orders; the old one no longer does.
    _, st = game_state(svc, "alpha")
    before = len(order_sets(svc, "alpha"))
    # (Written with German order words: every game reads those.)
    mailer.send(player.address, "Ordrer", orders_text(st, 1, old, lang="de"))
    assert len(order_sets(svc, "alpha")) == before
    assert replies_to(svc, mailer.last_id, "error")
    mailer.send(player.address, "Ordrer", orders_text(st, 1, new, lang="de"))
    assert len(order_sets(svc, "alpha")) == before + 1


def test_a_welcome_mail_not_sent_yet_is_replaced_by_a_whole_one(svc: Service, games: Games) -> None:
    """The welcome mail was still waiting (the outbox was down): it is dropped with the old
    password, so the player never had the codebook; the new password comes with it, in the
    whole welcome mail, which does not read as if someone took over the seat."""
    games.start("alpha")
    player = seated(svc, "alpha")[1]
    admin.new_password(svc, "alpha", player.colour or "")
    first, renewed = outbox(svc, "welcome", to=player.address)
    assert first.status == "dropped" and not first.secret
    assert renewed.status == "pending" and renewed.secret == passwords(svc)[player.address]
    assert player.codebook_secret and player.codebook_secret in renewed.body
    assert renewed.subject.startswith("[alpha] Willkommen")
    # The seat is the player's own: nobody takes it over.
    said = " ".join(renewed.body.split())
    assert "Das Spiel läuft: Runde 1 ist offen, Frist" in said
    assert "übernimmst" not in said


def test_in_the_setup_the_mail_says_whose_turn_it_is(
    svc: Service, mailer: Mailer, smtp: MemorySmtp
) -> None:
    """No round is open yet: the player on turn is asked for a placement by the deadline, the
    others are told who places now."""
    new_game(svc, "alpha")
    signup(mailer, "alpha", 4)
    assert game_row(svc, "alpha").phase == "setup"
    _send_all(svc, smtp)
    _, st = game_state(svc, "alpha")
    on_turn = setup_player(st)
    players = seated(svc, "alpha")
    waiting = (on_turn + 1) % 4
    for seat in (on_turn, waiting):
        admin.new_password(svc, "alpha", players[seat].colour or "")
    sent = len(smtp.accepted)
    _send_all(svc, smtp)
    texts = {tuple(m.rcpt_tos): _text(m.message) for m in smtp.accepted[sent:]}
    deadline = game_row(svc, "alpha").deadline
    assert deadline is not None
    assert (
        f"Du bist in der Aufstellung dran: schick eine Platzierung bis "
        f"{deadline:%Y-%m-%d %H:%M} UTC."
    ) in texts[(players[on_turn].address,)]
    colour = vocab.colour_name(st.colours[on_turn], "de")
    assert f"Die Aufstellung läuft: {colour} (Spieler " in texts[(players[waiting].address,)]
    assert (
        "stellt gerade auf. Du bekommst eine Mail, wenn du dran bist."
        in (texts[(players[waiting].address,)])
    )
