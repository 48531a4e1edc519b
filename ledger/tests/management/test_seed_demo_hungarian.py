"""The Hungarian demo club "Budapesti Tarokk Kör": loaded by seed_demo beside the others, a
sound ledger, every bid and many figures, its log-ins printed."""

from collections import Counter

import pytest

from ledger import selectors
from ledger.games.hungarian.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USERS, EVENINGS, MEMBERS
from ledger.games.hungarian.engine.ratecard import GAME_CODE
from ledger.models import Club, Evening, HandRevision, Member, Posting, Table
from ledger.selectors.verify import verify_ledger
from ledger.services.demo import demo_of
from ledger.tests import helpers

# Each test loads the demo (about 10 s): make test runs them, make test-fast leaves them out.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def seed(**options):
    return helpers.seed(**options)[0]


# seed_demo loads every demo: on PostgreSQL ``test_seed_demo.TestLoadedDemo`` loads them all and
# verifies the whole ledger; what the Hungarian club holds is checked once (SQLite).
@pytest.mark.once
def test_the_hungarian_demo_loads_sound_and_prints_its_logins(client):
    out = seed(force=True, url="http://tarok.example:8000/")
    demo = demo_of(GAME_CODE)
    assert demo is not None and demo.slug == DEMO_SLUG
    assert "Loaded the demo club Budapesti Tarokk Kör" in out
    assert "http://tarok.example:8000/c/demo-hu/ (in Hungarian, money in HUF)" in out
    for user in DEMO_USERS:
        assert user.username in out
        assert client.login(username=user.username, password=DEMO_PASSWORD), user.username
        client.logout()
    club = Club.objects.get(slug=DEMO_SLUG)
    assert club.game == GAME_CODE
    assert (club.language, club.currency, club.time_zone) == ("hu", "HUF", "Europe/Budapest")
    tables = Table.objects.filter(evening__club=club)
    report = verify_ledger(tables)
    assert report.ok, report.problems
    assert verify_ledger().ok
    assert {t.seats.count() for t in tables} == {4, 5}
    for table in tables:
        assert sum(selectors.table_balances(table.pk).values()) == 0
    assert Member.objects.filter(club=club).count() == len(MEMBERS)
    evenings = Evening.objects.filter(club=club).order_by("date")
    assert evenings.count() == len(EVENINGS)
    last = evenings.last()
    assert last is not None and last.status == "open"
    assert evenings.filter(status="closed").count() == len(EVENINGS) - 1
    assert (
        HandRevision.objects.filter(action="correct", hand__table__evening__club=club).count() == 1
    )

    seen: Counter[str] = Counter()
    for posting in Posting.objects.filter(
        kind="hand", reversed_by__isnull=True, table__evening__club=club
    ):
        o = posting.outcome
        assert o is not None  # a hand posting has its outcome
        if o.get("annulled"):
            seen["annulled"] += 1
            continue
        seen["bid_" + o["bid"]] += 1
        seen["alone"] += o["alone"]
        seen["kontra"] += o["kontra"] > 0
        seen["claims"] += len(o["tarokk_claims"])
        for item in o["items"]:
            seen[item["item"]] += 1
    for key in (
        "bid_harom",
        "bid_ketto",
        "bid_egy",
        "bid_solo",
        "alone",
        "kontra",
        "claims",
        "annulled",
        "dupla",
        "volat",
        "trull",
        "four_kings",
        "pagat_ultimo",
        "xxi_catch",
        "centrum",
        "pagat_uhu",
    ):
        assert seen[key] >= 1, key


# What the demo holds is the fixture's on either database: its pages and statistics are checked
# once (SQLite); the load itself, above, on both.
@pytest.mark.once
def test_demo_pages_show_hungarian_statistics(client):
    seed(force=True)
    member = Member.objects.get(club__slug=DEMO_SLUG, name="László")
    client.force_login(member.user)
    standings = client.get(f"/c/{DEMO_SLUG}/standings/")
    assert standings.status_code == 200
    page = client.get(f"/c/{DEMO_SLUG}/members/{member.pk}/season/")
    assert page.status_code == 200


@pytest.mark.once
def test_statistics_count_the_hungarian_roles(client):
    """A member's Hungarian statistics: as declarer, partner, alone, figures, claims."""
    from ledger.services import stats

    seed(force=True)
    club = Club.objects.get(slug=DEMO_SLUG)
    total: Counter[str] = Counter()
    for row in stats.stored(Table.objects.filter(evening__club=club)).values():
        total.update(row)
    outcomes: list[dict] = []
    for p in Posting.objects.filter(
        kind="hand", reversed_by__isnull=True, table__evening__club=club
    ):
        assert p.outcome is not None  # a hand posting has its outcome
        if not p.outcome.get("annulled"):
            outcomes.append(p.outcome)
    assert total["hu_declarer"] == len(outcomes)
    assert total["hu_alone"] == sum(o["alone"] for o in outcomes)
    assert total["hu_partner"] == sum(not o["alone"] for o in outcomes)
    assert total["hu_claims"] == sum(len(o["tarokk_claims"]) for o in outcomes)
    assert total["hu_figures_made"] > 0 and total["hu_figures_failed"] > 0
    # four play every hand: each hand counts four members as played
    assert (
        total["played"]
        == 4
        * Posting.objects.filter(
            kind="hand", reversed_by__isnull=True, table__evening__club=club
        ).count()
    )
