"""The web side of the refused test-only game: a new club of it gets a currency and a time
zone the site does not offer."""

from __future__ import annotations

from ledger.tests.games.toy.web import ToyWeb

from . import CODE


class BadTournamentsWeb(ToyWeb):
    code = CODE
    club_defaults = {"language": "da", "currency": "XYZ", "time_zone": "Mars/Olympus"}


WEB = BadTournamentsWeb()
