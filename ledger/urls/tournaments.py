"""The director's screens of a tournament and the hall's wall (issue 21), under /c/<club>/t/."""

from django.urls import path

from ledger.views import federation as federation_views
from ledger.views import federation_ratings, seeding, series_edit
from ledger.views import table_links as link_views
from ledger.views import tournament_sheets as sheet_views
from ledger.views import tournaments as views

urlpatterns = [
    path("t/", views.tournaments, name="tournaments"),
    path("t/<int:pk>/", views.tournament, name="tournament"),
    path("t/<int:pk>/entries/", views.tournament_entries, name="tournament_entries"),
    path("t/<int:pk>/draw/", views.tournament_draw, name="tournament_draw"),
    path("t/<int:pk>/days/", views.tournament_days, name="tournament_days"),
    path("t/<int:pk>/finish/", views.tournament_finish, name="tournament_finish"),
    path("t/<int:pk>/rating/", federation_ratings.tournament_rating, name="tournament_rating"),
    path("t/<int:pk>/ladder/", seeding.tournament_ladder, name="tournament_ladder"),
    path("t/<int:pk>/ladder/rank/", seeding.tournament_ladder_rank, name="tournament_ladder_rank"),
    path("t/<int:pk>/reopen/", views.tournament_reopen, name="tournament_reopen"),
    path("t/<int:pk>/cancel/", views.tournament_cancel, name="tournament_cancel"),
    path("t/<int:pk>/standings/", sheet_views.tournament_standings, name="tournament_standings"),
    path(
        "t/<int:pk>/ranking.pdf", sheet_views.tournament_ranking_pdf, name="tournament_ranking_pdf"
    ),
    path("t/<int:pk>/wall/", sheet_views.tournament_wall, name="tournament_wall"),
    path(
        "t/<int:pk>/results.json",
        sheet_views.tournament_results_file,
        name="tournament_results_file",
    ),
    path("t/series/<int:pk>/", federation_views.series_ladder, name="series_ladder"),
    path("t/series/<int:pk>/change/", series_edit.cup_change, name="cup_change"),
    path("t/series/<int:pk>/events/<int:event>/", series_edit.cup_event, name="cup_event"),
    path(
        "t/series/<int:pk>/ladder.pdf",
        federation_views.series_ladder_pdf,
        name="series_ladder_pdf",
    ),
    path(
        "t/<int:pk>/entries/series/",
        federation_views.tournament_entries_series,
        name="tournament_entries_series",
    ),
    path("t/round/<int:pk>/", views.tournament_round, name="tournament_round"),
    path("t/round/<int:pk>/draw.pdf", sheet_views.round_pdf, name="tournament_round_pdf"),
    path(
        "t/round/<int:pk>/result.pdf",
        sheet_views.round_result_pdf,
        name="tournament_round_result_pdf",
    ),
    path(
        "t/round/<int:pk>/table/<int:number>/sheet.pdf",
        sheet_views.round_table_sheet_pdf,
        name="tournament_round_table_sheet_pdf",
    ),
    path("t/round/<int:pk>/day/", views.round_day, name="tournament_round_day"),
    path("t/round/<int:pk>/swap/", views.round_swap, name="tournament_round_swap"),
    path("t/round/<int:pk>/redraw/", views.round_redraw, name="tournament_round_redraw"),
    path("t/round/<int:pk>/publish/", views.round_publish, name="tournament_round_publish"),
    path("t/round/<int:pk>/start/", views.round_start, name="tournament_round_start"),
    path("t/round/<int:pk>/close/", views.round_close, name="tournament_round_close"),
    path("t/round/<int:pk>/reopen/", views.round_reopen, name="tournament_round_reopen"),
    path("t/round/<int:pk>/unpublish/", views.round_unpublish, name="tournament_round_unpublish"),
    path("t/round/<int:pk>/release/", views.round_release, name="tournament_round_release"),
    path(
        "t/round/<int:pk>/substitute/", views.round_substitute, name="tournament_round_substitute"
    ),
    path(
        "t/round/<int:pk>/cards.pdf", link_views.round_cards_pdf, name="tournament_round_cards_pdf"
    ),
    # A round table's own link (its QR code on the table's card), for one phone at the table.
    path("link/<str:token>/", link_views.table_link, name="table_link"),
    path("link/<str:token>/missing/", link_views.table_link_missing, name="table_link_missing"),
]
