"""PDFs rendered at the close, off the request (``ledger.web.kept_pdfs``, issue 31).

The renders run ``inline`` here (``settings.TAROK_KEPT_RENDER``), after the commit, so the
tests are deterministic; they are counted by ``reports.RENDERED``. After a close the first
download of each PDF read after it is served from the store (no render), a reopen changes
the keys, a render that fails midway keeps nothing, and with ``off`` (the suite's default)
a close renders nothing.
"""

from __future__ import annotations

import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from ledger import reports, services
from ledger.models import Member
from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.helpers import client_for, random_hand_at
from ledger.web import kept, kept_pdfs

pytestmark = pytest.mark.django_db


def renders() -> int:
    return reports.RENDERED["pdfs"]


@pytest.fixture
def inline(settings):
    settings.TAROK_KEPT_RENDER = "inline"


@pytest.fixture
def club():
    club = factories.make_club()
    factories.make_season(club)
    return club


@pytest.fixture
def treasurer(club):
    return client_for(factories.make_member(club, "Tove", Member.Role.TREASURER, login=True).user)


def url(name, club, **kwargs):
    return reverse(name, kwargs={"club": club.slug, **kwargs})


def evening_pdfs(club, evening) -> list[str]:
    table = evening.tables.get()
    anna = Member.objects.get(club=club, name="Anna")
    return [
        url("evening_sheet_pdf", club, pk=evening.pk),
        url("evening_sheet_pdf", club, pk=evening.pk) + "?transfers=1",
        url("table_sheet_pdf", club, pk=evening.pk, table=table.pk),
        url("standings_pdf", club),
        url("member_season_pdf", club, pk=anna.pk),
    ]


def close(client, club, evening, capture):
    with capture(execute=True):
        response = client.post(
            url("treasury_close", club, pk=evening.pk), {"confirm_differences": "on"}
        )
    assert response.status_code == 302, response.content.decode()[:400]


def test_after_a_close_the_first_download_of_each_pdf_is_kept(
    inline, club, treasurer, django_capture_on_commit_callbacks
):
    evening, _, _ = factories.evening_e(club)
    before = renders()
    close(treasurer, club, evening, django_capture_on_commit_callbacks)
    # Two sheets, the table's, the standings and the three seated members' seasons.
    assert renders() == before + 7
    closed = renders()
    for address in evening_pdfs(club, evening):
        response = treasurer.get(address)
        assert response.status_code == 200 and response.content.startswith(b"%PDF"), address
    assert renders() == closed, "a PDF read after the close was rendered again"


def test_a_reopen_changes_the_keys_and_the_next_close_keeps_them_again(
    inline, club, treasurer, django_capture_on_commit_callbacks
):
    evening, _, _ = factories.evening_e(club)
    close(treasurer, club, evening, django_capture_on_commit_callbacks)
    season = evening.season
    anna = Member.objects.get(club=club, name="Anna")
    closed_keys = (
        kept.member_season_key(season, club, anna),
        kept.closed_evening_key(evening, "sheet", False),
    )
    services.evening_reopen(evening=evening, reason="a hand was missing")
    assert kept.closed_evening_key(evening, "sheet", False) is None  # open: never kept
    assert kept.member_season_key(season, club, anna) != closed_keys[0]
    before = renders()
    treasurer.get(url("member_season_pdf", club, pk=anna.pk))
    assert renders() == before + 1  # the reopened season's is rendered by its reader
    close(treasurer, club, evening, django_capture_on_commit_callbacks)
    assert kept.closed_evening_key(evening, "sheet", False) not in (None, closed_keys[1])
    rendered = renders()
    for address in evening_pdfs(club, evening):
        assert treasurer.get(address).status_code == 200
    assert renders() == rendered


def test_a_renamed_member_has_his_season_rendered_again(inline, club, treasurer):
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    anna = Member.objects.get(club=club, name="Anna")
    address = url("member_season_pdf", club, pk=anna.pk)
    treasurer.get(address)
    before = renders()
    treasurer.get(address)
    assert renders() == before
    Member.objects.filter(pk=anna.pk).update(name="Annabel")
    treasurer.get(address)
    assert renders() == before + 1


def test_with_the_suites_default_a_close_renders_nothing(
    club, treasurer, django_capture_on_commit_callbacks
):
    evening, _, _ = factories.evening_e(club)
    before = renders()
    close(treasurer, club, evening, django_capture_on_commit_callbacks)
    assert renders() == before


def test_the_render_kept_command_keeps_an_evenings_pdfs(club, treasurer):
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    before = renders()
    call_command("render_kept", "evening", str(evening.pk), "--language=da", "--nice=0")
    assert renders() == before + 7
    call_command("render_kept", "evening", str(evening.pk), "--language=da", "--nice=0")
    assert renders() == before + 7  # kept already: nothing rendered twice
    for address in evening_pdfs(club, evening):
        assert treasurer.get(address).status_code == 200
    assert renders() == before + 7


def test_an_open_evening_or_a_missing_one_renders_nothing(club):
    evening, _, _ = factories.evening_e(club)
    before = renders()
    assert kept_pdfs.render_batch("evening", evening.pk, ["da"]) == 0
    assert kept_pdfs.render_batch("evening", evening.pk + 1000, ["da"]) == 0
    assert renders() == before


def test_a_render_that_dies_midway_keeps_nothing(club):
    evening, _, _ = factories.evening_e(club)
    services.evening_close(evening=evening)
    key, render = kept_pdfs.evening_sheet(evening, False)

    def killed():
        render()
        raise KeyboardInterrupt  # the process killed after the layout, before the store

    with pytest.raises(KeyboardInterrupt):
        kept_pdfs.keep((key, killed))
    assert not kept.shared().has_key(key)
    assert kept_pdfs.keep((key, render)) is True
    assert kept.shared().get(key)[2].startswith(b"%PDF")


# --- tournaments ---------------------------------------------------------------------------


@pytest.fixture
def director():
    club = factories.make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    admin = factories.make_member(club, "Director", role="admin", login=True)
    return club, client_for(admin.user)


def test_after_a_round_closes_its_result_and_the_ranking_are_kept(
    inline, director, django_capture_on_commit_callbacks
):
    club, client = director
    t = factories.make_tournament(club, ["Ana", "Bor", "Cene", "Dana", "Eva", "Franc"])
    r = tour.round_start(round_=tour.round_publish(round_=tour.round_draw(tournament=t)))
    for rt in r.round_tables.select_related("table__evening"):
        assert rt.table is not None
        random_hand_at(rt.table, random.Random(rt.number))
    result = url("tournament_round_result_pdf", club, pk=r.pk)
    ranking = url("tournament_ranking_pdf", club, pk=t.pk)
    before = renders()
    client.get(result)
    client.get(result)
    assert renders() == before + 2  # a round at play: its result is rendered every time
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url("tournament_round_close", club, pk=r.pk), {"confirm": "1"})
    assert response.status_code == 302
    r.refresh_from_db()
    assert r.status == "closed"
    closed = renders()
    assert closed == before + 4  # the result and the ranking, at the close
    for address in (result, ranking, result, ranking):
        response = client.get(address)
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert renders() == closed
    # Any change raises the tournament's version: the ranking is rendered afresh.
    tour.round_reopen(round_=r, reason="a score was misread")
    client.get(ranking)
    assert renders() == closed + 1


class Started:
    """What ``subprocess.Popen`` was asked to start (the render process is not run here)."""

    calls: list = []

    def __init__(self, command, **options):
        Started.calls.append((command, options))
        self.pid = 4242

    def wait(self):
        return 0


def test_in_production_the_close_starts_the_render_process_and_renders_nothing_itself(
    settings, club, treasurer, monkeypatch, django_capture_on_commit_callbacks
):
    settings.TAROK_KEPT_RENDER = "process"
    monkeypatch.setattr(kept_pdfs.subprocess, "Popen", Started)
    Started.calls = []
    evening, _, _ = factories.evening_e(club)
    before = renders()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = treasurer.post(
            url("treasury_close", club, pk=evening.pk), {"confirm_differences": "on"}
        )
    assert response.status_code == 302
    assert Started.calls == [], "started before the close committed"
    for callback in callbacks:
        callback()
    assert renders() == before
    [(command, options)] = Started.calls
    assert command[1].endswith("manage.py")
    assert command[2:] == ["render_kept", "evening", str(evening.pk), "--language=da"]
    assert options["start_new_session"] is True
    # The worker's own settings (manage.py alone would default to a developer's DEBUG).
    assert options["env"]["DJANGO_DEBUG"] == ("1" if settings.DEBUG else "0")
