"""The house rules read in the reader's language (issue 20, part 4): every setting of every
game has a label and a one-line explanation translated in Danish, Slovenian and Hungarian
(a game's own term, a plain string, stays the game's), the game's default beside it, and no
raw key (``card_points_par``, ``harom``) or English fallback is ever shown, on the set-up
screen, in the admin and in the form itself under each catalogue."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import trans_real

from ledger.forms.ratecard import RateCardForm
from ledger.games.registry import GAMES, get_web
from ledger.models import Club, Member
from ledger.tests import factories

pytestmark = pytest.mark.django_db

# The three games (the test-only game's words are plain English on purpose).
CODES = [code for code in GAMES if type(get_web(code)).__module__.startswith("ledger.games.")]
LANGUAGES = ("da", "sl", "hu")
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
DEFAULT = {"en": "Default:", "da": "Standard:", "sl": "Privzeto:", "hu": "Alapérték:"}


def visible(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", htmllib.unescape(text))


def words_of(web) -> list:
    """Every label, explanation, choice and group title of a game's house rules."""
    words = []
    for label, explanation in web.rate_card_labels.values():
        words += [label, explanation]
    for choices in web.rate_card_choices.values():
        words += [text for _value, text in choices]
    words += [title for title, _keys in web.rate_card_groups]
    return words


def test_the_three_games_are_checked():
    assert set(CODES) == {"danish_tarok", "slovenian_tarok", "hungarian_tarokk"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("code", CODES)
def test_every_house_rule_word_is_in_the_catalogue(code, language):
    """Every translated word of the house rules has its own entry in the language's
    catalogue (no Danish or English fallback); a plain string is one of the game's terms
    and reads the same everywhere."""
    # The catalogue and a lazy string's msgid are Django internals (``_catalog``, ``_args``)
    # that django-stubs does not declare.
    catalogue = trans_real.translation(language)._catalog  # type: ignore[attr-defined]
    missing = [
        str(word._args[0])  # type: ignore[attr-defined]
        for word in words_of(get_web(code))
        if isinstance(word, Promise) and word._args[0] not in catalogue  # type: ignore[attr-defined]
    ]
    assert missing == []


@pytest.mark.parametrize("language", ("en", *LANGUAGES))
@pytest.mark.parametrize("code", CODES)
def test_the_form_reads_in_each_language_without_a_raw_key(code, language):
    """The house-rules form under each catalogue: each field has a label that is not its
    key, an explanation and the default in the reader's words; no snake_case in sight."""
    web = get_web(code)
    with translation.override(language):
        form = RateCardForm(game=code)
        text = visible(form.as_div())
        for name, field in form.fields.items():
            label, help_text = str(field.label), str(field.help_text)
            assert label and label != name and not SNAKE.search(label), (name, label)
            assert DEFAULT[language] in help_text, (name, help_text)
            path = name.replace("__", ".")
            explanation = web.rate_card_labels[path][1]
            assert str(explanation) in help_text, (name, help_text)
        titles = [str(title) for title, _names in form.groups]
    assert not SNAKE.findall(text), SNAKE.findall(text)
    assert all(titles)
    if language != "en":
        with translation.override("en"):
            english = visible(RateCardForm(game=code).as_div())
        assert text != english


def set_up_screen(client, code: str, language: str) -> str:
    club = factories.make_club(slug=f"r{code[:2]}", game=code)
    admin = factories.make_member(club, "Anna", Member.Role.ADMIN, login=True)
    assert admin.user is not None
    assert client.login(username=admin.user.username, password=factories.PASSWORD)
    client.cookies["django_language"] = language
    response = client.get(reverse("setup_rates", kwargs={"club": club.slug}))
    assert response.status_code == 200
    return visible(response.content.decode())


@pytest.mark.parametrize("language", ("da", "en"))
@pytest.mark.parametrize("code", CODES)
def test_the_set_up_screen_shows_every_rule_in_words(client, code, language):
    """The club admin's house-rules screen: every field labelled, explained, its default
    beside it, no raw key, no cup in a game without cups."""
    text = set_up_screen(client, code, language)
    assert not SNAKE.findall(text), SNAKE.findall(text)
    with translation.override(language):
        fields = RateCardForm(game=code).fields.values()
        for field in fields:
            assert str(field.label) in text
            assert str(field.help_text) in text
    assert text.count(DEFAULT[language]) >= len(fields)
    if code != "danish_tarok":
        assert not re.search(r"\bkop|\bcups?\b|Møller", text, re.I)


@pytest.mark.parametrize("language", ("da", "en"))
@pytest.mark.parametrize("code", CODES)
def test_the_admin_club_page_shows_every_rule_in_words(client, code, language):
    """The admin's club page has the same fields, labels and defaults, no raw key."""
    club = Club.objects.create(slug=f"a{code[:2]}", name="Klub", game=code)
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-12345678")
    client.force_login(user)
    client.cookies["django_language"] = language
    response = client.get(reverse("admin:ledger_club_change", args=[club.pk]))
    assert response.status_code == 200
    form_html = response.content.decode()
    form_html = form_html[form_html.index("<form") : form_html.rindex("</form>")]
    text = visible(form_html)
    with translation.override(language):
        for field in RateCardForm(game=code).fields.values():
            assert str(field.label) in text, field.label
            assert str(field.help_text) in text, field.help_text
    raw = [w for w in SNAKE.findall(text) if w not in ("ledger_club",)]
    assert raw == []


@pytest.mark.parametrize("language", ("da", "en"))
def test_the_create_club_page_names_no_games_source(client, language):
    """Creating a club offers each game's own defaults: no Danish rules' source (Møller)
    beside a Slovenian or Hungarian club, no raw key."""
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-12345678")
    client.force_login(user)
    client.cookies["django_language"] = language
    response = client.get(reverse("club_new"))
    assert response.status_code == 200
    text = visible(response.content.decode())
    assert "Møller" not in text and not re.search(r"\bkop|\bcups?\b", text, re.I)
    assert not SNAKE.findall(text), SNAKE.findall(text)
    with translation.override(language):
        for code in CODES:
            assert str(get_web(code).title) in text
