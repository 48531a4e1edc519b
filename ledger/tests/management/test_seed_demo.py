"""The demo club: a fixture that loads into a sound ledger, once, regenerated deterministically."""

import itertools
import json
import random
from collections import Counter

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError
from django.urls import reverse

from ledger import selectors, services
from ledger.games.danish.demo import (
    DEMO_PASSWORD,
    DEMO_SLUG,
    DEMO_USERS,
    EVENINGS,
    MEMBERS,
    next_dealer_after_change,
)
from ledger.games.danish.engine import RateCard, rotation
from ledger.games.danish.engine.generate import random_hand
from ledger.management.commands.seed_demo import default_fixture, ids_taken
from ledger.models import (
    Club,
    Evening,
    Hand,
    HandRevision,
    JetonCount,
    Member,
    Posting,
    Seat,
    Table,
    Transfer,
)
from ledger.selectors.verify import verify_ledger
from ledger.services.demo import all_demos
from ledger.tests.helpers import seed

pytestmark = pytest.mark.django_db

FIXTURE = default_fixture()


def row_counts():
    models = [*list(apps.get_app_config("ledger").get_models()), get_user_model()]
    return {model.__name__: model._default_manager.count() for model in models}


@pytest.mark.slow
class TestLoadedDemo:
    """The committed fixture, loaded."""

    def test_fixture_loads_into_a_sound_ledger(self, demo):
        """seed_demo loads a ledger that verify_ledger passes, every table zero-sum."""
        assert "Loaded the demo club" in demo
        club = Club.objects.get(slug=DEMO_SLUG)
        assert club.name == "Hjørring Tarokklub"
        report = verify_ledger(Table.objects.filter(evening__club=club))
        assert report.ok, report.problems
        tables = Table.objects.filter(evening__club=club)
        assert report.tables == tables.count() == sum(len(p.tables) for p in EVENINGS)
        assert verify_ledger().ok  # every demo club loaded beside it, too
        for table in tables:
            balances = selectors.table_balances(table.pk)
            assert sum(balances.values()) == 0, table
            if table.status == Table.Status.CLOSED:
                assert selectors.pool_balances(table.pk) == {"kongekop": 0, "pagatkop": 0}
        assert Member.objects.filter(club=club).count() == len(MEMBERS) == 12
        assert Evening.objects.filter(club=club).count() == len(EVENINGS) == 8
        assert Evening.objects.filter(club=club, status="closed").count() == 7
        last = Evening.objects.filter(club=club).order_by("date").last()
        assert last is not None and last.status == "open"
        assert all(
            e.season is not None and e.season.name == "2026/2027"
            for e in Evening.objects.filter(club=club)
        )

    def test_seeding_again_adds_nothing(self, demo):
        """A second seed_demo finds the demo club and writes nothing."""
        counts = row_counts()
        out, _err = seed(force=True)
        assert "already" in out
        assert row_counts() == counts

    def test_demo_logins_and_the_note_on_how_to_use_them(self, demo, client):
        """The printed demo users log in with the one demo password and hold their roles."""
        out, _err = seed(force=True, url="http://tarok.example:8000/")
        assert "http://tarok.example:8000/c/demo/" in out
        assert "http://tarok.example:8000/login/" in out
        assert DEMO_PASSWORD in out
        roles = {}
        for demo in DEMO_USERS:
            assert demo.username in out
            assert client.login(username=demo.username, password=DEMO_PASSWORD), demo.username
            member = Member.objects.get(user__username=demo.username)
            roles[demo.username] = member.role
            client.logout()
        assert roles == {
            "formand": "admin",
            "kasserer": "treasurer",
            "skriver": "scorekeeper",
            "medlem": "member",
        }
        assert get_user_model().objects.get(username="formand").is_superuser
        assert not get_user_model().objects.get(username="medlem").is_staff

    def test_every_demo_club_publishes_its_results(self, demo, client):
        """Every demo club (one per game) has published results: a visitor reads its public
        page, its standings and a closed evening, no admin's tick needed."""
        # The demo federation's second club (TK Maribor) holds its tournaments, no evening.
        clubs = Club.objects.filter(slug__in=[d.slug for d in all_demos()]).order_by("slug")
        assert clubs.count() == 3
        for club in clubs:
            assert club.publish_results, club.slug
            closed = Evening.objects.filter(club=club, status="closed").order_by("date").first()
            assert closed is not None
            for name, kwargs in (
                ("public_club", {}),
                ("public_standings", {}),
                ("public_evening", {"pk": closed.pk}),
            ):
                response = client.get(reverse(name, kwargs={"club": club.slug, **kwargs}))
                assert response.status_code == 200, (club.slug, name)

    def test_demo_has_every_kind_of_hand_and_event(self, demo):
        """The demo holds ultimos with refunding, bagud, nolo, tout, fines, seat changes, fixes."""
        outcomes: Counter[str] = Counter()
        # The Danish club's rows only: the other games' demos are loaded beside it.
        club = {"table__evening__club__slug": DEMO_SLUG}
        live = Posting.objects.filter(kind="hand", reversed_by__isnull=True, **club)
        for posting in live:
            o = posting.outcome
            assert o is not None  # a hand posting has its outcome
            if o["ultimo"]:
                outcomes["ultimo_" + o["ultimo"][1]] += 1
            for key in ("tout", "nolo", "bagud", "refunded"):
                if o[key]:
                    outcomes[key] += 1
            if o["ultimo"] and o["bagud"] and o["ultimo"][1] == "king":
                if any(card == "king" for _player, card in o["bagud"]):
                    outcomes["king_ultimo_refilled_by_bagud"] += 1
        for kind in (
            "ultimo_pagat",
            "ultimo_king",
            "tout",
            "nolo",
            "bagud",
            "refunded",
            "king_ultimo_refilled_by_bagud",
        ):
            assert outcomes[kind] >= 1, kind
        reasons = set(Transfer.objects.filter(**club).values_list("reason", flat=True))
        assert {"fine_revoke", "refund", "bagud_cup", "ultimo_cup", "tout_cup", "nolo"} <= reasons
        tables = Table.objects.filter(evening__club__slug=DEMO_SLUG)
        assert Hand.objects.filter(record__annulled=True, **club).exists()
        assert {len(t.seats.filter(joined_at_hand=1)) for t in tables} == {3, 4, 5}
        assert Seat.objects.filter(joined_at_hand__gt=1, **club).count() == sum(
            len(p.late) for p in EVENINGS
        )
        assert Seat.objects.filter(left=True, **club).count() == 1
        assert (
            HandRevision.objects.filter(
                action="correct", hand__table__evening__club__slug=DEMO_SLUG
            ).count()
            == 1
        )
        assert Hand.objects.filter(status="voided", **club).count() == 1
        assert JetonCount.objects.exists()
        for table in tables.filter(evening__status="closed"):
            played = table.hands.filter(status="recorded").count()
            assert 15 <= played <= 20, table

    def test_every_table_follows_its_rotation(self, demo):
        """Each hand is dealt by the rotation's next dealer; after a seat change it goes on."""
        rates = RateCard()
        for table in Table.objects.filter(evening__club__slug=DEMO_SLUG):
            hands = list(table.hands.filter(status="recorded").order_by("number"))
            assert hands[0].dealer == table.first_dealer
            for before, hand in itertools.pairwise(hands):
                old, new = before.record["seats"], hand.record["seats"]
                dealer = before.record["dealer"]
                if old == new:
                    out = rotation.default_sitting_out(old, dealer, rates.five_seat_rotation)
                    expected = rotation.next_dealer(old, dealer, out, rates.five_seat_rotation)
                else:
                    expected = next_dealer_after_change(old, new, dealer, rates.five_seat_rotation)
                assert hand.record["dealer"] == expected, (table, hand.number)

    def test_the_open_evening_takes_more_hands(self, demo):
        """After loading, the open evening's tables record hands through the services."""
        evening = Evening.objects.get(club__slug=DEMO_SLUG, status="open")
        table = evening.tables.order_by("number").first()
        assert table is not None
        seats = [s.member.name for s in selectors.current_seats(table.pk)]
        last = table.hands.order_by("number").last()
        assert last is not None
        out = rotation.default_sitting_out(seats, last.dealer.name)
        dealer = rotation.next_dealer(seats, last.dealer.name, out)
        record = random_hand(random.Random(7), seats, dealer, with_table=False)
        hand = services.hand_record(table=table, record=record)
        assert hand.number == last.number + 1
        assert verify_ledger(Table.objects.filter(pk=table.pk)).ok


def _without_keys(objects):
    """Return each fixture object as JSON without its primary and foreign keys (ids vary)."""
    result = []
    for obj in objects:
        model = apps.get_model(obj["model"])
        fields = {
            name: value
            for name, value in obj["fields"].items()
            if not model._meta.get_field(name).is_relation
        }
        result.append(json.dumps([obj["model"], fields], sort_keys=True, ensure_ascii=False))
    return result


@pytest.mark.slow
@pytest.mark.once
def test_regenerate_reproduces_the_committed_fixture(tmp_path):
    """--regenerate builds through the services what fixtures/demo.json holds, key for key."""
    target = tmp_path / "demo.json"
    out, _err = seed(regenerate=True, fixture=str(target))
    assert "Built the demo club" in out
    assert verify_ledger().ok
    built = json.loads(target.read_text(encoding="utf-8"))
    committed = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert len(built) == len(committed)
    # The evening results are written in one bulk whose order may differ between databases;
    # every other row comes in the order the services wrote it.
    assert Counter(_without_keys(built)) == Counter(_without_keys(committed))
    results = '["ledger.eveningresult"'
    assert [r for r in _without_keys(built) if not r.startswith(results)] == [
        r for r in _without_keys(committed) if not r.startswith(results)
    ]
    with pytest.raises(CommandError, match="exists in this database already"):
        seed(regenerate=True, fixture=str(tmp_path / "again.json"))


@pytest.mark.parametrize("force", [False, True])
def test_never_loaded_without_debug(force):
    """With DEBUG off (production) seed_demo loads nothing, --force or not, and says why."""
    before = row_counts()
    out, err = seed(debug=False, force=force)
    assert "DJANGO_DEBUG is 0" in err
    assert row_counts() == before


@pytest.mark.slow
@pytest.mark.once  # what the command reads of a database in use: the same on either
def test_not_loaded_into_a_database_in_use_unless_forced():
    """A database holding another club or user is no empty development database: the demo
    is loaded into it only with --force, and the refusal says what the database holds."""
    get_user_model().objects.create_superuser(username="chef", password="x-12345678")
    before = row_counts()
    out, err = seed()
    assert "holds 1 user(s) already" in err
    assert "--force" in err
    assert row_counts() == before
    Club.objects.create(slug="mine", name="Min klub")
    out, err = seed()
    assert "holds 1 club(s) and 1 user(s) already" in err
    out, err = seed(force=True)
    assert "Demo club Hjørring" in out
    assert Club.objects.count() == 5  # mine, the three demo clubs and the federation's TK Maribor


def test_taken_usernames_are_refused():
    """A user already named like a demo user stops seed_demo before anything is written."""
    get_user_model().objects.create_user(username="kasserer", password="x-12345678")
    before = row_counts()
    with pytest.raises(CommandError, match="kasserer"):
        seed(force=True)
    assert row_counts() == before


def test_ids_in_use_are_detected():
    """A database already holding rows at the fixture's ids is detected (it is built instead)."""
    assert ids_taken(FIXTURE) == []
    Club.objects.create(pk=1, slug="mine", name="Min klub")
    assert "ledger.club" in ids_taken(FIXTURE)
