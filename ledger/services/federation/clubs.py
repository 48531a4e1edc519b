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
            _("a federation's name has 1 to {limit} characters").format(limit=MAX_NAME), "name"
        )
    if game not in dict(game_choices()):
        raise LedgerError(_("{game} is not a game of this site").format(game=game), "game")
    if language not in dict(language_choices()):
        raise LedgerError(
            _("{language} is not a language of this site").format(language=language), "language"
        )
    with writing():
        if Federation.objects.filter(slug=slug).exists():
            raise LedgerError(_("the short name {slug} is taken").format(slug=slug), "slug")
        federation = Federation.objects.create(name=name, slug=slug, game=game, language=language)
        federation.officers.set(list(officers))
    return federation


def club_join(*, federation: Federation, club: Club, by=None) -> None:
    """Make a club a member club of the federation (a club of the federation's game)."""
    with writing():
        if club.game != federation.game:
            raise LedgerError(
                _("the club plays {club_game}; the federation plays {game}").format(
                    club_game=club.get_game_display(), game=federation.get_game_display()
                ),
                "club",
            )
        federation.clubs.add(club)


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
