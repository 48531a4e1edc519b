"""The treasurer's screens: counting jetons, adjustments, closing and reopening; permissions.

Everything goes through the real views and services on a real database: Evening E (one table,
Anna, Bo and Carl) is played, then the treasurer counts, adjusts and closes it.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Evening, EveningLog, EveningResult, Member, Posting, Transfer
from ledger.selectors.verify import verify_ledger
from ledger.tests import factories
from ledger.tests.helpers import EXPECTED, count_data, found


@pytest.fixture
def club():
    return factories.make_club()


@pytest.fixture
def evening(club):
    factories.make_season(club)
    evening, _table, _hands = factories.evening_e(club)
    return evening


@pytest.fixture
def table(evening):
    return evening.tables.get()


pytestmark = pytest.mark.django_db


def login(client, club, name, role):
    factories.make_member(club, name, role, login=True)
    assert client.login(username=f"{club.slug}-{name}".lower(), password=factories.PASSWORD)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def treasurer(client, club):
    return login(client, club, "Tove", "treasurer")


def url(name, evening, **kwargs):
    return reverse(name, kwargs={"club": evening.club.slug, "pk": evening.pk, **kwargs})


def adjust_data(table, **fields) -> dict[str, str]:
    return {f"a{table.pk}-{key}": str(value) for key, value in fields.items()}


def test_treasury_screen_shows_expected_jetons(treasurer, evening):
    """Before any count the screen lists each account's expected jetons: 520, 425, 415, 65, 75."""
    response = treasurer.get(url("evening_treasury", evening))
    assert response.status_code == 200
    html = response.content.decode()
    for name, expected in EXPECTED.items():
        assert f'data-account="{name}"' in html
        assert f'<td class="num">{expected}</td>' in html


def test_every_count_input_is_labelled_with_its_account(treasurer, evening):
    """Each jeton count input has an accessible name naming its account ("New count for
    Anna"), as the column's header alone does not say whose count it is."""
    html = treasurer.get(url("evening_treasury", evening)).content.decode()
    inputs = re.findall(r"<input[^>]*count-input[^>]*>", html)
    assert len(inputs) == len(EXPECTED)
    labels = sorted(found(r'aria-label="([^"]+)"', i).group(1) for i in inputs if "aria" in i)
    assert labels == sorted(f"New count for {name}" for name in EXPECTED)


def test_an_exact_count_closes_cleanly(treasurer, evening, table):
    """Counted equal to expected: no difference, the evening closes without confirmation."""
    response = treasurer.post(
        url("treasury_count", evening, table=table.pk), count_data(table, EXPECTED)
    )
    assert response.status_code == 302
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    assert "The count agrees with the ledger." in page
    assert 'data-difference="-' not in page
    response = treasurer.post(url("treasury_close", evening), {})
    assert response.status_code == 302
    evening.refresh_from_db()
    assert not evening.is_open
    results = {r.member.name: (r.points, r.money) for r in EveningResult.objects.all()}
    assert results == {
        "Anna": (65, Decimal("16.25")),
        "Bo": (-30, Decimal("-7.50")),
        "Carl": (-35, Decimal("-8.75")),
    }
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    for money in ('data-money="16.25"', 'data-money="-7.50"', 'data-money="-8.75"'):
        assert money in page
    assert 'data-points="65"' in page and 'data-points="-30"' in page
    assert verify_ledger().ok


def test_every_count_as_expected_is_one_tap(treasurer, evening, table):
    """A treasurer whose count matches the ledger confirms the table with one tap: every
    account is recorded at its expected jetons (520, 425, 415, 65, 75), and it closes."""
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    version = found(r'name="version" value="(\d+)"', page).group(1)
    assert "data-as-expected" in page
    response = treasurer.post(
        url("treasury_count", evening, table=table.pk), {"as_expected": "1", "version": version}
    )
    assert response.status_code == 302
    (jetons,) = selectors.evening_jetons(evening=evening)
    assert {line.name: line.counted for line in jetons.lines} == EXPECTED
    assert not jetons.stale and not jetons.differences
    assert treasurer.post(url("treasury_close", evening), {}).status_code == 302
    evening.refresh_from_db()
    assert not evening.is_open
    assert verify_ledger().ok


def test_the_one_tap_is_refused_after_the_table_changed(treasurer, evening, table):
    """The expected figures the treasurer saw are confirmed only while the table is at that
    version: after an adjustment meanwhile (or without a version) nothing is recorded."""
    from ledger.models import JetonCount

    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    version = found(r'name="version" value="(\d+)"', page).group(1)
    services.adjustment_post(table=table, source="Bo", target="Anna", points=5, reason="misdeal")
    tap = url("treasury_count", evening, table=table.pk)
    response = treasurer.post(tap, {"as_expected": "1", "version": version})
    assert response.status_code == 422
    assert "The table changed since the screen was shown" in response.content.decode()
    assert treasurer.post(tap, {"as_expected": "1"}).status_code == 422
    assert not JetonCount.objects.exists()


def test_a_count_five_short_shows_the_member_and_the_difference(treasurer, evening, table):
    """Bo counted 420 of 425: the screen names Bo with -5, in total -5."""
    treasurer.post(
        url("treasury_count", evening, table=table.pk), count_data(table, {**EXPECTED, "Bo": 420})
    )
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    assert '<strong data-member="Bo" data-difference="-5">Bo \u22125</strong>' in page
    assert 'data-total-difference="-5"' in page
    assert '<tr data-account="Bo" data-difference="-5" class="differs' in page
    assert 'name="confirm_differences"' in page


def test_closing_with_differences_needs_confirmation(treasurer, evening, table):
    """Unconfirmed differences refuse the close with a form error; confirmed, it closes and logs."""
    treasurer.post(
        url("treasury_count", evening, table=table.pk), count_data(table, {**EXPECTED, "Bo": 420})
    )
    response = treasurer.post(url("treasury_close", evening), {})
    assert response.status_code == 422
    page = response.content.decode()
    assert 'id="close-error"' in page
    assert "The counted jetons differ from the ledger; confirm the differences to close" in page
    assert 'type="checkbox" name="confirm_differences"' in page
    assert Evening.objects.get(pk=evening.pk).is_open
    assert not EveningResult.objects.exists()

    response = treasurer.post(url("treasury_close", evening), {"confirm_differences": "on"})
    assert response.status_code == 302
    assert not Evening.objects.get(pk=evening.pk).is_open
    close = EveningLog.objects.get(evening=evening, action="close")
    assert close.details == [{"table": 1, "account": "Bo", "difference": -5}]
    assert close.by is not None
    assert close.by.username == "test-tove"


def test_an_adjustment_keeps_the_ledger_zero_sum(treasurer, evening, table):
    """Bo 5 short and Carl 5 over: an adjustment Bo -> Carl 5 explains both, zero-sum, verified."""
    counts = {**EXPECTED, "Bo": 420, "Carl": 420}
    treasurer.post(url("treasury_count", evening, table=table.pk), count_data(table, counts))
    assert services.jeton_differences(table) == {"Bo": -5, "Carl": 5}
    response = treasurer.post(
        url("treasury_adjust", evening, table=table.pk),
        adjust_data(table, source="Bo", target="Carl", points=5, reason="pagat home not booked"),
    )
    assert response.status_code == 302
    adjustment = Posting.objects.get(kind="adjustment")
    assert adjustment.note == "pagat home not booked"
    assert adjustment.created_by is not None
    assert adjustment.created_by.username == "test-tove"
    assert [(t.source.name, t.target.name, t.points) for t in adjustment.transfers.all()] == [
        ("Bo", "Carl", 5)
    ]
    balances = selectors.table_balances(table.pk)
    assert balances == {"Anna": 20, "Bo": -80, "Carl": -80, "kongekop": 65, "pagatkop": 75}
    assert sum(balances.values()) == 0
    assert services.jeton_differences(table) == {}
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    assert "The count agrees with the ledger." in page
    assert treasurer.post(url("treasury_close", evening), {}).status_code == 302
    # Bo and Carl tie at -80 before the split: the 5 over goes to the first in seat order.
    assert {r.member.name: r.points for r in EveningResult.objects.all()} == {
        "Anna": 65,
        "Bo": -30,
        "Carl": -35,
    }
    assert verify_ledger().ok


def test_a_refused_adjustment_is_a_form_error_and_writes_nothing(treasurer, evening, table):
    """An adjustment to the same account or without a reason is refused; no posting appears."""
    before = Transfer.objects.count()
    response = treasurer.post(
        url("treasury_adjust", evening, table=table.pk),
        adjust_data(table, source="Bo", target="Bo", points=5, reason="oops"),
    )
    assert response.status_code == 422
    assert "An adjustment moves points between two different accounts" in response.content.decode()
    response = treasurer.post(
        url("treasury_adjust", evening, table=table.pk),
        adjust_data(table, source="Bo", target="Carl", points=5, reason=""),
    )
    assert response.status_code == 422
    assert Transfer.objects.count() == before


def test_a_refused_count_is_a_form_error(treasurer, evening, table):
    """A negative count and an empty form are refused next to the form; nothing is recorded."""
    response = treasurer.post(
        url("treasury_count", evening, table=table.pk), count_data(table, {"Bo": -5})
    )
    assert response.status_code == 422
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    response = treasurer.post(url("treasury_count", evening, table=table.pk), {})
    assert response.status_code == 422
    assert "Enter at least one count." in response.content.decode()
    assert not table.jeton_counts.exists()


def test_reopen_needs_a_reason_and_is_logged(treasurer, evening):
    """Reopening a closed evening without a reason is refused; with one it reverses the split."""
    services.evening_close(evening=evening)
    response = treasurer.post(url("treasury_reopen", evening), {"reason": ""})
    assert response.status_code == 422
    assert not Evening.objects.get(pk=evening.pk).is_open
    response = treasurer.post(url("treasury_reopen", evening), {"reason": "a fine was forgotten"})
    assert response.status_code == 302
    assert Evening.objects.get(pk=evening.pk).is_open
    log = EveningLog.objects.get(evening=evening, action="reopen")
    assert log.by is not None
    assert (log.reason, log.by.username) == ("a fine was forgotten", "test-tove")
    assert selectors.pool_balances(evening.tables.get().pk) == {"kongekop": 65, "pagatkop": 75}
    page = treasurer.get(url("evening_sheet", evening)).content.decode()
    assert "a fine was forgotten" in page
    assert verify_ledger().ok


def test_closing_twice_is_refused(treasurer, evening):
    """A second close of a closed evening is a form error, not a crash."""
    services.evening_close(evening=evening)
    response = treasurer.post(url("treasury_close", evening), {})
    assert response.status_code == 422
    assert "The evening is closed; a treasurer must reopen it first" in response.content.decode()


# --- permissions ---------------------------------------------------------------------------


def _read_urls(evening, member):
    club = evening.club.slug
    return [
        reverse("standings", kwargs={"club": club}),
        reverse("standings_pdf", kwargs={"club": club}),
        reverse("member_season", kwargs={"club": club, "pk": member.pk}),
        reverse("member_season_pdf", kwargs={"club": club, "pk": member.pk}),
        url("evening_sheet", evening),
        url("evening_sheet_pdf", evening),
    ]


def _write_urls(evening, table):
    return [
        url("treasury_count", evening, table=table.pk),
        url("treasury_adjust", evening, table=table.pk),
        url("treasury_close", evening),
        url("treasury_reopen", evening),
    ]


@pytest.mark.parametrize("role", ["member", "scorekeeper"])
def test_members_read_but_do_not_treasure(client, club, evening, table, role):
    """Members and scorekeepers read standings, member pages, sheets and PDFs; they may not
    open the treasurer's screen nor count, adjust, close or reopen."""
    login(client, club, "Mia", role)
    anna = Member.objects.get(club=club, name="Anna")
    for read in _read_urls(evening, anna):
        assert client.get(read).status_code == 200, read
    assert client.get(url("evening_treasury", evening)).status_code == 403
    for write in _write_urls(evening, table):
        assert client.post(write, {"confirm_differences": "on", "reason": "x"}).status_code == 403
    assert Evening.objects.get(pk=evening.pk).is_open
    assert not table.jeton_counts.exists()


def test_a_member_of_another_club_gets_404(client, club, evening, table):
    """A treasurer of another club sees none of this club's pages, reads or writes."""
    other = factories.make_club(slug="other", name="Other")
    login(client, other, "Otto", "treasurer")
    anna = Member.objects.get(club=club, name="Anna")
    for page in [*_read_urls(evening, anna), url("evening_treasury", evening)]:
        assert client.get(page).status_code == 404, page
    for write in _write_urls(evening, table):
        assert client.post(write, {"confirm_differences": "on"}).status_code == 404
    assert Evening.objects.get(pk=evening.pk).is_open


def test_another_clubs_objects_are_404_inside_ones_own_club(client, club, evening, table):
    """A treasurer cannot reach another club's evening or member through his own club's URLs."""
    other = factories.make_club(slug="other", name="Other")
    foreign_evening, foreign_table, _ = factories.evening_e(other, date=datetime.date(2026, 12, 3))
    foreign_member = Member.objects.get(club=other, name="Anna")
    login(client, club, "Tove", "treasurer")
    mine = club.slug
    assert client.get(f"/c/{mine}/evening/{foreign_evening.pk}/sheet/").status_code == 404
    assert client.get(f"/c/{mine}/evening/{foreign_evening.pk}/treasury/").status_code == 404
    assert client.get(f"/c/{mine}/members/{foreign_member.pk}/season/").status_code == 404
    response = client.post(
        f"/c/{mine}/evening/{evening.pk}/treasury/table/{foreign_table.pk}/count/",
        {f"t{foreign_table.pk}-count_1": "5"},
    )
    assert response.status_code == 404
    assert client.post(f"/c/{mine}/evening/{foreign_evening.pk}/treasury/close/").status_code == 404
    assert Evening.objects.get(pk=foreign_evening.pk).is_open


def test_anonymous_is_sent_to_log_in(client, evening):
    """Without a log-in every page redirects to the login page."""
    response = client.get(reverse("standings", kwargs={"club": evening.club.slug}))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


# --- stale counts (issue 19) -----------------------------------------------------------------


def count_time(table) -> str:
    """Return the time of the table's latest count as the refusal says it (HH:MM, local)."""
    from django.utils import timezone

    from ledger.models import JetonCount

    latest = JetonCount.objects.filter(table=table).latest("counted_at").counted_at
    return timezone.localtime(latest).strftime("%H:%M")


def test_a_stale_count_marks_its_rows_and_the_refused_close_says_what_changed(
    treasurer, evening, table
):
    """A count made before a hand was saved marks every counted row (a mark and words), and a
    close is refused naming the table, the hand saved since and the time of the count."""
    treasurer.post(url("treasury_count", evening, table=table.pk), count_data(table, EXPECTED))
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    assert "data-stale-mark" not in page
    record = factories.load_example("X1.hand.json")
    record = {k: v for k, v in record.items() if k not in ("seats", "cups_before")}
    services.hand_record(table=table, record=record)
    page = treasurer.get(url("evening_treasury", evening)).content.decode()
    rows = re.findall(
        r"<tr data-account=\"([^\"]+)\"[^>]*data-stale=\"1\"[^>]*>(.*?)</tr>", page, re.S
    )
    assert sorted(name for name, _row in rows) == sorted(EXPECTED)
    for _name, row in rows:
        assert '<span class="stale-mark" data-stale-mark>⚠ counted before the latest change' in row
    changes = f"Table 1: hand 4 saved after the count at {count_time(table)}."
    assert f"<span data-stale-changes>{changes}</span>" in page
    response = treasurer.post(url("treasury_close", evening), {})
    assert response.status_code == 422
    refusal = response.content.decode()
    assert f"Table 1: hand 4 saved after the count at {count_time(table)}" in refusal
    assert Evening.objects.get(pk=evening.pk).is_open


def test_the_refusal_names_every_change_since_the_count(club, evening, table):
    """A correction, a void and a late arrival after the count are each named, in order."""
    services.jetons_count(table=table, counts=services.jeton_expected(table))
    hands = list(table.hands.order_by("number"))
    services.hand_correct(hand=hands[2], record=hands[2].record, reason="checked again")
    services.hand_void(hand=hands[1], reason="misdeal")
    services.table_seat(table=table, member=factories.make_member(club, "Dorte"))
    with pytest.raises(services.JetonDifferenceError) as refused:
        services.evening_close(evening=evening)
    assert str(refused.value.message).endswith(
        "Table 1: hand 3 corrected, hand 2 voided, Dorte seated after the count at "
        + count_time(table)
    )
    assert "table 1 were counted before its latest change" in str(refused.value.message)


def test_a_member_seated_before_the_count_is_not_named_when_a_correction_reposts_him(
    club, evening, table
):
    """Dorte sits down late, then the treasurer counts; a correction of hand 1 after
    the count re-posts her funding with a new time, but she was seated before the count: the
    refusal names only the correction."""
    hands = list(table.hands.order_by("number"))
    services.table_seat(table=table, member=factories.make_member(club, "Dorte"))
    services.jetons_count(table=table, counts=services.jeton_expected(table))
    services.hand_correct(hand=hands[0], record=hands[0].record, reason="checked again")
    with pytest.raises(services.JetonDifferenceError) as refused:
        services.evening_close(evening=evening)
    assert str(refused.value.message).endswith(
        "Table 1: hand 1 corrected after the count at " + count_time(table)
    )


BODY = "ledger/treasury/_member_season_body.html"


def member_page(client, member):
    """Return the member's season page and whether its content was rendered (not kept)."""
    response = client.get(
        reverse("member_season", kwargs={"club": member.club.slug, "pk": member.pk})
    )
    assert response.status_code == 200
    rendered = BODY in [t.name for t in response.templates]
    page = response.content.decode()
    return page[page.index('<div class="page-head">') : page.index("</main>")], rendered


def test_a_members_season_is_kept_until_the_season_changes(client, club, table):
    """A member's season page is kept by the season's seals and what it names: read again it
    renders nothing and is the same; a hand saved at the season's table, a rename and another
    reader each render it again, with what changed."""
    login(client, club, "Mia", "member")
    anna = Member.objects.get(club=club, name="Anna")
    first, rendered = member_page(client, anna)
    assert rendered and "Anna" in first
    again, rendered = member_page(client, anna)
    assert not rendered and again == first
    factories.random_table_hands(table, 1, seed=7)
    after_hand, rendered = member_page(client, anna)
    assert rendered and after_hand != first
    assert after_hand.count('data-posting="') == first.count('data-posting="') + 1
    anna.name = "Anne"
    anna.save(update_fields=["name"])
    renamed, rendered = member_page(client, anna)
    assert rendered and "<h1>Anne " in renamed and "<h1>Anna " in first
    login(client, club, "Tove", "treasurer")
    _page, rendered = member_page(client, anna)
    assert rendered  # another reader, another role: his own page
