"""A correction after a tournament round closed, in real Chromium (issue 21 part 7,
tournament.md section 11): the director corrects a hand of a closed round's table on the
ordinary hand form; the round's points, the standings and verify_ledger follow, the
published draw of the next round never changes, and once the next round has started a
correction needs the director's override and its reason."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import services
from ledger.models import HandRevision, Member, Round
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments as tour
from ledger.tests import factories
from ledger.tests.e2e.conftest import expect_language, overflowing, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "lj"
LADDER = ("Ana", "Bor", "Cene", "Dana", "Eva", "Franc")


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def two(seats, dealer, declarer, card_points):
    """A Slovenian ``two`` at a table of three: the declarer plays alone; the game is
    20 + the difference |card points - 35| rounded to 5, won from 36 card points."""
    return {
        "format": "tarokclub.hand/1",
        "seats": list(seats),
        "dealer": dealer,
        "contract": "two",
        "declarer": declarer,
        "card_points": card_points,
    }


def seat_results(page, number: int) -> dict[str, tuple[str, str, str]]:
    """Return each seat's (score, place, points) on the round page's table ``number``."""
    rows = page.locator(f'#draw .draw-table[data-table="{number}"] tbody tr[data-player]')
    out = {}
    for i in range(rows.count()):
        cells = [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        out[rows.nth(i).get_attribute("data-player")] = tuple(cells[-3:])  # the last three
    return out


def open_correction(page, table_id: int, hand_number: int) -> None:
    """From the closed table's screen to the hand and its correction form, by taps."""
    page.goto(url("table", pk=table_id))
    page.locator(f'#hands tr[data-hand="{hand_number}"] td.hand-no a').click()
    page.locator("#correct-hand").click()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#tournament-correction")).to_be_visible()


def test_a_correction_after_the_round_closed(pages):
    """A 6-player DP (``sl_dp``, two rounds, two tables of three), round 1 closed with two
    hands at each table (through the services):

    - table 1 (p1 p2 p3): p2 plays two with 44 (D 10: +30), p1 two with 40 (D 5: +25):
      scores p2 30, p1 25, p3 0, so points 2, 1, 1/2;
    - table 2 (q1 q2 q3): q3 two with 38 (+25), q1 two with 31 (lost, D 5: -25): scores
      q3 25, q2 0, q1 -25, points 2, 1, 1/2.

    The director draws and publishes round 2, then corrects hand 1 of table 1 on the hand
    form (44 card points were 30: p2 lost, -25). The round page then shows table 1 as p1 25
    (2 points), p3 0 (1), p2 -25 (1/2) and table 2 as before; the standings and
    verify_ledger follow; round 2's published draw is unchanged. The director starts round 2:
    round 1's correction period is over. Correcting hand 2 (40 were 20: p1 lost, D 15, -35)
    without the override is refused by the server and changes nothing; with the override and
    its reason it is saved: table 1 is p3 0 (2), p2 -25 (1), p1 -35 (1/2), and the round
    page lists it "after the correction period, by the director's override" with the
    reason, at its time in the club's time zone. Round 2's draw never changed. The pages
    read Slovenian, the club's language, in a browser that asks for English; the director's
    language switch shows the round page in English. Round 1 and its hands are filled
    through the services: the point is the correction.
    """
    club = factories.make_club(
        slug=SLUG,
        name="Ljubljana Tarok Klub",
        game="slovenian_tarok",
        language="sl",
        currency="EUR",
        time_zone="Europe/Ljubljana",
    )
    director = factories.make_member(club, "Predsednik", Member.Role.ADMIN, login=True)
    t = tour.tournament_create(
        club=club,
        name="DP Ljubljana",
        date=datetime.date(2026, 12, 5),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"rounds": 2},
        seed="DP-LJ-2026-12-05",
    )
    # Licence numbers as the ids: the draw's hashes, so the seating, are the same every run.
    tour.entries_import(
        tournament=t,
        text="\n".join(f"{n},Ljubljana,{i},SLO-{i:03}" for i, n in enumerate(LADDER, 1)),
    )
    r1 = tour.round_draw(tournament=t)
    tour.round_publish(round_=r1)
    r1 = tour.round_start(round_=r1)
    rts = {rt.number: rt for rt in r1.round_tables.select_related("table")}
    names = dict(t.entries.values_list("code", "name"))
    p1, p2, p3 = (names[c] for c in rts[1].seats)
    q1, q2, q3 = (names[c] for c in rts[2].seats)
    table_1, table_2 = rts[1].table, rts[2].table
    assert table_1 is not None
    first = services.hand_record(table=table_1, record=two((p1, p2, p3), p1, p2, 44))
    second = services.hand_record(table=table_1, record=two((p1, p2, p3), p2, p1, 40))
    services.hand_record(table=table_2, record=two((q1, q2, q3), q1, q3, 38))
    services.hand_record(table=table_2, record=two((q1, q2, q3), q2, q1, 31))
    tour.round_close(round_=r1)

    page = pages(director.user, locale="en-US")  # the club's language wins over the browser's
    page.goto(url("tournament", pk=t.pk))
    expect_language(page, "sl")
    page.locator("#draw-form button").click()
    page.wait_for_url("**/t/round/*/")
    page.locator("#publish-form button").click()
    expect(page.locator("#round-status")).to_have_text("objavljeno")
    r2 = Round.objects.get(tournament=t, number=2)
    drawn = r2.tables
    round_2_page = page.url

    page.goto(url("tournament_round", pk=r1.pk))
    expect(page.locator("#round-clock")).to_have_count(0)  # no time left once closed
    table_2_before = seat_results(page, 2)
    assert seat_results(page, 1) == {
        p1: ("25", "2", "1,00"),
        p2: ("30", "1", "2,00"),
        p3: ("0", "3", "0,50"),
    }
    assert table_2_before == {
        q1: ("\u221225", "3", "0,50"),
        q2: ("0", "2", "1,00"),
        q3: ("25", "1", "2,00"),
    }
    expect(page.locator("#corrections")).to_have_count(0)

    # Correction 1, within the period: the hand form asks for a reason, no override.
    page.locator('.draw-table[data-table="1"] h2 a').first.click()
    page.wait_for_url(f"**{url('table', pk=table_1.pk)}")
    open_correction(page, table_1.pk, 1)
    expect(page.locator("#id_override")).to_have_count(0)
    points = page.locator("input[data-points]")
    expect(points).to_have_value("44")
    points.fill("30")
    expect(page.locator(f'#hand-feedback .net[data-net="{p2}"]')).to_have_attribute(
        "data-points", "-25"
    )
    page.fill("#id_reason", "Napačno seštete točke")
    page.locator("#save-hand").click()
    page.wait_for_url(f"**{url('table', pk=table_1.pk)}")
    change = page.locator(f'#changes [data-changed-hand="1"] [data-member="{p2}"]')
    expect(change).to_have_attribute("data-old", "30")
    expect(change).to_have_attribute("data-new", "-25")

    page.goto(url("tournament_round", pk=r1.pk))
    assert seat_results(page, 1) == {
        p1: ("25", "1", "2,00"),
        p2: ("\u221225", "3", "0,50"),
        p3: ("0", "2", "1,00"),
    }
    assert seat_results(page, 2) == table_2_before
    expect(page.locator("#corrections li")).to_have_count(1)
    expect(page.locator("#corrections li")).to_contain_text("Napačno seštete točke")
    expect(page.locator("#corrections li strong")).to_have_count(0)  # within the period
    assert verify_ledger().ok

    page.goto(url("tournament_standings", pk=t.pk))
    standing = {
        name: page.locator(f'#tournament-standings tr[data-player="{name}"] td').nth(4)
        for name in LADDER
    }
    expected = {p1: "2,00", p2: "0,50", p3: "1,00", q1: "0,50", q2: "1,00", q3: "2,00"}
    for name, text in expected.items():
        expect(standing[name]).to_have_text(text)
    assert Round.objects.get(pk=r2.pk).tables == drawn

    # Round 2 starts: round 1's correction period is over.
    page.goto(round_2_page)
    page.locator("#start-form button").click()
    expect(page.locator("#round-status")).to_have_text("v igri")
    assert tour.correction_period_over(Round.objects.get(pk=r1.pk))

    revisions = HandRevision.objects.filter(hand=second).count()
    open_correction(page, table_1.pk, 2)
    expect(page.locator("#id_override")).to_be_visible()
    expect(page.locator("#id_override_reason")).to_be_visible()
    # The override is a line of its own to tap, its reason's label on the next line.
    override = page.locator('label[for="id_override"]').bounding_box()
    label = page.locator('label[for="id_override_reason"]').bounding_box()
    assert override["height"] >= 44 and label["y"] >= override["y"] + override["height"]
    assert overflowing(page) == []
    points = page.locator("input[data-points]")
    expect(points).to_have_value("40")
    points.fill("20")
    expect(page.locator(f'#hand-feedback .net[data-net="{p1}"]')).to_have_attribute(
        "data-points", "-35"
    )
    page.fill("#id_reason", "Tudi druga igra je bila napačno seštevana")
    page.locator("#id_override_reason").scroll_into_view_if_needed()
    screenshot(page, "correction-late")
    page.locator("#save-hand").click()  # without the override
    expect(page.locator("#save-state")).to_have_attribute("data-state", "refused")
    expect(page.locator("#hand-feedback")).to_contain_text("rok za popravke")
    assert HandRevision.objects.filter(hand=second).count() == revisions

    page.locator("#id_override").check()
    page.fill("#id_override_reason", "Zapisnik mize je nedvoumen")
    page.locator("#save-hand").click()
    page.wait_for_url(f"**{url('table', pk=table_1.pk)}")
    assert HandRevision.objects.filter(hand=second).count() == revisions + 1
    assert first.revisions.count() == 2

    page.goto(url("tournament_round", pk=r1.pk))
    assert seat_results(page, 1) == {
        p1: ("\u221235", "3", "0,50"),
        p2: ("\u221225", "2", "1,00"),
        p3: ("0", "1", "2,00"),
    }
    assert seat_results(page, 2) == table_2_before
    late = page.locator("#corrections li").nth(1)
    expect(page.locator("#corrections li")).to_have_count(2)
    expect(late.locator("strong")).to_have_text("po roku za popravke, z izjemo vodje tekmovanja")
    expect(late).to_contain_text("Zapisnik mize je nedvoumen")
    # When, in the club's time zone and language: not the log's ISO timestamp.
    assert not re.search(r"\d{4}-\d\d-\d\dT", page.locator("#corrections").inner_text())
    screenshot(page, "correction-round", full_page=True)
    assert verify_ledger().ok

    # The published draw of round 2 never changed, on the page nor in the database.
    assert Round.objects.get(pk=r2.pk).tables == drawn
    page.goto(round_2_page)
    for number, seats in enumerate(drawn, 1):
        rows = page.locator(f'#draw .draw-table[data-table="{number}"] tbody tr[data-player]')
        assert rows.evaluate_all("rows => rows.map(r => r.dataset.player)") == [
            names[c] for c in seats
        ]

    # The language switch: the director reads round 1's page in English.
    page.goto(url("tournament_round", pk=r1.pk))
    page.locator('.language-switch button[value="en"]').click()
    expect_language(page, "en")
    expect(page.locator("h1")).to_contain_text("Round 1")
    expect(page.locator("#corrections li").nth(1).locator("strong")).to_have_text(
        "after the correction period, by the director's override"
    )
