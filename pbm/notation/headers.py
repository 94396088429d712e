"""The lines that need no board: headers (`Spiel:`, `Name:`, `Farben:`), the password, a
confirmation code, the round, a message, absence or time-zone line, and commands (`Hilfe`,
`Status`, …); `_board_free` reads them first, for `parse_line` and `scan_line` alike."""

from __future__ import annotations

import re
from datetime import date
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbm import languages

from . import lexicon, vocab
from .context import Text
from .counts import _number, _significant
from .errors import NotationError
from .game_words import GameWords
from .items import (
    YEARLESS,
    Away,
    ColourPreference,
    Command,
    Confirmation,
    GameName,
    Item,
    Password,
    PlayerName,
    Press,
    RoundGuard,
    TimeZone,
)
from .limits import MAX_DIGITS, MAX_LINE_CHARS
from .remarks import _tidy, _without_remark, check_dashes_remark
from .words import _FILLERS, _kw, _letter_words

#: How a command's line ends after its words: `Anmeldung Rot` goes on, `Mitspieler?` asks,
#: `Zurück!` exclaims; every other command is the whole line.
_COMMAND_ENDS = {"join": r"\b", "players": r"[?]?+$", "back": r"[.!]*+$"}
#: The mail commands (`[commands]` of the language files), in the order tried.
_COMMANDS = [
    (re.compile(rf"^({lexicon.either('commands', name)}){_COMMAND_ENDS.get(name, '$')}"), name)
    for name in languages.keys("commands")
]
_WORDS = {
    key: lexicon.either("words", key)
    for key in (
        "password_leads",
        "password_is",
        "message_anonymous",
        "message",
        "message_to",
        "gm_leads",
        "gm_articles",
        "gm",
        "away_leads",
        "away",
        "away_until",
        "time_zone",
        "help_leads",
    )
}
_GM = rf"(?:(?:{_WORDS['gm_articles']}) )?+(?:{_WORDS['gm']})"


_HEADER = {k: _kw(k, r"\s*+[:=]\s*+(?P<rest>.*)") for k in ("game", "name", "colours")}
#: `Kennwort: x`, `Mein Kennwort ist x`, `Password - x`, `PW=x`, or `Kennwort x` (then `sep`
#: is empty, and the value must be all that follows).
_PASSWORD = re.compile(
    rf"^(?:(?:{_WORDS['password_leads']}) )?+"
    rf"(?:{lexicon.either('keywords', 'password')})(?![a-z])"
    rf"(?P<sep>\s*+[:=]|\s++(?:{_WORDS['password_is']})(?![a-z])\s*+:?+|\s*+-(?=\s)|)"
    r"\s*+(?P<rest>.*)$"
)
_CONFIRM = _kw("confirm", r"\s*+[:=]?+\s*+(?P<rest>.*)")
#: `Nachricht an gelb: …`, `Anonyme Nachricht an alle`, `Message to yellow: …` (issue 15).
_PRESS = re.compile(
    rf"^(?P<anon>(?:{_WORDS['message_anonymous']}) )?+(?:{_WORDS['message']})\s++"
    rf"(?:{_WORDS['message_to']})\s++(?P<to>[a-z]++)(?:\s*+[:,]\s*+|\s++|$)(?P<rest>.*)$"
)
#: `An Spielleitung: …`, `An die Spielleitung`, `To GM: …`, `To the game master`.
_TO_GM = re.compile(
    rf"^(?:{_WORDS['gm_leads']})\s++{_GM}"
    r"(?:\s*+:\s*+|\s++|$)(?P<rest>.*)$"
)
#: `Nachricht an die Spielleitung: …`, `Message to the GM: …`: to the game master.
_PRESS_GM = re.compile(
    rf"^(?:{_WORDS['message']})\s++(?:{_WORDS['message_to']})\s++{_GM}"
    r"(?:\s*+[:,]\s*+|\s++|$)(?P<rest>.*)$"
)


_ALL = lexicon.word_set("words", "everyone")
#: `Urlaub bis 2026-12-24`, `Abwesend bis 24.12.2026`, `Away until 2026-12-24`.
_AWAY = re.compile(
    rf"^(?:(?:{_WORDS['away_leads']})\s++)?+(?:{_WORDS['away']})"
    rf"\s++(?:{_WORDS['away_until']})"
    r"\s*+:?+\s*+(?P<rest>.*)$"
)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_GERMAN_DATE = re.compile(r"(\d{1,2})[./-](\d{1,2})[./-](\d{4})")
#: `20. marts 2026`, `20 March 2026`, `20. März 2026`, `5th May, 2027`, and without the year
#: (`20. marts`): a month by its name (folded: the first three letters of the German, Danish
#: and English names, `maer` and `mae` for März).
_NAMED_DATE = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\.? ?([a-z]{3,9})\.?(?:,? ?(\d{4}))?")
#: `May 5, 2027`, `May 5th`: the month first, as English writes it.
_MONTH_FIRST = re.compile(r"([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?(?:,? ?(\d{4}))?")
#: A day and month without the year: `20.3.`, `20/3`.
_DAY_MONTH = re.compile(r"(\d{1,2})[./](\d{1,2})\.?")
_MONTHS = {
    **{
        m: i
        for i, m in enumerate(
            ("jan", "feb", "mar", "apr", "maj", "jun", "jul", "aug", "sep", "okt", "nov", "dec"), 1
        )
    },
    "may": 5,
    "mai": 5,
    "oct": 10,
    "dez": 12,
    "mae": 3,
    "mrz": 3,
}
#: `Zeitzone: Europe/Berlin`, `Time zone: America/New_York`, `TZ=UTC`.
_ZONE = re.compile(rf"^(?:{_WORDS['time_zone']})\s*+[:=]?+\s*+(?P<rest>\S++)$")
#: The longest IANA zone name is 32 characters; anything longer is no zone.
MAX_ZONE = 40
#: A confirmation code: the service's codes are letters, digits and dashes.
_TOKEN = re.compile(r"[A-Za-z0-9-]+")
MAX_TOKEN = 40
#: The digits are taken however many, and bounded in `_round` (for a clear refusal).
_ROUND = _kw("round", r"\s*+:?+\s*+(?P<rest>\d++)[.:]?+")
_DIGITS = re.compile(r"\d++")


def _board_free(text: str, game: GameWords, lenient: bool = False) -> tuple[Text, str, Item | None]:
    """The first steps of reading a line, which need no board: the line tidied and folded
    (remarks cut after the password and table lines), and its item when it is a header, a
    password, a message/absence/time-zone line, a confirmation or a round line. Shared by
    `parse_line` and `scan_line`, so that both read those lines alike; `lenient` (the scan):
    a `Farben:` line with words that are not colours keeps its colours and those words
    (`ColourPreference.unknown`) instead of being refused."""
    if len(text) > MAX_LINE_CHARS:
        # Refused unread: no order is that long, and nothing of it is looked at.
        raise NotationError.make("line_too_long", length=len(text), max=MAX_LINE_CHARS)
    raw = Text(text)
    t = _tidy(raw)
    f = t.folded.strip()
    if not f:
        raise NotationError.make("empty_line")
    for key in ("game", "name", "colours"):
        m = _HEADER[key].match(f)
        if m:
            return t, f, _header(key, t, m, lenient)
    m = _PASSWORD.match(f)
    if m and (m.group("sep") or _one_value(m.group("rest")) or pbm_shaped(m.group("rest"))):
        return t, f, _password(t, m)
    bare = pbm_shaped(t.original) if _PBM_PASSWORD.fullmatch(f.rstrip(".")) else None
    if bare is not None:
        # The password alone on its line, as copied from the welcome mail.
        return t, f, Password(bare)
    labelled = _LABELLED.match(f)
    if labelled is not None and (shaped := pbm_shaped(t.sub(labelled.start("rest")).original)):
        # One of pbm's passwords behind a label misspelt (`Kenwort:`, `Pasword:`): nothing
        # but a password has that shape.
        return t, f, Password(shaped)
    # Before remarks are cut: a message's first line is the player's text as written.
    table = _table_line(t, f)
    if table is not None:
        return t, f, table
    inner = _password_in_sentence(t, f, game)
    if inner is not None:
        return t, f, inner
    check_dashes_remark(raw, game)
    t = _without_remark(t, game)
    # A full stop at the end of an order line is forgiven (not in passwords, read above), and
    # so are `!` and `?`.
    stripped = t.original.rstrip().rstrip("!?").rstrip()
    if stripped.endswith(".") and not stripped.endswith(".."):
        stripped = stripped[:-1]
    t = Text(stripped)
    f = t.folded.strip()
    m = _CONFIRM.match(f)
    if m:
        return t, f, _confirmation(t, m)
    m = _ROUND.match(f)
    if m:
        return t, f, _round(t, m.group("rest"), m.start("rest"))
    round_at = _round_heading(f)
    if round_at is not None:
        start, end = round_at
        return t, f, _round(t, f[start:end], start)
    return t, f, None


#: `Hilfe Schiffe`, `Hilfe: Handel`, `Hilfe zum Handel`, `Help on ships`, `Help all`: help on a
#: chapter of the player guide (or all of it). One to four words of letters: a sentence that
#: starts with `Hilfe` is no command.
_HELP_TOPIC = re.compile(
    rf"^(?:{lexicon.alternation(w for w in lexicon.words('commands', 'help') if w.isalpha())})"
    rf"(?: ?+:)? ++(?:(?:{_WORDS['help_leads']}) ++)?+"
    r"(?P<topic>[a-z][a-z'-]*+(?: [a-z][a-z'-]*+){0,3}+)$"
)


#: A command asked for politely (`Status bitte`, `Bitte Status`, `Status please`, `Status
#: tak`): the words around it, and the marks after it.
_POLITE_WORDS = (*lexicon.words("remarks", "please"), "tak", "venligst", "danke", "thanks")
_POLITE = re.compile(
    rf"^(?:(?:{'|'.join(map(re.escape, _POLITE_WORDS))}),?+ )?+(?P<core>[a-z ]{{1,40}}?)"
    rf"(?:,?+ (?:{'|'.join(map(re.escape, _POLITE_WORDS))}))?+[ .!?]*+$"
)


#: `I'm back early, holiday cancelled :(`: a long form of `back` (`Ich bin zurück`, not the
#: word alone) with a remark after it; no digit and no colon (`Ich bin zurück ab 20.12.`
#: says more, and is read as before).
_BACK_REMARK = re.compile(
    rf"^(?:{lexicon.alternation(w for w in languages.words('commands', 'back') if ' ' in w)})"
    r"[\s,.!;-]++[^\d:]*+$"
)


def _command(f: str) -> Command | None:
    if _BACK_REMARK.match(f):
        return Command("back")
    for pattern, name in _COMMANDS:
        if m := pattern.match(f):
            if name == "join":
                # `Anmeldung golf`, `Join game hotel`: the words after it may name the game.
                return Command(name, f[m.end() : m.end() + _MAX_TOPIC].strip(" \t:.,;!?"))
            return Command(name)
    # Only a line with a polite word is looked at again (`_command` runs on every line).
    polite = _POLITE.match(f) if any(w in f for w in _POLITE_WORDS) else None
    if polite is not None and polite.group("core") != f:
        core = polite.group("core").strip()
        for pattern, name in _COMMANDS:
            if pattern.match(core):
                return Command(name)
    m = _HELP_TOPIC.match(f)
    if m is not None and len(m.group("topic")) <= _MAX_TOPIC:
        return Command("help", m.group("topic"))
    return None


#: The longest topic of `Hilfe …` read (a chapter's word is far shorter).
_MAX_TOPIC = 40


def _table_line(t: Text, f: str) -> Press | Away | TimeZone | None:
    """Messages, absence and time zone (issue 15); None for any other line."""
    m = _PRESS_GM.match(f)
    if m:
        first = t.sub(m.start("rest")).original.strip() if m.group("rest") else ""
        return Press("gm", first)
    m = _PRESS.match(f)
    if m:
        word = m.group("to")
        to = "all" if word in _ALL else vocab.colour(word, column=t.col(m.start("to")))
        first = t.sub(m.start("rest")).original.strip() if m.group("rest") else ""
        return Press(to, first, anonymous=bool(m.group("anon")))
    m = _TO_GM.match(f)
    if m:
        first = t.sub(m.start("rest")).original.strip() if m.group("rest") else ""
        return Press("gm", first)
    m = _AWAY.match(f)
    if m:
        return _away(t, m)
    m = _ZONE.match(f)
    if m:
        rest = t.sub(m.start("rest"))
        name = rest.original.strip()
        if len(name) > MAX_ZONE or not _is_zone(name):
            raise NotationError.make("timezone_expected", shown=name, column=rest.col(0))
        return TimeZone(name)
    return None


def _is_zone(name: str) -> bool:
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_+\-/]*+", name) or ".." in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return False
    return True


def _away(t: Text, m: re.Match[str]) -> Away:
    """The date of `Urlaub bis …`: 2026-12-24, 24.12.2026, 20. marts 2027, May 5, 2027; or a
    day and month alone (20.3., 20/3, 20. marts), whose year is the service's to find (the
    nearest such day, `Away.meant`). `5/6` is refused: an American writes the month first."""
    rest = t.sub(m.start("rest"))
    text = rest.original.strip()
    folded = rest.folded.strip().rstrip(".")
    try:
        if iso := _ISO_DATE.fullmatch(text):
            return Away(date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))))
        if german := _GERMAN_DATE.fullmatch(text.rstrip(".")):
            return Away(date(int(german.group(3)), int(german.group(2)), int(german.group(1))))
        numbers = _DAY_MONTH.fullmatch(text)
        if numbers and not ("/" in text and max(map(int, numbers.groups())) <= 12):
            return Away(date(YEARLESS, int(numbers.group(2)), int(numbers.group(1))), False)
        day, month, year = "", "", ""
        if named := _NAMED_DATE.fullmatch(folded):
            day, month, year = named.group(1), named.group(2), named.group(3) or ""
        elif first := _MONTH_FIRST.fullmatch(folded):
            day, month, year = first.group(2), first.group(1), first.group(3) or ""
        if day and month[:3] in _MONTHS:
            written = date(int(year or YEARLESS), _MONTHS[month[:3]], int(day))
            return Away(written, bool(year))
    except ValueError:
        pass
    raise NotationError.make("date_expected", shown=text, column=rest.col(0))


def _value_expected(t: Text, m: re.Match[str], group: int | str = 1) -> NotationError:
    word = m.group(group) if group != 1 else m.group(1)
    return NotationError.make(
        "value_expected",
        word=word,
        shown=t.sub(m.start(group), m.end(group)).original,
        column=t.col(m.end()),
    )


def _first_token(value: str) -> str:
    """The first word of a value, up to a blank or a comma: a password or a code never holds
    either, and what follows ("(aus der Mail)", ", Runde 4") is the player's comment."""
    words = value.replace(",", " ").split(maxsplit=1)
    return words[0] if words else ""


#: Around a password: quotes, markup, brackets; after it: punctuation.
_AROUND = "\"'*_«»„“”<>()[]`"


#: A password as pbm makes them (`service.secrets.new_password`: the colour and five groups of
#: two syllables), its dashes written as blanks too (`rot kadu mepi rosa tule wibo`).
_PBM_PASSWORD = re.compile(
    r"^[a-z]{2,12}(?:(?:-(?:[bdfghklmnprstvwz][aeiou]){2}){5}"
    r"|(?:[ \t]++(?:[bdfghklmnprstvwz][aeiou]){2}){5})(?=$|[\s.,;!])"
)


#: Where a sentence or a clause ends inside a line: `Hi! My password is …`, `Hi, here are my
#: orders. Password: …`.
_SENTENCE_BREAK = re.compile(r"[.!?,;]\s++")
#: What may follow a password at the end of a sentence.
_AFTER_PASSWORD = " .!?,;:)\"'"


def _password_in_sentence(t: Text, f: str, game: GameWords) -> Password | None:
    """A password of pbm's shape after a greeting on its line (`Hi! My password is rot-…`,
    `Hej! Min adgangskode er …`): read when the words before it name no order and nothing
    follows it. Only pbm's shape: a word after `password` in a sentence could be anything."""
    for n, b in enumerate(_SENTENCE_BREAK.finditer(f)):
        if n >= 4:
            break
        m = _PASSWORD.match(f[b.end() :])
        if m is None:
            continue
        before = f[: b.start()]
        words = _letter_words(before)
        if any(ch.isdigit() for ch in before) or any(
            w in game.build_starts or w in game.keyword_starts for w in words
        ):
            return None
        rest = t.sub(b.end() + m.start("rest")).original.strip()
        shaped = pbm_shaped(rest)
        if shaped is not None and not rest[len(shaped) :].strip(_AFTER_PASSWORD):
            return Password(shaped)
        # The colour written with its own letters (`rød-…`, `grün-…`): the shape is checked
        # folded, the password kept as written (`secrets` folds the colour).
        token = rest.split(maxsplit=1)[0].rstrip(_AFTER_PASSWORD) if rest else ""
        if not token or rest[len(token) :].strip(_AFTER_PASSWORD):
            return None
        return Password(token) if pbm_shaped(Text(token).folded) is not None else None
    return None


#: A one-word label and what follows it: `Kenwort: rot-kadu-…`.
_LABELLED = re.compile(r"^[^\W\d_]{2,15}+[ \t]*+[:=][ \t]*+(?P<rest>\S.*)$")


def pbm_shaped(text: str) -> str | None:
    """The password a text starts with when it is shaped like one pbm makes, with dashes
    between its parts (`Rot Kadu Mepi Rosa Tule Wibo` → `Rot-Kadu-Mepi-Rosa-Tule-Wibo`)."""
    value = text.strip()
    m = _PBM_PASSWORD.match(value.lower())
    return "-".join(re.split(r"[\s-]+", value[: m.end()].strip())) if m else None


def _secret(value: str) -> str:
    shaped = pbm_shaped(value)
    if shaped is not None:
        return shaped
    word = _first_token(value).strip(_AROUND)
    while word and word[-1] in ".,;:!?":
        word = word[:-1].rstrip(_AROUND)
    return word


def _one_value(rest: str) -> bool:
    """`Kennwort xyz` (no colon): a password line only when xyz is all that follows (or a
    remark in brackets)."""
    words = rest.split(maxsplit=1)
    return len(words) == 1 or (len(words) == 2 and words[1].startswith(("(", "#")))


def _password(t: Text, m: re.Match[str]) -> Password:
    value = _secret(t.sub(m.start("rest")).original.strip())
    if not value:
        word = m.group(0)[: m.start("sep")].split()[-1]
        raise NotationError.make(
            "value_expected",
            word=word,
            shown=t.sub(m.start("sep") - len(word), m.start("sep")).original,
            column=t.col(m.end("sep")),
        )
    return Password(value)


#: Between the colours of a `Farben:` line: `rot oder blau` names both.
_COLOURS_OR = lexicon.word_set("places", "colours_or")


def _header(key: str, t: Text, m: re.Match[str], lenient: bool = False) -> Item:
    value = t.sub(m.start("rest")).original.strip()
    if not value:
        raise _value_expected(t, m)
    if key == "game":
        return GameName(value)
    if key == "name":
        return PlayerName(value)
    rest = t.sub(m.start("rest"))
    colours: list[str] = []
    unknown: list[str] = []
    for w in re.finditer(r"[^\s,;/]+", rest.folded):
        if w.group(0) in _FILLERS or w.group(0) in _COLOURS_OR:
            continue
        try:
            colours.append(vocab.colour(w.group(0)))
        except NotationError:
            shown = rest.sub(w.start(), w.end()).original
            if lenient:
                # A signup keeps the wishes that are colours; the answer names the others.
                unknown.append(shown)
                continue
            raise NotationError.make(
                "colour_expected", shown=shown, column=rest.col(w.start())
            ) from None
    return ColourPreference(tuple(colours), tuple(unknown))


def _confirmation(t: Text, m: re.Match[str]) -> Confirmation:
    rest = t.sub(m.start("rest"))
    token = _first_token(rest.original.strip())
    if not token:
        raise _value_expected(t, m)
    if len(token) > MAX_TOKEN or not _TOKEN.fullmatch(token):
        lead = len(rest.folded) - len(rest.folded.lstrip())
        raise NotationError.make(
            "token_expected", shown=token, max=MAX_TOKEN, column=rest.col(lead)
        )
    return Confirmation(token)


def _round(t: Text, digits: str, start: int) -> RoundGuard:
    n = _number(digits)
    if n is None:
        raise NotationError.make(
            "number_too_long",
            digits=len(_significant(digits)),
            max=MAX_DIGITS,
            column=t.col(start),
        )
    return RoundGuard(n)


#: Words of a round heading: `Zug für Runde 7:`, `Meine Züge für Runde 7`, `Orders for round
#: 7:`, `Zugformular für Runde 7:`.
_ROUND_LEAD = lexicon.word_set("words", "round_lead")
_ROUND_TAIL = lexicon.word_set("words", "round_tail")
_ROUND_NUMBER = lexicon.word_set("words", "round_number")
_ROUND_WORDS = lexicon.word_set("keywords", "round")


def _round_heading(f: str) -> tuple[int, int] | None:
    """Where the round number of a round heading stands in `f`, or None."""
    m = _DIGITS.search(f)
    if m is None:
        return None
    before = f[: m.start()]
    words = _letter_words(before)
    if not words or len(words) > 8:
        return None
    while words and words[-1] in _ROUND_NUMBER:
        words.pop()
    if not words or words[-1] not in _ROUND_WORDS:
        return None
    if any(w not in _ROUND_LEAD for w in words[:-1]):
        return None
    # From the round word on (`Runde`, `round`, of whichever language) to the number: only
    # letters, blanks and `.:#` (`Runde #7`, `round: 7`).
    between = before[before.rfind(words[-1]) :]
    if any(ch not in "abcdefghijklmnopqrstuvwxyz .:#" for ch in between):
        return None
    after = f[m.end() :]
    if any(ch not in " .:!" and not "a" <= ch <= "z" for ch in after):
        return None
    if any(w not in _ROUND_TAIL for w in _letter_words(after)):
        return None
    return m.start(), m.end()
