"""Every page fits a phone in the largest text. Over the loaded demo, each club's admin, the
tournament's director and the federation's officer, with "larger" text on their profiles,
read at 390x844 every page their links reach from their homes (as ``test_link_crawl``: a
page of each shape, the exports, PDFs and downloads left out), and no page may be wider than
the screen (``PAGE_OVERFLOW``: a wide table scrolls in its own box), nor show an axe-core
violation (the WCAG A and AA rules, as ``test_accessibility`` at 1280 px). It found, at 390
px: a select of long choices and a fieldset widening the house rules and the federation's
series forms, the tournaments', seasons', rounds' and a round's tables, the table's QR card;
and eight pages whose table scrolled in a box a keyboard could not reach.
"""

from __future__ import annotations

import pytest

from ledger.games.danish import demo as danish_demo
from ledger.games.hungarian import demo as hungarian_demo
from ledger.games.slovenian import demo as slovenian_demo
from ledger.models import Profile, Tournament
from ledger.tests.e2e.conftest import log_in, watch_csp
from ledger.tests.e2e.test_accessibility import RUN_AXE, TAGS, axe_source
from ledger.tests.e2e.test_text_size import PAGE_OVERFLOW
from ledger.tests.helpers import seed
from ledger.tests.views.test_link_crawl import links, shape, user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Not pages: what downloads a file.
DOWNLOADS = ("_export=", ".pdf", "/me/data/")


def test_every_page_fits_a_phone_in_the_largest_text(browser, live_server):
    seed(url=live_server.url)
    tournament = Tournament.objects.get(club__slug=slovenian_demo.DEMO_SLUG)
    readers = {
        danish_demo.DEMO_USERS[0].username: ["/c/demo/", "/c/demo/me/"],
        slovenian_demo.DEMO_USERS[0].username: [
            f"/c/{slovenian_demo.DEMO_SLUG}/",
            f"/c/{slovenian_demo.DEMO_SLUG}/t/{tournament.pk}/",
        ],
        hungarian_demo.DEMO_USERS[0].username: [f"/c/{hungarian_demo.DEMO_SLUG}/"],
        slovenian_demo.OFFICER: [f"/f/{slovenian_demo.FEDERATION_SLUG}/"],
    }
    failures: list[str] = []
    violations: list[str] = []
    read = 0
    script = axe_source()
    for username, starts in readers.items():
        reader = user(username)
        Profile.objects.update_or_create(user=reader, defaults={"text_size": "larger"})
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, base_url=live_server.url
        )
        log_in(context, reader, live_server.url)  # the log-in copies his size into the session
        context.add_init_script(script=script)
        context.set_default_timeout(15_000)
        try:
            page = context.new_page()
            watch_csp(page, violations)
            seen = set()
            queue = list(starts)
            while queue:
                address = queue.pop(0)
                if shape(address) in seen or any(d in address for d in DOWNLOADS):
                    continue
                seen.add(shape(address))
                response = page.goto(address)
                assert response is not None and response.status == 200, (username, address)
                if not response.headers.get("content-type", "").startswith("text/html"):
                    continue
                read += 1
                failures += [f"{username} {address}: {o}" for o in page.evaluate(PAGE_OVERFLOW)]
                failures += [f"{username} {address}: {v}" for v in page.evaluate(RUN_AXE, TAGS)]
                queue += links(page.content(), address)
        finally:
            context.close()
    assert read > 100
    assert failures == [], "\n".join(failures)
    assert violations == []
