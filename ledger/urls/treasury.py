"""The treasurer and the season: closing, jetons, standings, member pages, PDFs (issue 5)."""

from django.urls import path

from ledger.views import treasury as views
from ledger.views import whatif

urlpatterns = [
    path("standings/", views.standings, name="standings"),
    path("standings/report.pdf", views.standings_pdf, name="standings_pdf"),
    path("members/<int:pk>/season/", views.member_season, name="member_season"),
    path("members/<int:pk>/season.pdf", views.member_season_pdf, name="member_season_pdf"),
    path("evening/<int:pk>/sheet/", views.evening_sheet, name="evening_sheet"),
    path("evening/<int:pk>/sheet.pdf", views.evening_sheet_pdf, name="evening_sheet_pdf"),
    path(
        "evening/<int:pk>/table/<int:table>/sheet.pdf",
        views.table_sheet_pdf,
        name="table_sheet_pdf",
    ),
    path("evening/<int:pk>/treasury/", views.evening_treasury, name="evening_treasury"),
    path(
        "evening/<int:pk>/treasury/table/<int:table>/count/",
        views.treasury_count,
        name="treasury_count",
    ),
    path(
        "evening/<int:pk>/treasury/table/<int:table>/adjust/",
        views.treasury_adjust,
        name="treasury_adjust",
    ),
    path("evening/<int:pk>/treasury/close/", views.treasury_close, name="treasury_close"),
    path("evening/<int:pk>/treasury/reopen/", views.treasury_reopen, name="treasury_reopen"),
    # What if: an evening or a season under another rate card (issue 32), read-only.
    path("whatif/<slug:scope>/<int:pk>/", whatif.whatif_page, name="whatif"),
    path("whatif/<slug:scope>/<int:pk>/report.pdf", whatif.whatif_pdf, name="whatif_pdf"),
]
