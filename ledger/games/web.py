"""The web side of each game: its entry form, the words of its reasons and outcomes, its pools'
labels and its statistics columns. Django is allowed here (and in each game's ``web.py``).

Views, tables, selectors and templates ask ``get_web(evening.game)`` (or the game of a
table, a hand or a season's evenings) and never name a game's words, the way pretix's
checkout asks a payment provider for its form and labels. Every game's ``WEB`` is a
``GameWeb``; the attributes and methods below are the whole interface:

- ``entry_template``: the template of the hand-entry form (included by the page
  ``ledger/hand_form.html``), or None when the game has no entry form yet;
  ``entry_script`` and ``entry_styles``: its static files; ``quick_reasons``: the buttons
  that fill in the reason of a correction.
- ``seat_marks(state, name)``: marks on a member's seat tile from the table's state;
  ``preview_story(record, settlement, state)``: the preview's lines of what happened.
- ``pool_label(code)``: the name of a pool on screen; ``pool_class(code)`` its CSS modifier.
- ``reason_label(reason)``: a transfer reason in words on sheets and exports;
  ``payment_label(reason)``: the same in the hand preview's list of payments.
- ``outcome_words(outcome, brief=False)``: what happened in a hand (``Posting.outcome``).
- ``record_lines(record)``: a hand record as (label, text) lines for the hand page.
- ``entry_context(...)``: what the entry form's template and script need.
- ``section_of_field``: the hand form's section of each top-level field of the record.
- ``stats_columns``: the statistics columns, (key, verbose name) in order;
  ``hand_annotations()`` and ``hand_counts(name)`` compute the hand-based ones in SQL from
  the stored ``Posting.outcome``; ``received_points`` the ones summed from the reasons of
  transfers a member receives; ``stats_tiles(stats)`` the summary tiles of a member's season;
  ``stats_note`` the definitions printed under the standings; ``stats_help`` what each
  column counts, in a sentence (its header's tooltip), and ``column_notes()`` the lines under
  the standings that explain a column whose name alone could mislead.
- ``demo``: the game's demo club (``ledger.services.demo.Demo``) or None.
- ``rate_card_form_fields()``: the club admin form's fields of the game's rate card, and
  ``rate_card_field_groups()`` their names in groups (amounts, fines, options).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# Reasons every game's ledger writes, whatever the game.
COMMON_REASONS = {
    "funding": _("funding"),
    "split": _("split"),
    "adjustment": _("adjustment"),
}
COMMON_PAYMENTS = {
    "funding": _("Funding"),
    "split": _("Split"),
    "adjustment": _("Adjustment"),
}


class GameWeb:
    """The defaults of a game's web side: plain words, no entry form, no statistics."""

    code = ""
    title = ""  # the game's name in the reader's language (gettext_lazy)
    entry_template: str | None = None
    entry_script: str | None = None
    entry_styles: tuple[str, ...] = ()
    quick_reasons: tuple = ()  # the reason buttons of a correction
    reason_labels: dict = {}
    payment_labels: dict = {}
    pool_labels: dict = {}
    pool_classes: dict = {}
    section_of_field: dict = {}
    stats_columns: tuple[tuple[str, str], ...] = ()
    received_points: dict = {}
    stats_note = ""
    stats_help: dict = {}  # statistics key -> what the column counts (the header's tooltip)
    wait_hint = None  # the preview's words before a hand is complete (None: the Danish ones)
    demo = None  # the game's demo club (``ledger.services.demo.Demo``), if it has one

    def plays_in_slot(self, i: int):
        """Return the SQL condition (on ``selectors_season``'s ``n_seats`` and ``dealer_slot``
        annotations) that seat slot ``i`` plays a hand: by default everyone plays at 3 and 4
        seats and the dealer sits out at 5. None: the record's ``sitting_out`` and the
        selectors' seat-count rule decide."""
        from django.db.models import Q

        return Q(n_seats__in=(3, 4)) | (Q(n_seats=5) & ~Q(dealer_slot=i))

    def seat_marks(self, state: dict, name: str) -> list[str]:
        """Return short marks shown on a member's seat tile from the table's state (e.g. his
        open radli); none by default."""
        return []

    def preview_story(self, record, settlement, state) -> list[str]:
        """Return the lines that tell what happened in a hand, shown before who pays whom
        in the preview (the game's words and the values that made the score)."""
        return []

    def pool_label(self, code: str) -> str:
        """Return the name of the pool ``code`` on screen."""
        return str(self.pool_labels.get(code, code))

    def pool_class(self, code: str) -> str:
        """Return the CSS modifier of the pool ``code`` (``cup-<modifier>``)."""
        return self.pool_classes.get(code, code)

    def reason_label(self, reason: str) -> str:
        """Return a transfer reason in words, as sheets and exports show it."""
        label = self.reason_labels.get(reason) or COMMON_REASONS.get(reason)
        return str(label) if label else reason.replace("_", " ")

    def payment_label(self, reason: str) -> str:
        """Return a transfer reason in words, as the hand preview lists payments."""
        label = self.payment_labels.get(reason) or COMMON_PAYMENTS.get(reason)
        return str(label) if label else self.reason_label(reason)

    def outcome_words(self, outcome: dict | None, *, brief: bool = False) -> list[str]:
        """Return what happened in a hand, in words, from its posting's outcome."""
        return []

    def record_lines(self, record: dict) -> list[tuple[str, str]]:
        """Return a hand record as translated (label, text) lines for the hand page."""
        lines = [(gettext("Dealer"), record.get("dealer", ""))]
        if record.get("sitting_out"):
            lines.append((gettext("Sitting out"), ", ".join(record["sitting_out"])))
        return lines

    def entry_context(self, *, rates, seats) -> dict:
        """Return what the entry form needs beyond the shell's context: choices, labels
        (``hand_config`` gets the ``config`` key merged in)."""
        return {"config": {}}

    def hand_annotations(self) -> dict:
        """Return the annotations of a hand posting that ``hand_counts`` reads."""
        return {}

    def hand_counts(self, name) -> dict:
        """Return, per statistics key, the aggregate counting the hands of member ``name``."""
        return {}

    def stats_tiles(self, stats: dict) -> list[tuple[str, str, str]]:
        """Return the summary tiles of a member's statistics: (key, label, text)."""
        return [(key, label, str(stats.get(key, 0))) for key, label in self.stats_columns]

    def column_notes(self) -> list[str]:
        """Return the lines under the standings that explain a statistics column whose name
        alone could mislead; none by default."""
        return []

    def rate_card_form_fields(self) -> dict:
        """Return the admin form fields of the game's rate card, by field name."""
        return {}

    def rate_card_field_groups(self) -> dict[str, list[str]]:
        """Return the rate card's field names by group (``amounts``, ``fines``, ``options``)."""
        return {"amounts": [], "fines": [], "options": []}


def get_web(code: str) -> GameWeb:
    """Return the web side of the game ``code``; KeyError for an unknown one."""
    from ledger.games.danish.web import WEB as DANISH
    from ledger.games.hungarian.web import WEB as HUNGARIAN
    from ledger.games.slovenian.web import WEB as SLOVENIAN

    return {w.code: w for w in (DANISH, SLOVENIAN, HUNGARIAN)}[code]


def game_choices() -> list[tuple[str, str]]:
    """Return (code, name in the reader's language) of every game: the ``game`` fields'
    choices (a callable, so a new wording needs no migration)."""
    from ledger.games import GAMES

    return [(code, get_web(code).title) for code in GAMES]


def stats_columns(codes) -> list[tuple[str, str]]:
    """Return the statistics columns of the games ``codes``, in order, each key once."""
    columns: dict[str, str] = {}
    for code in codes:
        for key, label in get_web(code).stats_columns:
            columns.setdefault(key, label)
    return list(columns.items())


def stats_help(codes) -> dict[str, str]:
    """Return what each statistics column of the games ``codes`` counts, by key."""
    helps: dict[str, str] = {}
    for code in codes:
        for key, text in get_web(code).stats_help.items():
            helps.setdefault(key, str(text))
    return helps


def stats_notes(codes) -> list[str]:
    """Return the definitions the games print under their statistics and their columns'
    notes, each once."""
    notes = []
    for code in codes:
        web = get_web(code)
        for note in [web.stats_note, *web.column_notes()]:
            note = str(note)
            if note and note not in notes:
                notes.append(note)
    return notes
