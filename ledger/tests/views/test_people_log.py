"""The club's people log page: the set-up screens' changes to members, log-ins, roles and
invitations, each written by its service and shown to the club's admins, newest first, in the
club's language."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger.models import ClubLog, Invitation, Member
from ledger.selectors.verify import verify_ledger
from ledger.tests.factories import PASSWORD, make_club, make_member, make_season
from ledger.tests.helpers import found

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    club = make_club(slug="vejle", name="Vejle", language="da")
    make_season(club)
    make_member(club, "Admin", Member.Role.ADMIN, login=True)
    return club


def url(club, name, **kwargs):
    return reverse(name, kwargs={"club": club.slug, **kwargs})


def rows(client, club) -> list[str]:
    page = client.get(url(club, "setup_people_log")).content.decode()
    body = page.split('id="people-log"', 1)[1].split("</table>", 1)[0]
    cells = re.findall(r"<tr[^>]*data-action[^>]*>(.*?)</tr>", body, re.S)
    return [
        " | ".join(
            re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        )
        for row in cells
    ]


def test_the_set_up_screens_changes_are_logged_and_shown_newest_first(club, client):
    client.login(username="vejle-admin", password=PASSWORD)
    client.post(
        url(club, "setup_members"), {"action": "add", "add-name": "Bo", "add-role": "member"}
    )
    bo = Member.objects.get(name="Bo")
    client.post(url(club, "setup_member_edit", pk=bo.pk), {"role": "treasurer", "active": ""})
    client.post(url(club, "setup_member_edit", pk=bo.pk), {"role": "", "active": "0"})
    client.post(url(club, "setup_member_edit", pk=bo.pk), {"role": "", "active": "1"})
    client.post(url(club, "setup_invitation_new", pk=bo.pk))
    token_page = client.get(url(club, "setup_invitations")).content.decode()
    token = found(r"/invite/([0-9a-f]{64})/", token_page).group(1)
    client.logout()
    client.post(
        reverse("invitation_accept", kwargs={"token": token}),
        {"username": "bo", "password1": "bo-secret-pw-7", "password2": "bo-secret-pw-7"},
    )
    client.logout()
    assert list(ClubLog.objects.values_list("action", flat=True)) == [
        "added",
        "role",
        "active",
        "active",
        "invited",
        "invitation_used",
        "login_created",
    ]
    assert verify_ledger().ok
    client.login(username="vejle-admin", password=PASSWORD)
    shown = rows(client, club)
    assert shown[0].endswith("bo | Bo | login oprettet | – | bo")
    assert shown[-2].endswith("vejle-admin | Bo | rolle ændret | medlem | kasserer"), shown
    assert any("aktiv ændret | aktiv | inaktiv" in r for r in shown), shown
    assert shown[-1].endswith("Bo | medlem tilføjet | – | Bo, medlem"), shown
    text = str(list(ClubLog.objects.values_list("details", flat=True)))
    assert token not in text and "bo-secret-pw-7" not in text


def test_only_the_clubs_admins_read_it(club, client):
    make_member(club, "Kasse", Member.Role.TREASURER, login=True)
    client.login(username="vejle-kasse", password=PASSWORD)
    assert client.get(url(club, "setup_people_log")).status_code == 403


def test_a_revoked_invitation_and_a_password_reset_are_logged(club, client, django_user_model):
    from ledger import services

    bo = services.members_add(club=club, names=["Bo"])[0]
    services.invitation_create(member=bo)
    services.invitation_create(member=bo)  # the first is cut short
    root = django_user_model.objects.create_superuser("root", "r@example.org", PASSWORD)
    services.invitations_revoke(invitations=list(Invitation.objects.all()), by=root)
    admin = Member.objects.get(name="Admin")
    services.password_reset_done(user=admin.user, password="new-secret-pw-3")
    actions = list(ClubLog.objects.values_list("action", flat=True))
    assert actions == [
        "added",
        "invited",
        "invitation_revoked",
        "invited",
        "invitation_revoked",
        "invitation_revoked",
        "password_reset",
    ]
    assert verify_ledger().ok


def test_the_django_admin_change_of_a_member_is_logged(club, client, django_user_model):
    root = django_user_model.objects.create_superuser("root", "r@example.org", PASSWORD)
    client.force_login(root)
    bo = make_member(club, "Bo")
    change = reverse("admin:ledger_member_change", args=[bo.pk])
    response = client.post(
        change, {"club": club.pk, "name": "Bo", "user": root.pk, "role": "admin", "active": "on"}
    )
    assert response.status_code == 302, response.content.decode()[:1500]
    entries = {e.action: e.details for e in ClubLog.objects.filter(member=bo)}
    assert entries == {
        "login": {"new": "root"},
        "role": {"old": "member", "new": "admin"},
    }
    assert ClubLog.objects.get(action="role").by == root
    assert verify_ledger().ok
    assert client.get(reverse("admin:ledger_member_delete", args=[bo.pk])).status_code == 403
