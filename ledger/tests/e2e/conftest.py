"""Browser tests of the scorekeeper's tablet: real Chromium through Playwright's sync API.

Chromium is Debian's (``/usr/bin/chromium``, or ``$CHROMIUM``). Without it the tests are
skipped with a message, except in CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "test-artifacts"
VIEWPORTS = {"landscape": (1280, 800), "portrait": (800, 1280)}
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def log_in(context, user, url: str, *, client=None) -> None:
    """Give a browser context ``user``'s session (a logged-in Django test client's cookie)."""
    if client is None:
        client = Client()
        client.force_login(user)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}]
    )


def watch_csp(page, violations: list[str]) -> None:
    """Collect the site's Content-Security-Policy violations on ``page`` (the test fails on
    any): every page runs under the policy, so a script or style it forbids shows here."""
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is required in CI (Debian package chromium)")
        pytest.skip("no Chromium found (install Debian's chromium, or set $CHROMIUM)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread; the ORM must still
    # work. Only while the browser is open: `check --deploy` in other tests refuses the flag.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(params=sorted(VIEWPORTS), ids=sorted(VIEWPORTS))
def viewport(request):
    """Each test runs on a 10-inch tablet held both ways: 1280x800 and 800x1280."""
    width, height = VIEWPORTS[request.param]
    return {"width": width, "height": height, "name": f"{width}x{height}"}


@pytest.fixture
def tablet(browser, live_server, viewport):
    """Return ``open(user) -> page``: a logged-in browser page at the tablet's size."""
    contexts = []

    def open_page(user):
        client = Client()
        client.force_login(user)
        context = browser.new_context(
            viewport={"width": viewport["width"], "height": viewport["height"]},
            has_touch=True,
            locale="da-DK",  # a Danish tablet: the pages come in Danish
            base_url=live_server.url,
        )
        log_in(context, user, live_server.url, client=client)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.viewport_name = viewport["name"]
        # Every page runs under the site's Content-Security-Policy: a violation is a failure.
        watch_csp(page, violations)
        return page

    violations: list[str] = []
    yield open_page
    for context in contexts:
        context.close()
    assert violations == [], "Content-Security-Policy violations in the browser"


def screenshot(page, name: str, *, full_page: bool = False) -> Path:
    """Save what the tablet shows under test-artifacts/ (git-ignored) and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}-{page.viewport_name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


class HandScreen:
    """Drive the hand form as a scorekeeper does, counting every tap."""

    def __init__(self, page):
        self.page = page
        self.taps = 0

    def tap(self, selector: str):
        self.taps += 1
        self.page.locator(selector).click()

    def winner(self, name: str):
        self.tap(f'label[data-winner="{name}"]')

    def card(self, name: str, card: str):
        self.tap(f'label[data-card="{name}:{card}"]')

    def count(self, name: str, points):
        self.tap(f'input[data-count="{name}"]')
        self.page.locator(f'input[data-count="{name}"]').fill(str(points))

    def dealer(self, name: str):
        self.tap("[data-toggle-seating]")
        self.tap(f'label[data-dealer="{name}"]')

    def meld(self, name: str, kind: str, *, count=None, suit=None, missing=None):
        self.tap(f'[data-add="meld"][data-player="{name}"]')
        self.tap(f'#chooser [data-meld-type="{kind}"]')
        if count is not None:
            low = {"tarok": 10, "matador": 3}[kind]
            for _ in range(count - low):
                self.tap('#chooser [data-step="1"]')
        if suit:
            self.tap(f'#chooser [data-suit="{suit}"]')
        if missing:
            self.tap(f'#chooser [data-missing="{missing}"]:visible')
        self.tap("#chooser [data-meld-add]")

    def event(self, name: str, kind: str):
        self.tap(f'[data-add="play"][data-player="{name}"]')
        self.tap(f'#chooser [data-event="{kind}"]')

    def end(self, name: str, kind: str):
        self.tap(f'[data-add="play"][data-player="{name}"]')
        self.tap(f'#chooser [data-end="{kind}"]')

    def fine(self, name: str, kind: str, *, waived=False):
        self.tap(f'[data-add="fine"][data-player="{name}"]')
        if waived:
            self.tap("#chooser [data-waived]")
        self.tap(f'#chooser [data-fine="{kind}"]')

    def net(self, name: str):
        return self.page.locator(f'#hand-feedback .net[data-net="{name}"]')

    def cup_after(self, cup: str):
        return self.page.locator(f'#hand-feedback [data-cup-after="{cup}"]')

    def save(self):
        self.tap("#save-hand")


def wait_until_kept(page) -> None:
    """The service worker controls the page and keeps this user's copy of it. Each poll is a
    function (compiled by Playwright's protocol call): a string expression would be eval'ed in
    the page, which the site's Content-Security-Policy forbids."""
    page.wait_for_function("() => navigator.serviceWorker && navigator.serviceWorker.controller")
    page.wait_for_function(
        "() => caches.open(TarokTablet.pagesCache)"
        ".then(c => c.match(location.pathname)).then(Boolean)"
    )


# Every shown button and label (and a label's text box) whose text is wider or taller than it.
OVERFLOWING = """() => [...document.querySelectorAll(
    'button, .button, label, label > span, input[type=submit]')]
  .filter((el) => el.offsetParent !== null && el.clientWidth > 0)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim()}" `
    + `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`)"""


# The elements of ``selector`` that are cut: wider than their box (what they hold clipped)
# or reaching past the screen's right edge; each as its text.
CUT_AT_THE_EDGE = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.scrollWidth > el.clientWidth + 1
    || el.getBoundingClientRect().right > innerWidth + 0.5)
  .map((el) => el.textContent.trim())"""


def overflowing(page) -> list[str]:
    """Return the shown buttons and labels of ``page`` whose label overflows its box."""
    return page.evaluate(OVERFLOWING)


def expect_language(page, language: str) -> None:
    """The page is written in ``language`` (its ``<html lang>``, set from the active one)."""
    expect(page.locator("html")).to_have_attribute("lang", language)


def expect_queued(page) -> None:
    """The save waits on the tablet: the save state says queued, not offline."""
    expect(page.locator("#save-state")).to_have_attribute("data-state", "queued")
    expect(page.locator('#save-state [data-when="queued"]')).to_be_visible()
    expect(page.locator('#save-state [data-when="offline"]')).to_be_hidden()


def reload_keeps_draft(page, token: str) -> None:
    """Reloaded without a network: the kept entry screen, with the draft, its token, queued."""
    page.reload()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#hand-form input[name=token]")).to_have_value(token)
    expect(page.locator("#save-state")).to_have_attribute("data-state", "queued")


@pytest.fixture
def pages(browser, live_server):
    """Return ``open(user, *, width=1280, height=800, locale="da-DK") -> page``: a logged-in
    page (``user`` None: a visitor's) of its own browser context (one per user: a director,
    a scorekeeper at each table), named for its size in screenshots. A
    Content-Security-Policy violation fails the test."""
    contexts = []
    violations: list[str] = []

    def open_page(user, *, width=1280, height=800, locale="da-DK"):
        context = browser.new_context(
            viewport={"width": width, "height": height},
            has_touch=True,
            locale=locale,
            base_url=live_server.url,
        )
        if user is not None:  # None: a visitor, nobody logged in
            log_in(context, user, live_server.url)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.viewport_name = f"{width}x{height}"
        watch_csp(page, violations)
        return page

    yield open_page
    for context in contexts:
        context.close()
    assert violations == [], "Content-Security-Policy violations in the browser"


def resize(page, width: int, height: int) -> None:
    """Show ``page`` at another size (a phone, 390x844); screenshots are named for it."""
    page.set_viewport_size({"width": width, "height": height})
    page.viewport_name = f"{width}x{height}"
