"""The evening as the club lives it: the treasurer's way, the close in place, the club page,
the evening's ranking and the wall."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example

pytestmark = pytest.mark.django_db

SLUG = "screens"
E_HANDS = load_example("EVENING_E.evening.json")["hands"]


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def club():
    return factories.make_club(slug=SLUG)


@pytest.fixture
def people(club):
    """Anna (scorekeeper), Bo (member), Carl (treasurer), Dora (club admin)."""
    return {
        "Anna": factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True),
        "Bo": factories.make_member(club, "Bo", Member.Role.MEMBER, login=True),
        "Carl": factories.make_member(club, "Carl", Member.Role.TREASURER, login=True),
        "Dora": factories.make_member(club, "Dora", Member.Role.ADMIN, login=True),
    }


@pytest.fixture
def table(club, people):
    """An open evening with Evening E at one table of Anna, Bo and Carl."""
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(
        evening=evening, members=[people["Anna"], people["Bo"], people["Carl"]]
    )
    for hand in E_HANDS:
        services.hand_record(table=table, record=hand)
    return table


def as_(client, member):
    client.force_login(member.user)
    return client


# --- 1. the treasurer's way ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "treasury"), [("Bo", False), ("Anna", False), ("Carl", True), ("Dora", True)]
)
def test_evening_page_links_sheet_for_all_and_treasury_for_treasurers(
    client, people, table, who, treasury
):
    """Everyone of the club finds the evening sheet; treasurer and admin the treasurer's screen."""
    evening = table.evening
    page = as_(client, people[who]).get(url("evening", pk=evening.pk)).content.decode()
    sheet = url("evening_sheet", pk=evening.pk)
    treasurer = url("evening_treasury", pk=evening.pk)
    assert f'id="to-sheet" href="{sheet}"' in page
    assert 'class="nav-sheet"' in page
    assert (f'id="to-treasury" href="{treasurer}"' in page) is treasury
    assert ('class="nav-treasury"' in page) is treasury


def test_top_bar_leads_to_sheet_and_treasury_while_the_evening_is_open(client, people, table):
    """On the table page of an open evening the top bar has both; once closed, neither."""
    as_(client, people["Carl"])
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert f'href="{url("evening_sheet", pk=table.evening_id)}" class="nav-sheet"' in page
    assert f'href="{url("evening_treasury", pk=table.evening_id)}" class="nav-treasury"' in page
    services.evening_close(evening=table.evening)
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert "nav-sheet" not in page
    assert "nav-treasury" not in page


# --- 2. a refused close in place -----------------------------------------------------------


def test_a_refused_close_answers_in_place_at_the_close_section(client, people, table):
    """Unconfirmed differences: the refusal heads the close section, the page lands on #close
    and the confirmation box has the focus; nothing of it is at the top of the page."""
    from ledger.tests.test_treasury import EXPECTED, count_data

    evening = table.evening
    as_(client, people["Carl"])
    counts = count_data(table, {**EXPECTED, "Bo": 420})
    client.post(url("treasury_count", pk=evening.pk, table=table.pk), counts)
    page = client.get(url("evening_treasury", pk=evening.pk)).content.decode()
    assert f'action="{url("treasury_close", pk=evening.pk)}#close"' in page
    assert "data-focus-on-load" not in page
    assert "focus.js" not in page

    response = client.post(url("treasury_close", pk=evening.pk), {})
    assert response.status_code == 422
    page = response.content.decode()
    close = page.index('<section id="close"')
    refusal = page.index('id="close-refusal"')
    form = page.index('id="close-form"')
    assert close < refusal < form
    assert page.index('id="close-error"') > close
    assert 'id="treasury-errors"' not in page
    box = re.search(r'<input[^>]*name="confirm_differences"[^>]*>', page[form:]).group(0)
    assert "data-focus-on-load" in box
    assert 'src="/static/ledger/focus.js"' in page
    assert 'type="checkbox"' in box
    assert evening.is_open
