"""The GM's texts from the command line (issue 28): `pbm game message` and `pbm game announce`
read a text of several lines from `--file FILE` or standard input (`-`); `pbm round extend`
tells the players why (`--why`) and refuses a deadline in the past, naming the command that
does what the GM means."""

from __future__ import annotations

from pathlib import Path

import pytest
from databases import game_row, game_state, outbox, seated
from harness import GM, Games, set_service
from typer.testing import CliRunner

from pbm.cli import app
from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import ServiceError

TEXT = "Liebe Runde,\n\ndie Frist ist länger.\n\n  – eingerückt –\nFrohes Fest!\n"


def _config(tmp_path: Path, db_url: str) -> Path:
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "{GM}"\n')
    return cfg


def _cli(cfg: Path, *args: str, code: int = 0, stdin: str | None = None) -> str:
    result = CliRunner().invoke(app, ["--config", str(cfg), *args], input=stdin)
    assert result.exit_code == code, (args, result.output, result.exception)
    return result.output


def test_message_and_announce_take_a_text_from_a_file_or_stdin(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    table = games.start("alpha")
    cfg = _config(tmp_path, db_url)
    note = tmp_path / "note.txt"
    note.write_text(TEXT, encoding="utf-8")
    colour = seated(svc, "alpha")[2].colour or ""
    _cli(cfg, "game", "message", "alpha", colour, "--file", str(note))
    _cli(cfg, "game", "message", "alpha", "-", stdin=TEXT.replace("Liebe", "Hallo"))
    _cli(cfg, "game", "message", "alpha", colour, "-", stdin="Nur für dich\nzwei Zeilen\n")
    _cli(cfg, "game", "message", "alpha", "--file", str(note))
    one, everyone, only, again = outbox(svc, "press")
    assert one.recipients == table.seats[2]
    assert "Liebe Runde,\n\ndie Frist ist länger.\n\n  – eingerückt –\nFrohes Fest!" in one.body
    assert sorted(everyone.recipients.split(",")) == sorted(table.addresses)
    assert "Hallo Runde,\n\ndie Frist" in everyone.body
    assert only.recipients == table.seats[2] and "Nur für dich\nzwei Zeilen" in only.body
    assert sorted(again.recipients.split(",")) == sorted(table.addresses)
    out = _cli(cfg, "game", "announce", "alpha", "--file", str(note))
    assert "4 addresses" in out
    _cli(cfg, "game", "announce", "alpha", "-", stdin="Erste Zeile\nZweite Zeile\n")
    first, second = outbox(svc, "gm_notice")
    assert "die Frist ist länger.\n\n  – eingerückt –" in first.body
    assert "Erste Zeile\nZweite Zeile" in second.body
    # The text as an argument still works; no text, two texts or a file that cannot be read
    # are refused and send nothing.
    _cli(cfg, "game", "announce", "alpha", "Kurz")
    sent = len(outbox(svc))
    assert "no text" in _cli(cfg, "game", "message", "alpha", code=2)
    assert "not both" in _cli(cfg, "game", "announce", "alpha", "x", "--file", str(note), code=2)
    missing = str(tmp_path / "missing.txt")
    assert "cannot read it" in _cli(cfg, "game", "announce", "alpha", "--file", missing, code=2)
    assert "is empty" in _cli(cfg, "game", "announce", "alpha", "-", stdin="  \n", code=2)
    assert len(outbox(svc)) == sent


def test_extend_tells_the_players_why(svc: Service, games: Games) -> None:
    games.start("alpha")
    old = game_row(svc, "alpha").deadline
    assert old is not None
    new = admin.extend_round(svc, "alpha", 12, "Bernd ist krank.")
    assert new == old + svc.config.service.hours(12)
    (notice,) = outbox(svc, "gm_notice")
    assert "Neue Frist: " + new.strftime("%Y-%m-%d %H:%M") in notice.body
    assert "Grund: Bernd ist krank." in notice.body
    # Without a reason the notice has no such line.
    admin.extend_round(svc, "alpha", 1)
    assert "Grund" not in outbox(svc, "gm_notice")[-1].body


def test_a_deadline_in_the_past_is_refused_with_the_command_to_use(
    svc: Service, games: Games, clock: FakeClock
) -> None:
    games.start("alpha")
    before = game_row(svc, "alpha").deadline
    assert before is not None
    hours = (before - clock.now()).total_seconds() / 3600
    with pytest.raises(ServiceError) as refused:
        admin.extend_round(svc, "alpha", -(hours + 1), "zu spät")
    assert "in the past" in str(refused.value)
    assert "pbm round resolve alpha --now" in str(refused.value)
    assert game_row(svc, "alpha").deadline == before
    assert outbox(svc, "gm_notice") == []
    # Up to now is not the past: the round is due at once, and nobody is told a deadline
    # of now (it has passed when they read it): the round's report tells them.
    admin.extend_round(svc, "alpha", -hours, "gleich")
    assert game_row(svc, "alpha").deadline == clock.now()
    assert outbox(svc, "gm_notice") == []
    # A game that has ended has no deadline to move.
    admin.end_game(svc, "alpha", "Schluss")
    with pytest.raises(ServiceError, match="no open round"):
        admin.extend_round(svc, "alpha", 5)


def test_a_setup_deadline_in_the_past_names_the_tick(
    svc: Service, games: Games, clock: FakeClock
) -> None:
    from harness import new_game, signup

    new_game(svc, "beta")
    signup(games.mailer, "beta")  # the table is full: the setup begins
    assert game_row(svc, "beta").phase == "setup"
    with pytest.raises(ServiceError) as refused:
        admin.extend_round(svc, "beta", -1000)
    assert "pbm game tick" in str(refused.value) and "--hours -" in str(refused.value)
    # The hint's figure, typed a minute later, is "now" (not refused again for the minute).
    hinted = float(str(refused.value).split("--hours ")[2].split(",")[0])
    clock.advance(minutes=1)
    assert admin.extend_round(svc, "beta", hinted) == clock.now()


def test_the_setup_hints_lead_to_the_placement_not_round_in_a_loop(
    svc: Service, games: Games, clock: FakeClock
) -> None:
    """`pbm round resolve --now` in the setup named hours rounded toward zero (the deadline
    left seconds ahead: the tick placed nothing), and after the deadline `--hours -0.00`,
    which `extend` refuses. The hint now lands on the deadline, or names the tick alone."""
    from harness import new_game, signup

    from pbm.service.tick import tick

    new_game(svc, "beta")
    signup(games.mailer, "beta")
    step = game_state(svc, "beta")[1].setup_step
    with pytest.raises(ServiceError) as refused:
        admin.resolve_round(svc, "beta", now=True)
    hinted = float(str(refused.value).split("--hours ")[1].split(",")[0])
    assert admin.extend_round(svc, "beta", hinted) == clock.now()
    # QA: every player was mailed "New deadline: <now>", a deadline passed when read.
    assert outbox(svc, "gm_notice") == []
    tick(svc)
    assert game_state(svc, "beta")[1].setup_step == step + 1
    # The next turn's deadline passes: the tick alone is named, everywhere.
    clock.advance(hours=49)
    for refusal in (
        lambda: admin.resolve_round(svc, "beta", now=True),
        lambda: admin.extend_round(svc, "beta", -1),
        lambda: admin.extend_round(svc, "beta", 0),
    ):
        with pytest.raises(ServiceError) as refused:
            refusal()
        assert "the turn's deadline has passed: pbm game tick" in str(refused.value)
        assert "--hours -0.00" not in str(refused.value)


def test_a_deadline_moved_to_now_is_told_to_nobody_and_the_command_line_says_so(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    """QA: `pbm round extend GAME --hours -24` (the setup's hint) mailed everyone "New
    deadline: <now>". A deadline moved only as far as now is set and mailed to nobody; the
    command line says the next tick acts on it. A turn without deadline given one of now
    (`--hours 0`) alike."""
    from harness import new_game, signup

    from pbm.service.tick import tick

    new_game(svc, "beta", deadline="off")
    signup(games.mailer, "beta")
    assert game_row(svc, "beta").deadline is None
    step = game_state(svc, "beta")[1].setup_step
    assert admin.extend_round(svc, "beta", 0) == svc.clock.now()
    assert outbox(svc, "gm_notice") == []
    tick(svc)
    assert game_state(svc, "beta")[1].setup_step == step + 1
    # On the command line (its clock is the real one, past the game's turn deadline): a
    # turn without deadline, moved to now, is named as not told.
    new_game(svc, "gamma", deadline="off")
    signup(games.mailer, "gamma", addresses=[f"q{i}@players.test" for i in range(4)])
    cfg = _config(tmp_path, db_url)
    out = _cli(cfg, "round", "extend", "gamma", "--hours", "0", "--why", "los")
    text = " ".join(out.split())
    assert text.startswith("gamma: deadline now (")
    assert "the players are not told it (nor --why)" in text
    assert "the next `pbm game tick` (or `pbm serve`) makes the setup placement" in text
    assert outbox(svc, "gm_notice") == []


def test_extend_by_nothing_tells_nobody(svc: Service, games: Games) -> None:
    """`--hours 0` with a deadline set moves nothing: refused, no mail to every player."""
    games.start("alpha")
    before = game_row(svc, "alpha").deadline
    with pytest.raises(ServiceError, match="--hours 0 leaves the deadline as it is"):
        admin.extend_round(svc, "alpha", 0)
    assert game_row(svc, "alpha").deadline == before and outbox(svc, "gm_notice") == []


def test_a_setup_deadline_moved_is_the_setup_turns_not_round_0s(svc: Service, games: Games) -> None:
    from harness import new_game, signup

    new_game(svc, "beta")
    signup(games.mailer, "beta")
    admin.extend_round(svc, "beta", 5)
    (notice,) = outbox(svc, "gm_notice")
    assert "die Frist des Zugs in der Aufstellung verschoben" in notice.body
    assert "Runde 0" not in notice.body


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
@pytest.mark.parametrize("hours", [1e9, -1e9, float("nan"), float("inf")])
def test_round_extend_refuses_hours_no_calendar_holds(
    svc: Service, games: Games, hours: float
) -> None:
    """A typo of many digits, or `nan`, is refused in one line (it raised from the calendar)."""
    games.start("alpha")
    before = game_row(svc, "alpha").deadline
    with pytest.raises(ServiceError, match="--hours is a number of hours between"):
        admin.extend_round(svc, "alpha", hours)
    assert game_row(svc, "alpha").deadline == before


def test_round_extend_on_the_command_line(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    games.start("alpha")
    cfg = _config(tmp_path, db_url)
    before = game_row(svc, "alpha").deadline
    # The command line's clock is the real one, long past the game's deadline (2026-01).
    out = _cli(cfg, "round", "extend", "alpha", "--hours", "1", "--why", "Feiertage", code=2)
    assert out.startswith("error: alpha: --hours 1 would put the deadline in the past")
    assert "pbm round resolve alpha --now" in out
    assert game_row(svc, "alpha").deadline == before and outbox(svc, "gm_notice") == []
    out = _cli(cfg, "round", "extend", "alpha", "--hours", "100000", "--why", "Feiertage")
    assert out.startswith("alpha: deadline ")
    (notice,) = outbox(svc, "gm_notice")
    assert "Grund: Feiertage" in notice.body


def test_pbm_gm_password_prints_a_password_the_mail_commands_take(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    from harness import Mailer

    games.start("alpha")
    set_service(svc, gm_address="spielleitung@pbm.test")
    cfg = _config(tmp_path, db_url)
    first = _cli(cfg, "gm", "password").splitlines()[0].removeprefix("GM password: ")
    second = _cli(cfg, "gm", "password").splitlines()[0].removeprefix("GM password: ")
    assert first != second and second.startswith("gm-")
    mailer = Mailer(svc)
    mailer.send("spielleitung@pbm.test", "x", f"Kennwort: {first}\nSpiel: alpha\nPause\n")
    assert not game_row(svc, "alpha").paused  # the old one stopped working
    mailer.send("spielleitung@pbm.test", "x", f"Kennwort: {second}\nSpiel: alpha\nPause\n")
    assert game_row(svc, "alpha").paused


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_a_preview_during_the_setup_says_where_the_game_stands(svc: Service, games: Games) -> None:
    from harness import new_game, signup

    new_game(svc, "beta")
    signup(games.mailer, "beta")
    with pytest.raises(ServiceError, match="no open round to preview \\(it is in setup\\)"):
        admin.preview_round(svc, "beta")


def test_round_status_in_the_setup_waits_for_the_seat_on_turn_alone(
    svc: Service, games: Games
) -> None:
    from harness import new_game, signup

    from pbm.rules.setup import setup_player

    new_game(svc, "beta")
    signup(games.mailer, "beta")
    on_turn = setup_player(game_state(svc, "beta")[1])
    seats = {p.colour: seat for seat, p in seated(svc, "beta").items()}
    status = admin.round_status(svc, "beta")
    waited = [seats[p["colour"]] for p in status["players"] if p["waited_for"]]
    assert waited == [on_turn]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_round_status_in_the_setup_calls_no_seat_autopilot(
    svc: Service, games: Games, tmp_path: Path, db_url: str
) -> None:
    """QA: the seats not on turn were listed as "autopilot" (the JSON said false)."""
    from harness import new_game, signup

    new_game(svc, "beta")
    signup(games.mailer, "beta")
    out = _cli(_config(tmp_path, db_url), "round", "status", "beta")
    labels = [line.split()[-1] for line in out.splitlines()[1:] if line.strip()]
    assert "autopilot" not in out
    assert labels.count("waiting") == 1 and labels.count("turn") == 3, out
