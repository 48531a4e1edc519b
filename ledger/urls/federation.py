"""A federation's officer pages, mounted at /f/<federation>/ (the federation's short name).

Every view here is a ``federation_officer`` view; the authorization test checks that each URL
under the prefix is in ``FEDERATION_MATRIX`` (``ledger/tests/helpers.py``).
"""

from django.urls import path

from ledger.views import federation as views
from ledger.views import federation_ratings

urlpatterns = [
    path("", views.federation_home, name="federation_home"),
    path("ratings/", federation_ratings.federation_ratings, name="federation_ratings"),
    path(
        "ratings/<int:pk>/recompute/",
        federation_ratings.federation_rating_recompute,
        name="federation_rating_recompute",
    ),
]
