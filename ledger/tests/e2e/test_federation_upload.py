"""An officer uploads a results file from another installation in real Chromium (issue 30,
part 5): the file (``tests/federation/results_tzs.json``, made by ``results_document`` from a
final tournament on another installation, given a new id and its players' names turned round
so that another player wins) goes through the upload page into the federation's series with
a factor; the series' ladder, read by a member club's member, moves; the upload, the events,
the event and the tokens pages have no axe-core violation."""

from __future__ import annotations

import datetime
import json
import uuid

import pytest
from django.urls import reverse

from ledger.models import ImportedEvent, SeriesEvent
from ledger.services import federation as fed
from ledger.services.federation import tokens
from ledger.services.federation.results import results_import
from ledger.tests.e2e.conftest import log_in, screenshot, watch_csp
from ledger.tests.e2e.test_accessibility import RUN_AXE, TAGS, axe_source
from ledger.tests.factories import make_member
from ledger.tests.federation.helpers import example
from ledger.tests.helpers import federation_world, results_file_doc

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def second_file() -> dict:
    """Another tournament of the same installation: a new id, the names turned round by 3."""
    document = results_file_doc()
    document["id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, "tarokclub-e2e-second"))
    document["name"] = "DP Bled"
    document["dates"] = ["2026-11-28"]
    names = [p["name"] for p in document["players"]]
    for i, player in enumerate(document["players"]):
        player["name"] = names[(i + 3) % len(names)]
    return document


def ladder_rows(page) -> list[str]:
    return [
        " ".join(row.inner_text().split()) for row in page.locator("table.ladder tbody tr").all()
    ]


def test_an_uploaded_file_joins_the_series_and_moves_the_ladder(browser, live_server, tmp_path):
    world = federation_world()
    federation, club = world["federation"], world["club"]
    series = fed.series_create(
        name="Liga 2026",
        seed="liga",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        rule=example("01_dp_ladder_best_of")["rule"],
        federation=federation,
    )
    first = results_import(document=results_file_doc(), federation=federation).event
    fed.series_event_add(series=series, imported=first)
    tokens.upload_token_create(federation=federation, label="Tarok Kranj")
    reader = make_member(club, "Bralec", login=True).user
    path = tmp_path / "results-bled.json"
    path.write_text(json.dumps(second_file(), ensure_ascii=False), encoding="utf-8")

    script = axe_source()
    found: list[str] = []
    csp: list[str] = []

    def context_of(user, width=1280, height=800):
        context = browser.new_context(
            viewport={"width": width, "height": height}, base_url=live_server.url
        )
        context.add_init_script(script=script)
        log_in(context, user, live_server.url)
        context.set_default_timeout(15_000)
        page = context.new_page()
        watch_csp(page, csp)
        page.viewport_name = f"{width}x{height}"
        return context, page

    def axe(page, name):
        found.extend(f"{name}: {v}" for v in page.evaluate(RUN_AXE, TAGS))

    ladder_url = reverse("series_ladder", kwargs={"club": club.slug, "pk": series.pk})
    member_context, member_page = context_of(reader)
    officer_context, page = context_of(world["officer"], 390, 844)
    try:
        member_page.goto(ladder_url)
        before = ladder_rows(member_page)
        assert before, "the ladder has the first event's players"

        page.goto(reverse("federation_home", kwargs={"federation": federation.slug}))
        upload = reverse("federation_import_upload", kwargs={"federation": "tzs"})
        page.click(f"a[href='{upload}']")
        page.wait_for_url(f"**{upload}")  # axe on the page the click opens, not mid-navigation
        axe(page, "upload")
        page.set_input_files("#id_file", str(path))
        page.select_option("#id_series", label=series.name)
        page.fill("#id_factor", "3/2")
        page.click("#upload-form button[type=submit]")
        outcome = page.locator("#import-outcome")
        outcome.wait_for()
        assert "DP Bled" in outcome.inner_text()
        assert series.name in outcome.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        axe(page, "upload outcome")
        screenshot(page, "federation-upload")

        event = ImportedEvent.objects.get(name="DP Bled")
        assert SeriesEvent.objects.get(series=series, imported=event).factor == "3/2"
        for name, kwargs in (
            ("federation_imports", {}),
            ("federation_import", {"pk": event.pk}),
            ("federation_tokens", {}),
        ):
            response = page.goto(reverse(name, kwargs={"federation": "tzs", **kwargs}))
            assert response.status == 200, name
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, name
            axe(page, name)

        member_page.goto(ladder_url)
        after = ladder_rows(member_page)
        assert after != before, "the ladder moved"
        assert len(after) == len(before)
    finally:
        member_context.close()
        officer_context.close()
    assert csp == []
    assert found == [], "\n".join(found)
