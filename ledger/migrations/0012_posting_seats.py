"""The seat rows of hands (``PostingSeat``), backfilled from each live hand posting, and the
statistics summary (``AccountStats``) summed from them; the game fields' default comes from the
registry.

The data step uses the historical models and a copy of each game's ``stats_of`` frozen here as
it stood at this migration (issue 29: a migration keeps what it needs, never the live engines):
the seat rows are derived from what the posting stores, which is its settlement (the outcome
with the roles, the transfers) and its revision's record (the seats). The hands of a game this
copy does not know are skipped (they get no seat rows), never a crash; so is a Danish hand
written before the postings stored their roles, at a table of more than three seats whose
record names nobody sitting out: ``verify_ledger`` names its seat rows and
``manage.py rebuild_balances`` replays them with the engines installed.
"""

import django.db.models.deletion
import ledger.games.registry
import ledger.games.web
from django.db import migrations, models

STAT_KEYS = {
    "danish_tarok": ("ultimo_pagat", "ultimo_king", "bagud", "nolo", "tout", "melds"),
    "slovenian_tarok": (
        "sl_declared", "sl_declared_won", "sl_partner", "sl_partner_won", "sl_bonuses",
        "sl_radli", "sl_radli_used", "sl_klop", "sl_klop_points",
    ),
    "hungarian_tarokk": (
        "hu_declarer", "hu_declarer_won", "hu_partner", "hu_partner_won", "hu_alone",
        "hu_alone_won", "hu_figures_made", "hu_figures_failed", "hu_claims",
    ),
}
SL_BONUS_TYPES = ("trula", "kings", "pagat_ultimo", "king_ultimo")


def _danish(seats, roles, outcome, moves):
    ultimo = tuple(outcome["ultimo"]) if outcome.get("ultimo") else (None, None)
    bagud = {name for name, _card in outcome.get("bagud") or ()}
    melds = {}
    for _source, target, points, reason in moves:
        if reason.startswith("meld_"):
            melds[target] = melds.get(target, 0) + points
    out = {}
    for name in seats:
        role = roles.get(name, "player")
        counts = {
            "ultimo_pagat": int(ultimo == (name, "pagat")),
            "ultimo_king": int(ultimo == (name, "king")),
            "bagud": int(name in bagud),
            "nolo": int(outcome.get("nolo") == name),
            "tout": int(outcome.get("tout") == name),
            "melds": melds.get(name, 0),
        }
        out[name] = (role, role != "out", counts)
    return out


def _slovenian(seats, roles, outcome, moves):
    declarer, partner = outcome.get("declarer"), outcome.get("partner")
    won = outcome.get("won") is True
    bonus_made = any(
        item.get("item") in SL_BONUS_TYPES
        and item.get("side") == "declarer"
        and item.get("result") == "made"
        for item in outcome.get("items") or ()
    )
    klop_points = {}
    for _source, target, points, reason in moves:
        if reason == "klop":
            klop_points[target] = klop_points.get(target, 0) + points
    out = {}
    for name in seats:
        role = roles.get(name, "opponent")
        played = role != "out"
        counts = {
            "sl_declared": int(declarer == name),
            "sl_declared_won": int(declarer == name and won),
            "sl_partner": int(partner == name),
            "sl_partner_won": int(partner == name and won),
            "sl_bonuses": int(bonus_made and name in (declarer, partner)),
            "sl_radli": int(played and bool(outcome.get("radli_given"))),
            "sl_radli_used": int(declarer == name and bool(outcome.get("radelc_crossed"))),
            "sl_klop": int(played and outcome.get("contract") == "klop"),
            "sl_klop_points": klop_points.get(name, 0),
        }
        out[name] = (role, played, counts)
    return out


def _hungarian(seats, roles, outcome, moves):
    annulled = bool(outcome.get("annulled"))
    declarer, partner = outcome.get("declarer"), outcome.get("partner")
    won = outcome.get("game_won_by") == "declarer"
    claimants = {c["player"] for c in outcome.get("tarokk_claims") or ()}
    out = {}
    for name in seats:
        role = roles.get(name, "player")
        played = role != "out"
        side = None
        if not annulled and played:
            side = "declarer" if name in (declarer, partner) else "opponents"
        figures = [
            item
            for item in outcome.get("items") or ()
            if item.get("item") != "game" and item.get("side") == side
        ]
        counts = {
            "hu_declarer": int(declarer == name),
            "hu_declarer_won": int(declarer == name and won),
            "hu_partner": int(partner is not None and partner == name),
            "hu_partner_won": int(partner is not None and partner == name and won),
            "hu_alone": int(declarer == name and partner is None),
            "hu_alone_won": int(declarer == name and partner is None and won),
            "hu_figures_made": sum(1 for i in figures if i.get("result") == "made"),
            "hu_figures_failed": sum(1 for i in figures if i.get("result") == "failed"),
            "hu_claims": int(name in claimants),
        }
        out[name] = (role, played, counts)
    return out


STATS_OF = {"danish_tarok": _danish, "slovenian_tarok": _slovenian, "hungarian_tarokk": _hungarian}


def seat_stats(game, record, outcome, moves, table_seats):
    """Return {seat name: (role, played, counts)} of a hand posting of ``game`` from what it
    stores: its revision's ``record``, its ``outcome`` (with the roles), its ``moves`` (source
    code, target code, points, reason) and the table's seat names by position; None when this
    frozen copy cannot tell (an unknown game, a hand stored without its roles at a table of
    more than three seats whose record names nobody sitting out)."""
    stats_of = STATS_OF.get(game)
    if stats_of is None:
        return None
    record = record or {}
    outcome = outcome or {}
    seats = list(record.get("seats") or table_seats)
    roles = outcome.get("roles")
    if roles is None:
        if game != "danish_tarok":
            return None
        out = record.get("sitting_out")
        if out is None and len(seats) > 3:
            return None
        roles = {name: "out" if name in (out or ()) else "player" for name in seats}
    stats = stats_of(seats, roles, outcome, moves)
    keys = STAT_KEYS[game]
    return {
        name: (role, played, {key: int(counts.get(key, 0)) for key in keys})
        for name, (role, played, counts) in stats.items()
    }


def backfill(apps, schema_editor):
    """Write one row per seat of every live hand posting, then the summary from the rows."""
    Account = apps.get_model("ledger", "Account")
    AccountStats = apps.get_model("ledger", "AccountStats")
    Posting = apps.get_model("ledger", "Posting")
    PostingSeat = apps.get_model("ledger", "PostingSeat")
    Seat = apps.get_model("ledger", "Seat")
    Transfer = apps.get_model("ledger", "Transfer")
    postings = (
        Posting.objects.filter(kind="hand", reversed_by__isnull=True)
        .select_related("revision", "table")
        .order_by("table_id", "pk")
    )
    accounts, seats, rows, summary = {}, {}, [], {}
    for posting in postings.iterator(chunk_size=2000):
        table = posting.table
        if table.game not in STATS_OF:
            continue  # a game this copy does not know: no seat rows (its money is untouched)
        if table.pk not in accounts:
            accounts[table.pk] = {a.code: a for a in Account.objects.filter(table_id=table.pk)}
            seats[table.pk] = list(
                Seat.objects.filter(table_id=table.pk).order_by("position").values_list(
                    "name", flat=True
                )
            )
        codes = {a.pk: code for code, a in accounts[table.pk].items()}
        moves = [
            (codes.get(source), codes.get(target), points, reason)
            for source, target, points, reason in Transfer.objects.filter(posting_id=posting.pk)
            .order_by("pk")
            .values_list("source_id", "target_id", "points", "reason")
        ]
        record = posting.revision.record if posting.revision_id else None
        stats = seat_stats(table.game, record, posting.outcome, moves, seats[table.pk])
        if stats is None:
            continue
        for name, (role, played, counts) in stats.items():
            account = accounts[table.pk][name]
            rows.append(
                PostingSeat(
                    posting=posting, account=account, role=role, played=played, counts=counts,
                )
            )
            totals = summary.setdefault(account.pk, {})
            for key, value in {"played": int(played), **counts}.items():
                totals[key] = totals.get(key, 0) + value
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
