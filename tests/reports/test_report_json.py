"""The round report's JSON document (`pbm/reports/report_json.py`) and its schema, the "Write
orders" link (`report_data.orders_mail`), and the attachment on the outgoing message
(`outgoing.attach`), from the fixed scenes of the golden tests: a base game's round and end, a
Kronlande round, Seafarers rounds with gold, the pirate, a trade line and the fog (issue 27).

The service's side (every report of whole games, as each recipient gets it) is in
tests/service/test_report_json.py.
"""

from __future__ import annotations

import email
import email.policy
import html as htmlmod
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

import jsonschema
import pytest

from pbm.mail.outgoing import attach, build_message
from pbm.reports import report_json
from pbm.reports.report_data import MAILTO_MAX, order_form, orders_mail
from pbm.rules import GameState

from . import scenes

VALIDATOR = jsonschema.Draft202012Validator(report_json.schema())


def _states() -> dict[str, Callable[[], GameState]]:
    return {
        "round": lambda: scenes.midgame()[1],
        "end": lambda: scenes.final()[0],
        "kron": lambda: scenes.kron_round()[0],
        "sea_gold": lambda: scenes.sea_gold_round()[0],
        "sea_pirate": lambda: scenes.sea_pirate_round()[0],
        "sea_trade_line": lambda: scenes.sea_trade_line_round()[0],
        "sea_fog": lambda: scenes.sea_fog_round()[0],
    }


STATES = _states()


def _document(state: GameState, lang: str, seat: int | None) -> dict[str, Any]:
    """The document as the sender builds it for the player of `seat` (None: an observer)."""
    public = report_json.public_part(
        state,
        scenes.GAME,
        lang,
        max(1, state.round - 1),
        ["a line"],
        datetime(2026, 1, 3, 12, tzinfo=UTC),
        dict(enumerate(scenes.NAMES)),
    )
    own = {} if seat is None else {"p@players.test": report_json.own_part(state, seat)}
    stored = json.loads(report_json.attachment_value(public, own, "x.json"))
    _, data = report_json.for_recipient(stored, "p@players.test")
    loaded: dict[str, Any] = json.loads(data)
    return loaded


def _errors(doc: dict[str, Any]) -> list[str]:
    return [f"{list(e.path)}: {e.message}" for e in VALIDATOR.iter_errors(doc)]


def test_the_schema_is_a_valid_json_schema_shipped_with_the_package() -> None:
    jsonschema.Draft202012Validator.check_schema(report_json.schema())
    from pathlib import Path

    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert '"schemas/*.json"' in pyproject


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("scene", sorted(STATES))
def test_every_scene_gives_a_valid_document_to_a_player_and_an_observer(
    scene: str, lang: str
) -> None:
    state = STATES[scene]()
    for seat in (0, 1, None):
        doc = _document(state, lang, seat)
        assert not _errors(doc), _errors(doc)[:5]
        if seat is None:
            assert doc["you"] is None
        else:
            assert doc["you"]["seat"] == seat
            assert sum(doc["you"]["hand"].values()) == sum(state.hands[seat])
            assert len(doc["you"]["development_cards"]) == len(state.cards[seat])


def test_the_schema_refuses_what_must_not_be_there() -> None:
    """Another seat's hand, a hidden point before the end, a hex under the fog with a tile or
    a token: the schema names every key a document may have."""
    state = STATES["sea_fog"]()
    doc = _document(state, "de", 0)
    assert not _errors(doc)
    leaks: list[Callable[[dict[str, Any]], None]] = [
        lambda d: d["players"][1].update(hand={"lumber": 2}),
        lambda d: d["players"][1].update(final_vp=3),
        lambda d: d["players"][1].update(revealed_cards=["vp"]),
        lambda d: d["you"].update(codebook="K7Q=knight"),
        lambda d: next(h for h in d["board"]["hexes"] if h["terrain"] == "fog").update(number=6),
        lambda d: next(h for h in d["board"]["hexes"] if h["terrain"] == "fog").update(
            resource="ore"
        ),
        lambda d: d.update(password="blau-kiefer-42"),
    ]
    for leak in leaks:
        changed = json.loads(json.dumps(doc))
        leak(changed)
        assert _errors(changed), changed


def test_a_hex_under_the_fog_is_fog_and_nothing_more() -> None:
    state = STATES["sea_fog"]()
    doc = _document(state, "en", 0)
    fog = [h for h in doc["board"]["hexes"] if h["terrain"] == "fog"]
    assert len(fog) == len(state.board.fog) > 0
    assert all(h["resource"] is None and h["number"] is None for h in fog)
    # The discoveries of the round are land and sea, with what they turned out to be.
    b8 = next(h for h in doc["board"]["hexes"] if h["label"] == "B8")
    assert b8["terrain"] == "land" and b8["resource"] == "ore" and b8["number"] == 5


def test_other_players_are_counts_and_the_reader_sees_their_own_cards() -> None:
    """Mid-game (a hidden victory point card in some hand): every seat's row has the counts
    and the visible points; the reader's `you` has their cards and all their points."""
    state = STATES["round"]()
    hidden = [p for p in range(4) if any(c == "vp" for c, _ in state.cards[p])]
    assert hidden, "the scene should hold a hidden victory point card"
    seat = hidden[0]
    doc = _document(state, "de", seat)
    for p, row in enumerate(doc["players"]):
        assert "hand" not in row and "final_vp" not in row and "revealed_cards" not in row
        assert row["vp"] == state.visible_vp(p)
        assert row["cards_in_hand"] == sum(state.hands[p])
    assert doc["you"]["vp_total"] == state.vp(seat) > state.visible_vp(seat)
    assert "vp" in [c["card"] for c in doc["you"]["development_cards"]]

    # No card type anywhere but under `you` (the log here is one line of no card).
    def strings(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        items = value.values() if isinstance(value, dict) else value
        return [s for v in items for s in strings(v)] if isinstance(value, dict | list) else []

    others = set(strings({k: v for k, v in doc.items() if k != "you"}))
    assert not others & {"knight", "road_building", "year_of_plenty", "monopoly", "vp"}


def test_the_end_reveals_every_card_and_the_final_points() -> None:
    state = STATES["end"]()
    doc = _document(state, "en", None)
    assert doc["ended"] and doc["winner"] == report_json.COLOUR_IDS[state.colours[state.winner]]
    assert doc["next_round"] is None and doc["deadline"] is None
    for p, row in enumerate(doc["players"]):
        assert row["final_vp"] == state.vp(p)
        assert sorted(row["revealed_cards"]) == sorted(c for c, _ in state.cards[p])


def test_kronlande_pieces_and_goods() -> None:
    state = STATES["kron"]()
    doc = _document(state, "de", 0)
    rot = doc["players"][0]
    assert rot["castles"] or rot["residences"]
    assert {w["kind"] for w in rot["workshops"]} == {"bakery"}
    assert "builder" in rot["titles"]
    assert set(doc["you"]["hand"]) == set(report_json.RESOURCE_IDS)
    assert doc["kind"] == "kronlande"


def test_the_file_is_named_in_the_games_language() -> None:
    assert report_json.filename("de", 12) == "runde-12.json"
    assert report_json.filename("de@modern", 3) == "runde-3.json"
    assert report_json.filename("en", 12) == "round-12.json"


@pytest.mark.parametrize("lang", ["de", "en", "de@modern"])
@pytest.mark.parametrize("scene", sorted(set(STATES) - {"end"}))
def test_the_orders_link_is_a_short_rfc_6068_mailto(scene: str, lang: str) -> None:
    state = STATES[scene]()
    form = order_form(state, lang)
    mail = orders_mail("pbm+spiel@pbm.test", scenes.GAME, state.round, form, lang)
    assert mail is not None
    href = mail["href"]
    assert 0 < len(href) <= MAILTO_MAX
    # Only characters a URI may hold: non-ASCII (Züge, Räuber), blanks and line ends are
    # percent-encoded, "&" and "=" only between the header fields.
    assert re.fullmatch(r"[A-Za-z0-9%@?&=:._~-]+", href), href
    url = urlsplit(href)
    assert url.scheme == "mailto" and unquote(url.path) == "pbm+spiel@pbm.test"
    fields = dict(f.split("=", 1) for f in url.query.split("&"))
    assert set(fields) == {"subject", "body"}
    subject, body = unquote(fields["subject"]), unquote(fields["body"])
    assert subject == mail["subject"] and subject.startswith(f"[{scenes.GAME}] ")
    assert f"{state.round}" in subject
    assert body == "".join(f"{line}\r\n" for line in form)
    assert "%0D%0A" in fields["body"] and "%20" in fields["body"]
    # The line to write the password on, never a password.
    assert body.splitlines()[0] in ("Kennwort: ", "Password: ")


def test_no_address_no_link() -> None:
    assert orders_mail("", scenes.GAME, 3, ["Kennwort: "], "de") is None


def test_a_link_that_would_be_too_long_is_left_out_and_the_address_still_named() -> None:
    mail = orders_mail("pbm@pbm.test", scenes.GAME, 3, ["# x" * 400], "de")
    assert mail is not None and mail["href"] == "" and mail["address"] == "pbm@pbm.test"


@pytest.mark.parametrize("lang", scenes.LANGS)
def test_the_report_has_the_link_and_its_text_part_the_address_and_subject(lang: str) -> None:
    _, rendered = scenes.round_report(lang)
    hrefs = re.findall(r'href="(mailto:[^"]+)"', rendered.html)
    assert len(hrefs) == 2  # at the top, and at the order form
    link = htmlmod.unescape(hrefs[0])
    assert "&amp;body=" in hrefs[0] and "&body=" in link
    write = "Write orders" if lang == "en" else "Züge schreiben"
    assert f">{write}</a>" in rendered.html
    orders = "Orders round 13" if lang == "en" else "Züge Runde 13"
    assert f"[{scenes.GAME}] {orders}" in rendered.text
    assert scenes.ADDRESS in rendered.text
    # The game-end report has no form and no link.
    _, end = scenes.end_report(lang)
    assert "mailto:" not in end.html


@pytest.mark.parametrize("lang", scenes.LANGS)
@pytest.mark.parametrize("scene", ["round_open", "round_open_sea_fog", "round_open_kron"])
def test_the_round_open_mail_names_where_to_write_and_has_the_link(scene: str, lang: str) -> None:
    """The first round's mail, before any report: its text part names the address and the
    subject, its HTML part has the link that writes the orders (no password in it)."""
    _, rendered = scenes.SCENES[scene](lang)
    orders = "Orders round 1" if lang == "en" else "Züge Runde 1"
    assert f"[{scenes.GAME}] {orders}" in rendered.text
    assert scenes.ADDRESS in rendered.text
    hrefs = re.findall(r'href="(mailto:[^"]+)"', rendered.html)
    assert len(hrefs) == 1
    url = urlsplit(htmlmod.unescape(hrefs[0]))
    query = dict(part.split("=", 1) for part in url.query.split("&"))
    assert unquote(url.path) == scenes.ADDRESS
    assert unquote(query["subject"]) == f"[{scenes.GAME}] {orders}"
    assert scenes.PASSWORD not in unquote(query["body"])
    write = "Write orders" if lang == "en" else "Züge schreiben"
    assert f">{write}</a>" in rendered.html


def _message() -> EmailMessage:
    subject, rendered = scenes.round_report("de")
    return build_message(
        from_address="pbm@pbm.test",
        from_name="pbm",
        recipients=["a@players.test"],
        subject=subject,
        body=rendered.text,
        html=rendered.html,
        message_id="<r@pbm.test>",
        in_reply_to="",
        date=datetime(2026, 1, 1, tzinfo=UTC),
        image=b"\x89PNG\r\n\x1a\nfake",
    )


def test_the_attachment_makes_the_message_mixed_and_each_recipient_gets_their_own() -> None:
    msg = _message()
    attach(msg, "runde-12.json", b'{"you": "a"}')
    parts = [p.get_content_type() for p in msg.walk()]
    assert parts == [
        "multipart/mixed",
        "multipart/alternative",
        "text/plain",
        "multipart/related",
        "text/html",
        "image/png",
        "application/json",
    ]
    attach(msg, "runde-12.json", '{"you": "ü"}'.encode())
    parsed = email.message_from_bytes(msg.as_bytes(), policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    files = list(parsed.iter_attachments())
    assert len(files) == 1
    (part,) = files
    assert part.get_filename() == "runde-12.json"
    assert part.get_content_disposition() == "attachment"
    assert json.loads(part.get_payload(decode=True)) == {"you": "ü"}
    # The text part is still the body a program or a person reads first.
    body = parsed.get_body(preferencelist=("plain",))
    assert body is not None and "Zugformular" in body.get_content()
    # Every boundary is one of ours (none left for the generator to search for).
    assert all(
        str(p.get_boundary()).startswith("=_pbm_") for p in parsed.walk() if p.is_multipart()
    )
