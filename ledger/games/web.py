"""The web side of a game: the contract (``GameWeb``) and the helpers that read it.

A game's web side is its package's ``web.py`` (Django allowed there; its engine stays pure)
whose ``WEB`` is a ``GameWeb``. Views, tables, selectors and templates ask
``ledger.games.registry.get_web(code)`` for the game of an evening, a table or a hand, and never
name a game's words, the way pretix's checkout asks a payment provider for its form and labels.

Every member is declared here with a neutral default, so a game that leaves one out still
gets a working, game-free screen; the contract test (``ledger/tests/games/test_contract.py``)
runs for every registered game. The members, in groups:

- Identity: ``code`` (the engine's), ``title`` (the game's name in the reader's language),
  ``demo`` (the dotted path of its demo club, a ``ledger.services.demo.Demo``, or None),
  ``club_defaults`` (a new club's ``language``, ``currency`` and ``time_zone``).
- The entry form: ``entry_template`` (included by ``ledger/hand_form.html``; None: no form),
  ``entry_script`` and ``entry_styles`` (its static files), ``entry_sections`` (the form's
  sections, in order, where refusals are shown), ``section_of_field`` (the section of each
  top-level field of the record; ``seats``, ``dealer``, ``sitting_out`` and ``reason`` are
  every game's), ``entry_context(rates=, seats=)`` (what the template and script need),
  ``quick_reasons`` (the buttons that fill in a correction's reason), ``wait_hint`` (the
  preview's words before the hand is complete).
- The table: ``seat_marks(state, name)`` (marks on a member's seat tile),
  ``table_warnings(state, rates)`` (what the table's screen warns of: a Danish cup near the
  ledger's bound),
  ``schedule_notes(schedule)`` (the next hand's roles in words, besides dealer and sitters),
  ``pool_label(code)`` and ``pool_class(code)`` (a pool's name and CSS modifier).
- What happened: ``preview_story(record, settlement, state)`` (the preview's lines),
  ``outcome_words(outcome, brief=)`` (a stored hand in words), ``hand_words(outcome, moves,
  brief=)`` (the same, naming everything that moved money: the hand list and the sheet; by
  default the outcome's words), ``record_lines(record)`` (a hand
  record as lines), ``reason_label(reason)`` and ``payment_label(reason)`` (a transfer's reason),
  ``role_label(role)`` (a seat's role in a hand: ``COMMON_ROLES`` and the game's ``role_labels``).
- Shared screens: ``words`` (the phrases of the shared screens that differ by game; see
  ``WORDS``; a game gives the ones it has, and a phrase the game lacks is not shown);
  ``close_columns`` (the close's lines of the settlement, in order: (reason, label) of each
  reason the game's ``close`` moves points by, e.g. the Slovenian radelc penalty, then the
  split of the pool; none in a game whose close moves nothing, so a Hungarian settlement
  has no pool column).
- Statistics (counted by the engine's ``stats_of``): ``stats_columns`` ((key, label) in order),
  ``stats_help`` (each column's tooltip), ``stats_note`` and ``column_notes()`` (the lines
  under the standings), ``stats_tiles(stats)`` (a member's season tiles).
- House rules: ``rate_card_labels`` (every setting of the game's rate card, by its path such as
  ``funding_per_cup`` or ``contract_values.three``: a label and a one-line explanation),
  ``rate_card_choices`` (the labelled choices of an option) and ``rate_card_groups`` (titled
  groups of the card's keys); from them ``rate_card_form_fields()``, ``rate_card_field_groups()``,
  ``rate_card_initial(card)`` and ``rate_card_from_form(cleaned)`` make the one house-rules form
  of the admin and the set-up screens (``ledger.forms.ratecard``); ``preset_choices()`` and
  ``preset_text(name)`` show the game's presets (``Game.presets``) and
  ``rate_card_changes(card)`` what a card changes from the game's defaults.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from ledger.games.money import MAX_POINTS
from ledger.games.registry import GAMES, get_game, get_web

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

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
# A seat's role in a hand (``SeatStats.role``), in words, as every game names it; a game adds
# its own (``GameWeb.role_labels``: the Slovenian klop).
COMMON_ROLES = {
    "out": _("sat out"),
    "player": _("player"),
    "declarer": _("declarer"),
    "partner": _("partner"),
    "opponent": _("opponent"),
    "alone": _("alone"),
    "annulled": _("annulled"),
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
    # the settlement's first column: each member's balance from the hands, before the close
    "before_close": _("Before the close"),
    # the treasurer's close: the heading of the balances the close starts from
    "balances_before_close": _("Balances before the close"),
    # the score sheet: the label of the close's row
    "close_row": pgettext_lazy("the score sheet's row", "Close"),
    # the treasurer's closed evening: what reopening it does
    "reopen_explains": _(
        "Reopening reverses the close of every table and unlocks the evening; the reason is logged."
    ),
    # the treasurer's jeton count (a game with jetons): what to count; {start} is the jetons
    # each member started with
    "jetons_count_help": _(
        "Each member started with {start} jetons; enter what is in front of each account now."
    ),
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
    title: StrOrPromise = ""  # gettext_lazy
    demo: str | None = None  # dotted path of the game's ``Demo``
    # A new club's language, currency and time zone (the Club fields'), where the game is played.
    club_defaults: dict = {"language": "da", "currency": "DKK", "time_zone": "Europe/Copenhagen"}
    entry_template: str | None = None
    entry_script: str | None = None
    entry_styles: tuple[str, ...] = ()
    entry_sections: tuple[str, ...] = COMMON_SECTIONS
    section_of_field: dict = {}
    quick_reasons: tuple = ()
    wait_hint: StrOrPromise = _("Complete the hand to see who pays whom.")
    reason_labels: dict = {}

    def wait_hint_for(self, seats: int | None):
        """Return the hint shown until the hand is complete, for a table of ``seats`` (None:
        not known); a game whose hint differs at some table sizes overrides it."""
        return self.wait_hint

    payment_labels: dict = {}
    pool_labels: dict = {}
    pool_classes: dict = {}
    role_labels: dict = {}  # a seat's role in a hand beyond ``COMMON_ROLES``
    words: dict = {}
    close_columns: tuple[tuple[str, StrOrPromise], ...] = ()  # (close reason, label), in order
    stats_columns: tuple[tuple[str, StrOrPromise], ...] = ()
    stats_help: dict = {}
    stats_note: StrOrPromise = ""
    rate_card_labels: dict = {}  # path -> (label, one-line explanation)
    rate_card_choices: dict = {}  # path -> ((value, label), ...)
    rate_card_groups: tuple = ()  # ((title, (key, ...)), ...)

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

    def table_warnings(self, state: dict, rates) -> list[tuple[str, str]]:
        """Return what the table's screen warns of, from the state the next hand starts from
        and the evening's rate card: (level, text), the level ``near`` (the next hand could
        make the table stuck) or ``over`` (no hand can be recorded: close the table). None by
        default."""
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

    def hand_words(self, outcome: dict | None, moves, *, brief: bool = False) -> list[str]:
        """Return what happened in a hand in words, naming everything that moved money, from
        its posting's outcome and transfers (``moves``: ``(source, target, points, reason)``
        by account code). A game whose outcome names every payment keeps this default."""
        return self.outcome_words(outcome, brief=brief)

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

    def role_label(self, role: str) -> str:
        """Return a seat's role in a hand in words (the admin's seats of hands)."""
        label = self.role_labels.get(role) or COMMON_ROLES.get(role)
        return str(label) if label else role.replace("_", " ")

    def payment_label(self, reason: str) -> str:
        """Return a transfer reason in words, as the hand preview lists payments."""
        label = self.payment_labels.get(reason) or COMMON_PAYMENTS.get(reason)
        return str(label) if label else self.reason_label(reason)

    # --- shared screens ---

    def word(self, key: str, **values) -> str:
        """Return the game's phrase ``key`` of ``WORDS`` for a shared screen ('': not shown),
        with ``values`` filled in."""
        default = WORDS[key]  # KeyError for a phrase no shared screen asks for
        text = str(self.words.get(key, default))
        return text.format(**values) if values else text

    # --- statistics ---

    def stats_tiles(self, stats: dict) -> list[tuple[str, StrOrPromise, str]]:
        """Return the summary tiles of a member's statistics: (key, label, text)."""
        return [(key, label, str(stats.get(key, 0))) for key, label in self.stats_columns]

    def column_notes(self) -> list[str]:
        """Return the lines under the standings that explain a statistics column whose name
        alone could mislead; none by default."""
        return []

    # --- house rules ---

    def rate_card_defaults(self) -> dict:
        """Return the game's default rate card as data, without ``format`` and ``game``."""
        card = get_game(self.code).rate_card({}).as_dict()
        return {k: v for k, v in card.items() if k not in ("format", "game")}

    def rate_card_paths(self) -> list[str]:
        """Return every setting of the rate card: a key, or ``key.entry`` of an object key."""
        paths = []
        for key, value in self.rate_card_defaults().items():
            if isinstance(value, dict):
                paths += [f"{key}.{entry}" for entry in value]
            else:
                paths.append(key)
        return paths

    @staticmethod
    def rate_card_field_name(path: str) -> str:
        """Return the form field of the setting ``path`` (``contract_values.three`` is
        ``contract_values__three``)."""
        return path.replace(".", "__")

    def rate_card_form_fields(self) -> dict:
        """Return one form field per setting of the rate card, by field name: labelled and
        explained in the reader's language, the game's default beside it."""
        defaults = self.rate_card_defaults()
        fields: dict[str, forms.Field] = {}
        for path in self.rate_card_paths():
            key, _dot, entry = path.partition(".")
            default = defaults[key][entry] if entry else defaults[key]
            label, explanation = self.rate_card_labels.get(path, (path, ""))
            choices = self.rate_card_choices.get(path)
            field: forms.Field
            if isinstance(default, bool):
                choices = choices or ((True, _("yes")), (False, _("no")))
                shown = dict(choices)[default]
                field = forms.TypedChoiceField(
                    choices=[("1" if v else "0", text) for v, text in choices],
                    coerce=lambda value: value in (True, "1", "True", "true"),
                )
            elif choices:
                shown = dict(choices).get(default, default)
                field = forms.ChoiceField(choices=list(choices))
            else:
                shown = default
                field = forms.IntegerField(min_value=0, max_value=MAX_POINTS)
            field.label = label
            field.help_text = (
                format_lazy(
                    _("{explanation} Default: {default}."), explanation=explanation, default=shown
                )
                if explanation
                else format_lazy(_("Default: {default}."), default=shown)
            )
            fields[self.rate_card_field_name(path)] = field
        return fields

    def rate_card_field_groups(self) -> list[tuple[str, list[str]]]:
        """Return the form's fields in titled groups (every setting once, in the card's
        order): the game's ``rate_card_groups``, the rest under "Other settings"."""
        paths = self.rate_card_paths()
        groups, placed = [], set()
        for title, keys in self.rate_card_groups:
            names = [self.rate_card_field_name(p) for p in paths if p.partition(".")[0] in keys]
            placed.update(names)
            if names:
                groups.append((title, names))
        rest = [self.rate_card_field_name(p) for p in paths]
        rest = [name for name in rest if name not in placed]
        if rest:
            groups.append((_("Other settings"), rest))
        return groups

    def rate_card_initial(self, card: dict | None) -> dict:
        """Return the form's values of a stored ``card`` merged over the defaults (a stored
        value the game would refuse is shown as it is, so saving names its field)."""
        merged = self.rate_card_defaults()
        for key, value in (card or {}).items():
            if isinstance(value, dict) and isinstance(merged.get(key), dict):
                merged[key] = {**merged[key], **value}
            elif key in merged:
                merged[key] = value
        initial = {}
        for path in self.rate_card_paths():
            key, _dot, entry = path.partition(".")
            value = merged[key][entry] if entry else merged[key]
            initial[self.rate_card_field_name(path)] = (
                ("1" if value else "0") if isinstance(value, bool) else value
            )
        return initial

    def preset_choices(self) -> list[tuple[str, str]]:
        """Return (name, title in the reader's language) of each of the game's presets."""
        return [(p.name, gettext(p.title)) for p in get_game(self.code).presets]

    def preset_text(self, name: str) -> dict:
        """Return the preset ``name`` in words: its title and description in the reader's
        language and its source (KeyError for one the game has not)."""
        for preset in get_game(self.code).presets:
            if preset.name == name:
                return {
                    "name": name,
                    "title": gettext(preset.title),
                    "description": gettext(preset.description),
                    "source": preset.source,
                }
        raise KeyError(name)

    def rate_card_changes(self, card: dict | None, base: dict | None = None) -> list[dict]:
        """Return each setting where ``card`` differs from the game's defaults (or from the
        card ``base``: the what-if compares with the evening's own), in the form's order: its
        label (after its group's title), the default (``base``'s) and the card's value, as
        the form shows them."""
        fields = self.rate_card_form_fields()
        defaults, values = self.rate_card_initial(base), self.rate_card_initial(card)
        changes = []
        for title, names in self.rate_card_field_groups():
            for name in names:
                if str(values[name]) == str(defaults[name]):
                    continue
                choices = {str(v): text for v, text in getattr(fields[name], "choices", ())}
                changes.append(
                    {
                        "name": name,
                        "label": f"{title}: {fields[name].label}",
                        "default": str(choices.get(str(defaults[name]), defaults[name])),
                        "value": str(choices.get(str(values[name]), values[name])),
                    }
                )
        return changes

    def rate_card_from_form(self, cleaned: dict) -> dict:
        """Return the rate-card data of a form's cleaned values (for ``game.rate_card``)."""
        data: dict = {}
        for path in self.rate_card_paths():
            key, _dot, entry = path.partition(".")
            value = cleaned[self.rate_card_field_name(path)]
            if entry:
                data.setdefault(key, {})[entry] = value
            else:
                data[key] = value
        return data


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
