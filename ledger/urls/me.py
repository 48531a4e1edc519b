"""A member's own page (Min side)."""

from django.urls import path

from ledger.views import me as views_me

urlpatterns = [
    path("me/", views_me.my_page, name="my_page"),
]
