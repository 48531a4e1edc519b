"""URLs of the ledger app. Club-scoped pages live under /c/<club>/ (the club's short name).

Each area keeps its own URL module in this package: ``scoring`` (evenings, tables, hands: the
scorekeeper's tablet), ``treasury`` (closing, jetons, standings, reports, PDFs), ``setup``,
``me``, ``tournaments`` (the director's screens and the hall's wall), ``federation`` (a
federation's officer pages, mounted at /f/<federation>/), ``api`` (mounted at /api/: the
results files posted with an upload token), ``public_federation`` (a federation's public
ladders, mounted at /pf/<federation>/), ``public``
(mounted at /p/) and ``password`` (mounted at /password-reset/).
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from ledger.urls import setup as urls_setup
from ledger.views import home as views
from ledger.views import me as views_me

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", views.TabletLogoutView.as_view(), name="logout"),
    path("me/player/", views_me.my_player, name="my_player"),
    path("c/<slug:club>/", views.club_home, name="club"),
    path("c/<slug:club>/", include("ledger.urls.scoring")),
    path("c/<slug:club>/", include("ledger.urls.treasury")),
    path("c/<slug:club>/", include("ledger.urls.setup")),
    path("c/<slug:club>/", include("ledger.urls.me")),
    path("c/<slug:club>/", include("ledger.urls.tournaments")),
    path("f/<slug:federation>/", include("ledger.urls.federation")),
    path("api/", include("ledger.urls.api")),
    path("pf/<slug:federation>/", include("ledger.urls.public_federation")),
    path("", include(urls_setup.public_urlpatterns)),
]
