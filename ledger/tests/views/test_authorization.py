"""The authorization matrix: every club URL, every role, and no club reads another's data."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from ledger.models import Club
from ledger.tests.factories import PASSWORD
from ledger.tests.helpers import MATRIX, build_world, client_for, kwargs_for, rolled_back

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "other_club", "member", "scorekeeper", "treasurer", "admin"]
RANK = {role: i for i, role in enumerate(ROLES)}

# The set-up URLs that name one of the club's objects (the rest name only the club).
SETUP_OBJECT_URLS = {
    "setup_member_edit",
    "setup_member_erase",
    "setup_season_edit",
    "setup_invitation_new",
}
# The member's own data and erasure: they name only the club (his own membership there).
OWN_URLS = {"my_data", "my_data_pdf", "my_erase"}
# The public results under /p/<club>/: public by the club's setting ("publish results"), to
# everyone or to no one (404, as for a club that does not exist); GET only.
PUBLIC_BY_SETTING = {"public_club", "public_standings", "public_evening", "public_tournament"}


def club_url_names(under: str = "c/<slug:club>/"):
    """Return the names of every URL under /c/<club>/ (or ``under``)."""
    names = set()

    def walk(patterns, prefix):
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and route.startswith(under) and p.name:
                names.add(p.name)

    walk(get_resolver().url_patterns, "")
    return names


def test_matrix_covers_every_club_url():
    """Every club URL is in the matrix, so a new page cannot skip the authorization check."""
    assert club_url_names() == set(MATRIX)


def test_every_public_url_is_known():
    """Every URL under /p/<club>/ is one of the public-by-setting pages checked below."""
    assert club_url_names("p/<slug:club>/") == PUBLIC_BY_SETTING


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The two clubs, built once for the module (each test's writes roll back)."""
    with rolled_back(django_db_blocker):
        yield build_world()


def assert_refused(response, role, url):
    if role == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"], url
    elif role == "other_club":
        assert response.status_code == 404, url
    else:
        assert response.status_code == 403, url


def assert_allowed(response, role, url):
    assert response.status_code not in (403, 404, 405), (role, url, response.status_code)
    if response.status_code == 302:
        assert "/login/" not in response["Location"], (role, url)


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_every_role_on_every_url(name, world):
    """Each URL admits exactly the roles that may use it; the rest are refused, writing nothing."""
    get_role, post_role = MATRIX[name]
    url = reverse(name, kwargs=kwargs_for(name, world))
    for role in ROLES:
        client = client_for(world["users"][role])
        if get_role is not None:
            response = client.get(url)
            if RANK[role] >= RANK[get_role]:
                assert_allowed(response, role, url)
            else:
                assert_refused(response, role, url)
        if post_role is not None and RANK[role] < RANK[post_role]:
            assert_refused(client.post(url, {}), role, url)
    if post_role is not None:
        client = client_for(world["users"][post_role])
        assert_allowed(client.post(url, {}), post_role, url)


@pytest.mark.parametrize(
    "name",
    sorted(
        n
        for n in MATRIX
        if n
        not in ("club", "my_page", "standings", "standings_pdf", "evening_start", "tournaments")
        and n not in OWN_URLS
        and not (n.startswith("setup_") and n not in SETUP_OBJECT_URLS)
    ),
)
def test_no_url_reaches_another_clubs_objects(name, world):
    """A club admin asking for another club's evening, table, hand or member by id gets 404."""
    url = reverse(name, kwargs=kwargs_for(name, world, foreign=True))
    client = client_for(world["users"]["admin"])
    get_role, post_role = MATRIX[name]
    if get_role is not None:
        assert client.get(url).status_code == 404, url
    if post_role is not None:
        assert client.post(url, {}).status_code == 404, url


def test_password_log_in_reaches_the_club(world):
    """A member logs in with a password and lands on his club's page."""
    client = Client()
    response = client.post("/login/", {"username": "alpha-member-a", "password": PASSWORD})
    assert response.status_code == 302
    assert client.get("/", follow=True).redirect_chain[-1][0] == "/c/alpha/"


@pytest.mark.parametrize("name", sorted(n for n, (_, post) in MATRIX.items() if post))
def test_every_form_requires_csrf(name, world):
    """Every URL that takes a POST refuses one without the CSRF token, even from an admin."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world["users"]["admin"])
    url = reverse(name, kwargs=kwargs_for(name, world))
    assert client.post(url, {}).status_code == 403, url


def test_no_view_is_csrf_exempt():
    """No view of the site switches CSRF protection off, but the results files' POST with a
    federation's upload token (no session or cookie authenticates there)."""
    exempt = []

    def walk(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns)
            elif getattr(p.callback, "csrf_exempt", False):
                exempt.append(p.name)

    walk(get_resolver().url_patterns)
    assert exempt == ["results_api"]


@pytest.mark.parametrize("name", sorted(PUBLIC_BY_SETTING))
def test_public_urls_are_public_by_setting(name, world):
    """A public URL answers 404 to every role, even the club's admin, while the club keeps its
    results private, and 200 to every role (no log-in) once it publishes them; it takes no
    POST. An open evening is 404 even then."""
    club = Club.objects.get(pk=world["club"].pk)  # its own copy: the module's is shared
    kwargs = {"club": club.slug}
    if name == "public_evening":
        kwargs["pk"] = world["closed"].pk
    if name == "public_tournament":
        kwargs["pk"] = world["tournament"].pk
    url = reverse(name, kwargs=kwargs)
    for role in ROLES:
        assert client_for(world["users"][role]).get(url).status_code == 404, (role, url)
    club.publish_results = True
    club.save(update_fields=["publish_results"])
    for role in ROLES:
        client = client_for(world["users"][role])
        assert client.get(url).status_code == 200, (role, url)
        assert client.post(url, {}).status_code == 405, (role, url)
    if name == "public_evening":
        kwargs["pk"] = world["evening"].pk  # open
        url = reverse(name, kwargs=kwargs)
        assert client_for(None).get(url).status_code == 404
