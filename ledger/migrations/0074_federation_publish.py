from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0073_ratings"),
    ]

    operations = [
        migrations.AddField(
            model_name="federation",
            name="publish_results",
            field=models.BooleanField(
                default=False,
                help_text=(
                    "Anyone, without logging in, may read the federation's series and their "
                    "ladders at /pf/<federation>/: players' names, clubs and totals."
                ),
                verbose_name="publish results",
            ),
        ),
    ]
