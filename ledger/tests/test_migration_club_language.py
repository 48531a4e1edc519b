"""Migration 0015: every existing club gets its game's language and time zone, and its
currency when it still had the old default."""

import importlib

import pytest
from django.apps import apps

from ledger.models import Club
from ledger.tests.factories import make_club

pytestmark = pytest.mark.django_db


def test_existing_clubs_take_their_games_language_currency_and_time_zone():
    migration = importlib.import_module("ledger.migrations.0015_club_language")
    make_club(slug="dk", game="danish_tarok", language="en", time_zone="Europe/Budapest")
    make_club(slug="sl", game="slovenian_tarok")  # currency DKK: the old default
    make_club(slug="hu", game="hungarian_tarokk", currency="EUR")  # a currency it chose
    migration.club_defaults(apps, None)
    clubs = {c.slug: (c.language, c.currency, c.time_zone) for c in Club.objects.all()}
    assert clubs == {
        "dk": ("da", "DKK", "Europe/Copenhagen"),
        "sl": ("sl", "EUR", "Europe/Ljubljana"),
        "hu": ("hu", "EUR", "Europe/Budapest"),
    }


def test_the_migrations_defaults_are_the_games():
    """The migration's frozen table equals the games' ``club_defaults`` today."""
    from ledger.games.registry import get_web

    migration = importlib.import_module("ledger.migrations.0015_club_language")
    for game, (language, currency, time_zone) in migration.DEFAULTS.items():
        assert get_web(game).club_defaults == {
            "language": language,
            "currency": currency,
            "time_zone": time_zone,
        }
