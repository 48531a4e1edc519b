"""Every link a page shows leads somewhere. Over the loaded demo (three clubs, a tournament,
the federation), each reader starts from his home and follows every link of the site that
each page he reaches shows him (``<a href>``), and none may answer an error: a server error,
a 404 or a refusal. The readers: each club's admin, treasurer, scorekeeper and member, the
federation's officer, and a visitor from the public pages. Pages are told apart by their path
with its numbers taken out and the names of their query's keys (a hand's page is read once,
not for every hand; a sorted table once, not for every column): 35 to 60 pages a club's
reader, 23 the officer's, 7 the visitor's, about 600 in all. The admin site, the static
files and the log-out are not crawled; the exports and PDFs are, once each.

What it found first: a tournament's "what if" page, opened from the tournament's own link
with no format chosen, answered 500.
"""

from __future__ import annotations

import html
import re
from collections import deque
from urllib.parse import parse_qsl, urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model

from ledger.games.danish import demo as danish_demo
from ledger.games.hungarian import demo as hungarian_demo
from ledger.games.slovenian import demo as slovenian_demo
from ledger.models import Tournament
from ledger.tests.helpers import client_for

pytestmark = pytest.mark.django_db

HREF = re.compile(r'<a\b[^>]*\bhref="([^"#]+)', re.IGNORECASE)
NOT_CRAWLED = re.compile(r"^/(admin|static|media)/|^/logout/")
CLUBS = {
    danish_demo.DEMO_SLUG: danish_demo.DEMO_USERS,
    slovenian_demo.DEMO_SLUG: slovenian_demo.DEMO_USERS,
    hungarian_demo.DEMO_SLUG: hungarian_demo.DEMO_USERS,
}


def shape(address: str) -> tuple[str, tuple[str, ...]]:
    """Return what tells a page apart: its path without numbers, its query's keys."""
    parts = urlsplit(address)
    return re.sub(r"\d+", "N", parts.path), tuple(sorted({k for k, _ in parse_qsl(parts.query)}))


def links(page: str, base: str) -> list[str]:
    """Return the site's own addresses that ``page`` (read at ``base``) links to."""
    found = []
    for href in HREF.findall(page):
        parts = urlsplit(urljoin(base, html.unescape(href)))
        if parts.scheme in ("", "http") and parts.netloc in ("", "testserver"):
            address = parts.path + (f"?{parts.query}" if parts.query else "")
            if not NOT_CRAWLED.search(parts.path):
                found.append(address)
    return found


def crawl(client, *starts: str) -> tuple[dict[str, int], list[str]]:
    """Follow every link from ``starts``; return each page read with its status, and every
    (page, link) whose answer was an error."""
    read: dict[str, int] = {}
    seen = set()
    broken = []
    queue = deque((start, "(start)") for start in starts)
    while queue:
        address, came_from = queue.popleft()
        if shape(address) in seen:
            continue
        seen.add(shape(address))
        response = client.get(address)
        read[address] = response.status_code
        if response.status_code >= 400:
            broken.append(f"{came_from} -> {address}: {response.status_code}")
            continue
        if response.status_code in (301, 302, 303):
            queue.append((response["Location"], address))
            continue
        if not response.get("Content-Type", "").startswith("text/html"):
            continue
        queue.extend((link, address) for link in links(response.content.decode(), address))
    return read, broken


def user(username: str):
    return get_user_model().objects.get(username=username)


@pytest.mark.slow  # loads the demo
@pytest.mark.once  # the links of every page: the same on either database, checked once
class TestLinkCrawl:
    @pytest.mark.parametrize("slug", sorted(CLUBS))
    def test_every_link_of_a_club_leads_somewhere(self, demo, slug):
        """Each of the club's four roles, from the club's home and his own page."""
        failures = []
        for demo_user in CLUBS[slug]:
            read, broken = crawl(
                client_for(user(demo_user.username)), f"/c/{slug}/", f"/c/{slug}/me/"
            )
            assert len(read) > 20, (demo_user.username, len(read))
            failures += [f"{demo_user.username}: {line}" for line in broken]
        assert failures == []

    def test_every_link_of_the_tournament_and_the_federation_leads_somewhere(self, demo):
        """The tournament's director from the tournament, the federation's officer from the
        federation's home, a visitor from the public ladders and the tournament's public page."""
        tournament = Tournament.objects.get(club__slug=slovenian_demo.DEMO_SLUG)
        director = slovenian_demo.DEMO_USERS[0].username
        base = f"/c/{slovenian_demo.DEMO_SLUG}/t/{tournament.pk}/"
        federation = f"/f/{slovenian_demo.FEDERATION_SLUG}/"
        public = f"/pf/{slovenian_demo.FEDERATION_SLUG}/"
        failures = []
        for who, client, starts in (
            (director, client_for(user(director)), [base]),
            (slovenian_demo.OFFICER, client_for(user(slovenian_demo.OFFICER)), [federation]),
            ("visitor", client_for(None), [public]),
        ):
            read, broken = crawl(client, *starts)
            assert len(read) > 5, (who, len(read))
            failures += [f"{who}: {line}" for line in broken]
        assert failures == []
