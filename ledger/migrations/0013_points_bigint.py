"""Points of transfers and evening results in 64-bit columns: whatever the rules' bounds
allow (``ledger.games.money.MAX_MOVE`` a move, ``MAX_BALANCE`` a balance) fits on both
databases. SQLite's integers are 64-bit already, so only PostgreSQL's columns change (and
SQLite must not rebuild the guarded tables)."""

from django.db import migrations, models

COLUMNS = (("ledger_transfer", "points"), ("ledger_eveningresult", "points"))


def widen(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column in COLUMNS:
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE bigint")


def narrow(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column in COLUMNS:
        schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE integer")


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0012_posting_seats"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="transfer",
                    name="points",
                    field=models.BigIntegerField(verbose_name="points"),
                ),
                migrations.AlterField(
                    model_name="eveningresult",
                    name="points",
                    field=models.BigIntegerField(verbose_name="points"),
                ),
            ],
            database_operations=[migrations.RunPython(widen, narrow)],
        ),
    ]
