"""Club set-up URLs: ``urlpatterns`` live under /c/<club>/setup/ (club admins);
``public_urlpatterns`` are the new-club screen (superusers) and the invitation link."""

from django.urls import path

from ledger.views import privacy
from ledger.views import setup as views

urlpatterns = [
    path("setup/members/", views.members, name="setup_members"),
    path("setup/members/<int:pk>/", views.member_edit, name="setup_member_edit"),
    path("setup/members/<int:pk>/erase/", privacy.member_erase_view, name="setup_member_erase"),
    path("setup/rates/", views.rates, name="setup_rates"),
    path("setup/seasons/", views.seasons, name="setup_seasons"),
    path("setup/seasons/<int:pk>/", views.season_edit, name="setup_season_edit"),
    path("setup/settings/", views.club_settings, name="setup_settings"),
    path("setup/log/", views.people_log, name="setup_people_log"),
    path("setup/members/<int:pk>/invite/", views.invitation_new, name="setup_invitation_new"),
    path("setup/invitations/", views.invitations_sheet, name="setup_invitations"),
    path("setup/invitations/all/", views.invitations_all, name="setup_invitations_all"),
    path("setup/invitations/pdf/", views.invitations_pdf, name="setup_invitations_pdf"),
]

public_urlpatterns = [
    path("club/new/", views.club_new, name="club_new"),
    path("invite/<str:token>/", views.invitation_accept, name="invitation_accept"),
]
