"""Migration 0012 backfills the seat rows from each live hand posting with its own frozen copy
of the games' ``stats_of``: a hand of a game it does not know is skipped, not a crash, and over
the demos' hands its rows are the live engines'."""

import importlib

import pytest
from django.apps import apps

from ledger.management.commands.seed_demo import default_fixture
from ledger.models import AccountStats, PostingSeat, Table
from ledger.services import stats
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


@pytest.mark.slow
def test_the_frozen_copy_gives_the_live_engines_seat_rows_for_the_demos_hands():
    """Migration 0012 keeps its own copy of each game's ``stats_of`` (issue 29): over the three
    demo clubs' hands (every game, corrections and voids), its rows are the live engines'."""
    from django.core.management import call_command

    from ledger.models import Posting
    from ledger.services import demo as demos

    for demo in demos.all_demos():
        call_command("loaddata", str(default_fixture(demo)), verbosity=0)
    tables = Table.objects.all()
    stats.replay(tables)  # the live engines' rows (seed_demo's own step)
    live = {
        (row.posting_id, row.account_id): (row.role, row.played, row.counts)
        for row in PostingSeat.objects.all()
    }
    migration = importlib.import_module("ledger.migrations.0012_posting_seats")
    games = set()
    for posting in Posting.objects.filter(kind="hand", reversed_by__isnull=True).select_related(
        "revision", "table"
    ):
        accounts = {a.pk: a for a in posting.table.accounts.all()}
        codes = {pk: a.code for pk, a in accounts.items()}
        moves = [
            (codes[t.source_id], codes[t.target_id], t.points, t.reason)
            for t in posting.transfers.order_by("pk")
        ]
        seats = list(posting.table.seats.order_by("position").values_list("name", flat=True))
        assert posting.revision is not None
        frozen = migration.seat_stats(
            posting.table.game, posting.revision.record, posting.outcome, moves, seats
        )
        by_code = {a.code: pk for pk, a in accounts.items()}
        assert {(posting.pk, by_code[name]): value for name, value in frozen.items()} == {
            key: value for key, value in live.items() if key[0] == posting.pk
        }, posting.pk
        games.add(posting.table.game)
    assert games == {"danish_tarok", "slovenian_tarok", "hungarian_tarokk"}
    with tampering():
        PostingSeat.objects.all().delete()
        AccountStats.objects.all().delete()
    migration.backfill(apps, None)
    assert {
        (row.posting_id, row.account_id): (row.role, row.played, row.counts)
        for row in PostingSeat.objects.all()
    } == live
