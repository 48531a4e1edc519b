"""The seat rows of hands (``PostingSeat``), backfilled by settling each live hand again, and
the statistics summary (``AccountStats``) summed from them; the game fields' default comes
from the registry. The data step uses the historical models and the games' pure engines; the
hands of a game no longer installed are skipped (they get no seat rows), never a crash."""

import django.db.models.deletion
import ledger.games.registry
import ledger.games.web
from django.db import migrations, models


def backfill(apps, schema_editor):
    """Write one row per seat of every live hand posting, then the summary from the rows."""
    from ledger.games.registry import get_game

    Account = apps.get_model("ledger", "Account")
    AccountStats = apps.get_model("ledger", "AccountStats")
    Posting = apps.get_model("ledger", "Posting")
    PostingSeat = apps.get_model("ledger", "PostingSeat")
    postings = (
        Posting.objects.filter(kind="hand", reversed_by__isnull=True)
        .select_related("revision", "table__evening")
        .order_by("table_id", "pk")
    )
    accounts, rows, summary = {}, [], {}
    for posting in postings.iterator(chunk_size=2000):
        table = posting.table
        try:
            game = get_game(table.game)
        except KeyError:
            # A game no longer installed (removed from TAROK_GAMES): its hands cannot be
            # settled again here, so they get no seat rows (their money is untouched).
            continue
        if table.pk not in accounts:
            accounts[table.pk] = {a.code: a for a in Account.objects.filter(table_id=table.pk)}
        rates = game.rate_card(table.evening.rate_card)
        state = posting.state_before
        record = game.parse_hand(posting.revision.record, rates, state=state)
        settlement = game.settle(record, rates, state)
        for name, seat in game.stats_of(record, settlement).items():
            account = accounts[table.pk][name]
            counts = {key: int(seat.counts.get(key, 0)) for key in game.features.stat_keys}
            rows.append(
                PostingSeat(
                    posting=posting, account=account, role=seat.role, played=seat.played,
                    counts=counts,
                )
            )
            stats = summary.setdefault(account.pk, {})
            for key, value in {"played": int(seat.played), **counts}.items():
                stats[key] = stats.get(key, 0) + value
        if len(rows) >= 2000:
            PostingSeat.objects.bulk_create(rows)
            rows = []
    PostingSeat.objects.bulk_create(rows)
    AccountStats.objects.all().delete()
    AccountStats.objects.bulk_create(
        [AccountStats(account_id=pk, stats=stats) for pk, stats in sorted(summary.items())],
        batch_size=2000,
    )


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0011_game_choices_translated'),
    ]

    operations = [
        # The game fields' default is a callable now: Django keeps defaults in Python, so the
        # database has nothing to change (and SQLite must not rebuild the guarded tables).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='club',
                    name='game',
                    field=models.CharField(choices=ledger.games.web.game_choices, default=ledger.games.registry.default_game, max_length=30, verbose_name='game'),
                ),
                migrations.AlterField(
                    model_name='evening',
                    name='game',
                    field=models.CharField(choices=ledger.games.web.game_choices, default=ledger.games.registry.default_game, max_length=30, verbose_name='game'),
                ),
                migrations.AlterField(
                    model_name='hand',
                    name='game',
                    field=models.CharField(choices=ledger.games.web.game_choices, default=ledger.games.registry.default_game, max_length=30, verbose_name='game'),
                ),
                migrations.AlterField(
                    model_name='table',
                    name='game',
                    field=models.CharField(choices=ledger.games.web.game_choices, default=ledger.games.registry.default_game, max_length=30, verbose_name='game'),
                ),
            ],
            database_operations=[],
        ),
        migrations.CreateModel(
            name='PostingSeat',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(max_length=20, verbose_name='role')),
                ('played', models.BooleanField(default=False, verbose_name='played')),
                ('counts', models.JSONField(default=dict, verbose_name='counts')),
                ('account', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seat_rows', to='ledger.account', verbose_name='account')),
                ('posting', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seat_rows', to='ledger.posting', verbose_name='posting')),
            ],
            options={
                'verbose_name': 'seat of a hand',
                'verbose_name_plural': 'seats of hands',
                'ordering': ['posting', 'id'],
                'constraints': [models.UniqueConstraint(fields=('posting', 'account'), name='posting_seat_unique')],
            },
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
