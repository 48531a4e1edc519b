"""Issue 22.5: pagination and exports are answered only within their bounds and formats; the
probe's per_page=-1, huge pages and _export=ods|xls|yaml (and tsv, json, latex on the
standings) are 400s naming the parameter, never a 500 or an unlisted format."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Member
from ledger.tests.factories import make_club, make_member
from ledger.tests.helpers import build_season, login

pytestmark = pytest.mark.django_db

HOSTILE = [
    ("per_page", "-1"),
    ("per_page", "0"),
    ("per_page", "99999999"),
    ("per_page", "1e3"),
    ("page", "99999999999999999999999"),
    ("page", "0"),
    ("page", "-3"),
    ("page", "abc"),
    ("page", "٣"),  # an Arabic-Indic three: isdigit, not ASCII
    ("ev-page", "10000000000"),
    ("h-per_page", "-1"),
    ("h-page", "1.5"),
    ("_export", "ods"),
    ("_export", "xls"),
    ("_export", "yaml"),
    ("_export", "tsv"),
    ("_export", "json"),
    ("_export", "latex"),
    ("_export", "html"),
    ("_export", ""),
]


@pytest.fixture
def pages(client):
    club = make_club()
    build_season(club, hands=8)
    treasurer = make_member(club, "Kasserer", Member.Role.TREASURER, login=True)
    club.publish_results = True
    club.save()
    login(client, treasurer)
    anna = Member.objects.get(club=club, name="Anna")
    return client, [
        reverse("standings", kwargs={"club": club.slug}),
        reverse("member_season", kwargs={"club": club.slug, "pk": anna.pk}),
        reverse("public_standings", kwargs={"club": club.slug}),
    ]


def test_bounded_pages_and_formats(pages):
    """Every hostile value on every page is a 400 naming its parameter; the documented formats
    export; a page past the last is no 500 (one season built for all of it)."""
    client, urls = pages
    wrong = []
    for key, value in HOSTILE:
        for url in urls:
            response = client.get(url, {key: value})
            if response.status_code != 400 or key not in response.content.decode():
                wrong.append((url, key, value, response.status_code))
    assert wrong == []
    for export in ("csv", "xlsx"):
        response = client.get(urls[0], {"_export": export})
        assert response.status_code == 200
        assert response["Content-Disposition"].endswith(f'.{export}"')
        assert client.get(urls[1], {"_export": export, "table": "hands"}).status_code == 200
    for url in urls:
        for query in ({"page": "999999"}, {"h-page": "999999"}, {"per_page": "200"}):
            assert client.get(url, query).status_code in (200, 404), (url, query)


def test_a_stranger_gets_the_same_answer():
    """The bounds hold before any view runs, for anybody."""
    response = Client().get("/p/nowhere/standings/", {"page": "-1"})
    assert response.status_code == 400
