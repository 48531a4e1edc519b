"""The Slovenian demo club (``fixtures/demo-sl.json``): it loads with the others into a sound
ledger, seed_demo prints its log-ins, and it shows every contract, bonus, radli and closings."""

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger.games.slovenian.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USERS
from ledger.games.slovenian.engine.hand import CONTRACTS
from ledger.games.slovenian.engine.ratecard import BONUS_TYPES
from ledger.models import (
    Club,
    Evening,
    Hand,
    HandRevision,
    Member,
    Posting,
    Round,
    RoundTable,
    Table,
    Tournament,
)
from ledger.selectors import tournaments as reads
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests.helpers import seed

# Each class loads the demo (about 10 s): make test runs them, make test-fast leaves them out.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]


# seed_demo loads every demo: on PostgreSQL ``test_seed_demo.TestLoadedDemo`` loads them all and
# verifies the whole ledger; what the Slovenian club holds is checked once (SQLite).
@pytest.mark.once
class TestSlovenianDemo:
    def test_loads_into_a_sound_ledger(self, demo):
        club = Club.objects.get(slug=DEMO_SLUG)
        assert club.game == "slovenian_tarok"
        assert (club.language, club.currency, club.time_zone) == ("sl", "EUR", "Europe/Ljubljana")
        assert verify_ledger(Table.objects.filter(evening__club=club)).ok
        assert verify_ledger().ok

    def test_seed_demo_prints_its_logins(self, demo):
        assert "Ljubljana Tarok Klub" in demo
        assert "/c/demo-sl/ (in Slovenian, money in EUR)" in demo
        assert "skrbnik kluba" in demo  # its roles in Slovenian
        for user in DEMO_USERS:
            assert user.username in demo
            assert (
                get_user_model().objects.get(username=user.username).check_password(DEMO_PASSWORD)
            )
        assert not {"formand", "kasserer"} & {u.username for u in DEMO_USERS}

    def test_every_contract_bonus_radli_and_closings(self, demo):
        club = Club.objects.get(slug=DEMO_SLUG)
        hands = Hand.objects.filter(table__evening__club=club)
        contracts = Counter(h.record.get("contract") for h in hands)
        assert set(CONTRACTS) <= set(contracts)
        bonuses = {b["type"] for h in hands for b in h.record.get("bonuses", ())}
        assert set(BONUS_TYPES) <= bonuses
        assert any(h.record.get("valat") for h in hands)
        assert any(h.record.get("mond_captured") for h in hands)
        assert any(h.record.get("annulled") for h in hands)
        assert HandRevision.objects.filter(hand__table__evening__club=club, number=2).exists()
        reasons = set(
            Posting.objects.filter(table__evening__club=club, kind=Posting.Kind.SPLIT).values_list(
                "transfers__reason", flat=True
            )
        )
        assert {"radelc", "split"} <= reasons
        statuses = list(
            Evening.objects.filter(club=club).order_by("date").values_list("status", flat=True)
        )
        assert statuses[-1] == Evening.Status.OPEN and Evening.Status.CLOSED in statuses

    def test_the_screens_of_the_demo(self, demo, client):
        assert client.login(username="sl-predsednik", password=DEMO_PASSWORD)
        club = Club.objects.get(slug=DEMO_SLUG)
        closed = Evening.objects.filter(club=club, status=Evening.Status.CLOSED).first()
        table = Table.objects.filter(evening__club=club, status="open").first()
        hand = Hand.objects.filter(table=table).first()
        assert closed is not None
        assert hand is not None
        assert table is not None
        member = club.members.get(name="Ana")
        urls = [
            reverse("club", kwargs={"club": DEMO_SLUG}),
            reverse("standings", kwargs={"club": DEMO_SLUG}),
            reverse("member_season", kwargs={"club": DEMO_SLUG, "pk": member.pk}),
            reverse("evening", kwargs={"club": DEMO_SLUG, "pk": closed.pk}),
            reverse("evening_sheet", kwargs={"club": DEMO_SLUG, "pk": closed.pk}),
            reverse("evening_treasury", kwargs={"club": DEMO_SLUG, "pk": closed.pk}),
            reverse("table", kwargs={"club": DEMO_SLUG, "pk": table.pk}),
            reverse("hand", kwargs={"club": DEMO_SLUG, "pk": hand.pk}),
            reverse("hand_new", kwargs={"club": DEMO_SLUG, "pk": table.pk}),
            reverse("hand_correct", kwargs={"club": DEMO_SLUG, "pk": hand.pk}),
        ]
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, url
        sheet_pdf = reverse("evening_sheet_pdf", kwargs={"club": DEMO_SLUG, "pk": closed.pk})
        response = client.get(sheet_pdf)
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"


# What the demo holds is the fixture's on either database: its content is checked once (SQLite);
# the load itself, above, on both.
@pytest.mark.once
class TestSlovenianDemoTournament:
    """The demo tournament seed_demo builds after loading: a 24-player DP, two rounds played
    and closed, the third drawn and published (issue 21)."""

    def test_two_rounds_played_and_the_third_published(self, demo):
        club = Club.objects.get(slug=DEMO_SLUG)
        t = Tournament.objects.get(club=club)
        assert (t.tournament_format, t.game, t.status) == ("sl_dp", "slovenian_tarok", "running")
        entries = list(t.entries.all())
        assert len(entries) == 24
        assert sum(e.guest for e in entries) == 12 and {e.club_name for e in entries} > {
            "TK Maribor",
            club.name,
        }
        rounds = list(t.rounds.order_by("number"))
        assert [(r.number, r.status) for r in rounds] == [
            (1, Round.Status.CLOSED),
            (2, Round.Status.CLOSED),
            (3, Round.Status.PUBLISHED),
        ]
        for r in rounds[:2]:
            results = [res for rt in r.round_tables.all() for res in rt.results.values()]
            assert len(results) == 24 and all("points" in res for res in results)
            assert all(rt.hands_played == 8 for rt in r.round_tables.all())
        assert not rounds[2].round_tables.filter(table__isnull=False).exists()
        assert len(tour.current_standings(t)) == 24
        assert verify_ledger().ok
        assert "/c/demo-sl/t/" in demo and "its director logs in as sl-predsednik" in demo
        assert "/c/demo-sl/link/" in demo and "cards.pdf" in demo

    def test_a_second_seed_demo_changes_nothing(self, demo):
        counts = (Tournament.objects.count(), Hand.objects.count(), Member.objects.count())
        out, _err = seed(force=True)
        assert "Built the demo tournament" not in out
        assert (Tournament.objects.count(), Hand.objects.count(), Member.objects.count()) == (
            counts
        )

    def test_the_directors_page_and_the_wall(self, demo, client):
        assert client.login(username="sl-predsednik", password=DEMO_PASSWORD)
        t = Tournament.objects.get(club__slug=DEMO_SLUG)
        for name in ("tournament", "tournament_wall", "tournament_standings"):
            url = reverse(name, kwargs={"club": DEMO_SLUG, "pk": t.pk})
            assert client.get(url).status_code == 200, url

    def test_a_player_sees_his_seat_rounds_and_place_on_his_page(self, demo, client):
        """Issue 21 part 4: Ana (sl-clan), entered, sees on Min side where she sits in round
        3, her rounds 1 and 2 (score, place, points) and her place in the standings."""
        t = Tournament.objects.get(club__slug=DEMO_SLUG)
        ana = t.entries.get(name="Ana")
        third = t.rounds.get(number=3)
        table, seats = next((n, s) for n, s in enumerate(third.tables, 1) if ana.code in s)
        rank = next(line.rank for line in reads.standings_lines(t) if line.code == ana.code)
        mine = reads.my_tournaments(member=ana.member)
        assert [(m.round, m.table, m.seat, m.rank, m.ranked) for m in mine] == [
            (3, table, seats.index(ana.code) + 1, rank, 24)
        ]
        played = {
            rt.round.number: rt.results[ana.code]
            for rt in RoundTable.objects.filter(round__tournament=t, round__number__lte=2)
            if ana.code in rt.seats
        }
        assert [(r.number, r.score, r.place) for r in mine[0].rounds] == [
            (n, played[n]["score"], played[n]["place"]) for n in (1, 2)
        ]
        assert client.login(username="sl-clan", password=DEMO_PASSWORD)
        html = client.get(reverse("my_page", kwargs={"club": DEMO_SLUG})).content.decode()
        assert f'id="my-seat-{t.pk}"' in html and 'data-round="2"' in html
        assert f"{table}, " in html


@pytest.mark.once
class TestSlovenianDemoFederation:
    """The demo federation seed_demo builds with the demo tournament (issue 30): TK Maribor
    beside the demo club, two final DPs played at Maribor before the demo tournament, the
    series of the three named as its ladder, published, and the officer's log-in printed."""

    def test_the_federation_its_series_and_its_officer(self, demo, client):
        from ledger.games.slovenian import demo as sl_demo
        from ledger.models import Federation, Series
        from ledger.selectors import federation as federation_reads

        federation = Federation.objects.get(slug=sl_demo.FEDERATION_SLUG)
        assert federation.name == "Tarok zveza (demo)" and federation.publish_results
        assert set(federation.clubs.values_list("slug", flat=True)) == {
            DEMO_SLUG,
            sl_demo.MARIBOR_SLUG,
        }
        series = Series.objects.get(federation=federation)
        running = Tournament.objects.get(club__slug=DEMO_SLUG)
        past = list(Tournament.objects.filter(club__slug=sl_demo.MARIBOR_SLUG).order_by("date"))
        assert [(t.status, t.date < running.date) for t in past] == [("final", True)] * 2
        assert running.ladder_id == series.pk and series.events.count() == 3
        board = federation_reads.ladder_board(series)
        assert board.events == 2 and len(board.lines) == 16
        assert sum(bool(line.qualified) for line in board.lines) == 8
        # The Maribor guests of the demo tournament are the Maribor members' players.
        joze = running.entries.get(name="Jože")
        assert joze.player is not None
        assert joze.player.home_club is not None
        assert joze.player.home_club.slug == sl_demo.MARIBOR_SLUG
        assert f"its officer logs in as {sl_demo.OFFICER}" in demo and "/pf/demo-tzs/" in demo
        assert client.login(username=sl_demo.OFFICER, password=DEMO_PASSWORD)
        home = reverse("federation_home", kwargs={"federation": federation.slug})
        assert client.get(home).status_code == 200
        client.logout()
        ladder = reverse("public_ladder", kwargs={"federation": federation.slug, "pk": series.pk})
        assert client.get(ladder).status_code == 200
        # The federation's rating list, rated from the two past DPs' round tables.
        from ledger.models import PlayerRating, RatedTable, RatingList

        ratings = RatingList.objects.get(federation=federation, name=sl_demo.RATING_NAME)
        tables = RatedTable.objects.filter(rating_list=ratings)
        assert tables.count() > 0 and not tables.exclude(date__lt=running.date).exists()
        assert PlayerRating.objects.filter(rating_list=ratings).count() >= 8
