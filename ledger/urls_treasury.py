"""The treasurer and the season: closing, jetons, standings, member pages, PDFs (issue 5)."""

urlpatterns: list = []
