"""Evenings of kind tournament, one open club evening per date, and tournaments sealed.

A tournament's evening becomes of kind tournament (no club role touches it). The evening's head
seal now covers its kind: each evening whose stored head still holds under the old content is
resealed with the new, and one whose head does not hold keeps its old seal, so
``verify_ledger`` still names it (a tampering before the upgrade is never blessed). Every
tournament is sealed for the first time (its closed rounds' results are re-derived by
``verify_ledger`` from the tables they close). The contents and the digest are frozen here, as
they stand at this migration, so a later change to ``ledger.services.seals`` cannot change
what this migration does.
"""

import datetime
import json
from decimal import Decimal

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, Max
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


EVENING_BEFORE = (
    "pk", "club_id", "season_id", "date", "status", "game", "rate_card", "price_per_point",
    "starting_jetons", "opened_at", "closed_at",
)
EVENING_AFTER = (
    "pk", "club_id", "season_id", "date", "status", "kind", "game", "rate_card",
    "price_per_point", "starting_jetons", "opened_at", "closed_at",
)


def _evening_content(apps, evening_id, fields):
    Evening = apps.get_model("ledger", "Evening")
    EveningLog = apps.get_model("ledger", "EveningLog")
    EveningResult = apps.get_model("ledger", "EveningResult")
    Seal = apps.get_model("ledger", "Seal")
    Table = apps.get_model("ledger", "Table")
    row = Evening.objects.filter(pk=evening_id).values_list(*fields).first()
    logs = EveningLog.objects.filter(evening_id=evening_id).aggregate(n=Count("pk"), last=Max("pk"))
    last = (
        Seal.objects.filter(kind="log", object_id=logs["last"])
        .values_list("digest", flat=True)
        .first()
    )
    return [
        list(row),
        list(Table.objects.filter(evening_id=evening_id).order_by("pk").values_list("pk", "number")),
        list(
            EveningResult.objects.filter(evening_id=evening_id)
            .order_by("pk")
            .values_list("pk", "member_id", "points", "money", "closing")
        ),
        [logs["n"], logs["last"], last or ""],
    ]


def _tournament_content(apps, tournament_id):
    get = lambda name: apps.get_model("ledger", name)  # noqa: E731
    row = (
        get("Tournament").objects.filter(pk=tournament_id)
        .values_list(
            "pk", "club_id", "name", "date", "game", "tournament_format", "seed", "params",
            "rate_card", "status", "evening_id", "log", "created_at", "created_by_id",
        )
        .first()
    )
    return [
        list(row),
        list(
            get("Entry").objects.filter(tournament_id=tournament_id).order_by("pk").values_list(
                "pk", "member_id", "code", "name", "club_name", "guest", "ladder_rank",
                "from_round", "withdrawn_after",
            )
        ),
        list(
            get("Round").objects.filter(tournament_id=tournament_id).order_by("pk").values_list(
                "pk", "number", "kind", "mode", "status", "tables", "byes", "groups", "warnings",
                "computed", "log", "time_limit_min", "drawn_at", "published_at", "started_at",
                "closed_at",
            )
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


def _reseal_evenings(apps, was, now):
    """Reseal every evening head that holds under the ``was`` content with the ``now`` one."""
    Evening = apps.get_model("ledger", "Evening")
    Seal = apps.get_model("ledger", "Seal")
    heads = dict(Seal.objects.filter(kind="evening").values_list("object_id", "digest"))
    for evening_id in Evening.objects.order_by("pk").values_list("pk", flat=True):
        stored = heads.get(evening_id)
        if stored is None or stored != _digest("evening", _evening_content(apps, evening_id, was)):
            continue  # not sealed, or not as sealed: verify_ledger goes on naming it
        Seal.objects.filter(kind="evening", object_id=evening_id).update(
            digest=_digest("evening", _evening_content(apps, evening_id, now))
        )


def forwards(apps, schema_editor):
    Evening = apps.get_model("ledger", "Evening")
    Seal = apps.get_model("ledger", "Seal")
    Tournament = apps.get_model("ledger", "Tournament")
    Evening.objects.filter(
        pk__in=Tournament.objects.exclude(evening=None).values("evening_id")
    ).update(kind="tournament")
    _reseal_evenings(apps, EVENING_BEFORE, EVENING_AFTER)
    for tournament in Tournament.objects.order_by("pk").values_list("pk", "club_id"):
        Seal.objects.update_or_create(
            kind="tournament",
            object_id=tournament[0],
            defaults={
                "scope": tournament[1],
                "digest": _digest("tournament", _tournament_content(apps, tournament[0])),
            },
        )


def _guards():
    from importlib import import_module

    return import_module("ledger.migrations.0002_ledger_triggers")


def drop_guards(apps, schema_editor):
    # SQLite remakes the evening table for the new constraint: a trigger naming it must go
    # first and come back after.
    _guards().drop(apps, schema_editor)


def create_guards(apps, schema_editor):
    _guards().create(apps, schema_editor)


def backwards(apps, schema_editor):
    Seal = apps.get_model("ledger", "Seal")
    Seal.objects.filter(kind="tournament").delete()
    _reseal_evenings(apps, EVENING_AFTER, EVENING_BEFORE)


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0018_tournament_version'),
    ]

    operations = [
        migrations.RunPython(drop_guards, create_guards),
        migrations.RemoveConstraint(
            model_name='evening',
            name='one_open_evening_per_date',
        ),
        migrations.AddField(
            model_name='evening',
            name='kind',
            field=models.CharField(choices=[('club', 'club evening'), ('tournament', 'tournament')], default='club', max_length=12, verbose_name='kind'),
        ),
        migrations.AlterField(
            model_name='seal',
            name='kind',
            field=models.CharField(choices=[('posting', 'posting'), ('revision', 'hand revision'), ('log', 'evening log entry'), ('hand', 'hand'), ('table', 'table'), ('evening', 'evening'), ('tournament', 'tournament')], max_length=10, verbose_name='kind'),
        ),
        migrations.AddConstraint(
            model_name='evening',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'club'), ('status', 'open')), fields=('club', 'date'), name='one_open_club_evening_per_date'),
        ),
        migrations.RunPython(create_guards, drop_guards),
        migrations.RunPython(forwards, backwards),
    ]
