"""A federation's officer pages, mounted at /f/<federation>/ (the federation's short name).

Every view here is a ``federation_officer`` view; the authorization test checks that each URL
under the prefix is in ``FEDERATION_MATRIX`` (``ledger/tests/helpers.py``).
"""

from django.urls import path

from ledger.views import federation as views
from ledger.views import federation_officer as officer

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
        "series/<int:pk>/ladder/", officer.federation_series_ladder, name="federation_series_ladder"
    ),
    path("log/", officer.federation_log, name="federation_log"),
    path("officers/", officer.federation_officers, name="federation_officers"),
]
