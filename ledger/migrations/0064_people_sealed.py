"""The clubs' people sealed: each member's log-in, role, name and active flag, and each
club's people log (``ClubLog``, new here, empty) with the club's people head.

Every existing member is sealed as he stands (nothing to compare him with: who may write was
never sealed before), and each club's people head over its members and its empty log. A member
who already has a seal keeps it. The contents and the digest are frozen here, as they stand at
this migration (``ledger.services.people``).
"""

import datetime
import json
from decimal import Decimal

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.utils.crypto import salted_hmac

MEMBER_FIELDS = ("pk", "club_id", "name", "user_id", "role", "active")


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


def seal_people(apps, schema_editor):
    Club = apps.get_model("ledger", "Club")
    Member = apps.get_model("ledger", "Member")
    Seal = apps.get_model("ledger", "Seal")
    sealed = set(Seal.objects.filter(kind="member").values_list("object_id", flat=True))
    rows, ids = [], {}
    for row in Member.objects.order_by("pk").values_list(*MEMBER_FIELDS):
        ids.setdefault(row[1], []).append(row[0])
        if row[0] not in sealed:
            rows.append(
                Seal(kind="member", object_id=row[0], scope=row[1], digest=_digest("member", list(row)))
            )
    heads = set(Seal.objects.filter(kind="people").values_list("object_id", flat=True))
    for club_id in Club.objects.order_by("pk").values_list("pk", flat=True):
        if club_id not in heads:
            content = [club_id, ids.get(club_id, []), [0, None, ""]]
            rows.append(
                Seal(kind="people", object_id=club_id, scope=club_id, digest=_digest("people", content))
            )
    Seal.objects.bulk_create(rows, batch_size=2000)


def unseal_people(apps, schema_editor):
    apps.get_model("ledger", "Seal").objects.filter(kind__in=["member", "clublog", "people"]).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0063_merge_chain_tournaments_federation'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name='seal',
            name='kind',
            field=models.CharField(choices=[('posting', 'posting'), ('revision', 'hand revision'), ('log', 'evening log entry'), ('hand', 'hand'), ('table', 'table'), ('evening', 'evening'), ('tournament', 'tournament'), ('club', "club's chain head"), ('member', 'member'), ('clublog', 'people log entry'), ('people', "club's people")], max_length=10, verbose_name='kind'),
        ),
        migrations.CreateModel(
            name='ClubLog',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('member_name', models.CharField(blank=True, max_length=60, verbose_name='name')),
                ('action', models.CharField(max_length=20, verbose_name='action')),
                ('details', models.JSONField(blank=True, default=dict, verbose_name='details')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='at')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='people_log', to='ledger.club', verbose_name='club')),
                ('member', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='ledger.member', verbose_name='member')),
            ],
            options={
                'verbose_name': 'people log entry',
                'verbose_name_plural': 'people log',
                'ordering': ['pk'],
            },
        ),
        migrations.RunPython(seal_people, unseal_people),
    ]
