"""A Danish DM round in real Chromium (issue 21 part 7): 25 players at tables of four and
three, entered, drawn, played and closed by the director and two scorekeepers in the browser,
with the round's points the tables' final balances (tournament.md sections 4, 5, 7.2, 9, 10).

The players, their ids and the seed are the spec's example ``02_dk25_dm``, so the draw the
director publishes is the example's round 1 (the pure engine's, reproduced by the web side).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import selectors
from ledger.models import Entry, Member, Round, RoundTable
from ledger.selectors.verify import verify_ledger
from ledger.tests import factories
from ledger.tests.e2e.conftest import HandScreen, expect_language, resize, screenshot
from ledger.tests.helpers import post_round_adjustment
from ledger.tests.tournaments.helpers import example

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLUG = "hj"
EXAMPLE = example("02_dk25_dm")
# The four of the home club (HjT) are its members; the 21 others are guests of other clubs.
MEMBERS = ("Ole", "Gerner", "John", "Karen")
SCORED_ON_SCREEN = (1, 6)  # a table of four and a table of three
# Each player's final balance at the two tables scored on the screen, derived in the test's
# docstring: Steen, Jes, Ole, Ruth at table 1; Claus, Hugo, Gerner at table 6.
SCREEN_FINALS = {
    "Steen": 95,
    "Jes": -50,
    "Ole": -10,
    "Ruth": -35,
    "Claus": -55,
    "Hugo": 15,
    "Gerner": 40,
}


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


class DanishScreen(HandScreen):
    """The Danish entry form: a nolo is a button of its own beside the player."""

    def end(self, name: str, kind: str):
        self.tap(f'[data-end="{kind}"][data-player="{name}"]')


def expect_points(locator, value: int):
    expect(locator).to_have_attribute("data-points", str(value))


def new_hand(page, table_id: int) -> DanishScreen:
    """Open the table's screen and its entry form, as the scorekeeper taps through them."""
    page.goto(url("table", pk=table_id))
    page.locator("#new-hand").click()
    expect(page.locator("#hand-form")).to_be_visible()
    expect(page.locator("#hand-form input[name=record]")).not_to_have_value("")
    return DanishScreen(page)


def save(page, hand: DanishScreen, table_id: int) -> None:
    hand.save()
    page.wait_for_url(f"**{url('table', pk=table_id)}")
    expect(page.locator("#table-live")).to_be_visible()


def settle_by_adjustments(round_table: RoundTable, scores: dict[str, int]) -> None:
    """Give each seated player his score at a zero-sum table through the services'
    adjustments, from the players below zero to those above it (the Danish cups hold the
    funding only, which the close splits back evenly: the final balance is the score)."""
    names = dict(
        Entry.objects.filter(tournament=round_table.round.tournament).values_list("code", "name")
    )
    owing = {names[c]: -scores[c] for c in round_table.seats if scores[c] < 0}
    for code in round_table.seats:
        owed = scores[code]
        while owed > 0:
            debtor = next(name for name, left in owing.items() if left)
            points = min(owing[debtor], owed)
            post_round_adjustment(
                round_table.table, source=debtor, target=names[code], points=points
            )
            owing[debtor] -= points
            owed -= points


def standings_points(page, heading: str) -> dict[str, str]:
    """Return each player's total points as the standings page shows them (the column headed
    ``heading``), in the page's order."""
    heads = [t.strip() for t in page.locator("#tournament-standings thead th").all_inner_texts()]
    column = heads.index(heading) + 1
    rows = page.locator("#tournament-standings tbody tr[data-player]")
    return {
        rows.nth(i).get_attribute("data-player"): rows.nth(i)
        .locator(f"td:nth-child({column})")
        .inner_text()
        .strip()
        for i in range(rows.count())
    }


def shown(points: int, decimal: str = ",") -> str:
    """Return a sum format's round points as the pages write them: two decimals with the
    language's decimal sign (Danish 2,00; English 2.00), a true minus."""
    return f"{points}{decimal}00".replace("-", "\u2212")


def test_a_25_player_dm_round_at_tables_of_four_and_three(pages):
    """The director creates a ``dk_dm`` tournament on the club's tournament screen, pastes
    the 25 players (four members of the club, 21 guests with their clubs, the example's ids),
    draws round 1: seven tables of 4, 4, 4, 4, 3, 3, 3, the tables of four numbered first,
    seated exactly as the spec's example; publishes and starts it. Two scorekeepers enter
    two hands each on the Danish entry screen, at table 1 (four seats) and table 6 (three):

    - Table 1, Steen Jes Ole Ruth (funding 20 a cup: each -40, cups 80/80). Hand 1, Steen
      deals, Ole sits out: X4's nolo (Steen +45, Jes -20, Ole 0, Ruth -40; cups 85/90).
      Hand 2, Jes deals (5 into each cup), Ruth sits out, Ole deals next and does not
      count: Steen takes the last trick (20 from Jes and from Ole), counts Steen 31 (+5
      from Ole), Jes 16 (-10 to Ole): Steen +45, Jes -40, Ole -15, Ruth 0; cups 90/95.
      Balances 50, -100, -55, -80; the close splits 185: 45 each and the 5 over to Jes
      (the lowest): finals 95, -50, -10, -35.
    - Table 6, Claus Hugo Gerner (each -40, cups 60/60), on a phone. Hand 1, Claus deals
      (5 into each cup): Gerner takes the last trick, counts Claus 20 (-5 to Hugo), Gerner
      35 (+10 from Hugo): -35, -25, +50. Hand 2, Hugo deals: Hugo takes the last trick,
      counts Claus 16 (-10 to Gerner), Hugo 31 (+5 from Gerner): -30, +35, -15. Balances
      -105, -30, -5; the close splits 140: 45 each and the 5 over to Claus: finals -55,
      15, 40.

    The other five tables are filled faster through the services (adjustments to the
    example's round-1 scores, which the close leaves as the finals). The director closes
    the round: each player's round points on the round page and the standings are his
    table's final balance, which the tables' screens show; verify_ledger agrees. The wall
    shows every player's table. The pages read Danish, the club's language, in a browser
    that asks for English; the director's language switch turns the standings into English.
    Screenshots: the round page and the standings at 1280x800 and 390x844, the wall.
    """
    club = factories.make_club(
        slug=SLUG,
        name="Hjørring Tarokklub",
        game="danish_tarok",
        language="da",
        currency="DKK",
        time_zone="Europe/Copenhagen",
    )
    director = factories.make_member(club, "Formand", Member.Role.ADMIN, login=True)
    members = {
        name: factories.make_member(
            club,
            name,
            Member.Role.SCOREKEEPER if name in ("Ole", "Gerner") else Member.Role.MEMBER,
            login=name in ("Ole", "Gerner"),
        )
        for name in MEMBERS
    }
    expected_tables = EXAMPLE["expected"]["rounds"][0]["tables"]
    results = EXAMPLE["rounds"][0]["results"]

    page = pages(director.user, locale="en-US")  # the club's language wins over the browser's
    page.goto(url("tournaments"))
    expect_language(page, "da")
    expect(page.locator("#id_date")).not_to_have_value("")  # today, in the date picker
    page.fill("#id_name", "DM i tarok")
    page.fill("#id_date", "2026-11-11")
    page.select_option("#id_game", "danish_tarok")
    page.select_option("#id_tournament_format", "dk_dm")
    page.fill("#id_seed", EXAMPLE["seed"])
    page.locator("#tournament-new-form button[type=submit]").click()
    page.wait_for_url("**/t/*/")
    expect(page.locator("h1")).to_have_text("DM i tarok")

    lines = ["Navn,Klub,Rang,Id"] + [
        f"{e['id']},{e['club']},,{e['id']}" for e in EXAMPLE["entries"]
    ]
    page.fill("#import-form textarea[name=text]", "\n".join(lines))
    page.locator("#import-form button[type=submit]").click()
    expect(page.locator("#entries-table tbody tr[data-entry]")).to_have_count(25)
    expect(page.locator("#entries-table tbody tr[data-entry] .tag")).to_have_count(21)
    for name in MEMBERS:  # a member is entered as himself, not as a guest
        expect(page.locator(f'tr[data-entry="{name}"] .tag')).to_have_count(0)
    expect(page.locator('tr[data-entry="Steen"] td').nth(1)).to_have_text("AGT")
    assert {e.member_id for e in Entry.objects.filter(name__in=MEMBERS)} == {
        m.pk for m in members.values()
    }

    page.locator("#draw-form button").click()
    page.wait_for_url("**/t/round/*/")
    expect(page.locator("#round-status")).to_have_text("trukket")
    draw = page.locator("#draw .draw-table")
    expect(draw).to_have_count(7)
    for number, seats in enumerate(expected_tables, 1):
        table = page.locator(f'#draw .draw-table[data-table="{number}"]')
        expect(table.locator("h2")).to_contain_text(f"Bord {number}")
        expect(table.locator("tbody tr[data-player]")).to_have_count(len(seats))
        assert (
            table.locator("tbody tr[data-player]").evaluate_all(
                "rows => rows.map(r => r.dataset.player)"
            )
            == seats
        )
    sizes = [draw.nth(i).locator("tbody tr").count() for i in range(7)]
    assert sizes == [4, 4, 4, 4, 3, 3, 3]
    expect(page.locator("#byes")).to_have_count(0)
    expect(page.locator("#draw-warnings")).to_have_count(0)
    page.locator("#publish-form button").click()
    expect(page.locator("#round-status")).to_have_text("offentliggjort")
    page.locator("#start-form button").click()
    expect(page.locator("#round-status")).to_have_text("spilles")
    expect(page.locator("#progress")).to_have_text("0 af 7 borde er begyndt.")
    expect(page.locator("#round-clock")).to_be_visible()
    screenshot(page, "dm-round-playing", full_page=True)

    round_ = Round.objects.get(tournament__club=club, number=1)
    tables = {rt.number: rt for rt in round_.round_tables.select_related("table", "round")}
    assert tables[1].table is not None
    assert [s.member.name for s in tables[1].table.seats.order_by("position")] == [
        "Steen",
        "Jes",
        "Ole",
        "Ruth",
    ]

    # The wall: where every one of the 25 sits.
    wall = pages(director.user, width=1920, height=1080)
    wall.goto(url("tournament_wall", pk=round_.tournament_id))
    expect(wall.locator("#wall-seats li[data-player]")).to_have_count(25)
    for number, seats in enumerate(expected_tables, 1):
        for name in seats:
            expect(wall.locator(f'#wall-seats li[data-player="{name}"] .where')).to_have_text(
                f"bord {number}"
            )
    screenshot(wall, "dm-wall")

    # Table 1 (four seats): Ole keeps the score.
    ole = pages(members["Ole"].user)
    table_1 = tables[1].table_id
    assert table_1 is not None
    hand = new_hand(ole, table_1)
    expect_language(ole, "da")
    expect(ole.locator('[data-show="dealer"]')).to_have_text("Steen")
    expect(ole.locator('[data-show="sitting-out"]')).to_have_text("Ole")
    hand.event("Ruth", "lost_pagat")
    hand.end("Steen", "nolo")
    hand.winner("Jes")
    hand.card("Jes", "king")
    for name, net in {"Steen": 45, "Jes": -20, "Ole": 0, "Ruth": -40}.items():
        expect_points(hand.net(name), net)
    expect_points(hand.cup_after("kongekop"), 85)
    expect_points(hand.cup_after("pagatkop"), 90)
    save(ole, hand, table_1)
    hand = new_hand(ole, table_1)
    expect(ole.locator('[data-show="dealer"]')).to_have_text("Jes")
    expect(ole.locator('[data-show="sitting-out"]')).to_have_text("Ruth")
    expect(ole.locator('[data-show="non-counter"]')).to_have_text("Ole")
    hand.winner("Steen")
    hand.count("Steen", 31)
    hand.count("Jes", 16)
    for name, net in {"Steen": 45, "Jes": -40, "Ole": -15, "Ruth": 0}.items():
        expect_points(hand.net(name), net)
    save(ole, hand, table_1)
    for name, balance in {"Steen": 50, "Jes": -100, "Ole": -55, "Ruth": -80}.items():
        expect_points(ole.locator(f'.seat-tile[data-member="{name}"]'), balance)
    expect_points(ole.locator('#table-live [data-cup="kongekop"]'), 90)
    expect_points(ole.locator('#table-live [data-cup="pagatkop"]'), 95)

    # Table 6 (three seats): Gerner keeps the score.
    gerner = pages(members["Gerner"].user, width=390, height=844)
    table_6 = tables[6].table_id
    assert table_6 is not None
    hand = new_hand(gerner, table_6)
    expect(gerner.locator('[data-show="dealer"]')).to_have_text("Claus")
    expect(gerner.locator('[data-show="non-counter"]')).to_have_text("Hugo")
    hand.winner("Gerner")
    hand.count("Claus", 20)
    hand.count("Gerner", 35)
    for name, net in {"Claus": -35, "Hugo": -25, "Gerner": 50}.items():
        expect_points(hand.net(name), net)
    save(gerner, hand, table_6)
    hand = new_hand(gerner, table_6)
    expect(gerner.locator('[data-show="dealer"]')).to_have_text("Hugo")
    expect(gerner.locator('[data-show="non-counter"]')).to_have_text("Gerner")
    hand.winner("Hugo")
    hand.count("Claus", 16)
    hand.count("Hugo", 31)
    for name, net in {"Claus": -30, "Hugo": 35, "Gerner": -15}.items():
        expect_points(hand.net(name), net)
    save(gerner, hand, table_6)
    for name, balance in {"Claus": -105, "Hugo": -30, "Gerner": -5}.items():
        expect_points(gerner.locator(f'.seat-tile[data-member="{name}"]'), balance)

    # The five other tables, through the services.
    for number, rt in tables.items():
        if number not in SCORED_ON_SCREEN:
            settle_by_adjustments(rt, results)

    page.reload()
    expect(page.locator("#progress")).to_have_text("2 af 7 borde er begyndt.")
    expect(page.locator('.draw-table[data-table="1"] [data-hands]')).to_have_attribute(
        "data-hands", "2"
    )
    page.locator("#close-form button").click()
    # A confirmation first, naming the tables below their target while time is left.
    expect(page.locator("#close-confirm")).to_be_visible()
    expect(page.locator("#close-short li").first).to_be_visible()
    page.locator("#close-form button").click()
    expect(page.locator("#round-status")).to_have_text("lukket")
    expect(page.locator("#round-clock")).to_have_count(0)  # no time left once closed
    heads = page.locator('#draw .draw-table[data-table="1"] thead th')
    expect(heads).to_have_text(["Plads", "Spiller", "Klub", "Score", "Placering", "Point"])

    expected = {name: results[name] for seats in expected_tables for name in seats}
    expected.update(SCREEN_FINALS)
    # The tables scored on the screen show the finals the round counts.
    for scorer, number in ((ole, 1), (gerner, 6)):
        scorer.goto(url("table", pk=tables[number].table_id))
        expect(scorer.locator(".seat-tile")).to_have_count(len(tables[number].seats))
        for name in tables[number].seats:
            expect_points(scorer.locator(f'.seat-tile[data-member="{name}"]'), expected[name])
        expect_points(scorer.locator('#table-live [data-cup="kongekop"]'), 0)
        expect_points(scorer.locator('#table-live [data-cup="pagatkop"]'), 0)
    for rt in tables.values():  # every table's final balances (the ids are the names)
        assert rt.table_id is not None
        finals = selectors.table_balances(rt.table_id)
        assert {n: finals[n] for n in rt.seats} == {n: expected[n] for n in rt.seats}

    # The round page: each seat's score, place and points (the sum format: points = score).
    for number, seats in enumerate(expected_tables, 1):
        table = page.locator(f'#draw .draw-table[data-table="{number}"]')
        for name in seats:
            cells = table.locator(f'tr[data-player="{name}"] td')
            expect(cells.nth(3)).to_have_text(str(expected[name]).replace("-", "\u2212"))
            expect(cells.nth(5)).to_have_text(shown(expected[name]))
            place = 1 + sum(1 for other in seats if expected[other] > expected[name])
            expect(cells.nth(4)).to_have_text(str(place))
    resize(page, 1280, 800)
    screenshot(page, "dm-round-closed", full_page=True)
    resize(page, 390, 844)
    screenshot(page, "dm-round-closed", full_page=True)

    page.goto(url("tournament_standings", pk=round_.tournament_id))
    expect_language(page, "da")
    expect(page.locator("h1 .tag")).to_have_text("foreløbig")
    points = standings_points(page, "Point")
    assert points == {name: shown(value) for name, value in expected.items()}
    order = list(points)
    assert [expected[n] for n in order] == sorted(expected.values(), reverse=True)
    screenshot(page, "dm-standings", full_page=True)
    resize(page, 1280, 800)
    screenshot(page, "dm-standings", full_page=True)
    assert verify_ledger().ok

    # The language switch: the director reads the same standings in English.
    page.locator('.language-switch button[value="en"]').click()
    expect_language(page, "en")
    expect(page.locator("h1 .tag")).to_have_text("provisional")
    english = standings_points(page, "Points")
    assert english == {name: shown(value, ".") for name, value in expected.items()}
    assert list(english) == order
