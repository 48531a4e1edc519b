"""A series changed after its creation (``series_change``, ``series_event_factor_set``,
``series_event_remove``): checked as ``series_create`` and ``series_event_add`` check, each
refusal on its field with nothing written, each change logged with its before and after, and
a change that changes nothing writing nothing."""

import datetime

import pytest

from ledger.models import FederationLog, Series, SeriesEvent
from ledger.services import federation as fed
from ledger.services.errors import LedgerError
from ledger.services.federation.series import series_values
from ledger.tests.federation.test_series_ladder import RULE, create, first_dp, second_dp, world
from ledger.tests.helpers import club_cup

pytestmark = pytest.mark.django_db


def fields(series, **changes):
    """The series' own fields as ``series_change`` takes them, with ``changes``."""
    return {
        "name": series.name,
        "seed": series.seed,
        "starts_on": series.starts_on,
        "ends_on": series.ends_on,
        "rule": series.rule,
        **changes,
    }


def two_events():
    club, tzs, members = world()
    series = create(tzs, events=[(first_dp(club, members), 1), (second_dp(club, members), "3/2")])
    return series


def logged(action):
    return list(FederationLog.objects.filter(action=action).values_list("details", flat=True))


def test_a_change_is_stored_and_logged_with_its_before_and_after():
    """The name, an end date and the rule changed: stored, and logged once with each changed
    field's before and after (the seed, unchanged, not named)."""
    _club, tzs, _m = world()
    series = create(tzs)
    rule = {**RULE, "best_of": 1}
    changed = fed.series_change(
        series=series,
        **fields(series, name=" Pokal 2026/27 ", ends_on=datetime.date(2027, 7, 31), rule=rule),
    )
    stored = Series.objects.get(pk=series.pk)
    assert (stored.name, stored.ends_on, stored.rule) == (
        "Pokal 2026/27",
        datetime.date(2027, 7, 31),
        rule,
    )
    assert changed.name == "Pokal 2026/27"
    [row] = FederationLog.objects.filter(action="series_change")
    assert row.federation == tzs
    assert row.details == {
        "series": series.pk,
        "name": "Pokal 2026/27",
        "changes": {
            "name": ["Pokal 2026", "Pokal 2026/27"],
            "ends_on": ["2027-06-30", "2027-07-31"],
            "rule": [RULE, rule],
        },
    }


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "x" * 101}, "name"),
        ({"seed": ""}, "seed"),
        ({"ends_on": datetime.date(2026, 8, 31)}, "ends_on"),
        ({"rule": {**RULE, "best_of": 3, "strike_worst": 1}}, "rule.strike_worst"),
        ({"rule": {"source": "placement", "scale": {"kind": "table"}}}, "rule.scale.points"),
    ],
)
def test_a_bad_change_is_refused_on_its_field_and_writes_nothing(changes, field):
    """Each field checked as at the creation, refused naming it; the series and the log as
    they were."""
    _club, tzs, _m = world()
    series = create(tzs)
    before = Series.objects.filter(pk=series.pk).values().get()
    with pytest.raises(LedgerError) as caught:
        fed.series_change(series=series, **fields(series, **changes))
    assert caught.value.field == field
    assert Series.objects.filter(pk=series.pk).values().get() == before
    assert not logged("series_change")


def test_best_of_with_strike_worst_is_refused_as_at_the_creation():
    """The engine's words, on ``rule.strike_worst``."""
    _club, tzs, _m = world()
    series = create(tzs)
    with pytest.raises(LedgerError) as caught:
        fed.series_change(
            series=series, **fields(series, rule={**RULE, "best_of": 3, "strike_worst": 1})
        )
    assert str(caught.value.message) == (
        "rule.strike_worst: a rule sets best_of or strike_worst, never both"
    )


def test_a_change_that_changes_nothing_writes_nothing():
    """The same fields (the name with spaces around it, the rule's numbers written otherwise):
    nothing saved, nothing logged."""
    _club, tzs, _m = world()
    series = create(tzs)
    scale = {"kind": "table", "points": ["8", "7", "13/2"], "beyond": "0"}
    series = create(tzs, name="Pokal 2027", rule={"source": "placement", "scale": scale})
    same = fed.series_change(
        series=series,
        **fields(
            series,
            name=f"  {series.name} ",
            rule={"source": "placement", "scale": {**scale, "points": [8, 7, "26/4"], "beyond": 0}},
        ),
    )
    assert Series.objects.get(pk=series.pk).rule == {"source": "placement", "scale": scale}
    assert series_values(same) == series_values(series)
    assert not logged("series_change")


def test_a_factor_is_set_and_logged():
    series = two_events()
    event = series.events.get(tournament__name="DP 2")
    fed.series_event_factor_set(event=event, factor="4/2")
    assert SeriesEvent.objects.get(pk=event.pk).factor == "2"
    assert logged("series_factor") == [
        {"series": series.pk, "name": "Pokal 2026", "event": "DP 2", "factor": ["3/2", "2"]}
    ]


@pytest.mark.parametrize("factor", [0, "-3/2", "1/0", 1.5, "x", ""])
def test_a_factor_not_a_positive_rational_is_refused_naming_the_factor(factor):
    series = two_events()
    event = series.events.get(tournament__name="DP 2")
    with pytest.raises(LedgerError) as caught:
        fed.series_event_factor_set(event=event, factor=factor)
    assert caught.value.field == "factor"
    assert SeriesEvent.objects.get(pk=event.pk).factor == "3/2"
    assert not logged("series_factor")


def test_the_same_factor_writes_nothing():
    """``6/4`` is ``3/2``: nothing saved or logged."""
    series = two_events()
    event = series.events.get(tournament__name="DP 2")
    fed.series_event_factor_set(event=event, factor="6/4")
    assert SeriesEvent.objects.get(pk=event.pk).factor == "3/2"
    assert not logged("series_factor")


def test_an_event_is_removed_and_logged():
    """The event leaves the series (its tournament stays); a removed event cannot be
    removed or changed again."""
    series = two_events()
    event = series.events.get(tournament__name="DP 1")
    fed.series_event_remove(event=event)
    assert list(series.events.values_list("tournament__name", flat=True)) == ["DP 2"]
    assert logged("series_event_remove") == [
        {
            "series": series.pk,
            "name": "Pokal 2026",
            "event": "DP 1",
            "tournament": event.tournament_id,
            "imported": None,
            "factor": "1",
        }
    ]
    for again in (
        lambda: fed.series_event_remove(event=event),
        lambda: fed.series_event_factor_set(event=event, factor="2"),
    ):
        with pytest.raises(LedgerError) as caught:
            again()
        assert caught.value.field == "event"
    assert len(logged("series_event_remove")) == 1 and not logged("series_factor")


def test_a_clubs_cup_is_changed_and_logged_as_its_creation():
    """A club's own cup: logged in the log of no federation, as its creation is."""
    club, _tzs, _m = world()
    cup = club_cup(club)
    fed.series_change(series=cup, **fields(cup, seed="Cup 2"))
    [row] = FederationLog.objects.filter(action="series_change")
    assert row.federation is None
    assert row.details["changes"] == {"seed": [f"Cup {club.slug}", "Cup 2"]}
