"""Sealed dice in the service (issue 14): the seal in every welcome mail, the seed and the seal
nonce in the game-end report and nowhere before, `pbm game verify` (in English, for games of
either language), a rollback that keeps the dice and the orders unless the GM reopens the
round, the correction mail, a preview that hides the coming rolls, a game an older pbm stored,
and a game created before seal nonces."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from databases import (
    game_row,
    game_state,
    outbox,
    passwords,
    records,
    seated,
)
from harness import (
    Games,
    Mailer,
    new_game,
    orders_text,
    pass_deadline,
    play_round,
    send_orders,
    setup_by_deadline,
    signup,
)
from sqlmodel import Session, col, select
from typer.testing import CliRunner

from pbm.cli import app
from pbm.rules.rng import is_nonce, round_rolls, seal
from pbm.rules.state import RULES
from pbm.service import admin
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import ServiceError, get_game
from pbm.service.tick import tick
from pbm.store.db import transaction
from pbm.store.models import Game, Outbox
from pbm.store.statuses import OutboxStatus

ROLL = re.compile(r"^Wurf für (\S+): (\d)\+(\d) = \d+$", re.M)


def _deliver(svc: Service) -> None:
    """Every pending mail goes out (marked as the sender marks it; the welcome mails keep their
    passwords for the test's players)."""
    with transaction(svc.engine) as s:
        for o in s.exec(select(Outbox).where(Outbox.status == OutboxStatus.PENDING)):
            o.status = OutboxStatus.SENT


def _rolls(body: str) -> list[tuple[str, int, int]]:
    return [(who, int(a), int(b)) for who, a, b in ROLL.findall(body)]


def _seed(svc: Service) -> int:
    return game_row(svc, "alpha").seed


def _nonce(svc: Service, name: str = "alpha") -> str:
    return game_row(svc, name).seal_nonce


def _shell(command: str) -> str:
    """What a one-line shell command from a mail prints (its first word: the hash)."""
    out = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=True)
    return out.stdout.split()[0]


def _leaks(svc: Service, secret: str) -> list[str]:
    """Every outbox row (subject, text, HTML) that holds `secret`."""
    return [
        f"{o.kind} {o.id}"
        for o in outbox(svc)
        if secret in o.subject or secret in o.body or secret in (o.html or "")
    ]


def test_a_new_game_has_a_128_bit_seed_a_nonce_and_every_welcome_mail_its_seal(
    svc: Service, games: Games
) -> None:
    from pbm.service.games import create_game

    with transaction(svc.engine) as s:
        made = [create_game(svc, s, f"g{i}") for i in range(4)]
        # A seed given (`pbm game create --seed 5`) gets a random nonce all the same.
        fixed = create_game(svc, s, "fixed", seed=5)
        seeds = [g.seed for g in made]
        nonces = [g.seal_nonce for g in [*made, fixed]]
    assert max(seeds).bit_length() > 100 and len(set(seeds)) == 4
    assert all(is_nonce(n) for n in nonces) and len(set(nonces)) == 5
    games.start("alpha")  # seed 7, given
    seed, nonce = _seed(svc), _nonce(svc)
    assert is_nonce(nonce)
    welcomes = outbox(svc, "welcome")
    assert len(welcomes) == 4
    for mail in welcomes:
        lines = mail.body.splitlines()
        shown = lines[lines.index("Würfelsiegel dieses Spiels:") + 1]
        # SHA-256 of SEED:NONCE: not of the seed alone, which anyone reverses for seed 7.
        assert shown == f"  {seal(seed, nonce)}" != f"  {seal(seed)}"
        assert "Zufallswert" in mail.body and nonce not in mail.body


@pytest.mark.slow  # a whole (short) game, each round previewed
def test_the_end_report_reveals_seed_and_nonce_and_nothing_did_before(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, db_url: str, tmp_path: Path
) -> None:
    """Until the game ends, the nonce is in no mail (subject, text or HTML), no archive page,
    no `pbm game show --json` or `pbm game list --json`, and no preview, even the preview of
    the round that ends the game; then the end report reveals it with the seed, and the command
    it prints gives the seal of the welcome mails."""
    from pbm.service.archive import write_archive

    games.start("alpha", vp_target=4)
    nonce, seed = _nonce(svc), _seed(svc)
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "gm@pbm.test"\n')

    def shown(*args: str) -> str:
        result = CliRunner().invoke(app, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    previews = 0
    while game_row(svc, "alpha").phase == "rounds":
        players = seated(svc, "alpha")
        send_orders(mailer, "alpha", [s for s, p in players.items() if not p.autopilot], False)
        preview = admin.preview_round(svc, "alpha", show_dice=True).report
        assert nonce not in preview
        assert _leaks(svc, nonce) == []
        if "Würfel-Startwert" in preview:
            # This round ends the game: everything before it is out, and none of it shows the
            # nonce, nor does the preview of the end report.
            previews += 1
            assert "<seal nonce: shown when the game has ended>" in preview
            assert json.loads(shown("game", "show", "alpha", "--json"))["seal_nonce"] is None
            assert nonce not in shown("game", "show", "alpha")
            assert nonce not in shown("game", "list", "--json")
            assert write_archive(svc, "alpha", tmp_path / "archive")
            pages = list((tmp_path / "archive").iterdir())
            assert len(pages) > 3 and all(nonce.encode() not in f.read_bytes() for f in pages)
        pass_deadline(svc, clock, "alpha")
        assert tick(svc).resolved == ["alpha"]
    assert previews == 1
    [end] = outbox(svc, "end")
    assert _leaks(svc, nonce) == [f"end {end.id}"] and nonce in (end.html or "")
    lines = end.body.splitlines()
    at = lines.index(f"Würfel-Startwert: {seed}")
    assert lines[at + 1 : at + 7] == [
        f"Siegel-Zufallswert: {nonce}",
        "Das Würfelsiegel deiner Willkommensmail ist der SHA-256 von beiden:",
        f"  {seal(seed, nonce)}",
        f"  printf %s {seed}:{nonce} | sha256sum",
        "Gib die letzte Zeile in ein Terminal ein (Linux, macOS):",
        "Sie muss das Siegel ausgeben.",
    ]
    welcome = outbox(svc, "welcome")[0].body.splitlines()
    sealed = welcome[welcome.index("Würfelsiegel dieses Spiels:") + 1].strip()
    assert _shell(lines[at + 4].strip()) == sealed
    # Once the game has ended, the GM sees the nonce too; the archive still never shows it.
    assert json.loads(shown("game", "show", "alpha", "--json"))["seal_nonce"] == nonce
    write_archive(svc, "alpha", tmp_path / "archive")
    assert all(nonce.encode() not in f.read_bytes() for f in (tmp_path / "archive").iterdir())
    _deliver(svc)
    result = admin.verify_game(svc, "alpha")
    assert result.seal_ok is True and result.revealed and result.salted


def test_a_game_the_gm_ends_reveals_seed_and_nonce_and_nothing_did_before(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    """The fast tier's check of the secret: two rounds played, the nonce is in no mail, no
    archive page, no `pbm game show` or `game list`; the GM's end notice reveals it."""
    from pbm.service.archive import write_archive

    games.start("alpha", round_=3)
    seed, nonce = _seed(svc), _nonce(svc)
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "gm@pbm.test"\n')

    def shown(*args: str) -> str:
        result = CliRunner().invoke(app, ["--config", str(cfg), *args])
        assert result.exit_code == 0, result.output
        return result.output

    assert len(outbox(svc, "report")) == 2 and _leaks(svc, nonce) == []
    assert json.loads(shown("game", "show", "alpha", "--json"))["seal_nonce"] is None
    assert nonce not in shown("game", "show", "alpha") + shown("game", "list", "--json")
    write_archive(svc, "alpha", tmp_path / "archive")
    pages = list((tmp_path / "archive").iterdir())
    assert len(pages) > 3 and all(nonce.encode() not in f.read_bytes() for f in pages)
    assert nonce not in admin.preview_round(svc, "alpha", show_dice=True).report

    admin.end_game(svc, "alpha", why="Zu wenige Spieler.")
    [notice] = outbox(svc, "gm_notice")
    assert _leaks(svc, nonce) == [f"gm_notice {notice.id}"]
    assert f"Würfel-Startwert: {seed}\nSiegel-Zufallswert: {nonce}\n" in notice.body
    assert seal(seed, nonce) in notice.body and nonce in (notice.html or "")
    assert json.loads(shown("game", "show", "alpha", "--json"))["seal_nonce"] == nonce
    _deliver(svc)
    assert admin.verify_game(svc, "alpha").revealed


def _resolve_round_one(svc: Service, mailer: Mailer, games: Games) -> Outbox:
    """Round 1 resolved with everyone's orders and the report out."""
    games.start("alpha")
    pw = passwords(svc)
    _, st = game_state(svc, "alpha")
    for seat, p in seated(svc, "alpha").items():
        mailer.send(p.address, "Züge", orders_text(st, seat, pw[p.address]))
    assert game_row(svc, "alpha").round == 2
    _deliver(svc)
    [report] = outbox(svc, "report")
    return report


def test_verify_compares_seal_records_and_reports(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    report = _resolve_round_one(svc, mailer, games)
    play_round(mailer, clock, "alpha")
    _deliver(svc)
    seed, n = _seed(svc), 4
    colours = game_state(svc, "alpha")[1].colours
    order = [colours[s] for s in range(n)]  # round 1: seat 0 first
    names = {"rot": "rot", "blau": "blau", "gelb": "gelb", "weiß": "weiss"}
    shown = [(names[w], a, b) for w, a, b in _rolls(report.body)]
    assert shown == [(c, a, b) for c, (a, b) in zip(order, round_rolls(seed, 1, n), strict=True)]

    result = admin.verify_game(svc, "alpha")
    assert result.to_json().keys() == {"seal_ok", "rolls_ok", "rounds"}
    assert result.seal_ok is True and result.rolls_ok
    assert [(r.round, r.sealed, r.reports, r.ok) for r in result.rounds] == [
        (1, True, 1, True),
        (2, True, 1, True),
    ]

    # A report that showed another roll, or a welcome mail with another seal, is found.
    sealed = seal(seed, _nonce(svc))
    with transaction(svc.engine) as s:
        row = s.get(Outbox, report.id)
        assert row is not None
        first = ROLL.search(row.body)
        assert first is not None
        a = int(first.group(2))
        row.body = row.body.replace(
            first.group(0), first.group(0).replace(f"{a}+", f"{a % 6 + 1}+", 1), 1
        )
        welcome = s.exec(select(Outbox).where(Outbox.kind == "welcome")).first()
        assert welcome is not None
        welcome.body = welcome.body.replace(sealed, "0" * 64)
    result = admin.verify_game(svc, "alpha")
    assert result.seal_ok is False and not result.rolls_ok
    assert [r.ok for r in result.rounds] == [False, True]


def _end_notice_changed(svc: Service, old: str, new: str) -> None:
    with transaction(svc.engine) as s:
        row = s.exec(select(Outbox).where(Outbox.kind == "gm_notice")).one()
        assert old in row.body
        row.body = row.body.replace(old, new)


def test_verify_finds_an_end_mail_without_its_nonce_or_with_another(
    svc: Service, games: Games
) -> None:
    games.start("alpha")
    admin.end_game(svc, "alpha", why="Zu wenige Spieler.")
    _deliver(svc)
    nonce = _nonce(svc)
    assert admin.verify_game(svc, "alpha").seal_ok is True
    other = f"{int(nonce, 16) ^ 1:032x}"
    _end_notice_changed(svc, nonce, other)
    result = admin.verify_game(svc, "alpha")
    assert result.seal_ok is False and result.seal_problems == [
        f"the game-end mail {outbox(svc, 'gm_notice')[0].id} reveals another seed or nonce"
    ]
    _end_notice_changed(svc, f"Siegel-Zufallswert: {other}\n", "")
    result = admin.verify_game(svc, "alpha")
    assert result.seal_ok is False and "reveals no nonce" in result.seal_problems[0]


def test_a_game_created_before_seal_nonces_keeps_the_seal_of_its_seed(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """A game past its signup when the nonce came keeps `seal_nonce` "" (the migration leaves
    it so): its welcome mails, a newcomer's too, show SHA-256 of the seed alone, its end
    reveals the seed alone with the old command, and `pbm game verify` and the script check
    it by that formula."""
    new_game(svc, "alpha")
    with transaction(svc.engine) as s:
        get_game(s, "alpha", lock=True).seal_nonce = ""
    signup(mailer, "alpha", 4)
    seed = _seed(svc)
    admin.replace_player(svc, "alpha", "rot", "new@players.test", "Neu")
    welcomes = outbox(svc, "welcome")
    assert len(welcomes) == 5
    for mail in welcomes:
        lines = mail.body.splitlines()
        assert lines[lines.index("Würfelsiegel dieses Spiels:") + 1] == f"  {seal(seed)}"
        assert "das Siegel ist sein SHA-256" in mail.body and "Zufallswert" not in mail.body
    admin.end_game(svc, "alpha", why="Zu wenige Spieler.")
    [notice] = [o for o in outbox(svc, "gm_notice") if "Würfel-Startwert" in o.body]
    lines = notice.body.splitlines()
    at = lines.index(f"Würfel-Startwert: {seed}")
    assert lines[at + 1 : at + 6] == [
        "Prüfe ihn gegen das Würfelsiegel deiner Willkommensmail:",
        f"  {seal(seed)}",
        f"  printf %s {seed} | sha256sum",
        "Gib die letzte Zeile in ein Terminal ein (Linux, macOS):",
        "Sie muss das Siegel ausgeben.",
    ]
    assert _shell(lines[at + 3].strip()) == seal(seed)
    _deliver(svc)
    result = admin.verify_game(svc, "alpha")
    assert result.seal_ok is True and result.revealed and not result.salted
    # Four sent: rot's own was dropped unsent when the seat was replaced (its password no
    # longer worked), the newcomer's went out.
    assert result.welcomes == 4 and result.seal_problems == []
    out = _script(str(seed), "--seal", seal(seed), "--players", "4", "--rounds", "1")
    assert out.returncode == 0 and out.stdout.startswith("seal ok: sha256 of the seed")
    # The new formula does not open an old seal.
    wrong = _script(
        str(seed), "--nonce", "0" * 32, "--seal", seal(seed), "--players", "4", "--rounds", "1"
    )
    assert wrong.returncode == 1 and wrong.stdout.startswith("seal WRONG")


SCRIPT = Path(__file__).resolve().parents[2] / "contrib" / "verify_dice.py"


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    """contrib/verify_dice.py as a player runs it: its own Python, nothing of pbm."""
    return subprocess.run(
        [sys.executable, "-I", "-S", str(SCRIPT), *args], capture_output=True, text=True
    )


def test_the_script_checks_a_game_from_its_mails(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """What a player has: the welcome mails (the seal, who sits where), the reports (the
    rolls) and the end mail (seed and nonce). The script, fed from them alone, says `seal ok`
    and prints every roll the reports showed."""
    games.start("alpha", round_=3)
    admin.end_game(svc, "alpha", why="Genug gespielt.")
    welcomes = [o.body for o in outbox(svc, "welcome")]
    seals = {
        b.splitlines()[b.splitlines().index("Würfelsiegel dieses Spiels:") + 1].strip()
        for b in welcomes
    }
    [sealed] = seals
    seats = dict(
        (int(m[2]), m[1])
        for b in welcomes
        if (m := re.search(r"^Du spielst (\S+) auf Platz (\d+)\.$", b, re.M))
    )
    colours = [seats[s] for s in sorted(seats)]
    [end] = [o.body for o in outbox(svc, "gm_notice") if "Würfel-Startwert" in o.body]
    found = re.search(r"^Würfel-Startwert: (\d+)\nSiegel-Zufallswert: ([0-9a-f]+)$", end, re.M)
    assert found is not None and len(colours) == 4
    seed, nonce = found.groups()
    args = ["--nonce", nonce, "--seal", sealed, "--players", "4", "--rounds", "2"]
    out = _script(seed, *args, "--colours", ",".join(colours))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == f"seal ok: sha256 of seed:nonce is {sealed}"
    printed: dict[int, list[tuple[str, int, int]]] = {}
    for line in lines[1:]:
        r, rest = line.removeprefix("round ").split(": ", 1)
        rolls = re.findall(r"(\S+) (\d)\+(\d)=\d+", rest)
        printed[int(r)] = [(who, int(a), int(b)) for who, a, b in rolls]
    assert sorted(printed) == [1, 2]
    reports = outbox(svc, "report")
    assert len(reports) == 2
    for report in reports:
        m = re.search(r"^Runde (\d+), Reihenfolge", report.body, re.M)
        assert m is not None
        assert _rolls(report.body) == printed[int(m[1])]


@pytest.mark.parametrize("lang", ["de", "en"])
def test_game_verify_names_colours_in_english_for_games_of_either_language(
    svc: Service, games: Games, db_url: str, tmp_path: Path, lang: str
) -> None:
    """The GM's command line speaks English (docs/translating.md): `pbm game verify` names the
    colours of a German game in English too, in its text and in `--json`; it reads the
    reports in the game's language all the same."""
    english = {"red", "blue", "yellow", "white"}
    german = {"rot", "blau", "gelb", "weiß", "weiss"}
    games.start("alpha", round_=2, lang=lang)
    _deliver(svc)
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "gm@pbm.test"\n')
    run = CliRunner().invoke(app, ["--config", str(cfg), "game", "verify", "alpha", "--json"])
    assert run.exit_code == 0, run.output
    data = json.loads(run.output)
    assert data["seal_ok"] is True and data["rounds"][0]["reports"] == 1
    assert {r["colour"] for r in data["rounds"][0]["rolls"]} == english
    text = CliRunner().invoke(app, ["--config", str(cfg), "game", "verify", "alpha"])
    assert text.exit_code == 0, text.output
    named = set(re.findall(r"(\S+) [1-6]\+[1-6]", text.output))
    assert named == english and not set(re.findall(r"\w+", text.output)) & german
    assert "SHA-256 of SEED:NONCE" in text.output


def test_game_verify_on_the_command_line(
    svc: Service, mailer: Mailer, games: Games, db_url: str, tmp_path: pytest.TempPathFactory
) -> None:
    _resolve_round_one(svc, mailer, games)
    cfg = tmp_path / "pbm.toml"  # type: ignore[operator]
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "gm@pbm.test"\n')
    result = CliRunner().invoke(app, ["--config", str(cfg), "game", "verify", "alpha", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert list(data) == ["seal_ok", "rolls_ok", "rounds"]
    assert data["seal_ok"] is True and data["rolls_ok"] is True
    assert data["rounds"][0]["round"] == 1 and len(data["rounds"][0]["rolls"]) == 4
    text = CliRunner().invoke(app, ["--config", str(cfg), "game", "verify", "alpha"])
    assert text.exit_code == 0 and "seal" in text.output and "rolls   ok" in text.output


def test_rollback_keeps_the_rolls_and_the_orders_and_sends_a_correction(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    first = _resolve_round_one(svc, mailer, games)
    with pytest.raises(ServiceError, match="--why"):
        admin.rollback_round(svc, "alpha")
    done = admin.rollback_round(svc, "alpha", why="Ein Fehler in pbm: neu auswerten.")
    assert (done.round, done.sent, done.reopened, done.notified) == (1, True, False, 4)
    [notice] = outbox(svc, "correction")
    assert "Ein Fehler in pbm" in notice.body and "Die Züge bleiben" in notice.body

    # Orders for the round are refused: it is closed until the GM resolves it.
    pw = passwords(svc)
    p = seated(svc, "alpha")[0]
    _, st = game_state(svc, "alpha")
    r = mailer.send(p.address, "Züge", orders_text(st, 0, pw[p.address]))
    [answer] = [o for o in outbox(svc, to=p.address) if o.in_reply_to == mailer.last_id]
    assert "korrigiert Runde 1" in answer.body, answer.body
    assert r.status == "done"
    # It waits for the GM (or its deadline), even with every order in.
    assert tick(svc).resolved == []
    assert admin.resolve_round(svc, "alpha", now=True).resolved
    [again] = outbox(svc, "report", status="pending")
    assert again.subject == "[alpha] Korrektur: Bericht Runde 1"  # the tag first, as always
    assert (
        "Grund: Ein Fehler in pbm" in again.body and "Sonst hat sich nichts geändert." in again.body
    )
    assert _rolls(again.body) == _rolls(first.body)
    _deliver(svc)
    result = admin.verify_game(svc, "alpha")
    assert result.rolls_ok and result.rounds[0].reports == 2
    assert game_row(svc, "alpha").corrections == ""


def test_a_reopened_round_takes_changed_orders_and_the_correction_says_what_changed(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    first = _resolve_round_one(svc, mailer, games)
    done = admin.rollback_round(svc, "alpha", why="Rot's orders came late.", reopen=True)
    assert done.reopened and done.notified == 4
    [notice] = outbox(svc, "correction")
    assert "wieder offen" in notice.body
    pw = passwords(svc)
    p = seated(svc, "alpha")[0]
    # Rot now orders nothing but a robber: the builds the first report showed go.
    r = mailer.send(p.address, "Züge", f"Kennwort: {pw[p.address]}\nIch passe\n")
    assert r.status == "done"
    assert outbox(svc, "ack", to=p.address)[-1].in_reply_to == mailer.last_id
    pass_deadline(svc, clock, "alpha")
    assert tick(svc).resolved == ["alpha"]
    [again] = outbox(svc, "report", status="pending")
    assert "Nicht mehr so:" in again.body or "Neu:" in again.body
    assert _rolls(again.body) == _rolls(first.body)
    head = again.body.split("\n\n", 1)[0]
    assert "Wurf für" not in head  # the rolls never change, so never show as changed


def test_the_preview_hides_the_coming_rolls_unless_asked(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    games.start("alpha")
    hidden = admin.preview_round(svc, "alpha")
    assert "Runde 1, Reihenfolge" in hidden.report
    assert "Wurf für" not in hidden.report and "erhält" not in hidden.report
    assert hidden.hidden > 4 and "--show-dice" in hidden.report
    shown = admin.preview_round(svc, "alpha", show_dice=True)
    assert len(_rolls(shown.report)) == 4
    # Once the rolls went out (a rolled-back round), the preview shows them.
    _resolve_round_one_again(svc, mailer)
    admin.rollback_round(svc, "alpha", why="check")
    assert len(_rolls(admin.preview_round(svc, "alpha").report)) == 4


def _resolve_round_one_again(svc: Service, mailer: Mailer) -> None:
    pw = passwords(svc)
    _, st = game_state(svc, "alpha")
    for seat, p in seated(svc, "alpha").items():
        mailer.send(p.address, "Züge", orders_text(st, seat, pw[p.address]))
    _deliver(svc)


def test_a_game_an_older_pbm_stored_plays_on_by_the_new_rules(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its state (without `rules`) loads as rules 1; a round resolved by the older pbm stays
    as it was (replay), the next one is sealed; verify tells them apart."""
    import pbm.service.rounds as rounds

    new_game(svc, "alpha")
    signup(mailer, "alpha", 4)
    with transaction(svc.engine) as s:
        game = get_game(s, "alpha", lock=True)
        state = json.loads(game.state)
        del state["rules"]  # as the older pbm stored it
        game.state = json.dumps(state)
    setup_by_deadline(svc, clock, "alpha")
    monkeypatch.setattr(rounds, "RULES", 1)  # the older pbm resolves round 1
    play_round(mailer, clock, "alpha")
    monkeypatch.undo()
    play_round(mailer, clock, "alpha")
    kept = [
        json.loads(r.state_before).get("rules") for r in records(svc, "alpha") if r.kind == "round"
    ]
    assert kept == [1, RULES]
    assert admin.replay_game(svc, "alpha").ok
    _deliver(svc)
    result = admin.verify_game(svc, "alpha")
    assert [(r.round, r.sealed, r.ok) for r in result.rounds] == [(1, False, True), (2, True, True)]


def test_the_migration_keeps_stored_games(tmp_path: pytest.TempPathFactory) -> None:
    """A database of the release before sealed dice: its games' seeds stay, their states load
    (as rules 1), and new seeds of 128 bits fit."""
    import sqlalchemy as sa
    from alembic import command

    from pbm.rules import Settings, new_game, state_to_json
    from pbm.service.games import load_state
    from pbm.store.db import make_engine
    from pbm.store.migrate import alembic_config

    url = f"sqlite:///{tmp_path}/old.db"  # type: ignore[operator]
    command.upgrade(alembic_config(url), "e4b7c2d9a1f3")
    old = state_to_json(new_game(Settings.for_players(4), 281474976710655))
    del old["rules"]
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO game (name, settings, seed, lang, phase, paused, round, state, "
                "deadline_preset, early_resolve, reminder_hours, reminded, nmr_autopilot_after, "
                "broken, anonymous, press, away_wait_days, created_at) VALUES ('old', :settings, "
                ":seed, 'de', 'setup', 0, 0, :state, 'normal', 1, 12, 0, 3, '', 0, 'normal', 0, "
                "'2026-01-01 00:00:00')"
            ),
            {
                "settings": json.dumps(old["settings"]),
                "seed": 281474976710655,
                "state": json.dumps(old),
            },
        )
    engine.dispose()
    command.upgrade(alembic_config(url), "head")
    engine = make_engine(url)
    with Session(engine) as s:
        game = s.exec(select(Game).where(Game.name == "old")).one()
        assert game.seed == 281474976710655 and game.corrections == ""
        assert load_state(game).rules == 1 and load_state(game).seed == 281474976710655
        big = 2**127 + 12345
        game.seed = big
        s.add(game)
        s.commit()
        assert s.exec(select(Game.seed).where(col(Game.name) == "old")).one() == big
    engine.dispose()


def test_the_nonce_migration_gives_games_in_signup_a_nonce_and_no_other(
    tmp_path: pytest.TempPathFactory,
) -> None:
    """A game in signup has shown no seal: it gets its nonce at the upgrade. A game past it
    showed SHA-256 of its seed and keeps "". A downgrade that would lose the nonce of a game
    whose seal went out and whose end has not revealed it is refused."""
    import sqlalchemy as sa
    from alembic import command

    from pbm.store.db import make_engine
    from pbm.store.migrate import alembic_config

    url = f"sqlite:///{tmp_path}/old.db"  # type: ignore[operator]
    cfg = alembic_config(url)
    command.upgrade(cfg, "b5e7d9f1a3c2")
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        for name, phase in (("waiting", "signup"), ("running", "rounds"), ("done", "ended")):
            conn.execute(
                sa.text(
                    "INSERT INTO game (name, settings, seed, lang, phase, paused, round, state, "
                    "deadline_preset, early_resolve, reminder_hours, reminded, "
                    "nmr_autopilot_after, press, away_wait_days, created_at) VALUES (:name, "
                    "'{}', '12345', 'de', :phase, 0, 0, '', 'normal', 1, 12, 0, 3, 'normal', 0, "
                    "'2026-01-01 00:00:00')"
                ),
                {"name": name, "phase": phase},
            )
    engine.dispose()
    command.upgrade(cfg, "head")
    engine = make_engine(url)
    with Session(engine) as s:
        nonces = {g.name: g.seal_nonce for g in s.exec(select(Game))}
    assert is_nonce(nonces["waiting"]) and nonces["running"] == nonces["done"] == ""
    # Nothing of a running game would be lost: the downgrade goes through, and back up.
    command.downgrade(cfg, "b5e7d9f1a3c2")
    command.upgrade(cfg, "head")
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE game SET seal_nonce = :n WHERE name = 'running'"), {"n": "a" * 32}
        )
    with pytest.raises(RuntimeError, match="running"):
        command.downgrade(cfg, "b5e7d9f1a3c2")
    with Session(engine) as s:
        # Only this column: on SQLite the downgrades of the later migrations (game.ended_why)
        # are done by the time this one refuses, so the model's other columns may be gone.
        nonce = s.exec(select(Game.seal_nonce).where(Game.name == "running")).one()
        assert nonce == "a" * 32
    engine.dispose()


def test_no_rollback_once_the_seed_went_out_with_the_end(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    """After the end mail showed the seed, every later roll is known: the game cannot go on."""
    _resolve_round_one(svc, mailer, games)
    _deliver(svc)
    admin.end_game(svc, "alpha", why="Die Runde ist aufgelöst.")
    _deliver(svc)
    with pytest.raises(ServiceError, match="seed"):
        admin.rollback_round(svc, "alpha", why="oops")
    assert game_row(svc, "alpha").phase == "ended"


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_no_rollback_of_a_game_the_gm_ended_even_before_its_notice_went_out(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    """A game the GM ended is not brought back by a rollback of its last round: its end notice,
    sent or still pending, tells everyone the dice seed."""
    _resolve_round_one(svc, mailer, games)
    admin.end_game(svc, "alpha", why="Genug gespielt.")
    with pytest.raises(ServiceError, match="ended by the game master"):
        admin.rollback_round(svc, "alpha", why="oops")
    assert game_row(svc, "alpha").phase == "ended"


def _partly_delivered(svc: Service, kind: str) -> None:
    """The game's pending `kind` mail reached its first recipient; its sender was killed
    before the next (`Outbox.delivered`, pbm/service/sending.py)."""
    with transaction(svc.engine) as s:
        [row] = s.exec(
            select(Outbox).where(Outbox.kind == kind, Outbox.status == OutboxStatus.PENDING)
        )
        row.delivered = row.recipients.split(",")[0]


def test_a_report_that_reached_some_players_counts_as_sent_for_a_rollback(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    games.start("alpha")
    pw = passwords(svc)
    _, st = game_state(svc, "alpha")
    for seat, p in seated(svc, "alpha").items():
        mailer.send(p.address, "Züge", orders_text(st, seat, pw[p.address]))
    _partly_delivered(svc, "report")
    with pytest.raises(ServiceError, match="its report went out"):
        admin.rollback_round(svc, "alpha")
    done = admin.rollback_round(svc, "alpha", why="Ein Fehler in pbm.")
    assert done.sent and done.notified == 4


def test_no_rollback_once_the_seed_reached_one_player_with_the_end(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    _resolve_round_one(svc, mailer, games)
    admin.end_game(svc, "alpha", why="Die Runde ist aufgelöst.")
    _partly_delivered(svc, "gm_notice")
    with pytest.raises(ServiceError, match="seed"):
        admin.rollback_round(svc, "alpha", why="oops")


def test_orders_for_the_next_round_go_with_a_rollback(
    svc: Service, mailer: Mailer, games: Games, clock: FakeClock
) -> None:
    """Orders for round 2 were checked against the report the rollback withdraws."""
    _resolve_round_one(svc, mailer, games)
    pw = passwords(svc)
    p = seated(svc, "alpha")[0]
    _, st = game_state(svc, "alpha")
    assert st.round == 2
    mailer.send(p.address, "Züge", orders_text(st, 0, pw[p.address]))
    with Session(svc.engine) as s:
        game = get_game(s, "alpha")
        from pbm.store.models import OrderSet

        live = [
            o
            for o in s.exec(select(OrderSet).where(OrderSet.game_id == game.id))
            if o.round == 2 and not o.superseded
        ]
    assert len(live) == 1
    admin.rollback_round(svc, "alpha", why="Ein Fehler: neu auswerten.")
    with Session(svc.engine) as s:
        game = get_game(s, "alpha")
        rows = list(s.exec(select(OrderSet).where(OrderSet.game_id == game.id)))
    assert not [o for o in rows if o.round == 2 and not o.superseded]


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the database plays no part
def test_game_verify_of_a_new_game_says_its_welcome_mails_have_not_gone_yet(
    svc: Service, games: Games, db_url: str, tmp_path: Path
) -> None:
    """Before its welcome mails are sent, a game of today is not "an older game"."""
    games.start("alpha")
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{db_url}"\n\n[service]\naddress = "gm@pbm.test"\n')
    text = CliRunner().invoke(app, ["--config", str(cfg), "game", "verify", "alpha"])
    assert text.exit_code == 0, text.output
    assert "(shown in no welcome mail sent: none has gone yet)" in text.output
    assert "older game" not in text.output


def test_a_round_reopened_in_a_game_without_deadlines_says_the_gm_resolves(
    svc: Service, mailer: Mailer, games: Games
) -> None:
    """Not "you may send changed orders until none (the game master resolves)"."""
    _resolve_round_one(svc, mailer, games)
    with transaction(svc.engine) as session:
        game = get_game(session, "alpha")
        game.deadline_preset, game.deadline = "off", None
    admin.rollback_round(svc, "alpha", why="Ein Fehler.", reopen=True)
    [notice] = outbox(svc, "correction")
    said = " ".join(notice.body.split())  # as wrapped at any width
    assert "bis die Spielleitung sie auflöst" in said and "bis keine" not in said
