"""A federation's officer pages, mounted at /f/<federation>/ (the federation's short name).

Every view here is a ``federation_officer`` view; the authorization test checks that each URL
under the prefix is in ``FEDERATION_MATRIX`` (``ledger/tests/helpers.py``).
"""

from django.urls import path

from ledger.views import federation as views
from ledger.views import federation_imports as imports
from ledger.views import federation_ladder as ladder_views
from ledger.views import federation_officer as officer
from ledger.views import federation_ratings

urlpatterns = [
    path("", views.federation_home, name="federation_home"),
    path("clubs/", officer.federation_clubs, name="federation_clubs"),
    path("players/", officer.federation_players, name="federation_players"),
    path("players/merge/", officer.federation_player_merge, name="federation_player_merge"),
    path("players/<int:pk>/", officer.federation_player, name="federation_player"),
    path("series/", officer.federation_series_list, name="federation_series_list"),
    path("series/new/", officer.federation_series_new, name="federation_series_new"),
    path("series/<int:pk>/", officer.federation_series, name="federation_series"),
    path(
        "series/<int:pk>/change/", officer.federation_series_change, name="federation_series_change"
    ),
    path(
        "series/<int:pk>/events/<int:event>/",
        officer.federation_series_event,
        name="federation_series_event",
    ),
    path(
        "series/<int:pk>/ladder/", officer.federation_series_ladder, name="federation_series_ladder"
    ),
    path("log/", officer.federation_log, name="federation_log"),
    path("officers/", officer.federation_officers, name="federation_officers"),
]

# Results files (``federation.md`` section 5): ``ledger.views.federation_imports``.
urlpatterns += [
    path("imports/", imports.federation_imports, name="federation_imports"),
    path("imports/upload/", imports.federation_import_upload, name="federation_import_upload"),
    path("imports/<int:pk>/", imports.federation_import, name="federation_import"),
    path("imports/<int:pk>/file/", imports.federation_import_file, name="federation_import_file"),
    path("tokens/", imports.federation_tokens, name="federation_tokens"),
]
urlpatterns += [
    path("publish/", ladder_views.federation_publish, name="federation_publish"),
]

# Rating lists (``federation.md`` section 3): ``ledger.views.federation_ratings``.
urlpatterns += [
    path("ratings/", federation_ratings.federation_ratings, name="federation_ratings"),
    path(
        "ratings/<int:pk>/recompute/",
        federation_ratings.federation_rating_recompute,
        name="federation_rating_recompute",
    ),
]
