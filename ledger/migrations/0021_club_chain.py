"""Each club's evenings, tournaments and rounds chained in order, and the club's head sealed.

Every existing evening, tournament and round gets one link, with its status as it stands now, in
the order they were created (evenings by their opening, tournaments by their creation, rounds by
their draw); the club's head seals its last link. A ledger's history before this migration is
held by the seals of each evening and tournament (migration 0020 made sure they exist); from
here on every new object and every new status is a link. The digest is frozen here, as it stands
at this migration.
"""

import datetime
import json
from decimal import Decimal

from django.conf import settings
from django.utils.crypto import salted_hmac

import django.db.models.deletion
from django.db import migrations, models


def _plain(value):
    if isinstance(value, datetime.datetime):
        return value.astimezone(datetime.UTC).isoformat(timespec="milliseconds")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    return str(value)


def _digest(kind, content, previous=""):
    text = json.dumps(
        [kind, previous, content], sort_keys=True, separators=(",", ":"), default=_plain
    )
    secret = getattr(settings, "LEDGER_SEAL_SECRET", None) or settings.SECRET_KEY
    return salted_hmac("ledger.seal", text, secret=secret, algorithm="sha256").hexdigest()


def chain_clubs(apps, schema_editor):
    ChainLink = apps.get_model("ledger", "ChainLink")
    Evening = apps.get_model("ledger", "Evening")
    Round = apps.get_model("ledger", "Round")
    Seal = apps.get_model("ledger", "Seal")
    Tournament = apps.get_model("ledger", "Tournament")
    objects = {}
    for pk, club, status, at in Evening.objects.values_list("pk", "club_id", "status", "opened_at"):
        objects.setdefault(club, []).append((at, 0, pk, "evening", status))
    for pk, club, status, at in Tournament.objects.values_list(
        "pk", "club_id", "status", "created_at"
    ):
        objects.setdefault(club, []).append((at, 1, pk, "tournament", status))
    for pk, club, status, at in Round.objects.values_list(
        "pk", "tournament__club_id", "status", "drawn_at"
    ):
        objects.setdefault(club, []).append((at, 2, pk, "round", status))
    links, heads = [], []
    for club, rows in sorted(objects.items()):
        previous = ""
        for number, (_at, _order, pk, kind, status) in enumerate(sorted(rows), 1):
            previous = _digest("link", [club, number, kind, pk, status], previous)
            links.append(
                ChainLink(
                    club_id=club, number=number, kind=kind, object_id=pk, status=status,
                    digest=previous,
                )
            )
        heads.append(
            Seal(
                kind="club", object_id=club, scope=club,
                digest=_digest("club", [club, len(rows), previous]),
            )
        )
    ChainLink.objects.bulk_create(links, batch_size=2000)
    Seal.objects.bulk_create(heads, batch_size=2000)


def unchain_clubs(apps, schema_editor):
    apps.get_model("ledger", "Seal").objects.filter(kind="club").delete()


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0020_seal_upgraded_ledger'),
    ]

    operations = [
        migrations.AlterField(
            model_name='seal',
            name='kind',
            field=models.CharField(choices=[('posting', 'posting'), ('revision', 'hand revision'), ('log', 'evening log entry'), ('hand', 'hand'), ('table', 'table'), ('evening', 'evening'), ('tournament', 'tournament'), ('club', "club's chain head")], max_length=10, verbose_name='kind'),
        ),
        migrations.CreateModel(
            name='ChainLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField(verbose_name='number')),
                ('kind', models.CharField(choices=[('evening', 'evening'), ('tournament', 'tournament'), ('round', 'round')], max_length=10, verbose_name='kind')),
                ('object_id', models.BigIntegerField(verbose_name='object')),
                ('status', models.CharField(max_length=12, verbose_name='status')),
                ('digest', models.CharField(max_length=64, verbose_name='digest')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='chain', to='ledger.club', verbose_name='club')),
            ],
            options={
                'verbose_name': 'chain link',
                'verbose_name_plural': 'chain links',
                'indexes': [models.Index(fields=['kind', 'object_id', 'number'], name='chain_link_object')],
                'constraints': [models.UniqueConstraint(fields=('club', 'number'), name='chain_link_unique_number')],
            },
        ),
        migrations.RunPython(chain_clubs, unchain_clubs),
    ]
