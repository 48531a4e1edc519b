"""Kept renderings (``ledger.web.render_cache``) are never stale, and the django-tables2
signature memo (``ledger.web.tables2_speed``) answers exactly as django-tables2 does."""

from __future__ import annotations

import functools

import pytest
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django_tables2 import utils

from ledger.tests import factories
from ledger.tests.helpers import log_in_as
from ledger.web import tables2_speed

pytestmark = pytest.mark.django_db


class Thing:
    def method(self, record, table=None):
        return record

    def __call__(self, value, **kwargs):
        return value


def plain(record, *args, **kwargs):
    return record


@pytest.mark.parametrize(
    "fn",
    [
        plain,
        lambda table: table,
        Thing().method,
        Thing.method,
        Thing(),
        functools.partial(plain, 1),
        len,
    ],
    ids=[
        "function",
        "lambda",
        "bound method",
        "function of a class",
        "callable",
        "partial",
        "builtin",
    ],
)
def test_the_signature_memo_answers_as_django_tables2(fn):
    assert utils.signature is tables2_speed.signature  # installed by LedgerConfig.ready
    assert tables2_speed.signature(fn) == tables2_speed._original(fn)
    assert tables2_speed.signature(fn) == tables2_speed._original(fn)  # and again, kept


def evenings_row(html: str, date_text: str) -> str:
    section = html.split('id="member-evenings"', 1)[1].split("</table>", 1)[0]
    return next(row for row in section.split("<tr") if date_text in row)


def test_a_kept_rendering_follows_every_new_hand(client):
    cache.clear()
    club = factories.make_club()
    factories.make_season(club)
    _, table, _ = factories.evening_e(club)
    anna = log_in_as(client, club)
    url = reverse("member_season", kwargs={"club": club.slug, "pk": anna.pk})
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
