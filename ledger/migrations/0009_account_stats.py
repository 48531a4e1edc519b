"""The statistics summary (``AccountStats``); 0012 fills it from the hands already there."""

import django.db.models.deletion
from django.db import migrations, models


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
        # The summary is filled from the hands already there by 0012, which derives it from
        # the seat rows it writes (with the historical models).
    ]
