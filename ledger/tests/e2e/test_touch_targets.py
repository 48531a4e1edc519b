"""Every tap target is at least 44×44 px (issue 19, item 4), at 1280×800 and on a phone at
390×844: the top bar, the table, the three games' entry screens, the treasurer (an open and a
closed evening), the evening sheet, the standings and a member's season, and every set-up
screen. Every visible button, link, input, select, text area and summary is measured; a
checkbox or radio button counts with its label when it sits inside it (the label is the
target); one beside its label is measured alone. A smaller
one fails the test, named with its size.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from ledger import services
from ledger.models import Evening, Member, Table
from ledger.tests import factories
from ledger.tests.e2e.conftest import log_in, screenshot, watch_csp
from ledger.tests.helpers import build_season

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"1280x800": (1280, 800), "390x844": (390, 844)}
MIN = 44

# Return every visible tap target smaller than `min` px either way, described for a human.
SMALL_TARGETS = """(min) => {
  const visible = (el) => {
    if (!el.getClientRects().length) return false;
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
    }
    const r = el.getBoundingClientRect();
    return r.width > 1 || r.height > 1;  // not a visually hidden helper
  };
  const describe = (el, box) => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 50);
    const id = el.id ? '#' + el.id : '';
    const names = typeof el.className === 'string' ? el.className.trim() : '';
    const cls = names ? '.' + names.split(/\\s+/).join('.') : '';
    return el.tagName.toLowerCase() + id + cls + ' "' + text + '" ' +
      Math.round(box.width) + 'x' + Math.round(box.height);
  };
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const small = [];
  const done = new Set();
  let seen = 0;
  for (const el of document.querySelectorAll(selector)) {
    // A checkbox or radio button inside its label: the label is the target. One beside its
    // label is measured alone (a label above or below it leaves no tap-sized box).
    let parts = [el];
    let named = el;
    if (el.matches('input[type=checkbox], input[type=radio]')) {
      const label = el.closest('label');
      if (label) { parts = [label]; named = label; }
    }
    if (done.has(named)) continue;
    done.add(named);
    parts = parts.filter(visible);
    if (!parts.length) continue;
    seen += 1;
    const rects = parts.map((p) => p.getBoundingClientRect());
    const left = Math.min(...rects.map((r) => r.left));
    const right = Math.max(...rects.map((r) => r.right));
    const top = Math.min(...rects.map((r) => r.top));
    const bottom = Math.max(...rects.map((r) => r.bottom));
    const box = { width: right - left, height: bottom - top };
    if (box.width < min - 0.5 || box.height < min - 0.5) small.push(describe(named, box));
  }
  return { seen, small };
}"""


# Taps that open more of a screen before it is measured again.
OPEN = {
    "entry-danish": ["[data-toggle-seating]"],
    "entry-slovenian": ["[data-toggle-seating]", 'label[data-contract="two"]'],
    "entry-hungarian": ["[data-toggle-seating]", '[data-figure="trull"]'],
}


@pytest.fixture
def club_data():
    """A Danish club with a season of evenings (three closed, one open), its admin (also a
    superuser, for the new-club screen), a member without a log-in with a pending invitation,
    and a Slovenian and a Hungarian club with an open table each."""
    club = factories.make_club(slug="tk", name="Hjørring Tarokklub")
    season, evenings = build_season(club, hands=6)
    admin = Member.objects.get(club=club, name="Anna")
    user = factories.make_member(club, "Formand", Member.Role.ADMIN, login=True).user
    assert user is not None
    user.is_superuser = True
    user.is_staff = True
    user.save()
    admin.refresh_from_db()
    services.invitation_create(member=admin, by=user)
    open_evening = Evening.objects.get(
        club=club, status=Evening.Status.OPEN, date__gte=season.starts_on
    )
    table = Table.objects.filter(evening=open_evening).first()
    closed = evenings[0]
    other_tables = {}
    for slug, game in (("sl", "slovenian_tarok"), ("hu", "hungarian_tarokk")):
        other = factories.make_club(slug=slug, name=slug.upper(), game=game)
        keeper = factories.make_member(other, "Formand", Member.Role.ADMIN)
        keeper.user = user
        keeper.save()
        seated = [keeper] + [factories.make_member(other, n) for n in ("Bo", "Carl", "Dorte")]
        evening = services.evening_open(club=other, date=datetime.date(2026, 11, 5))
        other_tables[slug] = services.table_open(evening=evening, members=seated)
    return {
        "user": user,
        "club": club,
        "season": season,
        "open": open_evening,
        "closed": closed,
        "table": table,
        "member": admin,
        "other_tables": other_tables,
    }


def screens(data) -> list[tuple[str, str]]:
    c = data["club"].slug

    def u(name, **kwargs):
        return reverse(name, kwargs={"club": c, **kwargs})

    return [
        ("club", u("club")),
        ("evening", u("evening", pk=data["open"].pk)),
        ("table", u("table", pk=data["table"].pk)),
        ("entry-danish", u("hand_new", pk=data["table"].pk)),
        (
            "entry-slovenian",
            reverse("hand_new", kwargs={"club": "sl", "pk": data["other_tables"]["sl"].pk}),
        ),
        (
            "entry-hungarian",
            reverse("hand_new", kwargs={"club": "hu", "pk": data["other_tables"]["hu"].pk}),
        ),
        ("treasurer-open", u("evening_treasury", pk=data["open"].pk)),
        ("treasurer-closed", u("evening_treasury", pk=data["closed"].pk)),
        ("sheet-open", u("evening_sheet", pk=data["open"].pk)),
        ("sheet-closed", u("evening_sheet", pk=data["closed"].pk)),
        ("standings", u("standings")),
        ("member-season", u("member_season", pk=data["member"].pk)),
        ("setup-members", u("setup_members")),
        ("setup-rates", u("setup_rates")),
        ("setup-seasons", u("setup_seasons")),
        ("setup-season", u("setup_season_edit", pk=data["season"].pk)),
        ("setup-settings", u("setup_settings")),
        ("setup-people-log", u("setup_people_log")),
        ("setup-invitations", u("setup_invitations")),
        ("club-new", reverse("club_new")),
    ]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_tap_target_is_at_least_44_px(browser, live_server, club_data, size):
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        locale="da-DK",
        base_url=live_server.url,
    )
    log_in(context, club_data["user"], live_server.url)
    context.set_default_timeout(15_000)
    violations: list[str] = []
    failures: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        page.viewport_name = size
        watch_csp(page, violations)
        for name, path in screens(club_data):
            response = page.goto(path)
            assert response.status == 200, (name, path, response.status)
            page.wait_for_load_state("networkidle")
            result = page.evaluate(SMALL_TARGETS, MIN)
            assert result["seen"] > 3, f"{name}: nothing measured"
            small = list(result["small"])
            screenshot(page, f"touch-{name}", full_page=True)
            # What opens on the screen: every <details>, the entry screen's seating and
            # the game's first choices, a Hungarian figure's chooser.
            page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            for selector in OPEN.get(name, ()):
                page.locator(selector).first.click()
            small += [t for t in page.evaluate(SMALL_TARGETS, MIN)["small"] if t not in small]
            if small:
                failures[name] = small
            if name in OPEN:
                screenshot(page, f"touch-{name}-open", full_page=True)
        assert violations == []
    finally:
        context.close()
    assert failures == {}, "\n".join(
        f"{name}: {target}" for name, targets in failures.items() for target in targets
    )


def test_the_members_screen_invites_everyone_without_a_log_in_in_one_tap(
    browser, live_server, club_data
):
    """One tap on "Invite all who have no log-in" makes a link for every active member
    without one; the sheet lists them by name."""
    club = club_data["club"]
    without = sorted(
        Member.objects.filter(club=club, active=True, user__isnull=True).values_list(
            "name", flat=True
        ),
        key=str.casefold,
    )
    assert len(without) >= 3
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        locale="da-DK",
        base_url=live_server.url,
    )
    log_in(context, club_data["user"], live_server.url)
    context.set_default_timeout(15_000)
    try:
        page = context.new_page()
        page.viewport_name = "390x844"
        page.goto(reverse("setup_members", kwargs={"club": club.slug}))
        page.locator("#invite-all").click()
        page.wait_for_url("**/setup/invitations/")
        names = page.locator("#invite-cards [data-invitation]").evaluate_all(
            "cards => cards.map(c => c.dataset.invitation)"
        )
        assert names == without
        screenshot(page, "touch-invitations-all", full_page=True)
    finally:
        context.close()


# The settlement's box, its scroll box and the page, against the viewport's width.
SETTLEMENT_FITS = """() => {
  const table = document.querySelector('table#settlement');
  if (!table) return null;
  const box = table.closest('.table-scroll');
  return {
    right: table.getBoundingClientRect().right,
    scroll: box ? box.scrollWidth - box.clientWidth : 0,
    page: document.documentElement.scrollWidth,
    columns: table.querySelectorAll('thead th').length,
  };
}"""


def test_the_settlement_fits_a_phone(browser, live_server, club_data):
    """On a phone (390 px) the settlement table, the treasurer's and the sheet's, of every
    evening (the five-member one included) fits without sideways scrolling."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        locale="da-DK",
        base_url=live_server.url,
    )
    log_in(context, club_data["user"], live_server.url)
    context.set_default_timeout(15_000)
    club = club_data["club"]
    try:
        page = context.new_page()
        page.viewport_name = "390x844"
        for evening in Evening.objects.filter(club=club, tables__isnull=False).distinct():
            for view in ("evening_sheet", "evening_treasury"):
                page.goto(reverse(view, kwargs={"club": club.slug, "pk": evening.pk}))
                fit = page.evaluate(SETTLEMENT_FITS)
                if fit is None:
                    continue
                where = (view, str(evening.date), fit)
                assert fit["right"] <= 390.5, where
                assert fit["scroll"] <= 0, where
                assert fit["page"] <= 390, where
        page.goto(
            reverse("evening_sheet", kwargs={"club": club.slug, "pk": club_data["closed"].pk})
        )
        page.locator("table#settlement").scroll_into_view_if_needed()
        screenshot(page, "settlement-phone")
    finally:
        context.close()


def test_my_page_and_the_public_pages_have_44_px_links_on_a_phone(browser, live_server):
    """At 390x844 every link of a member's own page (Min side: tonight, his evenings, his last
    hands) and of the club's public pages (the club, its standings, a closed evening) is at
    least 44 px either way, as docs/scorekeeper.md promises; a smaller one fails, named with its
    size."""
    club = factories.make_club(slug="tk", name="Hjørring Tarokklub", publish_results=True)
    build_season(club, hands=6)
    member = Member.objects.get(club=club, name="Anna")
    member.user = get_user_model().objects.create_user("tk-anna", password=factories.PASSWORD)
    member.save()
    closed = Evening.objects.filter(club=club, status=Evening.Status.CLOSED).first()
    assert closed is not None
    mine = [("my-page", reverse("my_page", kwargs={"club": club.slug}))]
    public = [
        ("public-club", reverse("public_club", kwargs={"club": club.slug})),
        ("public-standings", reverse("public_standings", kwargs={"club": club.slug})),
        ("public-evening", reverse("public_evening", kwargs={"club": club.slug, "pk": closed.pk})),
    ]
    failures: dict[str, list[str]] = {}
    violations: list[str] = []
    for user, pages in ((member.user, mine), (None, public)):
        context = browser.new_context(
            viewport={"width": 390, "height": 844},
            has_touch=True,
            locale="da-DK",
            base_url=live_server.url,
        )
        if user is not None:
            log_in(context, user, live_server.url)
        context.set_default_timeout(15_000)
        try:
            page = context.new_page()
            page.viewport_name = "390x844"
            watch_csp(page, violations)
            for name, path in pages:
                response = page.goto(path)
                assert response.status == 200, (name, path, response.status)
                result = page.evaluate(SMALL_TARGETS, MIN)
                assert result["seen"] > 3, f"{name}: nothing measured"
                screenshot(page, f"touch-{name}", full_page=True)
                if result["small"]:
                    failures[name] = result["small"]
        finally:
            context.close()
    assert violations == []
    assert failures == {}, "\n".join(
        f"{name}: {target}" for name, targets in failures.items() for target in targets
    )
