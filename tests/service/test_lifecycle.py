"""A whole game by mail, as rules.md tells it: signup → setup → rounds (NMR, autopilot, a
player back, a replacement) → end; then the replay of every stored step."""

from __future__ import annotations

import json
from itertools import permutations

import pytest
from databases import (
    count_by,
    game_row,
    game_state,
    order_sets,
    outbox,
    passwords,
    records,
    replies_to,
    seated,
)
from harness import (
    Mailer,
    new_game,
    orders_text,
    pass_deadline,
    play_round,
    send_orders,
    setup_text,
    signup,
)
from sqlmodel import Session, select

from pbm.rules import Phase, state_from_json
from pbm.rules.orders import SetupOrders
from pbm.rules.setup import automatic_placement, placement_rule, setup_sequence
from pbm.service import gm
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.secrets import verify_password
from pbm.service.tick import tick
from pbm.store import codec
from pbm.store.db import transaction
from pbm.store.models import Player

PREFS = ["rot, blau", "blau, rot", "gelb, weiss", "gelb, weiss"]


def _serial_dictatorship(prefs: list[list[str]], got: list[str], pool: list[str]) -> bool:
    """Some order of the players, each taking their most preferred free colour (else the first
    free one of the table), gives exactly `got`."""
    for order in permutations(range(len(prefs))):
        free = list(pool)
        out = [""] * len(prefs)
        for i in order:
            wanted = [c for c in prefs[i] if c in free]
            out[i] = wanted[0] if wanted else free[0]
            free.remove(out[i])
        if out == got:
            return True
    return False


def _check_signup(svc: Service, addrs: list[str]) -> dict[str, str]:
    assert len(outbox(svc, "joined")) == 4
    players = {p.address: p for p in seated(svc, "alpha").values()}
    assert sorted(players) == sorted(addrs)
    got = [players[a].colour or "" for a in addrs]
    # Free first choices are honoured; the two who both want gelb split gelb and weiss.
    assert got[0] == "rot" and got[1] == "blau"
    assert sorted(got[2:]) == ["gelb", "weiss"]
    prefs = [[c.strip() for c in p.split(",")] for p in PREFS]
    assert _serial_dictatorship(prefs, got, ["rot", "blau", "gelb", "weiss"])
    # The colour order is the seat order.
    _, st = game_state(svc, "alpha")
    assert sorted(p.seat for p in players.values() if p.seat is not None) == [0, 1, 2, 3]
    for p in players.values():
        assert p.seat is not None and st.colours[p.seat] == p.colour

    # One welcome mail each, with the password; the database keeps only scrypt hashes.
    welcome = outbox(svc, "welcome")
    assert sorted(o.recipients for o in welcome) == sorted(addrs)
    pw = passwords(svc)
    assert len(set(pw.values())) == 4
    with Session(svc.engine) as s:
        rows = list(s.exec(select(Player)))
    for row in rows:
        assert row.password_hash.startswith("$pbm-blake2b$v=1$")
        assert verify_password(pw[row.address], row.password_hash)
        for other in pw.values():
            for column, value in row.model_dump().items():
                assert other not in str(value), f"password text in player.{column}"
    return pw


def _check_setup(svc: Service, clock: FakeClock, mailer: Mailer, pw: dict[str, str]) -> None:
    seq = setup_sequence(4)
    assert seq == [0, 1, 2, 3, 3, 2, 1, 0]
    at = seated(svc, "alpha")
    # The first player is asked to place.
    assert [o.recipients for o in outbox(svc, "setup")] == [at[0].address]

    # Seat 2 sends a ranked list ahead of its turn: stored for its step, nothing placed yet.
    _, st0 = game_state(svc, "alpha")
    ahead = mailer.send(at[2].address, "Aufstellung", setup_text(st0, 2, pw[at[2].address], 12))
    assert ahead.status == "done"
    assert replies_to(svc, mailer.last_id, "ack")
    assert game_state(svc, "alpha")[1].setup_step == 0
    waiting = [o for o in order_sets(svc, "alpha") if not o.superseded]
    assert [(o.round, o.setup_step) for o in waiting] == [(0, 2)]
    ranked = codec.loads(waiting[0].parsed)
    assert isinstance(ranked, SetupOrders) and len(ranked.placements) > 2

    for seat in (0, 1):
        _, st = game_state(svc, "alpha")
        r = mailer.send(at[seat].address, "Aufstellung", setup_text(st, seat, pw[at[seat].address]))
        assert r.status == "done"
    # Seat 1's placement let seat 2's waiting list be placed at once: seat 3 is next.
    _, st = game_state(svc, "alpha")
    assert st.setup_step == 3
    assert not outbox(svc, "setup", to=at[2].address), "seat 2 was asked although it had sent"
    rec = records(svc, "alpha")[2]
    before = state_from_json(json.loads(rec.state_before))
    first_legal = next(p for p in ranked.placements if placement_rule(before, p) is None)
    after = state_from_json(json.loads(rec.state_after))
    assert first_legal.crossing in after.settlements[2]
    assert after.road[first_legal.path] == 2
    assert json.loads(rec.orders)["auto"] is False

    # Seat 3 misses its deadline: the service places for it (best pip sum, a road).
    assert outbox(svc, "setup", to=at[3].address)
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).placed == ["alpha"]
    rec = records(svc, "alpha")[3]
    assert json.loads(rec.orders)["auto"] is True
    before = state_from_json(json.loads(rec.state_before))
    auto = automatic_placement(before)
    after = state_from_json(json.loads(rec.state_after))
    assert auto.crossing in after.settlements[3] and after.road[auto.path] == 3
    assert game_state(svc, "alpha")[1].setup_step == 4

    # The rest by mail; every placement is announced to all four.
    while game_row(svc, "alpha").phase == "setup":
        _, st = game_state(svc, "alpha")
        seat = seq[st.setup_step]
        r = mailer.send(at[seat].address, "Aufstellung", setup_text(st, seat, pw[at[seat].address]))
        assert r.status == "done"
    placed = outbox(svc, "placed")
    # Seat 3's placement, made at its deadline, went to the others, and to seat 3 in a mail of
    # its own that says it was made for it; the others went to all four.
    (told_seat_3,) = [o for o in placed if o.recipients == at[3].address]
    placed = [o for o in placed if o is not told_seat_3]
    assert len(placed) == 8
    for o in placed:
        everyone = {p.address for p in at.values()}
        expected = everyone - {at[3].address} if o.step == told_seat_3.step else everyone
        assert set(o.recipients.split(",")) == expected
    # Each but the last says whose turn it is now, and until when; the last began round 1.
    # Seat 1's does not: seat 2's placement was in and placed at once (its turn was no
    # turn to wait for).
    for step, (o, seat) in enumerate(zip(placed[:-1], seq[1:], strict=True)):
        colour = {"rot": "rot", "blau": "blau", "weiss": "weiß", "gelb": "gelb"}[at[seat].colour]
        if step == 1:
            assert "Als Nächstes" not in o.body, o.body
            continue
        assert f"Als Nächstes stellt {colour}" in o.body and ", bis " in o.body, o.body
    assert "Als Nächstes" not in placed[-1].body
    game, st = game_state(svc, "alpha")
    assert st.phase == Phase.ROUNDS and st.round == 1 and game.deadline is not None
    assert all(len(st.settlements[p]) == 2 for p in range(4))


@pytest.mark.slow
def test_whole_game_by_mail(svc: Service, clock: FakeClock, mailer: Mailer) -> None:
    new_game(svc, "alpha", players=4, seed=7, vp_target=6)
    addrs = signup(mailer, "alpha", 4, PREFS)
    pw = _check_signup(svc, addrs)
    _check_setup(svc, clock, mailer, pw)
    rounds_played = 0

    # Seat 1 sends nothing for three rounds: an NMR notice each time, then the autopilot.
    at = seated(svc, "alpha")
    lazy = at[1]
    for n in (1, 2, 3):
        assert play_round(mailer, clock, "alpha", skip=[1]) is False
        rounds_played += 1
        nmr = outbox(svc, "nmr", to=lazy.address)
        assert len(nmr) == n and f"{n}" in nmr[-1].body
        assert bool(outbox(svc, "autopilot_on", to=lazy.address)) == (n == 3)
    assert seated(svc, "alpha")[1].autopilot
    assert not outbox(svc, "nmr", to=at[0].address)

    # With the autopilot on, the round no longer waits for seat 1.
    assert play_round(mailer, clock, "alpha") is True
    rounds_played += 1
    assert len(outbox(svc, "nmr", to=lazy.address)) == 3

    # Seat 1 is back (with its password): the autopilot is off, and the round waits again.
    r = mailer.send(
        lazy.address, "Re: Autopilot", f"Kennwort: {pw[lazy.address]}\nIch bin zurück\n"
    )
    assert r.status == "done"
    welcome = outbox(svc, "autopilot_off", to=lazy.address)
    assert len(welcome) == 1
    # The next step is named: the open round and its deadline.
    open_round = game_row(svc, "alpha").round
    assert f"Runde {open_round} ist offen: schicke deine Züge bis" in welcome[0].body
    back = seated(svc, "alpha")[1]
    assert not back.autopilot and back.nmr_count == 0
    send_orders(mailer, "alpha", [0, 2, 3])
    assert game_row(svc, "alpha").round == rounds_played + 1, "resolved without seat 1"
    send_orders(mailer, "alpha", [1])
    rounds_played += 1
    assert game_row(svc, "alpha").round == rounds_played + 1

    # Seat 2's player leaves; a new person takes the seat with a new password.
    old = seated(svc, "alpha")[2]
    with transaction(svc.engine) as s:
        new = gm.replace_player(
            svc, s, get_game(s, "alpha", lock=True), old.colour or "", "Neu@Players.test"
        )
    assert new.address == "neu@players.test"
    welcome = outbox(svc, "welcome", to="neu@players.test")
    assert len(welcome) == 1
    pw = passwords(svc)
    assert pw["neu@players.test"] != pw[old.address]
    now = seated(svc, "alpha")[2]
    assert (now.address, now.colour, now.seat) == ("neu@players.test", old.colour, 2)
    # The old password no longer works, whatever address it comes from.
    _, st = game_state(svc, "alpha")
    before = len(order_sets(svc, "alpha"))
    for sender in (old.address, "neu@players.test"):
        r = mailer.send(sender, "Züge", orders_text(st, 2, pw[old.address]))
        assert r.status == "done"
        # Answered only at an address still seated in the game (issue 5: never to an
        # unknown sender): the new player hears of it, the replaced address does not.
        assert bool(replies_to(svc, mailer.last_id, "error")) == (sender == "neu@players.test")
        assert not replies_to(svc, mailer.last_id, "ack")
    assert len(order_sets(svc, "alpha")) == before
    assert play_round(mailer, clock, "alpha", pw=pw) is True
    rounds_played += 1

    # Play to the end.
    while game_row(svc, "alpha").phase == "rounds":
        assert rounds_played < 60, "the game does not end"
        play_round(mailer, clock, "alpha", pw=pw)
        rounds_played += 1
    game, st = game_state(svc, "alpha")
    assert st.phase == Phase.ENDED and game.phase == "ended" and game.deadline is None
    assert st.winner >= 0 and st.vp(st.winner) >= 6
    end = outbox(svc, "end")
    assert len(end) == 1
    # The end mail counts the rounds played, the last one too; `Status` says the same round.
    assert f"{rounds_played} Runden;" in " ".join(end[0].body.split()), end[0].body
    recipients = sorted(end[0].recipients.split(","))
    assert recipients == sorted(p.address for p in seated(svc, "alpha").values())
    assert old.address not in recipients

    # Every step is stored once and replays identically.
    recs = records(svc, "alpha")
    assert len(recs) == 2 * 4 + rounds_played
    assert [r.step for r in recs] == list(range(1, len(recs) + 1))
    rounds = [r.round for r in recs if r.kind == "round"]
    assert rounds == list(range(1, rounds_played + 1))
    assert st.round == rounds_played
    kinds = count_by(outbox(svc), "kind")
    assert kinds["report"] == rounds_played - 1
    with Session(svc.engine) as s:
        result = gm.replay(s, get_game(s, "alpha"))
    assert result.ok, result.mismatches
    assert result.steps == len(recs)

    # After the end no orders are taken.
    r = mailer.send(
        at[0].address, "Züge", f"Spiel: alpha\nKennwort: {pw[at[0].address]}\nStraße C3 C4\n"
    )
    assert replies_to(svc, mailer.last_id, "error") and r.game is None


def test_the_ack_of_a_placement_goes_before_the_notices_it_causes(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    """The ack of the last placement came after "Runde 1 beginnt", the mail it caused."""
    from harness import play_setup_by_mail

    new_game(svc, "alpha", players=3)
    signup(mailer, "alpha", 3)
    play_setup_by_mail(mailer, "alpha")
    rows = outbox(svc)
    (opened,) = [o for o in rows if o.kind == "round_open"]
    last_ack = max((o for o in rows if o.kind == "ack"), key=lambda o: o.id or 0)
    assert (last_ack.id or 0) < (opened.id or 0)
    assert "Angenommen:" in last_ack.body and "gesetzt" in last_ack.body.lower(), last_ack.body


_NEXT = {"de": "Als Nächstes stellt", "en": "Next:", "da": "Næste:"}


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_setup_turn_whose_placement_is_in_is_not_announced(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    """QA: "Next: blue places, until …" went out although blue's placement was in and was
    placed right after it: a turn played already is not announced."""
    new_game(svc, lang=lang)
    signup(mailer, "alpha")
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st0 = game_state(svc, "alpha")
    # Seat 1 sends ahead of its turn; seat 0's placement lets it be placed at once.
    mailer.send(at[1].address, "setup", setup_text(st0, 1, pw[at[1].address], 12, lang=lang))
    mailer.send(at[0].address, "setup", setup_text(st0, 0, pw[at[0].address], lang=lang))
    assert game_state(svc, "alpha")[1].setup_step == 2
    first, second = outbox(svc, "placed")
    assert _NEXT[lang] not in first.body and _NEXT[lang] not in first.html, first.body
    assert _NEXT[lang] in second.body, second.body


@pytest.mark.parametrize("lang", ["de", "en", "da"])
def test_a_setup_turn_whose_placement_cannot_be_used_is_announced(
    svc: Service, mailer: Mailer, lang: str
) -> None:
    """Seat 1's placement sent ahead is the one seat 0 takes: its turn waits for it as any
    other, and everyone hears whose turn it is."""
    new_game(svc, lang=lang)
    signup(mailer, "alpha")
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st0 = game_state(svc, "alpha")
    same = setup_text(st0, 0, pw[at[1].address], 1, lang=lang)
    mailer.send(at[1].address, "setup", same)
    mailer.send(at[0].address, "setup", setup_text(st0, 0, pw[at[0].address], 1, lang=lang))
    assert game_state(svc, "alpha")[1].setup_step == 1
    (first,) = outbox(svc, "placed")
    assert _NEXT[lang] in first.body, first.body
