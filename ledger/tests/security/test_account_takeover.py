"""An invitation only ever creates a new log-in: no club admin can take over an account.

The probe of issue 22: a superuser who creates a club gets a member row there; a club admin of
that club asked for an invitation of that member, read the link on the invitations sheet, set a
new password through it and was logged in as the superuser. Each test pins one way in.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Invitation, Member
from ledger.services import invitations
from ledger.services.errors import LedgerError
from ledger.tests.factories import PASSWORD, make_club, make_member, make_season, new_member

pytestmark = pytest.mark.django_db
SU_PASSWORD = "chef-very-secret-9"
NEW = "attacker-pw-77-xyz"


def url(name, club="probe", **kwargs):
    return reverse(name, kwargs={"club": club, **kwargs})


@pytest.fixture
def probe():
    """A superuser creates the club "probe" on its screen and makes Eve its second club admin."""
    chef = get_user_model().objects.create_superuser("chef", password=SU_PASSWORD)
    su = Client()
    su.force_login(chef)
    response = su.post(
        reverse("club_new"),
        {
            "name": "Probe",
            "slug": "probe",
            "game": "danish_tarok",
            "preset": "defaults",
            "price_per_point": "0.25",
            "currency": "DKK",
            "starting_jetons": "500",
            "season_name": "2026/2027",
            "season_starts_on": "2026-08-01",
            "season_ends_on": "2027-07-31",
        },
    )
    assert response.status_code == 302
    chef_member = Member.objects.get(user=chef)
    eve = make_member(chef_member.club, "Eve", Member.Role.ADMIN, login=True)
    attacker = Client()
    assert eve.user is not None
    attacker.force_login(eve.user)
    return chef, chef_member, eve, attacker


def _forged_link(member) -> str:
    """Write an invitation row directly, as one made before the fix would still lie there."""
    nonce = invitations.new_nonce()
    token = invitations.token_of(nonce)
    now = timezone.now()
    Invitation.objects.create(
        member=member,
        nonce=nonce,
        token_hash=invitations.hash_of(token),
        created=now,
        expires=now + datetime.timedelta(days=7),
    )
    return reverse("invitation_accept", kwargs={"token": token})


def _assert_untouched(user, password):
    user.refresh_from_db()
    assert user.check_password(password)


def test_the_probe_steps_no_longer_take_over_the_superuser(probe):
    """Invite the superuser's member row, read the sheet, open the link: nothing works."""
    chef, chef_member, _eve, attacker = probe
    response = attacker.post(url("setup_invitation_new", pk=chef_member.pk))
    assert response.status_code == 303 and response["Location"] == url("setup_members")
    assert not Invitation.objects.exists()
    page = attacker.get(url("setup_members")).content.decode()
    assert "already has a log-in" in page or "har allerede et log-in" in page
    sheet = attacker.get(url("setup_invitations")).content.decode()
    assert "/invite/" not in sheet
    # A link that was made before the fix cannot be used either.
    link = _forged_link(chef_member)
    assert attacker.get(url("setup_invitations")).content.decode().count("/invite/") == 0
    visitor = Client()
    assert visitor.get(link).status_code == 410
    post = visitor.post(link, {"username": "chef2", "password1": NEW, "password2": NEW})
    assert post.status_code == 410
    _assert_untouched(chef, SU_PASSWORD)
    assert "_auth_user_id" not in visitor.session
    assert visitor.get("/admin/").status_code == 302  # to the log-in page
    assert get_user_model().objects.filter(username="chef2").count() == 0


def test_the_service_never_sets_an_existing_users_password(probe):
    """``invitation_accept`` on a member with a log-in is refused, whatever the link says."""
    chef, chef_member, _eve, _attacker = probe
    token = _forged_link(chef_member).rstrip("/").rsplit("/", 1)[1]
    with pytest.raises(invitations.InvitationRefused) as refused:
        services.invitation_accept(token=token, password=NEW, username="other")
    assert refused.value.reason == "has_login"
    _assert_untouched(chef, SU_PASSWORD)
    before = Invitation.objects.count()
    with pytest.raises(LedgerError) as error:
        services.invitation_create(member=chef_member)
    assert [p.field for p in error.value.problems] == ["member"]
    assert Invitation.objects.count() == before


@pytest.mark.parametrize("kind", ["staff", "member_elsewhere", "plain"])
def test_no_member_with_a_log_in_is_invited(probe, kind):
    """A staff user, a user who is a member of another club too, or any member with a log-in."""
    _chef, chef_member, _eve, attacker = probe
    club = chef_member.club
    if kind == "staff":
        user = get_user_model().objects.create_user("staffer", password=PASSWORD, is_staff=True)
        member = new_member(club=club, name="Staffer", user=user)
    elif kind == "member_elsewhere":
        other = make_club(slug="other", name="Other")
        elsewhere = make_member(other, "Vera", login=True)
        member = new_member(club=club, name="Vera", user=elsewhere.user)
    else:
        member = make_member(club, "Bo", login=True)
    response = attacker.post(url("setup_invitation_new", pk=member.pk))
    assert response.status_code == 303
    assert not Invitation.objects.exists()
    members_page = attacker.get(url("setup_members")).content.decode()
    assert f'data-invite="{member.name}"' not in members_page
    link = _forged_link(member)
    Client().post(link, {"username": "x-new", "password1": NEW, "password2": NEW})
    _assert_untouched(member.user, PASSWORD)
    assert not get_user_model().objects.filter(username="x-new").exists()


def test_a_member_of_another_club_cannot_be_reached(probe):
    """The invitation and the member screens of one club never name another club's member."""
    _chef, _chef_member, _eve, attacker = probe
    other = make_club(slug="other", name="Other")
    make_season(other)
    stranger = make_member(other, "Stranger")
    assert attacker.post(url("setup_invitation_new", pk=stranger.pk)).status_code == 404
    response = attacker.post(url("setup_member_edit", pk=stranger.pk), {"role": "admin"})
    assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.role == Member.Role.MEMBER and not Invitation.objects.exists()


def test_a_club_admin_cannot_change_a_site_administrators_member_row(probe):
    """Neither the role nor the active flag of a superuser's or staff user's member row."""
    _chef, chef_member, _eve, attacker = probe
    for data in ({"role": "member"}, {"active": "0"}):
        attacker.post(url("setup_member_edit", pk=chef_member.pk), data)
        chef_member.refresh_from_db()
        assert chef_member.role == Member.Role.ADMIN and chef_member.active
    page = attacker.get(url("setup_members")).content.decode()
    assert "site administrator" in page or "administrator" in page.lower()


def test_a_member_who_gets_a_log_in_after_his_invitation_cannot_use_it(probe):
    """A link made while he had none stops working once his member row has a log-in."""
    _chef, chef_member, _eve, attacker = probe
    bo = make_member(chef_member.club, "Bo")
    attacker.post(url("setup_invitation_new", pk=bo.pk))
    invitation = Invitation.objects.get(member=bo)
    link = reverse("invitation_accept", kwargs={"token": invitations.token_of(invitation.nonce)})
    user = get_user_model().objects.create_user("bo-own", password=PASSWORD)
    Member.objects.filter(pk=bo.pk).update(user=user)
    assert (
        Client().post(link, {"username": "bo2", "password1": NEW, "password2": NEW}).status_code
        == 410
    )
    _assert_untouched(user, PASSWORD)


def test_a_taken_user_name_is_a_clear_refusal_not_a_500(probe):
    """Two invitations choosing one user name: the second is told to choose another."""
    _chef, chef_member, _eve, attacker = probe
    club = chef_member.club
    links = []
    for name in ("Anna", "Ane"):
        member = make_member(club, name)
        attacker.post(url("setup_invitation_new", pk=member.pk))
        invitation = Invitation.objects.get(member=member)
        links.append(
            reverse("invitation_accept", kwargs={"token": invitations.token_of(invitation.nonce)})
        )
    first = Client().post(links[0], {"username": "anna", "password1": NEW, "password2": NEW})
    assert first.status_code == 302
    second = Client().post(links[1], {"username": "ANNA", "password1": NEW, "password2": NEW})
    assert second.status_code == 422 and "username" in second.context["form"].errors
