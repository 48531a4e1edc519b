"""Money and numbers follow the language and the club's currency: 1.234,50 € in Slovenian,
1 235 Ft in Hungarian (no decimals), 1.234,50 DKK in Danish; a true minus; red when negative;
prices as money; CSV exports keep a plain '-' for spreadsheets."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from ledger.games.money import MINUS
from ledger.tables.columns import (
    activate_currency,
    deactivate_currency,
    figure_html,
    money_html,
    money_text,
    price_text,
)

NBSP = "\xa0"


@pytest.mark.parametrize(
    ("language", "currency", "amount", "text"),
    [
        ("sl", "EUR", "1234.50", f"1.234,50{NBSP}€"),
        ("hu", "HUF", "1234.50", f"1{NBSP}235{NBSP}Ft"),  # no decimals, rounded half up
        ("da", "DKK", "1234.50", f"1.234,50{NBSP}DKK"),
        ("en", "EUR", "1234.50", f"1,234.50{NBSP}€"),
        ("sl", "EUR", "-86.25", f"{MINUS}86,25{NBSP}€"),
        ("hu", "HUF", "-1234.49", f"{MINUS}1{NBSP}234{NBSP}Ft"),
        ("da", "DKK", "-0.004", f"0,00{NBSP}DKK"),  # no minus before a zero
    ],
)
def test_money_is_written_in_the_language_and_the_currency(language, currency, amount, text):
    with translation.override(language):
        assert money_text(Decimal(amount), currency, symbol=True) == text


def test_money_without_a_currency_takes_the_active_clubs():
    with translation.override("hu"):
        assert money_text(Decimal("-1234.5")) == f"{MINUS}1{NBSP}234,50"  # no club: two decimals
    token = activate_currency("HUF")
    try:
        with translation.override("hu"):
            assert money_text(Decimal("1234.5")) == f"1{NBSP}235"
            assert money_text(Decimal("1234.5"), symbol=True) == f"1{NBSP}235{NBSP}Ft"
    finally:
        deactivate_currency(token)
    with translation.override("da"):
        assert money_text(Decimal("1234.5")) == "1.234,50"


def test_negative_money_and_figures_are_red_with_a_true_minus():
    with translation.override("sl"):
        html = money_html(Decimal("-5.5"), "EUR")
    assert html == f'<span class="money neg" data-money="-5.5">{MINUS}5,50{NBSP}€</span>'
    assert figure_html(-550) == f'<span class="neg" data-points="-550">{MINUS}550</span>'
    assert figure_html(40) == '<span class="pos" data-points="40">40</span>'


@pytest.mark.parametrize(
    ("language", "currency", "price", "text"),
    [
        ("da", "DKK", "0.2500", f"0,25{NBSP}DKK"),
        ("sl", "EUR", "0.1250", f"0,125{NBSP}€"),
        ("hu", "HUF", "10.0000", f"10{NBSP}Ft"),
        ("hu", "HUF", "2.5000", f"2,5{NBSP}Ft"),
    ],
)
def test_a_price_is_written_as_money(language, currency, price, text):
    with translation.override(language):
        assert price_text(Decimal(price), currency, symbol=True) == text


def test_the_template_filters():
    template = Template(
        "{% load ledger_tags %}{{ a|money }}|{{ a|money:'EUR' }}|{{ a|money_signed:'EUR' }}|"
        "{{ p|figure }}|{{ 'HUF'|currency_sign }}|{{ a|sign }}"
    )
    with translation.override("sl"):
        text = template.render(Context({"a": Decimal("-1234.5"), "p": -3}))
    assert text.split("|") == [
        f"{MINUS}1.234,50",
        f"{MINUS}1.234,50{NBSP}€",
        f'<span class="money neg" data-money="-1234.5">{MINUS}1.234,50{NBSP}€</span>',
        f'<span class="neg" data-points="-3">{MINUS}3</span>',
        "Ft",
        "neg",
    ]
