"""`pbm game verify`: a game's dice checked against its seal and against every report sent.

What `contrib/verify_dice.py` does for a player from the revealed seed and nonce, this does from
the database: the seal (SHA-256 of `SEED:NONCE`, of the seed alone for a game created before
seal nonces) against the seal every welcome mail showed and the seed and nonce the game-end
report revealed; each round's rolls derived from the seed
(`rules.rng.round_rolls`, docs/fair-dice.md) against the rolls its record holds and the rolls
every report sent for it shows, corrected and rolled-back reports included (a round keeps its
rolls). Rounds of rules 1 (a game started before sealed dice) cannot be derived: their reports
are compared with their record only.

What it prints is for the game master, in English (docs/translating.md): colours too, by their
English names whatever the game's language (`english`); the mails are read in the game's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlmodel import Session, col, select

from pbm.i18n import translator
from pbm.notation import vocab
from pbm.rules import GameState, state_from_json
from pbm.rules.events import NmrRobberRoll, Rolled, event_from_json
from pbm.rules.rng import is_nonce, nmr_robber_dice, round_rolls, seal
from pbm.store.models import Game, Outbox, RoundRecord
from pbm.store.statuses import OutboxStatus

#: A placeholder of a catalogue text: `{name}` (Python) or `%(name)s` (a template's).
_FIELD = re.compile(r"\{(\w+)\}|%\((\w+)\)s")
_GROUPS = {
    "round": r"\d+",
    "die1": r"[1-6]",
    "die2": r"[1-6]",
    "total": r"\d+",
    "seed": r"\d+",
    "nonce": r"\S+",
}


@cache
def _pattern(text: str) -> re.Pattern[str]:
    """A catalogue text as a pattern matching a whole line it makes."""
    out, at = [], 0
    for m in _FIELD.finditer(text):
        out.append(re.escape(text[at : m.start()]))
        name = m.group(1) or m.group(2)
        out.append(f"(?P<{name}>{_GROUPS.get(name, '.+?')})")
        at = m.end()
    out.append(re.escape(text[at:]))
    return re.compile("".join(out))


def _texts(lang: str) -> dict[str, str]:
    _ = translator(lang).gettext
    return {
        "round": _("Round {round}, order: {order}"),
        "roll": _("Roll for {player}: {die1}+{die2} = {total}"),
        "seal": _("Dice seal of this game:"),
        "seed": _("Dice seed: %(seed)s"),
        "nonce": _("Seal nonce: %(nonce)s"),
    }


def english(colour: str) -> str:
    """A colour as the GM's command line names it: its English name (`rot` is "red")."""
    return vocab.colour_name(colour, "en")


Roll = tuple[str, int, int]


@dataclass
class RoundCheck:
    round: int
    #: The rolls come from the seal (rules 2); False for a round of rules 1.
    sealed: bool
    #: The round's rolls as its record holds them: (colour, die 1, die 2) in build order, the
    #: colour by its English name (`english`).
    rolls: list[Roll] = field(default_factory=list)
    #: Reports sent that show rolls of this round.
    reports: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "sealed": self.sealed,
            "rolls": [{"colour": c, "dice": [a, b]} for c, a, b in self.rolls],
            "reports": self.reports,
            "ok": self.ok,
            "problems": self.problems,
        }


@dataclass
class Verification:
    seal: str
    #: The seal is of the seed and a nonce; False: of the seed alone (a game created before
    #: seal nonces).
    salted: bool
    #: True: every welcome mail sent showed the seal of the seed, and the game-end report (if
    #: any) revealed that seed; False: one did not; None: no welcome mail sent showed a seal (a
    #: game started before sealed dice, or none sent yet).
    seal_ok: bool | None
    rounds: list[RoundCheck]
    seal_problems: list[str] = field(default_factory=list)
    #: Welcome mails sent that showed the seal, and whether the seed (and the nonce, if the game
    #: has one) was revealed.
    welcomes: int = 0
    revealed: bool = False

    @property
    def rolls_ok(self) -> bool:
        return all(r.ok for r in self.rounds)

    def to_json(self) -> dict[str, Any]:
        """Exactly the keys `seal_ok`, `rolls_ok`, `rounds` (docs/gm-guide.md)."""
        return {
            "seal_ok": self.seal_ok,
            "rolls_ok": self.rolls_ok,
            "rounds": [r.to_json() for r in self.rounds],
        }


def _sent(session: Session, game: Game, kinds: tuple[str, ...]) -> list[Outbox]:
    return list(
        session.exec(
            select(Outbox)
            .where(
                Outbox.game_id == game.id,
                Outbox.status == OutboxStatus.SENT,
                col(Outbox.kind).in_(kinds),
            )
            .order_by(col(Outbox.id))
        )
    )


def _check_seal(session: Session, game: Game, out: Verification) -> None:
    texts = _texts(game.locale)
    shown = 0
    for mail in _sent(session, game, ("welcome",)):
        lines = [line.strip() for line in mail.body.splitlines()]
        if texts["seal"] not in lines:
            continue
        value = lines[lines.index(texts["seal"]) + 1] if lines[-1] != texts["seal"] else ""
        shown += 1
        if value != out.seal:
            out.seal_problems.append(f"welcome mail {mail.id} shows the seal {value!r}")
    for mail in _sent(session, game, ("end", "gm_notice")):
        revealed = _revealed_in(mail.body, texts)
        if revealed is None:
            continue
        out.revealed = True
        seed, nonce = revealed
        if game.seal_nonce and not nonce:
            out.seal_problems.append(f"the game-end mail {mail.id} reveals no nonce")
        elif nonce and not is_nonce(nonce):
            out.seal_problems.append(f"the game-end mail {mail.id} reveals the nonce {nonce!r}")
        elif seal(seed, nonce) != out.seal:
            out.seal_problems.append(f"the game-end mail {mail.id} reveals another seed or nonce")
    out.welcomes = shown
    if out.seal_problems:
        out.seal_ok = False
    elif shown:
        out.seal_ok = True


def _revealed_in(body: str, texts: dict[str, str]) -> tuple[int, str] | None:
    """The seed a mail reveals, with the nonce it reveals ("" for none), or None."""
    seed: int | None = None
    nonce = ""
    for line in body.splitlines():
        m = _pattern(texts["seed"]).fullmatch(line.strip())
        if m is not None and seed is None:
            seed = int(m["seed"])
            continue
        m = _pattern(texts["nonce"]).fullmatch(line.strip())
        if m is not None and seed is not None and not nonce:
            nonce = m["nonce"]
    return None if seed is None else (seed, nonce)


def _rolls_in(body: str, texts: dict[str, str]) -> tuple[int | None, list[Roll]]:
    """The round a report tells and the rolls it shows (lines of the log only: a correction's
    list of changed lines is indented)."""
    round_: int | None = None
    rolls: list[Roll] = []
    for line in body.splitlines():
        m = _pattern(texts["round"]).fullmatch(line)
        if m is not None and round_ is None:
            round_ = int(m["round"])
            continue
        m = _pattern(texts["roll"]).fullmatch(line)
        if m is not None:
            rolls.append((m["player"], int(m["die1"]), int(m["die2"])))
    return round_, rolls


def _derived(seed: int, round_: int, state: GameState) -> list[Roll]:
    n = state.settings.players
    rolls = round_rolls(seed, round_, n)
    seats = state.build_order(round_)
    return [(state.colours[p], a, b) for p, (a, b) in zip(seats, rolls, strict=True)]


def verify(session: Session, game: Game) -> Verification:
    out = Verification(seal(game.seed, game.seal_nonce), bool(game.seal_nonce), None, [])
    _check_seal(session, game, out)
    records = list(
        session.exec(
            select(RoundRecord)
            .where(RoundRecord.game_id == game.id, RoundRecord.kind == "round")
            .order_by(col(RoundRecord.step))
        )
    )
    checks: dict[int, RoundCheck] = {}
    expected: dict[int, list[Roll]] = {}
    state: GameState | None = None
    legacy_upto = 0
    for rec in records:
        state = state_from_json(json.loads(rec.state_before))
        events = [event_from_json(e) for e in json.loads(rec.events)]
        rolled = [
            (state.colours[e.player], e.die1, e.die2) for e in events if isinstance(e, Rolled)
        ]
        check = checks[rec.round] = RoundCheck(rec.round, state.rules >= 2, rolled)
        if not check.sealed:
            legacy_upto = max(legacy_upto, rec.round)
            expected[rec.round] = rolled
            continue
        derived = expected[rec.round] = _derived(game.seed, rec.round, state)
        if rolled != derived[: len(rolled)]:
            check.problems.append("the recorded rolls are not those of the seed")
        _check_nmr(game.seed, rec.round, events, check)
    if state is None and game.state:
        state = state_from_json(json.loads(game.state))
    texts = _texts(game.locale)
    for mail in _sent(session, game, ("report", "end")):
        round_, shown = _rolls_in(mail.body, texts)
        if round_ is None or not shown or state is None:
            continue
        if round_ not in checks:
            # A report whose round has no record now (rolled back, not resolved again).
            sealed = state.rules >= 2 and round_ > legacy_upto
            checks[round_] = RoundCheck(round_, sealed)
            if sealed:
                expected[round_] = _derived(game.seed, round_, state)
        check = checks[round_]
        check.reports += 1
        names = {vocab.colour_name(c, game.locale): c for c in state.colours}
        read = [(names.get(who, who), a, b) for who, a, b in shown]
        want = expected.get(round_)
        if want is None:
            check.problems.append(f"report {mail.id}: round {round_} has no record to compare")
        elif (check.sealed and read != want[: len(read)]) or (not check.sealed and read != want):
            check.problems.append(f"report {mail.id} shows other rolls than the seed gives")
    out.rounds = [checks[r] for r in sorted(checks)]
    for check in out.rounds:
        check.rolls = [(english(c), a, b) for c, a, b in check.rolls]
    return out


def _check_nmr(seed: int, round_: int, events: list[Any], check: RoundCheck) -> None:
    """The NMR robber's rolls of the round, against their streams (one per rolling seat)."""
    streams: dict[int, Any] = {}
    for e in events:
        if isinstance(e, NmrRobberRoll):
            dice = streams.setdefault(e.player, nmr_robber_dice(seed, round_, e.player))
            if (next(dice), next(dice)) != (e.die1, e.die2):
                check.problems.append("an NMR robber roll is not that of the seed")
                return
