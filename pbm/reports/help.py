"""The help mail (`Hilfe`, `Help`) as plain data for its template: a short overview for a game
of its kind, a chapter of the player guide (`Hilfe Schiffe`, `Help ships`), or the whole guide
(`Hilfe alles`, `Help all`).

The overview fits a screen or two of a phone: the game and where it stands (round, deadline),
the commands, the lines at the table (messages, a pass, absence, time zone), the order lines
of the game's kind (`order_form.form_lines`, the form the reports send) with what goes into
their placeholders, and how to get each chapter of the guide that concerns the game. Chapters
of other game kinds (ships in a base game, Kronlande in a Seafarers game) are not listed,
though asked for by name they are answered like any other.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any

from pbm.i18n import N_, language, translator
from pbm.notation.format import word
from pbm.notation.text import fold

from .guide_text import Chapter, chapters, guide_for_mail, guide_variants, player_guide
from .notices import CommandLine
from .order_form import GameKind, Placeholders, form_lines, letters_text, setup_lines

#: The chapters of the guide that concern one game kind only (by their key in the guide,
#: `guide_text.chapters`); every other chapter concerns every game.
KIND_CHAPTERS: dict[str, Callable[[GameKind], bool]] = {
    "ships": lambda k: k.seafarers,
    "trade-lines": lambda k: k.scenario == "ueberfahrt",
    "fog": lambda k: k.scenario == "ozeanien",
    "kronlande": lambda k: k.kronlande,
}
#: What players write after `Hilfe` for the whole guide, in any game's language (folded).
ALL_WORDS = frozenset(
    [
        *("alles", "alle", "all", "anleitung", "ganze anleitung", "komplett", "guide"),
        *("everything", "alt", "hele vejledningen"),
    ]
)
#: A topic at least this long also finds the one chapter one of whose words begins with it
#: (`Hilfe Schiff`, `Help trad`), or which begins one of its words.
_PREFIX = 4


def game_chapters(kind: GameKind, lang: str) -> list[Chapter]:
    """The chapters of the guide for a game of this kind, in the guide's order."""
    return [c for c in chapters(lang) if c.key not in KIND_CHAPTERS or KIND_CHAPTERS[c.key](kind)]


def find_chapter(topic: str, lang: str) -> Chapter | None:
    """The chapter of the game's guide a topic names (folded, as `Command.topic`): by one of
    its words in the game's language or any other, in either edition's words (`Hilfe ships`
    in a German game, `Hilfe Entwicklungskarten` in a modern one), else by the beginning of
    one; None when no chapter or several fit."""
    own = {c.key: c for c in chapters(lang)}
    words: dict[str, set[str]] = {key: set() for key in own}
    for other in (lang, *guide_variants()):
        for c in chapters(other):
            if c.key in words:
                words[c.key].update(fold(w)[0] for w in c.words)
    exact = [key for key, ws in words.items() if topic in ws]
    if not exact and len(topic) >= _PREFIX:
        exact = [
            key
            for key, ws in words.items()
            if any(w.startswith(topic) or (len(w) >= _PREFIX and topic.startswith(w)) for w in ws)
        ]
    return own[exact[0]] if len(exact) == 1 else None


def is_all(topic: str) -> bool:
    return topic in ALL_WORDS


_KINDS = {
    "base": N_("base game"),
    "beginner": N_("base game, beginner layout"),
    "kronlande": N_("Kronlande"),
}
_SEAFARERS = N_("Seafarers scenario {name}")
_NO_PIRATE = N_("Seafarers scenario {name}, without the pirate")


def kind_text(kind: GameKind, lang: str, beginner: bool = False) -> str:
    """What game this is: `Seefahrer-Szenario Zu neuen Ufern`, `Kronlande`, `Grundspiel`."""
    _ = translator(lang).gettext
    if kind.scenario is not None:
        from .identity_sea import scenario_name

        # The catalogue's name in every language (Danish "Mod nye bredder"): German's and
        # English's are the scenario data's `name_de`/`name_en`.
        name = scenario_name(kind.scenario, lang)
        return _(_SEAFARERS if kind.pirate else _NO_PIRATE).format(name=name)
    if kind.kronlande:
        return _(_KINDS["kronlande"])
    return _(_KINDS["beginner" if beginner else "base"])


def phase_name(lang: str, phase: str) -> str:
    """A game's phase (`Game.phase`'s value) in the game's language: never the stored word."""
    tr = translator(lang)
    names = {
        "signup": tr.pgettext("phase", "signup"),
        "setup": tr.pgettext("phase", "setup"),
        "rounds": tr.pgettext("phase", "running"),
        "ended": tr.pgettext("phase", "ended"),
    }
    return names.get(phase, names["rounds"])


def status_text(lang: str, phase: str, round_: int, deadline: str, paused: bool) -> str:
    """Where the game stands: signup, setup or round with its deadline, paused, ended.
    `phase`: `Game.phase`'s value."""
    _ = translator(lang).gettext
    if phase == "signup":
        return _("Signup is open.")
    if phase == "ended":
        return _("The game has ended.")
    if paused:
        return _("The game is paused: nothing is resolved and no orders are taken.")
    if phase == "setup":
        return _("Setup, deadline: {deadline}").format(deadline=deadline)
    return _("Round {round}, deadline: {deadline}").format(round=round_, deadline=deadline)


def legend(kind: GameKind, lang: str) -> list[str]:
    """What goes into the placeholders of the game's order lines, and its cards' letters."""
    _ = translator(lang).gettext
    ph = Placeholders.of(lang)
    lines = [
        _(
            "{hex}: its label (C3) or its number and resource (6O); also Sea, Desert, "
            "G-Harbor, 3:1-Harbor"
        ).format(hex=ph.hex),
        _("{crossing}: its three hexes (C3 C4 D4); {path}: its two hexes (C3 C4)").format(
            crossing=ph.crossing, path=ph.path
        ),
        _(
            "{resources}: cards with their counts (2L 1O) or one by one (W W G); "
            "{resource}: one letter or name; {colour}: a player's colour"
        ).format(resources=ph.resources, resource=ph.resource, colour=ph.colour),
    ]
    if kind.pirate:
        lines.append(_("{sea_hex}: a sea hex (D5)").format(sea_hex=ph.sea_hex))
    if kind.kronlande:
        lines.append(_("{good}: tools, cloth or bread, by name").format(good=ph.good))
    lines.append(_("Cards: {letters}").format(letters=letters_text(kind, lang)))
    if kind.kronlande:
        lines.append(
            _(
                "Letters of two count only right after their count (2St 1Br). Goods are "
                "traded between players only, never with the bank."
            )
        )
    return lines


def _wrap(line: str) -> str:
    """Within 72 columns, a continued line indented; never inside a bracket (`(C3 C4 D4)`)
    nor between a letter and its card's name (`To Tools`)."""
    glued = re.sub(r"\([^)]*\)", lambda m: m.group(0).replace(" ", "\u00a0"), line)
    wrapped = textwrap.fill(glued, 72, subsequent_indent="  ", break_on_hyphens=False)
    return wrapped.replace("\u00a0", " ")


def table_lines(lang: str) -> list[CommandLine]:
    """The lines at the table a mail may carry besides commands and orders (they are read as
    lines of the mail, never from the subject): a message to a colour or to all, to the game
    master, a pass, an absence, a time zone. Their words are the order words of the game's
    language (`notation.format.word`), `word` holding the whole line as written."""
    tr = translator(lang)
    _ = tr.gettext
    colour = tr.pgettext("placeholder", "<colour>")
    # Translators: the placeholder for a day, in the help's `Away until <date>`.
    date = tr.pgettext("placeholder", "<date>")
    # Translators: the placeholder for a time zone's name, in the help's `Time zone: <zone>`.
    zone = tr.pgettext("placeholder", "<zone>")
    return [
        CommandLine(
            f"{word('message', lang)} {colour}: …",
            "",
            _("the rest of the mail to that colour, or to '{all}'").format(all=word("all", lang)),
            True,
        ),
        CommandLine(
            f"{word('to_gm', lang)}: …",
            "",
            _("the rest of the mail to the game master (also without password)"),
            False,
        ),
        CommandLine(word("pass", lang), "", _("no orders this round, and no NMR"), True),
        CommandLine(
            f"{word('away', lang)} {date}",
            "",
            _("the autopilot plays for you until the end of that day"),
            True,
        ),
        CommandLine(
            f"{word('timezone', lang)}: {zone}",
            "",
            _("deadlines in your time (e.g. Europe/Berlin)"),
            True,
        ),
    ]


def overview(
    lang: str,
    kind: GameKind,
    commands: list[CommandLine],
    status: str,
    *,
    beginner: bool = False,
    unknown: str = "",
) -> dict[str, Any]:
    """The short help: the game, its state, the commands, the order lines of its kind and the
    chapters to ask for. `unknown`: a topic asked for that names no chapter (said first)."""
    help_word = word("help", lang)
    # Translators: what players write after "Help" for the whole player guide.
    all_word = translator(lang).pgettext("help topic", "all")
    return {
        "lang": language(lang),
        "mode": "overview",
        "unknown": unknown,
        "kind": kind_text(kind, lang, beginner),
        "status": status,
        "commands": commands,
        "table": table_lines(lang),
        "orders": form_lines(kind, lang),
        "setup": setup_lines(kind, lang),
        "legend": [_wrap(line) for line in legend(kind, lang)],
        "chapters": [(f"{help_word} {c.words[0]}", c.title) for c in game_chapters(kind, lang)],
        "all": f"{help_word} {all_word}",
        "guide": "",
    }


def chapter(lang: str, found: Chapter) -> dict[str, Any]:
    """One chapter of the guide, as a mail's text."""
    return {
        "lang": language(lang),
        "mode": "chapter",
        "guide": guide_for_mail(found.markdown).strip(),
        "help": word("help", lang),
    }


def whole_guide(lang: str) -> dict[str, Any]:
    """The whole player guide, as a mail's text."""
    return {
        "lang": language(lang),
        "mode": "all",
        "guide": guide_for_mail(player_guide(lang)).strip(),
        "help": word("help", lang),
    }


def help_data(
    lang: str,
    topic: str,
    kind: GameKind,
    commands: list[CommandLine],
    status: str,
    *,
    beginner: bool = False,
) -> dict[str, Any]:
    """The answer to `Hilfe` with `topic` ("" for the overview): the chapter it names, the
    whole guide, or the overview (which names the chapters when the topic named none)."""
    if topic and is_all(topic):
        return whole_guide(lang)
    found = find_chapter(topic, lang) if topic else None
    if found is not None:
        return chapter(lang, found)
    return overview(lang, kind, commands, status, beginner=beginner, unknown=topic)
