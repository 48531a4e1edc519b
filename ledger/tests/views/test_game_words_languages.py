"""A game's own terms read in the game's language in every interface language (issue 20,
part 2): the Slovenian contracts, bonuses and kontra levels of section 16 of
slovenian-tarok.md and the Hungarian bids and figures of the name column of
hungarian-tarokk.md, on the entry form (its buttons and the script's labels), the hand list
and the preview, in English, Danish, Slovenian and Hungarian; the words around them
(buttons, help) follow the reader's language."""

from __future__ import annotations

import datetime
import html as htmllib
import json
import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Member
from ledger.tests import factories
from ledger.tests.conftest import load_example
from ledger.tests.helpers import config_of, login

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "da", "sl", "hu")
# slovenian-tarok.md section 16.
SLOVENIAN_CONTRACTS = {
    "klop": "Klop",
    "three": "Tri",
    "two": "Dva",
    "one": "Ena",
    "solo_three": "Solo tri",
    "solo_two": "Solo dva",
    "solo_one": "Solo ena",
    "beggar": "Berač",
    "solo_without": "Solo brez",
    "open_beggar": "Odprti berač",
    "colour_valat": "Barvni valat",
    "valat": "Valat",
}
SLOVENIAN_BONUSES = {
    "trula": "Trula",
    "kings": "Kralji",
    "pagat_ultimo": "Pagat ultimo",
    "king_ultimo": "Kralj ultimo",
    "valat": "Valat",
}
SLOVENIAN_KONTRA = ["Kontra", "Re", "Sub", "Mort"]
# hungarian-tarokk.md, the name column of sections 2 and 5.
HUNGARIAN_BIDS = {"harom": "Három", "ketto": "Kettő", "egy": "Egy", "solo": "Solo"}
HUNGARIAN_FIGURES = {
    "dupla": "Dupla játék",
    "volat": "Volát",
    "trull": "Tulétroá",
    "four_kings": "Négy király",
    "pagat_ultimo": "Pagát ultimó",
    "xxi_catch": "XXI-fogás",
    "centrum": "Centrum",
    "kismadar": "Kismadár",
    "nagymadar": "Nagymadár",
    "king_ultimo": "Király ultimó",
    "pagat_uhu": "Pagát uhu",
    "king_uhu": "Király uhu",
}
# The game's terms as another language would put them: never on a screen.
TRANSLATED = re.compile(
    r"Tiggeren|Tigger\b|Solo uden|Åben tigger|Farvevalat|Fire konger|Konger\b|"
    r"Beggar|Solo without|Open beggar|Colou?r valat|Four kings|"
    r"Berac\b|Negy kiraly|Pagat ultimo\b(?=.*Pagát)",
)
# The surrounding words, in the reader's language: the entry form's save button.
SAVE = {"en": "Save", "da": "Gem", "sl": "Shrani", "hu": "Mentés"}


@pytest.fixture(autouse=True)
def _four_languages(settings):
    """Offer the four interface languages (the catalogues are complete)."""
    settings.LANGUAGES = [
        ("da", "Dansk"),
        ("en", "English"),
        ("sl", "Slovenščina"),
        ("hu", "Magyar"),
    ]


def visible(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", htmllib.unescape(re.sub(r"<[^>]+>", " ", html)))


def make_table(game: str, *, first: str):
    club = factories.make_club(slug=game[:2], name=f"Club {game}", game=game)
    members = {
        n: factories.make_member(
            club, n, Member.Role.SCOREKEEPER if n == "Anna" else Member.Role.MEMBER, login=True
        )
        for n in ("Anna", "Bo", "Carl", "Dorte")
    }
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(
        evening=evening, members=list(members.values()), first_dealer=members[first]
    )
    return club, table, members


def get(client, name, language, **kwargs):
    client.cookies["django_language"] = language
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200
    return response


def labels_of(html: str, attribute: str) -> dict[str, str]:
    """Return each button's text by its ``data-<attribute>`` (its <small> value left out)."""
    found = {}
    for code, inner in re.findall(
        rf'<label class="choice[^"]*" data-{attribute}="([^"]+)">(.*?)</label>', html, re.S
    ):
        inner = re.sub(r"<small>.*?</small>", "", inner, flags=re.S)
        found[code] = visible(inner).strip()
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_slovenian_entry_form_says_the_games_words_in_every_language(client, language):
    """Every contract button, bonus line and kontra level in Slovenian; the save button in
    the reader's language."""
    club, table, members = make_table("slovenian_tarok", first="Dorte")
    login(client, members["Anna"])
    response = get(client, "hand_new", language, club=club.slug, pk=table.pk)
    html = response.content.decode()
    assert labels_of(html, "contract") == SLOVENIAN_CONTRACTS
    names = re.findall(r'<span class="sl-bonus-name">(.*?)</span>', html)
    assert names == list(SLOVENIAN_BONUSES.values())
    text = visible(html)
    assert not TRANSLATED.search(text), TRANSLATED.search(text)
    assert SAVE[language] in text
    config = config_of(response)
    assert not TRANSLATED.search(json.dumps(config, ensure_ascii=False))
    assert all(k in html for k in SLOVENIAN_KONTRA)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hungarian_entry_form_says_the_games_words_in_every_language(client, language):
    """Every bid and every "+ figure" button in Hungarian ("+ Négy király", never "+ Fire
    konger"), the figures' labels of the script too."""
    club, table, members = make_table("hungarian_tarokk", first="Dorte")
    login(client, members["Anna"])
    response = get(client, "hand_new", language, club=club.slug, pk=table.pk)
    html = response.content.decode()
    assert labels_of(html, "bid") == HUNGARIAN_BIDS
    buttons = dict(re.findall(r'data-figure="([a-z_0-9]+)">\+ (.*?)</button>', html))
    assert buttons == HUNGARIAN_FIGURES
    assert config_of(response)["labels"]["figures"] == HUNGARIAN_FIGURES
    text = visible(html)
    assert not TRANSLATED.search(text), TRANSLATED.search(text)
    assert SAVE[language] in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hand_list_and_the_preview_keep_the_slovenian_words(client, language):
    """SL2 and SL5 recorded: the table's hand list and the preview name the contract and
    the valat in Slovenian, whatever the reader's language."""
    club, table, members = make_table("slovenian_tarok", first="Dorte")
    for name in ("SL2.hand.json", "SL5.hand.json"):
        record = {k: v for k, v in load_example(name).items() if k != "radli_before"}
        if len(record["seats"]) == 4:
            services.hand_record(table=table, record=record)
    login(client, members["Anna"])
    text = visible(get(client, "table", language, club=club.slug, pk=table.pk).content.decode())
    assert "Solo dva: Bo" in text, text[:3000]
    assert not TRANSLATED.search(text), TRANSLATED.search(text)
    record = {k: v for k, v in load_example("SL3.hand.json").items() if k != "radli_before"}
    client.cookies["django_language"] = language
    preview = client.post(
        reverse("hand_preview", kwargs={"club": club.slug, "pk": table.pk}),
        {"record": json.dumps(record)},
    )
    text = visible(preview.content.decode())
    assert "Ena" in text and "Trula" in text, text[:600]
    assert not TRANSLATED.search(text), TRANSLATED.search(text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hungarian_hand_list_keeps_the_hungarian_words(client, language):
    """HU2 recorded: the hand list names the bid and the figures in Hungarian."""
    club, table, members = make_table("hungarian_tarokk", first="Anna")
    services.hand_record(table=table, record=load_example("HU2.hand.json"))
    login(client, members["Anna"])
    text = visible(get(client, "table", language, club=club.slug, pk=table.pk).content.decode())
    assert "Solo" in text and "Pagát ultimó" in text, text[:800]
    assert not TRANSLATED.search(text), TRANSLATED.search(text)


RAW = re.compile(
    r"\b(?:harom|ketto|four_kings|pagat_ultimo|xxi_catch|king_ultimo|pagat_uhu|king_uhu|"
    r"solo_without|open_beggar|colour_valat|solo_three|solo_two|solo_one|beggar|trula|"
    r"tarokk_claim|declarer_side)\b"
)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "game,example,first,word",
    [
        ("hungarian_tarokk", "HU2.hand.json", "Anna", "Pagát ultimó"),
        ("hungarian_tarokk", "HU5.hand.json", "Dorte", "Kettő"),
        ("slovenian_tarok", "SL3.hand.json", "Bo", "Trula"),
        ("slovenian_tarok", "SL2.hand.json", "Anna", "Solo dva"),
    ],
)
def test_a_hands_page_shows_no_code(client, language, game, example, first, word):
    """A recorded hand's page (its record in lines, what happened, its payments) names the
    bid, contract, figures and bonuses by the game's words, never by their codes."""
    club, table, members = make_table(game, first=first)
    record = {k: v for k, v in load_example(example).items() if k != "radli_before"}
    result = services.hand_record(table=table, record=record)
    hand = getattr(result, "hand", result)
    login(client, members["Anna"])
    text = visible(get(client, "hand", language, club=club.slug, pk=hand.pk).content.decode())
    assert word in text, text[:1500]
    assert not RAW.search(text), RAW.search(text)
    assert not TRANSLATED.search(text), TRANSLATED.search(text)
