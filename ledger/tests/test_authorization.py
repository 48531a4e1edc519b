"""The authorization matrix: every club URL, every role, and no club reads another's data."""

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from ledger import services
from ledger.models import Member
from ledger.tests.factories import PASSWORD, evening_e, make_club, make_member, make_season

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "other_club", "member", "scorekeeper", "treasurer", "admin"]
RANK = {role: i for i, role in enumerate(ROLES)}

# url name -> (least role for GET, least role for POST); None: the method is not offered.
MATRIX = {
    "club": ("member", None),
    "my_page": ("member", None),
    "evening_start": (None, "scorekeeper"),
    "evening": ("member", None),
    "evening_wall": ("member", None),
    "table_new": ("scorekeeper", "scorekeeper"),
    "table": ("member", None),
    "table_seat": (None, "scorekeeper"),
    "table_leave": (None, "scorekeeper"),
    "hand_new": ("scorekeeper", "scorekeeper"),
    "hand_preview": (None, "scorekeeper"),
    "hand": ("member", None),
    "hand_correct": ("scorekeeper", "scorekeeper"),
    "hand_correct_preview": (None, "scorekeeper"),
    "hand_void": (None, "scorekeeper"),
    "standings": ("member", None),
    "standings_pdf": ("member", None),
    "member_season": ("member", None),
    "member_season_pdf": ("member", None),
    "evening_sheet": ("member", None),
    "evening_sheet_pdf": ("member", None),
    "table_sheet_pdf": ("member", None),
    "evening_treasury": ("treasurer", None),
    "treasury_count": (None, "treasurer"),
    "treasury_adjust": (None, "treasurer"),
    "treasury_close": (None, "treasurer"),
    "treasury_reopen": (None, "treasurer"),
    "setup_members": ("admin", "admin"),
    "setup_member_edit": (None, "admin"),
    "setup_rates": ("admin", "admin"),
    "setup_seasons": ("admin", "admin"),
    "setup_season_edit": ("admin", "admin"),
    "setup_settings": ("admin", "admin"),
    "setup_invitation_new": (None, "admin"),
    "setup_invitations": ("admin", None),
    "setup_invitations_pdf": ("admin", None),
}
# The set-up URLs that name one of the club's objects (the rest name only the club).
SETUP_OBJECT_URLS = {"setup_member_edit", "setup_season_edit", "setup_invitation_new"}
# The public results under /p/<club>/: public by the club's setting ("publish results"), to
# everyone or to no one (404, as for a club that does not exist); GET only.
PUBLIC_BY_SETTING = {"public_club", "public_standings", "public_evening"}


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


@pytest.fixture
def world():
    return build_world()


def build_world():
    """Two clubs; club A has an open evening with Evening E at one table and a closed one."""
    a, b = make_club(slug="alpha", name="Alpha"), make_club(slug="beta", name="Beta")
    season = make_season(a)
    players = [Member.objects.create(club=a, name=n) for n in ("Anna", "Bo", "Carl")]
    closed, _, _ = evening_e(a, members=players)
    services.evening_close(evening=closed)
    evening, table, hands = evening_e(a, members=players, date=closed.date.replace(day=20))
    users = {"anonymous": None}
    for role in ("member", "scorekeeper", "treasurer", "admin"):
        users[role] = make_member(a, f"{role}-a", role=role, login=True).user
    users["other_club"] = make_member(b, "admin-b", role="admin", login=True).user
    _, b_table, b_hands = evening_e(b)
    b_season = make_season(b)
    return {
        "club": a,
        "evening": evening,
        "closed": closed,
        "table": table,
        "hand": hands[0],
        "member": players[0],
        "users": users,
        "b_table": b_table,
        "b_hand": b_hands[0],
        "b_evening": b_table.evening,
        "b_member": b_table.seats.first().member,
        "season": season,
        "b_season": b_season,
    }


def kwargs_for(name, w, *, foreign=False):
    evening = w["b_evening"] if foreign else w["evening"]
    table = w["b_table"] if foreign else w["table"]
    hand = w["b_hand"] if foreign else w["hand"]
    member = w["b_member"] if foreign else w["member"]
    season = w["b_season"] if foreign else w["season"]
    pk = {
        "evening": evening.pk,
        "evening_wall": evening.pk,
        "table_new": evening.pk,
        "table": table.pk,
        "table_seat": table.pk,
        "table_leave": table.pk,
        "hand_new": table.pk,
        "hand_preview": table.pk,
        "hand": hand.pk,
        "hand_correct": hand.pk,
        "hand_correct_preview": hand.pk,
        "hand_void": hand.pk,
        "member_season": member.pk,
        "member_season_pdf": member.pk,
        "evening_sheet": evening.pk,
        "evening_sheet_pdf": evening.pk,
        "table_sheet_pdf": evening.pk,
        "evening_treasury": evening.pk,
        "treasury_count": evening.pk,
        "treasury_adjust": evening.pk,
        "treasury_close": evening.pk,
        "treasury_reopen": evening.pk,
        "setup_member_edit": member.pk,
        "setup_invitation_new": member.pk,
        "setup_season_edit": season.pk,
    }.get(name)
    kwargs = {"club": "alpha"}
    if pk is not None:
        kwargs["pk"] = pk
    if name in ("treasury_count", "treasury_adjust", "table_sheet_pdf"):
        kwargs["table"] = table.pk
    return kwargs


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


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
        if n not in ("club", "my_page", "standings", "standings_pdf", "evening_start")
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
    """No view of the site switches CSRF protection off."""
    exempt = []

    def walk(patterns):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns)
            elif getattr(p.callback, "csrf_exempt", False):
                exempt.append(p.name)

    walk(get_resolver().url_patterns)
    assert exempt == []


@pytest.mark.parametrize("name", sorted(PUBLIC_BY_SETTING))
def test_public_urls_are_public_by_setting(name, world):
    """A public URL answers 404 to every role, even the club's admin, while the club keeps its
    results private, and 200 to every role (no log-in) once it publishes them; it takes no
    POST. An open evening is 404 even then."""
    club = world["club"]
    kwargs = {"club": club.slug}
    if name == "public_evening":
        kwargs["pk"] = world["closed"].pk
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
