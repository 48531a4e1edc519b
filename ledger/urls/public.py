"""The public results pages under /p/<club>/ (``ledger.views.public``): 404 unless published."""

from django.urls import path

from ledger.views import public as views

urlpatterns = [
    path("<slug:club>/", views.public_club, name="public_club"),
    path("<slug:club>/standings/", views.public_standings, name="public_standings"),
    path("<slug:club>/evening/<int:pk>/", views.public_evening, name="public_evening"),
    path("<slug:club>/t/<int:pk>/", views.public_tournament, name="public_tournament"),
]
