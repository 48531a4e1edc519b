"""Federations and their member clubs."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ledger.games.web import game_choices
from ledger.models import Club, Federation, FederationLog, language_choices, text_limit
from ledger.services.errors import LedgerError
from ledger.services.ledger import writing

MAX_NAME = text_limit(Federation, "name")


def federation_create(*, name: str, slug: str, game: str, language: str, officers=(), by=None):
    """Create a federation of one game and language; ``officers`` are users."""
    name = (name or "").strip()
    if not name or len(name) > MAX_NAME:
        raise LedgerError(
            _("a federation's name has 1 to {limit} characters"), "name", limit=MAX_NAME
        )
    if game not in dict(game_choices()):
        raise LedgerError(_("{game} is not a game of this site"), "game", game=game)
    if language not in dict(language_choices()):
        raise LedgerError(
            _("{language} is not a language of this site"), "language", language=language
        )
    with writing():
        if Federation.objects.filter(slug=slug).exists():
            raise LedgerError(_("the short name {slug} is taken"), "slug", slug=slug)
        federation = Federation.objects.create(name=name, slug=slug, game=game, language=language)
        federation.officers.set(list(officers))
    return federation


def club_join(*, federation: Federation, club: Club, by=None) -> None:
    """Make a club a member club of the federation (a club of the federation's game)."""
    with writing():
        if club.game != federation.game:
            raise LedgerError(
                _("the club plays {club_game}; the federation plays {game}"),
                "club",
                club_game=club.get_game_display(),
                game=federation.get_game_display(),
            )
        federation.clubs.add(club)


def officer_add(*, federation: Federation, username: str, by=None):
    """Make the user of ``username`` an officer of the federation (logged); an unknown user
    or one already an officer is refused under ``username``."""
    from django.contrib.auth import get_user_model

    username = (username or "").strip()
    with writing():
        user = get_user_model().objects.filter(username=username).first()
        if user is None or not user.is_active:
            raise LedgerError(
                _("no user has the username {username}"), "username", username=username[:150]
            )
        if federation.officers.filter(pk=user.pk).exists():
            raise LedgerError(
                _("{username} is already an officer of the federation"),
                "username",
                username=username,
            )
        federation.officers.add(user)
        FederationLog.objects.create(
            federation=federation,
            action="officer_add",
            details={"user": user.pk, "username": user.get_username()},
            by=by,
        )
    return user


def officer_remove(*, federation: Federation, user, by=None) -> None:
    """Remove an officer of the federation (logged); one who is not an officer, or the last
    officer, is refused under ``officer``."""
    with writing():
        officers = set(
            Federation.officers.through.objects.select_for_update()
            .filter(federation=federation)
            .values_list("user_id", flat=True)
        )
        if user.pk not in officers:
            raise LedgerError(
                _("{username} is not an officer of the federation"),
                "officer",
                username=user.get_username(),
            )
        if len(officers) == 1:
            raise LedgerError(_("a federation keeps at least one officer"), "officer")
        federation.officers.remove(user)
        FederationLog.objects.create(
            federation=federation,
            action="officer_remove",
            details={"user": user.pk, "username": user.get_username()},
            by=by,
        )


def federation_publish_set(*, federation: Federation, publish: bool, by=None) -> Federation:
    """Publish the federation's series and their ladders at /pf/<federation>/ (or stop);
    logged in the federation's log when it changes."""
    if not isinstance(publish, bool):
        raise LedgerError(_("publish is yes or no"), "publish")
    with writing():
        federation = Federation.objects.select_for_update().get(pk=federation.pk)
        if federation.publish_results != publish:
            federation.publish_results = publish
            federation.save(update_fields=["publish_results"])
            FederationLog.objects.create(
                federation=federation, action="publish", details={"publish": publish}, by=by
            )
    return federation
