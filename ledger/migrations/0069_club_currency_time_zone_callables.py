# A club's currency and time zone offer callables over one list each (ledger.games.money
# CURRENCIES, ledger.games.zones TIME_ZONES): a new country's currency or zone needs no
# migration after this one.

import ledger.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0068_member_erasure"),
    ]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="currency",
            field=models.CharField(
                choices=ledger.models.currency_choices,
                default="DKK",
                max_length=3,
                verbose_name="currency",
            ),
        ),
        migrations.AlterField(
            model_name="club",
            name="time_zone",
            field=models.CharField(
                choices=ledger.models.time_zone_choices,
                default="Europe/Copenhagen",
                max_length=40,
                verbose_name="time zone",
            ),
        ),
    ]
