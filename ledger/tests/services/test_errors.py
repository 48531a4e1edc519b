"""The one refusal (issue 28, part 2): ``LedgerError`` carries problems (field, template,
parameters) translated when shown; the set-up services refuse with it inside ``writing()``; one
web helper puts it on a form or answers ``{"errors": [...]}``."""

from __future__ import annotations

import json

import pytest
from django import forms
from django.test import RequestFactory
from django.utils import translation
from django.utils.translation import gettext_lazy

from ledger.games.errors import RateCardError
from ledger.models import Club, Member
from ledger.services import setup
from ledger.services.errors import ALL, BusyError, EveningClosedError, LedgerError
from ledger.tests.factories import make_club
from ledger.web.refusals import refuse


def test_a_refusal_reads_in_the_language_it_is_shown_in():
    """A lazy template raised under one language is translated when read, in the reader's."""
    with translation.override("en"):
        error = EveningClosedError()
    with translation.override("da"):
        danish = error.message
    with translation.override("en"):
        english = error.message
    assert english == "the evening is closed; a treasurer must reopen it first"
    assert danish != english and danish


def test_parameters_fill_the_translated_template():
    error = LedgerError(gettext_lazy("the short name {slug} is taken"), "slug", slug="tzs")
    assert error.field == "slug"
    assert error.message == "the short name tzs is taken"
    assert error.as_json() == {
        "errors": [{"field": "slug", "message": "the short name tzs is taken"}]
    }


def test_an_engines_refusal_keeps_every_problem_under_its_prefix():
    with pytest.raises(RateCardError) as engine:
        setup.validated_rate_card("danish_tarok", {"bogus": 1, "other": 2})
    error = LedgerError.of_rules(engine.value, "rate_card")
    assert [p.field for p in error.problems] == ["rate_card.bogus", "rate_card.other"]
    with translation.override("sl"):
        assert "bogus" in error.as_json()["errors"][0]["message"]
        assert error.as_json()["errors"][0]["message"] != str(engine.value.problems[0].message)


def test_no_refusal_without_a_problem():
    with pytest.raises(ValueError):
        LedgerError(problems=[])


@pytest.mark.django_db
def test_a_rate_card_refused_names_each_key_translated_and_writes_nothing():
    """``rate_card_set`` (a ``writing()`` service now) refuses a bad card with the engine's
    problems, each under ``rate_card.<key>``, in the active language; the card is unchanged."""
    club = make_club(slug="cards")
    before = club.rate_card
    with translation.override("da"), pytest.raises(LedgerError) as refused:
        setup.rate_card_set(club=club, rate_card={**before, "bogus": 1})
    assert refused.value.field == "rate_card.bogus"
    with translation.override("da"):
        assert "bogus" in refused.value.message and "unknown key" not in refused.value.message
    club.refresh_from_db()
    assert club.rate_card == before


@pytest.mark.django_db
def test_a_models_rules_name_their_fields():
    club = make_club(slug="fields")
    jetons = club.starting_jetons
    with pytest.raises(LedgerError) as refused:
        setup.club_update(club=club, language="xx", starting_jetons=10_000_001)
    assert sorted(p.field for p in refused.value.problems) == ["language", "starting_jetons"]
    assert Club.objects.get(pk=club.pk).starting_jetons == jetons


@pytest.mark.django_db
def test_a_pasted_list_refused_adds_no_one_and_names_each_name():
    club = make_club(slug="paste")
    with pytest.raises(LedgerError) as refused:
        setup.members_add(club=club, names=["Anna", "Anna", "kongekop"])
    assert {p.field for p in refused.value.problems} == {ALL}
    assert len(refused.value.problems) == 2
    assert not Member.objects.filter(club=club, name="Anna").exists()


class _CardForm(forms.Form):
    name = forms.CharField(required=False)
    rate_card = forms.CharField(required=False)


def test_one_helper_puts_each_problem_on_its_form_field():
    request = RequestFactory().post("/")
    form = _CardForm({})
    assert form.is_valid()
    error = LedgerError(
        problems=[
            *LedgerError("no name", "name").problems,
            *LedgerError("no fee", "rate_card.fee").problems,
            *LedgerError("no such field", "elsewhere[2].x").problems,
        ]
    )
    assert refuse(request, error, form) is None
    assert form.errors["name"] == ["no name"]
    assert form.errors["rate_card"] == ["no fee"]
    assert form.non_field_errors() == ["no such field"]


def test_one_helper_answers_a_script_with_json():
    request = RequestFactory().post("/")
    answer = refuse(request, LedgerError("too big", "count"), status=422)
    assert answer.status_code == 422
    assert json.loads(answer.content) == {"errors": [{"field": "count", "message": "too big"}]}
    busy = refuse(request, BusyError(retry_after=3))
    assert busy.status_code == 409 and busy["Retry-After"] == "3"
