"""A player's mail that a mail program or a gateway built wrong still gives its text: a
multipart whose boundary is missing or is not the one its body uses, base64 with junk or a
cut last group, a text labelled base64 that is none (each of them lost the orders: the
answer was "password missing")."""

from __future__ import annotations

import base64

import pytest

from pbm.mail.inbound import MAX_PARTS, parse_inbound

HEAD = "From: Anna <anna@players.test>\nTo: gm@pbm.test\nSubject: Züge\nMIME-Version: 1.0\n"
ORDERS = "Kennwort: rot-kadu-mepi-rosa-tule-wibo\nRunde: 1\nStraße 4H 5W\n"
B64 = base64.encodebytes(ORDERS.encode()).decode()

CASES = {
    "no boundary parameter": "Content-Type: multipart/alternative\n\n"
    f"--xyz\nContent-Type: text/plain; charset=utf-8\n\n{ORDERS}\n--xyz--\n",
    "another boundary in the body": 'Content-Type: multipart/mixed; boundary="AAA"\n\n'
    f"This is a MIME message.\n--BBB\nContent-Type: text/plain; charset=utf-8\n\n{ORDERS}\n"
    "--BBB--\n",
    "no boundary line at all": f'Content-Type: multipart/mixed; boundary="AAA"\n\n{ORDERS}',
    "base64 with junk": "Content-Type: text/plain; charset=utf-8\n"
    f"Content-Transfer-Encoding: base64\n\n{B64.rstrip()}!*\n",
    "text labelled base64": "Content-Type: text/plain; charset=utf-8\n"
    f"Content-Transfer-Encoding: base64\n\n{ORDERS}",
    "base64 as it should be": "Content-Type: text/plain; charset=utf-8\n"
    f"Content-Transfer-Encoding: base64\n\n{B64}",
}


@pytest.mark.parametrize("lines", ["\n", "\r\n"], ids=["lf", "crlf"])
@pytest.mark.parametrize("case", CASES)
def test_the_orders_are_read_from_a_mail_built_wrong(case: str, lines: str) -> None:
    raw = (HEAD + CASES[case]).replace("\n", lines).encode()
    text = parse_inbound(raw, "gm@pbm.test", 10**6).text.replace("\r\n", "\n")
    assert ORDERS.rstrip("\n") in text, text


def test_a_base64_group_cut_short_keeps_what_it_holds() -> None:
    cut = base64.b64encode(ORDERS.encode()).decode()[:-3]
    raw = HEAD + "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
    text = parse_inbound((raw + cut + "\n").encode(), "gm@pbm.test", 10**6).text
    assert text.startswith("Kennwort: rot-kadu-mepi-rosa-tule-wibo\nRunde: 1\nStraße 4H")


def test_a_body_of_undeclared_parts_as_many_as_a_bomb_is_not_split() -> None:
    parts = "".join(f"--x\nContent-Type: text/plain\n\n{i}\n" for i in range(MAX_PARTS + 5))
    raw = (HEAD + "Content-Type: multipart/mixed\n\n" + parts + "--x--\n").encode()
    assert parse_inbound(raw, "gm@pbm.test", 10**7).text == ""


def test_one_encoded_word_in_an_unknown_charset_leaves_the_others_decoded() -> None:
    """The whole subject stayed raw: `[alpha]` after such a word named no game."""
    raw = (
        b"From: Anna <anna@players.test>\nTo: gm@pbm.test\nMessage-ID: <w@players.test>\n"
        b"Subject: =?nonsense-charset?q?abc?= =?koi8-u?b?8sXT?= [alpha]\n\nHallo\n"
    )
    assert parse_inbound(raw, "gm@pbm.test").subject == "abcРес [alpha]"
