"""Rating lists (issue 30, part 4): the spec's worked examples through the service, the rated
tables' order, byes unrated, a correction and a reopen re-rating from their tournament, seeding
a tournament by rating, and ``verify_ledger`` finding a tampered change."""

import datetime
import json
import random
from fractions import Fraction

import pytest

from ledger import services
from ledger.models import (
    Entry,
    FederationLog,
    PlayerRating,
    RatedTable,
    RatingChange,
    RatingList,
)
from ledger.selectors.verify import verify_ledger
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError
from ledger.services.federation import ratings
from ledger.tests.factories import make_club, make_member
from ledger.tests.helpers import (
    final_tournament,
    first_hand_again,
    random_hand_at,
    settle_zero_sum,
)

pytestmark = pytest.mark.django_db

EXAMPLES = "/work/shared/spec/examples/federation/"
D = datetime.date


def world(names=("Ana", "Bor", "Cene", "Dan", "Eva")):
    kranj = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    tzs = fed.federation_create(
        name="Tarok zveza Slovenije", slug="tzs", game="slovenian_tarok", language="sl"
    )
    fed.club_join(federation=tzs, club=kranj)
    members = {n: make_member(kranj, n) for n in names}
    return kranj, tzs, members


played = final_tournament  # one home: ledger/tests/helpers.py


def player(members, name):
    members[name].refresh_from_db()
    return members[name].player_id


def test_the_worked_examples_through_the_service():
    """Both examples (twelve tables with a player starting at 1620 after 40 tables; K falling
    after the third table) rated by the service over the engine: every change and rating
    within 10^-6 of the spec's."""
    for name in ("10_rating_tables.json", "11_rating_threshold.json"):
        with open(EXAMPLES + name) as f:
            data = json.load(f)
        names = sorted({p for t in data["tables"] for p in t["scores"]})
        ids = {p: i for i, p in enumerate(names, start=1)}
        sources = [
            ratings.Source(
                (i,),
                t["id"],
                D(2026, 1, 1),
                t["id"],
                {ids[p]: Fraction(str(s)) for p, s in t["scores"].items()},
            )
            for i, t in enumerate(data["tables"])
        ]
        start = {
            str(ids[p]): ratings.engine.Standing(float(s["rating"]), s["tables"])
            for p, s in data.get("start", {}).items()
        }
        listed = RatingList(params=ratings.check_params(data["params"]))
        result = ratings.rate(listed, sources, start)
        for table, expected in zip(result.tables, data["expected"]["tables"], strict=True):
            for seat in table.seats:
                code = names[int(seat.player) - 1]
                assert seat.delta == pytest.approx(expected["delta"][code], abs=1e-6)
        for code, rating in data["expected"]["ratings"].items():
            assert result.players[str(ids[code])].rating == pytest.approx(rating, abs=1e-6)


def test_the_threshold_example_as_real_tournaments():
    """Example 11's eight tables played as eight one-round tournaments on eight days: the
    list's stored changes and ratings are the spec's (within 10^-6), in its order."""
    with open(EXAMPLES + "11_rating_threshold.json") as f:
        data = json.load(f)
    names = sorted({p for t in data["tables"] for p in t["scores"]})
    club, tzs, members = world(names)
    for i, table in enumerate(data["tables"]):
        played(club, members, D(2026, 10, 1 + i), table["scores"], table["id"])
    listed = fed.rating_list_create(federation=tzs, name="Rating", params=data["params"])
    rated = list(RatedTable.objects.filter(rating_list=listed).order_by("position"))
    assert [r.label.split(" · ")[0] for r in rated] == [t["id"] for t in data["tables"]]
    by_player = {player(members, n): n for n in names}
    for row, expected in zip(rated, data["expected"]["tables"], strict=True):
        got = {by_player[c.player_id]: c.delta for c in row.changes.all()}
        assert got == pytest.approx(expected["delta"], abs=1e-6)
    final = {
        by_player[r.player_id]: r.rating for r in PlayerRating.objects.filter(rating_list=listed)
    }
    assert final == pytest.approx(data["expected"]["ratings"], abs=1e-6)
    assert FederationLog.objects.filter(action="rating_list").count() == 1
    assert verify_ledger().ok


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"k": -1}, "params.k"),
        ({"k_new": "x"}, "params.k_new"),
        ({"scale": 0}, "params.scale"),
        ({"new_tables": 2.5}, "params.new_tables"),
        ({"initial": float("nan")}, "params.initial"),
        ({"speed": 3}, "params"),
    ],
)
def test_bad_parameters_are_refused_naming_the_field(params, field):
    """A negative K, text, a scale of 0, a fractional count, NaN or an unknown key: refused
    naming the field, nothing written."""
    _club, tzs, _m = world()
    with pytest.raises(LedgerError) as caught:
        fed.rating_list_create(federation=tzs, name="Rating", params=params)
    assert caught.value.field == field
    assert not RatingList.objects.exists()


def test_order_and_club_evenings():
    """On one date the tournament's tables come before the club evening's; a list without
    club evenings leaves the evening out; closing and reopening the evening re-rates the list
    that rates evenings."""
    club, tzs, members = world()
    day = D(2026, 10, 3)
    evening = services.evening_open(club=club, date=day)
    table = services.table_open(
        evening=evening, members=[members[n] for n in ("Ana", "Bor", "Cene")]
    )
    rng = random.Random(4)
    random_hand_at(table, rng)
    random_hand_at(table, rng)
    t = played(club, members, day, {"Ana": 10, "Bor": -10, "Cene": 0, "Dan": 5, "Eva": 0}, "DP")
    with_evenings = fed.rating_list_create(
        federation=tzs, name="All", params={}, club_evenings=True
    )
    tournaments_only = fed.rating_list_create(federation=tzs, name="Tournaments")
    drawn = len(t.rounds.get().tables)
    assert RatedTable.objects.filter(rating_list=with_evenings).count() == drawn  # still open
    services.table_close(table=table)
    services.evening_close(evening=evening, confirm_differences=True)
    keys = list(
        RatedTable.objects.filter(rating_list=with_evenings)
        .order_by("position")
        .values_list("key", flat=True)
    )
    assert len(keys) == drawn + 1
    assert keys[-1] == f"e{table.pk}" and all(k.startswith("t") for k in keys[:-1])
    evening_changes = RatingChange.objects.filter(rated_table__key=f"e{table.pk}")
    assert evening_changes.count() == 3
    assert not RatedTable.objects.filter(rating_list=tournaments_only, key__startswith="e")
    services.evening_reopen(evening=evening, reason="miscount")
    assert not RatedTable.objects.filter(rating_list=with_evenings, key__startswith="e")
    assert verify_ledger().ok


def test_byes_are_not_rated():
    """A Hungarian cup of six: a table of five and a bye; the bye's player has no change."""
    club = make_club(slug="hu", name="Hu", game="hungarian_tarokk")
    mtsz = fed.federation_create(name="MTSZ", slug="mtsz", game="hungarian_tarokk", language="hu")
    fed.club_join(federation=mtsz, club=club)
    members = [make_member(club, n) for n in ("Ana", "Bor", "Cene", "Dan", "Eva", "Fan")]
    t = tour.tournament_create(
        club=club,
        name="Kupa",
        date=D(2026, 10, 3),
        game="hungarian_tarokk",
        tournament_format="hu_kupa",
        params={"rounds": 2},
    )
    tour.entries_add(tournament=t, members=members)
    while t.status != "provisional":
        r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
        for rt in r.round_tables.select_related("table", "round__tournament"):
            settle_zero_sum(rt, dict(zip(rt.seats, (20, 10, 0, -10, -20), strict=True)))
        tour.round_close(round_=r)
        t.refresh_from_db()
    tour.tournament_finish(tournament=t)
    assert sum(len(r.byes) for r in t.rounds.all()) >= 2
    listed = fed.rating_list_create(federation=mtsz, name="Rating")
    players = dict(t.entries.values_list("code", "player"))
    for rated in RatedTable.objects.filter(rating_list=listed):
        assert rated.round_table is not None
        round_ = rated.round_table.round
        assert set(rated.changes.values_list("player", flat=True)) == {
            players[c] for c in rated.round_table.seats
        }
        if not round_.byes:
            continue
        assert not rated.changes.filter(player=players[round_.byes[0]]).exists()
    assert RatedTable.objects.filter(rating_list=listed).count() == t.rounds.count()


def test_a_reopen_removes_and_a_correction_re_rates_from_its_tournament():
    """A reopened tournament's tables leave the lists until it is final again; a correction of
    a final tournament re-rates from its date, the changes of earlier tables untouched."""
    club, tzs, members = world(("Ana", "Bor", "Cene", "Dan"))
    first = played(
        club, members, D(2026, 10, 1), {"Ana": 20, "Bor": 0, "Cene": -5, "Dan": -15}, "A"
    )
    second = tour.tournament_create(
        club=club,
        name="B",
        date=D(2026, 10, 8),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    tour.entries_add(tournament=second, members=list(members.values()))
    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=second)))
    table = r.round_tables.select_related("table").get().table
    assert table is not None
    rng = random.Random(7)
    hands = [random_hand_at(table, rng) for _ in range(3)]
    tour.round_close(round_=r)
    tour.tournament_finish(tournament=second)
    listed = fed.rating_list_create(federation=tzs, name="Rating")
    kept = list(
        RatingChange.objects.filter(rated_table__round_table__round__tournament=first)
        .order_by("pk")
        .values_list("pk", "after")
    )
    assert RatedTable.objects.filter(rating_list=listed).count() == 2

    tour.tournament_reopen(tournament=second, reason="a score misread")
    assert RatedTable.objects.filter(rating_list=listed).count() == 1
    tour.tournament_finish(tournament=second)
    before = dict(
        RatingChange.objects.filter(rated_table__key=f"t{r.round_tables.get().pk}").values_list(
            "player", "score"
        )
    )
    tour.tournament_hand_correct(
        hand=hands[0], record=first_hand_again(table, random.Random(99)), reason="misread"
    )
    second_changes = RatingChange.objects.filter(rated_table__key=f"t{r.round_tables.get().pk}")
    results = r.round_tables.get().results
    entries = dict(Entry.objects.filter(tournament=second).values_list("code", "player"))
    assert dict(second_changes.values_list("player", "score")) == {
        entries[c]: str(Fraction(str(v["score"]))) for c, v in results.items()
    }
    assert before  # the table was rated before the correction, and is again after it
    assert (
        list(
            RatingChange.objects.filter(rated_table__round_table__round__tournament=first)
            .order_by("pk")
            .values_list("pk", "after")
        )
        == kept
    )
    assert verify_ledger().ok


def test_seeding_by_rating_and_the_override():
    """A tournament seeded from a rating list: its entries ranked by rating as of the day
    before (a table on its own date does not count), the unrated after by name; the
    director's override still works; a list of another federation is refused."""
    club, tzs, members = world()
    played(club, members, D(2026, 10, 1), {"Ana": -20, "Bor": 30, "Cene": 0, "Dan": -10}, "A")
    listed = fed.rating_list_create(federation=tzs, name="Rating")
    t = tour.tournament_create(
        club=club,
        name="Next",
        date=D(2026, 10, 8),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 1},
    )
    tour.entries_add(tournament=t, members=list(members.values()))
    fed.tournament_rating_set(tournament=t, rating_list=listed)
    fed.ladder_ranks_apply(tournament=t)
    ranks = dict(t.entries.values_list("name", "ladder_rank"))
    assert ranks == {"Bor": 1, "Cene": 2, "Dan": 3, "Ana": 4, "Eva": 5}
    t.refresh_from_db()
    assert t.log[-1]["action"] == "ladder" and t.log[-1]["rating_list"] == listed.pk
    entry = t.entries.get(name="Eva")
    fed.ladder_rank_override(entry=entry, rank=1, reason="champion abroad")
    assert t.entries.get(name="Eva").ladder_rank == 1

    other = fed.federation_create(name="Other", slug="other", game="slovenian_tarok", language="sl")
    foreign = fed.rating_list_create(federation=other, name="Foreign")
    with pytest.raises(LedgerError) as caught:
        fed.tournament_rating_set(tournament=t, rating_list=foreign)
    assert caught.value.field == "rating_list"


def test_verify_ledger_finds_a_tampered_change():
    """A rating change altered in the database: verify_ledger names the list and its first
    differing table; a recomputation repairs it."""
    club, tzs, members = world(("Ana", "Bor", "Cene", "Dan"))
    played(club, members, D(2026, 10, 1), {"Ana": 20, "Bor": 0, "Cene": -5, "Dan": -15}, "A")
    played(club, members, D(2026, 10, 2), {"Ana": -20, "Bor": 0, "Cene": 5, "Dan": 15}, "B")
    listed = fed.rating_list_create(federation=tzs, name="Rating")
    assert verify_ledger().ok
    second = RatedTable.objects.get(rating_list=listed, position=1)
    RatingChange.objects.filter(rated_table=second, seat=1).update(delta=1.0)
    problems = verify_ledger().problems
    assert problems == [
        f"rating list Rating: table 2: {second.label} ({second.key}): its rating changes differ"
    ]
    fed.rating_list_recompute(rating_list=listed, from_date=D(2026, 10, 2))
    assert verify_ledger().ok


def test_an_imported_event_is_rated_by_its_round_tables():
    """An import rates the event's round tables, dated by the event, in the lists of its
    federation and game: here a tournament's own file, so each of its tables is rated twice
    (as played, then as imported), with the same players and scores."""
    from django.utils import timezone

    from ledger.selectors.results_file import results_document
    from ledger.services.federation.results import results_import
    from ledger.tests.federation.test_results_file import final_tournament

    t = final_tournament()
    federation = t.club.federations.get()
    listed = fed.rating_list_create(federation=federation, name="Rating")
    local = list(
        RatedTable.objects.filter(rating_list=listed).order_by("position").values_list("key")
    )
    assert local and all(k[0].startswith("t") for k in local)
    event = results_import(document=results_document(t, exported_at=timezone.now())).event
    rated = RatedTable.objects.filter(rating_list=listed)
    imported = rated.filter(imported=event).order_by("position")
    assert imported.count() == len(local) and rated.count() == 2 * len(local)
    for row in imported:
        assert row.key.startswith(f"i{event.pk}.") and row.date == event.date
        twin = rated.get(
            key=f"t{t.rounds.get(number=int(row.key.split('.')[1])).round_tables.get(number=int(row.key.split('.')[2])).pk}"
        )
        assert sorted(row.changes.values_list("player", "score")) == sorted(
            twin.changes.values_list("player", "score")
        )
    assert verify_ledger().ok
