"""A federation's officer pages, mounted at /f/<federation>/ (the federation's short name).

Every view here is a ``federation_officer`` view; the authorization test checks that each URL
under the prefix is in ``FEDERATION_MATRIX`` (``ledger/tests/helpers.py``).
"""

from django.urls import path

from ledger.views import federation as views
from ledger.views import federation_ladder as ladder_views

urlpatterns = [
    path("", views.federation_home, name="federation_home"),
]
urlpatterns += [
    path("publish/", ladder_views.federation_publish, name="federation_publish"),
]
