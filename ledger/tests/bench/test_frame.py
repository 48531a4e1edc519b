"""The bench's frame around nothing (``bench/frame.py``), which ``bench/pages.py`` times beside
the pages: a club page of the site's frame that reads nothing of its own, so what it costs is
what every page pays before its reads. It must stay a real club page (the reader's role
checked, the frame rendered, the same queries before the view as every page), or the figure
would flatter the pages. Nothing is timed here."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse

from ledger.tests import factories
from ledger.tests.helpers import client_for

pytestmark = pytest.mark.django_db


@override_settings(ROOT_URLCONF="bench.frame")
def test_the_frame_is_a_club_page_that_reads_nothing_of_its_own(
    django_assert_num_queries,
):
    club = factories.make_club()
    member = factories.make_member(club, "Anna", login=True)
    url = reverse("bench_frame", kwargs={"club": club.slug})
    client = client_for(member.user)
    client.get(url)
    # The session, the user, the club and the reader's membership: no read of its own.
    with django_assert_num_queries(3):
        response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    assert '<header class="topbar">' in page and "<main>" in page and club.name in page
    stranger = factories.make_member(factories.make_club("other"), "Bo", login=True)
    assert client_for(stranger.user).get(url).status_code == 404
