"""A crawl of every GET page of the authorization matrix, over the three demo clubs, in each of
the four languages, as the club's admin (issue 20, part 5).

Each (club, language) is one test that reads every HTML page of the matrix (each page naming
an evening both for the open evening and a closed one) with the admin's own language set on
his profile, and the three public pages (the results published) as a visitor whose language
is the switch's cookie, and fails on

- a word of another language's list in the page's visible text: a few distinctive interface
  words per language (the game's own words, legitimately in the game's language, and the demo's
  member and club names are not on the lists);
- a raw ``snake_case`` key in the visible text (a message id or a record's field shown as is);
- a negative number written with the ASCII hyphen instead of the true minus (U+2212);
- a word of its own list never seen in the whole crawl (the lists are the pages' real words).

The visible text is the page without its scripts, styles, comments, tags and attributes, plus
the attributes a reader sees (title, placeholder, aria-label, alt). The
PDFs and the table's JSON state are not HTML and are skipped here (the PDFs' words are tested in
``test_reports.py`` and ``test_kept_pdfs.py``). The demo is loaded once for the module's class.
"""

from __future__ import annotations

import dataclasses
import html as htmllib
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from ledger.games.danish import demo as danish_demo
from ledger.games.hungarian import demo as hungarian_demo
from ledger.games.slovenian import demo as slovenian_demo
from ledger.models import (
    Club,
    Evening,
    Hand,
    Member,
    Profile,
    Round,
    Season,
    Series,
    Table,
    Tournament,
)
from ledger.tests.helpers import MATRIX, club_cup, drawn_tournament, kwargs_for, published_round
from ledger.tournaments.engine.rules import Params

pytestmark = pytest.mark.django_db

LANGUAGES = ("da", "sl", "hu", "en")
CLUBS = {
    danish_demo.DEMO_SLUG: danish_demo.DEMO_USERS,
    slovenian_demo.DEMO_SLUG: slovenian_demo.DEMO_USERS,
    hungarian_demo.DEMO_SLUG: hungarian_demo.DEMO_USERS,
}
# Distinctive interface words of each language, from its catalogue (Treasurer, Standings,
# Members, Season, Save, evenings, Next or House rules, Evenings): none is a game's word or a name.
WORDS = {
    "da": ("Kasserer", "Stilling", "Medlemmer", "Sæson", "Gem", "aftener", "Næste", "Aftener"),
    "sl": ("Blagajnik", "Lestvica", "Člani", "Sezona", "Shrani", "večerov", "Naslednja", "Večeri"),
    "hu": ("Pénztáros", "Tabella", "Tagok", "Szezon", "Mentés", "esték", "Házszabályok", "Esték"),
    "en": ("Treasurer", "Standings", "Members", "Season", "Save", "evenings", "Next", "Evenings"),
}
# The pages of the matrix a GET answers with HTML (the rest: PDFs and JSON).
NOT_HTML = {
    "standings_pdf",
    "series_ladder_pdf",
    "member_season_pdf",
    "evening_sheet_pdf",
    "table_sheet_pdf",
    "setup_invitations_pdf",
    "table_state",
    "tournament_ranking_pdf",
    "tournament_results_file",
    "tournament_round_pdf",
    "tournament_round_cards_pdf",
    "tournament_round_result_pdf",
    "tournament_round_table_sheet_pdf",
    "whatif_pdf",
    "my_data",
    "my_data_pdf",
}
# The pages that name an evening (or its table, hand or treasury), crawled for both evenings.
OF_AN_EVENING = {"evening", "evening_wall", "evening_sheet", "evening_treasury", "whatif"}
PAGES = sorted(n for n, (get, _post) in MATRIX.items() if get is not None and n not in NOT_HTML)

INVISIBLE = re.compile(
    r"<script\b.*?</script>|<style\b.*?</style>|<template\b.*?</template>|<!--.*?-->",
    re.DOTALL | re.IGNORECASE,
)
TAG = re.compile(r"<[^>]*>")
# A negative number written with the ASCII hyphen, not the true minus (U+2212).
ASCII_MINUS = re.compile(r"(?<![\w\-/.:])-\d[\d.,]*")
SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
# snake_case a page may show: the tournament parameters, which the director types as JSON
# keys on the create form ({"rounds": 3, "time_limit_min": 80}; the engine's own names).
SNAKE_ALLOWED: set[str] = {f.name for f in dataclasses.fields(Params)}


SHOWN_ATTRIBUTE = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"')


# Machine strings a page shows as code (an upload token's first letters, which may read
# "-0…"): not words of a language, not numbers.
CODE = re.compile(r"<code\b.*?</code>", re.DOTALL | re.IGNORECASE)


def visible_text(content: str) -> str:
    """Return the text a reader sees: no scripts, styles, comments, tags or attributes, and
    no machine strings shown as code."""
    return htmllib.unescape(TAG.sub(" ", CODE.sub(" ", INVISIBLE.sub(" ", content))))


def shown_attributes(content: str) -> str:
    """Return the attributes a reader sees too (tooltips, placeholders, screen-reader labels)."""
    return htmllib.unescape(" ".join(SHOWN_ATTRIBUTE.findall(INVISIBLE.sub(" ", content))))


def has_word(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None


def wrong_words(text: str, language: str) -> list[str]:
    """Return the words of the other languages' lists found in ``text``."""
    found = []
    for other, words in WORDS.items():
        if other != language:
            for word in words:
                if has_word(text, word):
                    found.append(f"{other}:{word}")
    return found


def snake_keys(text: str) -> list[str]:
    return sorted(set(SNAKE.findall(text)) - SNAKE_ALLOWED)


def world_of(slug: str) -> dict:
    """Return the objects the matrix's URLs name, in the demo club ``slug`` (as ``kwargs_for``
    expects them): its open evening, a table and hand of it, a member, the season."""
    club = Club.objects.get(slug=slug)
    # The demo tournament (demo-sl has one), else a drawn one made for the crawl.
    tournament = Tournament.objects.filter(club=club).order_by("pk").first()
    if tournament is None:
        tournament, _ = drawn_tournament(club)
    round_ = tournament.rounds.order_by("-number").first()
    # A published round for the table's own link (the demo's round 3, else one made here).
    link_round = Round.objects.filter(
        tournament__club=club, status__in=("published", "playing")
    ).first() or published_round(club)
    evening = (
        Evening.objects.filter(club=club, status=Evening.Status.OPEN)
        .exclude(tournaments__isnull=False)
        .latest("date")
    )
    table = Table.objects.filter(evening=evening).order_by("pk").first()
    return {
        "club": club,
        "evening": evening,
        "closed": Evening.objects.filter(club=club, status=Evening.Status.CLOSED).latest("date"),
        "table": table,
        "hand": Hand.objects.filter(table=table).order_by("pk").first(),
        "member": Member.objects.filter(club=club).order_by("pk").first(),
        "season": Season.objects.filter(club=club).order_by("pk").first(),
        "tournament": tournament,
        "round": round_,
        "published_round": link_round,
        "series": Series.objects.filter(club=club).first() or club_cup(club),
    }


def urls_of(slug: str) -> list[str]:
    world = world_of(slug)
    urls = []
    for name in PAGES:
        worlds = [world]
        if name in OF_AN_EVENING:
            worlds.append({**world, "evening": world["closed"]})
        for w in worlds:
            kwargs = kwargs_for(name, w) | {"club": slug}
            urls.append(reverse(name, kwargs=kwargs))
    return urls


def admin_client(slug: str, language: str) -> Client:
    """Return a client logged in as the demo club's admin, his own language ``language``."""
    admin = next(u for u in CLUBS[slug] if u.role == Member.Role.ADMIN)
    user = Member.objects.get(club__slug=slug, name=admin.member).user
    Profile.objects.update_or_create(user=user, defaults={"language": language})
    client = Client()
    assert user is not None
    client.force_login(user)
    return client


@pytest.mark.slow  # loads the demo
@pytest.mark.once  # the words of every page: the same on either database, checked once
class TestLanguageCrawl:
    def test_the_crawl_sees_every_page(self, demo):
        """Every GET page of the matrix but the PDFs and the JSON state is crawled."""
        # 20 of the club (+ a hand to confirm, issue 27; + what if, issue 32; + its people
        # log), 5 of a tournament, a table's own link, a series' ladder, the club's cup
        # changed and an event of it
        assert len(PAGES) == 31
        assert {
            "club",
            "cup_change",
            "cup_event",
            "hand_new",
            "evening_treasury",
            "setup_settings",
            "setup_people_log",
        } <= set(PAGES)

    def test_the_checks_catch_what_they_are_meant_to(self):
        page = '<p title="Kasserer">Blagajnik <b>card_points</b></p><script>x_y="Gem"</script>'
        text = visible_text(page)
        assert wrong_words(text, "sl") == []
        assert wrong_words(text, "da") == ["sl:Blagajnik"]
        assert snake_keys(text) == ["card_points"]

    @pytest.mark.parametrize("language", LANGUAGES)
    @pytest.mark.parametrize("slug", sorted(CLUBS))
    def test_every_page_reads_in_one_language(self, demo, slug, language):
        """The admin, his language on his profile, reads every page of the matrix; a visitor,
        his language the switch's cookie, reads the public pages (the results published)."""
        club = Club.objects.get(slug=slug)
        club.publish_results = True
        club.save(update_fields=["publish_results"])
        visitor = Client()
        visitor.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        closed = world_of(slug)["closed"].pk
        public = [
            reverse("public_club", kwargs={"club": slug}),
            reverse("public_standings", kwargs={"club": slug}),
            reverse("public_evening", kwargs={"club": slug, "pk": closed}),
        ]
        # The demo federation's public ladders (its clubs' game's demo), published by the demo.
        for series in Series.objects.filter(
            federation__clubs=club, federation__publish_results=True
        ):
            assert series.federation is not None
            public.append(
                reverse("public_federation", kwargs={"federation": series.federation.slug})
            )
            public.append(
                reverse(
                    "public_ladder", kwargs={"federation": series.federation.slug, "pk": series.pk}
                )
            )
        admin = admin_client(slug, language)
        problems, own = [], set()
        for client, url in [(admin, u) for u in urls_of(slug)] + [(visitor, u) for u in public]:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)
            assert response["Content-Language"] == language, url
            content = response.content.decode()
            text = visible_text(content)
            shown = f"{text} {shown_attributes(content)}"
            found = wrong_words(shown, language) + snake_keys(shown)
            found += [f"ASCII minus: {m}" for m in ASCII_MINUS.findall(text)]
            problems += [f"{url}: {word}" for word in found]
            own |= {word for word in WORDS[language] if has_word(text, word)}
        assert problems == [], "\n".join(problems)
        # The lists are the pages' real words: every one is seen in its own language.
        assert own == set(WORDS[language])
