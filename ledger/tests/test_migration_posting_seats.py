"""Migration 0012 backfills the seat rows by settling each live hand again: a hand of a game
no longer installed (removed from TAROK_GAMES) is skipped, not a crash."""

import importlib

import pytest
from django.apps import apps

from ledger.models import AccountStats, PostingSeat, Table
from ledger.tests.factories import evening_e, make_club
from ledger.tests.selectors.test_verify import tampering

pytestmark = pytest.mark.django_db


def test_the_backfill_skips_the_hands_of_a_game_no_longer_installed():
    """Two tables of Evening E, one of them of a game that is gone: the other's hands get their
    seat rows back, the gone game's none, and the migration does not stop."""
    migration = importlib.import_module("ledger.migrations.0012_posting_seats")
    _evening, kept, _hands = evening_e(make_club(slug="kept"))
    _evening, gone, _hands = evening_e(make_club(slug="gone"))
    rows = PostingSeat.objects.filter(posting__table=kept).count()
    with tampering():
        PostingSeat.objects.all().delete()
        AccountStats.objects.all().delete()
        Table.objects.filter(pk=gone.pk).update(game="removed_game")
    migration.backfill(apps, None)
    assert PostingSeat.objects.filter(posting__table=kept).count() == rows > 0
    assert not PostingSeat.objects.filter(posting__table=gone).exists()
