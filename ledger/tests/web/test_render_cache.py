"""Kept renderings (``ledger.web.render_cache``) are never stale."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse

from ledger.tests import factories
from ledger.tests.helpers import log_in_as

pytestmark = pytest.mark.django_db


def evenings_row(html: str, date_text: str) -> str:
    section = html.split('id="member-evenings"', 1)[1].split("</table>", 1)[0]
    return next(row for row in section.split("<tr") if date_text in row)


def anna_with_a_table(client):
    """A club's season with evening E; Anna logged in. Her season page's address and a table
    of the evening."""
    cache.clear()
    club = factories.make_club()
    factories.make_season(club)
    _, table, _ = factories.evening_e(club)
    anna = log_in_as(client, club)
    return reverse("member_season", kwargs={"club": club.slug, "pk": anna.pk}), table


def test_a_kept_rendering_follows_every_new_hand(client):
    url, table = anna_with_a_table(client)
    first = client.get(url).content.decode()
    again = client.get(url).content.decode()  # kept
    assert evenings_row(first, "05.11.2026") == evenings_row(again, "05.11.2026")
    factories.random_table_hands(table, 3, seed=4)
    after = client.get(url).content.decode()
    cache.clear()
    fresh = client.get(url).content.decode()  # rendered anew
    assert evenings_row(after, "05.11.2026") == evenings_row(fresh, "05.11.2026")
    assert evenings_row(after, "05.11.2026") != evenings_row(first, "05.11.2026")


def test_a_kept_rendering_is_kept_per_language(client):
    cache.clear()
    club = factories.make_club()
    factories.make_season(club)
    factories.evening_e(club)
    anna = log_in_as(client, club)
    url = reverse("member_season", kwargs={"club": club.slug, "pk": anna.pk})
    danish = client.get(url).content.decode()  # the club's language
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"  # the reader's own choice wins
    english = client.get(url).content.decode()
    head = lambda html: html.split('id="member-evenings"', 1)[1].split("</thead>", 1)[0]  # noqa: E731
    assert "Dato" in head(danish)
    assert "Date" in head(english)


def test_a_kept_rendering_is_kept_per_currency(client):
    """A club that changes its currency from kroner to forints sees its money without
    decimals at once: the currency is part of the kept rendering's key."""
    cache.clear()
    club = factories.make_club()
    factories.make_season(club)
    factories.evening_e(club)
    anna = log_in_as(client, club)
    url = reverse("member_season", kwargs={"club": club.slug, "pk": anna.pk})
    kroner = client.get(url).content.decode()
    club.currency = "HUF"
    club.save()
    forints = client.get(url).content.decode()
    money = re.compile(r'<span data-money="[^"]+">([^<]+)<')
    assert money.findall(kroner) and all("," in text for text in money.findall(kroner))
    assert money.findall(forints) and not any("," in text for text in money.findall(forints))


def test_the_kept_hands_and_chart_follow_every_new_hand(client):
    """A member's season keeps his hands' page and his chart too: a new hand shows in both
    at the next read, as rendered anew."""
    url, table = anna_with_a_table(client)

    def hands_and_chart(html: str) -> tuple[str, str]:
        hands = html.split('id="member-hands"', 1)[1].split("</table>", 1)[0]
        return hands, html.split('id="chart"', 1)[1].split("</figure>", 1)[0]

    first = hands_and_chart(client.get(url).content.decode())
    assert hands_and_chart(client.get(url).content.decode()) == first  # kept
    factories.random_table_hands(table, 3, seed=4)
    after = hands_and_chart(client.get(url).content.decode())
    cache.clear()
    assert hands_and_chart(client.get(url).content.decode()) == after  # as rendered anew
    assert after[0].count("<tr") > first[0].count("<tr") and after[1] != first[1]
