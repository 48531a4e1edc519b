"""Exit 0 when the PostgreSQL server of the given URL answers, 1 otherwise."""

import sys

import psycopg

url = sys.argv[1].rsplit("/", 1)[0] + "/postgres"
try:
    psycopg.connect(url, connect_timeout=3).close()
except psycopg.Error:
    sys.exit(1)
