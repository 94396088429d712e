"""Subjects of the service's mails and the few phrases outside templates, in the game's
language (its message catalogue, `pbm.i18n`). Bodies are Jinja templates (`pbm/templates/`),
rendered from `pbm.reports` data."""

from __future__ import annotations

from collections.abc import Iterable

from pbm.i18n import N_, base, mail_languages, translator
from pbm.notation import vocab
from pbm.rules.state import GameState


def ngettext(singular: str, plural: str, count: str) -> tuple[str, str, str]:
    """Marks a text with a plural form in `_T` (named as gettext's, so the extraction reads
    it as one): the forms, and the parameter whose number chooses between them."""
    return singular, plural, count


#: The texts by key (English msgids of the message catalogue, `pbm.i18n`); a text with a
#: number of something has its plural form (`ngettext`).
_T: dict[str, str | tuple[str, str, str]] = {
    "welcome_subject": N_("[{game}] Welcome, {colour}"),
    "new_password_subject": N_("[{game}] New password for {colour}"),
    "joined_subject": N_("[{game}] Signup received"),
    "ack_subject": N_("[{game}] Orders received (round {round})"),
    "setup_ack_subject": N_("[{game}] Setup placement received"),
    "error_subject": N_("[{game}] Not accepted"),
    # Some of the mail was done (a time zone set, a resignation), none of its orders taken.
    "partly_subject": N_("[{game}] Partly accepted"),
    "help_subject": N_("[{game}] Help"),
    "setup_subject": N_("[{game}] Your turn: place a settlement and a road"),
    "setup_sea_subject": N_("[{game}] Your turn: place a settlement with a road or a ship"),
    "placed_subject": N_("[{game}] Setup"),
    "setup_failed_subject": N_("[{game}] Setup placement not possible"),
    "report_subject": N_("[{game}] Report round {round}"),
    "round_open_subject": N_("[{game}] Round 1 begins"),
    "hands": N_("Cards in hand:"),
    "vp": N_("Victory points:"),
    "next": N_("Next round {round}, deadline: {deadline}"),
    "reminder_subject": N_("[{game}] Reminder: orders for round {round}"),
    "nmr_subject": N_("[{game}] No moves received (round {round})"),
    "autopilot_on_subject": N_("[{game}] The autopilot plays for you"),
    "autopilot_off_subject": N_("[{game}] Welcome back"),
    "digest_subject": N_("[{game}] GM digest, round {round}"),
    "end_subject": N_("[{game}] Game over"),
    # A report that replaces one sent before (a rolled-back round), the game's tag first as in
    # every subject.
    "correction_subject": N_("[{game}] Correction: report round {round}"),
    "correction_end_subject": N_("[{game}] Correction: game over"),
    "rollback_subject": N_("[{game}] Round {round} is being corrected"),
    "rollback_reopened": N_(
        "The game master is correcting round {round} of the game {game}.\n\nWhy: {why}\n\n"
        "The round is open again: you may send changed orders until {deadline}. Orders you "
        "sent stand unless you send new ones. The rolls stay as they were announced.\n"
    ),
    # The same in a game without deadlines: the GM resolves when it suits.
    "rollback_reopened_gm": N_(
        "The game master is correcting round {round} of the game {game}.\n\nWhy: {why}\n\n"
        "The round is open again: you may send changed orders until the game master resolves "
        "it. Orders you sent stand unless you send new ones. The rolls stay as they were "
        "announced.\n"
    ),
    "rollback_closed": N_(
        "The game master is correcting round {round} of the game {game}.\n\nWhy: {why}\n\n"
        "The orders stay as they were sent; the corrected report follows. The rolls stay as "
        "they were announced.\n"
    ),
    "rollback_setup_subject": N_("[{game}] The last setup placement is being corrected"),
    "rollback_setup": N_(
        "The game master has taken back the last setup placement of the game {game}.\n\n"
        "Why: {why}\n\n{colour} places again and may send a new placement until {deadline}; "
        "without one, the placement sent before is placed again.\n"
    ),
    "rollback_setup_gm": N_(
        "The game master has taken back the last setup placement of the game {game}.\n\n"
        "Why: {why}\n\n{colour} places again and may send a new placement; without one, the "
        "placement sent before is placed again.\n"
    ),
    "no_deadline": N_("none (the game master resolves)"),
    "held_subject": N_("[{game}] Game stopped"),
    "held_body": N_(
        "The game {game} is stopped after an error until the game master has repaired it. "
        "Your mail is kept and will be read then; you need not send it again.\n"
    ),
    "bad_password": N_("The password is missing or wrong."),
    "commented_orders": N_(
        "Not read, as they start with '#' (the order form's lines come so, to fill in): "
        "without the '#', these lines are orders:\n{lines}\nDelete the '#' in front of each "
        "line you mean as an order."
    ),
    "lost_password_hint": N_(
        "Lost your password? A line '{to_gm}: …' with your message below it, sent from this "
        "address, reaches the game master, who can send you a new one."
    ),
    "substitutes_after_refused": N_(
        "A main build of this mail was refused (line {lines}): it counts as failed, so your "
        "substitute builds are tried this round. To build it instead, send all your orders "
        "again with the line corrected."
    ),
    "commands_contradict": N_(
        "This mail says both {first} and {second}: they contradict each other, so neither was "
        "done, and no order of this mail was stored. Send the one you mean in a new mail (with "
        "your password)."
    ),
    "back_already": N_(
        "You play {colour} yourself already (no autopilot, no absence): nothing was changed. "
        "Send your orders by {deadline}.\n"
    ),
    "bad_password_later": N_(
        "Since {since}, more mails came from your address for the game {game} with a missing "
        "or wrong password than are answered in an hour. None of them was read; nothing was "
        "changed.\n\nIf one of them was yours, its orders were not taken: send them again "
        "with your password line at the top (the deadline: {deadline}). If none was yours, "
        "somebody else wrote in your name; your password still works.\n"
    ),
    "password_below_quote": N_(
        "Your mail has a password line, but only in the quoted mail below: under its header "
        '("From: …", "On … wrote:") or in lines that start with ">". The reading '
        "stops there. Write the password line and your orders at the top of your mail, above "
        "the quoted one."
    ),
    "password_in_subject": N_(
        "The password stood only in the subject; it is read in the mail's text. Write the "
        "password line at the top of your mail."
    ),
    "password_alert_subject": N_("[{game}] Wrong passwords for {colour}"),
    "password_alert_body": ngettext(
        "Since the last accepted mail, {count} mail came for the seat {colour} in the "
        "game {game} with a wrong password.\n\nIf it was not yours, somebody is guessing: "
        "nothing was changed, your password still works, and the game master knows. If you "
        "lost your password, ask the game master for a new one.\n",
        "Since the last accepted mail, {count} mails came for the seat {colour} in the "
        "game {game} with a wrong password.\n\nIf they were not yours, somebody is guessing: "
        "nothing was changed, your password still works, and the game master knows. If you "
        "lost your password, ask the game master for a new one.\n",
        "count",
    ),
    "password_alert_last": N_(
        "\nThis is the last such mail: more wrong passwords for this seat are not reported "
        "until a mail with the right one has come.\n"
    ),
    "observe_already": N_("You observe this game already.\n"),
    "observe_seated": N_("You play in this game and get the reports anyway."),
    "observe_confirm_subject": N_("[{game}] Confirm observing"),
    "observe_confirm_body": N_(
        "Somebody asked that this address receive the reports of the game {game}.\n\n"
        "If that was you, reply with this line:\n\n  Confirm: {token}\n\n"
        "Otherwise do nothing: without a confirmation no more mail comes.\n"
    ),
    "confirm_write_line": N_(
        "To take your place in the game {game}, answer with this line (the code only in the "
        "quoted mail is not enough: an automatic reply quotes it too):\n\nConfirm: {code}"
    ),
    "confirm_in_sentence": N_(
        "Your mail names the code among other words; only the line 'Confirm: …' alone on a "
        "line of its own counts (a mail that only mentions the code, asking what it is, must "
        "not take anything). To confirm in the game {game}, answer with this line:\n\n"
        "Confirm: {code}"
    ),
    "confirm_bad_token": N_(
        "This code matches no request of this address in the game {game}. Answer from the "
        "address the code was sent to, with the line 'Confirm: …' from the newest such mail."
    ),
    "signup_confirm_subject": N_("[{game}] Confirm your signup"),
    "observe_confirmed": N_("You will get the reports from now on. 'Stop observing' ends that.\n"),
    "observe_not": N_("This address does not observe the game."),
    "observe_stopped": N_("You will get no more reports of this game.\n"),
    "broken_subject": N_("[{game}] Game stopped: error"),
    "broken_body": N_(
        "pbm stopped the game {game} after an error; the other games go on."
        "\n\nError: {reason}\n\nMails for the game are kept. After the "
        "repair: pbm game resume {game}\n"
    ),
    "mail_wait_subject": N_("[{game}] Deadline passed with mail possibly unread"),
    "mail_wait_body": ngettext(
        "The deadline of the game {game} passed more than {minutes} minute ago, and pbm could "
        "not make sure it has read every mail that reached the mailbox before it ({why}). The "
        "round was resolved with the mails read so far.\n\nIf a player's orders were missed, "
        "'pbm round rollback {game} --why …' takes the round back, and 'pbm mail ingest' "
        "feeds a missed mail in.\n",
        "The deadline of the game {game} passed more than {minutes} minutes ago, and pbm could "
        "not make sure it has read every mail that reached the mailbox before it ({why}). The "
        "round was resolved with the mails read so far.\n\nIf a player's orders were missed, "
        "'pbm round rollback {game} --why …' takes the round back, and 'pbm mail ingest' "
        "feeds a missed mail in.\n",
        "minutes",
    ),
    "mail_wait_not_read": N_("the mailbox has not been read past the deadline"),
    "mail_wait_stored": ngettext(
        "{count} stored mail is not read yet", "{count} stored mails are not read yet", "count"
    ),
    "preview_subject": N_("[{game}] Island preview"),
    "ok_subject": N_("[{game}] OK"),
    "status_subject": N_("[{game}] Status"),
    "players_subject": N_("[{game}] Players"),
    "history_subject": N_("[{game}] The rounds so far"),
    "press_subject": N_("[{game}] Message from {author}"),
    "press_all_subject": N_("[{game}] Message from {author} to everyone"),
    "press_gm_subject": N_("[{game}] To the game master from {author}"),
    "press_anonymous": N_("an anonymous player"),
    "press_from_gm_subject": N_("[{game}] Message from the game master"),
    "unattended_subject": N_("[{game}] Paused: every seat is on autopilot"),
    "unattended_body": N_(
        "Every seat of the game {game} is played by the autopilot (after missed rounds, "
        "resignations or absences), so pbm has paused it instead of letting it play itself "
        "out.\n\nWhen a player is back: pbm game resume {game}\nOr end it: pbm game end {game}\n"
    ),
    # An absence, as the others are told of it: who (colour and name), or in an anonymous game
    # only that a player is away or back; the absent player's own confirmation.
    "gm_away_subject": N_("[{game}] A player is away until {until}"),
    "gm_back_subject": N_("[{game}] A player is back"),
    "away_named_subject": N_("[{game}] {name} is away until {until}"),
    "back_named_subject": N_("[{game}] {name} is back"),
    "gm_resigned_subject": N_("[{game}] A player has resigned"),
    "resigned_named_subject": N_("[{game}] {name} has resigned"),
    "away_own_subject": N_("[{game}] Your absence until {until} is recorded"),
    "gm_paused_subject": N_("[{game}] Game paused"),
    "gm_resumed_subject": N_("[{game}] Game resumed"),
    "gm_deadline_subject": N_("[{game}] New deadline"),
    "gm_replaced_subject": N_("[{game}] A seat changes hands"),
    "gm_replaced_out_subject": N_("[{game}] Your seat has a new player"),
    "gm_ended_subject": N_("[{game}] Game ended by the game master"),
    "gm_announce_subject": N_("[{game}] From the game master"),
    "gm_autopilot_subject": N_("[{game}] The autopilot and a seat"),
    "gm_started_subject": N_("[{game}] The table is full"),
    "gm_autopilot_took_subject": N_("[{game}] The autopilot plays {seat}"),
    "gm_quarantined_subject": N_("pbm: mail {id} quarantined"),
    "gm_mail_help_subject": N_("[{game}] The game master by mail"),
    "gm_mail_help_subject_no_game": N_("pbm: the game master by mail"),
    "gm_mail_done_subject": N_("[{game}] Done"),
    "gm_mail_done_subject_no_game": N_("pbm: done"),
    "no_roster_yet": N_(
        "The seats are drawn when the table is full; until then there is no roster."
    ),
    "all_placed": N_("You have placed all your setup settlements."),
    "game_started": N_("The game {game} is full and has started."),
    "joined_already": N_("{address} has joined already."),
    "which_game": N_("Which game? Write 'Game: <name>'. Candidates: {names}"),
    "how_to_join": N_(
        "Games open for signup: {names}. To join one, write a mail with the lines "
        "'Game: <name>', 'Join' and 'Name: <your name>'."
    ),
    # A stranger's mail that reads like a signup but was none (`stray.signup_lines`).
    "not_read_as_signup": N_(
        "Your mail was not read as a signup: a signup needs a line that starts with the word "
        "'{join}' (in a sentence, the word is not read as one)."
    ),
    "signup_lines_one": N_("To join {game}, send a mail with these lines:"),
    "signup_lines_several": N_(
        "Games open for signup: {names}. To join one, send a mail with these lines, with the "
        "game's name after '{game_word}:':"
    ),
    "game_name_placeholder": N_("<the game's name>"),
    "your_name_placeholder": N_("<your name>"),
    "no_such_game": N_("There is no game named {name!r}."),
    "attachments_not_read": N_(
        "Attachments are not read: write your orders (and your password) in the mail itself."
    ),
    "encrypted_not_read": N_(
        "This mail is encrypted, and this address cannot read encrypted mail: send your orders "
        "(and your password) unencrypted. A signature may stay."
    ),
    "question_hint": N_(
        "A question? This address reads orders. To ask the game master, start a line with "
        "'To GM:' and write the question below it; to ask another player, 'Message to "
        "<colour>:'. 'Help' lists the commands."
    ),
    "which_game_not_read": N_(
        "Your mail was not read: nothing in it was stored, no orders either. Send it again "
        "with the line 'Game: <name>' at the top."
    ),
    "your_games": N_("You play in: {names}. Write 'Game: <name>' with one of these names."),
    # The subjects of answers that belong to no game, after "pbm: " (`no_game_subject`).
    "which_game_subject": N_("Which game?"),
    "how_to_join_subject": N_("Games open for signup"),
    "none_open_subject": N_("No game open for signup"),
    "no_such_game_subject": N_("No game of that name"),
    "seat_replaced_subject": N_("You no longer play in {games}"),
    "game_over_subject": N_("Game over: {games}"),
    "none_open": N_("No game is open for signup just now."),
    "seat_replaced": N_(
        "You no longer play in {games}: the game master gave your seat to someone else. "
        "Your mails for it are not read."
    ),
    "game_over": N_("The game {games} has ended; mails for it are no longer read."),
    # Translators: put in a forwarded message, and in the answer quoting a mail, where a
    # password stood.
    "password_removed": N_("[password removed]"),
    "password_removed_note": N_(
        "Your message held a password; it was sent with [password removed] in its place."
    ),
}


def t(lang: str, key: str, **kw: object) -> str:
    """The text `key` in a game language, filled in (in the plural form its number asks)."""
    text = _T[key]
    if isinstance(text, tuple):
        singular, plural, count = text
        # A number of minutes may be a fraction: only exactly one is singular.
        n = 1 if kw[count] == 1 else 2
        return translator(lang).ngettext(singular, plural, n).format(**kw)
    return translator(lang).gettext(text).format(**kw)


def raw(key: str) -> str:
    """The msgid of the text `key` (its singular form)."""
    text = _T[key]
    return text[0] if isinstance(text, tuple) else text


def answer_languages(about: Iterable[str] = (), written: str | None = None) -> tuple[str, ...]:
    """The languages of an answer to a sender whose language pbm does not know (a stranger, a
    mail that belongs to no game), in their order: every game language, so that whoever
    wrote can read it, first the language the mail is written in (`notation.written_in`),
    then that of the games the answer is about (`about`: their locales), then the rest. Only
    the one language when the mail is written in the language of every game it is about:
    then both say what the sender reads."""
    everyone = mail_languages()
    games = list(dict.fromkeys(base(lang) for lang in about))
    if written not in everyone:
        written = None
    if written is not None and games == [written]:
        return (written,)
    first = [written] if written is not None else []
    ordered = dict.fromkeys(lang for lang in (*first, *games) if lang in everyone)
    ordered.update(dict.fromkeys(everyone))
    return tuple(ordered)


def in_languages(langs: Iterable[str], key: str, **kw: object) -> list[str]:
    """The text `key` in each of `langs`, in their order."""
    return [t(lang, key, **kw) for lang in langs]


#: What the subject of an answer that belongs to no game starts with (the service's name).
NO_GAME_TAG = "pbm"


def no_game_subject(langs: Iterable[str], key: str, **kw: object) -> str:
    """The subject of an answer that belongs to no game (`pbm: Which game?`): what it is, in
    each of the answer's languages (each wording once)."""
    return f"{NO_GAME_TAG}: " + " / ".join(dict.fromkeys(in_languages(langs, key, **kw)))


def public_summary(state: GameState, lang: str) -> list[str]:
    lines = [t(lang, "hands")]
    for p, colour in enumerate(state.colours):
        # Kronlande's hands hold Stein, Fisch and the goods too.
        hand = " ".join(f"{n}{vocab.letter(r, lang)}" for r, n in enumerate(state.hands[p]) if n)
        hand = hand or "-"
        lines.append(f"  {vocab.colour_name(colour, lang):8} {hand}")
    lines.append(t(lang, "vp"))
    for p, colour in enumerate(state.colours):
        lines.append(f"  {vocab.colour_name(colour, lang):8} {state.visible_vp(p)}")
    return lines
