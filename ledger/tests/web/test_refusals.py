"""The one way a view shows a refusal (issue 28, ``ledger.web.refusals``): on a form each
problem on its field, or the whole form's; to a script ``{"errors": [...]}`` with its status (a
busy one 409 and ``Retry-After``); as the next page's messages; every message its template
translated in the reader's language; each refusal logged once. Real services refuse here, to
real requests."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django import forms
from django.conf import settings
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ledger.games.errors import HandError, RateCardError
from ledger.games.registry import get_game
from ledger.services import setup
from ledger.services import tournaments as tournament_services
from ledger.services.errors import ALL, BusyError, LedgerError
from ledger.tests.factories import make_club, make_member, make_tournament
from ledger.tests.helpers import client_for
from ledger.web.refusals import (
    logged_refusal,
    refusal_messages,
    refusal_text,
    refuse,
    refuse_message,
)

pytestmark = pytest.mark.django_db


def refused_lines(caplog) -> list[Any]:  # records with the refusal's fields as attributes
    return [r for r in caplog.records if getattr(r, "event", None) in ("refused", "busy")]


def refusal_of(write) -> LedgerError:
    with pytest.raises(LedgerError) as refused:
        write()
    return refused.value


class LanguageForm(forms.Form):
    """A form that has a field for one of the two problems of ``club_update`` below."""

    language = forms.CharField(required=False)
    count_7 = forms.CharField(required=False)


def bound_form() -> LanguageForm:
    form = LanguageForm({})
    assert form.is_valid()
    return form


@pytest.fixture
def club():
    return make_club(slug="refusing")


def two_problems(club) -> LedgerError:
    """``club_update`` refuses a language that is none and too many jetons: two problems."""
    return refusal_of(
        lambda: setup.club_update(club=club, language="xx", starting_jetons=10_000_001)
    )


def test_a_form_refusal_lands_on_the_named_field_and_the_rest_on_the_whole_form(club, caplog):
    caplog.set_level(logging.INFO, logger="ledger")
    error = two_problems(club)
    form = bound_form()
    assert refuse(RequestFactory().post("/"), error, form) is None
    messages = dict(error.messages())
    assert form.errors["language"] == [messages["language"]]
    assert form.non_field_errors() == [messages["starting_jetons"]]
    (line,) = refused_lines(caplog)
    assert (line.error, line.field) == ("LedgerError", "language")


def test_a_form_refusal_follows_the_fields_it_is_given(club):
    error = two_problems(club)
    mapped = bound_form()
    refuse(RequestFactory().post("/"), error, mapped, fields={"starting_jetons": "count_7"})
    assert mapped.errors["count_7"] == [dict(error.messages())["starting_jetons"]]
    assert list(mapped.errors) == ["language", "count_7"]
    one = bound_form()
    refuse(RequestFactory().post("/"), error, one, fields="count_7", named=True, capitalised=True)
    assert [str(m).split(":")[0] for m in one.errors["count_7"]] == ["Language", "Starting_jetons"]
    whole = bound_form()
    refuse(RequestFactory().post("/"), error, whole, fields=ALL)
    assert list(whole.errors) == ["__all__"] and len(whole.non_field_errors()) == 2
    by_function = bound_form()
    refuse(RequestFactory().post("/"), error, by_function, fields=lambda f: f"count_{len(f)}")
    assert list(by_function.errors) == ["__all__"]  # count_8 and count_15: no such fields


@pytest.fixture
def director():
    club = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok", language="en")
    admin = make_member(club, "Director", role="admin", login=True)
    return club, admin


def test_a_refused_form_of_a_page_shows_the_problem_on_its_field(director):
    """Through a page: the director's new tournament over more days than the service allows."""
    club, admin = director
    response = client_for(admin.user).post(
        reverse("tournaments", kwargs={"club": club.slug}),
        {
            "name": "Cup",
            "date": "2026-12-05",
            "last_date": "2027-02-01",
            "game": "slovenian_tarok",
            "tournament_format": "sl_dp",
            "seed": "",
            "params": "",
        },
    )
    assert response.status_code == 422
    form = response.context["form"]
    assert form.errors == {"last_date": ["a tournament spans at most 31 days"]}


def test_a_script_is_answered_with_every_problem_and_the_status(club, caplog):
    caplog.set_level(logging.INFO, logger="ledger")
    error = two_problems(club)
    answer = refuse(RequestFactory().post("/"), error, status=422, club_id=club.pk)
    assert answer.status_code == 422
    assert json.loads(answer.content) == {
        "errors": [{"field": f, "message": m} for f, m in error.messages()]
    }
    (line,) = refused_lines(caplog)
    assert line.club_id == club.pk


def test_the_upload_without_a_token_is_refused_as_json_through_the_one_helper(caplog):
    caplog.set_level(logging.INFO, logger="ledger")
    response = Client().post(
        reverse("results_api", kwargs={"federation": "nowhere"}),
        data=b"{}",
        content_type="application/json",
    )
    assert response.status_code == 401
    with translation.override(settings.LANGUAGE_CODE):
        needed = gettext("a valid upload token of this federation is needed")
    assert response.json() == {"errors": [{"field": "token", "message": needed}]}
    assert len([r for r in caplog.records if getattr(r, "event", None) == "refused"]) == 1


def test_a_busy_refusal_is_409_with_retry_after(club, caplog):
    caplog.set_level(logging.INFO, logger="ledger")
    answer = refuse(RequestFactory().post("/"), BusyError(retry_after=3), status=400)
    assert answer.status_code == 409
    assert answer["Retry-After"] == "3"
    assert json.loads(answer.content) == {
        "busy": True,
        "message": "another save is under way; try again in a moment",
        "retry_after": 3,
    }
    (line,) = refused_lines(caplog)
    assert line.event == "busy"


def test_a_redirecting_view_shows_the_refusal_as_a_message_logged_once(director, caplog):
    """The director finishes a tournament whose rounds are not played: back to its page with
    the reason, in his language, logged once."""
    caplog.set_level(logging.INFO, logger="ledger")
    club, admin = director
    tournament = make_tournament(club)
    client = client_for(admin.user)
    url = reverse("tournament_finish", kwargs={"club": club.slug, "pk": tournament.pk})
    response = client.post(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    english = [str(m) for m in get_messages(response.wsgi_request)]
    assert english == ["only a tournament whose last round is closed can finish"]
    (line,) = refused_lines(caplog)
    assert (line.club, line.user, line.path) == (club.slug, admin.user.username, url)
    with translation.override("da"):
        error = refusal_of(
            lambda: tournament_services.tournament_finish(tournament=tournament, by=admin.user)
        )
        request = RequestFactory().post("/")
        request.session = SessionStore()
        request._messages = FallbackStorage(request)  # type: ignore[attr-defined]  # as MessageMiddleware
        refuse_message(request, error)
    (danish,) = [str(m) for m in get_messages(request)]
    assert danish != english[0] and danish


def test_an_engines_problems_are_translated_where_they_are_shown(caplog):
    """A ``RulesError`` (the rate card's) read in Danish: each problem's template translated,
    then filled; the same in English is the English text."""
    caplog.set_level(logging.INFO, logger="ledger")
    with pytest.raises(RateCardError) as raised:
        setup.validated_rate_card("danish_tarok", {"bogus": 1})
    error = raised.value
    with translation.override("en"):
        (english,) = refusal_messages(error)
    with translation.override("da"):
        (danish,) = refusal_messages(error)
        answer = refuse(RequestFactory().post("/"), error)
        assert refusal_text(error, "Kort") == f"Kort: {danish[1]}"
    assert english[0] == danish[0] == "bogus"
    assert "bogus" in danish[1] and danish[1] != english[1]
    assert json.loads(answer.content) == {"errors": [{"field": "bogus", "message": danish[1]}]}
    assert [line.error for line in refused_lines(caplog)] == ["LedgerError"]


def test_a_refused_hand_gives_its_pairs_and_is_logged_once(caplog):
    """The pairs the hand form lays out by section: each of a ``HandError``'s problems on its
    field, translated; logged once, with the first field."""
    caplog.set_level(logging.INFO, logger="ledger")
    with pytest.raises(HandError) as raised:
        get_game("danish_tarok").parse_hand(["Anna"], rates=None)  # type: ignore[arg-type]  # not a mapping: refused
    error = raised.value
    pairs = logged_refusal(RequestFactory().post("/"), error, table=7)
    assert pairs == [(p.field, p.template.format(**p.params)) for p in error.problems]
    (line,) = refused_lines(caplog)
    assert (line.error, line.field, line.table) == ("HandError", error.problems[0].field, 7)
