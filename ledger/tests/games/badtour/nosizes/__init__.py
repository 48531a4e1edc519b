"""A test-only game package that declares no table sizes: ``manage.py check`` refuses it."""

from __future__ import annotations

from dataclasses import replace

from ledger.tests.games.toy import ToyHighCard

CODE = "toy_no_sizes"


class NoSizes(ToyHighCard):
    code = CODE
    features = replace(ToyHighCard.features, table_sizes=None)


GAME = NoSizes()
