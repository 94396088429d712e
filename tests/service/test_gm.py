"""The game master's levers (preview, rollback, pause, deadlines) and the `pbm` commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from databases import (
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
    Games,
    Mailer,
    new_game,
    orders_text,
    pass_deadline,
    play_round,
    raw_mail,
    send_orders,
    setup_text,
    signup,
)
from sqlmodel import Session, col, select
from typer.testing import CliRunner

import pbm.service.ingest as ingest_module
from pbm.cli import app
from pbm.service import admin, gm
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import ServiceError, extend_deadline, get_game, round_hours
from pbm.service.table import as_utc
from pbm.service.tick import tick
from pbm.store.db import make_engine, transaction
from pbm.store.models import Outbox, Player, RoundRecord
from pbm.store.statuses import OutboxStatus


def _snapshot(svc: Service) -> dict[str, Any]:
    with Session(svc.engine) as s:
        game = get_game(s, "alpha")
        return {
            "state": game.state,
            "round": game.round,
            "phase": game.phase,
            "deadline": game.deadline,
            "outbox": [(o.id, o.kind, o.status) for o in s.exec(select(Outbox))],
            "records": [r.step for r in s.exec(select(RoundRecord))],
            "players": sorted(
                (p.id, p.nmr_count, p.autopilot, p.status) for p in s.exec(select(Player))
            ),
        }


@pytest.fixture
def round1(svc: Service, clock: FakeClock, mailer: Mailer, games: Games) -> None:
    games.start("alpha")


def test_preview_in_a_rolled_back_transaction_changes_nothing(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: None
) -> None:
    send_orders(mailer, "alpha", [0, 1, 2])
    before = _snapshot(svc)
    with Session(svc.engine) as s:
        preview = gm.preview(svc, s, get_game(s, "alpha"))
        s.rollback()
    assert _snapshot(svc) == before
    assert preview.events and preview.events[0] == "round_started"
    assert "Runde 1" in preview.report
    # Resolving for real gives what the preview showed.
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]
    [rec] = [r for r in records(svc, "alpha") if r.kind == "round"]
    assert [e["kind"] for e in json.loads(rec.events)] == preview.events


def test_rollback_restores_the_state_and_resolving_again_gives_the_same_events(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: None
) -> None:
    send_orders(mailer, "alpha", [0, 1, 2, 3])
    assert game_row(svc, "alpha").round == 2
    first = records(svc, "alpha")[-1]
    [report] = [o for o in outbox(svc, "report") if o.step == first.step]
    assert report.status == "pending"
    with transaction(svc.engine) as s:
        done = gm.rollback(svc, s, get_game(s, "alpha", lock=True))
    assert (done.step, done.round, done.sent, done.notified) == (first.step, 1, False, 0)
    assert first.step not in [r.step for r in records(svc, "alpha")]
    assert [o.status for o in outbox(svc, "report") if o.step == first.step] == ["dropped"]
    game = game_row(svc, "alpha")
    assert (game.round, game.phase) == (1, "rounds")
    assert json.loads(game.state) == json.loads(first.state_before)

    # The orders are still in, but a rolled-back round waits for its deadline (or the GM);
    # then it resolves again, identically.
    assert tick(svc).resolved == []
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]
    again = records(svc, "alpha")[-1]
    assert again.step == first.step and again.round == 1
    assert again.events == first.events
    assert json.loads(again.state_after) == json.loads(first.state_after)
    reports = [o for o in outbox(svc, "report") if o.step == first.step]
    assert sorted(o.status for o in reports) == ["dropped", "pending"]


def test_rollback_of_an_nmr_round_restores_the_nmr_count_and_autopilot(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: None
) -> None:
    """The third NMR in a row switches the autopilot on. Rolling that round back must undo it,
    or resolving again plays the seat with the autopilot instead of as an NMR (other events)
    and counts the NMR twice."""
    for _ in range(3):
        play_round(mailer, clock, "alpha", skip=[3])
    lazy = seated(svc, "alpha")[3]
    assert lazy.autopilot and lazy.nmr_count == 3
    first = records(svc, "alpha")[-1]
    with transaction(svc.engine) as s:
        gm.rollback(svc, s, get_game(s, "alpha", lock=True))
    assert {o.status for o in outbox(svc) if o.step == first.step} == {"dropped"}
    lazy = seated(svc, "alpha")[3]
    assert (lazy.autopilot, lazy.nmr_count) == (False, 2), (
        "rollback left the NMR count and autopilot of the rolled-back round in place"
    )

    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]
    again = records(svc, "alpha")[-1]
    assert again.events == first.events, "resolving again gave other events"
    lazy = seated(svc, "alpha")[3]
    assert (lazy.autopilot, lazy.nmr_count) == (True, 3)
    live = [o for o in outbox(svc, to=lazy.address) if o.status == "pending"]
    assert [o.kind for o in live if o.kind in ("nmr", "autopilot_on")].count("autopilot_on") == 1


def test_pause_stops_tick_and_orders(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: None
) -> None:
    send_orders(mailer, "alpha", [0, 1, 2])
    with transaction(svc.engine) as s:
        get_game(s, "alpha", lock=True).paused = True
    pass_deadline(svc, clock, "alpha")
    before = _snapshot(svc)
    assert tick(svc).resolved == []
    assert _snapshot(svc) == before
    # Orders are refused while paused.
    at = seated(svc, "alpha")
    r = mailer.send(
        at[3].address, "Züge", f"Kennwort: {passwords(svc)[at[3].address]}\nRunde: 1\nAbwurf: H\n"
    )
    assert r.status == "done" and r.game is None
    [error] = replies_to(svc, mailer.last_id)
    assert error.kind == "error" and "keine Züge" in error.body
    assert _snapshot(svc) == {**before, "outbox": _snapshot(svc)["outbox"]}
    with transaction(svc.engine) as s:
        get_game(s, "alpha", lock=True).paused = False
    assert tick(svc).resolved == ["alpha"]
    assert game_row(svc, "alpha").round == 2


def test_extend_deadline(svc: Service, clock: FakeClock, mailer: Mailer, round1: None) -> None:
    old = game_row(svc, "alpha").deadline
    assert old is not None
    with transaction(svc.engine) as s:
        new = extend_deadline(svc, get_game(s, "alpha", lock=True), 24)
    assert (new - old).total_seconds() == 24 * 3600
    assert game_row(svc, "alpha").deadline == new
    assert not game_row(svc, "alpha").reminded
    clock.advance(seconds=(old - clock.now()).total_seconds() + 60)  # past the old deadline
    assert tick(svc).resolved == []
    assert game_row(svc, "alpha").round == 1
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]


# -- the command line ---------------------------------------------------------------------------


def _cli(runner: CliRunner, cfg: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(app, ["--config", str(cfg), *args])
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.output


def _json(runner: CliRunner, cfg: Path, *args: str) -> Any:
    return json.loads(_cli(runner, cfg, *args, "--json"))


def test_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text('[database]\nurl = "sqlite:///pbm.db"\n\n[service]\naddress = "gm@pbm.test"\n')
    monkeypatch.chdir(tmp_path.parent)  # the database lives beside the config, not in the cwd
    runner = CliRunner()

    created = _json(runner, cfg, "game", "create", "beta", "--players", "4", "--seed", "3")
    assert created["name"] == "beta" and created["phase"] == "signup" and created["seats"] == 4
    assert (tmp_path / "pbm.db").exists()
    assert [g["name"] for g in _json(runner, cfg, "game", "list")] == ["beta"]

    # Three sign-ups by mail; c0 confirms with the code mailed to it, the GM adds c1 and
    # confirms c2's request (no mail needed), and c3 never confirms.
    for i in range(4):
        eml = tmp_path / f"join{i}.eml"
        eml.write_bytes(
            raw_mail(
                f"c{i}@players.test",
                "Anmeldung",
                f"Spiel: beta\nName: C{i}\nFarben: rot\n",
                f"<join{i}@t>",
            )
        )
        if i != 1:
            assert "done" in _cli(runner, cfg, "mail", "ingest", str(eml))
    pending = _json(runner, cfg, "player", "list", "beta")
    assert [(p["address"], p["status"]) for p in pending] == [
        (f"c{i}@players.test", "signup_pending") for i in (0, 2, 3)
    ]
    code = _json(runner, cfg, "outbox", "list")[0]
    assert code["kind"] == "signup_confirm" and code["to"] == "c0@players.test"
    engine = make_engine(f"sqlite:///{tmp_path}/pbm.db")
    with Session(engine) as s:
        token = s.exec(select(Player.confirm_token).where(Player.address == "c0@players.test"))
        confirm = tmp_path / "confirm0.eml"
        confirm.write_bytes(
            raw_mail("c0@players.test", "Re", f"Spiel: beta\nBestätigen: {token.one()}\n", "<c0@t>")
        )
    engine.dispose()
    assert "done" in _cli(runner, cfg, "mail", "ingest", str(confirm))
    assert "c1@players.test joined as C1" in _cli(
        runner, cfg, "player", "add", "beta", "c1@players.test", "--name", "C1", "--colours", "rot"
    )
    assert "c2@players.test joined as C2" in _cli(
        runner, cfg, "player", "add", "beta", "c2@players.test"
    )
    shown = _json(runner, cfg, "game", "show", "beta")
    assert (shown["phase"], shown["players"], shown["seats"]) == ("signup", 3, 4)
    assert len(shown["players_list"]) == 3

    _cli(runner, cfg, "game", "start", "beta")
    shown = _json(runner, cfg, "game", "show", "beta")
    assert (shown["phase"], shown["players"], shown["seats"]) == ("setup", 3, 3)
    players = _json(runner, cfg, "player", "list", "beta")
    assert sorted(p["seat"] for p in players) == [0, 1, 2]
    assert sorted(p["colour"] for p in players) == ["blau", "gelb", "rot"]
    assert _cli(runner, cfg, "game", "start", "beta", code=2)  # past signup: a refusal

    status = _json(runner, cfg, "round", "status", "beta")
    assert status["round"] == 0 and len(status["players"]) == 3
    kinds = [o["kind"] for o in _json(runner, cfg, "outbox", "list")]
    assert (
        sorted(kinds)
        == ["joined"] * 3 + ["preview", "setup"] + ["signup_confirm"] * 3 + ["welcome"] * 3
    )
    assert _json(runner, cfg, "mail", "quarantine") == []

    # The first player places by mail (password from the welcome mail in the database).
    engine = make_engine(f"sqlite:///{tmp_path}/pbm.db")
    with Session(engine) as s:
        first = s.exec(select(Player).where(Player.seat == 0)).one()
        welcome = s.exec(
            select(Outbox).where(Outbox.kind == "welcome", Outbox.recipients == first.address)
        ).one()
        game = get_game(s, "beta")
    from pbm.service.games import load_state

    password = welcome.secret  # put into the mail when it is sent
    eml = tmp_path / "setup.eml"
    eml.write_bytes(
        raw_mail(
            first.address, "Aufstellung", setup_text(load_state(game), 0, password), "<setup0@t>"
        )
    )

    # A handler bug quarantines it; the GM sees it, and re-queues it once fixed.
    def broken(*_: Any) -> None:
        raise RuntimeError("bug in handle")

    monkeypatch.setattr(ingest_module, "handle", broken)
    assert "quarantined" in _cli(runner, cfg, "mail", "ingest", str(eml))
    [q] = _json(runner, cfg, "mail", "quarantine")
    assert q["message_id"] == "<setup0@t>" and "RuntimeError: bug in handle" in q["error"]
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path.parent)
    assert "done" in _cli(runner, cfg, "mail", "requeue", str(q["id"]))
    assert _json(runner, cfg, "mail", "quarantine") == []
    # Read again once only: a processed mail is refused, not answered "done" as if re-read.
    again = _cli(runner, cfg, "mail", "requeue", str(q["id"]), code=2)
    assert f"mail {q['id']} is done already" in again
    kinds = [o["kind"] for o in _json(runner, cfg, "outbox", "list")]
    assert kinds.count("placed") == 1 and kinds.count("ack") == 1

    replay = _json(runner, cfg, "game", "replay", "beta")
    assert replay == {"steps": 1, "ok": True, "mismatches": []}
    assert "identical" in _cli(runner, cfg, "game", "replay", "beta")
    with Session(engine) as s:
        assert s.exec(select(RoundRecord).order_by(col(RoundRecord.step))).one().kind == "setup"
    engine.dispose()


def test_preview_after_a_rollback_shows_the_new_resolution(
    svc: Service, clock: FakeClock, mailer: Mailer, round1: None
) -> None:
    """After a rollback the step number is used again; the preview must show the report of
    the resolution it just made, not the dropped report of the rolled-back one."""
    send_orders(mailer, "alpha", [0, 1, 2, 3])
    with transaction(svc.engine) as s:
        gm.rollback(svc, s, get_game(s, "alpha", lock=True))
    clock.advance(hours=1)
    with Session(svc.engine) as s:
        preview = gm.preview(svc, s, get_game(s, "alpha"), show_dice=True)
        s.rollback()
    assert admin.resolve_round(svc, "alpha", now=True).resolved
    [report] = outbox(svc, "report", status="pending")
    assert preview.report == report.body, "the preview showed the dropped report"


def test_rollback_of_a_setup_step_brings_back_the_orders_it_used(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    """Seat 2 sends a ranked list ahead, then a second one that replaces it; its turn places
    from the second. Rolling that placement back must make the second list count again (so
    the placement repeats), not the first one it replaced."""
    from pbm.notation import Context
    from pbm.notation.format import format_setup_orders
    from pbm.rules import autopilot
    from pbm.rules.orders import SetupOrders

    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st = game_state(svc, "alpha")
    ctx = Context(st.board, "de", st.colours, "setup")
    best = autopilot.setup_orders(st, 2, 12)
    worst_first = SetupOrders(tuple(reversed(best.placements)))
    sent = [
        mailer.send(
            at[2].address,
            "Aufstellung",
            f"Kennwort: {pw[at[2].address]}\n" + "\n".join(format_setup_orders(ranked, ctx)),
        )
        for ranked in (best, worst_first)
    ]
    for seat in (0, 1):
        _, st = game_state(svc, "alpha")
        mailer.send(at[seat].address, "Aufstellung", setup_text(st, seat, pw[at[seat].address]))
    first = records(svc, "alpha")[-1]
    assert json.loads(first.events)[0]["player"] == 2

    with transaction(svc.engine) as s:
        gm.rollback(svc, s, get_game(s, "alpha", lock=True))
    live = [o for o in order_sets(svc, "alpha") if not o.superseded]
    assert [o.mail_id for o in live] == [sent[1].mail_id], (
        "rollback revived a replaced order set instead of the one the placement used"
    )
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).placed == ["alpha"]
    again = records(svc, "alpha")[-1]
    assert again.step == first.step and again.events == first.events


def test_replacing_with_an_address_already_seated_is_refused(
    svc: Service, mailer: Mailer, round1: None
) -> None:
    at = seated(svc, "alpha")
    with pytest.raises(ServiceError), transaction(svc.engine) as s:
        gm.replace_player(
            svc, s, get_game(s, "alpha", lock=True), at[1].colour or "", at[0].address
        )
    assert {seat: p.address for seat, p in seated(svc, "alpha").items()} == {
        seat: p.address for seat, p in at.items()
    }


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    "address", ["bad address", "@", "x y@z.de", "a@b@c.de", "<a@b.de>", "a@b..de"]
)
def test_an_address_that_is_none_is_refused_for_a_seat(
    svc: Service, mailer: Mailer, round1: None, address: str
) -> None:
    """`pbm player replace` and `pbm player add` seat only mail addresses: no welcome mail with a
    password goes to an address that cannot receive it."""
    at = seated(svc, "alpha")
    welcomes = len(outbox(svc, "welcome"))
    with pytest.raises(ServiceError, match="not a mail address"):
        admin.replace_player(svc, "alpha", at[1].colour or "", address)
    assert seated(svc, "alpha")[1].address == at[1].address
    assert len(outbox(svc, "welcome")) == welcomes
    admin.new_game(svc, "beta", players=3)
    with pytest.raises(ServiceError, match="not a mail address"):
        admin.add_player(svc, "beta", address)
    assert admin.add_player(svc, "beta", " Jørgen@Eksempel.dk ")["address"] == "jørgen@eksempel.dk"


def test_a_seat_can_change_hands_more_than_once(svc: Service, mailer: Mailer, round1: None) -> None:
    """A leaves, B takes over, A comes back, then C takes over: the history of the seat must
    not collide with itself (player rows are unique by game, address and status)."""
    colour = seated(svc, "alpha")[1].colour or ""
    a = seated(svc, "alpha")[1].address
    for address in ("b@players.test", a, "c@players.test"):
        with transaction(svc.engine) as s:
            gm.replace_player(svc, s, get_game(s, "alpha", lock=True), colour, address)
        assert seated(svc, "alpha")[1].address == address
    assert len(outbox(svc, "welcome")) == 4 + 3


def test_cli_lists_and_removes_observers(tmp_path: Path) -> None:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(
        f'[database]\nurl = "sqlite:///{tmp_path}/pbm.db"\n\n[service]\naddress = "gm@pbm.test"\n'
    )
    runner = CliRunner()
    _cli(runner, cfg, "game", "create", "beta", "--players", "3", "--seed", "3")
    for i, address in enumerate(("fan@watch.test", "Other@watch.test")):
        eml = tmp_path / f"observe{i}.eml"
        eml.write_bytes(raw_mail(address, "Beobachten", "Spiel: beta\nBeobachten\n", f"<obs{i}@t>"))
        assert "done" in _cli(runner, cfg, "mail", "ingest", str(eml))
    rows = _json(runner, cfg, "observer", "list", "beta")
    assert [(r["address"], r["status"]) for r in rows] == [
        ("fan@watch.test", "observer_pending"),
        ("other@watch.test", "observer_pending"),
    ]
    assert "fan@watch.test" in _cli(runner, cfg, "observer", "list", "beta")
    assert "no longer observes" in _cli(runner, cfg, "observer", "remove", "beta", "FAN@watch.test")
    assert [r["address"] for r in _json(runner, cfg, "observer", "list", "beta")] == [
        "other@watch.test"
    ]
    assert "does not observe" in _cli(
        runner, cfg, "observer", "remove", "beta", "fan@watch.test", code=2
    )


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize(
    ("settings", "said"),
    [
        ({"vp_target": 0}, "victory point target must be 3 to 30"),
        ({"card_limit": -1}, "card limit must be 0 to 99"),
        ({"nmr_autopilot_after": -5}, "NMRs before the autopilot must be 1 to 99"),
        ({"seed": -1}, "seed must be 0 or more"),
        ({"seed": 2**128}, "below 2\\^128"),
        ({"size": "tiny"}, "size must be one of small, medium, large, huge"),
    ],
)
def test_a_game_that_cannot_be_played_as_meant_is_not_created(
    svc: Service, settings: dict[str, Any], said: str
) -> None:
    """A target of 0 points is won by the setup, a card limit below 0 has every hand of two
    discard: refused with the range, as the player count is (an unknown size said only
    `'tiny'`)."""
    with pytest.raises(ServiceError, match=said):
        admin.new_game(svc, "x", **settings)
    assert admin.list_games(svc) == []


def test_outbox_list_refuses_a_status_there_is_none_of(tmp_path: Path) -> None:
    cfg = tmp_path / "pbm.toml"
    runner = CliRunner()
    assert runner.invoke(app, ["init", str(cfg)]).exit_code == 0
    done = runner.invoke(app, ["--config", str(cfg), "outbox", "list", "--status", "bogus"])
    assert done.exit_code == 2
    assert "status must be pending, sent, failed or dropped" in done.output


def test_no_rollback_into_the_setup_once_round_1_has_begun(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """Round 1 open, unresolved: `rollback` took the setup's last placement back and left the
    round's opening, deadline, acks and orders standing, telling nobody."""
    games.start("alpha")
    pw = passwords(svc)
    _, st = game_state(svc, "alpha")
    p = seated(svc, "alpha")[0]
    mailer.send(p.address, "Züge", orders_text(st, 0, pw[p.address]))
    before = (
        game_row(svc, "alpha").state,
        len(records(svc, "alpha")),
        len(order_sets(svc, "alpha")),
    )
    with pytest.raises(ServiceError, match="round 1 has begun"):
        admin.rollback_round(svc, "alpha")
    after = (
        game_row(svc, "alpha").state,
        len(records(svc, "alpha")),
        len(order_sets(svc, "alpha")),
    )
    assert after == before


def test_a_setup_placement_that_went_out_is_rolled_back_with_a_why_told_to_everyone(
    svc: Service, clock: FakeClock, mailer: Mailer
) -> None:
    new_game(svc, "alpha", players=4)
    signup(mailer, "alpha", 4)
    pw = passwords(svc)
    at = seated(svc, "alpha")
    _, st = game_state(svc, "alpha")
    mailer.send(at[0].address, "Aufstellung", setup_text(st, 0, pw[at[0].address]))
    with transaction(svc.engine) as s:
        for row in s.exec(select(Outbox).where(Outbox.kind == "placed")):
            row.status = OutboxStatus.SENT
    with pytest.raises(ServiceError, match="say why with --why"):
        admin.rollback_round(svc, "alpha")
    done = admin.rollback_round(svc, "alpha", why="Falsches Feld eingetragen.")
    assert done.sent and done.notified == 4
    (notice,) = outbox(svc, "correction")
    assert "Falsches Feld eingetragen." in notice.body
    assert notice.subject == "[alpha] Die letzte Aufstellung wird berichtigt"
    # The setup turn's deadline, not a round's.
    row = game_row(svc, "alpha")
    assert row.deadline is not None
    hours = (as_utc(row.deadline) - clock.now()).total_seconds() / 3600
    assert hours == pytest.approx(
        round_hours(svc, row) * svc.config.service.setup_deadline_share  # type: ignore[operator]
    )
