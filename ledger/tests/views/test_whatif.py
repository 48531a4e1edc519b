"""The what-if page: a treasurer or admin compares an evening or a season under another card,
reads it side by side, downloads it as CSV and PDF; bad input is named; nothing is written."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Club, Evening, Member, tournament_format_choices
from ledger.tests.factories import make_club, make_member, make_season
from ledger.tests.helpers import client_for, imported_example, ledger_snapshot, pdftotext

pytestmark = pytest.mark.django_db


@pytest.fixture
def sl(tmp_path):
    """A Slovenian club with the spec's SL_EVENING closed, in a season, and its treasurer."""
    club = make_club(slug="bled", name="Bled", game="slovenian_tarok", language="en")
    season = make_season(club)
    evening, _data = imported_example(tmp_path, "SL_EVENING", club=club)
    Evening.objects.filter(pk=evening.pk).update(season=season)
    treasurer = make_member(club, "Treasurer", role=Member.Role.TREASURER, login=True).user
    return {"club": club, "season": season, "evening": evening, "client": client_for(treasurer)}


def url(sl, scope="evening", pdf=False, pk=None):
    pk = pk or (sl["evening"] if scope == "evening" else sl["season"]).pk
    name = "whatif_pdf" if pdf else "whatif"
    return reverse(name, kwargs={"club": sl["club"].slug, "scope": scope, "pk": pk})


def rows(response):
    return {
        r["Member"]: r for r in csv.DictReader(io.StringIO(response.content.decode("utf-8-sig")))
    }


def test_own_card_by_default_gives_the_ledger_back(sl):
    before = ledger_snapshot()
    response = sl["client"].get(url(sl))
    assert response.status_code == 200
    assert b'id="whatif"' in response.content
    assert "0 members' points differ" in response.content.decode()
    assert ledger_snapshot() == before


def test_a_preset_side_by_side_and_as_csv(sl):
    query = {"card": "preset:difference_unrounded"}
    response = sl["client"].get(url(sl), query)
    page = response.content.decode()
    assert response.status_code == 200
    assert 'data-member="Dorte"' in page and "The hands that changed most" in page
    exported = rows(sl["client"].get(url(sl), {**query, "_export": "csv"}))
    assert exported["Dorte"]["Points as played"] == "-150"
    assert exported["Dorte"]["Points what if"] == "-162"
    assert exported["Dorte"]["Points difference"] == "-12"
    assert exported["Anna"]["Points what if"] == "16"
    # what the preset changes from the evening's card, in the house rules' words
    assert 'id="whatif-changes"' in page and "<del>" in page


def test_the_season_and_its_pdf_read_back(sl, tmp_path):
    query = {"card": "preset:difference_unrounded"}
    response = sl["client"].get(url(sl, "season"), query)
    assert response.status_code == 200
    pdf = sl["client"].get(url(sl, "season", pdf=True), query)
    assert pdf["Content-Type"] == "application/pdf"
    text = pdftotext(pdf.getvalue(), tmp_path)
    assert "What if: Season 2026/2027" in text
    line = next(line for line in text.splitlines() if "Dorte" in line and "-162" in line)
    assert "-150" in line and "-12" in line
    assert "The hands that changed most" in text


def test_the_house_rules_form_with_a_value_changed(sl):
    form = sl["client"].get(url(sl)).context["form"].house_rules
    data = {f"rc-{name}": value for name, value in form.initial.items()}
    data = {k: ("" if v is False else v) for k, v in data.items() if v is not False}
    data["rc-contract_values__three"] = "11"
    response = sl["client"].get(url(sl), {"card": "edited", **data})
    assert response.status_code == 200, response.context["form"].errors
    assert "its rate card with changes" in response.content.decode()


@pytest.mark.parametrize(
    "query, field, words",
    [
        ({"card": "json", "rates": '{"contract_values": {"three": -5}}'}, "rates", "three"),
        ({"card": "json", "rates": "{not json"}, "rates", ""),
        ({"card": "json", "rates": '{"game": "danish_tarok"}'}, "rates", "danish_tarok"),
        ({"card": "preset:no_such"}, "card", "no_such"),
        ({"card": "club:nowhere"}, "card", "nowhere"),
    ],
)
def test_a_refused_card_is_named_and_nothing_is_compared(sl, query, field, words):
    response = sl["client"].get(url(sl), query)
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert field in errors and words in " ".join(errors[field])
    assert response.context["result"] is None
    assert sl["client"].get(url(sl, pdf=True), query).status_code == 422


def test_another_clubs_card_of_the_same_game(sl):
    other = make_club(slug="kranj", name="Kranj", game="slovenian_tarok")
    services.rate_card_set(club=other, rate_card={"contract_values": {"three": 15}})
    make_club(slug="aarhus", name="Aarhus")  # Danish: not offered
    response = sl["client"].get(url(sl))
    choices = str(response.context["form"].fields["card"].choices)
    assert "club:kranj" in choices and "club:aarhus" not in choices
    response = sl["client"].get(url(sl), {"card": "club:kranj"})
    assert response.status_code == 200
    assert "the house rules of Kranj" in response.content.decode()


def test_unknown_scope_tournament_evening_and_other_clubs_are_404(sl):
    client = sl["client"]
    assert client.get(url(sl, "tournament")).status_code == 404
    assert client.get(url(sl, "season", pk=999999)).status_code == 404
    Evening.objects.filter(pk=sl["evening"].pk).update(kind=Evening.Kind.TOURNAMENT)
    assert client.get(url(sl)).status_code == 404


def test_linked_from_the_evening_and_the_standings_for_treasurers_only(sl):
    club = sl["club"]
    evening_page = reverse("evening", kwargs={"club": club.slug, "pk": sl["evening"].pk})
    standings = reverse("standings", kwargs={"club": club.slug}) + f"?season={sl['season'].pk}"
    for page, target in ((evening_page, url(sl)), (standings, url(sl, "season"))):
        assert f'href="{target}"' in sl["client"].get(page).content.decode()
    member = client_for(make_member(club, "Plain", login=True).user)
    for page in (evening_page, standings):
        assert 'id="to-whatif"' not in member.get(page).content.decode()
    assert member.get(url(sl)).status_code == 403


def test_a_season_costs_the_same_queries_whatever_its_evenings(sl, tmp_path):
    def count():
        with CaptureQueriesContext(connection) as captured:
            response = sl["client"].get(url(sl, "season"), {"card": "preset:mond_21"})
        assert response.status_code == 200
        return len(captured.captured_queries)

    one = count()
    for day in (6, 7):
        evening, _ = imported_example(tmp_path, "SL_EVENING", club=sl["club"])
        Evening.objects.filter(pk=evening.pk).update(
            season=sl["season"], date=evening.date.replace(day=day)
        )
    assert count() == one


def test_a_tournament_under_another_format_and_its_pdf(tmp_path):
    from ledger.tests.helpers import build_world

    world = build_world()
    Club.objects.filter(slug="alpha").update(language="en")
    tournament = world["tournament"]
    client = client_for(world["users"]["admin"])
    page = reverse("tournament", kwargs={"club": "alpha", "pk": tournament.pk})
    target = reverse("whatif", kwargs={"club": "alpha", "scope": "tournament", "pk": tournament.pk})
    assert f'href="{target}"' in client.get(page).content.decode()
    # That link, with nothing chosen yet: its rounds ranked under its own format.
    own = dict(tournament_format_choices())[tournament.tournament_format]
    response = client.get(target)
    assert response.status_code == 200
    assert f"Ranked under {own}" in response.content.decode()
    response = client.get(target, {"format": "generic_placement"})
    assert response.status_code == 200
    assert "Ranked under Placement points" in response.content.decode()
    assert client.get(target, {"format": "generic_sum"}).status_code == 422
    pdf = client.get(
        reverse("whatif_pdf", kwargs={"club": "alpha", "scope": "tournament", "pk": tournament.pk}),
        {"format": "generic_placement"},
    )
    assert "Ranked under Placement points" in pdftotext(pdf.getvalue(), tmp_path)
    foreign = reverse(
        "whatif", kwargs={"club": "alpha", "scope": "tournament", "pk": world["b_tournament"].pk}
    )
    assert client.get(foreign).status_code == 404
