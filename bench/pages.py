"""Pages and PDFs of make bench: requested through Django's test client, as a browser would."""

from __future__ import annotations

import io
import statistics

from django.contrib.auth import get_user_model
from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from ledger.models import Club, Evening, Member, Season

# The honest floors (issue 31): for each page, the fastest plain SQL found that gives the
# same numbers as the page, checked against them in every run (``_agree``). Each reads the
# ledger alone (the transfers, as the tournament bench's ``RAW_RANKING`` does), never the
# summaries the pages keep for speed: a member account's points are its incoming transfers
# less its outgoing ones, two plain index joins added up (UNION ALL), not one join on
# ``source OR target`` (which PostgreSQL cannot drive from an index: 2.4-5.3x slower for
# the same sums). The summaries' read is timed beside it (``summary_floor_ms``), for the
# record: it is what the pages themselves read.

# Each member's points of each evening of the season: the standings' figures (points,
# evenings, average, best) and a member's season's rows all follow from these. Two plain
# forms, both timed, the faster is the floor (SQLite and PostgreSQL prefer different ones):
# the accounts' incoming and outgoing transfers joined and added up, or summed by account in
# two index lookups. The CROSS JOIN keeps SQLite from scanning every transfer for the
# outgoing side (PostgreSQL reads it as the inner join it is).
FLOOR_SEASON = """
WITH acc AS (
    SELECT a.id, a.member_id, tb.evening_id
    FROM ledger_account a
    JOIN ledger_table tb ON tb.id = a.table_id
    JOIN ledger_evening e ON e.id = tb.evening_id
    WHERE e.season_id = %(season)s AND a.kind = 'member' {member}
),
moved AS (
    SELECT acc.member_id, acc.evening_id, t.points
    FROM acc CROSS JOIN ledger_transfer t WHERE t.target_id = acc.id
    UNION ALL
    SELECT acc.member_id, acc.evening_id, -t.points
    FROM acc CROSS JOIN ledger_transfer t WHERE t.source_id = acc.id
)
SELECT member_id, evening_id, SUM(points) FROM moved GROUP BY member_id, evening_id
"""
FLOOR_SEASON_BY_ACCOUNT = """
WITH acc AS (
    SELECT a.id, a.member_id, tb.evening_id
    FROM ledger_account a
    JOIN ledger_table tb ON tb.id = a.table_id
    JOIN ledger_evening e ON e.id = tb.evening_id
    WHERE e.season_id = %(season)s AND a.kind = 'member' {member}
)
SELECT acc.member_id, acc.evening_id,
       SUM(COALESCE((SELECT SUM(t.points) FROM ledger_transfer t WHERE t.target_id = acc.id), 0)
           - COALESCE((SELECT SUM(t.points) FROM ledger_transfer t WHERE t.source_id = acc.id), 0))
FROM acc
GROUP BY acc.member_id, acc.evening_id
"""

# The same from the balance summary (``AccountBalance``), as the pages read it.
SUMMARY_SEASON = """
SELECT a.member_id, tb.evening_id, SUM(b.balance)
FROM ledger_account a
JOIN ledger_accountbalance b ON b.account_id = a.id
JOIN ledger_table tb ON tb.id = a.table_id
JOIN ledger_evening e ON e.id = tb.evening_id
WHERE e.season_id = %(season)s AND a.kind = 'member' {member}
GROUP BY a.member_id, tb.evening_id
"""

# A member's season page shows his evenings (above) and the first page of the hands he
# played (25, in the evenings', tables' and hands' order), each with his points from it: the
# live hand postings he played, then his accounts' incoming less outgoing transfers of each.
FLOOR_MEMBER_HANDS = """
WITH mine AS (
    SELECT a.id FROM ledger_account a
    JOIN ledger_table tb ON tb.id = a.table_id
    JOIN ledger_evening e ON e.id = tb.evening_id
    WHERE e.season_id = %(season)s AND a.member_id = %(member)s
),
hands AS (
    SELECT p.id, e.date, tb.number AS table_number, h.number AS hand_number
    FROM mine
    JOIN ledger_postingseat s ON s.account_id = mine.id AND s.played
    JOIN ledger_posting p ON p.id = s.posting_id
    JOIN ledger_table tb ON tb.id = p.table_id
    JOIN ledger_evening e ON e.id = tb.evening_id
    JOIN ledger_hand h ON h.id = p.hand_id
    WHERE p.kind <> 'reversal'
      AND NOT EXISTS (SELECT 1 FROM ledger_posting x WHERE x.reverses_id = p.id)
    ORDER BY e.date, tb.number, h.number
    LIMIT %(hands)s
)
SELECT hands.id,
       COALESCE((SELECT SUM(t.points) FROM ledger_transfer t JOIN mine ON mine.id = t.target_id
                 WHERE t.posting_id = hands.id), 0)
       - COALESCE((SELECT SUM(t.points) FROM ledger_transfer t JOIN mine ON mine.id = t.source_id
                   WHERE t.posting_id = hands.id), 0)
FROM hands
ORDER BY hands.date, hands.table_number, hands.hand_number
"""
MEMBER_HANDS_PAGE = 25  # the member's season page's hands a page (``views.treasury``)

# The evening sheet's figures: each live posting's net of each account (member or pool) of
# the evening's tables (neither a reversal nor reversed, as the sheet shows them), in the
# ledger's order; the running totals and the pools follow from them.
FLOOR_SHEET = """
WITH live AS (
    SELECT p.id FROM ledger_posting p JOIN ledger_table tb ON tb.id = p.table_id
    WHERE tb.evening_id = %(evening)s AND p.kind <> 'reversal'
      AND NOT EXISTS (SELECT 1 FROM ledger_posting x WHERE x.reverses_id = p.id)
),
moved AS (
    SELECT t.posting_id, t.target_id AS account, t.points
    FROM live JOIN ledger_transfer t ON t.posting_id = live.id
    UNION ALL
    SELECT t.posting_id, t.source_id, -t.points
    FROM live JOIN ledger_transfer t ON t.posting_id = live.id
)
SELECT posting_id, account, SUM(points)
FROM moved
GROUP BY posting_id, account
ORDER BY posting_id
"""


def _fetch(sql: str, params: dict) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _cells(rows) -> dict[tuple[int, int], int]:
    """(member, evening) -> points of the floor's rows, the zeros left out (a member account
    without a transfer has no row in the ledger, nor a summary)."""
    return {(m, e): int(p) for m, e, p in rows if p}


def _agree(name: str, floor, page) -> None:
    """The floor gives the page's numbers, or the bench stops: a faster query that gives
    other numbers is no floor."""
    if floor != page:
        missing = {k: v for k, v in page.items() if floor.get(k) != v}
        extra = {k: v for k, v in floor.items() if page.get(k) != v}
        raise AssertionError(
            f"{name}: the raw SQL's numbers are not the page's: "
            f"page has {list(missing.items())[:5]}, raw SQL {list(extra.items())[:5]}"
        )


def _season_page_cells(season, member=None) -> dict[tuple[int, int], int]:
    from ledger import selectors

    if member is None:
        rows = selectors.standings_for_season(season=season)
        return {(r.member_id, c.evening_id): c.points for r in rows for c in r.cells if c.points}
    shown = selectors.member_season(season=season, member=member)
    return {(member.pk, e["evening_id"]): e["points"] for e in shown.evenings if e["points"]}


def _member_hands_numbers(season, member) -> dict[int, int]:
    """The first page of the member's hands as the page reads them: posting -> his points."""
    from ledger import selectors

    hands = selectors.member_hands(season=season, member=member)[:MEMBER_HANDS_PAGE]
    return {hand.pk: hand.net for hand in hands}


def _sheet_page_numbers(evening) -> dict[tuple, int]:
    """The evening sheet's numbers as the page computes them: (posting, table, code) -> net,
    and (table, code) -> balance."""
    from ledger import selectors

    sheet = selectors.evening_sheet(evening=evening)
    numbers: dict[tuple, int] = {}
    for table in sheet.tables:
        for record in table.postings:
            if record.posting is None:  # a voided hand's row: its postings net to nothing
                continue
            for code, net in record.net.items():
                if net:
                    numbers[(record.posting.pk, table.table.pk, code)] = net
        for code, balance in table.balances.items():
            if balance:
                numbers[("balance", table.table.pk, code)] = balance
    return numbers


def _sheet_floor_numbers(rows, accounts: dict[int, tuple[int, str, bool]]):
    """The floor's rows as the page's numbers (``accounts``: id -> table, name, member?)."""
    numbers: dict[tuple, int] = {}
    balances: dict[tuple, int] = {}
    for posting, account, net in rows:
        table, name, member = accounts[account]
        balances[(table, name)] = balances.get((table, name), 0) + int(net)
        if net and member:
            numbers[(posting, table, name)] = int(net)
    numbers.update({("balance", *k): v for k, v in balances.items() if v})
    return numbers


def _floor(name, timed, ms, candidates, params, page_numbers, numbers_of) -> dict:
    """Time each candidate SQL (its numbers checked against the page's first); the fastest
    is the floor."""
    medians = []
    for sql in candidates:
        _agree(name, numbers_of(_fetch(sql, params)), page_numbers)
        times = timed(lambda q=sql: _fetch(q, params), 7)
        medians.append(statistics.median(times))
    best = min(range(len(medians)), key=medians.__getitem__)
    return {
        "median_ms": ms(medians[best]),
        "form": best,
        "forms_ms": [ms(m) for m in medians],
        "agrees_with_page": True,
    }


def _get(client, url, timed, repeat, *, warm=False):
    """Time ``repeat`` GETs of ``url``; with ``warm``, after one untimed GET that keeps what the
    page keeps, so each timed one is a kept page's (otherwise the first reader's render would
    be among them)."""
    queries = []
    responses = []
    if warm:
        client.get(url)

    def once():
        reset_queries()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        queries.append(len(captured.captured_queries))
        responses.append(response)

    times = timed(once, repeat)
    return times, sorted(set(queries)), responses[-1]


def _get_cold(client, url, timed, repeat):
    """Time ``url`` with nothing kept (``ledger.web.render_cache``'s tables, ``ledger.web.kept``'s
    pages and PDFs): the first reader after a change."""
    from ledger.web.kept import forget_all

    def once():
        forget_all()
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)

    return timed(once, repeat)


def measure(*, summary, timed, ms) -> dict:
    club = Club.objects.get(slug="bench1")
    season = Season.objects.filter(club=club).order_by("-starts_on").first()
    user = get_user_model().objects.get(username="bench1")
    client = Client()
    client.force_login(user)
    member = Member.objects.filter(club=club).order_by("pk")[1]
    evening = Evening.objects.filter(season=season).order_by("date").last()
    out = {}

    # The honest floors, each checked against its page's numbers (above FLOOR_SEASON).
    from ledger.models import Account

    params = {"season": season.pk}
    mine = {"season": season.pk, "member": member.pk}
    only_member = "AND a.member_id = %(member)s"
    floors = {
        "floor_standings": (
            [q.format(member="") for q in (FLOOR_SEASON, FLOOR_SEASON_BY_ACCOUNT)],
            SUMMARY_SEASON.format(member=""),
            params,
            _season_page_cells(season),
            _cells,
        ),
        "floor_member": (
            [q.format(member=only_member) for q in (FLOOR_SEASON, FLOOR_SEASON_BY_ACCOUNT)],
            SUMMARY_SEASON.format(member=only_member),
            mine,
            _season_page_cells(season, member),
            _cells,
        ),
    }
    floors["floor_member_hands"] = (
        [FLOOR_MEMBER_HANDS],
        None,
        {**mine, "hands": MEMBER_HANDS_PAGE},
        _member_hands_numbers(season, member),
        lambda rows: {posting: int(net) for posting, net in rows},
    )
    accounts = {
        a.pk: (a.table_id, a.name, a.member_id is not None)
        for a in Account.objects.filter(table__evening=evening).select_related("member")
    }
    floors["floor_evening_sheet"] = (
        [FLOOR_SHEET],
        None,
        {"evening": evening.pk},
        _sheet_page_numbers(evening),
        lambda rows: _sheet_floor_numbers(rows, accounts),
    )
    for key, (sql, summary_sql, query_params, page_numbers, numbers_of) in floors.items():
        out[key] = _floor(key, timed, ms, sql, query_params, page_numbers, numbers_of)
        if summary_sql:
            _agree(key + " (summary)", numbers_of(_fetch(summary_sql, query_params)), page_numbers)
            times = timed(lambda q=summary_sql, p=query_params: _fetch(q, p), 7)
            out[key]["summary_floor_ms"] = ms(statistics.median(times))

    # The member's season page shows his evenings and a page of his hands: its floor is both.
    out["floor_member_page"] = {
        "median_ms": round(
            out["floor_member"]["median_ms"] + out["floor_member_hands"]["median_ms"], 2
        ),
        "agrees_with_page": True,
    }

    def x_floor(page: str, floor: str) -> None:
        out[page]["x_floor"] = round(out[page]["median_ms"] / max(out[floor]["median_ms"], 0.01), 2)

    url = reverse("standings", kwargs={"club": club.slug}) + f"?season={season.pk}"
    times, queries, _ = _get(client, url, timed, 5, warm=True)
    out["page_standings"] = {**summary(times), "queries": queries}
    out["page_standings_cold"] = summary(_get_cold(client, url, timed, 5))
    x_floor("page_standings", "floor_standings")
    x_floor("page_standings_cold", "floor_standings")

    url = reverse("member_season", kwargs={"club": club.slug, "pk": member.pk})
    times, queries, _ = _get(client, url + f"?season={season.pk}", timed, 5, warm=True)
    out["page_member"] = {**summary(times), "queries": queries}
    out["page_member_cold"] = summary(_get_cold(client, url + f"?season={season.pk}", timed, 5))
    x_floor("page_member", "floor_member_page")
    x_floor("page_member_cold", "floor_member_page")

    url = reverse("evening_sheet", kwargs={"club": club.slug, "pk": evening.pk})
    times, queries, _ = _get(client, url, timed, 5, warm=True)
    out["page_evening_sheet"] = {**summary(times), "queries": queries}
    out["page_evening_sheet_cold"] = summary(_get_cold(client, url, timed, 3))
    x_floor("page_evening_sheet", "floor_evening_sheet")
    x_floor("page_evening_sheet_cold", "floor_evening_sheet")

    # What every page pays before its own reads: the site's frame around nothing, on a club
    # page of the same reader, through the same client (``bench/frame.py``).
    with override_settings(ROOT_URLCONF="bench.frame"):
        url = reverse("bench_frame", kwargs={"club": club.slug})
        times, queries, _ = _get(client, url, timed, 7, warm=True)
    out["page_frame"] = {**summary(times), "queries": queries}

    from pypdf import PdfReader
    from weasyprint import HTML

    from ledger import reports

    # WeasyPrint loads Pango and the fonts at its first document in a process: a server pays
    # that once, so it is paid here before the PDFs are timed.
    HTML(string="<p>warm</p>").write_pdf()

    for key, name, kwargs, query in (
        ("pdf_evening_sheet", "evening_sheet_pdf", {"pk": evening.pk}, ""),
        ("pdf_evening_sheet_transfers", "evening_sheet_pdf", {"pk": evening.pk}, "?transfers=1"),
        ("pdf_season_standings", "standings_pdf", {}, f"?season={season.pk}"),
    ):
        url = reverse(name, kwargs={"club": club.slug, **kwargs}) + query
        # Rendered every time (nothing kept): the first download after a change.
        times = _get_cold(client, url, timed, 3)
        _, queries, response = _get(client, url, timed, 1)
        pages = len(PdfReader(io.BytesIO(response.content)).pages)
        out[key] = {**summary(times), "pages": pages}
        # The repeat download of a closed evening's (or an unchanged season's) PDF: kept.
        rendered = reports.RENDERED["pdfs"]
        times, queries, _ = _get(client, url, timed, 5)
        out[key + "_repeat"] = {
            **summary(times),
            "queries": queries,
            "rendered": reports.RENDERED["pdfs"] - rendered,
        }
    # The PDF against the same sheet's HTML page, both with nothing kept, in this run.
    out["pdf_evening_sheet"]["x_html"] = round(
        out["pdf_evening_sheet"]["median_ms"] / out["page_evening_sheet_cold"]["median_ms"], 2
    )
    return out
