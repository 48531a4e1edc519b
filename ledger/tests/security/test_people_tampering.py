"""verify_ledger against a tamperer who changes who may write (issue 29): a member's role or
log-in changed in the database, log-ins swapped, a member or a seal removed, the people log
rewritten. Each change is made the way someone editing the database by hand would; every one
must be reported. The people's services leave a ledger that verifies."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from ledger import services
from ledger.models import ClubLog, Member, Seal
from ledger.selectors.verify import verify_ledger
from ledger.services import invitations
from ledger.tests.factories import PASSWORD, make_club, make_member, new_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(django_user_model):
    """A club set up through the services: its admin, members added, a role given, one
    member's log-in made with his invitation."""
    root = django_user_model.objects.create_superuser("root", "root@example.org", PASSWORD)
    club, admin, _season = services.club_create(
        name="Vejle Tarok",
        slug="vejle",
        game="danish_tarok",
        season_name="2026/2027",
        season_starts_on=datetime.date(2026, 8, 1),
        season_ends_on=datetime.date(2027, 7, 31),
        admin_user=root,
        admin_name="Root",
    )
    anna, bo, carl = services.members_add(club=club, names=["Anna", "Bo", "Carl"], by=root)
    services.member_update(member=bo, role=Member.Role.SCOREKEEPER, by=root)
    for member in (anna, bo):
        invitation, token = services.invitation_create(member=member, by=root)
        services.invitation_accept(token=token, password=PASSWORD, username=member.name.lower())
    return club


def problems() -> list[str]:
    report = verify_ledger()
    assert not report.ok, "the tampering went unnoticed"
    return report.problems


def reported(text: str) -> bool:
    found = problems()
    return any(text in p for p in found) or pytest.fail(f"{text!r} not in {found}")


def test_the_peoples_services_leave_a_ledger_that_verifies(club):
    report = verify_ledger()
    assert report.ok, report.problems
    actions = list(ClubLog.objects.filter(club=club).values_list("member_name", "action"))
    assert actions == [
        ("Root", "added"),
        ("Anna", "added"),
        ("Bo", "added"),
        ("Carl", "added"),
        ("Bo", "role"),
        ("Anna", "invited"),
        ("Anna", "invitation_used"),
        ("Anna", "login_created"),
        ("Bo", "invited"),
        ("Bo", "invitation_used"),
        ("Bo", "login_created"),
    ]
    role = ClubLog.objects.get(action="role")
    assert role.details == {"old": "member", "new": "scorekeeper"}
    assert role.by is not None
    assert role.by.username == "root"
    assert ClubLog.objects.get(action="login_created", member_name="Anna").details == {
        "new": "anna"
    }


def test_no_password_nor_token_is_logged(club):
    member = Member.objects.get(name="Carl")
    _invitation, token = services.invitation_create(member=member)
    services.invitation_accept(token=token, password="a-secret-pw-9", username="carl")
    text = str(list(ClubLog.objects.values_list("details", flat=True)))
    assert token not in text and "a-secret-pw-9" not in text
    assert invitations.hash_of(token) not in text


def test_a_member_made_admin_in_the_database(club):
    Member.objects.filter(name="Carl").update(role=Member.Role.ADMIN)
    assert reported("member Carl (role admin, log-in –, active) differs from his seal")


def test_a_member_left_made_active_again(club):
    services.member_update(member=Member.objects.get(name="Carl"), active=False)
    assert verify_ledger().ok
    Member.objects.filter(name="Carl").update(active=True)
    assert reported("member Carl (role member, log-in –, active) differs from his seal")


def test_two_members_log_ins_swapped(club):
    anna, bo = Member.objects.get(name="Anna"), Member.objects.get(name="Bo")
    Member.objects.filter(pk=anna.pk).update(user=None)
    Member.objects.filter(pk=bo.pk).update(user=anna.user_id)
    Member.objects.filter(pk=anna.pk).update(user=bo.user_id)
    found = problems()
    assert any("member Anna (role member, log-in bo, active) differs" in p for p in found)
    assert any("member Bo (role scorekeeper, log-in anna, active) differs" in p for p in found)


def test_a_members_log_in_pointed_to_another_user(club):
    intruder = get_user_model().objects.create_user("intruder", password=PASSWORD)
    Member.objects.filter(name="Root").update(user=intruder)
    assert reported("member Root (role admin, log-in intruder, active) differs from his seal")


def test_a_log_in_given_to_a_member_without_one(club):
    intruder = get_user_model().objects.create_user("intruder", password=PASSWORD)
    Member.objects.filter(name="Carl").update(user=intruder)
    assert reported("member Carl (role member, log-in intruder, active) differs")


def test_a_member_deleted_with_his_seal(club):
    """A member who never played, removed with his seal as a careful tamperer would."""
    carl = Member.objects.get(name="Carl")
    Seal.objects.filter(kind=Seal.Kind.MEMBER, object_id=carl.pk).delete()
    Member.objects.filter(pk=carl.pk).delete()
    assert reported("the club's members or people log differ from their seal")


def test_a_member_deleted_and_his_seal_kept(club):
    carl = Member.objects.get(name="Carl")
    Member.objects.filter(pk=carl.pk).delete()
    assert reported(f"member {carl.pk} was sealed and is missing")


def test_a_members_seal_deleted(club):
    Seal.objects.filter(kind=Seal.Kind.MEMBER, object_id=Member.objects.get(name="Bo").pk).delete()
    assert reported("member Bo (role scorekeeper, log-in bo, active) has no seal")


def test_a_member_inserted_with_a_copied_seal(club):
    """A new admin inserted with the seal of another member copied to it."""
    root = Member.objects.get(name="Root")
    extra = Member.objects.create(club=club, name="Mallory", role=Member.Role.ADMIN)
    digest = Seal.objects.get(kind=Seal.Kind.MEMBER, object_id=root.pk).digest
    Seal.objects.create(kind=Seal.Kind.MEMBER, object_id=extra.pk, scope=club.pk, digest=digest)
    found = problems()
    assert any("member Mallory (role admin" in p and "differs" in p for p in found), found
    assert any("members or people log differ from their seal" in p for p in found), found


def test_the_role_change_rewritten_in_the_log(club):
    ClubLog.objects.filter(action="role").update(details={"old": "member", "new": "member"})
    assert reported("(role Bo) differs from its seal")


def test_the_log_entry_of_a_log_in_removed_from_the_middle(club):
    entry = ClubLog.objects.get(action="login_created", member_name="Anna")
    Seal.objects.filter(kind=Seal.Kind.CLUB_LOG, object_id=entry.pk).delete()
    entry.delete()
    assert reported("does not follow the one sealed before it")


def test_the_log_cut_short(club):
    last = ClubLog.objects.order_by("-pk").first()
    assert last is not None
    Seal.objects.filter(kind=Seal.Kind.CLUB_LOG, object_id=last.pk).delete()
    last.delete()
    assert reported("the club's members or people log differ from their seal")


def test_the_clubs_people_seal_deleted(club):
    Seal.objects.filter(kind=Seal.Kind.PEOPLE, object_id=club.pk).delete()
    assert reported("club vejle: the club's people have no seal")


def test_seals_forged_with_another_secret(club, settings):
    settings.LEDGER_SEAL_SECRET = "another-secret-" * 4
    found = problems()
    assert any("member Root" in p for p in found)
    assert any("people log entry" in p for p in found)


def test_verify_of_one_club_checks_its_people(club):
    other = make_club(slug="other", name="Other")
    make_member(other, "Zoe")
    Member.objects.filter(name="Carl").update(role=Member.Role.TREASURER)
    assert not verify_ledger(club=club).ok
    assert verify_ledger(club=other).ok


def test_a_guest_removed_with_his_entry_leaves_the_ledger_verifying(club):
    """A guest's member row removed by its service: logged, his seal gone with him."""
    from ledger.services import people

    guest = new_member(club=club, name="Guest", active=False)
    people.remove_member(guest)
    assert verify_ledger().ok
    assert ClubLog.objects.filter(action="removed", member_name="Guest").exists()
