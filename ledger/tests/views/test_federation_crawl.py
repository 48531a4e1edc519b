"""A crawl of every officer page of the federation (``FEDERATION_MATRIX``) in each of the four
languages, as the federation's officer with his own language on his profile: no word of
another language's list, no raw ``snake_case`` key, no negative number with the ASCII hyphen
(the checks of ``test_language_crawl``)."""

import pytest
from django.urls import reverse

from ledger.models import Profile
from ledger.services import federation as services
from ledger.services.federation import tokens
from ledger.tables.federation import log_details
from ledger.tests.helpers import (
    FEDERATION_MATRIX,
    client_for,
    federation_kwargs,
    federation_world,
    imported_results,
)
from ledger.tests.views.test_language_crawl import (
    ASCII_MINUS,
    LANGUAGES,
    shown_attributes,
    snake_keys,
    visible_text,
    wrong_words,
)

pytestmark = pytest.mark.django_db

# The officer's pages that are not HTML (a results file's JSON download).
NOT_HTML = {"federation_import_file"}
PAGES = sorted(
    n for n, methods in FEDERATION_MATRIX.items() if "GET" in methods and n not in NOT_HTML
)


def test_the_crawl_sees_every_officer_page():
    assert len(PAGES) == 18 and "federation_series_change" in PAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_officer_page_reads_in_one_language(language):
    world = federation_world(series=True)
    Profile.objects.update_or_create(user=world["officer"], defaults={"language": language})
    tokens.upload_token_create(federation=world["federation"], label="Tarok Kranj")
    changed_series(world)
    client = client_for(world["officer"])
    problems = []
    for name in PAGES:
        url = reverse(name, kwargs=federation_kwargs(name, world))
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        assert response["Content-Language"] == language, url
        assert response["Content-Type"].startswith("text/html"), url
        content = response.content.decode()
        text = visible_text(content)
        shown = f"{text} {shown_attributes(content)}"
        found = wrong_words(shown, language) + snake_keys(shown)
        found += [f"ASCII minus: {m}" for m in ASCII_MINUS.findall(text)]
        problems += [f"{url}: {word}" for word in found]
    assert problems == [], "\n".join(problems)


def changed_series(world):
    """The world's series changed (its dates and rule, its event's factor) and an imported
    event added and removed: the log shows each change in words."""
    series, officer = world["series"], world["officer"]
    services.series_change(
        series=series,
        name=series.name,
        seed=series.seed,
        starts_on=series.starts_on,
        ends_on=series.ends_on.replace(day=29),
        rule={**series.rule, "best_of": 1},
        by=officer,
    )
    services.series_event_factor_set(event=series.events.get(), factor="2", by=officer)
    imported = imported_results(world["federation"])
    extra = services.series_event_add(series=series, imported=imported, by=officer)
    services.series_event_remove(event=extra, by=officer)


def test_a_tokens_prefix_is_code_not_a_number():
    """A token's first letters may read "-0…": the log shows them as code, which the crawl
    leaves out, so a random token never reads as a negative number with the ASCII hyphen."""
    shown = str(log_details("token_create", {"label": "Tarok Kranj", "prefix": "-0aB"}))
    assert shown == "Tarok Kranj (<code>-0aB</code>…)"
    assert ASCII_MINUS.findall(visible_text(f"<td>{shown}</td>")) == []
    assert ASCII_MINUS.findall(visible_text("<td>Tarok Kranj (-0aB…)</td>")) == ["-0"]
