"""The series' ladder page under the club's URLs: read-only, for the club's members; the ladder
in order with exact totals shown with two decimals and the qualified line; a series of another
club is not found."""

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from ledger.models import Player
from ledger.tests.factories import make_club, make_member
from ledger.tests.federation.test_series_ladder import create, first_dp, world
from ledger.tests.helpers import english, log_in_as, main

pytestmark = pytest.mark.django_db


def test_the_ladder_page_shows_the_ladder_in_order():
    """A member reads his club's series' ladder: Ana, Bor, Cene, Dan with 6.00 and 4.50 (a
    factor of 3/2), the first two on the qualified line; another club's member gets 404."""
    club, tzs, members = world()
    first = first_dp(club, members)
    rule = {"source": "placement", "scale": {"kind": "linear"}, "qualify": 2}
    series = create(tzs, events=[(first, "3/2")], rule=rule)
    client = english(Client())
    log_in_as(client, club, "Ana")
    url = reverse("series_ladder", kwargs={"club": club.slug, "pk": series.pk})
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    names = re.findall(r"<td[^>]*>(Ana|Bor|Cene|Dan)</td>", html)
    assert names == ["Ana", "Bor", "Cene", "Dan"]
    assert 'data-points="6.00"' in html and 'data-points="4.50"' in html
    assert len(re.findall(r'<tr class="qualified', html)) == 2
    other = make_club(slug="other", name="Other", game="slovenian_tarok")
    make_member(other, "Eva")
    stranger = english(Client())
    log_in_as(stranger, other, "Eva")
    assert (
        stranger.get(
            reverse("series_ladder", kwargs={"club": other.slug, "pk": series.pk})
        ).status_code
        == 404
    )


def test_the_kept_ladder_page_shows_a_renamed_player_at_once():
    """A page of the ladder is rendered once and kept by what it shows, names included: a
    player renamed (as an erasure renames him) is shown by his new name at the next read,
    and the old name is gone."""
    cache.clear()
    club, tzs, members = world()
    first = first_dp(club, members)
    series = create(
        tzs, events=[(first, "1")], rule={"source": "placement", "scale": {"kind": "linear"}}
    )
    client = english(Client())
    log_in_as(client, club, "Ana")
    url = reverse("series_ladder", kwargs={"club": club.slug, "pk": series.pk})
    before = client.get(url).content.decode()
    assert main(client.get(url).content.decode()) == main(before)  # kept
    Player.objects.filter(pk=members["Bor"].player_id).update(name="Former member 7")
    after = client.get(url).content.decode()
    assert "Former member 7" in after and ">Bor<" in before and ">Bor<" not in after
