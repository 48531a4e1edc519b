"""The tournament: create it, make it final, reopen it (``tournament.md`` sections 2 and 12)."""

from __future__ import annotations

import dataclasses
import datetime

from django.utils.translation import gettext_lazy as _

from ledger.models import Club, Round, Tournament, text_limit
from ledger.services.errors import LedgerError
from ledger.services.ledger import touched, writing
from ledger.services.tables import check_evening_date
from ledger.services.tournaments.common import (
    check_text,
    day_text,
    lock_tournament,
    log_act,
    refused,
)
from ledger.tournaments import engine
from ledger.tournaments.engine.errors import TournamentError

# The most days a tournament spans, first and last included (a year typed wrong is refused
# rather than a tournament of a year).
MAX_TOURNAMENT_DAYS = 31


def _check_days(first: datetime.date, last: datetime.date) -> None:
    """Refuse a last day before the first, or more than ``MAX_TOURNAMENT_DAYS`` days after it."""
    check_evening_date(first)
    try:
        check_evening_date(last)
    except LedgerError as error:
        raise LedgerError(
            problems=[dataclasses.replace(p, field="last_date") for p in error.problems]
        ) from error
    if last < first:
        raise LedgerError(_("the last day cannot come before the first"), "last_date")
    if (last - first).days >= MAX_TOURNAMENT_DAYS:
        raise LedgerError(
            _("a tournament spans at most {days} days"), "last_date", days=MAX_TOURNAMENT_DAYS
        )


def tournament_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    game: str,
    tournament_format: str,
    params: dict | None = None,
    seed: str = "",
    last_date: datetime.date | None = None,
    by=None,
) -> Tournament:
    """Create a tournament in draft; its parameters are checked by the engine. It is played
    from ``date`` to ``last_date`` (by default the same day).

    Without a seed, the seed is the tournament's id and date (section 3), fixed here.
    """
    if not name or not name.strip():
        raise LedgerError(_("a tournament needs a name"), "name")
    for field, value, what in (("name", name, _("a name")), ("seed", seed, _("a seed"))):
        check_text(value, field, limit=text_limit(Tournament, field), what=what)
    last_date = last_date or date
    _check_days(date, last_date)
    rules = engine.FORMATS.get(tournament_format)
    if rules is None:
        raise LedgerError(_("unknown tournament format"), "tournament_format")
    if not engine.plays(tournament_format, game):
        raise LedgerError(
            _("the format {format} is not played with this game"), "game", format=tournament_format
        )
    try:
        engine.params_for(tournament_format, params or None)
    except TournamentError as error:
        raise refused(error, "params") from error
    with writing():
        tournament = Tournament.objects.create(
            club=club,
            name=name.strip(),
            date=date,
            last_date=last_date,
            game=game,
            tournament_format=tournament_format,
            params=dict(params or {}),
            seed=seed.strip(),
            created_by=by,
        )
        if not tournament.seed:
            tournament.seed = f"{tournament.pk}-{date.isoformat()}"
            tournament.save(update_fields=["seed"])
        touched(tournament_id=tournament.pk)
    return tournament


def tournament_set_days(
    *, tournament: Tournament, date: datetime.date, last_date: datetime.date, by=None
) -> Tournament:
    """Set the tournament's first and last day while it is not over; every round's day must
    stay among them (move a round not started first); logged."""
    _check_days(date, last_date)
    with writing():
        tournament = lock_tournament(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.RUNNING):
            raise LedgerError(_("only a tournament not yet over can change its days"), "__all__")
        for field, outside in (
            ("date", tournament.rounds.filter(day__lt=date)),
            ("last_date", tournament.rounds.filter(day__gt=last_date)),
        ):
            round_ = outside.order_by("number").first()
            if round_ is not None:
                raise LedgerError(
                    _("round {number} is played on {day}, outside these days"),
                    field,
                    number=round_.number,
                    day=day_text(round_.day),
                )
        before = f"{tournament.date.isoformat()} – {tournament.last_date.isoformat()}"
        after = f"{date.isoformat()} – {last_date.isoformat()}"
        if before == after:
            return tournament
        tournament.date, tournament.last_date = date, last_date
        log_act(tournament, "days", by, change=f"{before} → {after}")
        tournament.save(update_fields=["date", "last_date", "log"])
    return tournament


def tournament_finish(*, tournament: Tournament, by=None) -> Tournament:
    """Mark a provisional tournament final: its ranking is the final ranking."""
    with writing():
        tournament = lock_tournament(tournament)
        if tournament.status != Tournament.Status.PROVISIONAL:
            raise LedgerError(_("only a tournament whose last round is closed can finish"))
        tournament.status = Tournament.Status.FINAL
        log_act(tournament, "finish", by)
        tournament.save(update_fields=["status", "log"])
        # The ratings follow (the federation's services import this package: imported here).
        from ledger.services.federation.ratings import ratings_follow_tournament

        ratings_follow_tournament(tournament)
    return tournament


def tournament_reopen(*, tournament: Tournament, reason: str, by=None) -> Tournament:
    """Reopen a final tournament (provisional again), with the director's logged reason."""
    if not reason or not reason.strip():
        raise LedgerError(_("reopening needs a reason"), "reason")
    with writing():
        tournament = lock_tournament(tournament)
        if tournament.status != Tournament.Status.FINAL:
            raise LedgerError(_("only a final tournament can be reopened"))
        tournament.status = Tournament.Status.PROVISIONAL
        log_act(tournament, "reopen", by, reason=reason.strip()[:500])
        tournament.save(update_fields=["status", "log"])
        # The ratings follow (the federation's services import this package: imported here).
        from ledger.services.federation.ratings import ratings_follow_tournament

        ratings_follow_tournament(tournament)
    return tournament


def tournament_cancel(*, tournament: Tournament, reason: str, by=None) -> Tournament:
    """Cancel a tournament that will not be played to its end (abandoned), with the director's
    logged reason: a published draw not started is withdrawn (its links closed), and the
    tournament leaves the public pages and the club's running tournaments. Refused while a
    round is being played (close it first: its tables are closed with it) and once the
    tournament is over."""
    if not reason or not reason.strip():
        raise LedgerError(_("cancelling a tournament needs a reason"), "reason")
    with writing():
        tournament = lock_tournament(tournament)
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.RUNNING):
            raise LedgerError(_("only a tournament not yet over can be cancelled"))
        rounds = tournament.rounds.select_for_update(of=("self",))
        if rounds.filter(status=Round.Status.PLAYING).exists():
            raise LedgerError(_("a round is being played: close it first, then cancel"))
        for round_ in rounds.filter(status=Round.Status.PUBLISHED):
            round_.round_tables.all().delete()
            round_.bye_rows.all().delete()
            round_.status = Round.Status.DRAFTED
            round_.published_at = None
            log_act(round_, "unpublish", by)
            round_.save(update_fields=["status", "published_at", "log"])
        tournament.status = Tournament.Status.CANCELLED
        log_act(tournament, "cancel", by, reason=reason.strip()[:500])
        tournament.save(update_fields=["status", "log"])
    return tournament
