"""The machines' URLs, mounted at /api/: a club's installation posts its results files to a
federation with an upload token (``ledger.views.results_api``). No page and no session here."""

from django.urls import path

from ledger.views import results_api

urlpatterns = [
    path("f/<slug:federation>/results/", results_api.results_post, name="results_api"),
]
