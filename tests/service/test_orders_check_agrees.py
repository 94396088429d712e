"""`pbm orders check` and the service read every corpus mail alike (issue 31).

Each order mail of tests/corpus/ is checked with `pbm orders check --json` and mailed to a game
on the same board (seed, players, language, phase) by the seat its password names. The answer
the player gets must say what the check says, line by line: a line the check accepts is accepted
with the same canonical form, or refused at receipt for the position (a crossing taken, a road
touching nothing of the player's: what the check, which knows no position, cannot see); a line
the check refuses is refused with the same reason; and the mail passes (`Ich passe`, "You pass
this round") exactly when the check shows the pass accepted. A pass beside a robber order or a
discard list stands (they are for a 7, which passing does not prevent; docs/order-language.md),
in the check and in the service alike.

Mails that are not order mails to this game are left out: no password, a command (`Hilfe`,
`Anmeldung`), another game named (`Spiel: …`), a message to players. A round guard (`Runde: 7`)
is met by opening that round number in the game, so that the mail is read rather than refused
as a whole.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from databases import outbox, seated
from harness import Games, Mailer, make_service, new_game, signup
from helpers import corpus_board_args
from typer.testing import CliRunner

from pbm.cli import app
from pbm.i18n import translator
from pbm.notation.mail import scan_mail
from pbm.notation.messages import RECEIPT, TEXTS
from pbm.service.clock import FakeClock
from pbm.service.context import Service
from pbm.service.games import get_game
from pbm.service.secrets import colour_tag, hash_password
from pbm.service.signup import password_word
from pbm.store.db import transaction
from pbm.store.models import Player

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
EXPECTED: dict[str, dict[str, Any]] = json.loads(
    (CORPUS / "expected.json").read_text(encoding="utf-8")
)

#: The corpus mails by the game they are read in: (seed, players, language, phase, board), the
#: board a Seafarers scenario's name, `kronlande`, or "" for the base island.
GROUPS: dict[tuple[int, int, str, str, str], list[str]] = defaultdict(list)
for _name, _spec in sorted(EXPECTED.items()):
    _kind = "kronlande" if _spec.get("kronlande") else _spec.get("scenario", "")
    GROUPS[(_spec["seed"], _spec["players"], _spec["lang"], _spec["phase"], _kind)].append(_name)


def _board_settings(kind: str) -> dict[str, Any]:
    """The game settings of a group's board (`GROUPS`)."""
    if kind == "kronlande":
        return {"kronlande": True, "size": "large"}
    return {"scenario": kind} if kind else {}


#: A line of the answer: `  12  Straße C3 C4 (6L 5L)`, a long one going on below two columns
#: right of its text (`pbm/reports/wrap.py`); a refusal's reason below its line at the text's
#: column, with its column, and its candidates (`→ …`).
_ROW = re.compile(r"^  +(\d+)  (.*)$")
_MORE = re.compile(r"^         +(?!→ )(.*)$")
_REASON = re.compile(r"^       (?! )(?!→ )(.*)$")


def _check(name: str, seed: int, players: int, lang: str, phase: str) -> list[dict[str, Any]]:
    """`pbm orders check --json` of a corpus mail, on the board a new game of the seed has."""
    args = ["orders", "check", "--seed", str(seed), "--players", str(players)]
    args += ["--phase", phase, "--lang", lang, "--json", *corpus_board_args(EXPECTED[name])]
    args += [str(CORPUS / name)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (0, 1), result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


#: How the answer starts the note of an option left out, in every language.
_LEFT_OUT = tuple(
    translator(lang).gettext("an option left out: %(why)s").split("%")[0]
    for lang in ("de", "en", "da")
)


def _answer(body: str) -> tuple[dict[int, str], dict[int, str]]:
    """The lines an answer to an order mail accepts (canonical form) and refuses (reason)."""
    accepted: dict[int, str] = {}
    refused: dict[int, str] = {}
    section: dict[int, str] | None = None
    last: int | None = None
    done: set[int] = set()
    note = False
    for line in body.splitlines():
        if line in ("Accepted:", "Angenommen:", "Accepteret:"):
            section, last = accepted, None
            continue
        if line in ("Rejected:", "Abgelehnt:", "Afvist:"):
            section, last = refused, None
            continue
        if section is None:
            continue
        if not line.startswith(" "):
            section = None
            continue
        row = _ROW.match(line)
        if row:
            last = int(row.group(1))
            if section is accepted:
                accepted[last] = row.group(2)
            note = False
            continue
        if line.strip().startswith(_LEFT_OUT) or (section is accepted and _REASON.match(line)):
            # A note under an accepted line (and its wrap): a ranked option left out, an
            # option that can never be built.
            note = True
            continue
        more = _MORE.match(line)
        if note:
            continue
        if more and last is not None and section is accepted and last in accepted:
            accepted[last] += " " + more.group(1)
            continue
        if more and last is not None and section is refused:
            if last in refused and last not in done:
                refused[last] += " " + more.group(1)  # the reason going on
            continue  # else the refused line's echo going on; its reason comes next
        reason = _REASON.match(line)
        if reason and section is refused and last is not None and last not in refused:
            refused[last] = reason.group(1)
        elif last is not None and last in refused:
            done.add(last)  # a candidate line: the reason is whole
    column = re.compile(r" \((?:column|Spalte|kolonne) \d+\)$")
    return accepted, {n: column.sub("", why) for n, why in refused.items()}


def _passes(body: str, lang: str) -> bool:
    words = {
        "de": "Du passt in dieser Runde",
        "en": "You pass this round",
        "da": "Du melder pas i denne runde",
    }
    return words[lang] in body


def _order_mail(name: str) -> bool:
    """Whether a corpus mail is an order mail to the game it is read in."""
    scan = scan_mail((CORPUS / name).read_bytes().decode("utf-8"))
    return scan.password is not None and not scan.commands and scan.game is None


#: How an absence line begins when echoed (`Abwesend bis …`): such a mail is answered by its
#: own confirmation, not by an order answer.
_AWAY = ("Abwesend bis", "Away until", "Væk indtil")


def _away(rows: list[dict[str, Any]]) -> bool:
    return any(r["ok"] and str(r["canonical"]).startswith(_AWAY) for r in rows)


def _seat_for(password: str, colours: list[str], lang: str) -> int:
    """The seat whose colour the password begins with, as the service looks it up (then only
    that seat's password is checked), else seat 1."""
    tag = colour_tag(password)
    for seat, colour in enumerate(colours):
        if password_word(colour, lang) == tag:
            return seat
    return 1


def _mail_in(svc: Service, mailer: Mailer, game: str, name: str, lang: str) -> tuple[str, int]:
    """Mail a corpus mail to `game` from the seat its password names (that seat's password set
    to the mail's); returns the answer's text and the seat."""
    body = (CORPUS / name).read_bytes().decode("utf-8")
    scan = scan_mail(body)
    assert scan.password is not None
    players = seated(svc, game)
    colours = [players[s].colour or "" for s in sorted(players)]
    seat = _seat_for(scan.password, colours, lang)
    with transaction(svc.engine) as s:
        row = s.get(Player, players[seat].id)
        assert row is not None
        row.password_hash = hash_password(scan.password)
        g = get_game(s, game)
        if scan.round is not None and g.phase == "rounds":
            g.round = scan.round
    before = len(outbox(svc, to=players[seat].address))
    mailer.send(players[seat].address, "Züge", body, resolve=False)
    # The answer to the mail (a placement made at once, and an absence, are told in a mail of
    # their own).
    own = ("placed", "gm_notice")
    answers = [a for a in outbox(svc, to=players[seat].address)[before:] if a.kind not in own]
    assert len(answers) == 1, (name, [a.kind for a in answers])
    return answers[0].body, seat


@dataclass
class Tally:
    """How the lines of the mails compared came out."""

    mails: int = 0
    #: Lines the check and the answer read alike (accepted with the same canonical form or
    #: refused with the same reason).
    alike: int = 0
    #: Lines the check accepts and the service refuses at receipt, for the position.
    at_receipt: int = 0
    problems: list[str] = field(default_factory=list)


def _compare(
    tally: Tally, name: str, rows: list[dict[str, Any]], body: str, lang: str, phase: str
) -> None:
    accepted, refused = _answer(body)
    receipt = {translator(lang).gettext(text) for text in RECEIPT.values()}
    # Robbing oneself: refused at receipt for the seat that writes (the check knows none).
    receipt.add(translator(lang).gettext(TEXTS["rob_self"]))
    problems = tally.problems
    tally.mails += 1
    for r in rows:
        n = r["line"]
        said = accepted.get(n) or refused.get(n)
        if r["ok"]:
            if accepted.get(n) == r["canonical"]:
                tally.alike += 1
                continue
            said_why = refused.get(n) or ""
            # A receipt refusal, maybe with the line of a road written below it, or for each
            # build of a line of several (`Straße …: <why>; Straße …: <why>`).
            each = said_why.split("; ")
            if (
                said_why in receipt
                or any(said_why.startswith(f"{t}: ") for t in receipt)
                or all(any(part.endswith(f": {t}") for t in receipt) for part in each)
            ):
                tally.at_receipt += 1
                continue  # refused at receipt, for the position
            problems.append(f"{name} line {n}: check {r['canonical']!r}, service {said!r}")
        elif refused.get(n) == r["error"]:
            tally.alike += 1
        else:
            problems.append(f"{name} line {n}: check refuses {r['error']!r}, service {said!r}")
    extra = (set(accepted) | set(refused)) - {r["line"] for r in rows}
    if extra:
        problems.append(f"{name}: lines {sorted(extra)} answered, not in the check")
    if phase == "round":
        passes = ("Ich passe", "Pass", "Jeg melder pas")
        passed = any(r["ok"] and r["canonical"] in passes for r in rows)
        if passed != _passes(body, lang):
            problems.append(
                f"{name}: the check {'passes' if passed else 'does not pass'}, the service not"
            )


@pytest.mark.slow
@pytest.mark.parametrize(
    "group", sorted(g for g in GROUPS if g[3] == "round"), ids=lambda g: "-".join(map(str, g))
)
def test_the_check_and_the_service_read_every_round_mail_alike(
    tmp_path: Path, group: tuple[int, int, str, str, str]
) -> None:
    seed, players, lang, phase, kind = group
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    mailer = Mailer(svc)
    Games(mailer, clock).start("korpus", players, seed=seed, lang=lang, **_board_settings(kind))
    tally = Tally()
    for name in GROUPS[group]:
        if _order_mail(name):
            rows = _check(name, seed, players, lang, phase)
            if _away(rows):
                continue
            body, _ = _mail_in(svc, mailer, "korpus", name, lang)
            _compare(tally, name, rows, body, lang, phase)
    assert not tally.problems, "\n".join(tally.problems)
    # Most lines are read alike outright, not only for the position at receipt.
    assert tally.mails >= 1 and tally.alike > tally.at_receipt


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", [n for g, names in sorted(GROUPS.items()) if g[3] == "setup" for n in names]
)
def test_the_check_and_the_service_read_every_setup_mail_alike(tmp_path: Path, name: str) -> None:
    spec = EXPECTED[name]
    seed, players, lang = spec["seed"], spec["players"], spec["lang"]
    clock = FakeClock()
    svc = make_service(tmp_path, clock)
    mailer = Mailer(svc)
    kind = "kronlande" if spec.get("kronlande") else spec.get("scenario", "")
    new_game(svc, "korpus", players=players, seed=seed, lang=lang, **_board_settings(kind))
    signup(mailer, "korpus", players)
    rows = _check(name, seed, players, lang, "setup")
    body, _ = _mail_in(svc, mailer, "korpus", name, lang)
    tally = Tally()
    _compare(tally, name, rows, body, lang, "setup")
    assert not tally.problems, "\n".join(tally.problems)
    assert tally.alike >= 2 and tally.at_receipt == 0


def test_orders_check_reads_players_named_as_the_service_does() -> None:
    """`--name NAME=COLOUR` gives the check the service's name table (`seat_names`): a victim
    or a partner named by name or first name, a name two players share left out."""
    body = "Räuber 11G, raube Anna\nHandel mit Bernd: gebe 1H, bekomme 1E\n"
    args = ["orders", "check", "--seed", "1", "--json", "-"]
    named = [*args[:-1], "--name", "Anna Müller=blau", "--name", "Bernd=yellow", "-"]
    result = CliRunner().invoke(app, named, input=body)
    assert result.exit_code == 0, result.output
    assert [r["canonical"] for r in json.loads(result.output)] == [
        "Räuber D4 (11G), raube blau",
        "Handel gelb: gebe 1H, bekomme 1E",
    ]
    # Without the names: a name is no colour, as before.
    assert CliRunner().invoke(app, args, input=body).exit_code == 1
    # Two players called Anna: neither is read by that name.
    shared = [*args[:-1], "--name", "Anna=blau", "--name", "Anna=rot", "-"]
    assert CliRunner().invoke(app, shared, input="Räuber 11G, raube Anna\n").exit_code == 1
    # A colour no seat has, or no colour at all: refused with the form.
    for bad in ("Anna=lila", "Anna", "Anna=weiss"):
        seats = ["--players", "3"] if bad.endswith("weiss") else []
        out = CliRunner().invoke(app, [*args[:-1], *seats, "--name", bad, "-"], input=body)
        assert out.exit_code == 2 and "NAME=COLOUR" in out.output, out.output
