"""A federation's public ladders under /pf/<federation>/ (``ledger.views.federation_ladder``):
404 unless the federation publishes them."""

from django.urls import path

from ledger.views import federation_ladder as views

urlpatterns = [
    path("", views.public_federation, name="public_federation"),
    path("series/<int:pk>/", views.public_ladder, name="public_ladder"),
    path("series/<int:pk>/ladder.pdf", views.public_ladder_pdf, name="public_ladder_pdf"),
]
