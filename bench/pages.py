"""Pages and PDFs of make bench: requested through Django's test client, as a browser would."""

from __future__ import annotations

import io

from django.contrib.auth import get_user_model
from django.db import connection, reset_queries
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.models import Club, Evening, Member, Season

RAW_STANDINGS = """
SELECT a.member_id,
       SUM(CASE WHEN t.target_id = a.id THEN t.points ELSE -t.points END)
FROM ledger_transfer t
JOIN ledger_account a ON a.id = t.source_id OR a.id = t.target_id
JOIN ledger_table tb ON tb.id = t.table_id
JOIN ledger_evening e ON e.id = tb.evening_id
WHERE e.season_id = %s AND a.kind = 'member'
GROUP BY a.member_id
"""


def _get(client, url, timed, repeat):
    queries = []
    responses = []

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
    from django.core.cache import cache, caches

    def once():
        cache.clear()
        caches["shared"].clear()
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

    def raw():
        with connection.cursor() as cursor:
            cursor.execute(RAW_STANDINGS, [season.pk])
            cursor.fetchall()

    raw_times = timed(raw, 5)
    out["raw_standings_sql"] = {"median_ms": ms(sorted(raw_times)[2])}

    url = reverse("standings", kwargs={"club": club.slug}) + f"?season={season.pk}"
    times, queries, _ = _get(client, url, timed, 5)
    out["page_standings"] = {**summary(times), "queries": queries}
    out["page_standings"]["x_raw_sql"] = round(
        out["page_standings"]["median_ms"] / max(out["raw_standings_sql"]["median_ms"], 0.01), 2
    )
    out["page_standings_cold"] = summary(_get_cold(client, url, timed, 5))
    out["page_standings_cold"]["x_raw_sql"] = round(
        out["page_standings_cold"]["median_ms"] / max(out["raw_standings_sql"]["median_ms"], 0.01),
        2,
    )

    url = reverse("member_season", kwargs={"club": club.slug, "pk": member.pk})
    times, queries, _ = _get(client, url + f"?season={season.pk}", timed, 5)
    out["page_member"] = {**summary(times), "queries": queries}
    out["page_member_cold"] = summary(_get_cold(client, url + f"?season={season.pk}", timed, 5))
    out["page_member"]["x_raw_sql"] = round(
        out["page_member"]["median_ms"] / max(out["raw_standings_sql"]["median_ms"], 0.01), 2
    )

    url = reverse("evening_sheet", kwargs={"club": club.slug, "pk": evening.pk})
    times, queries, _ = _get(client, url, timed, 3)
    out["page_evening_sheet"] = {**summary(times), "queries": queries}
    out["page_evening_sheet_cold"] = summary(_get_cold(client, url, timed, 3))

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
