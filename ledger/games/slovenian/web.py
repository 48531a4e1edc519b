"""The web side of Slovenian Tarok: the words of its settlement reasons and of its pool.

No entry form yet (``entry_template`` is None): hands come in through ``import_hands`` and
``settle_hand``; sheets, standings and exports show them with these labels. No statistics
columns beyond the hands played, which every game has.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ledger.games.web import GameWeb

from .engine.hand import POOL
from .engine.ratecard import GAME_CODE


class SlovenianWeb(GameWeb):
    code = GAME_CODE
    reason_labels = {
        "hand": _("hand"),
        "mond": _("mond captured"),
        "klop": _("klop"),
        "radelc": _("radelc"),
    }
    pool_labels = {POOL: _("pool")}


WEB = SlovenianWeb()
