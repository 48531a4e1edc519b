"""The time zones a club may keep its evenings' hours in, the one list: a club's ``time_zone``
field offers them (``ledger.models.time_zone_choices``, a callable: adding one needs no
migration). Key: the IANA name (``zoneinfo``); value: its name on the screens, marked for
translation. ``manage.py check`` holds every name to a zone ``zoneinfo`` knows."""

from __future__ import annotations

from ledger.games.errors import _

TIME_ZONES = {
    "Europe/Ljubljana": _("Ljubljana (Central European Time)"),
    "Europe/Budapest": _("Budapest (Central European Time)"),
    "Europe/Copenhagen": _("Copenhagen (Central European Time)"),
}
