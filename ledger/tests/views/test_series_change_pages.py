"""The pages that change a series (``ledger.views.series_edit``): the officer's "Change the
series" (a form prefilled with it) and an event's page (its factor, its removal), and a club
admin's of the club's own cup; each refusal shown on its field with nothing written, a
change that changes nothing saying so."""

import datetime

import pytest
from django.urls import reverse

from ledger.models import FederationLog, Series, SeriesEvent
from ledger.tests.helpers import build_world, client_for, cup_event
from ledger.tests.views import test_federation_officer as officer_pages

pytestmark = pytest.mark.django_db

# The officer's world (a fixture), addresses and form errors, as the officer's pages test them.
world = officer_pages.world
url = officer_pages.url
errors_of = officer_pages.errors_of


def prefilled(response) -> dict:
    """The change form's fields as the page fills them, ready to be sent back."""
    data = {}
    for field in response.context["form"]:
        value = field.value()
        if isinstance(value, datetime.date):
            value = value.isoformat()
        if value is not None:
            data[field.name] = value
    return data


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_change_page_is_prefilled_and_changes_the_rule(world):
    series = world["series"]
    client = client_for(world["officer"])
    page = client.get(url("federation_series", pk=series.pk)).content.decode()
    assert url("federation_series_change", pk=series.pk) in page
    form = client.get(url("federation_series_change", pk=series.pk))
    data = prefilled(form)
    assert data["name"] == "Pokal" and data["seed"] == "Pokal 2026"
    assert (data["source"], data["scale"], data["starts_on"]) == (
        "placement",
        "linear",
        "2026-09-01",
    )
    answer = client.post(url("federation_series_change", pk=series.pk), {**data, "best_of": "1"})
    assert answer.status_code == 302
    assert answer["Location"] == url("federation_series", pk=series.pk)
    assert Series.objects.get(pk=series.pk).rule == {**series.rule, "best_of": 1}
    [row] = FederationLog.objects.filter(action="series_change")
    assert row.by == world["officer"]
    assert row.details["changes"] == {"rule": [series.rule, {**series.rule, "best_of": 1}]}
    shown = client.get(answer["Location"])
    assert messages_of(shown) == ["The series is changed."]
    assert "best 1 result counts." in shown.content.decode()
    log = client.get(url("federation_log")).content.decode()
    assert "Series changed" in log and "&quot;best_of&quot;: 1" in log


def test_a_change_that_changes_nothing_says_so(world):
    series = world["series"]
    client = client_for(world["officer"])
    data = prefilled(client.get(url("federation_series_change", pk=series.pk)))
    answer = client.post(url("federation_series_change", pk=series.pk), data, follow=True)
    assert messages_of(answer) == ["Nothing changed."]
    assert not FederationLog.objects.filter(action="series_change").exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"best_of": "2", "strike_worst": "1"}, "strike_worst"),
        ({"ends_on": "2026-08-01"}, "ends_on"),
        ({"scale": "table", "scale_points": "8, x"}, "scale_points"),
        ({"name": "   "}, "name"),
    ],
)
def test_a_refused_change_is_shown_on_its_field(world, changes, field):
    series = world["series"]
    client = client_for(world["officer"])
    data = prefilled(client.get(url("federation_series_change", pk=series.pk)))
    before = Series.objects.filter(pk=series.pk).values().get()
    answer = client.post(url("federation_series_change", pk=series.pk), {**data, **changes})
    assert answer.status_code == 422
    assert field in errors_of(answer), errors_of(answer)
    assert Series.objects.filter(pk=series.pk).values().get() == before
    assert not FederationLog.objects.filter(action="series_change").exists()


def test_an_events_factor_is_changed_and_the_event_removed(world):
    series = world["series"]
    event = series.events.get()
    client = client_for(world["officer"])
    page = client.get(url("federation_series", pk=series.pk)).content.decode()
    event_url = url("federation_series_event", pk=series.pk, event=event.pk)
    assert event_url in page and "Change DP 1" in page
    form = client.get(event_url)
    assert form.context["form"]["factor"].value() == "3/2"
    assert "Remove it from the series Pokal" in form.content.decode()
    for bad in ("0", "1/0", "abc"):
        refused = client.post(event_url, {"factor": bad})
        assert refused.status_code == 422 and "factor" in errors_of(refused), bad
    same = client.post(event_url, {"factor": "6/4"}, follow=True)
    assert messages_of(same) == ["Nothing changed."]
    assert not FederationLog.objects.filter(action="series_factor").exists()
    done = client.post(event_url, {"factor": "2"})
    assert done.status_code == 302 and SeriesEvent.objects.get(pk=event.pk).factor == "2"
    gone = client.post(event_url, {"remove": "1"})
    assert gone["Location"] == url("federation_series", pk=series.pk)
    assert not series.events.exists()
    assert client.get(event_url).status_code == 404
    assert set(FederationLog.objects.values_list("action", flat=True)) >= {
        "series_factor",
        "series_event_remove",
    }


def test_another_series_event_is_not_found(world):
    """An event named under another series' URL: 404."""
    series = world["series"]
    other = Series.objects.create(
        federation=world["federation"],
        name="Other",
        game=series.game,
        seed="x",
        starts_on=series.starts_on,
        ends_on=series.ends_on,
        rule=series.rule,
    )
    event = series.events.get()
    client = client_for(world["officer"])
    assert (
        client.get(url("federation_series_event", pk=other.pk, event=event.pk)).status_code == 404
    )


def test_a_club_admin_changes_his_clubs_cup():
    """The cup's ladder links its admin (not a member) to the change; the change is logged
    in the log of no federation; a federation's series is not the club admin's."""
    w = build_world()
    cup, admin = w["series"], client_for(w["users"]["admin"])
    ladder = reverse("series_ladder", kwargs={"club": "alpha", "pk": cup.pk})
    change = reverse("cup_change", kwargs={"club": "alpha", "pk": cup.pk})
    assert change in admin.get(ladder).content.decode()
    assert change not in client_for(w["users"]["member"]).get(ladder).content.decode()
    data = prefilled(admin.get(change))
    refused = admin.post(change, {**data, "best_of": "2", "strike_worst": "1"})
    assert refused.status_code == 422 and "strike_worst" in errors_of(refused)
    done = admin.post(change, {**data, "name": "Cup 2027"})
    assert done["Location"] == ladder
    assert Series.objects.get(pk=cup.pk).name == "Cup 2027"
    [row] = FederationLog.objects.filter(action="series_change")
    assert row.federation is None and row.by == w["users"]["admin"]
    event = cup_event(cup)
    event_url = reverse("cup_event", kwargs={"club": "alpha", "pk": cup.pk, "event": event.pk})
    assert event_url in admin.get(change).content.decode()
    assert admin.post(event_url, {"factor": "5/2"})["Location"] == change
    assert SeriesEvent.objects.get(pk=event.pk).factor == "5/2"
    assert admin.post(event_url, {"remove": "1"})["Location"] == change
    assert not cup.events.exists()
