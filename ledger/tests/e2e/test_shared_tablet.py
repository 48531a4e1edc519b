"""The shared tablet in real Chromium (issue 22, item 4): one browser profile, two users.

The scorekeepers pass the club's tablet from hand to hand. Nothing of one user is ever shown
to the next or sent under his name: the log-out clears the kept pages and the drafts, the kept
pages are per user, and a hand one user saved on the tablet is sent only by him, after he
confirms it.
"""

from __future__ import annotations

import datetime
import time

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.urls import reverse
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand, HandRevision, Member
from ledger.tests import factories
from ledger.tests.e2e.conftest import screenshot, wait_until_kept, watch_csp
from ledger.tests.e2e.test_tablet import DanishScreen
from ledger.web.sessions import SEEN_COOKIE, SEEN_KEY
from ledger.web.tablet import user_key

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "tk"

DRAFTS = """() => Object.keys(localStorage)
  .filter(k => k.startsWith('tarokclub:hand-draft:'))
  .map(k => JSON.parse(localStorage.getItem(k)))"""
PAGE_CACHES = "caches.keys().then(keys => keys.filter(k => k.startsWith('tarokclub-pages-')))"


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def make_table():
    """Anna and Bo both keep score; the three of them with Carl at one table."""
    club = factories.make_club(slug=SLUG, name="Hjørring Tarokklub")
    members = {
        name: factories.make_member(club, name, role, login=True)
        for name, role in (
            ("Anna", Member.Role.SCOREKEEPER),
            ("Bo", Member.Role.SCOREKEEPER),
            ("Carl", Member.Role.MEMBER),
        )
    }
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=list(members.values()))
    return table, members


@pytest.fixture
def profile(browser, live_server):
    """One browser profile, the club's tablet: every user logs in through the log-in form."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        has_touch=True,
        locale="da-DK",
        base_url=live_server.url,
    )
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.viewport_name = "1280x800"
    violations: list[str] = []
    watch_csp(page, violations)
    yield page
    context.close()
    assert violations == []


def log_in(page, member):
    page.goto(reverse("login"))
    page.locator("#id_username").fill(member.user.username)
    page.locator("#id_password").fill(factories.PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"**{url('club')}")
    expect(page.locator("meta[name=tarokclub-user]")).to_have_attribute(
        "content", user_key(member.user)
    )


def open_entry(page, table):
    page.goto(url("hand_new", pk=table.pk))
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
    return DanishScreen(page)


def entry_is_not_served_offline(page, table) -> None:
    """Without a network the tablet shows no entry screen: no user's copy is kept for him."""
    page.context.set_offline(True)
    try:
        page.goto(url("hand_new", pk=table.pk))
    except PlaywrightError:
        pass  # the worker has no copy for this user: the browser's own error
    expect(page.locator("#hand-form")).to_have_count(0)
    page.context.set_offline(False)


def test_a_hand_saved_offline_is_held_for_its_author_across_a_log_out(profile, live_server):
    """Anna, offline, saves a hand on the tablet and logs out; Bo logs in on the same tablet
    and sees no page and no draft of hers, and her hand is never sent under his name; when
    Anna logs in again she is asked to confirm it, and it is saved once, by her."""
    table, members = make_table()
    anna, bo = members["Anna"], members["Bo"]
    page = profile
    sent: list[str] = []
    page.on(
        "request",
        lambda r: sent.append(r.url) if r.method == "POST" and "/hand/new/" in r.url else None,
    )

    log_in(page, anna)
    hand = open_entry(page, table)
    wait_until_kept(page)
    token = page.locator("#hand-form input[name=token]").input_value()
    hand.winner("Carl")
    hand.count("Anna", 20)
    page.context.set_offline(True)
    hand.count("Carl", 35)
    hand.save()
    expect(page.locator("#save-state")).to_have_attribute("data-state", "queued")

    # Anna logs out without a network: nothing of hers stays on screen, her kept pages are
    # gone, and her hand is held for her.
    page.locator("#logout-button").click()
    notice = page.locator("#logged-out-offline")
    expect(notice).to_be_visible()
    expect(notice.locator("[data-if-held]")).to_be_visible()
    expect(page.locator("#hand-form")).to_be_hidden()
    expect(page.locator(".topbar")).to_be_hidden()
    screenshot(page, "shared-logged-out-offline")
    assert page.evaluate(PAGE_CACHES) == []
    (draft,) = page.evaluate(DRAFTS)
    assert draft["author"] == user_key(anna.user)
    assert draft["held"] is True and draft["pending"] is True
    assert draft["token"] == token

    # The network comes back: the log-out is sent (her session ends), and nothing else.
    page.context.set_offline(False)
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator("main a[href$='/login/']")).to_be_visible()
    assert Hand.objects.count() == 0

    # Bo logs in on the same tablet: no page of Anna's without a network ...
    log_in(page, bo)
    entry_is_not_served_offline(page, table)
    # ... and with it a clean form: Anna's draft is neither shown nor sent.
    open_entry(page, table)
    page.wait_for_load_state("networkidle")
    expect(page.locator("#save-state")).not_to_have_attribute("data-state", "held")
    expect(page.locator("[data-draft-held]")).to_be_hidden()
    expect(page.locator('label[data-winner="Carl"] input')).not_to_be_checked()
    assert page.locator("#hand-form input[name=token]").input_value() != token
    screenshot(page, "shared-next-user")
    assert sent == []
    assert Hand.objects.count() == 0
    assert [d["author"] for d in page.evaluate(DRAFTS)] == [user_key(anna.user)]
    # Logging out now would throw Anna's hand away: Bo is warned, and staying changes nothing.
    dialogs: list[str] = []

    def dismissed(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismissed)
    page.locator("#logout-button").click()
    assert len(dialogs) == 1 and dialogs[0]
    expect(page.locator("meta[name=tarokclub-user]")).to_have_attribute(
        "content", user_key(bo.user)
    )
    assert [d["author"] for d in page.evaluate(DRAFTS)] == [user_key(anna.user)]

    # Anna logs in again: her hand is back in the form, and waits for her confirmation.
    log_in(page, anna)
    open_entry(page, table)
    expect(page.locator("#save-state")).to_have_attribute("data-state", "held")
    expect(page.locator("#confirm-draft")).to_be_visible()
    expect(page.locator("#hand-form input[name=token]")).to_have_value(token)
    expect(page.locator('input[data-count="Carl"]')).to_have_value("35")
    expect(page.locator('label[data-winner="Carl"] input')).to_be_checked()
    page.wait_for_load_state("networkidle")
    screenshot(page, "shared-author-confirms")
    assert sent == []
    assert Hand.objects.count() == 0

    page.locator("#confirm-draft").click()
    page.wait_for_url(f"**{url('table', pk=table.pk)}")
    expect(page.locator("#table-live")).to_be_visible()
    saved = Hand.objects.get()
    assert saved.token == token
    assert saved.record["count"] == {"Anna": 20, "Carl": 35}
    assert HandRevision.objects.get(hand=saved).by == anna.user
    assert len(sent) == 1
    open_entry(page, table)
    page.wait_for_load_state("networkidle")
    assert page.evaluate(DRAFTS) == []
    assert Hand.objects.count() == 1


def test_log_out_with_the_network_clears_the_tablet(profile, live_server):
    """A log-out clears the kept pages and every draft (the script, and Clear-Site-Data); the
    next user finds nothing of the last one without a network either."""
    table, members = make_table()
    page = profile
    log_in(page, members["Anna"])
    hand = open_entry(page, table)
    wait_until_kept(page)
    hand.winner("Carl")
    hand.count("Anna", 20)
    page.wait_for_function(
        "() => Object.keys(localStorage).some(k => k.startsWith('tarokclub:hand-draft:'))"
    )
    with page.expect_response(lambda r: r.url.endswith("/logout/")) as answer:
        page.locator("#logout-button").click()
    assert answer.value.all_headers()["clear-site-data"] == '"cache", "storage"'
    page.wait_for_url(f"{live_server.url}/")
    assert page.evaluate(DRAFTS) == []
    assert page.evaluate(PAGE_CACHES) == []

    log_in(page, members["Bo"])
    entry_is_not_served_offline(page, table)
    open_entry(page, table)
    expect(page.locator('label[data-winner="Carl"] input')).not_to_be_checked()
    assert Hand.objects.count() == 0


def test_kept_pages_are_per_user_when_the_next_logs_in_over_the_last(profile, live_server):
    """Bo logs in without Anna having logged out: her kept entry screen is dropped as soon as a
    page of his is shown, and never served to him without a network."""
    table, members = make_table()
    page = profile
    log_in(page, members["Anna"])
    open_entry(page, table)
    wait_until_kept(page)
    anna_cache = page.evaluate("TarokTablet.pagesCache")
    assert anna_cache.endswith(user_key(members["Anna"].user))

    log_in(page, members["Bo"])
    page.wait_for_function(
        "name => caches.keys().then(keys => !keys.includes(name))", arg=anna_cache
    )
    entry_is_not_served_offline(page, table)
    # His own copy, kept when he opens the screen, is the one he gets without a network.
    open_entry(page, table)
    wait_until_kept(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("meta[name=tarokclub-user]")).to_have_attribute(
        "content", user_key(members["Bo"].user)
    )
    page.context.set_offline(False)


def test_back_online_the_log_out_is_the_first_request_of_the_page(profile, live_server):
    """Anna logs out without a network on the table screen, which polls every 5 s: while the
    log-out waits the page asks the server for nothing, and when the network is back the
    log-out is the first request it makes."""
    table, members = make_table()
    page = profile
    log_in(page, members["Anna"])
    page.goto(url("table", pk=table.pk))
    expect(page.locator("#table-live")).to_be_visible()
    page.context.set_offline(True)
    page.locator("#logout-button").click()
    expect(page.locator("#logged-out-offline")).to_be_visible()
    asked: list[str] = []
    page.on(
        "request",
        lambda r: asked.append(f"{r.method} {r.url}") if "/static/" not in r.url else None,
    )
    page.context.set_offline(False)
    page.wait_for_url(f"{live_server.url}/")
    assert asked[0] == f"POST {live_server.url}/logout/"
    assert not any("/table/" in a for a in asked)


def session_alive(key: str) -> bool:
    return Session.objects.filter(session_key=key).exists()


def test_a_log_out_without_a_network_ends_the_session_though_its_tab_was_closed(
    profile, live_server
):
    """The probe of issue 29: Anna logs out while the network is down and closes the tab
    before it is back; the next person opens the browser and goes straight for her table's
    state.json and the standings CSV. The first request ends her session before anything is
    served; Bo then logs in and reaches nothing of hers. Then Bo leaves the tablet: a log-in
    unused for the club's idle time ends, and the next page says why."""
    table, members = make_table()
    anna, bo = members["Anna"], members["Bo"]
    page = profile
    context = page.context
    log_in(page, anna)
    page.goto(url("table", pk=table.pk))
    expect(page.locator("#table-live")).to_be_visible()
    (cookie,) = [c for c in context.cookies() if c["name"] == "sessionid"]
    anna_session = cookie["value"]

    context.set_offline(True)
    page.locator("#logout-button").click()
    expect(page.locator("#logged-out-offline")).to_be_visible()
    marks = [c for c in context.cookies() if c["name"] == "tarokclub_logout"]
    assert [c["value"] for c in marks] == [page.evaluate("TarokTablet.session")]
    screenshot(page, "shared-logged-out-offline-table")
    page.close()  # the tab is closed before the network is back: the log-out was never posted
    assert session_alive(anna_session)

    context.set_offline(False)
    nxt = context.new_page()
    nxt.viewport_name = "1280x800"
    # The next person types Anna's table's state.json: refused, and her session is gone.
    state = nxt.goto(url("table_state", pk=table.pk))
    assert state.status == 401
    assert state.json()["error"] == "logged_out"
    assert not session_alive(anna_session)
    assert [c for c in context.cookies() if c["name"] == "tarokclub_logout"] == []
    # The standings CSV, and her old session's cookie itself, reach the log-in only.
    csv = nxt.request.get(url("standings") + "?_export=csv", max_redirects=0)
    assert csv.status == 302 and "/login/" in csv.headers["location"]
    stolen = nxt.request.get(
        url("table_state", pk=table.pk),
        headers={"Cookie": f"sessionid={anna_session}"},
        max_redirects=0,
    )
    assert stolen.status == 302 and "/login/" in stolen.headers["location"]

    # Bo logs in: the tablet is his, nothing of Anna's is there.
    log_in(nxt, bo)
    nxt.goto(url("table", pk=table.pk))
    expect(nxt.locator("#logout-button")).to_contain_text(bo.user.username)
    assert anna.user.username not in nxt.content()
    assert nxt.evaluate("localStorage.getItem('tarokclub:logout-pending')") is None
    assert nxt.evaluate(DRAFTS) == []
    assert all(user_key(anna.user) not in name for name in nxt.evaluate(PAGE_CACHES))
    screenshot(nxt, "shared-next-user-after-offline-log-out")

    # Bo leaves the tablet unused for the club's idle time (his session is moved back, not
    # waited for): his next page is the log-in, saying why, and his session is gone.
    (cookie,) = [c for c in context.cookies() if c["name"] == "sessionid"]
    bo_session = SessionStore(session_key=cookie["value"])
    bo_session[SEEN_KEY] = int(time.time()) - 241 * 60
    bo_session.save()
    context.clear_cookies(name=SEEN_COOKIE)
    nxt.goto(url("standings"))
    nxt.wait_for_url("**/login/**")
    expect(nxt.locator(".messages")).to_contain_text("240")
    expect(nxt.locator("#logout-button")).to_have_count(0)
    assert not session_alive(cookie["value"])
    screenshot(nxt, "shared-idle-log-in")
