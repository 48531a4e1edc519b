"""The account balance summary (``AccountBalance``), filled from the transfers already there."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import Count, Sum


def fill(apps, schema_editor):
    Transfer = apps.get_model("ledger", "Transfer")
    AccountBalance = apps.get_model("ledger", "AccountBalance")
    totals = {}
    for side, sign in (("target_id", 1), ("source_id", -1)):
        for row in (
            Transfer.objects.values(side).annotate(s=Sum("points"), n=Count("pk")).order_by()
        ):
            entry = totals.setdefault(row[side], [0, 0])
            entry[0] += sign * row["s"]
            entry[1] += row["n"]
    AccountBalance.objects.bulk_create(
        (AccountBalance(account_id=pk, balance=b, transfers=n) for pk, (b, n) in totals.items()),
        batch_size=2000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0006_danish_verbose_names"),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountBalance",
            fields=[
                (
                    "account",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="summary",
                        serialize=False,
                        to="ledger.account",
                    ),
                ),
                ("balance", models.BigIntegerField(default=0)),
                ("transfers", models.PositiveIntegerField(default=0)),
            ],
            options={
                "verbose_name": "account balance",
                "verbose_name_plural": "account balances",
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
