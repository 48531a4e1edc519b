"""The admin: the rate card as validated fields, and a read-only window on the ledger."""

import datetime
import random
import re

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from ledger import services
from ledger.forms.admin import ClubForm
from ledger.games.danish.engine import RateCard
from ledger.games.danish.engine.ratecard import FINE_TYPES, OPTIONS
from ledger.models import (
    Club,
    HandRevision,
    ImportedEvent,
    ImportedPlacing,
    Posting,
    PostingSeat,
    Profile,
    Transfer,
)
from ledger.selectors.verify import verify_ledger
from ledger.services import federation as federation_services
from ledger.services import tournaments
from ledger.services.federation import tokens
from ledger.services.federation.ladder import ladder_kept
from ledger.tests.factories import evening_e, make_club, make_member, make_season
from ledger.tests.helpers import form_data, next_random_record

pytestmark = pytest.mark.django_db


# --- the rate card form --------------------------------------------------------------------


def test_form_has_one_field_per_setting():
    """Every amount, every fine (as fines_per_cup__<type>) and every option is a field of its
    own, labelled and explained, with its default."""
    fields = ClubForm().fields
    for key in RateCard.amount_keys():
        assert fields[key].min_value == 0
    for fine_type in FINE_TYPES:
        assert fields[f"fines_per_cup__{fine_type}"].min_value == 0
    for key, choices in OPTIONS.items():
        assert [c for c, _label in fields[key].choices] == list(choices)
    assert "rate_card" not in fields


def test_form_starts_from_the_stored_rate_card_over_the_defaults():
    """Initial values are the club's stored settings; the settings it lacks show the defaults."""
    club = make_club(
        rate_card={
            "funding_per_cup": 25,
            "fines_per_cup": {"revoke": 50},
            "multi_bagud": "sequential",
        }
    )
    form = ClubForm(instance=club)
    assert form["funding_per_cup"].value() == 25
    assert form["refund_per_cup"].value() == 20
    assert form["fines_per_cup__revoke"].value() == 50
    assert form["fines_per_cup__misdeal"].value() == 5
    assert form["multi_bagud"].value() == "sequential"
    assert form["tout_variant"].value() == "moller"


def test_valid_form_stores_the_complete_validated_rate_card():
    """Saving stores RateCard.from_dict(...).as_dict(): every key, the format, the new values."""
    club = make_club()
    data = form_data(club, funding_per_cup=25, fines_per_cup__revoke=50, tout_variant="pagat")
    form = ClubForm(data, instance=club)
    assert form.is_valid(), form.errors
    form.save()
    club.refresh_from_db()
    expected = RateCard.from_dict(
        {"funding_per_cup": 25, "fines_per_cup": {"revoke": 50}, "tout_variant": "pagat"}
    ).as_dict()
    assert club.rate_card == expected
    assert club.rate_card["format"] == "tarokclub.rates/1"
    assert club.rate_card["fines_per_cup"]["revoke"] == 50
    assert club.rate_card["fines_per_cup"]["misdeal"] == 5
    assert RateCard.from_dict(club.rate_card).funding_per_cup == 25


def test_negative_amounts_are_refused_next_to_their_fields():
    """A negative amount or fine is refused on its own field; nothing is stored."""
    club = make_club(rate_card={"funding_per_cup": 25})
    form = ClubForm(form_data(club, funding_per_cup=-5, fines_per_cup__revoke=-40), instance=club)
    assert not form.is_valid()
    assert set(form.errors) == {"funding_per_cup", "fines_per_cup__revoke"}
    club.refresh_from_db()
    assert club.rate_card == {"funding_per_cup": 25}


def test_rate_card_rules_map_to_field_errors():
    """A rule of RateCard.from_dict (the count rounded to 0) appears on that field."""
    club = make_club()
    form = ClubForm(form_data(club, count_round_to=0, split_unit=0), instance=club)
    assert not form.is_valid()
    assert set(form.errors) == {"count_round_to", "split_unit"}
    assert form.errors["count_round_to"] == ["the count is rounded to a multiple of at least 1"]


def test_unknown_option_and_non_integer_are_refused():
    """An option outside its choices and a non-integer amount are refused."""
    club = make_club()
    form = ClubForm(form_data(club, tout_variant="generous", meld_half="5.5"), instance=club)
    assert not form.is_valid()
    assert set(form.errors) == {"tout_variant", "meld_half"}


def test_an_open_evening_keeps_its_rate_card():
    """Changing the club's rate card does not alter an evening already opened."""
    club = make_club()
    evening = services.evening_open(club=club, date=datetime.date(2026, 9, 3))
    form = ClubForm(form_data(club, funding_per_cup=50), instance=club)
    assert form.is_valid(), form.errors
    form.save()
    evening.refresh_from_db()
    assert evening.rate_card["funding_per_cup"] == 20
    later = services.evening_open(club=Club.objects.get(), date=datetime.date(2026, 9, 10))
    assert later.rate_card["funding_per_cup"] == 50


# --- the admin pages -----------------------------------------------------------------------


@pytest.fixture
def superuser(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "pw-12345678")
    client.force_login(user)
    return user


@pytest.fixture
def ledger_data():
    """A club with a season, an invitation, a closed Evening E (with a corrected hand) and
    an open evening, and a Hungarian cup with its first round published."""
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub")
    make_season(club)
    dorte = make_member(club, "Dorte")
    services.invitation_create(member=dorte)
    evening, table, hands = evening_e(club)
    record = dict(hands[2].record)
    record["count"] = {"Carl": 20, "Bo": 24}
    services.hand_correct(hand=hands[2], record=record, reason="count misread")
    services.jetons_count(table=table, counts={"kongekop": 65}, by=None)
    services.evening_close(evening=evening, confirm_differences=True)
    evening_e(club, date=datetime.date(2026, 11, 12))
    reader = get_user_model().objects.create_user("reader", password="x-very-secret-9")
    Profile.objects.create(user=reader, language="sl")
    cup = tournaments.tournament_create(
        club=club,
        name="Kupa",
        date=datetime.date(2026, 11, 19),
        game="hungarian_tarokk",
        tournament_format="hu_kupa",
    )
    for name in ("Anna", "Bela", "Csaba", "Dora", "Ede", "Feri"):
        tournaments.entry_add_guest(tournament=cup, name=f"{name} H", club_name="Eger")
    tournaments.round_publish(round_=tournaments.round_draw(tournament=cup))
    # A tournament played with opponent confirmation: a hand saved on its table's link.
    checked = tournaments.tournament_create(
        club=club,
        name="Pokal",
        date=datetime.date(2026, 11, 20),
        game="slovenian_tarok",
        tournament_format="sl_dp",
        params={"confirm_hands": True},
    )
    for name in ("Ana", "Bor", "Cene"):
        tournaments.entry_add_guest(tournament=checked, name=name, club_name="Bled")
    played = tournaments.round_start(
        round_=tournaments.round_publish(round_=tournaments.round_draw(tournament=checked))
    )
    linked = played.round_tables.get().table
    assert linked is not None
    services.hand_record(
        table=linked, record=next_random_record(linked, random.Random(1)), saved_by="Ana"
    )
    federation = federation_services.federation_create(
        name="Dansk Tarokforbund", slug="dtf", game="danish_tarok", language="da"
    )
    federation_services.club_join(federation=federation, club=club)
    tokens.upload_token_create(federation=federation, label="Hjørring's laptop")
    federation_services.player_set_licence(
        player=federation_services.player_for_member(dorte), federation=federation, licence="DK-7"
    )
    dm = tournaments.tournament_create(
        club=club,
        name="DM",
        date=datetime.date(2026, 11, 26),
        game="danish_tarok",
        tournament_format="dk_dm",
    )
    ranglisten = federation_services.series_create(
        federation=federation,
        name="Ranglisten",
        seed="DK-2026",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2027, 6, 30),
        rule={"source": "placement", "scale": {"kind": "linear"}},
        events=[(dm, "1")],
    )
    # A rating list (its rated tables and changes: none while no tournament is final; the
    # club's closed evening rated, as the list says, its members being players).
    for member in club.members.order_by("pk"):
        federation_services.player_for_member(member)
    federation_services.rating_list_create(federation=federation, name="Rating", club_evenings=True)
    # An event imported from another installation (its rows as the import writes them).
    imported = ImportedEvent.objects.create(
        federation=federation,
        uid="6f1c0d5e-8a7b-4c3d-9e2f-1a2b3c4d5e6f",
        revision=1,
        source="tarok.aalborg.example",
        name="Aalborg Open",
        game="danish_tarok",
        tournament_format="dk_dm",
        date=datetime.date(2026, 10, 3),
        document={},
        imported_at=timezone.now(),
    )
    assert dorte.player is not None
    ImportedPlacing.objects.create(
        event=imported, player=dorte.player, code="p1", rank=1, points="120", status="active"
    )
    # The series' ladder, kept (its line: Dorte's, from the imported event).
    federation_services.series_event_add(series=ranglisten, imported=imported)
    ladder_kept(ranglisten)
    # A member who left, erased (the club log's row).
    from ledger.services.privacy import member_erase

    eraser = get_user_model().objects.create_superuser("eraser", password="x-very-secret-9")
    member_erase(member=make_member(club, "Erik"), by=eraser)
    return club


def ledger_models():
    return [model for model in admin.site._registry if model._meta.app_label == "ledger"]


def test_every_ledger_model_is_registered():
    """Every model of the ledger app has an admin."""
    from django.apps import apps

    assert set(ledger_models()) == set(apps.get_app_config("ledger").get_models())


def test_every_changelist_and_change_page_loads(client, superuser, ledger_data):
    """For a superuser, each model's changelist and one object's change page answer 200."""
    for model in ledger_models():
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        response = client.get(url)
        assert response.status_code == 200, url
        obj = model.objects.order_by("pk").first()
        assert obj is not None, model
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
        response = client.get(url)
        assert response.status_code == 200, url


def test_changelists_cost_a_fixed_number_of_queries(client, superuser, ledger_data):
    """A changelist's query count does not grow with the rows it shows (no N+1)."""
    first = {}
    for model in ledger_models():
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        with CaptureQueriesContext(_connection()) as queries:
            client.get(url)
        first[model] = len(queries)
    evening_e(ledger_data, date=datetime.date(2026, 11, 19))
    for model in ledger_models():
        meta = model._meta
        url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
        with CaptureQueriesContext(_connection()) as queries:
            client.get(url)
        assert len(queries) == first[model], meta.model_name


def _connection():
    from django.db import connection

    return connection


@pytest.mark.parametrize("model", [Posting, Transfer])
def test_postings_and_transfers_are_strictly_read_only(client, superuser, ledger_data, model):
    """Not even a superuser may add, change or delete a posting or a transfer in the admin."""
    meta = model._meta
    model_admin = admin.site._registry[model]
    request = type("Request", (), {"user": superuser})()
    obj = model.objects.order_by("pk").first()
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request, obj)
    assert not model_admin.has_delete_permission(request, obj)
    assert model_admin.has_view_permission(request, obj)
    assert client.get(reverse(f"admin:ledger_{meta.model_name}_add")).status_code == 403
    delete = reverse(f"admin:ledger_{meta.model_name}_delete", args=[obj.pk])
    assert client.get(delete).status_code == 403
    assert client.post(delete, {"post": "yes"}).status_code == 403
    change = reverse(f"admin:ledger_{meta.model_name}_change", args=[obj.pk])
    assert client.post(change, {"points": "1000"}).status_code == 403
    changelist = client.get(reverse(f"admin:ledger_{meta.model_name}_changelist"))
    assert reverse(f"admin:ledger_{meta.model_name}_add").encode() not in changelist.content
    assert b'value="delete_selected"' not in changelist.content
    assert model.objects.filter(pk=obj.pk).exists()


def test_evening_season_is_the_only_editable_field(client, superuser, ledger_data):
    """An evening's season can be set in the admin; its status and rate card cannot."""
    from ledger.models import Evening, Season

    evening = Evening.objects.filter(status="open", kind=Evening.Kind.CLUB).get()
    other = Season.objects.create(
        club=ledger_data,
        name="2025/2026",
        starts_on=datetime.date(2025, 8, 1),
        ends_on=datetime.date(2026, 7, 31),
    )
    url = reverse("admin:ledger_evening_change", args=[evening.pk])
    response = client.post(
        url, _inline_management({"season": other.pk, "status": "closed", "_save": "1"})
    )
    assert response.status_code == 302, response.content[:2000]
    evening.refresh_from_db()
    assert evening.season == other
    assert evening.status == "open"
    # through the service: logged, sealed, and the ledger still verifies
    assert evening.log.filter(action="season").get().details["to"] == other.pk
    assert verify_ledger().ok
    assert client.get(reverse("admin:ledger_evening_add")).status_code == 403


def _inline_management(data):
    """Add the empty management forms of the evening page's read-only inlines."""
    for prefix in ("tables", "results", "log"):
        data.update(
            {
                f"{prefix}-TOTAL_FORMS": "0",
                f"{prefix}-INITIAL_FORMS": "0",
                f"{prefix}-MIN_NUM_FORMS": "0",
                f"{prefix}-MAX_NUM_FORMS": "1000",
            }
        )
    return data


def test_club_added_in_the_admin_stores_the_validated_rate_card(client, superuser):
    """Adding a club through the admin page stores the full rate card from the fields."""
    data = form_data(funding_per_cup=25, fines_per_cup__misdeal=10, five_seat_rotation="hermansen")
    for prefix in ("seasons", "members"):
        data.update(
            {
                f"{prefix}-TOTAL_FORMS": "0",
                f"{prefix}-INITIAL_FORMS": "0",
                f"{prefix}-MIN_NUM_FORMS": "0",
                f"{prefix}-MAX_NUM_FORMS": "1000",
            }
        )
    response = client.post(reverse("admin:ledger_club_add"), data)
    assert response.status_code == 302, response.content[:3000]
    club = Club.objects.get(slug="hjoerring")
    assert (
        club.rate_card
        == RateCard.from_dict(
            {
                "funding_per_cup": 25,
                "fines_per_cup": {"misdeal": 10},
                "five_seat_rotation": "hermansen",
            }
        ).as_dict()
    )


def test_club_page_shows_errors_for_a_negative_amount(client, superuser):
    """The admin page refuses a negative amount and shows the form again; nothing is stored."""
    club = make_club(slug="hjoerring", name="Hjørring Tarokklub")
    data = form_data(club, nolo_each=-25)
    for prefix in ("seasons", "members"):
        data.update({f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"})
    response = client.post(reverse("admin:ledger_club_change", args=[club.pk]), data)
    assert response.status_code == 200
    assert "nolo_each" in response.context["adminform"].form.errors
    club.refresh_from_db()
    assert club.rate_card == {}


def test_a_club_of_another_game_keeps_its_own_house_rules(client, superuser):
    """The admin's house-rules fields are the club's own game's: a Slovenian club edits its
    Slovenian card there, and a club switched to another game starts from its defaults."""
    from ledger.forms.admin import ClubForm
    from ledger.games.registry import get_game

    club = make_club(slug="sl", name="Ljubljana", game="slovenian_tarok")
    club.rate_card = {"mond_penalty": 21}
    club.save()
    form = ClubForm(instance=club)
    assert "mond_penalty" in form.fields and "funding_per_cup" not in form.fields
    assert form["mond_penalty"].value() == 21
    data: dict[str, str | int] = {"name": "Ljubljana", "slug": "sl", "game": "slovenian_tarok"}
    data |= {"price_per_point": "0.25", "currency": "EUR", "starting_jetons": 500}
    data |= {"language": "sl", "time_zone": "Europe/Ljubljana"}
    form = ClubForm(data | _defaults_of_the_form(club), instance=club)
    assert form.is_valid(), form.errors
    card = form.save().rate_card
    assert card == get_game("slovenian_tarok").rate_card({"mond_penalty": 21}).as_dict()
    danish = make_club(slug="dk", name="Hjørring")
    form = ClubForm(form_data(danish, game="slovenian_tarok"), instance=danish)
    assert form.is_valid(), form.errors
    assert form.save().rate_card == get_game("slovenian_tarok").rate_card({}).as_dict()


def _defaults_of_the_form(club=None) -> dict:
    from ledger.forms.admin import ClubForm

    form = ClubForm(instance=club)
    return {
        name: form.initial.get(name, field.initial)
        for name, field in form.fields.items()
        if name
        not in (
            "name",
            "slug",
            "game",
            "price_per_point",
            "currency",
            "language",
            "time_zone",
            "starting_jetons",
        )
    }


# --- readable words (issue 19, part 3) -----------------------------------------------------

RAW_NAME = re.compile(r"#\d+ hand|\bhand \d+ rev \d+|\brev \d+\b")


def cell_texts(html: str) -> list[str]:
    """Return every text between two tags of a page, stripped (a cell, a link, a label)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return [t.strip() for t in re.findall(r">([^<>]+)<", html) if t.strip()]


def test_the_admin_shows_labels_and_readable_names(client, superuser, ledger_data):
    """No page of the ledger's admin shows a stored code as a word (the log's ``close``, a
    transfer's ``dealer_fee``, the pool's ``kongekop`` as a bare code) or an object named
    like "…#1 hand 1 rev 1": choices by their labels, rules in the game's words, objects by
    readable names, in Danish."""
    from ledger.admin import reason_words
    from ledger.models import EveningLog

    client.cookies["django_language"] = "da"
    codes = set(EveningLog.objects.values_list("action", flat=True))
    codes |= set(Transfer.objects.values_list("reason", flat=True))
    codes |= set(PostingSeat.objects.values_list("role", flat=True))
    assert {"open", "close", "dealer_fee", "player"} <= codes
    with translation.override("da"):  # a game's word that is its own code ("ultimo") stays
        codes = {c for c in codes if reason_words(c) != c or c in EveningLog.ACTION_LABELS}
    for model in ledger_models():
        meta = model._meta
        pages = [reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")]
        obj = model.objects.order_by("pk").first()
        pages.append(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
        for url in pages:
            html = client.get(url).content.decode()
            raw = [t for t in cell_texts(html) if t in codes or RAW_NAME.search(t)]
            assert raw == [], (url, raw)
    to_pool = Transfer.objects.filter(target__member__isnull=True).order_by("pk").first()
    revision = HandRevision.objects.order_by("pk").first()
    with translation.override("da"):
        assert str(to_pool) == "Anna → Kongekop 20"
        assert str(revision) == (
            "Hjørring Tarokklub 2026-11-05, bord 1, spil 1, revision 1 (registreret)"
        )
