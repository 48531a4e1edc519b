"""Club set-up: a new club of each game, members, roles, house rules, seasons, settings."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.games.registry import GAMES
from ledger.models import Club, Invitation, Member, Season
from ledger.services import invitations
from ledger.services.errors import LedgerError
from ledger.tests.factories import make_club, make_member, make_season

pytestmark = pytest.mark.django_db
PW = "rød-grød-med-fløde-7"


@pytest.fixture
def superuser():
    return get_user_model().objects.create_superuser("chef", password="x-very-secret-9")


@pytest.fixture
def su_client(superuser):
    client = Client()
    client.force_login(superuser)
    return client


def new_club_post(game="danish_tarok", **over):
    data = {
        "name": "Hjørring Tarokklub",
        "slug": "hjoerring",
        "game": game,
        "preset": "defaults",
        "price_per_point": "0.25",
        "currency": "DKK",
        "starting_jetons": "500",
        "season_name": "2026/2027",
        "season_starts_on": "2026-08-01",
        "season_ends_on": "2027-07-31",
    }
    data.update(over)
    return data


# --- 1. a new club


def test_a_superuser_without_a_club_lands_on_the_create_club_screen(su_client):
    response = su_client.get("/")
    assert response.status_code == 302 and response["Location"] == reverse("club_new")
    page = su_client.get(reverse("club_new"))
    assert page.status_code == 200
    html = page.content.decode()
    for code in GAMES:
        assert f'value="{code}"' in html
    # The first season is prefilled: 1 August to 31 July around today.
    starts = page.context["form"].initial["season_starts_on"]
    assert starts.endswith("-08-01")


def test_the_season_is_august_to_july():
    assert services.season_dates(datetime.date(2026, 7, 31)) == (
        datetime.date(2025, 8, 1),
        datetime.date(2026, 7, 31),
    )
    assert services.season_dates(datetime.date(2026, 8, 1))[0] == datetime.date(2026, 8, 1)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_create_a_club_of_each_game(su_client, superuser, game):
    response = su_client.post(reverse("club_new"), new_club_post(game))
    assert response.status_code == 302
    assert response["Location"] == reverse("setup_members", kwargs={"club": "hjoerring"})
    club = Club.objects.get(slug="hjoerring")
    assert club.game == game
    assert club.rate_card == GAMES[game].rate_card({}).as_dict()
    admin = Member.objects.get(club=club)
    assert admin.user == superuser and admin.role == Member.Role.ADMIN
    season = Season.objects.get(club=club)
    assert (season.starts_on, season.ends_on) == (
        datetime.date(2026, 8, 1),
        datetime.date(2027, 7, 31),
    )
    # The club's first evening carries the game and its rate card, in the season.
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    assert evening.game == game and evening.season == season
    assert su_client.get(response["Location"]).status_code == 200


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ("danish_tarok", ("da", "DKK", "Europe/Copenhagen")),
        ("slovenian_tarok", ("sl", "EUR", "Europe/Ljubljana")),
        ("hungarian_tarokk", ("hu", "HUF", "Europe/Budapest")),
    ],
)
def test_a_new_club_takes_its_games_language_currency_and_time_zone(su_client, game, expected):
    """Left as "the game's own", a new club reads, counts and keeps time as its game's
    country does; chosen, the club's choice is kept."""
    post = new_club_post(game, currency="", language="", time_zone="")
    assert su_client.post(reverse("club_new"), post).status_code == 302
    club = Club.objects.get(slug="hjoerring")
    assert (club.language, club.currency, club.time_zone) == expected
    chosen = new_club_post(game, slug="other", language="en", currency="EUR")
    assert su_client.post(reverse("club_new"), chosen).status_code == 302
    other = Club.objects.get(slug="other")
    assert (other.language, other.currency, other.time_zone) == ("en", "EUR", expected[2])


def test_the_create_club_screen_offers_the_languages_currencies_and_time_zones(su_client):
    html = su_client.get(reverse("club_new")).content.decode()
    for value in ("da", "sl", "hu", "en", "EUR", "HUF", "DKK", "Europe/Budapest"):
        assert f'value="{value}"' in html
    response = su_client.post(reverse("club_new"), new_club_post(language="xx", currency="USD"))
    assert response.status_code == 422
    assert set(response.context["form"].errors) == {"language", "currency"}
    assert not Club.objects.filter(slug="hjoerring").exists()


def test_create_club_refusals(su_client):
    make_club(slug="taken")
    response = su_client.post(
        reverse("club_new"),
        new_club_post(slug="taken", season_ends_on="2026-01-01", price_per_point="-1"),
    )
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert {"slug", "season_ends_on", "price_per_point"} <= set(errors)
    assert Club.objects.count() == 1


def test_only_a_superuser_creates_a_club():
    user = get_user_model().objects.create_user("plain", password="x-very-secret-9")
    client = Client()
    assert "/login/" in client.get(reverse("club_new"))["Location"]
    client.force_login(user)
    assert client.get(reverse("club_new")).status_code == 403
    assert client.post(reverse("club_new"), new_club_post()).status_code == 403
    assert not Club.objects.exists()


def test_create_club_command(superuser):
    out = StringIO()
    call_command(
        "create_club",
        "--name=Pécs Tarokk",
        "--slug=pecs",
        "--game=hungarian_tarokk",
        "--price-per-point=10",
        "--currency=HUF",
        "--starting-jetons=0",
        "--season-start=2026-09-01",
        "--season-end=2027-06-30",
        "--admin=chef",
        "--admin-name=Chef",
        stdout=out,
    )
    club = Club.objects.get(slug="pecs")
    assert (club.game, club.currency, club.price_per_point) == (
        "hungarian_tarokk",
        "HUF",
        Decimal("10"),
    )
    assert club.members.get().name == "Chef"
    text = out.getvalue()
    assert "club pecs" in text and "season 2026/2027: 2026-09-01 to 2027-06-30" in text
    assert "club admin Chef" in text
    assert (club.language, club.time_zone) == ("hu", "Europe/Budapest")  # the game's
    assert "language hu, time zone Europe/Budapest" in text
    with pytest.raises(CommandError, match="slug"):
        call_command("create_club", "--name=Again", "--slug=pecs", stdout=StringIO())
    with pytest.raises(CommandError, match="language"):
        call_command("create_club", "--name=X", "--slug=x", "--language=de", stdout=StringIO())
    call_command(
        "create_club",
        "--name=Ljubljana",
        "--slug=lj",
        "--game=slovenian_tarok",
        "--language=en",
        stdout=StringIO(),
    )
    lj = Club.objects.get(slug="lj")
    assert (lj.language, lj.currency, lj.time_zone) == ("en", "EUR", "Europe/Ljubljana")


# --- 2. the club admin's screens


@pytest.fixture
def club_admin():
    club = make_club(slug="alpha", name="Alpha")
    make_season(club)
    admin = make_member(club, "Formand", Member.Role.ADMIN, login=True)
    client = Client()
    assert admin.user is not None
    client.force_login(admin.user)
    return club, admin, client


def url(name, **kwargs):
    return reverse(name, kwargs={"club": "alpha", **kwargs})


def test_the_club_page_links_the_admin_screens(club_admin):
    club, admin, client = club_admin
    assert url("setup_members") in client.get(url("club")).content.decode()
    member = make_member(club, "Bo", login=True)
    other = Client()
    assert member.user is not None
    other.force_login(member.user)
    assert url("setup_members") not in other.get(url("club")).content.decode()


def test_paste_a_list_of_names(club_admin):
    club, _, client = club_admin
    names = "Anna\n  Bo \n\nCarl\nDorte\nEjnar\nFrida\n"
    response = client.post(url("setup_members"), {"action": "paste", "paste-names": names})
    assert response.status_code == 302
    assert sorted(club.members.values_list("name", flat=True)) == sorted(
        ["Formand", "Anna", "Bo", "Carl", "Dorte", "Ejnar", "Frida"]
    )
    page = client.get(url("setup_members")).content.decode()
    assert 'id="members-table"' in page and 'data-member="Frida"' in page


def test_a_pasted_list_with_a_pool_name_adds_no_one(club_admin):
    club, _, client = club_admin
    names = "Anna\nkongekop\nBo\nAnna\nFormand"
    response = client.post(url("setup_members"), {"action": "paste", "paste-names": names})
    assert response.status_code == 422
    text = " ".join(response.context["paste_form"].non_field_errors())
    assert "kongekop" in text and "Anna" in text and "Formand" in text
    assert list(club.members.values_list("name", flat=True)) == ["Formand"]


def test_pool_names_of_every_game_are_refused(club_admin):
    club, _, _ = club_admin
    for pool in ("kongekop", "pagatkop", "pool"):
        with pytest.raises(LedgerError):
            services.members_add(club=club, names=[pool])


def test_add_one_member_with_a_role(club_admin):
    club, _, client = club_admin
    response = client.post(
        url("setup_members"), {"action": "add", "add-name": "Kasper", "add-role": "treasurer"}
    )
    assert response.status_code == 302
    assert club.members.get(name="Kasper").role == Member.Role.TREASURER


def test_set_role_deactivate_and_reactivate(club_admin):
    club, _, client = club_admin
    bo = make_member(club, "Bo")
    edit = url("setup_member_edit", pk=bo.pk)
    for role in ("scorekeeper", "treasurer", "admin", "member"):
        assert client.post(edit, {"role": role}).status_code == 302
        bo.refresh_from_db()
        assert bo.role == role
    client.post(edit, {"active": "0"})
    bo.refresh_from_db()
    assert not bo.active
    client.post(edit, {"active": "1"})
    bo.refresh_from_db()
    assert bo.active
    client.post(edit, {"role": "nonsense"})
    bo.refresh_from_db()
    assert bo.role == "member"


def test_an_admin_keeps_his_own_admin_rights(club_admin):
    club, admin, client = club_admin
    client.post(url("setup_member_edit", pk=admin.pk), {"role": "member"})
    client.post(url("setup_member_edit", pk=admin.pk), {"active": "0"})
    admin.refresh_from_db()
    assert admin.role == Member.Role.ADMIN and admin.active


def _rates_post(client, **over):
    form = client.get(url("setup_rates")).context["form"]
    data = {name: form.initial[name] for name in form.fields}
    data.update(over)
    return client.post(url("setup_rates"), data)


def test_house_rules_show_the_defaults_and_are_validated(club_admin):
    club, _, client = club_admin
    page = client.get(url("setup_rates")).content.decode()
    assert "funding_per_cup" in page and "tout_variant" in page
    response = _rates_post(
        client, funding_per_cup="30", fines_per_cup__misdeal="10", tout_variant="pagat"
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.rate_card["funding_per_cup"] == 30
    assert club.rate_card["fines_per_cup"]["misdeal"] == 10
    assert club.rate_card["tout_variant"] == "pagat"
    assert club.rate_card == GAMES["danish_tarok"].rate_card(club.rate_card).as_dict()
    refused = _rates_post(client, funding_per_cup="-5", tout_variant="unknown")
    assert refused.status_code == 422
    assert {"funding_per_cup", "tout_variant"} <= set(refused.context["form"].errors)
    club.refresh_from_db()
    assert club.rate_card["funding_per_cup"] == 30


def test_house_rules_apply_to_evenings_opened_afterwards(club_admin):
    club, _, client = club_admin
    before = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    _rates_post(client, funding_per_cup="40")
    club.refresh_from_db()
    after = services.evening_open(club=club, date=datetime.date(2026, 11, 12))
    before.refresh_from_db()
    assert before.rate_card["funding_per_cup"] == 20
    assert after.rate_card["funding_per_cup"] == 40


@pytest.mark.parametrize("game", ["slovenian_tarok", "hungarian_tarokk"])
def test_house_rules_of_the_other_games(game):
    club = make_club(slug="alpha", name="Alpha", game=game, rate_card={})
    admin = make_member(club, "Formand", Member.Role.ADMIN, login=True)
    client = Client()
    assert admin.user is not None
    client.force_login(admin.user)
    form = client.get(url("setup_rates")).context["form"]
    assert form.fields and all(f.help_text for f in form.fields.values())
    nested = next(n for n in form.fields if "__" in n)
    assert _rates_post(client, **{nested: "7"}).status_code == 302
    club.refresh_from_db()
    key, sub = nested.split("__")
    assert club.rate_card[key][sub] == 7
    assert club.rate_card == GAMES[game].rate_card(club.rate_card).as_dict()
    assert _rates_post(client, **{nested: "-1"}).status_code == 422


def test_seasons_add_and_edit(club_admin):
    club, _, client = club_admin
    response = client.post(
        url("setup_seasons"),
        {"name": "2027/2028", "starts_on": "2027-08-01", "ends_on": "2028-07-31"},
    )
    assert response.status_code == 302
    season = club.seasons.get(name="2027/2028")
    edit = url("setup_season_edit", pk=season.pk)
    listed = client.get(url("setup_seasons")).content.decode()
    assert f'<tr data-season="{season.pk}"' in listed and f'href="{edit}"' in listed
    assert client.get(edit).status_code == 200
    client.post(edit, {"name": "2027/28", "starts_on": "2027-09-01", "ends_on": "2028-06-30"})
    season.refresh_from_db()
    assert (season.name, season.starts_on) == ("2027/28", datetime.date(2027, 9, 1))
    refused = client.post(edit, {"name": "x", "starts_on": "2027-09-01", "ends_on": "2027-01-01"})
    assert refused.status_code == 422


def test_club_settings(club_admin):
    club, _, client = club_admin
    response = client.post(
        url("setup_settings"),
        {
            "name": "Alfa",
            "price_per_point": "0.50",
            "currency": "EUR",
            "language": "sl",
            "time_zone": "Europe/Ljubljana",
            "starting_jetons": "800",
            "idle_minutes": "240",
        },
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.price_per_point, club.currency, club.starting_jetons) == (
        "Alfa",
        Decimal("0.5"),
        "EUR",
        800,
    )
    assert (club.language, club.time_zone) == ("sl", "Europe/Ljubljana")
    assert client.post(url("setup_settings"), {"name": ""}).status_code == 422


@pytest.mark.parametrize(("key", "value"), [("language", "de"), ("currency", "SEK")])
def test_club_settings_refuse_a_language_or_currency_not_offered(club_admin, key, value):
    """A language or currency the site does not offer is refused, naming the field."""
    club, _, client = club_admin
    data = {
        "name": "Alfa",
        "price_per_point": "0.50",
        "currency": "EUR",
        "language": "sl",
        "time_zone": "Europe/Ljubljana",
        "starting_jetons": "800",
        "idle_minutes": "240",
        key: value,
    }
    response = client.post(url("setup_settings"), data)
    assert response.status_code == 422
    assert list(response.context["form"].errors) == [key]
    club.refresh_from_db()
    assert getattr(club, key) != value
    with pytest.raises(LedgerError) as refused:
        services.club_update(club=club, **{key: value})
    assert [p.field for p in refused.value.problems] == [key]


@pytest.mark.parametrize("money", [True, False])
def test_the_settings_page_says_the_closed_evenings_in_danish(club_admin, money):
    """The public-results line reads "resultaterne af de lukkede aftener" (once a typo,
    "aftners"), with and without money."""
    club, _, client = club_admin
    Club.objects.filter(pk=club.pk).update(publish_results=True, publish_money=money)
    client.cookies["django_language"] = "da"
    page = client.get(url("setup_settings")).content.decode()
    assert "resultaterne af de lukkede aftener" in page
    assert "aftners" not in page


# --- 3. invitations


def _invite(client, member):
    response = client.post(url("setup_invitation_new", pk=member.pk))
    assert response.status_code == 302 and response["Location"] == url("setup_invitations")
    invitation = Invitation.objects.filter(member=member).first()
    assert invitation is not None
    return invitation, invitations.token_of(invitation.nonce)


def test_an_invited_member_chooses_his_log_in_once(club_admin):
    club, _, client = club_admin
    bo = make_member(club, "Bo Ærø")
    invitation, token = _invite(client, bo)
    assert invitation.expires - invitation.created == datetime.timedelta(days=7)
    assert invitation.token_hash == invitations.hash_of(token) and token not in str(
        Invitation.objects.values().get()
    )
    link = reverse("invitation_accept", kwargs={"token": token})
    guest = Client()
    page = guest.get(link)
    assert page.status_code == 200
    assert page.context["form"]["username"].value() == "bo-aeroe"
    mismatch = guest.post(link, {"username": "bo", "password1": PW, "password2": PW + "x"})
    assert mismatch.status_code == 422 and "password2" in mismatch.context["form"].errors
    weak = guest.post(link, {"username": "bo", "password1": "bo", "password2": "bo"})
    assert weak.status_code == 422 and "password1" in weak.context["form"].errors
    response = guest.post(link, {"username": "bo", "password1": PW, "password2": PW})
    assert response.status_code == 302 and response["Location"] == url("my_page")  # Min side
    bo.refresh_from_db()
    assert bo.user is not None
    assert bo.user.username == "bo" and bo.user.check_password(PW)
    assert guest.get(url("club")).status_code == 200  # logged in
    # The link is used: refused, with a clear message, and nothing changes.
    again = Client().post(link, {"username": "bo2", "password1": PW, "password2": PW})
    assert again.status_code == 410
    assert (
        "allerede brugt" in again.content.decode() or "already been used" in again.content.decode()
    )
    assert get_user_model().objects.filter(username="bo2").count() == 0


def test_an_expired_link_is_refused(club_admin):
    club, _, client = club_admin
    bo = make_member(club, "Bo")
    invitation, token = _invite(client, bo)
    past = timezone.now() - datetime.timedelta(days=8)
    Invitation.objects.filter(pk=invitation.pk).update(
        created=past, expires=past + datetime.timedelta(days=7)
    )
    link = reverse("invitation_accept", kwargs={"token": token})
    response = Client().get(link, HTTP_ACCEPT_LANGUAGE="da")
    assert response.status_code == 410
    assert "udløbet" in response.content.decode()
    with pytest.raises(invitations.InvitationRefused):
        services.invitation_accept(token=token, password=PW, username="bo")
    assert Client().get("/invite/" + "0" * 64 + "/").status_code == 410


def test_a_new_link_cuts_the_old_one(club_admin):
    """A second invitation of a member without a log-in makes his first link unusable."""
    club, _, client = club_admin
    bo = make_member(club, "Bo")
    _, old_token = _invite(client, bo)
    _, token = _invite(client, bo)
    assert Client().get(f"/invite/{old_token}/").status_code == 410
    link = f"/invite/{token}/"
    accepted = Client().post(link, {"username": "bo", "password1": PW, "password2": PW})
    assert accepted.status_code == 302
    bo.refresh_from_db()
    assert bo.user is not None
    assert bo.user.check_password(PW)


def test_the_sheet_lists_pending_links_with_qr_codes(club_admin):
    club, _, client = club_admin
    members = [make_member(club, name) for name in ("Anna", "Bo")]
    tokens = [_invite(client, m)[1] for m in members]
    html = client.get(url("setup_invitations")).content.decode()
    for token in tokens:
        assert f"/invite/{token}/" in html
    assert html.count('<svg role="img"') == 2 and "<script" not in html.split("</header>")[1]
    pdf = client.get(url("setup_invitations_pdf"))
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    # A used link leaves the sheet.
    Client().post(f"/invite/{tokens[0]}/", {"username": "anna", "password1": PW, "password2": PW})
    html = client.get(url("setup_invitations")).content.decode()
    assert tokens[0] not in html and tokens[1] in html


def test_invite_all_who_have_no_log_in_in_one_tap(club_admin):
    """One POST makes a link for every active member without a log-in; a member with a
    log-in (the admin, a superuser, one of another club) is never invited, an inactive one
    neither, and a pending link is kept (a printed sheet keeps working). The sheet lists the
    members by name."""
    club, admin, client = club_admin
    names = ("Ørn", "bo", "Anna", "Carl")
    waiting = {n: make_member(club, n) for n in names}
    pending, _ = _invite(client, waiting["Carl"])
    with_login = make_member(club, "Dorte", login=True)
    superuser = get_user_model().objects.create_superuser("root", password=PW)
    with_login_too = make_member(club, "Root")
    with_login_too.user = superuser
    with_login_too.save()
    inactive = make_member(club, "Erik")
    inactive.active = False
    inactive.save()
    elsewhere = make_member(make_club(slug="beta", name="Beta"), "Frida")

    response = client.post(url("setup_invitations_all"))
    assert response.status_code == 302 and response["Location"] == url("setup_invitations")
    invited = set(Invitation.objects.values_list("member__name", flat=True))
    assert invited == set(names)
    for member in (admin, with_login, with_login_too, inactive, elsewhere):
        assert not Invitation.objects.filter(member=member).exists()
    assert Invitation.objects.filter(member=waiting["Carl"]).get() == pending  # kept
    sheet = client.get(url("setup_invitations"))
    shown = re.findall(r'data-invitation="([^"]+)"', sheet.content.decode())
    assert shown == ["Anna", "bo", "Carl", "Ørn"]
    # Again: nobody new, nothing written.
    before = Invitation.objects.count()
    client.post(url("setup_invitations_all"))
    assert Invitation.objects.count() == before


def test_invite_all_is_a_club_admins_post(club_admin):
    club, _, client = club_admin
    make_member(club, "Bo")
    assert client.get(url("setup_invitations_all")).status_code == 405
    keeper = make_member(club, "Carl", Member.Role.TREASURER, login=True)
    other = Client()
    assert keeper.user is not None
    other.force_login(keeper.user)
    assert other.post(url("setup_invitations_all")).status_code == 403
    assert not Invitation.objects.exists()


def test_an_inactive_member_cannot_use_his_link(club_admin):
    club, _, client = club_admin
    bo = make_member(club, "Bo")
    _, token = _invite(client, bo)
    services.member_update(member=bo, active=False)
    assert Client().get(f"/invite/{token}/").status_code == 410


# --- 4. the table's QR code


def test_the_table_screen_shows_a_qr_code_of_its_live_view(club_admin):
    club, _, client = club_admin
    members = [make_member(club, name) for name in ("Anna", "Bo", "Carl")]
    evening = services.evening_open(club=club, date=datetime.date(2026, 11, 5))
    table = services.table_open(evening=evening, members=members)
    html = client.get(table.get_absolute_url()).content.decode()
    qr = html.split('id="table-qr"')[1].split("</aside>")[0]
    assert '<svg role="img"' in qr and "<path" in qr
    assert "Følg bordet på din telefon" in qr or "Follow this table" in qr


def test_the_settings_show_the_price_as_money_is_written(club_admin):
    """The price per point reads 0,25 in Danish (a decimal comma; not 0.2500) in the settings
    form, a text field with the decimal keyboard, and 0,50 is taken as half a krone."""
    club, _, client = club_admin
    html = client.get(url("setup_settings")).content.decode()
    assert re.search(r'<input type="text" name="price_per_point" value="0,25"[^>]*>', html)
    assert 'inputmode="decimal"' in html
    data = {"name": "Alpha", "price_per_point": "0,50", "currency": "DKK", "language": "da"}
    data.update(time_zone="Europe/Copenhagen", starting_jetons="500", idle_minutes="240")
    assert client.post(url("setup_settings"), data).status_code == 302
    club.refresh_from_db()
    assert club.price_per_point == Decimal("0.5")


def test_the_slovenian_create_club_form_writes_a_decimal_comma_and_asks_no_jetons(su_client):
    """In Slovenian the create-club form shows the price as 0,25; chosen (here by the address,
    ?game=) a game whose features use no jetons shows no jeton field, and a Slovenian club
    is created from "0,30" without one."""
    sl = {"HTTP_ACCEPT_LANGUAGE": "sl"}
    html = su_client.get(reverse("club_new"), **sl).content.decode()
    assert re.search(r'name="price_per_point" value="0,25"', html)
    assert 'name="starting_jetons"' in html  # the default game, Danish, counts jetons
    # Chosen on the page, Slovenian hides it (its radio says it counts no jetons).
    assert re.search(r'value="slovenian_tarok"[^>]*data-jetons="0"', html)
    html = su_client.get(reverse("club_new") + "?game=slovenian_tarok", **sl).content.decode()
    assert 'name="starting_jetons"' not in html
    post = new_club_post("slovenian_tarok", price_per_point="0,30")
    del post["starting_jetons"]
    assert su_client.post(reverse("club_new"), post, **sl).status_code == 302
    assert Club.objects.get(slug="hjoerring").price_per_point == Decimal("0.3")


def test_the_settings_of_a_club_without_jetons_ask_no_jetons(club_admin):
    """A Slovenian club's settings have no jeton field (its game uses no jetons)."""
    club, _, client = club_admin
    club.game = "slovenian_tarok"
    club.save(update_fields=["game"])
    assert 'name="starting_jetons"' not in client.get(url("setup_settings")).content.decode()
