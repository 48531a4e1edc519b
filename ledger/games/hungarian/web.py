"""The web side of Hungarian Tarokk: the words of its settlement reasons.

No entry form yet (``entry_template`` is None) and no pools; a reason is a figure of the
hand (``game``, ``trull``, ``ulti``, ...) or ``tarokk_claim``, shown in plain words.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from ledger.games.web import GameWeb

from .engine.ratecard import GAME_CODE


class HungarianWeb(GameWeb):
    code = GAME_CODE
    reason_labels = {"tarokk_claim": _("tarokk claim")}


WEB = HungarianWeb()
