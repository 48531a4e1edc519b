"""Password reset by e-mail: Django's own views, with the site's templates; the request
bounded per client and per address (``BoundedPasswordResetView``), the new password logged
in the user's clubs (``LoggedPasswordResetConfirmView``).

Mounted at ``/password-reset/`` by ``tarokclub/urls.py``. The mail goes through the
configured EMAIL_BACKEND (console by default; SMTP when DJANGO_EMAIL_HOST is set).
"""

from django.contrib.auth import views as auth_views
from django.urls import path

from ledger.views.home import BoundedPasswordResetView, LoggedPasswordResetConfirmView

urlpatterns = [
    path(
        "",
        BoundedPasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "sent/",
        auth_views.PasswordResetDoneView.as_view(
            template_name="registration/password_reset_done.html"
        ),
        name="password_reset_done",
    ),
    path(
        "done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path(
        "<uidb64>/<token>/",
        LoggedPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
]
