"""The shared screens speak each game (issue 20, part 4): the treasurer's screen, the close,
the evening sheet and the open-table page take their words from the game (``GameWeb.words``
and ``GameWeb.close_columns``), so a game without cups never reads of cups, a Hungarian
table has no pool column anywhere, and the Slovenian close shows each member's radelc
penalty, then his share of the pool, then his result (``SL_EVENING`` of the spec)."""

from __future__ import annotations

import datetime
import html as htmllib
import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import reports, services
from ledger.games.money import MINUS
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import english, found, login, pdf_text

pytestmark = pytest.mark.django_db

NAMES = ("Anna", "Bo", "Carl", "Dorte")
# Danish and English cup wording no other game may show.
CUP_WORDS = re.compile(r"kop(per|perne|pen)?\b|\bcups?\b|Møller", re.IGNORECASE)


def visible(html: str) -> str:
    """Return a page's visible text: no script, style or tags, spaces collapsed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def signed(points: int) -> str:
    return f"+{points}" if points > 0 else f"{MINUS}{-points}" if points < 0 else "0"


def open_table(game: str, slug: str, *, first: str = "Anna"):
    club = factories.make_club(slug=slug, name=f"Club {slug}", game=game)
    members = {
        name: factories.make_member(
            club, name, Member.Role.TREASURER if name == "Anna" else Member.Role.MEMBER, login=True
        )
        for name in NAMES
    }
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(
        evening=evening, members=list(members.values()), first_dealer=members[first]
    )
    return club, evening, table, members


def slovenian_evening():
    """The spec's Slovenian evening, recorded and closed."""
    club, evening, table, members = open_table("slovenian_tarok", "sl")
    for hand in load_example("SL_EVENING.evening.json")["hands"]:
        hand = {k: v for k, v in hand.items() if k != "radli_before"}
        services.hand_record(table=table, record={"game": "slovenian_tarok", **hand})
    services.evening_close(evening=evening, confirm_differences=True)
    return club, evening, table, members


def hungarian_evening(*, close: bool = True):
    club, evening, table, members = open_table("hungarian_tarokk", "hu", first="Dorte")
    services.hand_record(table=table, record=load_example("HU1.hand.json"))
    if close:
        services.evening_close(evening=evening)
    return club, evening, table, members


def page(client, member, name, evening, **kwargs):
    login(english(client), member)
    url = reverse(name, kwargs={"club": evening.club.slug, "pk": evening.pk, **kwargs})
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def settlement_rows(html: str) -> dict[str, list[str]]:
    """Return the settlement table's header and each member's row, as cell texts."""
    table = found(r'<table[^>]*id="settlement".*?</table>', html, re.S).group(0)
    rows = {}
    for row in re.findall(r"<tr.*?</tr>", table, re.S):
        cells = [visible(c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        if cells:
            rows[cells[0]] = cells[1:]
    return rows


# --- the Slovenian close -------------------------------------------------------------------


def test_the_slovenian_close_shows_the_radelc_penalty_then_the_split_then_the_result(client):
    """Each member's score from the hands, his radelc penalty (100 per radelc open at the
    close), his share of the pool and his result: the spec's SL_EVENING, line by line."""
    expected = load_example("SL_EVENING.expected.json")
    _club, evening, _table, members = slovenian_evening()
    rows = settlement_rows(page(client, members["Anna"], "evening_sheet", evening))
    assert rows["Member"] == [
        "From the hands",
        "Radelc penalty",
        "Share of the pool",
        "Result",
        "Money",
    ]
    for name in NAMES:
        radli = expected["radli_at_close"][name]
        before = expected["before_split"][name]  # the spec's: the hands less the penalties
        final = expected["final"][name]
        assert rows[name][:4] == [
            signed(before + 100 * radli),
            signed(-100 * radli),
            signed(final - before),
            signed(final),
        ], name
    assert rows["Anna"][:4] == ["−5", "−100", "+115", "+10"]
    assert rows["Dorte"][:4] == ["−75", "−200", "+125", "−150"]
    html = page(client, members["Anna"], "evening_sheet", evening)
    close_row = found(r'<tr[^>]*data-kind="split".*?</tr>', html, re.S).group(0)
    assert visible(close_row).split()[0] == "Close"


def test_the_slovenian_treasurer_and_pdf_show_the_same_lines(client):
    """The treasurer's screen of the closed evening and the evening sheet's PDF have the
    same columns; the score sheet's close row names the penalties and the shares."""
    _club, evening, _table, members = slovenian_evening()
    rows = settlement_rows(page(client, members["Anna"], "evening_treasury", evening))
    assert rows["Anna"][:4] == ["−5", "−100", "+115", "+10"]
    with translation.override("en"):
        _, _, content = reports.evening_sheet_pdf(evening=evening)
    _, text = pdf_text(content)
    assert "From the hands Radelc penalty Share of the pool Result" in text
    flat = " ".join(text.split())
    assert "Radelc penalty: Anna −100, Bo −100, Carl −100, Dorte −200" in flat.replace("-", "−")
    assert "Share of the pool: Anna +115, Bo +115, Carl +115, Dorte +125" in flat


def test_the_slovenian_close_says_what_it_does_before_closing(client):
    """Before the close the treasurer reads the Slovenian close, not the Danish cups."""
    _club, evening, _table, members = open_table("slovenian_tarok", "sl")
    text = visible(page(client, members["Anna"], "evening_treasury", evening))
    assert "charges each member's open radelci to the pool" in text
    assert not CUP_WORDS.search(text), CUP_WORDS.search(text)


# --- Hungarian: no pool anywhere -----------------------------------------------------------


def test_a_closed_hungarian_settlement_has_no_pool_column(client):
    """The close moves nothing: the settlement is the result and the money, no share of
    any pool, on the sheet, the treasurer's screen and the PDF."""
    _club, evening, _table, members = hungarian_evening()
    for name in ("evening_sheet", "evening_treasury"):
        html = page(client, members["Anna"], name, evening)
        rows = settlement_rows(html)
        assert rows["Member"] == ["Result", "Money"], name
        assert rows["Anna"][0] == "+3"
        text = visible(html)
        assert not CUP_WORDS.search(text), (name, CUP_WORDS.search(text))
        assert "pool" not in text.lower() and "split" not in text.lower(), name
    with translation.override("en"):
        _, _, content = reports.evening_sheet_pdf(evening=evening)
    _, text = pdf_text(content)
    assert "Member Result Money" in text
    assert "pool" not in text.lower() and "share of" not in text.lower()


def test_an_open_hungarian_evening_reads_without_cups_in_danish(client):
    """The Danish reader of a Hungarian club's open evening: no cups, no split."""
    _club, evening, table, members = hungarian_evening(close=False)
    login(client, members["Anna"])
    pages: tuple[tuple[str, dict[str, int]], ...] = (
        ("evening_treasury", {}),
        ("evening_sheet", {}),
    )
    for name, kwargs in pages:
        url = reverse(name, kwargs={"club": evening.club.slug, "pk": evening.pk, **kwargs})
        text = visible(client.get(url, headers={"accept-language": "da"}).content.decode())
        assert "Lukning" in text or "Balancer" in text or "Stilling" in text or "Aften" in text
        assert not CUP_WORDS.search(text), (name, CUP_WORDS.search(text))
        assert "deling" not in text.lower() and "pulje" not in text.lower(), name


# --- the open-table page -------------------------------------------------------------------


@pytest.mark.parametrize(
    "game,said",
    [
        ("danish_tarok", "Each pays the funding into both cups."),
        ("slovenian_tarok", "Nobody pays to open the table"),
        ("hungarian_tarokk", "Nobody pays to open the table"),
    ],
)
def test_the_open_table_page_says_what_the_game_asks(client, game, said):
    """Only a Danish table funds cups when it opens."""
    club = factories.make_club(slug="g", game=game)
    anna = factories.make_member(club, "Anna", Member.Role.SCOREKEEPER, login=True)
    for name in NAMES[1:]:
        factories.make_member(club, name)
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    text = visible(page(client, anna, "table_new", evening))
    assert said in text
    if game != "danish_tarok":
        assert not CUP_WORDS.search(text), CUP_WORDS.search(text)


def test_the_danish_close_keeps_its_cups(client):
    """Danish Tarok keeps its words: the share of the cups beside the balance before the split."""
    club = factories.make_club(slug="dk", name="Hjørring Tarokklub")
    anna = factories.make_member(club, "Anna", Member.Role.TREASURER, login=True)
    evening, _table, _hands = factories.evening_e(club)
    services.evening_close(evening=evening)
    rows = settlement_rows(page(client, anna, "evening_sheet", evening))
    assert rows["Member"] == ["Before the split", "Share of the cups", "Result", "Money"]
    assert rows["Anna"][:3] == ["+20", "+45", "+65"]


# --- the preview names a pool by its label ---------------------------------------------------


@pytest.mark.parametrize("language,pool", [("da", "Pulje"), ("en", "Pool")])
def test_the_preview_names_the_pool_by_its_label(client, language, pool):
    """SL1 in the preview: "Pulje → Anna" (the pool's label in the reader's language), never
    the account's code ("pool → Anna"), in the groups and in every payment."""
    club, _evening, table, members = open_table("slovenian_tarok", "sl", first="Dorte")
    login(client, members["Anna"])
    client.cookies["django_language"] = language
    record = {k: v for k, v in load_example("SL1.hand.json").items() if k != "radli_before"}
    response = client.post(
        reverse("hand_preview", kwargs={"club": club.slug, "pk": table.pk}),
        {"record": json.dumps(record)},
    )
    text = visible(response.content.decode())
    assert f"{pool} → Anna" in text, text
    assert "pool →" not in text and "→ pool" not in text
