r"""The manual's screenshots (docs/img/), taken from the demo clubs in real Chromium.

A tool for the manual, run when its screens change: with ``DOCS_SCREENSHOTS=1`` the PNGs are
written into ``docs/img/`` (commit them), with ``DOCS_SCREENSHOTS=check`` into
``test-artifacts/docs/`` (each screen renders: its status, the part the manual describes, no
Content-Security-Policy violation, a PNG of 1280x800). Without either it is skipped: it loads
the three demos and their federation (two minutes of a test process), and every page it shoots
is checked in every language by ``test_accessibility.py`` (axe-core, CSP) and the demos by
``ledger/tests/management/test_seed_demo*.py``. Each PNG is reduced to a palette of 256
colours (Pillow), so the committed files stay small.

    DOCS_SCREENSHOTS=1 DATABASE_URL=postgres://... \
        pytest -m e2e ledger/tests/e2e/test_docs_screenshots.py
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import BrowserContext, expect

from ledger.models import Evening, Round, Table, Tournament
from ledger.services import tournaments as tour
from ledger.tests.e2e.conftest import ARTIFACTS, ROOT, log_in, watch_csp
from ledger.tests.helpers import random_hand_at, seed

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.environ.get("DOCS_SCREENSHOTS") not in ("1", "check"),
        reason="the manual's screenshots: DOCS_SCREENSHOTS=1 (write) or check",
    ),
]

SIZE = {"width": 1280, "height": 800}


def target_dir() -> Path:
    """docs/img/ when the manual's screenshots are asked for, else test-artifacts/docs/."""
    if os.environ.get("DOCS_SCREENSHOTS") == "1":
        return ROOT / "docs" / "img"
    return ARTIFACTS / "docs"


def shoot(page, name: str) -> Path:
    """Save what the page shows at 1280x800 as ``name``.png, reduced to 256 colours."""
    from PIL import Image

    folder = target_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path))
    with Image.open(path) as shot:
        small = shot.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)
    with Image.open(path) as saved:
        assert saved.size == (SIZE["width"], SIZE["height"])
    return path


@pytest.fixture
def screens(browser, live_server):
    """Return ``open(username, language) -> page``: a logged-in page at 1280x800."""
    contexts: list[BrowserContext] = []
    violations: list[str] = []

    def open_page(username: str, language: str):
        context = browser.new_context(
            viewport=SIZE, has_touch=True, locale=language, base_url=live_server.url
        )
        log_in(context, get_user_model().objects.get(username=username), live_server.url)
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        watch_csp(page, violations)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert violations == [], "Content-Security-Policy violations in the browser"


def test_the_manuals_screens(screens, live_server):
    """The demo clubs loaded, each reader's screen as the manual shows it: the Danish,
    Slovenian and Hungarian hand entries with their previews, the treasurer's screen (its
    jetons, then its close) and the wall of the open evening, the members screen of the
    set-up, and the Slovenian demo tournament's round 3 started with a few hands played (its
    round page and the hall's wall)."""
    seed(url=live_server.url)
    evening = Evening.objects.get(club__slug="demo", status=Evening.Status.OPEN)
    table = Table.objects.filter(evening=evening, status=Table.Status.OPEN).order_by("number")[0]

    # The scorekeeper: a plain hand tapped in, the preview telling who pays whom.
    page = screens("skriver", "da-DK")
    response = page.goto(reverse("hand_new", kwargs={"club": "demo", "pk": table.pk}))
    assert response.status == 200
    page.locator("label[data-winner]:visible").first.click()
    counts = page.locator("input[data-count]:visible")
    for index, points in zip(range(counts.count()), (20, 35), strict=False):
        counts.nth(index).fill(str(points))
    expect(page.locator("#hand-feedback .net").first).to_be_visible()
    shoot(page, "scorekeeper-hand-entry")

    # The Slovenian and Hungarian tablets: a partner game of four taps and one number.
    for slug, username, language, contract in (
        ("demo-sl", "sl-zapisnikar", "sl-SI", 'label[data-contract="three"]'),
        ("demo-hu", "hu-jegyzo", "hu-HU", 'label[data-bid="harom"]'),
    ):
        open_table = Table.objects.filter(
            evening__club__slug=slug,
            evening__status=Evening.Status.OPEN,
            status=Table.Status.OPEN,
        ).order_by("evening__date", "number")[0]
        page = screens(username, language)
        response = page.goto(reverse("hand_new", kwargs={"club": slug, "pk": open_table.pk}))
        assert response.status == 200
        page.locator(contract).click()
        page.locator("label[data-declarer]:visible").first.click()
        partners = page.locator("label[data-partner]:visible")
        if partners.count():
            partners.first.click()
        page.locator("input[data-points]").fill("40")
        expect(page.locator("#hand-feedback .net").first).to_be_visible()
        page.evaluate("() => window.scrollTo(0, 0)")
        shoot(page, f"scorekeeper-{slug}-hand-entry")

    # The treasurer: the open evening's jetons, adjustments and close.
    page = screens("kasserer", "da-DK")
    response = page.goto(reverse("evening_treasury", kwargs={"club": "demo", "pk": evening.pk}))
    assert response.status == 200
    expect(page.locator("#close-form")).to_be_visible()
    shoot(page, "treasurer-jetons")
    page.locator("#close").evaluate("(el) => el.scrollIntoView({block: 'end'})")
    shoot(page, "treasurer-close")
    response = page.goto(reverse("evening_wall", kwargs={"club": "demo", "pk": evening.pk}))
    assert response.status == 200
    shoot(page, "evening-wall")

    # The club admin: the members screen.
    page = screens("formand", "da-DK")
    response = page.goto(reverse("setup_members", kwargs={"club": "demo"}))
    assert response.status == 200
    shoot(page, "club-admin-members")

    # The director: round 3 of the demo tournament started, two hands at each table.
    tournament = Tournament.objects.get(club__slug="demo-sl")
    round_ = Round.objects.get(tournament=tournament, number=3)
    director = get_user_model().objects.get(username="sl-predsednik")
    tour.round_start(round_=round_, by=director)
    rng = random.Random(29)  # a demo's hands
    for round_table in round_.round_tables.select_related("table").order_by("number"):
        assert round_table.table is not None
        for _hand in range(2):
            random_hand_at(round_table.table, rng)
    page = screens("sl-predsednik", "sl-SI")
    response = page.goto(reverse("tournament_round", kwargs={"club": "demo-sl", "pk": round_.pk}))
    assert response.status == 200
    expect(page.locator("main")).to_be_visible()
    shoot(page, "director-round")
    response = page.goto(
        reverse("tournament_wall", kwargs={"club": "demo-sl", "pk": tournament.pk})
    )
    assert response.status == 200
    expect(page.locator("#wall-clock")).to_be_visible()
    shoot(page, "director-wall")
