"""The federation's authorization matrix: every URL under /f/<federation>/ is for its
officers (and superusers) only; a visitor goes to the log-in, anyone else gets 404, and
another federation's officer reads nothing of this one."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger.services.federation.ladder import ladder_kept
from ledger.tests.helpers import (
    FEDERATION_MATRIX,
    client_for,
    federation_kwargs,
    federation_world,
    rolled_back,
)
from ledger.tests.views.test_authorization import club_url_names

pytestmark = pytest.mark.django_db


def test_matrix_covers_every_federation_url():
    """Every URL under /f/<federation>/ is in the matrix."""
    assert club_url_names("f/<slug:federation>/") == set(FEDERATION_MATRIX)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The federation's world, built once for the module (each test's writes roll back)."""
    with rolled_back(django_db_blocker):
        yield federation_world(series=True)


@pytest.mark.parametrize("name", sorted(FEDERATION_MATRIX))
def test_only_officers(name, world):
    url = reverse(name, kwargs=federation_kwargs(name, world))
    superuser = get_user_model().objects.create_superuser("root", password="x-root-pw-1")
    for method in FEDERATION_MATRIX[name]:
        send = "get" if method == "GET" else "post"
        anonymous = getattr(client_for(None), send)(url)
        assert anonymous.status_code == 302 and "/login/" in anonymous["Location"], (name, method)
        for refused in ("stranger", "b_officer"):
            answer = getattr(client_for(world[refused]), send)(url)
            assert answer.status_code == 404, (name, method, refused)
        for allowed in (world["officer"], superuser):
            answer = getattr(client_for(allowed), send)(url)
            assert answer.status_code not in (403, 404, 405), (name, method, answer.status_code)
            if answer.status_code == 302:
                assert "/login/" not in answer["Location"], (name, method)


def test_officer_reads_in_the_federations_language(world):
    """An officer with no language of his own reads the federation's pages in its language."""
    answer = client_for(world["officer"]).get(
        reverse("federation_home", kwargs={"federation": "tzs"})
    )
    assert answer["Content-Language"] == "sl"
    assert "Včlanjeni klubi" in answer.content.decode()


def test_home_lists_the_officers_federations(world):
    """The site's home lists the federations the user is an officer of, and only those."""
    page = client_for(world["officer"]).get(reverse("home")).content.decode()
    assert reverse("federation_home", kwargs={"federation": "tzs"}) in page
    assert reverse("federation_home", kwargs={"federation": "other"}) not in page


# Each officer page's queries, the request's own included (the session, the user, the
# federation with the officer's check in one query), over ``federation_world``.
FEDERATION_QUERIES = {
    "federation_home": 4,  # + the member clubs
    "federation_clubs": 5,  # + the joinable clubs, the member clubs with their members
    "federation_players": 5,  # + the count, the page of players (their clubs joined)
    # + the player, his memberships, entries, placings, his ratings (2), the federation's
    # series, each one's kept ladder (its fingerprint: events, last merge; the kept one; one
    # series here) and his lines on them
    "federation_player": 14,
    "federation_player_merge": 5,  # + the players of both choices (one read each)
    "federation_series_list": 5,  # + the count, the page of series
    "federation_series_new": 4,  # + the final tournaments (their clubs joined)
    "federation_series": 7,  # + the series, its events, the tournaments and imported events to add
    "federation_series_change": 4,  # + the series
    "federation_series_event": 5,  # + the series, its event (its tournament joined)
    # + the series, the kept ladder's fingerprint (events, last merge), the kept ladder, the
    # count of its lines and one page of them (players and clubs joined)
    "federation_series_ladder": 9,
    "federation_log": 5,  # + the count, the page of the log (its users joined)
    "federation_officers": 4,  # + the officers
    "federation_imports": 4,  # + the events with their players counted
    "federation_import_upload": 4,  # + the federation's series for the select
    "federation_import": 6,  # + the event, its ranking with the players, its series
    "federation_import_file": 4,  # + the event
    "federation_tokens": 4,  # + the tokens
    "federation_ratings": 5,  # + the lists, the chosen list's ratings
}


def test_every_federation_page_is_pinned():
    assert set(FEDERATION_QUERIES) == {n for n, m in FEDERATION_MATRIX.items() if "GET" in m}


@pytest.mark.parametrize("name", sorted(FEDERATION_QUERIES))
def test_federation_page_queries(name, world, django_assert_num_queries):
    client = client_for(world["officer"])
    url = reverse(name, kwargs=federation_kwargs(name, world))
    ladder_kept(world["series"])  # the ladder page reads the kept ladder (its first read: below)
    with django_assert_num_queries(FEDERATION_QUERIES[name]):
        assert client.get(url).status_code == 200
