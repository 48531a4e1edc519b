"""The scorekeeper's tablet through Django's test client: permissions, entry, preview, fixes."""

from __future__ import annotations

import datetime
import html
import json
import re
import uuid

import pytest
from django.urls import reverse

from ledger import selectors, services
from ledger.models import Evening, Hand, HandRevision, Member, Posting, Seat, Table
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import config_of, english, found, hand_post, login

pytestmark = pytest.mark.django_db

SLUG = "test"
E_HANDS = load_example("EVENING_E.evening.json")["hands"]


def url(name, **kwargs):
    return reverse(name, kwargs={"club": SLUG, **kwargs})


def post_hand(client, table, record, token=None, **headers):
    data = hand_post(table, record, token)
    return client.post(url("hand_new", pk=table.pk), data, headers=headers)


def points(html: str, attr: str, name: str) -> int:
    match = re.search(rf'{attr}="{re.escape(name)}"[^>]*data-points="(-?\d+)"', html)
    assert match, f"no {attr}={name} in the page"
    return int(match.group(1))


@pytest.fixture
def club():
    return factories.make_club(slug=SLUG)


@pytest.fixture
def people(club):
    """Anna (scorekeeper), Bo (member), Carl (treasurer), each with a log-in."""
    return {
        "Anna": factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True),
        "Bo": factories.make_member(club, "Bo", Member.Role.MEMBER, login=True),
        "Carl": factories.make_member(club, "Carl", Member.Role.TREASURER, login=True),
    }


@pytest.fixture
def table(club, people):
    """An open evening with one table: Anna, Bo, Carl, Anna deals first; cups 60/60."""
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    return services.table_open(
        evening=evening, members=[people["Anna"], people["Bo"], people["Carl"]]
    )


@pytest.fixture
def evening_e(table):
    """The spec's Evening E recorded at ``table``."""
    hands = [services.hand_record(table=table, record=hand) for hand in E_HANDS]
    return table, hands


@pytest.fixture
def scorekeeper(client, people):
    return login(client, people["Anna"])


# --- permissions ---------------------------------------------------------------------------


def _targets(table, hand):
    """Every view of the area: (name, url, method, data, role needed)."""
    record = json.dumps(E_HANDS[0])
    return [
        ("club", url("club"), "get", None, "member"),
        ("evening", url("evening", pk=table.evening_id), "get", None, "member"),
        ("table", url("table", pk=table.pk), "get", None, "member"),
        ("hand", url("hand", pk=hand.pk), "get", None, "member"),
        ("evening_start", url("evening_start"), "post", {"date": "2026-11-06"}, "scorekeeper"),
        ("table_new", url("table_new", pk=table.evening_id), "get", None, "scorekeeper"),
        ("table_seat", url("table_seat", pk=table.pk), "post", {}, "scorekeeper"),
        ("table_leave", url("table_leave", pk=table.pk), "post", {}, "scorekeeper"),
        ("hand_new", url("hand_new", pk=table.pk), "get", None, "scorekeeper"),
        ("hand_new_post", url("hand_new", pk=table.pk), "post", {"record": record}, "scorekeeper"),
        ("preview", url("hand_preview", pk=table.pk), "post", {"record": record}, "scorekeeper"),
        ("correct", url("hand_correct", pk=hand.pk), "get", None, "scorekeeper"),
        (
            "correct_preview",
            url("hand_correct_preview", pk=hand.pk),
            "post",
            {"record": record},
            "scorekeeper",
        ),
        ("void", url("hand_void", pk=hand.pk), "post", {"reason": "x"}, "scorekeeper"),
    ]


def test_anonymous_is_sent_to_log_in(client, evening_e):
    """Every view of the tablet sends a visitor who is not logged in to the log-in page."""
    table, hands = evening_e
    for name, target, method, data, _role in _targets(table, hands[0]):
        response = getattr(client, method)(target, data or {})
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("login")), name
    assert Hand.objects.count() == 3


def test_member_of_another_club_gets_404(client, evening_e):
    """A member of another club never learns that the club, its tables or hands exist."""
    table, hands = evening_e
    other = factories.make_club(slug="other", name="Other")
    stranger = factories.make_member(other, "Stranger", Member.Role.ADMIN, login=True)
    login(client, stranger)
    for name, target, method, data, _role in _targets(table, hands[0]):
        response = getattr(client, method)(target, data or {})
        assert response.status_code == 404, name
    assert Hand.objects.count() == 3


def test_objects_of_another_club_are_404_under_the_own_club(client, people, evening_e):
    """A table or hand id of another club, put under one's own club's address, is 404."""
    table, hands = evening_e
    other = factories.make_club(slug="other", name="Other")
    ev = services.evening_open(club=other, date=datetime.date(2026, 11, 5))
    members = [factories.make_member(other, n) for n in ("X", "Y", "Z")]
    foreign = services.table_open(evening=ev, members=members)
    foreign_hand = services.hand_record(
        table=foreign,
        record={
            "dealer": "X",
            "last_trick": {
                "winner": "Y",
                "cards": [
                    {"player": "X", "card": "other"},
                    {"player": "Y", "card": "other"},
                    {"player": "Z", "card": "other"},
                ],
            },
            "count": {"X": 26, "Z": 26},
        },
    )
    login(client, people["Anna"])
    assert client.get(url("table", pk=foreign.pk)).status_code == 404
    assert client.get(url("hand", pk=foreign_hand.pk)).status_code == 404
    assert client.get(url("evening", pk=ev.pk)).status_code == 404
    assert client.get(url("hand_new", pk=foreign.pk)).status_code == 404
    response = post_hand(client, foreign, E_HANDS[0])
    assert response.status_code == 404
    assert foreign.hands.count() == 1


def test_member_reads_but_cannot_write(client, people, evening_e):
    """A plain member sees evenings, tables and hands; every write answers 403."""
    table, hands = evening_e
    login(client, people["Bo"])
    for name, target, method, data, role in _targets(table, hands[0]):
        response = getattr(client, method)(target, data or {})
        expected = 200 if role == "member" else 403
        assert response.status_code == expected, name
    assert Hand.objects.count() == 3
    assert Evening.objects.count() == 1


def test_scorekeeper_and_treasurer_may_write(client, people, evening_e):
    """A scorekeeper, and any higher role, reaches the entry screen."""
    table, _hands = evening_e
    for who in ("Anna", "Carl"):
        login(client, people[who])
        assert client.get(url("hand_new", pk=table.pk)).status_code == 200
        client.logout()


def test_member_sees_no_entry_buttons(client, people, evening_e):
    """The table screen offers "new hand" and seating only to a scorekeeper."""
    table, _hands = evening_e
    login(client, people["Bo"])
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert 'id="new-hand"' not in page
    assert 'id="seat-form"' not in page
    client.logout()
    login(client, people["Anna"])
    page = client.get(url("table", pk=table.pk)).content.decode()
    assert 'id="new-hand"' in page
    assert 'id="seat-form"' in page


# --- evenings and tables -------------------------------------------------------------------


def test_start_an_evening_once_per_date(scorekeeper, club):
    """Starting an evening opens one; starting it again on the same date goes to that one."""
    start = {"date": "2026-12-01", "no_season": "on"}  # the club has no season
    response = scorekeeper.post(url("evening_start"), start)
    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("evening", pk=evening.pk)
    assert evening.date == datetime.date(2026, 12, 1)
    again = scorekeeper.post(url("evening_start"), start)
    assert again["Location"] == url("evening", pk=evening.pk)
    assert Evening.objects.count() == 1


def test_club_page_links_evenings_and_offers_start(scorekeeper, table):
    """The club front page links each evening and offers a scorekeeper to start one."""
    page = scorekeeper.get(url("club")).content.decode()
    assert url("evening", pk=table.evening_id) in page
    assert 'id="start-evening"' in page


def test_open_a_table_seats_members_in_order_and_funds_the_cups(scorekeeper, club, people):
    """Opening a table seats 3 to 5 members in the order given; each pays 20 into each cup."""
    dorte = factories.make_member(club, "Dorte")
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    data = {
        "seat_1": people["Carl"].pk,
        "seat_2": dorte.pk,
        "seat_3": people["Anna"].pk,
        "seat_4": people["Bo"].pk,
        "first_dealer": "2",
    }
    response = scorekeeper.post(url("table_new", pk=evening.pk), data)
    table = Table.objects.get()
    assert response["Location"] == url("table", pk=table.pk)
    assert [s.member.name for s in selectors.current_seats(table.pk)] == [
        "Carl",
        "Dorte",
        "Anna",
        "Bo",
    ]
    assert table.first_dealer == dorte
    assert selectors.pool_balances(table.pk) == {"kongekop": 80, "pagatkop": 80}


def test_open_a_table_refuses_two_seats_and_a_member_twice(scorekeeper, club, people):
    """A table of two, or one member in two seats, is refused and nothing is written."""
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    two = {"seat_1": people["Anna"].pk, "seat_2": people["Bo"].pk, "first_dealer": "1"}
    assert scorekeeper.post(url("table_new", pk=evening.pk), two).status_code == 422
    twice = dict(two, seat_3=people["Anna"].pk)
    response = scorekeeper.post(url("table_new", pk=evening.pk), twice)
    assert response.status_code == 422
    assert b"error-msg" in response.content
    assert Table.objects.count() == 0


def test_evening_screen_shows_every_table_and_polls(scorekeeper, club, people, evening_e):
    """The evening screen shows each table's cups and balances; htmx gets only the live part."""
    table, _hands = evening_e
    page = scorekeeper.get(url("evening", pk=table.evening_id)).content.decode()
    assert 'hx-trigger="every 5s"' in page
    assert points(page, "data-cup", "kongekop") == 65
    assert points(page, "data-cup", "pagatkop") == 75
    assert points(page, "data-member", "Anna") == 20
    assert points(page, "data-member", "Bo") == -75
    assert points(page, "data-member", "Carl") == -85
    live = scorekeeper.get(url("evening", pk=table.evening_id), headers={"HX-Request": "true"})
    assert live.status_code == 200
    assert b"<html" not in live.content
    assert b'id="evening-live"' in live.content


def test_evening_screen_costs_a_fixed_number_of_queries(
    scorekeeper, club, people, table, django_assert_max_num_queries
):
    """Polling the evening screen costs the same few queries for one table or four."""
    members = [factories.make_member(club, f"M{i}") for i in range(12)]
    for i in range(3):
        services.table_open(evening=table.evening, members=members[i * 4 : i * 4 + 4])
    with django_assert_max_num_queries(14):
        response = scorekeeper.get(
            url("evening", pk=table.evening_id), headers={"HX-Request": "true"}
        )
    assert response.content.count(b'class="table-card"') == 4


def test_table_screen_shows_balances_hands_and_next_dealer(scorekeeper, evening_e):
    """The table screen shows each balance, each hand's net and the rotation's next dealer."""
    table, hands = evening_e
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    assert points(page, "data-member", "Anna") == 20
    assert points(page, "data-member", "Bo") == -75
    assert points(page, "data-member", "Carl") == -85
    assert points(page, "data-cup", "kongekop") == 65
    assert points(page, "data-cup", "pagatkop") == 75
    assert 'data-next-dealer="Anna"' in page  # hand 4 of Anna, Bo, Carl from Anna
    rows = re.findall(r'<tr[^>]*data-hand="(\d)"[^>]*>(.*?)</tr>', page, re.S)
    nets = {int(n): [int(v) for v in re.findall(r'data-points="(-?\d+)"', row)] for n, row in rows}
    assert nets == {1: [-60, -20, 70], 2: [145, -75, -70], 3: [-25, 60, -45]}


def test_the_hand_list_names_every_payment(scorekeeper, evening_e):
    """Hand 1 (X1: no tout, nolo, ultimo or bagud) names the dealer's fee, the melds, the last
    trick and the count with their amounts, in the screen's Danish (issue 19)."""
    table, hands = evening_e
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    row = dict(re.findall(r'<tr[^>]*data-hand="(\d)"[^>]*>(.*?)</tr>', page, re.S))["1"]
    assert (
        "kortgiverafgift (Anna −10); tarokmelding (Bo +20); matadormelding (Carl +30); "
        "sidste stik (Carl +40); tælling (Carl +10)"
    ) in html.unescape(row)


def test_a_renamed_member_keeps_his_hands_on_the_table_screen(scorekeeper, people, evening_e):
    """After a rename the table screen names the member as he is called now and shows his
    nets, which the hands keep under the name he was seated with."""
    table, hands = evening_e
    services.member_update(member=people["Bo"], name="Bo Ærø")
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    header = found(r'<table[^>]*id="hands".*?</thead>', page, re.S).group(0)
    assert "Bo Ærø" in header
    rows = re.findall(r'<tr[^>]*data-hand="(\d)"[^>]*>(.*?)</tr>', page, re.S)
    nets = {int(n): [int(v) for v in re.findall(r'data-points="(-?\d+)"', row)] for n, row in rows}
    assert nets == {1: [-60, -20, 70], 2: [145, -75, -70], 3: [-25, 60, -45]}


def test_seat_a_late_arrival_and_let_a_member_leave(scorekeeper, club, people, table):
    """A late arrival is seated where chosen and pays funding; a member may leave."""
    dorte = factories.make_member(club, "Dorte")
    response = scorekeeper.post(url("table_seat", pk=table.pk), {"member": dorte.pk, "position": 1})
    assert response.status_code == 302
    assert [s.member.name for s in selectors.current_seats(table.pk)] == [
        "Anna",
        "Dorte",
        "Bo",
        "Carl",
    ]
    assert selectors.pool_balances(table.pk) == {"kongekop": 80, "pagatkop": 80}
    scorekeeper.post(url("table_leave", pk=table.pk), {"member": people["Bo"].pk})
    assert Seat.objects.get(table=table, member=people["Bo"]).left is True
    assert [s.member.name for s in selectors.current_seats(table.pk)] == ["Anna", "Dorte", "Carl"]


def test_a_late_arrival_has_a_dash_for_the_hands_before_he_sat(scorekeeper, club, evening_e):
    """Dorte sits down after Evening E's three hands: her column shows "–" (not seated) for
    hands 1 to 3, never a 0, and the others' nets are unchanged."""
    table, hands = evening_e
    services.table_seat(table=table, member=factories.make_member(club, "Dorte"), position=1)
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    rows = re.findall(r'<tr[^>]*data-hand="(\d)"[^>]*>(.*?)</tr>', page, re.S)
    assert len(rows) == 3
    for _number, row in rows:
        cells = re.findall(r'<td class="num">(.*?)</td>', row, re.S)
        assert cells[1] == '<span class="not-seated" data-points="absent">–</span>'
    nets = {int(n): [int(v) for v in re.findall(r'data-points="(-?\d+)"', row)] for n, row in rows}
    assert nets == {1: [-60, -20, 70], 2: [145, -75, -70], 3: [-25, 60, -45]}


def test_the_seat_form_marks_a_member_who_sits_at_another_open_table(
    scorekeeper, club, people, table
):
    """Erik sits at table 2 of the same evening: the seat form of table 1 offers him as "Erik
    (ved bord 2)" (the service would refuse him), and Dorte, seated nowhere, plainly."""
    names = ["Dorte", "Erik", "Finn", "Gitte"]
    dorte, erik, finn, gitte = (factories.make_member(club, name) for name in names)
    services.table_open(evening=table.evening, members=[erik, finn, gitte])
    page = html.unescape(scorekeeper.get(url("table", pk=table.pk)).content.decode())
    form = found(r'<select name="member"[^>]*>(.*?)</select>', page, re.S).group(1)
    options = re.findall(r'<option value="(\d+)"[^>]*>(.*?)</option>', form)
    assert (str(erik.pk), "Erik (ved bord 2)") in options
    assert (str(dorte.pk), "Dorte") in options


# --- entering hands ------------------------------------------------------------------------


def test_new_hand_form_suggests_the_rotation_and_a_fresh_token(scorekeeper, club, people):
    """The form names the dealer and sitters of the rotation from the table's first dealer."""
    dorte = factories.make_member(club, "Dorte")
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    members = [people["Anna"], people["Bo"], people["Carl"], dorte]
    table = services.table_open(evening=evening, members=members, first_dealer=people["Bo"])
    first = config_of(scorekeeper.get(url("hand_new", pk=table.pk)))
    second = config_of(scorekeeper.get(url("hand_new", pk=table.pk)))
    assert first["record"]["dealer"] == "Bo"
    assert first["record"]["sitting_out"] == ["Dorte"]
    assert first["number"] == 1
    assert str(uuid.UUID(first["token"], version=4)) == first["token"]
    assert first["token"] != second["token"]
    # Bo deals, Dorte sits out: Carl deals next and does not count.
    assert first["rotation"]["non_counter"]["Bo|Dorte"] == "Carl"


def test_hermansen_rotation_comes_from_the_evening_rate_card(scorekeeper, club, people):
    """A 5-seat table of a Hermansen club gets the Hermansen sitters in the form."""
    club.rate_card = {"five_seat_rotation": "hermansen"}
    club.save()
    extra = [factories.make_member(club, n) for n in ("Dorte", "Erik")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    members = [people["Anna"], people["Bo"], people["Carl"], *extra]
    table = services.table_open(evening=evening, members=members)
    config = config_of(scorekeeper.get(url("hand_new", pk=table.pk)))
    # The first block's sitter is the seat before the first dealer (Erik); Carl is opposite.
    assert config["record"]["dealer"] == "Anna"
    assert config["record"]["sitting_out"] == ["Carl", "Erik"]
    assert config["five_seat_rotation"] == "hermansen"
    assert config["rotation"]["defaults"]["Anna"] is None


def test_record_evening_e_through_the_form(scorekeeper, table):
    """Posting Evening E's three hands gives Anna +20, Bo -75, Carl -85 and cups 65/75."""
    for hand in E_HANDS:
        response = post_hand(scorekeeper, table, dict(hand, seats=["Anna", "Bo", "Carl"]))
        assert response.status_code == 302
        assert response["Location"] == url("table", pk=table.pk)
    assert selectors.table_balances(table.pk) == {
        "Anna": 20,
        "Bo": -75,
        "Carl": -85,
        "kongekop": 65,
        "pagatkop": 75,
    }
    assert list(table.hands.values_list("created_by__username", flat=True)) == ["test-anna"] * 3


def test_the_script_gets_json_when_saved(scorekeeper, table):
    """The tablet's script gets the table's address as JSON when the hand is saved."""
    response = post_hand(scorekeeper, table, E_HANDS[0], **{"X-Hand-Submit": "1"})
    assert response.status_code == 200
    assert response.json() == {"saved": True, "url": url("table", pk=table.pk), "number": 1}


def test_double_submit_with_one_token_records_one_hand(scorekeeper, table):
    """The same one-time token posted twice (a double tap, a retry) records the hand once."""
    token = str(uuid.uuid4())
    first = post_hand(scorekeeper, table, E_HANDS[0], token=token)
    second = post_hand(scorekeeper, table, E_HANDS[0], token=token, **{"X-Hand-Submit": "1"})
    assert first.status_code == 302
    assert second.json()["number"] == 1
    assert table.hands.count() == 1
    assert selectors.pool_balances(table.pk) == {"kongekop": 65, "pagatkop": 65}


def test_refused_hand_shows_the_message_beside_its_field(scorekeeper, table):
    """A count over 78 is refused: the engine's message sits by the count; nothing is saved."""
    english(scorekeeper)
    record = dict(E_HANDS[0], count={"Anna": 50, "Carl": 40})
    response = post_hand(scorekeeper, table, record)
    assert response.status_code == 422
    page = response.content.decode()
    errors = found(r'<div id="err-count"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "two counts cannot total more than 78, not 90" in errors
    assert re.search(r'<div id="err-last_trick"[^>]*></div>', page)
    assert 'class="hand-form attempted"' in page
    assert table.hands.count() == 0
    assert Posting.objects.filter(table=table).count() == 1  # the funding only


def test_refused_hand_to_the_script_is_the_feedback_with_every_section(scorekeeper, table):
    """The script gets the preview part and one out-of-band slot per section (clears old ones)."""
    english(scorekeeper)
    record = dict(E_HANDS[0], nolo=["Carl"])  # Carl won the last trick
    response = post_hand(scorekeeper, table, record, **{"X-Hand-Submit": "1"})
    assert response.status_code == 422
    page = response.content.decode()
    for section in ("general", "seating", "last_trick", "count", "extras", "reason"):
        assert f'id="err-{section}" class="field-errors" data-section="{section}" hx-swap-oob' in (
            page
        )
    trick = found(r'<div id="err-last_trick"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "Carl won no trick (nolo) and cannot win the last trick" in trick
    count = found(r'<div id="err-count"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "this hand is not counted" in count
    assert table.hands.count() == 0


def test_unreadable_record_is_refused(scorekeeper, table):
    """A record that is not a JSON object is refused and nothing is written."""
    response = scorekeeper.post(url("hand_new", pk=table.pk), {"record": "[1, 2"})
    assert response.status_code == 422
    assert b'id="err-general"' in response.content
    assert table.hands.count() == 0


@pytest.mark.parametrize("missing", ["number", "version"])
def test_a_save_without_its_slot_or_version_is_refused(scorekeeper, table, missing):
    """A save must say which slot and table version it was previewed against; without them
    a resend could record the hand twice, so it is refused, naming the field."""
    data = hand_post(table, E_HANDS[0])
    del data[missing]
    response = scorekeeper.post(url("hand_new", pk=table.pk), data)
    assert response.status_code == 422
    assert missing in response.content.decode()
    assert table.hands.count() == 0
    data[missing] = "12x"
    assert scorekeeper.post(url("hand_new", pk=table.pk), data).status_code == 422
    assert table.hands.count() == 0


def test_seats_changed_since_the_form_was_opened_are_refused(scorekeeper, club, table):
    """A hand built for the old seats is refused after a late arrival was seated."""
    services.table_seat(table=table, member=factories.make_member(club, "Dorte"))
    response = post_hand(scorekeeper, table, dict(E_HANDS[0], seats=["Anna", "Bo", "Carl"]))
    assert response.status_code == 422
    assert re.search(r'<div id="err-seating"[^>]*><p class="error-msg"', response.content.decode())
    assert table.hands.count() == 0


def test_preview_settles_without_writing(scorekeeper, table):
    """The preview shows X1's payments, nets and cups after, and writes nothing."""
    response = scorekeeper.post(
        url("hand_preview", pk=table.pk), {"record": json.dumps(E_HANDS[0])}
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert points(page, 'class="net" data-net', "Anna") == -60
    assert points(page, 'class="net" data-net', "Bo") == -20
    assert points(page, 'class="net" data-net', "Carl") == 70
    assert points(page, "data-cup-after", "kongekop") == 65
    assert points(page, "data-cup-after", "pagatkop") == 65
    # The payments by reason: the melds, then the last trick, then the count.
    assert payment_groups(page) == {
        "dealer_fee": [("Anna", "kongekop", 5), ("Anna", "pagatkop", 5)],
        "meld_tarok": [("Anna", "Bo", 10), ("Carl", "Bo", 10)],
        "meld_matador": [("Anna", "Carl", 15), ("Bo", "Carl", 15)],
        "last_trick": [("Anna", "Carl", 20), ("Bo", "Carl", 20)],
        "count": [("Anna", "Bo", 5), ("Bo", "Carl", 10)],
    }
    assert 'id="hand-summary" class="hand-summary" hx-swap-oob="true"' in page
    assert table.hands.count() == 0
    assert Posting.objects.filter(table=table).count() == 1


def test_preview_shows_problems_per_section(scorekeeper, table):
    """An incomplete hand's preview puts each problem beside its section."""
    english(scorekeeper)
    record = {"dealer": "Anna", "seats": ["Anna", "Bo", "Carl"], "sitting_out": []}
    page = scorekeeper.post(
        url("hand_preview", pk=table.pk), {"record": json.dumps(record)}
    ).content.decode()
    trick = found(r'<div id="err-last_trick"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "the last trick is required" in trick
    count = found(r'<div id="err-count"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "count of the two counting players is required" in count
    assert 'data-preview="refused"' in page


def test_closed_evening_refuses_entry(scorekeeper, people, evening_e):
    """After the evening is closed, no hand is entered, corrected or voided."""
    table, hands = evening_e
    services.evening_close(evening=table.evening, by=people["Carl"].user)
    assert scorekeeper.get(url("hand_new", pk=table.pk)).status_code == 302
    response = post_hand(scorekeeper, table, E_HANDS[0])
    assert response.status_code == 422
    assert b'<div id="err-general" class="field-errors" data-section="general"><p' in (
        response.content
    )
    assert scorekeeper.get(url("hand_correct", pk=hands[0].pk)).status_code == 302
    correction = {
        "record": json.dumps(E_HANDS[0]),
        "reason": "late",
        "base_revision": 1,
    }
    scorekeeper.post(url("hand_correct", pk=hands[0].pk), correction)
    scorekeeper.post(url("hand_void", pk=hands[1].pk), {"reason": "late"})
    assert table.hands.count() == 3
    assert HandRevision.objects.count() == 3
    assert Hand.objects.filter(status=Hand.Status.VOIDED).count() == 0
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    assert 'id="new-hand"' not in page


# --- corrections and voids -----------------------------------------------------------------


def _unwaived_hand_1():
    record = json.loads(json.dumps(E_HANDS[0]))
    record["fines"][0]["waived"] = False
    return record


def test_correction_resettles_later_hands_and_shows_what_changed(scorekeeper, evening_e):
    """Un-waiving Bo's fine in hand 1 adds 20 to each cup, so hand 2's ultimo takes 20 more.

    The table then lists hand 1 (Bo -20 -> -60) and hand 2 (Anna +145 -> +165) with their
    old and new nets, and hand 3 with only its cups changed.
    """
    table, hands = evening_e
    form = scorekeeper.get(url("hand_correct", pk=hands[0].pk))
    config = config_of(form)
    assert config["record"]["fines"][0]["waived"] is True
    assert config["mode"] == "correct"
    response = scorekeeper.post(
        url("hand_correct", pk=hands[0].pk),
        {"record": json.dumps(_unwaived_hand_1()), "reason": "fine not waived", "base_revision": 1},
    )
    assert response["Location"] == url("table", pk=table.pk)
    assert selectors.table_balances(table.pk) == {
        "Anna": 40,
        "Bo": -115,
        "Carl": -85,
        "kongekop": 65,
        "pagatkop": 95,
    }
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    changes = found(r'<section class="changes".*?</section>', page, re.S).group(0)
    items = dict(re.findall(r'<li data-changed-hand="(\d)">(.*?)</li>', changes, re.S))
    assert sorted(items) == ["1", "2", "3"]
    # Hand 3 settles to the same nets; only the cups it leaves differ (pagatkop 75 -> 95).
    assert "data-member" not in items["3"]
    assert 'data-cup="pagatkop" data-old="75" data-new="95"' in items["3"]
    assert 'data-member="Bo" data-old="-20" data-new="-60"' in changes
    assert 'data-member="Anna" data-old="145" data-new="165"' in changes
    # The panel shows once.
    again = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    assert 'class="changes"' not in again


def test_correction_needs_a_reason(scorekeeper, evening_e):
    """A correction without a reason is refused beside the reason; nothing changes."""
    table, hands = evening_e
    response = scorekeeper.post(
        url("hand_correct", pk=hands[0].pk),
        {"record": json.dumps(_unwaived_hand_1()), "reason": "", "base_revision": 1},
    )
    assert response.status_code == 422
    assert re.search(r'<div id="err-reason"[^>]*><p class="error-msg"', response.content.decode())
    assert hands[0].revisions.count() == 1
    assert selectors.table_balances(table.pk)["Bo"] == -75


def test_correction_posted_twice_is_stored_once(scorekeeper, evening_e):
    """A correction sent twice from the same form makes one revision."""
    table, hands = evening_e
    data = {"record": json.dumps(_unwaived_hand_1()), "reason": "not waived", "base_revision": 1}
    scorekeeper.post(url("hand_correct", pk=hands[0].pk), data)
    second = scorekeeper.post(
        url("hand_correct", pk=hands[0].pk), data, headers={"X-Hand-Submit": "1"}
    )
    assert second.json()["saved"] is True
    assert hands[0].revisions.count() == 2
    assert selectors.table_balances(table.pk)["Bo"] == -115


def test_stale_correction_is_refused(scorekeeper, people, evening_e):
    """A correction made from an older revision than the stored one is refused."""
    table, hands = evening_e
    services.hand_correct(
        hand=hands[0], record=_unwaived_hand_1(), reason="other tablet", by=people["Carl"].user
    )
    response = scorekeeper.post(
        url("hand_correct", pk=hands[0].pk),
        {"record": json.dumps(E_HANDS[0]), "reason": "mine", "base_revision": 1},
    )
    assert response.status_code == 422
    assert hands[0].revisions.count() == 2


def test_correction_preview_starts_from_the_hands_own_cups(scorekeeper, evening_e):
    """Previewing a correction of hand 2 settles it from the cups hand 1 left (65/65)."""
    table, hands = evening_e
    response = scorekeeper.post(
        url("hand_correct_preview", pk=hands[1].pk), {"record": json.dumps(E_HANDS[1])}
    )
    page = response.content.decode()
    assert points(page, 'class="net" data-net', "Anna") == 145
    assert points(page, "data-cup-after", "kongekop") == 60
    assert points(page, "data-cup-after", "pagatkop") == 70


def test_void_resettles_later_hands(scorekeeper, evening_e):
    """Voiding hand 2 re-settles hand 3 from hand 1's cups; the table shows the void."""
    table, hands = evening_e
    response = scorekeeper.post(url("hand_void", pk=hands[1].pk), {"reason": "entered twice"})
    assert response["Location"] == url("table", pk=table.pk)
    assert selectors.table_balances(table.pk) == {
        "Anna": -125,
        "Bo": 0,
        "Carl": -15,
        "kongekop": 70,
        "pagatkop": 70,
    }
    page = scorekeeper.get(url("table", pk=table.pk)).content.decode()
    assert 'data-changed-hand="2"' in page
    assert 'data-member="Anna" data-old="145" data-new="0"' in page
    assert re.search(r'<tr[^>]*data-hand="2"[^>]*class="voided', page)
    assert 'data-next-dealer="Anna"' in page  # hand 4: the voided hand was dealt too


def test_void_needs_a_reason(scorekeeper, evening_e):
    """Voiding without a reason changes nothing."""
    table, hands = evening_e
    scorekeeper.post(url("hand_void", pk=hands[1].pk), {"reason": "  "})
    assert Hand.objects.get(pk=hands[1].pk).status == Hand.Status.RECORDED


def test_hand_page_lists_every_revision(scorekeeper, people, evening_e):
    """A hand's page shows who recorded and corrected it, when and why."""
    table, hands = evening_e
    scorekeeper.post(
        url("hand_correct", pk=hands[0].pk),
        {"record": json.dumps(_unwaived_hand_1()), "reason": "fine not waived", "base_revision": 1},
    )
    page = scorekeeper.get(url("hand", pk=hands[0].pk)).content.decode()
    revisions = found(r'<table[^>]*id="revisions".*?</table>', page, re.S).group(0)
    assert re.findall(r'data-action="(\w+)"', revisions) == ["record", "correct"]
    assert "fine not waived" in revisions
    assert "test-anna" in revisions
    # The live settlement: Bo now pays the fine into both cups.
    assert points(page, 'class="net" data-net', "Bo") == -60


def test_voided_hand_page_says_so_and_offers_no_correction(scorekeeper, evening_e):
    """A voided hand shows as voided, with its void revision, and cannot be corrected."""
    table, hands = evening_e
    scorekeeper.post(url("hand_void", pk=hands[2].pk), {"reason": "wrong table"})
    page = scorekeeper.get(url("hand", pk=hands[2].pk)).content.decode()
    assert 'id="hand-voided"' in page
    assert 'id="correct-hand"' not in page
    assert 'data-action="void"' in page
    assert scorekeeper.get(url("hand_correct", pk=hands[2].pk)).status_code == 302


def test_seating_form_marks_members_at_another_open_table(client):
    """A member already seated at an open table of the evening is marked in the seating
    form with his table, and seating him again is refused with his name."""
    club = factories.make_club(slug="mk")
    user = factories.make_member(club, "Zoe", Member.Role.SCOREKEEPER, login=True).user
    names = ["Anna", "Bo", "Carl", "Dorte"]
    members = [factories.make_member(club, n) for n in names]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    services.table_open(evening=evening, members=members[:3])
    client.force_login(user)
    page = client.get(reverse("table_new", kwargs={"club": "mk", "pk": evening.pk}))
    html = page.content.decode()
    assert "Anna (ved bord 1)" in html
    assert "Dorte (ved bord" not in html
    data = {"seat_1": members[0].pk, "seat_2": members[3].pk, "seat_3": members[1].pk}
    data["first_dealer"] = 1
    response = client.post(reverse("table_new", kwargs={"club": "mk", "pk": evening.pk}), data)
    assert response.status_code == 422
    assert "Anna, Bo" in response.content.decode()
    assert evening.tables.count() == 1


# --- the preview tells the story (the spec's worked examples) ------------------------------


def payment_groups(page: str) -> dict:
    """Return the preview's payments by reason: {reason: [(from, to, points), ...]}."""
    groups = {}
    for reason, body in re.findall(
        r'<li class="pay-group" data-reason="(\w+)".*?>(.*?)</ul>', page, re.S
    ):
        groups[reason] = [
            (a, b, int(n))
            for a, b, n in re.findall(
                r'class="move" data-from="(\w+)" data-to="(\w+)" data-points="(\d+)"', body
            )
        ]
    return groups


def story(page: str) -> list[str]:
    block = re.search(r"<ul class=\"story\" data-story>(.*?)</ul>", page, re.S)
    assert block, "no story in the preview"
    return [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", block.group(1))]


def example_table(club, people, name):
    """A table of the example's seats whose cups stand as the example's before the hand."""
    record = load_example(f"{name}.hand.json")
    members = dict(people)
    for seat in record["seats"]:
        if seat not in members:
            members[seat] = factories.make_member(club, seat)
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=[members[s] for s in record["seats"]])
    funded = 20 * len(record["seats"])
    first = record["seats"][0]
    for cup, wanted in record.pop("cups_before").items():
        if wanted > funded:
            services.adjustment_post(
                table=table, source=first, target=cup, points=wanted - funded, reason="test"
            )
        elif wanted < funded:
            services.adjustment_post(
                table=table, source=cup, target=first, points=funded - wanted, reason="test"
            )
    return table, record


def preview_of(client, club, people, name) -> str:
    table, record = example_table(club, people, name)
    response = client.post(url("hand_preview", pk=table.pk), {"record": json.dumps(record)})
    assert response.status_code == 200
    page = response.content.decode()
    expected = load_example(f"{name}.expected.json")
    for member, value in expected["net"].items():
        assert points(page, "data-net", member) == value, member
    for cup, value in expected["cups_after"].items():
        assert points(page, "data-cup-after", cup) == value, cup
    return page


def test_story_of_x1_last_trick_and_count(scorekeeper, club, people):
    page = preview_of(scorekeeper, club, people, "X1")
    assert story(page) == [
        "Sidste stik: Carl får 20 fra hver",
        "Tælling: Anna 20 (−5), Carl 35 (+10) · Bo tæller ikke",
    ]


def test_story_of_x3_bagud(scorekeeper, club, people):
    page = preview_of(scorekeeper, club, people, "X3")
    assert story(page) == [
        "Bagud: Anna (konge) betaler 40 til hver og 125 i kongekop",
        "Tælling: Dorte 24 (0), Carl 38 (+10) · Anna tæller ikke",
    ]
    groups = payment_groups(page)
    assert groups["bagud"] == [("Anna", "Carl", 40), ("Anna", "Dorte", 40)]
    assert groups["bagud_cup"] == [("Anna", "kongekop", 125)]
    assert groups["pagat_home"] == [("Carl", "Anna", 5), ("Dorte", "Anna", 5)]


def test_story_of_x4_nolo(scorekeeper, club, people):
    page = preview_of(scorekeeper, club, people, "X4")
    assert story(page) == ["Nolo: Anna får 25 fra hver"]
    groups = payment_groups(page)
    assert groups["nolo"] == [("Bo", "Anna", 25), ("Dorte", "Anna", 25)]
    assert groups["lost_pagat"] == [
        ("Dorte", "Anna", 5),
        ("Dorte", "Bo", 5),
        ("Dorte", "pagatkop", 5),
    ]
    assert "count" not in groups


def test_story_of_x5_barred_winner(scorekeeper, club, people):
    page = preview_of(scorekeeper, club, people, "X5")
    assert story(page) == [
        "Sidste stik: Carl vandt med konge, men er spærret af en bøde: ingen ultimo, "
        "intet sidste stik",
        "Tælling: Bo 26 (0), Anna 21 (−5) · Carl tæller ikke",
    ]
    groups = payment_groups(page)
    assert groups["fine_revoke"] == [("Carl", "kongekop", 40), ("Carl", "pagatkop", 40)]
    assert groups["fine_lead_out_of_turn"] == [("Anna", "kongekop", 20), ("Anna", "pagatkop", 20)]


def test_story_of_x6_tout_takes_both_cups(scorekeeper, club, people):
    page = preview_of(scorekeeper, club, people, "X6")
    assert story(page)[0] == (
        "Tout: Dorte tager begge kopper (240) og 80 fra hver · genopfyldning 20 × 5 i hver kop"
    )
    groups = payment_groups(page)
    assert groups["tout_cup"] == [("kongekop", "Dorte", 135), ("pagatkop", "Dorte", 105)]
    assert groups["tout"] == [("Bo", "Dorte", 80), ("Carl", "Dorte", 80)]
    assert len(groups["refund"]) == 10


def test_story_of_x7_pagat_ultimo_is_told_gross(scorekeeper, club, people):
    """Bo takes the pagatkop of 75 whole; the 20 x 4 refunding is told beside it, not netted."""
    page = preview_of(scorekeeper, club, people, "X7")
    assert story(page) == [
        "Pagat-ultimo: Bo tager pagatkoppen (75) og 45 fra hver · genopfyldning 20 × 4",
        "Tælling: Carl 22 (−5), Bo 30 (+5) · Dorte tæller ikke",
    ]
    groups = payment_groups(page)
    assert groups["ultimo_cup"] == [("pagatkop", "Bo", 75)]
    assert groups["ultimo"] == [("Carl", "Bo", 45), ("Dorte", "Bo", 45)]
    assert groups["refund"] == [
        ("Anna", "pagatkop", 20),
        ("Bo", "pagatkop", 20),
        ("Carl", "pagatkop", 20),
        ("Dorte", "pagatkop", 20),
    ]
    assert list(groups) == ["dealer_fee", "lost_king", "ultimo_cup", "ultimo", "count", "refund"]


def test_service_worker_is_served_from_the_root(client):
    """The tablet's service worker comes from /sw.js as JavaScript, allowed the whole site."""
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("fetch"' in response.content
