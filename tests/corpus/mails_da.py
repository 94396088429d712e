"""Danish order mails of issue 29 ("Danish, whole"), beyond `make_corpus.DA_MAILS`: Seafarers
(ships, moving a ship, the pirate, gold) on a scenario's board, Kronlande (workshops, making
goods, castles, residences, the project cards, the letters S F Vk St Br) on the large
Kronlande island, and mails as Danish players write them on phones and desktop clients
(greetings, quoted replies, signatures, typos, æ ø å and ae oe aa).

Written by `make_corpus.py` with the other mails; the words are those of seeds 000 and 001 and
`docs/glossary-da.md`. Boards: the base island of seed 1 (4 players, board version 1), New
Shores (`neue-ufer`, 4 players, seed 1) and the Kronlande large island (seed 3):

    pbm board --seed 1 --lang da
    pbm board --scenario neue-ufer --players 4 --seed 1 --lang da
    pbm board --kronlande --size large --seed 3 --lang da
"""

from __future__ import annotations

from make_corpus import (
    BUY_DA,
    IGNORED,
    NOISE,
    PASS_DA,
    PW_DA,
    SUB_DA,
    Expect,
    Mail,
    city,
    lit,
    refused,
    road,
    robber,
    settle,
)

MAILS: list[Mail] = []


def ambiguous(*labels: str) -> Expect:
    """A place naming several: refused, the candidates in label form."""
    return lambda o: {"ok": False, "canonical": None, "candidates": list(labels)}


SEA = {"scenario": "neue-ufer", "players": 4, "seed": 1, "lang": "da"}
KRON = {"kronlande": True, "players": 4, "seed": 3, "lang": "da"}

# -- Seafarers: New Shores, 4 players, seed 1 -------------------------------------------------
#   B3 2:1T  B7 6M  B8 3Guld | C3 12L C4 9L C5 10T C6 2:1L C8 5L C9 2:1M | D2 11T D3 6U D4 5M
#   D5 8L D9 11Guld | E2 4K E3 3K E4 11U E5 4M E6 3K E7 2:1K E9 10U | F2 8M F3 10K F4 9T F5 6U
#   F9 4T | G3 5U G4 Ørken G5 2T G8 2M | H3 2:1U H7 9K H8 12L; every other hex is sea.
MAILS += [
    Mail(
        "264_skibe_hej_da",
        [
            ("Hej alle sammen!", IGNORED),
            ("", IGNORED),
            ("Adgangskode: rød-264", PW_DA),
            ("Runde: 5", lit("Runde: 5")),
            ("Skib B7 C7", lit("Skib B7 C7")),
            ("Skib C7 C8", lit("Skib C7 C8")),
            ("Hus C8 D7 D8", lit("Hus C8 D7 D8")),
            ("", IGNORED),
            ("Mvh Peter", IGNORED),
        ],
        **SEA,
    ),
    Mail(
        "265_flyt_skib_da",
        [
            ("adgangskode: blå-265", PW_DA),
            ("Flyt skib B7 C7 til C7 C8", lit("Flyt skib B7 C7 til C7 C8")),
            ("vej E5 E6", lit("Vej E5 E6 (4M 3K)")),
        ],
        **SEA,
    ),
    Mail(
        "266_flyt_skibet_telefon_da",
        [
            ("adgangskode: gul-266", PW_DA),
            ("flyt skibet fra C7 C8 til C8 D7", lit("Flyt skib C7 C8 til C8 D7")),
            ("skib c8 d8", lit("Skib C8 D8")),
            ("", IGNORED),
            ("Sendt fra min iPhone", IGNORED),
        ],
        **SEA,
    ),
    Mail(
        "267_soeroever_ved_syv_da",
        [
            ("Adgangskode: hvid-267", PW_DA),
            ("Ved en 7: Sørøver D6", lit("Sørøver D6")),
            ("Røver E4, røv rød", lit("Røver E4 (11U), røv rød")),
            ("Aflever: K K U", lit("Aflever: 2K 1U")),
        ],
        **SEA,
    ),
    Mail(
        "268_soeroever_ascii_da",
        [
            ("adgangskode: roed-268", PW_DA),
            ("skib b4 c4", lit("Skib B4 C4")),
            ("soroever f8", lit("Sørøver F8")),
        ],
        **SEA,
    ),
    Mail(
        "269_soeroever_paa_land_da",
        [
            ("Adgangskode: blå-269", PW_DA),
            ("Sørøver D5", refused("sea hex")),
            ("Skib B4 C4", lit("Skib B4 C4")),
        ],
        **SEA,
    ),
    Mail(
        "270_guld_da",
        [
            ("Adgangskode: gul-270", PW_DA),
            ("Guld: malm, korn", lit("Guld: Malm, Korn")),
            ("Hus C9 D8 D9", lit("Hus C9 D8 D9")),
        ],
        **SEA,
    ),
    Mail(
        "271_guld_ascii_og_bogstaver_da",
        [
            ("adgangskode: hvid-271", PW_DA),
            ("guld: trae og uld", lit("Guld: Træ, Uld")),
            ("guld: M", refused("one gold")),
        ],
        **SEA,
    ),
    Mail(
        "272_ridder_soeroever_da",
        [
            ("Adgangskode: rød-272", PW_DA),
            ("Ridder før slag: Sørøver F7", lit("Ridder før slag: Sørøver F7")),
            ("spil ridder efter slag: sørøver D6", refused()),
        ],
        **SEA,
    ),
    Mail(
        "273_vejbygning_skib_og_vej_da",
        [
            ("Adgangskode: blå-273", PW_DA),
            ("Vejbygning: Vej C4 D4, Skib B4 C4", lit("Vejbygning: Vej C4 D4 (9L 5M), Skib B4 C4")),
        ],
        **SEA,
    ),
    Mail(
        "274_vejbygning_og_da",
        [
            ("adgangskode: gul-274", PW_DA),
            (
                "vejbygning: skib B4 C4 og vej C4 D4",
                lit("Vejbygning: Skib B4 C4, Vej C4 D4 (9L 5M)"),
            ),
            ("køb et udviklingskort", BUY_DA),
        ],
        **SEA,
    ),
    Mail(
        "275_skib_eller_skib_da",
        [
            ("Adgangskode: hvid-275", PW_DA),
            ("Skib B7 C7 eller Skib C7 C8", lit("Skib B7 C7 eller Skib C7 C8")),
            ("Erstatning:", SUB_DA),
            ("Skib C8 D7", lit("Skib C8 D7")),
        ],
        **SEA,
    ),
    Mail(
        "276_skib_ved_tal_og_hav_da",
        [
            ("Adgangskode: rød-276", PW_DA),
            # Two hexes 12L (C3, H8): the sea sides of both are the candidates.
            (
                "Skib 12L Hav",
                ambiguous("B2 C3", "B3 C3", "C2 C3", "G9 H8", "H8 H9", "H8 I8", "H8 I9"),
            ),
            ("Skib 10U Hav", ambiguous("D8 E9", "E8 E9", "E9 E10", "E9 F8")),
        ],
        **SEA,
    ),
    Mail(
        "277_gmail_svar_sea_da",
        [
            ("Hej,", IGNORED),
            ("", IGNORED),
            ("Adgangskode: blå-277", PW_DA),
            ("Skib B4 C4", lit("Skib B4 C4")),
            ("Sørøver D6", lit("Sørøver D6")),
            ("", IGNORED),
            ("Hilsen Mette", IGNORED),
            ("", IGNORED),
            ("Den man. 5. jan. 2026 kl. 10.12 skrev pbm <pbm@pbm.test>:", IGNORED),
            ("> Ordreformular til runde 5:", IGNORED),
            ("> # Skib <strækning>", IGNORED),
            ("> # Flyt skib <strækning> til <strækning>", IGNORED),
        ],
        **SEA,
    ),
    Mail(
        "278_opstilling_hus_og_skib_da",
        [
            ("Adgangskode: gul-278", PW_DA),
            ("Hus C8 D7 D8 Skib C8 D7", lit("Hus C8 D7 D8 Skib C8 D7")),
            (
                "eller Hus D4 D5 E5 (5M 8L 4M) Vej D4 E5",
                lit("Hus D4 D5 E5 (5M 8L 4M) Vej D4 E5 (5M 4M)"),
            ),
        ],
        phase="setup",
        **SEA,
    ),
]

# -- Kronlande: the large island, 4 players, seed 3 -------------------------------------------
#   A1 10F (fishing ground) | B2 8M B3 3U B4 Ørken B5 5F | C2 10U C3 2L C4 11L C5 6T
#   D2 9M D3 Ørken D4 6L D5 3S D6 2K | E2 12S E3 8U E4 10U E5 5K E6 6K E7 5T
#   F2 11U F3 4T F4 12L F5 9M F6 5K F7 6F | G1 9F G2 4K G3 11T G4 3S G5 4T | H2 8M H3 10M H4 9L
MAILS += [
    Mail(
        "279_smedje_og_fremstil_da",
        [
            ("Hej,", IGNORED),
            ("Adgangskode: rød-279", PW_DA),
            ("Smedje 8M 3U 2L", lit("Smedje B2 B3 C3 (8M 3U 2L)")),
            ("Fremstil 1 værktøj", lit("Fremstil 1 Værktøj")),
            ("Mvh Lars", IGNORED),
        ],
        **KRON,
    ),
    Mail(
        "280_vaeveri_paa_mit_hus_da",
        [
            ("adgangskode: blå-280", PW_DA),
            ("Væveri på mit hus 8M 3U 2L", lit("Væveri B2 B3 C3 (8M 3U 2L)")),
            ("fremstil to stof", lit("Fremstil 2 Stof")),
        ],
        **KRON,
    ),
    Mail(
        "281_byg_et_bageri_da",
        [
            ("adgangskode: gul-281", PW_DA),
            ("byg et bageri ved byen C4 C5 D5", lit("Bageri C4 C5 D5 (11L 6T 3S)")),
            ("fremstil: 1Br", lit("Fremstil 1 Brød")),
        ],
        **KRON,
    ),
    Mail(
        "282_vaeveri_ascii_da",
        [
            ("adgangskode: hvid-282", PW_DA),
            ("vaeveri 11L 6T 3S", lit("Væveri C4 C5 D5 (11L 6T 3S)")),
            ("fremstil 2 vaerktoej", lit("Fremstil 2 Værktøj")),
            ("baageri 8M 3U 2L", refused()),
        ],
        **KRON,
    ),
    Mail(
        "283_borg_og_residens_da",
        [
            ("Adgangskode: rød-283", PW_DA),
            ("Borg ved byen C4 C5 D5", lit("Borg C4 C5 D5 (11L 6T 3S)")),
            ("Residens på borgen B1 B2 C2", lit("Residens B1 B2 C2 (U-Havn 8M 10U)")),
        ],
        **KRON,
    ),
    Mail(
        "284_bygmesterhytte_da",
        [
            ("adgangskode: blå-284", PW_DA),
            ("spil bygmesterhytte", lit("Bygmesterhytte")),
            ("Borg 12L 9M 3S", lit("Borg F4 F5 G4 (12L 9M 3S)")),
        ],
        **KRON,
    ),
    Mail(
        "285_havneprivilegium_da",
        [
            ("Adgangskode: gul-285", PW_DA),
            ("Havneprivilegium", lit("Havneprivilegium")),
            ("Søhandel 2S for 1M", lit("Søhandel 2S for 1M")),
        ],
        **KRON,
    ),
    Mail(
        "286_gilde_da",
        [
            ("Adgangskode: hvid-286", PW_DA),
            ("Gilde: brød", lit("Gilde Brød")),
            ("(alle giver mig et brød, ikke?)", NOISE),
        ],
        **KRON,
    ),
    Mail(
        "287_handel_med_varer_da",
        [
            ("Adgangskode: rød-287", PW_DA),
            ("Handel blå: giv 1Vk, få 2S", lit("Handel blå: giv 1Vk, få 2S")),
            ("Handel gul: giv 1St 1Br, få 2F", lit("Handel gul: giv 1St 1Br, få 2F")),
            ("handel hvid: giv et værktøj, få to sten", lit("Handel hvid: giv 1Vk, få 2S")),
        ],
        **KRON,
    ),
    Mail(
        "288_aflever_sten_fisk_da",
        [
            ("Adgangskode: blå-288", PW_DA),
            ("Røver D5, røv gul", lit("Røver D5 (3S), røv gul")),
            ("Aflever: S S F", lit("Aflever: 2S 1F")),
        ],
        **KRON,
    ),
    Mail(
        "289_monopol_og_fund_kron_da",
        [
            ("Adgangskode: gul-289", PW_DA),
            ("Monopol sten", lit("Monopol Sten")),
            ("Fund: fisk og sten", lit("Fund 1F 1S")),
        ],
        **KRON,
    ),
    Mail(
        "290_fremstil_flere_da",
        [
            ("Adgangskode: hvid-290", PW_DA),
            ("Fremstil 2 brød, 1 værktøj", lit("Fremstil 2 Brød; Fremstil 1 Værktøj")),
        ],
        **KRON,
    ),
    Mail(
        "291_tyske_varebogstaver_da",
        [
            ("Adgangskode: rød-291", PW_DA),
            ("Handel blå: giv 1Wz, få 1S", refused()),
            ("Handel gul: giv 1To, få 1F", refused()),
        ],
        **KRON,
    ),
    Mail(
        "292_kron_slaafejl_da",
        [
            ("Adgangskode: blå-292", PW_DA),
            ("smedie 8M 3U 2L", refused("did you mean 'Smedje'")),
            ("recidens C4 C5 D5", refused("did you mean 'Residens'")),
        ],
        **KRON,
    ),
    Mail(
        "293_kron_telefon_da",
        [
            ("adgangskode gul-293", PW_DA),
            (
                "smedje paa min by 8m 3u 2l og borg 11l 6t 3s",
                lit("Smedje B2 B3 C3 (8M 3U 2L); Borg C4 C5 D5 (11L 6T 3S)"),
            ),
            ("gilde sten", lit("Gilde Sten")),
            ("", IGNORED),
            ("Sendt fra min Samsung Galaxy-smartphone.", IGNORED),
        ],
        **KRON,
    ),
    Mail(
        "294_kron_erstatning_da",
        [
            ("Adgangskode: hvid-294", PW_DA),
            ("Residens C4 C5 D5", lit("Residens C4 C5 D5 (11L 6T 3S)")),
            ("Hvis det ikke går:", SUB_DA),
            ("Borg C4 C5 D5", lit("Borg C4 C5 D5 (11L 6T 3S)")),
        ],
        **KRON,
    ),
]

# -- The base island of seed 1 (4 players): as Danish players write on phones and desktops ----
#   B2 11T B3 12M B4 9T | C2 4T C3 6L C4 5L C5 10K | D2 8T D3 3M D4 11K D5 4K D6 8U
#   E2 10U E3 Ørken E4 9L E5 3U | F2 5M F3 2K F4 6U (see make_corpus.py for the harbours)
MAILS += [
    Mail(
        "295_gmail_svar_da",
        [
            ("Hej Søren", IGNORED),
            ("", IGNORED),
            ("Her er mine træk til runde 4:", lit("Runde: 4")),
            ("", IGNORED),
            ("adgangskode: rød-295", PW_DA),
            ("byg en vej 8t 3m", road("D2 D3")),
            ("og byg så et hus 4t 8t 3m", settle("C2 D2 D3")),
            ("", IGNORED),
            ("Mvh", IGNORED),
            ("Søren", IGNORED),
            ("", IGNORED),
            ("Den tirs. 6. jan. 2026 kl. 09.14 skrev pbm <pbm@pbm.test>:", IGNORED),
            ("> Runde 4 begynder.", IGNORED),
            ("> Send dine ordrer (med din adgangskode og en røverordre).", IGNORED),
        ],
        lang="da",
    ),
    Mail(
        "296_outlook_oprindelig_meddelelse_da",
        [
            ("Adgangskode: blå-296", PW_DA),
            ("Vej 10U 8T", road("D2 E2")),
            ("Røver 9L, røv gul", robber("E4", "gelb")),
            ("", IGNORED),
            ("Venlig hilsen", IGNORED),
            ("Jens Hansen", NOISE),
            ("", IGNORED),
            ("-----Oprindelig meddelelse-----", IGNORED),
            ("Fra: pbm <pbm@pbm.test>", IGNORED),
            ("Sendt: 6. januar 2026 09:14", IGNORED),
            ("Til: jens@firma.test", IGNORED),
            ("Emne: [alpha] Rapport runde 3", IGNORED),
            ("", IGNORED),
            ("Hus C2 D2 D3 (4T 8T 3M)", IGNORED),
        ],
        lang="da",
    ),
    Mail(
        "297_outlook_fra_sendt_da",
        [
            ("Adgangskode: gul-297", PW_DA),
            ("Udviklingskort", BUY_DA),
            ("", IGNORED),
            ("Fra: pbm <pbm@pbm.test>", IGNORED),
            ("Sendt: tirsdag den 6. januar 2026 09:14", IGNORED),
            ("Til: gul <mette@firma.test>", IGNORED),
            ("Emne: [alpha] Runde 4 begynder", IGNORED),
            ("", IGNORED),
            ("Vej D2 D3", IGNORED),
        ],
        lang="da",
    ),
    Mail(
        "298_telefon_smaa_bogstaver_da",
        [
            ("adgangskode hvid-298", PW_DA),
            ("roever 12m roev blaa", robber("B3", "blau")),
            ("soehandel 4 uld til 1 malm", lit("Søhandel 4U for 1M")),
            ("vej 8t 3m", road("D2 D3")),
            ("", IGNORED),
            ("Sendt fra min iPhone", IGNORED),
        ],
        lang="da",
    ),
    Mail(
        "299_signatur_streg_da",
        [
            ("Adgangskode: rød-299", PW_DA),
            ("By 4T 8T 3M", city("C2 D2 D3")),
            ("", IGNORED),
            ("-- ", IGNORED),
            ("Morten Nielsen", IGNORED),
            ("Tlf. 12 34 56 78", IGNORED),
        ],
        lang="da",
    ),
    Mail(
        "300_slaafejl_da",
        [
            ("Adgangskode: blå-300", PW_DA),
            ("veij 8t 3m", refused("did you mean 'Vej'")),
            ("huss 4t 8t 3m", refused("did you mean 'Hus'")),
            ("Udviklingskort", BUY_DA),
        ],
        lang="da",
    ),
    Mail(
        "301_jeg_bygger_da",
        [
            ("Adgangskode: gul-301", PW_DA),
            ("Jeg bygger en vej 10u 8t", road("D2 E2")),
            ("jeg vil gerne bygge et hus 4t 8t 3m", settle("C2 D2 D3")),
            ("og købe et udviklingskort", BUY_DA),
        ],
        lang="da",
    ),
    Mail(
        "302_spil_kort_da",
        [
            ("Adgangskode: hvid-302", PW_DA),
            (
                "spil ridder før slag: røver 9l, røv rød",
                lit("Ridder før slag: Røver E4 (9L), røv rød"),
            ),
            ("spil monopol: uld", lit("Monopol Uld")),
        ],
        lang="da",
    ),
    Mail(
        "303_nummereret_liste_da",
        [
            ("Adgangskode: rød-303", PW_DA),
            ("1. vej 8t 3m", road("D2 D3")),
            ("2) hus 4t 8t 3m", settle("C2 D2 D3")),
            ("3. udviklingskort", BUY_DA),
        ],
        lang="da",
    ),
    Mail(
        "304_punktliste_da",
        [
            ("Adgangskode: blå-304", PW_DA),
            ("- vej 10u 8t", road("D2 E2")),
            ("* by på mit hus 4t 8t 3m", city("C2 D2 D3")),
        ],
        lang="da",
    ),
    Mail(
        "305_handel_med_da",
        [
            ("Adgangskode: gul-305", PW_DA),
            ("handel med blå: giv 2 uld, få 1 malm", lit("Handel blå: giv 2U, få 1M")),
            ("handel rød: jeg giver 2K og får 1T", lit("Handel rød: giv 2K, få 1T")),
        ],
        lang="da",
    ),
    Mail(
        "306_kasser_og_smid_da",
        [
            ("Adgangskode: hvid-306", PW_DA),
            ("kassér: 2 korn, 1 uld", lit("Aflever: 2K 1U")),
            ("smid 2K 1U", refused("only one discard")),
        ],
        lang="da",
    ),
    Mail(
        "307_staar_over_da",
        [
            ("Hej alle", IGNORED),
            ("Adgangskode: rød-307", PW_DA),
            ("Jeg står over denne runde", PASS_DA),
            ("Mvh Ole", IGNORED),
        ],
        lang="da",
    ),
    Mail(
        "308_hvis_det_ikke_gaar_da",
        [
            ("Adgangskode: blå-308", PW_DA),
            ("By 4T 8T 3M", city("C2 D2 D3")),
            ("Hvis det ikke går:", SUB_DA),
            ("Vej 10U 8T", road("D2 E2")),
        ],
        lang="da",
    ),
    Mail(
        "309_hvis_ikke_da",
        [
            ("Adgangskode: gul-309", PW_DA),
            ("Hus 4T 8T 3M", settle("C2 D2 D3")),
            ("Hvis ikke:", SUB_DA),
            ("Udviklingskort", BUY_DA),
        ],
        lang="da",
    ),
    Mail(
        "310_vejbygning_og_da",
        [
            ("Adgangskode: hvid-310", PW_DA),
            ("vejbygning: 8t 3m og 10u 8t", lit("Vejbygning: D2 D3 (8T 3M), D2 E2 (8T 10U)")),
            ("vej mellem 8t og 3m", road("D2 D3")),
        ],
        lang="da",
    ),
    Mail(
        "311_smedje_i_grundspil_da",
        [
            ("Adgangskode: rød-311", PW_DA),
            ("Smedje 4T 8T 3M", refused("Kronlande")),
            ("Vej 8T 3M", road("D2 D3")),
        ],
        lang="da",
    ),
    Mail(
        "312_apple_mail_citat_da",
        [
            ("Adgangskode: blå-312", PW_DA),
            ("Søhandel 4K for 1M", lit("Søhandel 4K for 1M")),
            ("By 4T 8T 3M", city("C2 D2 D3")),
            ("", IGNORED),
            ("Hilsen Anne", IGNORED),
            ("", IGNORED),
            ("> Den 6. jan. 2026 kl. 09.14 skrev pbm <pbm@pbm.test>:", IGNORED),
            (">", IGNORED),
            ("> Ordreformular til runde 4:", IGNORED),
            ("> # Hus <kryds>", IGNORED),
        ],
        lang="da",
    ),
]
