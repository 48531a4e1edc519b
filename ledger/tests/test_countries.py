"""A new country's currency and time zone: one list each (``ledger.games.money.CURRENCIES``,
``ledger.games.zones.TIME_ZONES``), offered to a club through callables, so adding one needs
no migration."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.utils import translation

from ledger.games.money import CURRENCIES, Currency
from ledger.games.zones import TIME_ZONES
from ledger.models import Club, currency_choices, time_zone_choices

pytestmark = pytest.mark.django_db


def test_the_choices_are_the_lists_translated():
    """A club's currency and time zone offer exactly the lists, named in the active language."""
    assert [code for code, _name in currency_choices()] == list(CURRENCIES)
    assert [zone for zone, _name in time_zone_choices()] == list(TIME_ZONES)
    with translation.override("sl"):
        names = {code: str(name) for code, name in currency_choices()}
        zones = {zone: str(name) for zone, name in time_zone_choices()}
    assert names["EUR"] == "evro (€)" and zones["Europe/Ljubljana"].startswith("Ljubljana")


def test_a_new_countrys_currency_and_time_zone_need_no_migration(monkeypatch):
    """Adding the Swiss franc and Vienna's zone to the lists: a club may
    choose them, and ``makemigrations --check`` finds nothing to write."""
    monkeypatch.setitem(CURRENCIES, "CHF", Currency(2, "CHF", "Swiss franc (CHF)"))
    monkeypatch.setitem(TIME_ZONES, "Europe/Vienna", "Vienna (Central European Time)")
    Club._meta.get_field("currency").validate("CHF", None)
    Club._meta.get_field("time_zone").validate("Europe/Vienna", None)
    out = io.StringIO()
    call_command("makemigrations", "ledger", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
