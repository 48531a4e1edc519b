"""A member's erasure (``services.privacy.member_erase``): his name, e-mail and log-in go, the
ledger stays whole and sealed, the figures stay, and the log names no erased data."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from ledger import services
from ledger.models import (
    AccountBalance,
    ClubLog,
    Entry,
    EveningResult,
    Invitation,
    Member,
    Posting,
    Profile,
    Transfer,
)
from ledger.selectors.verify import verify_ledger
from ledger.services import tournaments
from ledger.services.privacy import ErasureRefused, member_erase
from ledger.tests.factories import PASSWORD, evening_e, make_club, make_member, make_season
from ledger.tests.helpers import ledger_snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = make_club(slug="erase", name="Erase Club", language="en")
    make_season(club)
    return club


@pytest.fixture
def admin(club):
    return make_member(club, "Chef", role=Member.Role.ADMIN, login=True).user


def played(club, *, close=True):
    """Anna (with a log-in and an e-mail), Bo and Carl play Evening E; closed by default."""
    anna = make_member(club, "Anna", login=True)
    assert anna.user is not None
    anna.user.email = "anna@example.org"
    anna.user.first_name = "Anna"
    anna.user.last_name = "Andersen"
    anna.user.save()
    Profile.objects.create(user=anna.user, language="da")
    members = [anna, make_member(club, "Bo"), make_member(club, "Carl")]
    evening, table, hands = evening_e(club, members=members)
    if close:
        services.evening_close(evening=evening)
    return anna, evening, table


def figures():
    """The figures that must not move: every result and balance, and the ledger's rows."""
    return (
        sorted(EveningResult.objects.values_list("member_id", "points", "money", "closing")),
        sorted(AccountBalance.objects.values_list("account_id", "balance", "transfers")),
        list(Posting.objects.order_by("pk").values_list("pk", "kind", "outcome")),
        list(Transfer.objects.order_by("pk").values_list("pk", "points", "source", "target")),
    )


def test_erasure_replaces_name_email_and_login_and_keeps_the_ledger_whole(club, admin):
    anna, evening, _table = played(club)
    user_id = anna.user_id
    before = figures()
    assert verify_ledger().ok

    erased = member_erase(member=anna, by=admin)

    label = f"former member {anna.pk}"
    assert erased.name == label
    anna.refresh_from_db()
    assert (anna.name, anna.user_id, anna.active) == (label, None, False)
    assert anna.erased_at is not None
    user = get_user_model().objects.get(pk=user_id)
    assert user.username == f"former-member-{anna.pk}"
    assert (user.email, user.first_name, user.last_name) == ("", "", "")
    assert not user.is_active and not user.has_usable_password()
    assert not Profile.objects.filter(user_id=user_id).exists()
    # The ledger is whole and sealed, every figure as it was.
    assert figures() == before
    report = verify_ledger()
    assert report.ok, report
    # Logged with his id and who erased, never what was erased.
    # (The people log's entry, sealed and chained: his id and his label.)
    log = ClubLog.objects.get(club=club, action="erased")
    assert log.details == {"member": anna.pk} and log.by == admin
    assert "Anna" not in str(log.details) and "anna@" not in str(log.details)
    assert log.member_name == Member.objects.get(pk=anna.pk).name != "Anna"
    # He can no longer log in.
    assert not Client().login(username="erase-anna", password=PASSWORD)


def test_a_pending_invitation_goes(club, admin):
    """A pending link would give the erased member a log-in again."""
    _anna, _evening, _table = played(club)
    bo = Member.objects.get(club=club, name="Bo")
    services.invitation_create(member=bo)
    member_erase(member=bo, by=admin)
    assert not Invitation.objects.filter(member=bo).exists()


def test_pages_show_the_label(club, admin):
    anna, evening, _table = played(club)
    member_erase(member=anna, by=admin)
    client = Client()
    client.force_login(admin)
    label = f"former member {anna.pk}"
    for url in (
        reverse("standings", kwargs={"club": club.slug}),
        reverse("setup_members", kwargs={"club": club.slug}),
        reverse("member_season", kwargs={"club": club.slug, "pk": anna.pk}),
    ):
        page = client.get(url).content.decode()
        assert label in page, url
        assert "Anna" not in page and "anna@example.org" not in page, url


def test_refused_while_seated_at_an_open_table(club, admin):
    anna, _evening, table = played(club, close=False)
    snapshot = ledger_snapshot()
    with pytest.raises(ErasureRefused) as refused:
        member_erase(member=anna, by=admin)
    assert refused.value.field == "member"
    assert "open" in str(refused.value.message)
    assert ledger_snapshot() == snapshot  # nothing written, no log entry
    services.table_close(table=table)
    member_erase(member=anna, by=admin)
    assert verify_ledger().ok


def test_a_member_erases_himself_only_where_the_club_allows_it(club):
    anna, _evening, _table = played(club)
    user = anna.user
    with pytest.raises(ErasureRefused):
        member_erase(member=anna, by=user)
    assert Member.objects.get(pk=anna.pk).name == "Anna"
    services.club_update(club=club, members_may_erase=True)
    anna.club.refresh_from_db()
    member_erase(member=anna, by=user)
    assert Member.objects.get(pk=anna.pk).erased_at is not None
    assert ClubLog.objects.get(action="erased").by_id == user.pk


def test_another_member_may_not_erase(club):
    anna, _evening, _table = played(club)
    bo = make_member(club, "Bob", login=True)
    services.club_update(club=club, members_may_erase=True)
    with pytest.raises(ErasureRefused):
        member_erase(member=anna, by=bo.user)


def test_an_admin_and_an_erased_member_are_refused(club, admin):
    second = make_member(club, "Second", role=Member.Role.ADMIN)
    with pytest.raises(ErasureRefused, match="admin"):
        member_erase(member=second, by=admin)
    anna, _evening, _table = played(club)
    member_erase(member=anna, by=admin)
    with pytest.raises(ErasureRefused, match="already"):
        member_erase(member=Member.objects.get(pk=anna.pk), by=admin)
    assert ClubLog.objects.filter(action="erased").count() == 1


def test_a_login_of_other_clubs_stays_for_them(club, admin):
    anna, _evening, _table = played(club)
    other = make_club(slug="other", name="Other")
    there = Member.objects.create(club=other, name="Anna A.", user=anna.user)
    member_erase(member=anna, by=admin)
    there.refresh_from_db()
    user = there.user
    assert user is not None
    assert user.is_active and user.email == "anna@example.org"
    assert user.username == "erase-anna" and user.has_usable_password()
    assert there.name == "Anna A."
    assert Member.objects.get(pk=anna.pk).user is None


def test_tournament_entries_take_the_label_and_stay_sealed(club, admin):
    anna, _evening, _table = played(club)
    t = tournaments.tournament_create(
        club=club,
        name="Cup",
        date=datetime.date(2026, 12, 5),
        game="slovenian_tarok",
        tournament_format="sl_dp",
    )
    tournaments.entries_add(tournament=t, members=[anna])
    client = Client()
    client.force_login(admin)
    standings = reverse("tournament_standings", kwargs={"club": club.slug, "pk": t.pk})
    assert "Anna" in client.get(standings).content.decode()  # kept by the tournament's version
    member_erase(member=anna, by=admin)
    label = f"former member {anna.pk}"
    assert Entry.objects.get(tournament=t, member=anna).name == label
    page = client.get(standings).content.decode()
    assert label in page and "Anna" not in page
    report = verify_ledger()
    assert report.ok, report


def test_the_federation_log_names_an_erased_player_by_his_label(club, admin):
    """A merge's log entry names the two records it merged: the erased one takes the label,
    and the member's own download listed it before."""
    from ledger.models import FederationLog, Player
    from ledger.selectors.privacy import member_data
    from ledger.services import federation

    anna, _evening, _table = played(club)
    mine = federation.player_for_member(anna)
    twin = Player.objects.create(name="Anna Andersen", club_name="Kranj")
    federation.player_merge(kept=mine, merged=twin)
    log = FederationLog.objects.get(action="merge")
    assert [
        row["action"] for row in member_data(member=anna)["log"] if row["log"] == "federation"
    ] == ["merge"]
    member_erase(member=Member.objects.get(pk=anna.pk), by=admin)
    log.refresh_from_db()
    label = f"former member {anna.pk}"
    assert log.details["kept"]["name"] == label
    assert Player.objects.get(pk=mine.pk).name == label
    assert verify_ledger().ok
