"""A member's own page (Min side)."""

from django.urls import path

from ledger.views import me as views_me
from ledger.views import privacy

urlpatterns = [
    path("me/", views_me.my_page, name="my_page"),
    path("me/data/", privacy.my_data, name="my_data"),
    path("me/data/pdf/", privacy.my_data_pdf, name="my_data_pdf"),
    path("me/erase/", privacy.my_erase, name="my_erase"),
]
