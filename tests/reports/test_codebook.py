"""The codebook: codes in the round reports decode with the buyer's table only; rows are fresh
permutations; sealed notices open with the right key only; `pbm decode` and `pbm codebook`."""

from __future__ import annotations

import base64
import re
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pbm.cli import app
from pbm.notation import vocab
from pbm.reports import codebook
from pbm.reports.render import render
from pbm.reports.report_data import report_data
from pbm.rules import events as ev
from pbm.rules.layouts import CARD_TYPES
from pbm.rules.sim import play_game
from pbm.rules.state import Phase, Settings, deck_for

from . import scenes

SEEDS = (1, 2, 3, 4, 5, 6)
PURCHASE = {
    "de": re.compile(r"^(\S+): Karte (\d+) → (\S+)$", re.M),
    "en": re.compile(r"^(\S+): card (\d+) → (\S+)$", re.M),
}


def _purchases(
    seed: int, lang: str, size: str | None = None, players: int = 4
) -> list[tuple[ev.CardBought, str, int]]:
    """(event, code printed in the report, seat named in the report) for every purchase of
    a simulated game, read from the rendered text of each round's report."""
    out = []
    settings = Settings.for_players(players, size)
    for st, events in play_game(settings, seed):
        if st.phase == Phase.SETUP or not events:
            continue
        text = render("report", "r", report_data(st, events, lang, "g", scenes.SECRETS)).text
        bought = [e for e in events if isinstance(e, ev.CardBought)]
        seen = PURCHASE[lang].findall(text)
        assert len(seen) == len(bought), (seed, st.round, seen, bought)
        names = {vocab.colour_name(c, lang): p for p, c in enumerate(st.colours)}
        for e, (who, number, code) in zip(bought, seen, strict=True):
            assert int(number) == e.number
            out.append((e, code, names[who]))
    return out


@pytest.fixture(scope="module")
def purchases() -> list[tuple[ev.CardBought, str, int]]:
    out = []
    for i, seed in enumerate(SEEDS):
        out += _purchases(seed, "de" if i % 2 == 0 else "en")
    out += _purchases(11, "de", "large", 5) + _purchases(12, "en", "huge", 6)
    return out


def test_every_purchase_decodes_with_the_buyers_table(purchases: list) -> None:
    assert len(purchases) > 100
    for e, code, seat in purchases:
        assert seat == e.player
        assert code != "?", "a buyer with a secret must get a code"
        assert codebook.decode(scenes.SECRETS[seat], e.number, code) == e.card
        assert codebook.decode(scenes.SECRETS[seat], e.number, code.lower()) == e.card


def test_another_players_table_does_not_decode(purchases: list) -> None:
    """With another player's table a code decodes to the true card no more often than chance
    (a code is in a given row with probability 5/31³, so practically never)."""
    right = tries = 0
    for e, code, seat in purchases:
        for other, secret in scenes.SECRETS.items():
            if other == seat:
                continue
            tries += 1
            right += codebook.decode(secret, e.number, code) == e.card
    assert tries > 500
    assert right <= max(1, tries // 100), (right, tries)


def test_codes_of_one_card_type_do_not_repeat_across_rows() -> None:
    """Equal card types in two purchases get unrelated codes: the same code for the same
    card in two rows of one table happens only by chance."""
    for seat, secret in scenes.SECRETS.items():
        for card in CARD_TYPES:
            codes = [codebook.code_for(secret, k, card) for k in range(1, 31)]
            assert len(set(codes)) >= 28, (seat, card, codes)


def test_rows_differ_between_numbers_and_players() -> None:
    secrets = list(scenes.SECRETS.values())
    for secret in secrets:
        rows = [tuple(codebook.row(secret, k).items()) for k in range(1, 31)]
        assert len(set(rows)) == len(rows)
        assert len({frozenset(r) for r in rows}) == len(rows)
    for k in range(1, 31):
        rows_k = [tuple(codebook.row(s, k).items()) for s in secrets]
        assert len(set(rows_k)) == len(rows_k)


def test_every_row_has_five_distinct_codes_from_the_alphabet() -> None:
    alphabet = set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    assert set(codebook.ALPHABET) == alphabet  # no 0/O, 1/I/L
    for secret in [*scenes.SECRETS.values(), "ff" * 32, "a5" * 16]:
        for k in range(1, 31):
            row = codebook.row(secret, k)
            assert len(row) == 5
            assert sorted(row.values()) == sorted(CARD_TYPES)
            for code in row:
                assert len(code) == codebook.CODE_LENGTH == 3
                assert set(code) <= alphabet, code


def test_the_order_of_codes_in_a_row_says_nothing_about_the_card() -> None:
    """Rows are printed sorted by code; the rank of each card's code in its row must be
    uniform (else the column would give the card away)."""
    ranks: dict[str, Counter[int]] = {card: Counter() for card in CARD_TYPES}
    n = 0
    for s in range(120):
        secret = f"{s:064x}"
        for k in range(1, 26):
            for rank, card in enumerate(codebook.row(secret, k).values()):
                ranks[card][rank] += 1
            n += 1
    for card, counter in ranks.items():
        for rank in range(5):
            # n/5 = 600 expected per cell, σ ≈ 22: allow 5σ.
            assert abs(counter[rank] - n / 5) < 110, (card, rank, counter)


def test_the_table_has_a_row_for_every_card_of_the_deck() -> None:
    for players in (3, 4, 5, 6):
        settings = Settings.for_players(players)
        rows = sum(deck_for(settings).values())
        table = codebook.table(scenes.SECRETS[0], rows, "de")
        assert len(table) == rows
        for k, line in enumerate(table, 1):
            assert line.startswith(f"Karte {k:2}: ")
            for code, card in codebook.row(scenes.SECRETS[0], k).items():
                assert f"{code}={codebook.CARD_NAMES['de'][card]}" in line


# -- sealed notices ------------------------------------------------------------------------------


def test_seal_round_trips_for_every_card() -> None:
    secret = scenes.SECRETS[2]
    for n, card in enumerate(CARD_TYPES, 1):
        token = codebook.seal(secret, "alpha", 2, n, card)
        assert token.startswith(f"alpha:2:{n}:")
        assert card not in token
        assert codebook.unseal(secret, token) == card
        assert codebook.unseal(secret, f"  {token}\n") == card
    # Two purchases of the same card type do not look alike.
    blobs = {codebook.seal(secret, "alpha", 2, n, "vp").rsplit(":", 1)[1] for n in range(1, 9)}
    assert len(blobs) == 8
    assert len({b[:8] for b in blobs}) == 8


def test_a_sealed_notice_does_not_give_the_card_away_by_its_length() -> None:
    """The notices stand in the public report: their length must not depend on the card
    (AES-GCM keeps the plaintext's length, so the card names must be padded or coded)."""
    secret = scenes.SECRETS[2]
    lengths = {card: len(codebook.seal(secret, "alpha", 2, 3, card)) for card in CARD_TYPES}
    assert len(set(lengths.values())) == 1, lengths


def test_unseal_fails_with_a_wrong_key() -> None:
    token = codebook.seal(scenes.SECRETS[1], "alpha", 1, 3, "knight")
    for seat, secret in scenes.SECRETS.items():
        if seat != 1:
            assert codebook.unseal(secret, token) is None
    assert codebook.unseal("not hex", token) is None
    assert codebook.unseal("", token) is None


def test_unseal_fails_for_a_tampered_token() -> None:
    secret = scenes.SECRETS[1]
    token = codebook.seal(secret, "alpha", 1, 3, "knight")
    prefix, blob = token.rsplit(":", 1)
    raw = bytearray(base64.urlsafe_b64decode(blob))
    for i in (0, 11, 12, len(raw) - 1):  # nonce, ciphertext, tag
        bad = bytearray(raw)
        bad[i] ^= 1
        assert codebook.unseal(secret, f"{prefix}:{base64.urlsafe_b64encode(bad).decode()}") is None
    # The notice is bound to its game, seat and purchase number.
    for other in ("beta:1:3", "alpha:2:3", "alpha:1:4"):
        assert codebook.unseal(secret, f"{other}:{blob}") is None
    for garbage in ("", "alpha", "alpha:1:3:", "alpha:1:3:!!!!", "a:b:c:" + blob[:10], blob):
        assert codebook.unseal(secret, garbage) is None


# -- the commands --------------------------------------------------------------------------------


def test_pbm_decode() -> None:
    runner = CliRunner()
    secret = scenes.SECRETS[3]
    token = codebook.seal(secret, "alpha", 3, 7, "year_of_plenty")
    ok = runner.invoke(app, ["decode", "--key", secret, token])
    assert ok.exit_code == 0, ok.output
    assert ok.output.strip() == "Erfindung / Year of plenty"
    wrong = runner.invoke(app, ["decode", "--key", scenes.SECRETS[0], token])
    assert wrong.exit_code == 1
    assert "Erfindung" not in wrong.output and "Year of plenty" not in wrong.output
    assert "does not open" in wrong.output


def test_pbm_decode_reads_the_tokens_of_a_report() -> None:
    """A player copies a sealed notice from the report and the key from the welcome mail."""
    runner = CliRunner()
    _, _, events = scenes.midgame()
    _, rendered = scenes.round_report("de")
    tokens = [
        line.strip() for line in rendered.text.splitlines() if scenes.SEALED.fullmatch(line.strip())
    ]
    bought = [e for e in events if isinstance(e, ev.CardBought)]
    assert tokens and len(tokens) == len(bought)
    for token, e in zip(tokens, bought, strict=True):
        result = runner.invoke(app, ["decode", "--key", scenes.SECRETS[e.player], token])
        names = f"{codebook.CARD_NAMES['de'][e.card]} / {codebook.CARD_NAMES['en'][e.card]}"
        assert result.exit_code == 0 and result.output.strip() == names


def test_pbm_codebook_prints_the_table_of_the_welcome_mail(tmp_path: Path) -> None:
    from databases import sqlite_database
    from harness import Mailer, new_game, signup
    from sqlmodel import Session, select

    from pbm.config.model import ServiceSection
    from pbm.config.model import Settings as PbmSettings
    from pbm.service.clock import FakeClock
    from pbm.service.context import Service
    from pbm.store.db import make_engine
    from pbm.store.models import Outbox, Player

    url = sqlite_database(tmp_path / "pbm.db")
    engine = make_engine(url)
    try:
        settings = PbmSettings(service=ServiceSection(address="gm@pbm.test"))
        svc = Service(engine, FakeClock(), settings)
        mailer = Mailer(svc)
        new_game(svc, "alpha", players=4)
        signup(mailer, "alpha", 4)
        with Session(engine) as s:
            players = list(s.exec(select(Player)))
            welcomes = {
                o.recipients: o.body for o in s.exec(select(Outbox).where(Outbox.kind == "welcome"))
            }
    finally:
        engine.dispose()
    cfg = tmp_path / "pbm.toml"
    cfg.write_text(f'[database]\nurl = "{url}"\n\n[service]\naddress = "gm@pbm.test"\n')
    runner = CliRunner()
    assert len(players) == 4
    for p in players:
        assert p.colour and p.codebook_secret
        result = runner.invoke(app, ["--config", str(cfg), "codebook", "alpha", p.colour])
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        assert len(lines) == sum(deck_for(Settings.for_players(4)).values())
        table = [
            line for line in welcomes[p.address].splitlines() if re.match(r"Karte +\d+: ", line)
        ]
        assert lines == table, p.colour
        assert lines == codebook.table(p.codebook_secret, len(lines), "de")
        # Other players' tables differ.
        for q in players:
            if q.id != p.id:
                assert codebook.table(q.codebook_secret, 3) != lines[:3]
    missing = runner.invoke(app, ["--config", str(cfg), "codebook", "alpha", "lila"])
    assert missing.exit_code != 0
    board = runner.invoke(
        app, ["--config", str(cfg), "game", "board", "alpha", "--png", str(tmp_path / "b.png")]
    )
    assert board.exit_code == 0, board.output
    from PIL import Image

    with Image.open(tmp_path / "b.png") as img:
        img.verify()
