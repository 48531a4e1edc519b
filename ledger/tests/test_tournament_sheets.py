"""The tournament's sheets (issue 21 part 5, ``tournament.md`` section 12): a round table's
sheet to sign, a round's result, the ranking (PDF, CSV, XLSX), read back as a reader meets
them (pypdf, openpyxl, csv), with the exact figures of the spec's example ``01_sl12_dp``
played through real tables of the tournament's evening. The first page of each PDF is saved
as a PNG under ``test-artifacts/treasury/`` to be looked at.
"""

from __future__ import annotations

import csv
import datetime
import io
import random
import re

import openpyxl
import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ledger import reports, services
from ledger.models import Round, RoundTable
from ledger.services import tournaments as tour
from ledger.tests.factories import PASSWORD, make_club, make_member, make_tournament
from ledger.tests.helpers import (
    client_for,
    first_hand_again,
    pdf_text,
    random_hand_at,
    save_first_page,
    score_table,
    seat_behind_the_draw,
    seen_text,
    settle_zero_sum,
)
from ledger.tests.tournaments.helpers import example

pytestmark = pytest.mark.django_db

A4 = (595.28, 841.89)
A4_LANDSCAPE = (841.89, 595.28)


def page_size(reader, index=0) -> tuple[float, float]:
    box = reader.pages[index].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


def flat(text: str) -> str:
    """Return the text as one line: a word the page hyphenated joined again, runs of white
    space as one space (a table's cell may wrap)."""
    return " ".join(re.sub("\u2010\n", "", text).split())


def play(t, rounds, settle) -> list[Round]:
    """Draw, publish, start and close each of ``rounds`` (the example's), each table's scores
    given by ``settle``; return the closed rounds."""
    played = []
    for given in rounds:
        r = tour.round_draw(tournament=t)
        tour.round_publish(round_=r)
        r = tour.round_start(round_=r)
        for rt in r.round_tables.select_related("table", "round__tournament"):
            settle(rt, given["results"])
        played.append(tour.round_close(round_=r))
    return played


def dp_tournament():
    """Return example 01's tournament (12 players, ``sl_dp``) entered, no round drawn, and
    the example's rounds."""
    data = example("01_sl12_dp")
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    t = tour.tournament_create(
        club=club,
        name="DP Kranj",
        date=datetime.date(2026, 12, 5),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params=data["params"],
        seed=data["seed"],
    )
    lines = "\n".join(f"{e['id']},Kranj,{e['ladder_rank']},{e['id']}" for e in data["entries"])
    tour.entries_import(tournament=t, text="name,club,rank,id\n" + lines)
    return t, data["rounds"]


@pytest.fixture
def dp():
    """Example 01 (12 players, three rounds of ``sl_dp``) played through the ledger."""
    t, given = dp_tournament()
    rounds = play(t, given, score_table)
    t.refresh_from_db()
    return t, rounds


def sheet_pdf(round_, number):
    rt = RoundTable.objects.select_related("table").get(round=round_, number=number)
    return reports.round_table_sheet_pdf(round_=round_, round_table=rt, number=number)


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_table_sheet_of_a_round_table(dp):
    """Round 1, table 4 of the example: the tournament, round, table and game, the start and
    end, why it ended and the hands against the target; each player in seat order with his
    table score before the split (named), place and points (Dana and Franc share the first
    place: 3/2 each, Lara 1/2) over a line to sign; the postings as the ordinary sheet shows
    them, on one A4 page."""
    t, rounds = dp
    with translation.override("en"):
        name, content_type, content = sheet_pdf(rounds[0], 4)
    assert (name, content_type) == (f"table-kranj-{t.pk}-1-4.pdf", "application/pdf")
    reader, text = pdf_text(content)
    assert len(reader.pages) == 1 and page_size(reader) == A4
    assert reader.metadata is not None
    assert reader.metadata.title == "DP Kranj: round 1, table 4 · Tarok Kranj"
    assert "Dec. 5, 2026 · Slovenian Tarok · Round 1 · Table 4" in text
    assert re.search(
        r"Played from \d\d:\d\d to \d\d:\d\d · ended by: the director, before the time · "
        r"0 of 21 hands",
        flat(text),
    )
    sheet = seen_text(content)[1]  # the ordinary sheet, its layers read as they are seen
    assert "Adjustment +80 80" in sheet and "Total +40 +50 -90 0" in sheet
    assert "Seat Player Club Table score (before the split) Place Points Signature" in text
    assert "1 Dana Kranj +80 1 1.50\n2 Franc Kranj +80 1 1.50\n3 Lara Kranj -60 3 0.50" in text
    save_first_page(content, "tournament-table-sheet-en")
    for language, words in (
        ("sl", ["1. krog · Miza 4", "Rezultat mize (pred delitvijo) Mesto Točke Podpis"]),
        ("da", ["Runde 1 · Bord 4", "Bordets score (før delingen) Placering Point Underskrift"]),
    ):
        with translation.override(language):
            _, _, content = sheet_pdf(rounds[0], 4)
        text = flat(pdf_text(content)[1])
        assert all(word in text for word in words), (language, text)
        assert "1 Dana Kranj +80 1 1,50" in text
        save_first_page(content, f"tournament-table-sheet-{language}")


@pytest.fixture
def six():
    """A Slovenian DP of six players (two tables of three) with round 1 started."""
    club = make_club(slug="bled", name="Tarok Bled", game="slovenian_tarok")
    t = make_tournament(
        club,
        ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc"],
        name="Odprti turnir",
        params={"rounds": 2},
        seed="B6",
        players_club="Bled",
    )
    r = tour.round_draw(tournament=t)
    tour.round_publish(round_=r)
    return t, tour.round_start(round_=r)


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_table_sheet_marks_a_substitute_and_a_leaver_and_lists_the_corrections(six):
    """A table where a substitute sat down after hand 2 and a drawn player left after hand 3:
    every hand is on the sheet, the one begun before the signal named; the leaver takes the
    last place (1/2), the substitute's row says his result counts for no one and has no place
    or points, and he signs too. A correction made at the other table after the round closed
    is on that table's sheet with its reason, not on this one."""
    t, r = six
    by_number = {rt.number: rt for rt in r.round_tables.select_related("table__evening")}
    table = by_number[1].table
    rng = random.Random(3)
    for _ in range(2):
        random_hand_at(table, rng)
    seat_behind_the_draw(table, make_member(t.club, "Zala"))
    random_hand_at(table, rng)
    leaver = t.entries.get(code=by_number[1].seats[1])
    services.table_leave(table=table, member=leaver.member)
    other = random_hand_at(by_number[2].table, rng)
    r = tour.round_close(round_=r)
    tour.tournament_hand_correct(
        hand=other,
        record=first_hand_again(by_number[2].table, random.Random(9)),
        reason="count misread",
    )
    r = Round.objects.select_related("tournament__club").get(pk=r.pk)
    # Hand 3 as the scorekeeper marks it begun before the signal (section 10).
    RoundTable.objects.filter(pk=by_number[1].pk).update(signal_hand=3)
    result = RoundTable.objects.get(pk=by_number[1].pk).results[leaver.code]
    assert (result["place"], result["points"], result["left"]) == (3, "1/2", True)
    with translation.override("en"):
        _, _, content = sheet_pdf(r, 1)
        _, _, other_sheet = sheet_pdf(r, 2)
    reader, text = pdf_text(content)
    assert len(reader.pages) == 1
    assert "3 of 21 hands · hand 3 begun before the signal" in flat(text)
    sheet = seen_text(content)[1]  # the score sheet's layers read as they are seen
    hands = re.findall(r"^([1-3]) (?:Ana|Bor|Cene|Dana|Eva|Franc) ", sheet, re.M)
    assert hands[:3] == ["1", "2", "3"]  # each hand's row: its number and dealer
    flat_text = flat(text)
    left = rf"2 {leaver.name} left the table: the last place Bled [+-]\d+ 3 0\.50"
    assert re.search(left, flat_text)
    substitute = r"4 Zala substitute from hand 3: his result counts for no one -?\d+ –"
    assert re.search(substitute, flat_text)
    assert "count misread" not in text
    _, text = pdf_text(other_sheet)
    assert "Corrections after the round closed" in text
    assert "Round 1, table 2, hand 1: count misread" in text
    save_first_page(content, "tournament-table-sheet-substitute-en")


def test_the_round_result_shows_the_standings_after_its_round(dp):
    """Round 1's result, printed after round 3 closed: every table's scores, places and
    points, and the standings after round 1 (one round's column, the order of the example's
    round 2: Ivo, Ana, Gal by score sum, Dana before Franc by the lot), the lot named."""
    t, rounds = dp
    with translation.override("en"):
        name, _, content = reports.tournament_round_result_pdf(round_=rounds[0])
    assert name == f"round-kranj-{t.pk}-1.pdf"
    reader, text = pdf_text(content)
    assert page_size(reader) == A4
    assert "Dec. 5, 2026 · Slovenian Tarok · drawn in seeded groups · provisional" in text
    assert "Table 1 · 0 of 21 hands · ended by: the director, before the time" in flat(text)
    assert "1 Ana +150 1 2.00\n2 Eva -40 3 0.50\n3 Jana +60 2 1.00" in text
    assert "1 Dana +80 1 1.50\n2 Franc +80 1 1.50\n3 Lara -60 3 0.50" in text
    assert "Standings after round 1" in text
    assert "# Player Club R1 Points Score sum Firsts Rounds Byes Status" in text
    assert "R2" not in text
    order = re.findall(r"^(\d+) (\w+) Kranj (\d\.\d\d) \3 (-?\d+) (\d) 1 0$", text, re.M)
    assert [(int(rank), name) for rank, name, *_ in order] == list(
        enumerate(
            [
                "Ivo",
                "Ana",
                "Gal",
                "Dana",
                "Franc",
                "Jana",
                "Bor",
                "Hana",
                "Cene",
                "Eva",
                "Lara",
                "Klemen",
            ],
            1,
        )
    )
    assert order[3] == ("4", "Dana", "1.50", "80", "1")
    flat_text = flat(text)
    assert "The table score is each player's balance before the split." in flat_text
    assert "ties broken by score sum, firsts, the lot; seed SL12-2025-03-01" in flat_text
    assert (
        "Places 4 and 5: Dana and Franc are equal on every criterion but the lot; the lot "
        "decided (3335… before fb16…)." in flat_text
    )
    save_first_page(content, "tournament-round-result-en")
    with translation.override("sl"):
        _, _, content = reports.tournament_round_result_pdf(round_=rounds[0])
    _, text = pdf_text(content)
    assert "Lestvica po 1. krogu" in text and "1 Dana +80 1 1,50" in text
    save_first_page(content, "tournament-round-result-sl")
    with translation.override("da"):
        _, _, content = reports.tournament_round_result_pdf(round_=rounds[2])
    _, text = pdf_text(content)
    assert "Stilling efter runde 3" in text
    assert "Pladserne 6 og 7: Eva og Hana" in flat(text)
    save_first_page(content, "tournament-round-result-da")


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_ranking_pdf_has_every_column_and_the_lot(dp):
    """The provisional ranking of the example: ladder rank, the points of each round and the
    total, the tie-breaks in the format's order (score sum, firsts), rounds, byes; the
    format, tie-break order and seed; Eva before Hana by the lot; "provisional" until final,
    then the final ranking with the corrections made after the correction period."""
    t, rounds = dp
    with translation.override("en"):
        _, _, content = reports.tournament_ranking_pdf(tournament=t)
    reader, text = pdf_text(content)
    assert reader.metadata is not None
    assert reader.metadata.title is not None
    assert reader.metadata.title.startswith("Provisional ranking: DP Kranj")
    assert "Dec. 5, 2026 · Slovenian Tarok · provisional" in text
    assert "# Player Club Ladder rank R1 R2 R3 Points Score sum Firsts Rounds Byes Status" in text
    assert "1 Ivo Kranj 9 2.00 1.00 2.00 5.00 320 2 3 0" in text
    assert "11 Cene Kranj 3 0.50 0.75 1.00 2.25 40 0 3 0" in text
    assert "12 Lara Kranj 12 0.50 0.75 0.50 1.75 -30 0 3 0" in text
    flat_text = flat(text)
    rules = "Format Slovenian championship (DP); ties broken by score sum, firsts, the lot"
    assert rules in flat_text
    assert "Places 6 and 7: Eva and Hana are equal on every criterion but the lot" in flat_text
    assert "Places 4 and 5" not in flat_text  # Dana and Franc are apart after three rounds
    save_first_page(content, "tournament-ranking-en")

    tour.tournament_finish(tournament=t)
    t.refresh_from_db()
    with translation.override("sl"):
        _, _, content = reports.tournament_ranking_pdf(tournament=t)
    reader, text = pdf_text(content)
    assert reader.metadata is not None
    assert reader.metadata.title is not None
    assert reader.metadata.title.startswith("Končna razvrstitev: DP Kranj")
    assert "začasno" not in text
    assert "1 Ivo Kranj 9 2,00 1,00 2,00 5,00 320 2 3 0" in text
    save_first_page(content, "tournament-ranking-sl")


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_ranking_lists_the_corrections_made_after_the_correction_period(six):
    """A round-1 hand corrected before round 2 starts is within the period: not on the
    ranking; corrected again once round 2 has started, by the director's override, it is
    listed with its reason and the override's."""
    t, r = six
    table = r.round_tables.select_related("table__evening").get(number=1).table
    hand = random_hand_at(table, random.Random(5))
    tour.round_close(round_=r)
    tour.tournament_hand_correct(
        hand=hand, record=first_hand_again(table, random.Random(6)), reason="within"
    )
    r2 = tour.round_draw(tournament=t)
    tour.round_publish(round_=r2)
    tour.round_start(round_=r2)
    tour.tournament_hand_correct(
        hand=hand,
        record=first_hand_again(table, random.Random(7)),
        reason="dealer misread",
        override=True,
        override_reason="the sheet was signed wrong",
    )
    with translation.override("en"):
        _, _, content = reports.tournament_ranking_pdf(tournament=t)
    flat_text = flat(pdf_text(content)[1])
    assert (
        "Round 1, table 1, hand 1: dealer misread · after the correction period, by the "
        "director's override: the sheet was signed wrong" in flat_text
    )
    assert "within" not in flat_text


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_hu_kupa_ranking_shows_the_final_group_and_score():
    """Example 04 (Hungarian cup, a bye each round, the final) through the ledger: the
    ranking has the two preliminary rounds' columns, the final's group and score, the
    tie-breaks of a sum format (firsts, best round), on landscape A4."""
    data = example("04_hu11_byes")
    club = make_club(slug="eger", name="Egri Tarokk Klub", game="hungarian_tarokk")
    t = tour.tournament_create(
        club=club,
        name="Kupa",
        date=datetime.date(2026, 12, 5),
        game=data["game"],
        tournament_format=data["tournament_format"],
        params=data.get("params"),
        seed=data["seed"],
    )
    lines = [f"{e['id']},Eger,,{e['id']}" for e in data["entries"]]
    tour.entries_import(tournament=t, text="\n".join(lines))
    play(t, data["rounds"], settle_zero_sum)
    t.refresh_from_db()
    with translation.override("en"):
        _, _, content = reports.tournament_ranking_pdf(tournament=t)
    reader, text = pdf_text(content)
    assert page_size(reader) == A4_LANDSCAPE
    flat_text = flat(text)
    assert (
        "# Player Club R1 R2 Points Final group Final score Firsts Best round Rounds Byes Status"
        in flat_text
    )
    assert "1 Kata Eger 6.00 -6.00 0.00 1 6 1 6 2 0" in flat_text
    assert "5 Judit Eger 0.00 12.00 12.00 1 -8 1 12 1 1" in flat_text
    assert "11 Dóra Eger -1.00 -7.00 -8.00 0 -1 2 0" in flat_text  # the final's bye: no group
    assert "ties broken by firsts, best round, the lot" in flat_text
    save_first_page(content, "tournament-ranking-hu-kupa-en")
    with translation.override("hu"):
        _, _, content = reports.tournament_ranking_pdf(tournament=t)
    save_first_page(content, "tournament-ranking-hu-kupa-hu")
    text = flat(pdf_text(content)[1])
    assert "Döntőcsoport" in text and "1 Kata Eger 6,00 -6,00 0,00 1 6 1 6 2 0" in text
    save_first_page(content, "tournament-ranking-hu-kupa-hu")


@pytest.fixture
def wide():
    """A Hungarian cup of 13 with long names and a long club name, four preliminary rounds and
    the final played (random zero-sum scores), one player withdrawn after round 2."""
    club = make_club(slug="eger", name="Egri Tarokk Klub", game="hungarian_tarokk")
    t = tour.tournament_create(
        club=club,
        name="Országos Tarokkverseny Szilvásvárad",
        date=datetime.date(2026, 12, 5),
        game="hungarian_tarokk",
        tournament_format="hu_kupa",
        seed="W",
    )
    names = [
        "Szentgyörgyvölgyi Bálint",
        "Kovács-Nagy Erzsébet",
        "Ana",
        "Bob",
        "Cecília Magdolna",
        "Dénes",
        "Erik",
        "Ferenc",
        "Gizella",
        "Huba",
        "Ilona",
        "János",
        "Károly",
    ]
    tour.entries_import(
        tournament=t,
        text="\n".join(f"{n},Egri Gibás Imre Tarokk Klub,{i}" for i, n in enumerate(names, 1)),
    )
    rng = random.Random(1)
    for number in range(1, 6):
        r = tour.round_draw(tournament=t)
        tour.round_publish(round_=r)
        r = tour.round_start(round_=r)
        for rt in r.round_tables.select_related("table", "round__tournament"):
            scores = [rng.randint(-150, 150) for _ in rt.seats[:-1]]
            settle_zero_sum(rt, dict(zip(rt.seats, [*scores, -sum(scores)], strict=True)))
        tour.round_close(round_=r)
        if number == 2:
            tour.entry_withdraw(entry=t.entries.get(name="Huba"))
    t.refresh_from_db()
    return t


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_a_wide_ranking_stays_on_landscape_a4_in_smaller_type(wide):
    """The widest ranking (rank, name, club, ladder rank, four rounds, the total, the final's
    group and score, two tie-breaks, rounds, byes, status: 18 columns) is printed on A4
    landscape in 10 pt, every column there; the withdrawn player's status is in words."""
    for language, withdrawn in (
        ("hu", "visszalépett a(z) 2. forduló után"),
        ("da", "udtrådt efter runde 2"),
    ):
        with translation.override(language):
            _, _, content = reports.tournament_ranking_pdf(tournament=wide)
            reader, text = pdf_text(content)
            assert page_size(reader) == A4_LANDSCAPE
            assert re.search(r"\d+ Huba Egri Gibás", flat(text))
            assert withdrawn in flat(text)
            save_first_page(content, f"tournament-ranking-wide-{language}")
            _, _, content = reports.tournament_round_result_pdf(round_=wide.rounds.get(number=4))
            save_first_page(content, f"tournament-round-result-wide-{language}")


# --- the ranking's exports ------------------------------------------------------------------


def test_the_ranking_exports_carry_the_pdfs_columns_as_numbers_and_formula_safe(dp, client):
    """CSV and XLSX of the standings have the PDF's columns in its order (ladder rank, a
    column per round, the total, the tie-breaks in the format's order, rounds, byes, status
    in words); XLSX keeps the points as numbers; a club name that starts a formula comes
    back quoted."""
    t, _rounds = dp
    # Lara as one who left her table in round 3 is stored (round_close withdraws a leaver).
    t.entries.filter(name="Lara").update(withdrawn_after=3)
    t.entries.filter(name="Ivo").update(club_name="=1+2")
    make_member(t.club, "Mia", login=True)
    client.login(username="kranj-mia", password=PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with translation.override("en"):
        _, _, content = reports.tournament_ranking_pdf(tournament=t)
    pdf_header = next(line for line in pdf_text(content)[1].splitlines() if line.startswith("# "))
    url = reverse("tournament_standings", kwargs={"club": "kranj", "pk": t.pk})

    response = client.get(url, {"_export": "xlsx"})
    assert response.status_code == 200
    header, *body = openpyxl.load_workbook(io.BytesIO(response.content)).active.values
    assert " ".join(header) == pdf_header
    assert header[-4:] == ("Firsts", "Rounds", "Byes", "Status")
    rows = {line[1]: dict(zip(header, line, strict=True)) for line in body}
    assert [line[1] for line in body][:3] == ["Ivo", "Jana", "Ana"]
    assert rows["Ivo"]["Club"] == "'=1+2"
    assert (rows["Ivo"]["R1"], rows["Ivo"]["Points"], rows["Ivo"]["Score sum"]) == (2, 5, 320)
    assert rows["Cene"]["R2"] == 0.75 and rows["Cene"]["Ladder rank"] == 3
    assert rows["Lara"]["Status"] == "withdrawn after round 3"

    response = client.get(url, {"_export": "csv"})
    reader = csv.reader(io.StringIO(response.content.decode("utf-8-sig")))
    header, *body = list(reader)
    assert " ".join(header) == pdf_header
    ivo = dict(zip(header, body[0], strict=True))
    assert (ivo["Club"], ivo["Points"], ivo["R2"]) == ("'=1+2", "5.00", "1.00")


# --- the pages: who reads the sheets, and where they are linked ---------------------------


def test_members_read_a_published_rounds_sheets_the_director_an_unpublished_one(six, client):
    """A member reads the result and a table's sheet of a published round; of a round whose
    draw is not published yet he gets 404, the director the draft, marked so; a table the
    draw does not have is 404."""
    t, r = six
    make_member(t.club, "Mia", login=True)
    director = client_for(make_member(t.club, "Director", role="admin", login=True).user)
    client.login(username="bled-mia", password=PASSWORD)

    def urls(round_):
        return [
            reverse("tournament_round_result_pdf", kwargs={"club": "bled", "pk": round_.pk}),
            reverse(
                "tournament_round_table_sheet_pdf",
                kwargs={"club": "bled", "pk": round_.pk, "number": 2},
            ),
        ]

    for url in urls(r):
        response = client.get(url)
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
    tour.round_close(round_=r)
    r2 = tour.round_draw(tournament=t)
    for url in urls(r2):
        assert client.get(url).status_code == 404
        response = director.get(url)
        with translation.override(response["Content-Language"]):
            draft = gettext("the draw is not published yet")
        assert draft in flat(pdf_text(response.content)[1])
    missing = reverse(
        "tournament_round_table_sheet_pdf", kwargs={"club": "bled", "pk": r.pk, "number": 3}
    )
    assert director.get(missing).status_code == 404


def test_the_ordinary_table_sheet_of_a_round_table_leads_to_its_tournament_sheet(six, client):
    """The table screen's and the round page's "table sheet" address of a round table
    answers with the round table's sheet; the round page links the round's result once it
    is closed."""
    t, r = six
    t.refresh_from_db()
    director = client_for(make_member(t.club, "Director", role="admin", login=True).user)
    rt = r.round_tables.select_related("table").get(number=2)
    ordinary = reverse(
        "table_sheet_pdf", kwargs={"club": "bled", "pk": t.evening_id, "table": rt.table_id}
    )
    response = director.get(ordinary)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "tournament_round_table_sheet_pdf", kwargs={"club": "bled", "pk": r.pk, "number": 2}
    )
    round_page = reverse("tournament_round", kwargs={"club": "bled", "pk": r.pk})
    result = reverse("tournament_round_result_pdf", kwargs={"club": "bled", "pk": r.pk})
    assert result not in director.get(round_page).content.decode()
    tour.round_close(round_=r)
    page = director.get(round_page).content.decode()
    assert f'href="{result}"' in page and f'href="{ordinary}"' in page


def test_the_round_sheets_cost_the_same_queries_after_one_round_or_three():
    """The round result and a table's sheet read a fixed number of queries: round 1's cost
    the same after round 1 as after rounds 2 and 3."""
    t, given = dp_tournament()

    def cost(render) -> int:
        with CaptureQueriesContext(connection) as captured:
            render()
        return len(captured.captured_queries)

    def sheets(first):
        r = Round.objects.select_related("tournament__club").get(pk=first.pk)
        rt = r.round_tables.select_related("table__evening__club").get(number=1)
        return (
            cost(lambda: reports.tournament_round_result_pdf(round_=r)),
            cost(lambda: reports.round_table_sheet_pdf(round_=r, round_table=rt, number=1)),
        )

    (first,) = play(t, given[:1], score_table)
    after_one = sheets(first)
    play(t, given[1:], score_table)
    assert sheets(first) == after_one


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_draw_sheet_names_its_group_column_and_keeps_its_widths(dp):
    """A draw in seeded groups: the group column has its header, and every table's columns
    stand at the same places (fixed widths, whatever the names)."""
    _t, rounds = dp
    assert rounds[0].kind == "seeded_groups"
    with translation.override("en"):
        _name, _, content = reports.tournament_draw_pdf(round_=rounds[0])
    _reader, text = pdf_text(content)
    assert flat(text).count("Seat Player Club Group") == len(rounds[0].tables)
