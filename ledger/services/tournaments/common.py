"""What every room of the tournament services shares: the locks (the tournament, then the round,
then the evening and its tables), the director's log, the parameters and refusals."""

from __future__ import annotations

import datetime
from fractions import Fraction

from django.core.exceptions import ValidationError
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from ledger.models import Round, Tournament, validate_visible_name
from ledger.services.errors import LedgerError, with_path
from ledger.services.ledger import touched
from ledger.tournaments.engine.errors import TournamentError

# Findings of the checker a hand-made change may not leave (the rest are warnings to show).
REFUSED_CODES = frozenset(
    {
        "unknown_player",
        "inactive_player",
        "duplicate_player",
        "missing_player",
        "table_sizes",
        "bye_count",
        "second_bye",
    }
)
MAX_IMPORT_LINES = 2000


def refused(error: TournamentError, field: str) -> LedgerError:
    """Return a LedgerError with every problem of the engine, each under ``field`` and led by
    the engine's own field (``params.rounds: ...``)."""
    return LedgerError(problems=[with_path(p, field) for p in error.problems])


def lock_tournament(tournament: Tournament) -> Tournament:
    """Lock the tournament's row for the service's transaction and raise its ``version``
    (whatever the service then changes: entries, draws, results), so the standings kept by
    the version are read afresh after it commits; its seal is written before it commits."""
    touched(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    return Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)


def lock_round(round_id: int) -> Round:
    """Lock a round's row for the service's transaction; its tournament's seal is written
    before it commits."""
    round_ = Round.objects.select_for_update(of=("self",)).get(pk=round_id)
    touched(tournament_id=round_.tournament_id)
    return round_


def check_not_over(tournament: Tournament) -> None:
    if tournament.status in (Tournament.Status.PROVISIONAL, Tournament.Status.FINAL):
        raise LedgerError(_("the tournament is over"), "__all__")


def day_text(day: datetime.date) -> str:
    return date_format(day, "SHORT_DATE_FORMAT")


def check_round_day(tournament: Tournament, number: int, day: datetime.date) -> None:
    """Refuse round ``number`` on ``day`` outside the tournament's days, or before the day of
    an earlier round, or after the day of a later one (the rounds' days never go back)."""
    if not tournament.date <= day <= tournament.last_date:
        raise LedgerError(
            _("the day must be one of the tournament's days, from {first} to {last}"),
            "day",
            first=day_text(tournament.date),
            last=day_text(tournament.last_date),
        )
    rounds = tournament.rounds.exclude(number=number)
    earlier = rounds.filter(number__lt=number, day__gt=day).order_by("-number").first()
    if earlier is not None:
        raise LedgerError(
            _("round {number} is played on {day}: a later round cannot come on an earlier day"),
            "day",
            number=earlier.number,
            day=day_text(earlier.day),
        )
    later = rounds.filter(number__gt=number, day__lt=day).order_by("number").first()
    if later is not None:
        raise LedgerError(
            _("round {number} is played on {day}: an earlier round cannot come on a later day"),
            "day",
            number=later.number,
            day=day_text(later.day),
        )


def log_act(row: Round | Tournament, action: str, by, **details) -> None:
    """Append the director's act to a round's or the tournament's log (who, when, what)."""
    row.log = [
        *row.log,
        {
            "action": action,
            "by": getattr(by, "username", None),
            "at": timezone.now().isoformat(timespec="seconds"),
            **details,
        },
    ]


def points_of(text: str) -> Fraction:
    """Return stored points (an exact rational as a string) as a Fraction."""
    return Fraction(text or "0")


def check_text(value: str, field: str, *, limit: int, what) -> str:
    """Refuse a club or id longer than its column or holding control or invisible characters."""
    value = (value or "").strip()
    if len(value) > limit:
        raise LedgerError(_("{what} is at most {limit} characters"), field, what=what, limit=limit)
    try:
        validate_visible_name(value)
    except ValidationError as error:
        raise LedgerError.of_validation(error, field=field) from error
    return value
