"""A member's own page (Min side)."""

from django.urls import path

from . import views_me

urlpatterns = [
    path("me/", views_me.my_page, name="my_page"),
]
