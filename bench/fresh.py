"""A bench's database of its own, made afresh: on the PostgreSQL server of ``DATABASE_URL``
(``<name>_<tag>``, dropped and created), else a SQLite file in ``bench/``; sets
``DATABASE_URL`` to it and returns the vendor."""

from __future__ import annotations

import os
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def fresh_database(tag: str, sqlite_file: str) -> str:
    """Make the bench's database afresh (see the module); return "postgresql" or "sqlite"."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        base, name = url.rsplit("/", 1)
        bench = f"{name}_{tag}"
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{bench}"')
            conn.execute(f'CREATE DATABASE "{bench}"')
        os.environ["DATABASE_URL"] = f"{base}/{bench}"
        return "postgresql"
    path = BENCH / sqlite_file
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    return "sqlite"
