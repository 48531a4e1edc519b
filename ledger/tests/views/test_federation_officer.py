"""The federation officer's pages (issue 30, part 6): member clubs, players, a merge, series
and their events, the log and the officers; each refusal shown on its field with nothing
written, and hostile input (huge numbers, control characters, formula-like names, a factor
of 1/0) a field error, never a 500."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger.models import Federation, FederationLog, Player, Profile, Series, SeriesEvent
from ledger.services import federation as services
from ledger.services.errors import LedgerError
from ledger.tests.factories import PASSWORD, make_club
from ledger.tests.helpers import client_for, federation_world, final_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """The federation's world with a series; the officer reads in English (his own language)."""
    world = federation_world(series=True)
    Profile.objects.update_or_create(user=world["officer"], defaults={"language": "en"})
    return world


def url(name, **kwargs):
    return reverse(name, kwargs={"federation": "tzs", **kwargs})


def errors_of(response) -> dict:
    form = response.context["form"]
    return {k: [str(e) for e in v] for k, v in form.errors.items()}


def second_tournament(world):
    """Another final tournament of club alpha, of the world's four members."""
    members = {
        m.name: m for m in world["club"].members.filter(name__in=["Ana", "Bor", "Cene", "Dan"])
    }
    scores = {"Ana": -40, "Bor": 70, "Cene": 20, "Dan": -50}
    return final_tournament(world["club"], members, datetime.date(2026, 11, 7), scores, "DP 2")


# --- member clubs -----------------------------------------------------------------------------


def test_a_club_of_the_game_joins_and_one_of_another_game_cannot_be_chosen(world):
    beta = make_club("beta", "Beta", game="slovenian_tarok")
    dansk = make_club("dansk", "Dansk", game="danish_tarok")
    client = client_for(world["officer"])
    page = client.get(url("federation_clubs")).content.decode()
    assert ">Beta</option>" in page and ">Dansk</option>" not in page
    refused = client.post(url("federation_clubs"), {"club": dansk.pk})
    assert refused.status_code == 422 and "club" in errors_of(refused)
    for hostile in ("99999999999999999999999", "=SUM(1)", "1\x00"):
        answer = client.post(url("federation_clubs"), {"club": hostile})
        assert answer.status_code == 422 and "club" in errors_of(answer)
    assert client.post(url("federation_clubs"), {"club": beta.pk}).status_code == 302
    assert set(world["federation"].clubs.values_list("slug", flat=True)) == {"alpha", "beta"}


# --- players ----------------------------------------------------------------------------------


def test_the_players_are_searched_by_name_licence_and_club(world):
    services.player_set_licence(
        player=world["player2"], federation=world["federation"], licence="SLO-17"
    )
    client = client_for(world["officer"])
    rows = lambda q: client.get(url("federation_players"), {"q": q}).context["table"].rows  # noqa: E731
    assert [r.record.name for r in rows("an")] == ["Ana", "Dan"]
    assert [r.record.name for r in rows("slo-1")] == ["Bor"]
    assert len(rows("Alpha")) == 4
    assert len(rows("")) == 4
    page = client.get(url("federation_players"), {"q": "x" * 5000})
    assert page.status_code == 200 and len(page.context["table"].rows) == 4
    link = url("federation_player", pk=world["player"].pk)
    assert link in client.get(url("federation_players")).content.decode()


def test_a_players_page_sets_his_licence_and_refuses_one_used_twice(world):
    client = client_for(world["officer"])
    ana, bor = world["player"], world["player2"]
    page = client.get(url("federation_player", pk=ana.pk))
    assert page.context["entries"].rows[0].record.tournament.name == "DP 1"
    assert len(page.context["memberships"].rows) == 1
    assert client.post(url("federation_player", pk=ana.pk), {"licence": "SLO-1"}).status_code == 302
    refused = client.post(url("federation_player", pk=bor.pk), {"licence": "SLO-1"})
    assert refused.status_code == 422
    assert errors_of(refused) == {
        "licence": ["The licence SLO-1 is already a player's of Tarok Zveza"]
    }
    bor.refresh_from_db()
    assert bor.licence == ""
    for hostile in ("A\u202eB", "x" * 41, "SLO\x07"):
        answer = client.post(url("federation_player", pk=bor.pk), {"licence": hostile})
        assert answer.status_code == 422 and "licence" in errors_of(answer), hostile
    assert FederationLog.objects.filter(action="licence").count() == 1
    assert client.get(url("federation_player", pk=10**30)).status_code == 404


# --- merge ------------------------------------------------------------------------------------


def test_a_merge_is_previewed_then_confirmed_and_logged(world):
    client = client_for(world["officer"])
    club = world["club"]
    twin = Player.objects.create(name="Ana Novak", club_name="Bled")
    search = client.get(url("federation_player_merge"), {"q": "Ana"})
    assert search.status_code == 200
    ana = world["player"]
    preview = client.get(url("federation_player_merge"), {"kept": twin.pk, "merged": ana.pk})
    # Ana's record has no licence from the federation: the twin is no federation player yet.
    assert preview.status_code == 422 and "kept" in errors_of(preview)
    services.player_set_licence(player=twin, federation=world["federation"], licence="T-1")
    preview = client.get(url("federation_player_merge"), {"kept": twin.pk, "merged": ana.pk})
    assert preview.context["preview"] == {
        "kept": twin,
        "merged": ana,
        "memberships": 1,
        "entries": 1,
        "placings": 0,
    }
    done = client.post(url("federation_player_merge"), {"kept": twin.pk, "merged": ana.pk})
    assert done.status_code == 302
    assert not Player.objects.filter(pk=ana.pk).exists()
    assert club.members.get(name="Ana").player_id == twin.pk
    assert FederationLog.objects.filter(action="merge").count() == 1


def test_a_merge_into_himself_is_refused_and_nothing_written(world):
    client = client_for(world["officer"])
    ana = world["player"]
    for send in (client.get, client.post):
        answer = send(url("federation_player_merge"), {"kept": ana.pk, "merged": ana.pk})
        assert answer.status_code == 422
        assert errors_of(answer) == {"merged": ["A player cannot be merged into himself"]}
    assert Player.objects.filter(pk=ana.pk).exists()
    assert not FederationLog.objects.filter(action="merge").exists()
    for hostile in ("=SUM(1)", "9" * 30, "\x00"):
        answer = client.post(url("federation_player_merge"), {"kept": hostile, "merged": ana.pk})
        assert answer.status_code == 422 and "kept" in errors_of(answer)


def test_two_records_in_one_tournament_are_not_merged(world):
    client = client_for(world["officer"])
    answer = client.post(
        url("federation_player_merge"),
        {"kept": world["player"].pk, "merged": world["player2"].pk},
    )
    assert answer.status_code == 422
    assert errors_of(answer) == {"merged": ["Both records are entered in the tournament DP 1"]}


# --- series -----------------------------------------------------------------------------------

SERIES = {
    "name": "Liga 2027",
    "seed": "Liga 2027",
    "starts_on": "2026-09-01",
    "ends_on": "2027-06-30",
    "source": "placement",
    "scale": "linear",
    "scale_beyond": "0",
    "field_base": "100",
}


def test_a_series_of_two_final_tournaments_with_a_factor_and_its_ladder(world):
    second = second_tournament(world)
    first = world["tournament"]
    client = client_for(world["officer"])
    form = client.get(url("federation_series_new")).context["form"]
    assert {t.pk for t in form.tournaments} == {first.pk, second.pk}
    answer = client.post(
        url("federation_series_new"),
        {
            **SERIES,
            "best_of": "2",
            "qualify": "2",
            f"event_{first.pk}": "on",
            f"factor_{first.pk}": "3/2",
            f"event_{second.pk}": "on",
            f"factor_{second.pk}": "1",
        },
    )
    assert answer.status_code == 302
    series = Series.objects.get(name="Liga 2027")
    assert answer["Location"] == url("federation_series", pk=series.pk)
    assert series.rule == {
        "source": "placement",
        "scale": {"kind": "linear"},
        "best_of": 2,
        "qualify": 2,
    }
    assert dict(series.events.values_list("tournament_id", "factor")) == {
        first.pk: "3/2",
        second.pk: "1",
    }
    page = client.get(url("federation_series", pk=series.pk))
    assert page.context["rule"][1] == "A player's best 2 results count."
    ladder = client.get(url("federation_series_ladder", pk=series.pk)).context["table"]
    # Linear over four: DP 1 (x 3/2) Ana 6, Bor 9/2; DP 2 Bor 4, Ana 2 (third).
    assert [(r.record.player.name, str(r.record.total)) for r in ladder.rows][:2] == [
        ("Bor", "17/2"),
        ("Ana", "8"),
    ]


def test_best_of_and_strike_worst_together_are_refused_on_the_field(world):
    client = client_for(world["officer"])
    answer = client.post(
        url("federation_series_new"), {**SERIES, "best_of": "2", "strike_worst": "1"}
    )
    assert answer.status_code == 422
    assert errors_of(answer) == {
        "strike_worst": ["Rule.strike_worst: a rule sets best_of or strike_worst, never both"]
    }
    assert Series.objects.count() == 1


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"best_of": "99999999999999999999999"}, "best_of"),
        ({"qualify": "-1"}, "qualify"),
        ({"name": "Liga\x00"}, "name"),
        ({"name": "Liga\u200b"}, "name"),
        ({"seed": "x" * 101}, "seed"),
        ({"starts_on": "99999-01-01"}, "starts_on"),
        ({"ends_on": "2026-01-01"}, "ends_on"),
        ({"scale": "table", "scale_points": "8, 7, x"}, "scale_points"),
        ({"scale": "table", "scale_points": "8, 7, 1/0"}, "scale_points"),
        ({"scale": "field", "field_base": "=SUM(1)", "field_gaps": "21"}, "field_base"),
        ({"scale": "bogus"}, "scale"),
        ({"source": "=SUM(1)"}, "source"),
    ],
)
def test_hostile_series_input_is_a_field_error(world, changes, field):
    client = client_for(world["officer"])
    answer = client.post(url("federation_series_new"), {**SERIES, **changes})
    assert answer.status_code == 422
    assert field in errors_of(answer), errors_of(answer)
    assert Series.objects.count() == 1


@pytest.mark.parametrize("factor", ["1/0", "0", "-3/2", "1,5", "=SUM(1)", "9" * 41])
def test_a_bad_factor_is_refused_on_its_field(world, factor):
    first = world["tournament"]
    client = client_for(world["officer"])
    answer = client.post(
        url("federation_series_new"),
        {**SERIES, f"event_{first.pk}": "on", f"factor_{first.pk}": factor},
    )
    assert answer.status_code == 422
    assert list(errors_of(answer)) == [f"factor_{first.pk}"]
    assert Series.objects.count() == 1


def test_a_formula_like_name_is_kept_as_text(world):
    """A name such as =SUM(1) is a name: kept as typed, shown escaped, neutralised in exports."""
    client = client_for(world["officer"])
    answer = client.post(url("federation_series_new"), {**SERIES, "name": "=SUM(1)"})
    assert answer.status_code == 302
    assert Series.objects.filter(name="=SUM(1)").exists()


def test_an_event_is_added_to_a_series_with_its_factor(world):
    second = second_tournament(world)
    series = world["series"]
    client = client_for(world["officer"])
    for factor in ("1/0", "abc", "9" * 41):
        answer = client.post(
            url("federation_series", pk=series.pk), {"tournament": second.pk, "factor": factor}
        )
        assert answer.status_code == 422 and "factor" in errors_of(answer), factor
    none = client.post(url("federation_series", pk=series.pk), {"factor": "1"})
    assert none.status_code == 422
    assert errors_of(none) == {"__all__": ["An event is a tournament or an imported event"]}
    again = client.post(
        url("federation_series", pk=series.pk),
        {"tournament": world["tournament"].pk, "factor": "1"},
    )
    assert again.status_code == 422 and "tournament" in errors_of(again)
    assert SeriesEvent.objects.filter(series=series).count() == 1
    done = client.post(
        url("federation_series", pk=series.pk), {"tournament": second.pk, "factor": "2"}
    )
    assert done.status_code == 302
    assert series.events.get(tournament=second).factor == "2"
    assert client.get(url("federation_series", pk=10**30)).status_code == 404


# --- the log ----------------------------------------------------------------------------------


def test_the_log_is_newest_first_in_words(world):
    services.player_set_licence(
        player=world["player"], federation=world["federation"], licence="SLO-9"
    )
    page = client_for(world["officer"]).get(url("federation_log"))
    rows = [(r.get_cell("action"), r.get_cell("details")) for r in page.context["table"].rows]
    assert rows[0] == ("Licence set", f"player no. {world['player'].pk}: licence SLO-9")
    assert rows[1] == ("Series created", "Pokal")


# --- officers ---------------------------------------------------------------------------------


def test_an_officer_adds_another_and_removes_one_but_never_the_last(world):
    client = client_for(world["officer"])
    other = get_user_model().objects.create_user("helper", password=PASSWORD)
    unknown = client.post(url("federation_officers"), {"username": "nobody"})
    assert unknown.status_code == 422
    assert errors_of(unknown) == {"username": ["No user has the username nobody"]}
    for hostile in ("x" * 151, "a\x00b"):
        answer = client.post(url("federation_officers"), {"username": hostile})
        assert answer.status_code == 422 and "username" in errors_of(answer)
    assert client.post(url("federation_officers"), {"username": "helper"}).status_code == 302
    fed = Federation.objects.get(slug="tzs")
    assert set(fed.officers.values_list("username", flat=True)) == {"officer", "helper"}
    assert client.post(url("federation_officers"), {"remove": other.pk}).status_code == 302
    last = client.post(url("federation_officers"), {"remove": world["officer"].pk})
    assert last.status_code == 422
    assert last.context["problem"] == "A federation keeps at least one officer"
    for hostile in ("9" * 30, "=SUM(1)", world["stranger"].pk):
        assert client.post(url("federation_officers"), {"remove": hostile}).status_code == 422
    assert list(fed.officers.values_list("username", flat=True)) == ["officer"]
    actions = list(FederationLog.objects.filter(federation=fed).values_list("action", flat=True))
    assert actions[-2:] == ["officer_add", "officer_remove"]


def test_the_officer_services_refuse_by_field_and_write_nothing(world):
    fed = world["federation"]
    with pytest.raises(LedgerError) as caught:
        services.officer_add(federation=fed, username="officer")
    assert caught.value.field == "username"
    with pytest.raises(LedgerError) as caught:
        services.officer_remove(federation=fed, user=world["officer"])
    assert (caught.value.field, str(caught.value.message)) == (
        "officer",
        "a federation keeps at least one officer",
    )
    with pytest.raises(LedgerError) as caught:
        services.officer_remove(federation=fed, user=world["b_officer"])
    assert caught.value.field == "officer"
    assert list(fed.officers.all()) == [world["officer"]]
    assert not FederationLog.objects.filter(action__startswith="officer").exists()


def test_the_home_links_every_officer_page(world):
    page = client_for(world["officer"]).get(url("federation_home")).content.decode()
    for name in (
        "federation_clubs",
        "federation_players",
        "federation_player_merge",
        "federation_series_list",
        "federation_log",
        "federation_officers",
    ):
        assert url(name) in page, name


def test_every_action_the_services_log_is_named_in_words():
    """Each action a federation service writes to the federation's log has its words on the
    log page (a new action would otherwise show as its raw key)."""
    import re
    from pathlib import Path

    from ledger.tables.federation import LOG_ACTIONS

    folder = Path(__file__).resolve().parents[2] / "services" / "federation"
    written = {
        action
        for path in folder.glob("*.py")
        for action in re.findall(r'action="(\w+)"', path.read_text(encoding="utf-8"))
    }
    assert written and written <= set(LOG_ACTIONS), written - set(LOG_ACTIONS)
