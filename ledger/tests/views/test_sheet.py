"""The evening sheet as a score sheet: the selector's running totals, the screen (the reader's
own column and result first, transfers a tap away), the PDF (compact, transfers only in an
appendix when asked, a line for each member to sign) and the one-page sheet of a table.

Evening E's figures are the spec's (danish-tarok.md section 9): funding 40 each (cups 60/60);
hand 1 Anna -60, Bo -20, Carl +70; hand 2 +145, -75, -70; hand 3 -25, +60, -45; the split
+45, +45, +50; final +65, -30, -35. PDFs are read back as text with pypdf.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from ledger import reports, selectors, services
from ledger.models import Member
from ledger.tables.sheet import EveningSheetTable
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import found, page_words, pdf_text, save_first_page, seen_text

pytestmark = pytest.mark.django_db

# Evening E, posting by posting: (kind, number, dealer, net, running, cups after).
EVENING_E_ROWS = [
    ("funding", None, "", (-40, -40, -40), (-40, -40, -40), (60, 60)),
    ("hand", 1, "Anna", (-60, -20, 70), (-100, -60, 30), (65, 65)),
    ("hand", 2, "Bo", (145, -75, -70), (45, -135, -40), (60, 70)),
    ("hand", 3, "Carl", (-25, 60, -45), (20, -75, -85), (65, 75)),
    ("split", None, "", (45, 45, 50), (65, -30, -35), (0, 0)),
]
SEATS = ("Anna", "Bo", "Carl")
CUPS = ("kongekop", "pagatkop")


@pytest.fixture
def club():
    club = factories.make_club(name="Hjørring Tarokklub")
    factories.make_season(club)
    return club


@pytest.fixture
def bo(club):
    """Bo, who plays Evening E, with a log-in."""
    return factories.make_member(club, "Bo", login=True)


@pytest.fixture
def evening_e(club, bo):
    evening, _table, _hands = factories.evening_e(club)
    return services.evening_close(evening=evening)


def rows_of(sheet_table) -> list[tuple]:
    return [
        (
            p.kind,
            p.number,
            p.dealer,
            tuple(p.net[n] for n in SEATS),
            tuple(p.running[n] for n in SEATS),
            tuple(p.cups_after[c] for c in CUPS),
        )
        for p in sheet_table.postings
    ]


def english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def sheet_url(name, evening, **kwargs):
    return reverse(name, kwargs={"club": evening.club.slug, "pk": evening.pk, **kwargs})


def four_tables(club, hands: int, *, seats: int = 4, seed: int = 7):
    """Open an evening of four tables of ``seats`` members and record ``hands`` at each."""
    members = [factories.make_member(club, f"M{i:02d}") for i in range(4 * seats)]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    tables = []
    for i in range(4):
        table = services.table_open(evening=evening, members=members[i * seats : i * seats + seats])
        factories.random_table_hands(table, hands, seed=seed + i)
        tables.append(table)
    return evening, tables


# --- the selector --------------------------------------------------------------------------


def test_running_totals_of_evening_e(evening_e):
    """Each posting carries each member's net and his running total after it, funding
    included: after hand 2 Anna stands at +45, Bo at -135, Carl at -40; after the split the
    running totals are the results +65, -30, -35."""
    (sheet_table,) = selectors.evening_sheet(evening=evening_e).tables
    assert rows_of(sheet_table) == EVENING_E_ROWS
    assert sheet_table.balances == {"Anna": 65, "Bo": -30, "Carl": -35, **dict.fromkeys(CUPS, 0)}


def test_a_voided_hand_keeps_the_running_totals_of_the_hand_before(club, bo):
    """A voided hand has its row in its place with no points and the running totals of the
    row before it; the hands after it run on from there."""
    evening, table, hands = factories.evening_e(club)
    services.hand_void(hand=hands[1], reason="misdeal")
    (sheet_table,) = selectors.evening_sheet(evening=evening).tables
    kinds = [(p.kind, p.number) for p in sheet_table.postings]
    assert kinds == [("funding", None), ("hand", 1), ("voided", 2), ("hand", 3)]
    _funding, first, voided, third = sheet_table.postings
    assert voided.running == first.running == {"Anna": -100, "Bo": -60, "Carl": 30}
    assert voided.note == "misdeal"
    assert third.running == {n: first.running[n] + third.net[n] for n in SEATS}
    assert third.running == {n: sheet_table.balances[n] for n in SEATS}


def test_one_table_of_the_evening(club):
    """With ``table`` the sheet holds that table alone, and its settlement is each member's
    result at that table."""
    evening, tables = four_tables(club, 3)
    sheet = selectors.evening_sheet(evening=evening, table=tables[2])
    (sheet_table,) = sheet.tables
    assert sheet_table.table == tables[2]
    assert [s.name for s in sorted(sheet.settlement, key=lambda s: s.name)] == sorted(
        sheet_table.seats
    )
    for row in sheet.settlement:
        assert row.points == sheet_table.balances[row.name]


@pytest.mark.parametrize("n_tables, hands", [(1, 3), (4, 12)])
def test_the_sheet_costs_six_queries_whatever_the_hands(
    club, django_assert_num_queries, n_tables, hands
):
    """One table of three hands or four tables of twelve, with a voided hand: six queries."""
    evening, tables = four_tables(club, hands)
    services.hand_void(hand=tables[0].hands.get(number=2), reason="misdeal")
    table = tables[0] if n_tables == 1 else None
    with django_assert_num_queries(6):
        sheet = selectors.evening_sheet(evening=evening, table=table)
    assert len(sheet.tables) == n_tables
    for sheet_table in sheet.tables:
        previous = dict.fromkeys(sheet_table.seats, 0)
        for posting in sheet_table.postings:
            assert posting.running == {n: previous[n] + posting.net[n] for n in previous}
            previous = posting.running
        assert previous == {n: sheet_table.balances[n] for n in sheet_table.seats}


# --- the screen ----------------------------------------------------------------------------


def test_the_screen_is_a_score_sheet_with_the_transfers_a_tap_away(client, evening_e, bo):
    """A row per hand with its dealer, each member's points and running total and the cups;
    its transfers in words behind the hand's number (a <details>), not a row of their own
    until it is opened; a totals row at the bottom."""
    client.force_login(bo.user)
    page = english(client).get(sheet_url("evening_sheet", evening_e)).content.decode()
    hand_2 = found(r'<tr data-kind="hand" data-hand="2"[^>]*>(.*?)</tr>', page, re.S).group(1)
    assert '<details class="tx"><summary title="Transfers">2</summary></details>' in hand_2
    assert '<td class="dealer">Bo</td>' in hand_2
    nets = re.findall(r'data-points="(-?\d+)"', hand_2)
    running = re.findall(r'data-running="(-?\d+)"', hand_2)
    assert (nets, running) == (["-75", "145", "-70"], ["-135", "45", "-40"])  # Bo first
    # Every payment by its reason (issue 19): the ultimo, then the fee, the play, the count and
    # the refunding of the kongekop taken.
    assert (
        "ultimo: Anna (king); dealer&#x27;s fee (Bo −10); pagat home (Anna +10); count (Anna +5);"
        " refund (Anna −20, Bo −20, Carl −20)"
    ) in hand_2
    hand_1 = found(r'<tr data-kind="hand" data-hand="1"[^>]*>(.*?)</tr>', page, re.S).group(1)
    assert (
        "dealer&#x27;s fee (Anna −10); tarok meld (Bo +20); matador meld (Carl +30); "
        "last trick (Carl +40); count (Carl +10)"
    ) in hand_1
    transfers = found(r'<tr class="transfers" data-transfers-of="2">(.*?)</tr>', page, re.S)
    assert "<li>Bo → Anna 40 (ultimo)</li>" in transfers.group(1)
    footer = found(r"<tfoot.*?</tfoot>", page, re.S).group(0)
    assert re.findall(r'data-points="(-?\d+)"', footer) == ["-30", "65", "-35"]


def test_the_readers_own_column_and_result_come_first(client, evening_e, bo):
    """Bo's column is the first member column at his table and his result (-30 points,
    -7.50 DKK) is shown above the tables, with a link to his table."""
    client.force_login(bo.user)
    page = english(client).get(sheet_url("evening_sheet", evening_e)).content.decode()
    heads = re.findall(r'<th class="member num" data-member="([^"]+)"', page)
    assert heads == ["Bo", "Anna", "Carl"]
    mine = found(r'<section class="my-result".*?</section>', page, re.S).group(0)
    assert 'data-points="-30"' in mine and 'data-money="-7.50"' in mine
    assert '<a href="#table-1">Table 1</a>' in mine
    assert page.index('id="my-result"') < page.index('id="table-1"')
    assert '<details class="sheet-table" id="table-1" data-table="1" data-mine open>' in page


def test_before_the_close_the_reader_sees_his_balance_so_far(client, club, bo):
    """On an open evening the reader's figure is his balance before the split (-75)."""
    evening, _table, _hands = factories.evening_e(club)
    client.force_login(bo.user)
    page = english(client).get(sheet_url("evening_sheet", evening)).content.decode()
    mine = found(r'<section class="my-result".*?</section>', page, re.S).group(0)
    assert "Your balance so far" in mine and 'data-points="-75"' in mine
    assert "data-money" not in mine


def test_a_reader_who_did_not_play_sees_the_seat_order(client, club, evening_e):
    """A member who sat at no table gets no result of his own and the columns in seat order."""
    mia = factories.make_member(club, "Mia", login=True)
    client.force_login(mia.user)
    page = english(client).get(sheet_url("evening_sheet", evening_e)).content.decode()
    assert re.findall(r'<th class="member num" data-member="([^"]+)"', page) == list(SEATS)
    assert 'id="my-result"' not in page and "data-mine" not in page


PART = "ledger/treasury/_sheet_table_part.html"


def parts_rendered(response) -> int:
    """Return how many tables' parts the sheet page rendered (the rest were kept)."""
    return [t.name for t in response.templates].count(PART)


def test_after_a_save_at_one_table_the_sheet_renders_that_table_only(client, club):
    """Each table's part is kept by its table's seal, shared by every reader it looks the same
    to: a reader at no table after another's visit renders none; after a hand at table 2,
    the next reader renders table 2 again, not the three others, and sees the new hand; a
    reader seated at table 2 has his own part there (his column first), the others' still
    shared."""
    evening, tables = four_tables(club, 3)
    mia, ulla = (factories.make_member(club, n, login=True) for n in ("Mia", "Ulla"))
    url = sheet_url("evening_sheet", evening)
    client.force_login(mia.user)
    assert parts_rendered(english(client).get(url)) == 4
    client.force_login(ulla.user)
    assert parts_rendered(english(client).get(url)) == 0  # another reader: all kept
    factories.random_table_hands(tables[1], 1, seed=99)
    client.force_login(mia.user)
    response = english(client).get(url)
    assert parts_rendered(response) == 1
    table_2 = response.content.decode().split('id="table-2"')[1].split('id="table-3"')[0]
    assert 'data-hand="4"' in table_2
    seated = tables[1].seats.order_by("position").last().member
    seated.user = get_user_model().objects.create_user(username="seated", password="x" * 12)
    seated.save(update_fields=["user"])
    client.force_login(seated.user)
    page = english(client).get(url)
    assert parts_rendered(page) == 1  # his own table 2; tables 1, 3 and 4 as the others see them
    heads = re.findall(r'<th class="member num" data-member="([^"]+)"', page.content.decode())
    assert heads[4] == seated.name  # his column first at his table
    others = re.findall(r'<th class="member num" data-member="([^"]+)"', response.content.decode())
    assert others[7] == seated.name  # the last seat, as every other reader sees it


def test_a_kept_sheet_is_read_from_the_workers_memory_before_the_shared_store(
    client, evening_e, bo
):
    """The kept page is in the shared store and in the worker's memory: read again in the same
    worker it costs no query to the store; another worker (its memory empty) reads the store
    once, and renders nothing."""
    client.force_login(bo.user)
    url = sheet_url("evening_sheet", evening_e)

    def body(response) -> str:  # the kept part (the page around it has a nonce per request)
        return response.content.decode().split('class="sheet-help', 1)[1].split("</main>")[0]

    first = body(english(client).get(url))
    with CaptureQueriesContext(connection) as queries:
        again = english(client).get(url)
    assert body(again) == first
    assert not [q for q in queries if "tarokclub_cache" in q["sql"]]
    caches["parts"].clear()  # as another worker finds it
    with CaptureQueriesContext(connection) as queries:
        other = english(client).get(url)
    assert body(other) == first and parts_rendered(other) == 0
    assert len([q for q in queries if "tarokclub_cache" in q["sql"]]) == 1


def test_the_screen_links_both_pdfs_and_each_table_sheet(client, evening_e, bo):
    """The sheet links the PDF, the PDF with the transfers appendix and each table's sheet;
    so does the table screen."""
    client.force_login(bo.user)
    page = english(client).get(sheet_url("evening_sheet", evening_e)).content.decode()
    pdf = sheet_url("evening_sheet_pdf", evening_e)
    table = evening_e.tables.get()
    table_pdf = sheet_url("table_sheet_pdf", evening_e, table=table.pk)
    assert f'data-export="pdf" href="{pdf}"' in page
    assert f'data-export="pdf-transfers" href="{pdf}?transfers=1"' in page
    assert f'data-export="table-pdf" href="{table_pdf}">Print table sheet</a>' in page
    screen = client.get(reverse("table", kwargs={"club": "test", "pk": table.pk}))
    assert f'id="table-sheet" data-export="table-pdf" href="{table_pdf}"' in screen.content.decode()


def test_the_danish_screen_says_it_in_danish(client, evening_e, bo):
    """The new words of the sheet are Danish by default."""
    client.force_login(bo.user)
    page = client.get(sheet_url("evening_sheet", evening_e)).content.decode()
    assert "Udskriv bordets ark" in page and "PDF med overførsler" in page
    assert "Dit resultat i aften" in page


# --- the evening sheet's PDF ---------------------------------------------------------------


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_pdf_is_a_compact_score_sheet_with_a_line_to_sign_for_each_member(evening_e):
    """Each hand on one line: number, dealer, each member's points and running total, the
    cups; what happened, every payment by its reason, on the line under it; the totals; a
    signature line for the treasurer and for each member with his name; no transfers."""
    with translation.override("en"):
        _, _, content = reports.evening_sheet_pdf(evening=evening_e)
    reader, text = seen_text(content)
    assert len(reader.pages) == 1
    assert "# Dealer Anna Bo Carl kongekop pagatkop\nWhat happened\n" in text
    assert "Funding -40 -40 -40 -40 -40 -40 60 60\n" in text
    assert "1 Anna -60 -100 -20 -60 +70 30 65 65\n" in text
    assert "2 Bo +145 45 -75 -135 -70 -40 60 70\nultimo: Anna (king); dealer's fee (Bo -10)" in text
    assert "3 Carl -25 20 +60 -75 -45 -85 65 75\n" in text
    assert "Split +45 65 +45 -30 +50 -35 0 0" in text
    assert "Total +65 -30 -35 0 0" in text
    assert "Treasurer (signature) Anna Bo Carl" in text
    assert "→" not in text and "Appendix" not in text
    save_first_page(content, "score-sheet")


def test_the_transfers_are_an_appendix_only_when_asked(client, evening_e, bo):
    """``transfers=True`` (``?transfers=1``) adds every posting's transfers on pages of their
    own after the sheet; without it there are none."""
    with translation.override("en"):
        _, _, plain = reports.evening_sheet_pdf(evening=evening_e)
        name, _, content = reports.evening_sheet_pdf(evening=evening_e, transfers=True)
    assert name == "evening-test-2026-11-05-transfers.pdf"
    reader, text = seen_text(content)
    assert len(reader.pages) == len(pypdf_pages(plain)) + 1
    appendix = reader.pages[-1].extract_text()
    assert appendix.startswith("Appendix: every transfer")
    assert "2 Bo → Kongekop 5 (dealer's fee)" in appendix
    assert "Bo → Anna 40 (ultimo)" in appendix
    assert "Split Kongekop → Anna 45 (split)" in appendix
    client.force_login(bo.user)
    response = client.get(sheet_url("evening_sheet_pdf", evening_e) + "?transfers=1")
    assert response["Content-Disposition"].endswith('-transfers.pdf"')
    assert "→" in seen_text(response.content)[1]
    response = client.get(sheet_url("evening_sheet_pdf", evening_e))
    assert "→" not in seen_text(response.content)[1]


def pypdf_pages(content: bytes):
    return seen_text(content)[0].pages


@pytest.mark.once  # what is printed: the same on either database, checked once
@pytest.mark.slow
def test_a_full_evening_prints_on_a_few_pages(club):
    """Four tables of forty hands (a full evening) print on at most ten pages, in portrait:
    at 9 pt, with every payment of every hand under its figures (the text rows at 6.6 pt
    without them took four)."""
    evening, _tables = four_tables(club, 40)
    evening = services.evening_close(evening=evening)
    _, _, content = reports.evening_sheet_pdf(evening=evening)
    reader, text = seen_text(content)
    assert len(reader.pages) <= 10
    assert all(page.mediabox.width < page.mediabox.height for page in reader.pages)
    assert text.count("Total") >= 5  # each table's totals and the settlement's
    save_first_page(content, "score-sheet-full")


RED = (0.639, 0.071, 0.043)  # #a3120b, the sheets' colour of a negative figure


def coloured_words(page) -> list[tuple[str, tuple | None]]:
    """Return each word a PDF page shows with the fill colour it is drawn in, in the order
    it is seen (``page_words``)."""
    return [(w.word, w.colour) for w in page_words(page, colours=True)]


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_pdf_marks_every_negative_figure_red(evening_e):
    """On the score sheet every negative figure (a hand's points, a running total, a member's
    total) has a true minus and is red; no other figure is: Bo's -75 and -135 after hand 2,
    the totals -30 and -35, not Anna's +145 and 45."""
    with translation.override("en"):
        _, _, content = reports.evening_sheet_pdf(evening=evening_e)
    reader, _text = seen_text(content)
    words = coloured_words(reader.pages[0])
    sheet = words[: [w for w, _c in words].index("Settlement")]
    figures = [(w, c) for w, c in sheet if re.fullmatch(r"[+\u2212]?\d+", w)]
    negatives = [(w, c) for w, c in figures if w.startswith("\u2212")]
    assert len(negatives) == 22  # the funding 6, hands 1 to 3 4 each, the split 2, totals 2
    assert all(c == RED for _w, c in negatives)
    assert all(c != RED for w, c in figures if not w.startswith("\u2212"))
    plain = [w for w, _c in sheet]
    hand_2 = plain.index("Bo", plain.index("2")) + 1
    assert [(w, c == RED) for w, c in sheet[hand_2 : hand_2 + 8]] == [
        ("+145", False),
        ("45", False),
        ("\u221275", True),
        ("\u2212135", True),
        ("\u221270", True),
        ("\u221240", True),
        ("60", False),
        ("70", False),
    ]
    total = [w for w, c in figures][-5:]
    assert total == ["+65", "\u221230", "\u221235", "0", "0"]
    assert [c == RED for _w, c in figures][-5:] == [False, True, True, False, False]


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_pdf_prints_every_running_total(club):
    """Each hand's line of the score sheet holds, in seat order, every member's points of the
    hand (none when 0) and his running total after it, then the cups, exactly as the sheet's
    selector reads them: twelve random hands at a table of four."""
    evening, (table, *_others) = four_tables(club, 12, seed=3)
    evening = services.evening_close(evening=evening)
    sheet = selectors.evening_sheet(evening=evening, table=table).tables[0]
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
    _, text = seen_text(content)
    for posting in sheet.hands:
        figures = []
        for name in sheet.seats:
            net = posting.net[name]
            figures += [f"{net:+d}"] if net else []
            figures.append(str(posting.running[name]))
        figures += [str(posting.cups_after[code]) for code in CUPS]
        line = f"\n{posting.number} {posting.dealer} {' '.join(figures)}\n"
        assert line in text, line
    totals = " ".join(f"{sheet.balances[n]:+d}" if sheet.balances[n] else "0" for n in sheet.seats)
    assert f"\nTotal {totals} 0 0\n" in text


@pytest.mark.once  # what is printed: the same on either database, checked once
def test_what_happened_names_the_fines_and_the_melds(club):
    """Spec example X5 at a table: the sheets to sign name the half meld and both fines into
    the cups with who paid or gained what, in the game's words, under the hand's figures."""
    members = [factories.make_member(club, n) for n in ("Anna", "Bo", "Carl", "Dorte")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    table = services.table_open(evening=evening, members=members, first_dealer=members[1])
    record = {k: v for k, v in load_example("X5.hand.json").items() if k != "cups_before"}
    services.hand_record(table=table, record=record)
    evening = services.evening_close(evening=evening)
    told = (
        "dealer's fee (Bo -10); half meld (Carl +10); fine: Lead out of turn (Anna -40); "
        "fine: Revoke (Carl -80); count (Carl +5)"
    )
    with translation.override("en"):
        for _name, _type, content in (
            reports.evening_sheet_pdf(evening=evening),
            reports.table_sheet_pdf(table=table),
        ):
            _, text = seen_text(content)
            assert "\n1 Bo -50 -90 -15 -55 -65 -105 -40 145 145\ndealer's fee (Bo -10);" in text
            assert told in " ".join(text.split())
    with translation.override("da"):
        _, _, content = reports.evening_sheet_pdf(evening=evening)
    danish = " ".join(seen_text(content)[1].split())
    assert "bøde: Udspil uden for tur (Anna -40)" in danish and "halv melding (Carl +10)" in danish


# --- the table's sheet ---------------------------------------------------------------------


def test_the_table_sheet_of_evening_e(client, evening_e, bo):
    """One page: the club, the table and the date, the game, every hand, each member's result
    in points and money, and a line to sign with each member's name."""
    table = evening_e.tables.get()
    with translation.override("en"):
        name, content_type, content = reports.table_sheet_pdf(table=table)
    assert (name, content_type) == ("table-test-2026-11-05-1.pdf", "application/pdf")
    reader, text = seen_text(content)
    assert len(reader.pages) == 1
    assert reader.metadata is not None
    assert reader.metadata.title == "Table 1, Nov. 5, 2026 · Hjørring Tarokklub"
    assert "Danish Tarok · Anna, Bo, Carl · Closed" in text
    assert "2 Bo +145 45 -75 -135 -70 -40 60 70\nultimo: Anna (king); dealer's fee (Bo -10)" in text
    assert "Total +65 -30 -35 0 0" in text
    # Under each line to sign, the member's name and his result in points and money (read in
    # the order drawn: a member's tile at a time).
    tiles = pdf_text(content)[1]
    assert "Result at this table, to sign\nAnna\n+65 points\n16.25\xa0DKK\nBo\n-30 points" in tiles
    with translation.override("da"):
        _, _, danish = reports.table_sheet_pdf(table=table)
    assert "Dansk tarok · Anna, Bo, Carl · Lukket" in seen_text(danish)[1]  # the game's name too
    assert "Carl\n-35 points\n-8.75\xa0DKK" in tiles
    assert "→" not in text
    client.force_login(bo.user)
    response = client.get(sheet_url("table_sheet_pdf", evening_e, table=table.pk))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'inline; filename="table-test-2026-11-05-1.pdf"'
    save_first_page(content, "table-sheet")


def test_an_open_tables_sheet_shows_the_balances_so_far(club, bo):
    """Before the close the table sheet has the balances so far and no money."""
    _evening, table, _hands = factories.evening_e(club)
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
    _, text = pdf_text(content)  # in the order drawn: a member's tile at a time
    assert "Open: the cups are not split yet" in text
    assert "Balances so far (the cups are not split yet)\nAnna\n+20 points\nBo\n-75 points" in text
    assert not re.search(r"points\n-?[\d.]+ DKK", text)


@pytest.mark.once  # what is printed: the same on either database, checked once
@pytest.mark.parametrize("seats, pages", [(4, 2), (5, 3)])
def test_forty_hands_fit_on_a_few_pages(club, seats, pages):
    """A table of forty hands, four or five members, prints on two or three A4 pages to sign
    (at 9 pt, every payment of every hand under its figures), each member's name and result
    under his line to sign on the last."""
    evening, tables = four_tables(club, 0, seats=seats)
    factories.random_table_hands(tables[1], 40, seed=11)
    services.evening_close(evening=evening)
    _, _, content = reports.table_sheet_pdf(table=tables[1])
    reader, text = seen_text(content)
    save_first_page(content, f"table-sheet-40-{seats}")
    assert len(reader.pages) <= pages
    last = reader.pages[-1].extract_text().replace("\u2212", "-")
    assert "\n40 " in text
    for name in Member.objects.filter(seats__table=tables[1]).values_list("name", flat=True):
        assert re.search(rf"\n{name}\n[+-]?\d+ points\n", last), name
    save_first_page(content, f"table-sheet-40-{seats}")


def test_another_evenings_table_is_404(client, club, evening_e, bo):
    """A table of another evening of the club is not found under this evening's address."""
    other, _table, _hands = factories.evening_e(club, date=datetime.date(2026, 11, 6))
    client.force_login(bo.user)
    url = sheet_url("table_sheet_pdf", evening_e, table=other.tables.get().pk)
    assert client.get(url).status_code == 404


# --- the other games -----------------------------------------------------------------------


def test_a_slovenian_sheet_names_its_pool(client):
    """A Slovenian table's sheets have the game's pool column, in the game's word."""
    club = factories.make_club(slug="sl", name="Ljubljana", game="slovenian_tarok")
    members = [factories.make_member(club, n) for n in ("Anna", "Bo", "Carl", "Dorte")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members, first_dealer=members[0])
    for hand in load_example("SL_EVENING.evening.json")["hands"]:
        hand = {k: v for k, v in hand.items() if k != "radli_before"}
        services.hand_record(table=table, record={"game": "slovenian_tarok", **hand})
    services.evening_close(evening=evening, confirm_differences=True)
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
        _, _, sheet = reports.evening_sheet_pdf(evening=evening)
    for pdf in (content, sheet):
        _, text = seen_text(pdf)
        assert "# Dealer Anna Bo Carl Dorte pool\nWhat happened\n" in text
        assert "Total +10 +80 +60 -150 0" in text


def test_a_hungarian_sheet_has_no_pool_columns():
    """A Hungarian table has no pools: the sheets have a column per member and what happened,
    in the game's words."""
    club = factories.make_club(slug="hu", name="Budapest", game="hungarian_tarokk")
    members = [factories.make_member(club, n) for n in ("Anna", "Bo", "Carl", "Dorte")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members, first_dealer=members[3])
    services.hand_record(table=table, record=load_example("HU1.hand.json"))
    services.evening_close(evening=evening)
    with translation.override("en"):
        _, _, content = reports.table_sheet_pdf(table=table)
    _, text = seen_text(content)
    assert "# Dealer Anna Bo Carl Dorte\nWhat happened\n" in text
    assert "\n1 Dorte +3 3 -3 -3 +3 3 -3 -3\n" in text
    assert "Total +3 -3 +3 -3\n" in text


def test_a_member_who_came_later_has_no_figures_before_he_came(club, bo):
    """Dorte sits down after Evening E's three hands: before that her column says "–" (not
    0), on screen and in the rows the PDFs print; from her funding on she has a total."""
    evening, table, _ = factories.evening_e(club)
    dorte = factories.make_member(club, "Dorte")
    services.table_seat(table=table, member=dorte)
    factories.random_table_hands(table, 4, seed=2)
    sheet = selectors.evening_sheet(evening=evening).tables[0]
    hands = [p for p in sheet.postings if p.kind == "hand"]
    assert all("Dorte" not in p.arrived for p in hands[:3])
    assert all("Dorte" in p.arrived for p in hands[3:])
    seen = [p for p in sheet.postings if "Dorte" in p.arrived]
    assert seen[0].kind == "funding" and seen[0].net["Dorte"] < 0
    # Four seats and no sitting_out in the records: all four are at the table, none away.
    assert all(not p.away for p in hands[3:])
    rows = EveningSheetTable(sheet).print_rows()
    assert [r["scores"][sheet.seats.index("Dorte")] for r in rows[:4]] == [("", "–")] * 4
    assert rows[4]["kind"] == "funding" and rows[4]["scores"][3][0].startswith("−")
    html = EveningSheetTable(sheet).as_html(None)
    assert html.count('<span class="away">–</span>') == 4  # the first funding and hands 1-3


@pytest.mark.parametrize(
    ("game", "language", "words"),
    [
        ("slovenian_tarok", "sl", ("radelc", "kontra")),
        ("hungarian_tarokk", "hu", ("XXI-fogás", "Pagát ultimó")),
    ],
)
@pytest.mark.once  # what is printed: the same on either database, checked once
def test_the_pdf_names_every_payment_as_the_screen_does(game, language, words):
    """Issue 31: twelve seeded hands of a Slovenian and a Hungarian evening; the evening
    sheet's PDF, read back, has each hand's what happened in the screen's words (radelci and
    kontra, the Hungarian figures), in the club's language."""
    import random

    from ledger.games.base import Dealt
    from ledger.games.registry import GAMES

    club = factories.make_club(slug=language, name=f"Klub {language}", game=game)
    names = ["Anna", "Bo", "Carl", "Dorte"]
    members = [factories.make_member(club, n) for n in names]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 6))
    table = services.table_open(evening=evening, members=members, first_dealer=members[0])
    engine = GAMES[game]
    rates, rng = engine.rate_card({}), random.Random(4)
    dealt: list[Dealt] = []
    for number in range(1, 13):
        schedule = engine.schedule(names, dealt, rates, first=names[0])
        record = engine.random_hand(rng, schedule, rates, services.table_state(table))
        hand = services.hand_record(table=table, record=record, number=number)
        dealt.append(Dealt(seats=tuple(names), dealer=hand.dealer.name))
    evening = services.evening_close(evening=evening, confirm_differences=True)
    with translation.override(language):
        sheet = EveningSheetTable(selectors.evening_sheet(evening=evening).tables[0])
        told = [
            " ".join(str(row["events"]).replace("\u2212", "-").split())
            for row in sheet.print_rows()
        ]
        _, _, content = reports.evening_sheet_pdf(evening=evening)
    text = " ".join(seen_text(content)[1].split())
    assert all(line in text for line in told if line)
    for word in words:
        assert word in text, word
