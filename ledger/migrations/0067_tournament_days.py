"""Tournaments of several days: a tournament's last day, each round's day and evening.

A tournament is played from its ``date`` to its ``last_date`` (the same day for every
tournament until now), an evening of its own per day; each round has its ``day`` (the
tournament's date until now) and the ``evening`` it was played at (the tournament's evening
for a round already started). The tournament's head seal now covers these: each tournament
whose stored head still holds under the old content is resealed with the new, and one whose
head does not hold keeps its old seal, so ``verify_ledger`` still names it (a tampering
before the upgrade is never blessed). The contents and the digest are frozen here, as they
stand at this migration, so a later change to ``ledger.services.seals`` cannot change what
this migration does.
"""

import datetime
import json
from decimal import Decimal

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils.crypto import salted_hmac


def _plain(value):
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).isoformat(timespec="milliseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def _digest(kind, content):
    text = json.dumps([kind, "", content], sort_keys=True, separators=(",", ":"), default=_plain)
    secret = getattr(settings, "LEDGER_SEAL_SECRET", None) or settings.SECRET_KEY
    return salted_hmac("ledger.seal", text, secret=secret, algorithm="sha256").hexdigest()


TOURNAMENT_BEFORE = (
    "pk", "club_id", "name", "date", "game", "tournament_format", "seed", "params",
    "rate_card", "status", "evening_id", "log", "created_at", "created_by_id",
)
TOURNAMENT_AFTER = (*TOURNAMENT_BEFORE, "last_date")
ROUND_BEFORE = (
    "pk", "number", "kind", "mode", "status", "tables", "byes", "groups", "warnings",
    "computed", "log", "time_limit_min", "drawn_at", "published_at", "started_at",
    "closed_at",
)
ROUND_AFTER = (*ROUND_BEFORE, "day", "evening_id")


def _content(apps, tournament_id, tournament_fields, round_fields):
    get = lambda name: apps.get_model("ledger", name)  # noqa: E731
    row = get("Tournament").objects.filter(pk=tournament_id).values_list(*tournament_fields)
    return [
        list(row.first()),
        list(
            get("Entry").objects.filter(tournament_id=tournament_id).order_by("pk").values_list(
                "pk", "member_id", "code", "name", "club_name", "guest", "ladder_rank",
                "from_round", "withdrawn_after",
            )
        ),
        list(
            get("Round").objects.filter(tournament_id=tournament_id).order_by("pk")
            .values_list(*round_fields)
        ),
        list(
            get("RoundTable").objects.filter(round__tournament_id=tournament_id)
            .order_by("pk")
            .values_list(
                "pk", "round_id", "number", "seats", "table_id", "hands_played", "results",
                "ended_by", "substitutes",
            )
        ),
        list(
            get("Bye").objects.filter(round__tournament_id=tournament_id)
            .order_by("pk")
            .values_list("pk", "round_id", "entry_id", "points")
        ),
    ]


def _reseal(apps, was, now):
    """Reseal every tournament head that holds under the ``was`` contents with the ``now``
    ones (each a pair of the tournament's and the round's fields)."""
    Seal = apps.get_model("ledger", "Seal")
    heads = dict(Seal.objects.filter(kind="tournament").values_list("object_id", "digest"))
    for tournament_id in apps.get_model("ledger", "Tournament").objects.order_by("pk").values_list(
        "pk", flat=True
    ):
        stored = heads.get(tournament_id)
        if stored is None or stored != _digest("tournament", _content(apps, tournament_id, *was)):
            continue  # not sealed, or not as sealed: verify_ledger goes on naming it
        Seal.objects.filter(kind="tournament", object_id=tournament_id).update(
            digest=_digest("tournament", _content(apps, tournament_id, *now))
        )


def forwards(apps, schema_editor):
    Tournament = apps.get_model("ledger", "Tournament")
    Round = apps.get_model("ledger", "Round")
    Tournament.objects.update(last_date=models.F("date"))
    for pk, date, evening_id in Tournament.objects.values_list("pk", "date", "evening_id"):
        Round.objects.filter(tournament_id=pk).update(day=date)
        Round.objects.filter(tournament_id=pk).exclude(started_at=None).update(evening_id=evening_id)
    _reseal(apps, (TOURNAMENT_BEFORE, ROUND_BEFORE), (TOURNAMENT_AFTER, ROUND_AFTER))
    if schema_editor.connection.vendor == "postgresql":
        # The rows just written must not leave deferred checks pending: the columns are
        # altered next, in this transaction.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def backwards(apps, schema_editor):
    _reseal(apps, (TOURNAMENT_AFTER, ROUND_AFTER), (TOURNAMENT_BEFORE, ROUND_BEFORE))


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0066_hand_confirmations'),
    ]

    operations = [
        migrations.AddField(
            model_name='tournament',
            name='last_date',
            field=models.DateField(null=True, verbose_name='last day'),
        ),
        migrations.AddField(
            model_name='round',
            name='day',
            field=models.DateField(null=True, verbose_name='day'),
        ),
        migrations.AddField(
            model_name='round',
            name='evening',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='rounds', to='ledger.evening', verbose_name='evening'),
        ),
        migrations.RunPython(forwards, backwards),
        migrations.AlterField(
            model_name='tournament',
            name='last_date',
            field=models.DateField(verbose_name='last day'),
        ),
        migrations.AlterField(
            model_name='round',
            name='day',
            field=models.DateField(verbose_name='day'),
        ),
    ]
