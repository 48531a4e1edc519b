"""Write the planner's statistics of the bench's history (``bench/bench.sqlite3``, as
``python bench/floors.py`` or ``make bench`` left it, after their ANALYZE) to
``ledger/tests/views/full_history_stats.json``: each row of SQLite's ``sqlite_stat1``. The
tests give a small history these statistics, so SQLite plans its pages as for the large one
(``ledger/tests/views/test_page_plans.py``): ``python bench/stats.py``."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "bench" / "bench.sqlite3"
TARGET = ROOT / "ledger" / "tests" / "views" / "full_history_stats.json"


def main() -> int:
    with sqlite3.connect(SOURCE) as connection:
        hands = connection.execute("SELECT COUNT(*) FROM ledger_hand").fetchone()[0]
        rows = connection.execute(
            "SELECT tbl, idx, stat FROM sqlite_stat1 WHERE tbl LIKE 'ledger%' ORDER BY tbl, idx"
        ).fetchall()
    lines = ",\n".join(f"  {json.dumps(list(row), ensure_ascii=False)}" for row in rows)
    TARGET.write_text(f'{{"hands": {hands},\n "sqlite_stat1": [\n{lines}\n ]}}\n', encoding="utf-8")
    print(
        f"{len(rows)} rows of statistics of {hands:,} hands written to {TARGET.relative_to(ROOT)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
