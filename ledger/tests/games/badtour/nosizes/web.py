"""The web side of the test-only game without table sizes."""

from __future__ import annotations

from ledger.tests.games.toy.web import ToyWeb

from . import CODE


class NoSizesWeb(ToyWeb):
    code = CODE


WEB = NoSizesWeb()
