"""The federation's results-file pages read in each of the four languages (issue 30, part 5):
the officer's own language on his profile, every GET page of the imports and tokens (with an
imported event, a token and a series), and the checks of ``test_language_crawl``: no word of
another language's list, no raw ``snake_case`` key, no negative number with an ASCII hyphen."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.models import Profile
from ledger.services.federation import tokens
from ledger.tests.helpers import (
    FEDERATION_MATRIX,
    client_for,
    federation_kwargs,
    federation_world,
)
from ledger.tests.views.test_language_crawl import (
    ASCII_MINUS,
    shown_attributes,
    snake_keys,
    visible_text,
    wrong_words,
)

pytestmark = pytest.mark.django_db

# The pages' own words, in each language (the imports' crumb or title, the tokens' title).
OWN = {
    "da": ("Importerede turneringer", "Upload-nøgler"),
    "sl": ("Uvoženi dogodki", "Žetoni za nalaganje"),
    "hu": ("Importált események", "Feltöltési tokenek"),
    "en": ("Imported events", "Upload tokens"),
}
PAGES = ("federation_imports", "federation_import_upload", "federation_import", "federation_tokens")


def test_the_crawl_covers_every_html_page_of_the_imports():
    html = {n for n in FEDERATION_MATRIX if n.startswith(("federation_import", "federation_token"))}
    assert html - {"federation_import_file"} == set(PAGES)


@pytest.mark.parametrize("language", ["da", "sl", "hu", "en"])
def test_the_import_pages_read_in_the_officers_language(language):
    world = federation_world()
    Profile.objects.update_or_create(user=world["officer"], defaults={"language": language})
    tokens.upload_token_create(federation=world["federation"], label="Tarok Kranj")
    client = client_for(world["officer"])
    for name in PAGES:
        answer = client.get(reverse(name, kwargs=federation_kwargs(name, world)))
        assert answer.status_code == 200, name
        assert answer["Content-Language"] == language, name
        content = answer.content.decode()
        text = visible_text(content) + " " + shown_attributes(content)
        assert wrong_words(text, language) == [], (name, language)
        assert snake_keys(text) == [], (name, language)
        assert ASCII_MINUS.findall(text) == [], (name, language)
        imports, tokens_title = OWN[language]
        assert (tokens_title if name == "federation_tokens" else imports) in text, name
