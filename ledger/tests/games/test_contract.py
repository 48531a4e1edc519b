"""The game contract, for every registered game (``settings.TAROK_GAMES``), the test-only game
included: what the ledger and the screens ask of a game, answered the same way by each.

This replaces the copies of the generic properties each game's tests once kept (zero-sum,
determinism, the hand format's round trip, an evening's close); each game's own tests keep
only its own rules.
"""

from __future__ import annotations

import datetime
import random

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger import selectors, services
from ledger.games.base import Dealt
from ledger.games.errors import HandError, RateCardError
from ledger.games.registry import GAMES, get_web
from ledger.games.web import WORDS
from ledger.models import Member
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.services.demo import demo_of
from ledger.tests.factories import make_club, make_member, make_season
from ledger.tests.helpers import hand_post, random_hand_at
from ledger.tournaments import engine

CODES = list(GAMES)
NAMES = ("Anna", "Bo", "Carl", "Dorte", "Erik")


def test_the_test_only_game_is_registered():
    """The contract runs for the three games and the test-only one."""
    assert {"danish_tarok", "slovenian_tarok", "hungarian_tarokk", "toy_high_card"} <= set(CODES)


def play(game, seats, rates, rng, hands: int):
    """Play ``hands`` random hands at a table of ``seats`` through the contract alone; yield
    (schedule, state, record, settlement, pools after) of each."""
    state, moves = game.initial_state(list(seats), rates)
    pools = dict.fromkeys(game.features.pool_codes, 0)
    for m in moves:
        for code, sign in ((m.source, -1), (m.target, 1)):
            if code in pools:
                pools[code] += sign * m.points
    previous_state = None
    dealt: list[Dealt] = []
    for _ in range(hands):
        schedule = game.schedule(list(seats), dealt, rates, first=seats[0])
        state = game.next_state(previous_state, pools, list(seats))
        data = {**game.random_hand(rng, schedule, rates, state), "seats": list(seats)}
        record = game.parse_hand(data, rates, state=state)
        settlement = game.settle(record, rates, state)
        for t in settlement.transfers:
            for code, sign in ((t.source, -1), (t.target, 1)):
                if code in pools:
                    pools[code] += sign * t.points
        yield schedule, state, record, settlement, dict(pools)
        previous_state = settlement.state_after
        dealt.append(Dealt(tuple(seats), schedule.dealer, tuple(schedule.sitting_out)))


@pytest.mark.parametrize("code", CODES)
def test_identity_features_and_web_side(code):
    """A game and its web side name the same code; its seats, pools and statistics are
    declared; its web side's statistics are the engine's counts."""
    game, web = GAMES[code], get_web(code)
    assert game.code == web.code == code and str(web.title)
    f = game.features
    assert 1 <= f.min_seats <= f.max_seats and f.active_players >= 1
    assert len(set(f.pool_codes)) == len(f.pool_codes)
    assert {key for key, _label in web.stats_columns} <= set(f.stat_keys)
    assert set(web.stats_help) <= set(f.stat_keys)
    assert set(web.words) <= set(WORDS)
    assert web.sections()[0] == "general" and web.sections()[-1] == "reason"


@pytest.mark.parametrize("code", CODES)
def test_table_sizes_and_own_formats(code):
    """A game seats its tournaments at sizes it can play (``Features.table_sizes``), and its
    own formats name it; the engine reads exactly these, besides the generic formats."""
    game = GAMES[code]
    f = game.features
    sizes = f.table_sizes
    assert sizes is not None
    assert all(f.min_seats <= size <= f.max_seats for size in sizes.allowed)
    assert engine.TABLE_SIZES[code] == sizes
    for rules in f.tournament_formats:
        assert rules.games == (code,) and engine.FORMATS[rules.code] == rules
        assert engine.plays(rules.code, code)
    assert all(engine.plays(generic, code) for generic in engine.GENERIC_FORMATS)


@pytest.mark.parametrize("code", CODES)
def test_rate_card_round_trip_and_refusal(code):
    """The default card survives as_dict → rate_card; an unknown key is refused by name."""
    game = GAMES[code]
    card = game.rate_card({})
    assert game.rate_card(card.as_dict()).as_dict() == card.as_dict()
    with pytest.raises(RateCardError) as refused:
        game.rate_card({"no_such_setting": 1})
    assert [p.field for p in refused.value.problems] == ["no_such_setting"]


@pytest.mark.parametrize("code", CODES)
def test_every_house_rule_has_a_label_an_explanation_and_a_field(code):
    """Every setting of the card has a label and a one-line explanation (no raw key on a
    screen), and the house-rules form has one field per setting, in a titled group."""
    web = get_web(code)
    paths = web.rate_card_paths()
    assert paths
    missing = [p for p in paths if p not in web.rate_card_labels]
    assert missing == []
    for path in paths:
        label, explanation = web.rate_card_labels[path]
        assert str(label).strip() and str(explanation).strip(), path
    fields = web.rate_card_form_fields()
    assert set(fields) == {web.rate_card_field_name(p) for p in paths}
    grouped = [name for _title, names in web.rate_card_field_groups() for name in names]
    assert sorted(grouped) == sorted(fields)
    data = web.rate_card_from_form(
        {name: web.rate_card_initial({})[name] for name in fields}
        | {n: f.clean(web.rate_card_initial({})[n]) for n, f in fields.items()}
    )
    assert GAMES[code].rate_card(data).as_dict() == GAMES[code].rate_card({}).as_dict()


@pytest.mark.parametrize("code", CODES)
def test_refusals_name_their_fields(code):
    """An empty record and a seat named like the pool are refused, each problem naming a
    field; an unknown game's refusal names ``game``."""
    game = GAMES[code]
    rates = game.rate_card({})
    with pytest.raises(HandError) as refused:
        game.parse_hand({}, rates)
    assert all(p.field for p in refused.value.problems)
    if game.features.pool_codes:
        seats = [game.features.pool_codes[0], *NAMES[1 : game.features.min_seats]]
        with pytest.raises(HandError) as refused:
            game.parse_hand({"seats": seats, "dealer": seats[1]}, rates)
        assert "seats" in {p.field for p in refused.value.problems}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CODES), st.integers(0, 2), st.integers(0, 10_000), st.integers(1, 12))
def test_every_settlement_balances_and_replays(code, extra_seats, seed, hands):
    """Every hand of every game, at every seat count: the nets and the pools' changes sum to
    0, transfers are positive whole points between two accounts of the table, a pool that
    may not go negative never does, settling again gives the same, the record read back from
    its own hand format settles the same, and the statistics name every seat; the evening's
    close empties every pool and the finals sum to 0."""
    game = GAMES[code]
    f = game.features
    seats = NAMES[: min(f.min_seats + extra_seats, f.max_seats)]
    rates = game.rate_card({})
    rng = random.Random(seed)
    accounts = set(seats) | set(f.pool_codes)
    guarded = [p.code for p in f.pools if not p.may_go_negative]
    evening = []
    for _schedule, state, record, settlement, pools in play(game, seats, rates, rng, hands):
        change = {c: 0 for c in f.pool_codes}
        for t in settlement.transfers:
            assert t.source in accounts and t.target in accounts and t.source != t.target
            assert isinstance(t.points, int) and t.points > 0
            for c in f.pool_codes:
                change[c] += (t.target == c) * t.points - (t.source == c) * t.points
        assert sum(settlement.net.values()) + sum(change.values()) == 0
        assert all(pools[c] >= 0 for c in guarded)
        assert game.settle(record, rates, state).as_dict() == settlement.as_dict()
        again = game.parse_hand(record.as_dict(), rates, state=state)
        assert game.settle(again, rates, state).as_dict() == settlement.as_dict()
        assert set(game.stats_of(record, settlement)) == set(seats)
        hand = {k: v for k, v in record.as_dict().items() if k not in ("seats", f.state_in)}
        evening.append(hand)
    result = game.settle_evening(
        {"format": "tarokclub.evening/1", "game": code, "seats": list(seats), "hands": evening},
        rates,
    )
    assert sum(result["final"].values()) == 0


@pytest.mark.parametrize("code", CODES)
def test_every_role_of_a_seat_has_words(code):
    """Every role ``stats_of`` gives a seat is named in words (``GameWeb.role_label``), never
    its code."""
    from ledger.games.web import COMMON_ROLES

    game, web = GAMES[code], get_web(code)
    roles = set()
    for seats in range(game.features.min_seats, game.features.max_seats + 1):
        for seed in range(8):
            rates = game.rate_card({})
            for *_rest, record, settlement, _pools in play(
                game, NAMES[:seats], rates, random.Random(seed), 6
            ):
                roles |= {s.role for s in game.stats_of(record, settlement).values()}
    unnamed = roles - set(web.role_labels) - set(COMMON_ROLES)
    assert unnamed == set()


@pytest.mark.parametrize("code", CODES)
def test_every_line_of_the_close_has_a_column_in_the_games_words(code):
    """The settlement shows each reason the game's close moves points by as a column of its
    own, labelled by the game (``close_columns``: the Slovenian radelc penalty, then the
    share of the pool); a game without pools moves nothing at its close and has none."""
    game, web = GAMES[code], get_web(code)
    columns = dict(web.close_columns)
    assert len(columns) == len(web.close_columns) and all(str(v).strip() for v in columns.values())
    if not game.features.pools:
        assert web.close_columns == ()
    seats = NAMES[: game.features.max_seats]
    rates = game.rate_card({})
    reasons = set()
    for seed in range(6):
        balances: dict[str, int] = {}
        _state, moves = game.initial_state(list(seats), rates)
        state = None
        for *_rest, settlement, _pools in play(game, seats, rates, random.Random(seed), 8):
            moves = [*moves, *settlement.transfers]
            state = settlement.state_after
        for m in moves:
            balances[m.source] = balances.get(m.source, 0) - m.points
            balances[m.target] = balances.get(m.target, 0) + m.points
        reasons |= {m.reason for m in game.close(balances, state or {}, rates, list(seats))}
    assert reasons <= set(columns), reasons - set(columns)


@pytest.mark.django_db
@pytest.mark.parametrize("code", CODES)
def test_a_table_of_each_game_on_the_screens(code):
    """A club of each game opens a table, its table and entry pages render with the game's
    entry form, a hand saved through the form is posted and verified, the standings show the
    game's statistics column and the house-rules screen its labels."""
    game, web = GAMES[code], get_web(code)
    club = make_club(slug=f"c-{code[:20]}".replace("_", "-"), game=code)
    make_season(club)
    keeper = make_member(club, NAMES[0], Member.Role.ADMIN, login=True)
    members = [keeper, *(make_member(club, n) for n in NAMES[1 : game.features.min_seats])]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members)
    client = Client()
    assert keeper.user is not None
    client.force_login(keeper.user)
    page = client.get(reverse("table", kwargs={"club": club.slug, "pk": table.pk}))
    assert page.status_code == 200
    entry = client.get(reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk}))
    assert entry.status_code == 200
    assert entry.templates and web.entry_template in [t.name for t in entry.templates]
    seats = [m.name for m in members]
    schedule = game.schedule(seats, [], game.rate_card({}), first=seats[0])
    state = services.table_state(table)
    record = game.random_hand(random.Random(5), schedule, game.rate_card({}), state)
    response = client.post(
        reverse("hand_new", kwargs={"club": club.slug, "pk": table.pk}),
        hand_post(table, record),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert table.hands.count() == 1
    report = verify_ledger()
    assert report.ok, report.problems
    standings = client.get(reverse("standings", kwargs={"club": club.slug})).content.decode()
    for _key, label in web.stats_columns:
        assert str(label) in standings
    rates = client.get(reverse("setup_rates", kwargs={"club": club.slug})).content.decode()
    for path in web.rate_card_paths()[:3]:
        assert str(web.rate_card_labels[path][0]) in rates
    assert selectors.standings_for_season(season=evening.season)[0].played >= 0


@pytest.mark.parametrize("code", CODES)
def test_the_demo_is_found_by_its_dotted_path(code):
    """A game's demo club, if it has one, is found by the dotted path its web side names."""
    web = get_web(code)
    demo = demo_of(code)
    if web.demo is None:
        assert demo is None
    else:
        assert demo is not None and demo.slug and demo.fixture and callable(demo.build)


TOY = "toy_high_card"


@pytest.mark.django_db
def test_the_draw_seats_a_game_by_its_own_table_sizes():
    """Five players of the test-only game (tables of 4, or 3) sit at one table of 4 with one
    bye, where each of the three games would seat all five at one table: the draw reads the
    game's sizes, from its package alone."""
    sizes = GAMES[TOY].features.table_sizes
    assert sizes is not None and sizes.allowed == (4, 3)
    assert {engine.table_plan(5, code).sizes for code in CODES if code != TOY} == {(5,)}
    club = make_club(slug="toy-draw", game=TOY)
    t = tour.tournament_create(
        club=club,
        name="High card open",
        date=datetime.date(2026, 12, 5),
        game=TOY,
        tournament_format="generic_sum",
        seed="toy",
    )
    tour.entries_import(tournament=t, text="\n".join(f"P{i},,,P{i}" for i in range(5)))
    first = tour.round_draw(tournament=t)
    assert [len(table) for table in first.tables] == [4] and len(first.byes) == 1


@pytest.mark.django_db
def test_the_test_only_game_plays_a_generic_sum_tournament():
    """The test-only game, which nothing outside its package names, plays a whole
    ``generic_sum`` tournament through the services: three rounds drawn at its own table sizes
    (7 players: a table of 4 and one of 3), played at real tables of its rules, closed (each
    player's points are his final balance) and ranked; the ledger verifies."""
    club = make_club(slug="toy-open", game=TOY)
    t = tour.tournament_create(
        club=club,
        name="High card open",
        date=datetime.date(2026, 12, 5),
        game=TOY,
        tournament_format="generic_sum",
        seed="toy-open",
    )
    tour.entries_import(tournament=t, text="\n".join(f"P{i},,,P{i}" for i in range(7)))
    rng = random.Random(7)
    totals: dict[str, int] = {}
    for _number in range(engine.FORMATS["generic_sum"].rounds):
        r = tour.round_draw(tournament=t)
        assert sorted(len(table) for table in r.tables) == [3, 4] and r.byes == []
        tour.round_publish(round_=r)
        r = tour.round_start(round_=r)
        for rt in r.round_tables.select_related("table"):
            assert rt.table is not None
            for _hand in range(4):
                random_hand_at(rt.table, rng)
        r = tour.round_close(round_=r)
        for rt in r.round_tables.all():
            assert sum(int(res["points"]) for res in rt.results.values()) == 0
            for entry, res in rt.results.items():
                totals[entry] = totals.get(entry, 0) + int(res["points"])
    rows = tour.current_standings(t)
    assert len(rows) == 7 and rows[0].rank == 1
    assert {row.id: row.points for row in rows} == totals
    assert [row.points for row in rows] == sorted((row.points for row in rows), reverse=True)
    tour.tournament_finish(tournament=t)
    report = verify_ledger()
    assert report.ok, report.problems
