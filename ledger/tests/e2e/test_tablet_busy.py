"""The tablet's save meets a table another connection has locked (PostgreSQL's row locks): the
form says it is waiting for another save, and sends the same hand again by itself after
Retry-After; once the lock is let go the hand is saved, once."""

from __future__ import annotations

import pytest
from django.db import connection
from playwright.sync_api import expect

from ledger.models import Hand
from ledger.tests.e2e.conftest import screenshot
from ledger.tests.e2e.test_tablet import expect_saved, make_table, open_new_hand
from ledger.tests.helpers import HeldLock

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    # Before the browser starts: row locks are PostgreSQL's.
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL's row locks"),
]


def test_a_busy_table_is_saved_by_itself_after_retry_after(tablet, viewport, settings):
    """Saving while another connection holds the table's row lock: the save bar shows "busy"
    and nothing is written; after the lock is let go the script's own retry saves the hand
    (one hand, the same token) and the table screen follows."""
    settings.TAROK_LOCK_TIMEOUT = 0.3
    settings.TAROK_BUSY_RETRY_AFTER = 1
    table, members = make_table()
    page = tablet(members["Anna"].user)
    hand = open_new_hand(page, table)
    hand.winner("Carl")
    hand.count("Anna", 20)
    hand.count("Carl", 35)
    with HeldLock(table.pk):
        hand.save()
        expect(page.locator("#save-state")).to_have_attribute("data-state", "busy")
        expect(page.locator('#save-state [data-when="busy"]')).to_be_visible()
        screenshot(page, "hand-busy")
        assert not Hand.objects.filter(table=table).exists()
    expect_saved(page, table)
    assert Hand.objects.filter(table=table).count() == 1
