"""The web side of a game: the contract (``GameWeb``) and the helpers that read it.

A game's web side is its package's ``web.py`` (Django allowed there; its engine stays pure)
whose ``WEB`` is a ``GameWeb``. Views, tables, selectors and templates ask
``ledger.games.registry.get_web(code)`` for the game of an evening, a table or a hand, and never
name a game's words, the way pretix's checkout asks a payment provider for its form and labels.

Every member is declared here with a neutral default, so a game that leaves one out still
gets a working, game-free screen; the contract test (``ledger/tests/games/test_contract.py``)
runs for every registered game. The members, in groups:

- Identity: ``code`` (the engine's), ``title`` (the game's name in the reader's language),
  ``demo`` (the dotted path of its demo club, a ``ledger.services.demo.Demo``, or None).
- The entry form: ``entry_template`` (included by ``ledger/hand_form.html``; None: no form),
  ``entry_script`` and ``entry_styles`` (its static files), ``entry_sections`` (the form's
  sections, in order, where refusals are shown), ``section_of_field`` (the section of each
  top-level field of the record; ``seats``, ``dealer``, ``sitting_out`` and ``reason`` are
  every game's), ``entry_context(rates=, seats=)`` (what the template and script need),
  ``quick_reasons`` (the buttons that fill in a correction's reason), ``wait_hint`` (the
  preview's words before the hand is complete).
- The table: ``seat_marks(state, name)`` (marks on a member's seat tile),
  ``schedule_notes(schedule)`` (the next hand's roles in words, besides dealer and sitters),
  ``pool_label(code)`` and ``pool_class(code)`` (a pool's name and CSS modifier).
- What happened: ``preview_story(record, settlement, state)`` (the preview's lines),
  ``outcome_words(outcome, brief=)`` (a stored hand in words), ``record_lines(record)`` (a hand
  record as lines), ``reason_label(reason)`` and ``payment_label(reason)`` (a transfer's reason).
- Shared screens: ``words`` (the phrases of the shared screens that differ by game; see
  ``WORDS``; a game gives the ones it has, and a phrase the game lacks is not shown).
- Statistics (counted by the engine's ``stats_of``): ``stats_columns`` ((key, label) in order),
  ``stats_help`` (each column's tooltip), ``stats_note`` and ``column_notes()`` (the lines
  under the standings), ``stats_tiles(stats)`` (a member's season tiles).
- House rules: ``rate_card_form_fields()`` (the fields by rate-card key) and
  ``rate_card_field_groups()`` (their keys in groups: amounts, fines, options).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger.games.registry import GAMES, get_web

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
# The sections of an entry form that every game has, and where a field of the record that
# every game has is shown.
COMMON_SECTIONS = ("general", "seating", "reason")
COMMON_SECTION_OF_FIELD = {
    "seats": "seating",
    "dealer": "seating",
    "sitting_out": "seating",
    "reason": "reason",
}
# The phrases of the shared screens that differ by game (``GameWeb.words``), by key, with
# the neutral ones a game without its own gets ('': the phrase is not shown):
WORDS = {
    # the open-table page: whom to seat, and who pays what when a table opens
    "open_table_lead": _("Seat the members in the direction of play."),
    # the preview: the heading of the pools after the hand
    "pools_after": _("The pools after"),
    # the treasurer and the sheet: the column of each member's share of the pools at the close
    "pools_share": "",
    # an open evening's sheets: the pools are not split yet
    "pools_not_split": "",
    # the treasurer: what closing the evening does at each table
    "close_explains": _(
        "Closing writes each member's result in points and money and locks the evening; "
        "this game has nothing to split."
    ),
}


class GameWeb:
    """The web side of a game, every member declared, with neutral defaults."""

    code: str = ""
    title = ""  # gettext_lazy
    demo: str | None = None  # dotted path of the game's ``Demo``
    entry_template: str | None = None
    entry_script: str | None = None
    entry_styles: tuple[str, ...] = ()
    entry_sections: tuple[str, ...] = COMMON_SECTIONS
    section_of_field: dict = {}
    quick_reasons: tuple = ()
    wait_hint = _("Complete the hand to see who pays whom.")
    reason_labels: dict = {}
    payment_labels: dict = {}
    pool_labels: dict = {}
    pool_classes: dict = {}
    words: dict = {}
    stats_columns: tuple[tuple[str, str], ...] = ()
    stats_help: dict = {}
    stats_note = ""

    # --- the entry form ---

    def entry_context(self, *, rates, seats) -> dict:
        """Return what the entry form needs beyond the shell's context: choices, labels
        (``hand_config`` gets the ``config`` key merged in)."""
        return {"config": {}}

    def section_of(self, field: str) -> str:
        """Return the entry form's section of the record's field ``field`` (a path such as
        ``count.Anna``: its first part decides); ``general`` for one of no section."""
        top = field.split(".")[0].split("[")[0]
        section = {**COMMON_SECTION_OF_FIELD, **self.section_of_field}.get(top, "general")
        return section if section in self.sections() else "general"

    def sections(self) -> tuple[str, ...]:
        """Return every section of the entry form, in order: the common ones and the game's."""
        own = tuple(s for s in self.entry_sections if s not in COMMON_SECTIONS)
        return ("general", "seating", *own, "reason")

    # --- the table ---

    def seat_marks(self, state: dict, name: str) -> list[str]:
        """Return short marks on a member's seat tile from the table's state (none)."""
        return []

    def schedule_notes(self, schedule) -> list[str]:
        """Return the next hand's roles in words, besides the dealer and the sitters (none)."""
        return []

    def pool_label(self, code: str) -> str:
        """Return the name of the pool ``code`` on screen."""
        return str(self.pool_labels.get(code, code))

    def pool_class(self, code: str) -> str:
        """Return the CSS modifier of the pool ``code`` (``cup-<modifier>``)."""
        return self.pool_classes.get(code, code)

    def account_label(self, code: str) -> str:
        """Return an account's name on screen: a pool by its label, a member as he is."""
        return self.pool_label(code) if code in self.pool_labels else code

    # --- what happened ---

    def preview_story(self, record, settlement, state) -> list[str]:
        """Return the lines that tell what happened in a hand, shown before who pays whom
        in the preview (the game's words and the values that made the score)."""
        return []

    def outcome_words(self, outcome: dict | None, *, brief: bool = False) -> list[str]:
        """Return what happened in a hand, in words, from its posting's outcome."""
        return []

    def record_lines(self, record: dict) -> list[tuple[str, str]]:
        """Return a hand record as translated (label, text) lines for the hand page."""
        lines = [(gettext("Dealer"), record.get("dealer", ""))]
        if record.get("sitting_out"):
            lines.append((gettext("Sitting out"), ", ".join(record["sitting_out"])))
        return lines

    def reason_label(self, reason: str) -> str:
        """Return a transfer reason in words, as sheets and exports show it."""
        label = self.reason_labels.get(reason) or COMMON_REASONS.get(reason)
        return str(label) if label else reason.replace("_", " ")

    def payment_label(self, reason: str) -> str:
        """Return a transfer reason in words, as the hand preview lists payments."""
        label = self.payment_labels.get(reason) or COMMON_PAYMENTS.get(reason)
        return str(label) if label else self.reason_label(reason)

    # --- shared screens ---

    def word(self, key: str) -> str:
        """Return the game's phrase ``key`` of ``WORDS`` for a shared screen ('': not shown)."""
        default = WORDS[key]  # KeyError for a phrase no shared screen asks for
        return str(self.words.get(key, default))

    # --- statistics ---

    def stats_tiles(self, stats: dict) -> list[tuple[str, str, str]]:
        """Return the summary tiles of a member's statistics: (key, label, text)."""
        return [(key, label, str(stats.get(key, 0))) for key, label in self.stats_columns]

    def column_notes(self) -> list[str]:
        """Return the lines under the standings that explain a statistics column whose name
        alone could mislead; none by default."""
        return []

    # --- house rules ---

    def rate_card_form_fields(self) -> dict:
        """Return the form fields of the game's rate card, by rate-card key."""
        return {}

    def rate_card_field_groups(self) -> dict[str, list[str]]:
        """Return the rate card's field names by group (``amounts``, ``fines``, ``options``)."""
        return {"amounts": [], "fines": [], "options": []}


def game_choices() -> list[tuple[str, str]]:
    """Return (code, name in the reader's language) of every game: the ``game`` fields'
    choices (a callable, so a new wording or a new game needs no migration)."""
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
