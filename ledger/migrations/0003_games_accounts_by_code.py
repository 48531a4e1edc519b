"""Games as packages, accounts by code, state on postings, and the rules the database holds.

- ``Account.kind`` is ``member`` or ``pool``; ``Account.code`` is the account's key in the
  game's hand records (the seat's name as seated, or the pool's code), unique per table.
- ``Seat.name`` keeps the member's name as seated, so a rename never changes the past.
- ``Posting.cups_before`` becomes ``state_before`` (any game's state); ``state_after`` and
  ``intent`` (what an adjustment asked) are new.
- ``Evening.game`` is copied from the club; one open evening per club and date.
- The SQLite schema editor may rebuild a table, which drops its triggers: the ledger's
  guards of migration 0002 are therefore dropped and created again at the end.
"""

import django.core.validators
from django.db import migrations, models

import ledger.models

POOL_KINDS = ("kongekop", "pagatkop")


def forwards(apps, schema_editor):
    Account = apps.get_model("ledger", "Account")
    Seat = apps.get_model("ledger", "Seat")
    Evening = apps.get_model("ledger", "Evening")
    for account in Account.objects.select_related("member"):
        if account.kind in POOL_KINDS:
            account.code = account.kind
            account.kind = "pool"
        else:
            account.code = account.member.name
        account.save(update_fields=["code", "kind"])
    for seat in Seat.objects.select_related("member"):
        seat.name = seat.member.name
        seat.save(update_fields=["name"])
    for evening in Evening.objects.select_related("club"):
        evening.game = evening.club.game
        evening.save(update_fields=["game"])


def backwards(apps, schema_editor):
    Account = apps.get_model("ledger", "Account")
    for account in Account.objects.filter(kind="pool"):
        account.kind = account.code
        account.save(update_fields=["kind"])


def _guards():
    from importlib import import_module

    return import_module("ledger.migrations.0002_ledger_triggers")


def drop_guards(apps, schema_editor):
    _guards().drop(apps, schema_editor)


def create_guards(apps, schema_editor):
    _guards().create(apps, schema_editor)


GAME_FIELD = models.CharField(
    choices=[
        ("danish_tarok", "Danish Tarok"),
        ("slovenian_tarok", "Slovenian Tarok"),
        ("hungarian_tarokk", "Hungarian Tarokk"),
    ],
    default="danish_tarok",
    max_length=30,
)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0002_ledger_triggers")]

    operations = [
        migrations.RunPython(drop_guards, create_guards),
        migrations.RemoveConstraint(model_name="account", name="account_cup_unique"),
        migrations.AddField(
            model_name="account",
            name="code",
            field=models.CharField(default="", max_length=60),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="seat",
            name="name",
            field=models.CharField(default="", max_length=60),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="evening",
            name="game",
            field=models.CharField(
                choices=[
                    ("danish_tarok", "Danish Tarok"),
                    ("slovenian_tarok", "Slovenian Tarok"),
                    ("hungarian_tarokk", "Hungarian Tarokk"),
                ],
                default="danish_tarok",
                max_length=30,
                verbose_name="game",
            ),
        ),
        migrations.RenameField(model_name="posting", old_name="cups_before", new_name="state_before"),
        migrations.AddField(
            model_name="posting", name="state_after", field=models.JSONField(blank=True, null=True)
        ),
        migrations.AddField(
            model_name="posting", name="intent", field=models.JSONField(blank=True, null=True)
        ),
        migrations.RunPython(forwards, backwards),
        migrations.AlterField(
            model_name="account",
            name="kind",
            field=models.CharField(
                choices=[("member", "member"), ("pool", "pool")], max_length=10
            ),
        ),
        migrations.AlterModelOptions(
            name="account", options={"verbose_name": "account", "verbose_name_plural": "accounts"}
        ),
        migrations.AddConstraint(
            model_name="account",
            constraint=models.UniqueConstraint(fields=("table", "code"), name="account_code_unique"),
        ),
        migrations.AddConstraint(
            model_name="evening",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status", "open")),
                fields=("club", "date"),
                name="one_open_evening_per_date",
            ),
        ),
        migrations.AlterField(
            model_name="member",
            name="name",
            field=models.CharField(
                max_length=60, validators=[ledger.models.validate_member_name], verbose_name="name"
            ),
        ),
        migrations.AlterField(
            model_name="club",
            name="starting_jetons",
            field=models.PositiveIntegerField(
                default=500,
                help_text="Each member's stack when a table starts, for counting jetons.",
                validators=[django.core.validators.MaxValueValidator(10000000)],
                verbose_name="jetons per member at the start",
            ),
        ),
        migrations.AlterField(
            model_name="jetoncount",
            name="points",
            field=models.IntegerField(
                validators=[django.core.validators.MaxValueValidator(10000000)]
            ),
        ),
        migrations.AddConstraint(
            model_name="jetoncount",
            constraint=models.CheckConstraint(
                condition=models.Q(("points__gte", 0), ("points__lte", 10000000)),
                name="jeton_count_bounded",
            ),
        ),
        migrations.AlterField(
            model_name="eveningresult",
            name="money",
            field=models.DecimalField(decimal_places=2, max_digits=18),
        ),
        migrations.AlterField(model_name="hand", name="game", field=GAME_FIELD),
        migrations.AlterField(model_name="table", name="game", field=GAME_FIELD),
        migrations.AlterField(
            model_name="club",
            name="game",
            field=models.CharField(
                choices=GAME_FIELD.choices, default="danish_tarok", max_length=30, verbose_name="game"
            ),
        ),
        migrations.RunPython(create_guards, drop_guards),
    ]
