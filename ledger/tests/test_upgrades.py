"""Upgrades keep the ledger whole: a database of an earlier schema, migrated to the head,
verifies OK; one that does not re-derive is refused, named, and left unsealed.

Each test plays a demo's worth of ledger through the services (evenings of the three games
with corrections and a void, closed evenings with their results, a closed tournament round),
takes the schema back to an earlier state with Django's ``MigrationExecutor`` (the rows stay,
in the historical tables: before 0014 no seal table exists at all), changes rows there with the
historical models where a test says so, and migrates to the head again.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger import services
from ledger.db import ledger_unlocked
from ledger.models import Round, Tournament
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club
from ledger.tests.helpers import score_table
from ledger.tests.security.test_tampering import EXAMPLES, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DAY = datetime.date(2026, 11, 5)


def head() -> list[tuple[str, str]]:
    return MigrationExecutor(connection).loader.graph.leaf_nodes("ledger")


def migrate(target: list[tuple[str, str]]):
    """Migrate the test database to ``target``; return the historical apps there."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    return executor.loader.project_state(target).apps


@pytest.fixture
def at_head():
    """Leave the database at the head whatever the test did."""
    latest = head()
    yield latest
    try:
        migrate(latest)
    except Exception:
        # A failed test may leave a ledger that does not upgrade: empty it first.
        with ledger_unlocked():
            call_command("flush", interactive=False, verbosity=0)
        migrate(latest)
        raise


def demo():
    """Play the three games' example evenings (closed, and one open with a voided hand) and a
    Slovenian tournament whose first round is closed."""
    for game in EXAMPLES:
        play(game)
        _, _, hands = play(game, close=False, date=DAY + datetime.timedelta(days=1))
        services.hand_void(hand=hands[1], reason="misdeal")
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    t = tour.tournament_create(
        club=club,
        name="DP Kranj",
        date=DAY,
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 2},
        seed="UPGRADE",
    )
    names = ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc", "Gal", "Hana"]
    lines = "\n".join(f"{n},Kranj,{i + 1}" for i, n in enumerate(names))
    tour.entries_import(tournament=t, text="name,club,rank\n" + lines)
    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    for rt in r.round_tables.select_related("table", "round__tournament"):
        score_table(rt, dict(zip(rt.seats, (30, -10, 5, -25), strict=False)))
    tour.round_close(round_=r)


def test_a_ledger_from_before_the_seals_verifies_after_the_upgrade(at_head):
    """A ledger of schema 0013 (no seal table; its evenings, tables, accounts, postings,
    transfers, hands, revisions, logs and results as the release before the seals left them)
    migrated to the head: every row is sealed and ``verify_ledger`` is OK."""
    demo()
    apps = migrate([("ledger", "0013_points_bigint")])
    assert apps.get_model("ledger", "Posting").objects.count() > 60
    assert apps.get_model("ledger", "EveningResult").objects.exists()
    migrate(at_head)
    report = verify_ledger()
    assert report.ok, report.problems
    assert report.hands > 30


def test_a_ledger_with_a_closed_tournament_round_verifies_after_the_upgrade(at_head):
    """A ledger of schema 0018 (evenings sealed, tournaments not yet, a closed round) with its
    evening seals lost migrated to the head verifies OK."""
    demo()
    apps = migrate([("ledger", "0018_tournament_version")])
    assert apps.get_model("ledger", "Round").objects.filter(status="closed").exists()
    apps.get_model("ledger", "Seal").objects.filter(kind="evening").delete()
    migrate(at_head)
    report = verify_ledger()
    assert report.ok, report.problems


def test_a_transfer_changed_before_the_upgrade_is_refused_and_named(at_head):
    """A stored transfer and a closed evening's result changed in a schema-0013 ledger: the
    upgrade stops naming the evening, the table and the hand, and the member's result, and
    seals nothing; repaired, the ledger upgrades and verifies."""
    from importlib import import_module

    for game in EXAMPLES:
        play(game)
    apps = migrate([("ledger", "0013_points_bigint")])
    Transfer = apps.get_model("ledger", "Transfer")
    changed = Transfer.objects.filter(posting__kind="hand", posting__hand__number=2).earliest("pk")
    table = changed.posting.table
    with ledger_unlocked(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE ledger_transfer DISABLE TRIGGER USER")
        Transfer.objects.filter(pk=changed.pk).update(points=changed.points + 10)
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE ledger_transfer ENABLE TRIGGER USER")
    EveningResult = apps.get_model("ledger", "EveningResult")
    result = EveningResult.objects.filter(evening__club__game="hungarian_tarokk").earliest("pk")
    EveningResult.objects.filter(pk=result.pk).update(points=result.points + 5)
    apps = migrate([("ledger", "0019_evening_kind_tournament_seals")])
    migration = import_module("ledger.migrations.0020_seal_upgraded_ledger")
    with pytest.raises(migration.LedgerDoesNotRederive) as refused:
        migrate([("ledger", "0020_seal_upgraded_ledger")])
    where = f"evening {table.evening.date} table {table.number} hand 2"
    assert f"{where}: its stored transfers differ from the settlement of its record" in str(
        refused.value
    )
    assert (
        f"evening {DAY}: the result of member {result.member_id} says {result.points + 5}, "
        f"but the tables' close gives {result.points} points"
    ) in str(refused.value)
    Seal = apps.get_model("ledger", "Seal")
    assert not Seal.objects.filter(kind="posting").exists()
    # Repaired, it upgrades and verifies.
    with ledger_unlocked(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE ledger_transfer DISABLE TRIGGER USER")
        apps.get_model("ledger", "Transfer").objects.filter(pk=changed.pk).update(
            points=changed.points
        )
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE ledger_transfer ENABLE TRIGGER USER")
    apps.get_model("ledger", "EveningResult").objects.filter(pk=result.pk).update(
        points=result.points
    )
    migrate(at_head)
    report = verify_ledger()
    assert report.ok, report.problems


def test_tournaments_from_before_their_days_verify_after_the_upgrade(at_head):
    """A ledger of schema 0063 (a tournament of one date, its closed round at its evening)
    migrated to the head: the tournament's last day is its date, the round's day that date and
    its evening the tournament's, its head resealed, and ``verify_ledger`` is OK; a tournament
    changed before the upgrade keeps its old seal and is still named."""
    demo()
    changed = tour.tournament_create(
        club=Tournament.objects.get().club,
        name="Cup",
        date=DAY,
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    apps = migrate([("ledger", "0063_merge_chain_tournaments_federation")])
    apps.get_model("ledger", "Tournament").objects.filter(pk=changed.pk).update(name="Renamed")
    migrate(at_head)
    t = Tournament.objects.get(name="DP Kranj")
    assert t.last_date == t.date == DAY
    closed = Round.objects.get(tournament=t, number=1)
    assert closed.day == DAY and closed.evening_id == t.evening_id
    report = verify_ledger()
    assert len(report.problems) == 1
    assert report.problems[0].startswith("tournament Renamed: differs from its seal")
