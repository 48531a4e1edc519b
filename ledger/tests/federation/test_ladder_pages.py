"""The ladder's pages at size: 100 lines a page (only that page's kept lines read, the same
queries on every page), a "find a player" box that jumps to his page and line, a name not on
the ladder said so; the CSV holds every line."""

import csv
import datetime
import io
import re

import pytest
from django.test import Client
from django.urls import reverse

from bench import federation as bench
from ledger.models import Federation
from ledger.services import federation as fed
from ledger.services.federation.ladder import ladder_kept
from ledger.services.federation.results import results_import
from ledger.tests.helpers import english

pytestmark = pytest.mark.django_db

PLAYERS = 130


def big_ladder():
    """A publishing federation with a series of one imported event of 130 players."""
    federation = fed.federation_create(
        name="Bench federation", slug=bench.SLUG, game=bench.GAME, language="sl"
    )
    Federation.objects.filter(pk=federation.pk).update(publish_results=True)
    document = bench.results_file(
        uid="00000000-0000-4000-8000-000000000130",
        name="Open 130",
        date=datetime.date(2026, 10, 3),
        players=[(str(i + 1), f"Player {i:03d}", "Club", f"L{i:03d}") for i in range(PLAYERS)],
        rounds=1,
        seed=130,
    )
    event = results_import(document=document, federation=federation).event
    series = fed.series_create(
        name="Open ladder",
        seed="open",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule=bench.RULE,
        federation=federation,
    )
    fed.series_event_add(series=series, imported=event)
    url = reverse("public_ladder", kwargs={"federation": federation.slug, "pk": series.pk})
    return series, url, document


def rows(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tr[^>]* id="line-(\d+)"', html)]


def test_the_ladder_shows_100_lines_a_page_and_exports_them_all(django_assert_num_queries):
    series, url, _document = big_ladder()
    client = english(Client())
    first = client.get(url).content.decode()
    assert rows(first) == list(range(1, 101))
    ladder_kept(series)
    with django_assert_num_queries(8):  # as the first page (test_public_ladder.py)
        second = client.get(url, {"page": 2}).content.decode()
    assert rows(second) == list(range(101, PLAYERS + 1))
    exported = client.get(url, {"_export": "csv"}).content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(exported)))
    assert len(lines) == 1 + PLAYERS
    assert [line[0] for line in lines[1:]] == [str(n) for n in range(1, PLAYERS + 1)]


def test_find_a_player_jumps_to_his_page_and_line():
    """The 120th line's player found by his name (part of it, any case) or by his licence:
    the page 2 and his line; a name not on the ladder: the first page, saying so."""
    series, url, document = big_ladder()
    client = english(Client())
    client.get(url)
    line = series.kept_lines.select_related("player").get(position=120)
    for find in (line.player.name.upper(), line.player.licence):
        answer = client.get(url, {"find": find})
        assert answer.status_code == 302
        assert answer["Location"] == f"{url}?page=2#line-120"
    page = client.get(answer["Location"]).content.decode()
    assert 'id="line-120"' in page and line.player.name in page
    missing = client.get(url, {"find": "Nobody"})
    assert missing.status_code == 200
    html = missing.content.decode()
    assert "No player on the ladder is called “Nobody”." in html
    assert rows(html) == list(range(1, 101))
