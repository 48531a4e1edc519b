"""A federation's public ladders under /pf/<federation>/: 404 to everyone until an officer
publishes them, then open to all without a log-in (GET only), the ladder with its CSV and the
notice board's PDF; the officer's switch is logged; every page's queries pinned."""

import csv
import io

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from ledger.models import Federation, FederationLog
from ledger.services.federation.ladder import ladder_kept
from ledger.tests.federation.test_series_ladder import create, first_dp, world
from ledger.tests.helpers import client_for, english, federation_world, pdftotext
from ledger.tests.views.test_authorization import club_url_names

pytestmark = pytest.mark.django_db

PUBLIC = {"public_federation", "public_ladder", "public_ladder_pdf"}
# Each public page's queries, its ladder kept: the federation; its series; for a ladder the
# kept ladder's fingerprint (the events, the last merge) and the kept ladder; the page: the
# count of lines and the page of them (players and clubs joined), the kept ladder's facts;
# the PDF: every line, + the kept store's read, the render lock (5 and its release) and
# keeping it (5): nothing is kept, the cache cleared.
PUBLIC_QUERIES = {"public_federation": 2, "public_ladder": 8, "public_ladder_pdf": 18}


def test_every_public_federation_url_is_known():
    assert club_url_names("pf/<slug:federation>/") == PUBLIC


def published_world():
    club, tzs, members = world()
    first = first_dp(club, members)
    rule = {"source": "placement", "scale": {"kind": "linear"}, "qualify": 2}
    series = create(tzs, events=[(first, "1")], rule=rule)
    return tzs, series


def urls(tzs, series):
    return {
        "public_federation": reverse("public_federation", kwargs={"federation": tzs.slug}),
        "public_ladder": reverse("public_ladder", kwargs={"federation": tzs.slug, "pk": series.pk}),
        "public_ladder_pdf": reverse(
            "public_ladder_pdf", kwargs={"federation": tzs.slug, "pk": series.pk}
        ),
    }


def test_404_until_published_then_public_to_all():
    tzs, series = published_world()
    pages = urls(tzs, series)
    for url in pages.values():
        assert Client().get(url).status_code == 404, url
    Federation.objects.filter(pk=tzs.pk).update(publish_results=True)
    for name, url in pages.items():
        answer = Client().get(url)
        assert answer.status_code == 200, url
        assert Client().post(url).status_code == 405, url
        if name == "public_ladder":
            html = answer.content.decode()
            assert "Ana" in html and "Pokal 2026" in html
    # A series of another federation is not found under this one.
    other = Federation.objects.create(
        name="Other", slug="other", game="slovenian_tarok", language="sl", publish_results=True
    )
    assert (
        Client()
        .get(reverse("public_ladder", kwargs={"federation": other.slug, "pk": series.pk}))
        .status_code
        == 404
    )


def test_public_csv_and_pdf(tmp_path):
    tzs, series = published_world()
    Federation.objects.filter(pk=tzs.pk).update(publish_results=True)
    client = english(Client())
    pages = urls(tzs, series)
    text = client.get(pages["public_ladder"], {"_export": "csv"}).content.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert [r[1] for r in rows[1:]] == ["Ana", "Bor", "Cene", "Dan"]
    assert rows[1][-1] == "Qualified" and rows[3][-1] == ""
    pdf = client.get(pages["public_ladder_pdf"])
    assert pdf["Content-Type"] == "application/pdf"
    read = pdftotext(pdf.content, tmp_path)
    assert "Ladder: Pokal 2026" in read and "Standings after 1 event" in read
    # The same ladder again is the kept PDF.
    assert client.get(pages["public_ladder_pdf"]).content == pdf.content


def test_an_officer_publishes_and_stops_logged():
    w = federation_world()
    url = reverse("federation_publish", kwargs={"federation": "tzs"})
    officer = client_for(w["officer"])
    assert officer.post(url, {"publish": "1"}).status_code == 302
    assert Federation.objects.get(pk=w["federation"].pk).publish_results is True
    home = officer.get(reverse("federation_home", kwargs={"federation": "tzs"})).content.decode()
    assert reverse("public_federation", kwargs={"federation": "tzs"}) in home
    assert (
        Client().get(reverse("public_federation", kwargs={"federation": "tzs"})).status_code == 200
    )
    officer.post(url, {"publish": "0"})
    assert Federation.objects.get(pk=w["federation"].pk).publish_results is False
    assert [r.details for r in FederationLog.objects.filter(action="publish").order_by("pk")] == [
        {"publish": True},
        {"publish": False},
    ]
    # Another federation's officer cannot switch it.
    assert client_for(w["b_officer"]).post(url, {"publish": "1"}).status_code == 404
    assert Federation.objects.get(pk=w["federation"].pk).publish_results is False


@pytest.mark.parametrize("name", sorted(PUBLIC_QUERIES))
def test_public_page_queries(name, django_assert_num_queries):
    tzs, series = published_world()
    Federation.objects.filter(pk=tzs.pk).update(publish_results=True)
    url = urls(tzs, series)[name]
    ladder_kept(series)  # the pages read the kept ladder; its first read is pinned below
    client = Client()
    cache.clear()
    with django_assert_num_queries(PUBLIC_QUERIES[name]):
        assert client.get(url).status_code == 200
