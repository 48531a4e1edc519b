"""URLs of the ledger app. Club-scoped pages live under /c/<club>/ (the club's short name).

Each area keeps its own URL module: ``urls_scoring`` (evenings, tables, hands: the
scorekeeper's tablet) and ``urls_treasury`` (closing, jetons, standings, reports, PDFs).
"""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from . import urls_setup, views

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("c/<slug:club>/", views.club_home, name="club"),
    path("c/<slug:club>/", include("ledger.urls_scoring")),
    path("c/<slug:club>/", include("ledger.urls_treasury")),
    path("c/<slug:club>/", include("ledger.urls_setup")),
    path("c/<slug:club>/", include("ledger.urls_me")),
    path("", include(urls_setup.public_urlpatterns)),
]
