"""The statistics summary (``AccountStats``), filled from the hands already there."""

import django.db.models.deletion
from django.db import migrations, models


def fill(apps, schema_editor):
    # The statistics are defined by the games' web sides in SQL over the current models; a
    # database with hands is summarised with that code (as ``rebuild_balances`` would).
    if not apps.get_model("ledger", "Posting").objects.exists():
        return
    from ledger.services import stats

    stats.rebuild()


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0008_account_balance_names"),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountStats",
            fields=[
                (
                    "account",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="stats_summary",
                        serialize=False,
                        to="ledger.account",
                        verbose_name="account",
                    ),
                ),
                ("stats", models.JSONField(default=dict, verbose_name="statistics")),
            ],
            options={
                "verbose_name": "account statistics",
                "verbose_name_plural": "account statistics",
            },
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
