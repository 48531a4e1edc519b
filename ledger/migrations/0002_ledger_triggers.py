"""Database-level guards of the ledger, on SQLite and PostgreSQL.

- transfers and postings are append-only: any UPDATE or DELETE is refused;
- a transfer moves points between two accounts of its own table;
- nothing is posted to a table whose evening is closed (except by ``restore``, which loads a
  backup: on SQLite through ``ledger.db.ledger_unlocked``, on PostgreSQL through the
  transaction-local setting ``ledger.restoring``).
"""

from django.db import migrations

SQLITE = [
    """CREATE TRIGGER ledger_transfer_no_update BEFORE UPDATE ON ledger_transfer
       WHEN ledger_locked()
       BEGIN SELECT RAISE(ABORT, 'ledger transfers are append-only'); END""",
    """CREATE TRIGGER ledger_transfer_no_delete BEFORE DELETE ON ledger_transfer
       WHEN ledger_locked()
       BEGIN SELECT RAISE(ABORT, 'ledger transfers are append-only'); END""",
    """CREATE TRIGGER ledger_posting_no_update BEFORE UPDATE ON ledger_posting
       WHEN ledger_locked()
       BEGIN SELECT RAISE(ABORT, 'ledger postings are append-only'); END""",
    """CREATE TRIGGER ledger_posting_no_delete BEFORE DELETE ON ledger_posting
       WHEN ledger_locked()
       BEGIN SELECT RAISE(ABORT, 'ledger postings are append-only'); END""",
    """CREATE TRIGGER ledger_transfer_same_table BEFORE INSERT ON ledger_transfer
       WHEN (SELECT table_id FROM ledger_account WHERE id = NEW.source_id) IS NOT NEW.table_id
         OR (SELECT table_id FROM ledger_account WHERE id = NEW.target_id) IS NOT NEW.table_id
         OR (SELECT table_id FROM ledger_posting WHERE id = NEW.posting_id) IS NOT NEW.table_id
       BEGIN SELECT RAISE(ABORT, 'a transfer moves points within one table'); END""",
    """CREATE TRIGGER ledger_transfer_open_evening BEFORE INSERT ON ledger_transfer
       WHEN ledger_locked() AND (SELECT e.status FROM ledger_table t JOIN ledger_evening e ON e.id = t.evening_id
             WHERE t.id = NEW.table_id) <> 'open'
       BEGIN SELECT RAISE(ABORT, 'the evening is closed'); END""",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS " + name
    for name in (
        "ledger_transfer_no_update",
        "ledger_transfer_no_delete",
        "ledger_posting_no_update",
        "ledger_posting_no_delete",
        "ledger_transfer_same_table",
        "ledger_transfer_open_evening",
    )
]

POSTGRES = [
    """CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION USING MESSAGE = TG_TABLE_NAME || ' rows are append-only',
             ERRCODE = 'integrity_constraint_violation'; END $$""",
    """CREATE TRIGGER ledger_transfer_append_only BEFORE UPDATE OR DELETE ON ledger_transfer
       FOR EACH ROW EXECUTE FUNCTION ledger_append_only()""",
    """CREATE TRIGGER ledger_posting_append_only BEFORE UPDATE OR DELETE ON ledger_posting
       FOR EACH ROW EXECUTE FUNCTION ledger_append_only()""",
    """CREATE FUNCTION ledger_transfer_check() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF (SELECT table_id FROM ledger_account WHERE id = NEW.source_id) IS DISTINCT FROM NEW.table_id
            OR (SELECT table_id FROM ledger_account WHERE id = NEW.target_id) IS DISTINCT FROM NEW.table_id
            OR (SELECT table_id FROM ledger_posting WHERE id = NEW.posting_id) IS DISTINCT FROM NEW.table_id
         THEN RAISE EXCEPTION 'a transfer moves points within one table'
              USING ERRCODE = 'integrity_constraint_violation';
         END IF;
         IF coalesce(current_setting('ledger.restoring', true), '') <> 'on'
            AND (SELECT e.status FROM ledger_table t JOIN ledger_evening e ON e.id = t.evening_id
                 WHERE t.id = NEW.table_id) <> 'open'
         THEN RAISE EXCEPTION 'the evening is closed'
              USING ERRCODE = 'integrity_constraint_violation';
         END IF;
         RETURN NEW;
       END $$""",
    """CREATE TRIGGER ledger_transfer_insert_check BEFORE INSERT ON ledger_transfer
       FOR EACH ROW EXECUTE FUNCTION ledger_transfer_check()""",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS ledger_transfer_insert_check ON ledger_transfer",
    "DROP TRIGGER IF EXISTS ledger_posting_append_only ON ledger_posting",
    "DROP TRIGGER IF EXISTS ledger_transfer_append_only ON ledger_transfer",
    "DROP FUNCTION IF EXISTS ledger_transfer_check()",
    "DROP FUNCTION IF EXISTS ledger_append_only()",
]


def statements(vendor: str, forward: bool):
    if vendor == "sqlite":
        return SQLITE if forward else SQLITE_DROP
    if vendor == "postgresql":
        return POSTGRES if forward else POSTGRES_DROP
    raise NotImplementedError(f"no ledger triggers for {vendor}")


def create(apps, schema_editor):
    for sql in statements(schema_editor.connection.vendor, True):
        schema_editor.execute(sql)


def drop(apps, schema_editor):
    for sql in statements(schema_editor.connection.vendor, False):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
