"""The ledger of a tarok club.

Design overview
===============

A **Club** is the tenant boundary: every other row belongs to exactly one club, and one
installation can serve a whole federation. A club has **Members** (each optionally a log-in,
with a role), **Seasons** and **Evenings**. An evening copies the club's rate card and price
per point when it opens, so later changes to the house rules never alter past evenings.
A club may publish its results (``publish_results``, off by default): the standings and its
closed evenings' results, names and points, readable without log-in under /p/<club>/
(``ledger.views.public``); money only when it also ticks ``publish_money``.

A **Table** is one sitting of 3 to 5 members with its game's pools, from opening to close.
The evening copies the club's game with its rate card; tables and hands name it too. A
**Seat** places a member at a table in the direction of play, under the name he had when
seated; a late arrival gets a seat (and pays what the game asks) when seated, and one who
leaves early keeps his seat row (``left``).

Every table has **Accounts**: one per seated member, plus the pools of its game
(``game.features.pools``: the Danish cups, which never go below zero; the Slovenian pool,
which may). Accounts are keyed by id; ``Account.code`` is the key the game's hand records
use (the seat's name as seated, or the pool's code), and no member may carry a pool's name.

A **Posting** groups the transfers of one event: a table's funding, one hand's settlement, a
reversal, the end-of-table split, a treasurer's adjustment. A **Transfer** moves ``points > 0``
from one account to another account of the same table. Each transfer is balanced by
construction, so the whole ledger is zero-sum: at every moment the members' balances plus the
pools total 0. Balances are aggregations over transfers.

Postings are append-only. A correction never edits a row: it posts a **reversal** (a posting
whose ``reverses`` points at the original; unique, so nothing is reversed twice) and a new
posting. Because a hand's state (cups, radli) feeds the next, correcting hand k also reverses
and re-settles hands k+1, k+2, ... of that table.

A **Hand** keeps its hand record (the scorekeeper's input, the single source of truth) and
every **HandRevision** (who, when, why). Each hand posting points at the revision it settles
and stores the game's state it started from and left, so ``verify_ledger`` can re-settle it
and compare.

Invariants are held at three depths: the services (``ledger.services``, the only writers) refuse
anything that would break them; the database refuses a non-positive transfer, a transfer to
itself, a transfer between tables and any update or delete of a transfer or posting (CHECK
constraints and triggers, see migration 0002); ``verify_ledger`` re-checks the whole ledger.
An **AccountBalance** is a summary kept for speed: each account's running balance and number
of transfers, written by ``ledger.services.ledger.TableLedger.post_accounts`` in the same
transaction as the transfers it sums (``ledger.services.balances``), rebuilt after a
``loaddata`` (``restore``, ``seed_demo``) and by ``rebuild_balances``, never edited by hand;
``verify_ledger`` re-derives every balance from the transfers and reports a summary row that
differs.
An **AccountStats** row is the same kind of summary for statistics: each member account's
hands played and its game's counts, rewritten for a table at the end of every transaction that
posts to it (``services.stats``), compared by ``verify_ledger`` and rebuilt with the balances.
A **JetonCount** records what the treasurer counted on the table, never changing the ledger.
"""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

from ledger.games.base import invisible_characters
from ledger.games.money import CURRENCIES, MAX_POINTS
from ledger.games.registry import (
    default_game,
    get_web,
    is_reserved_name,
    tournament_catalogue,
)
from ledger.games.web import game_choices
from ledger.games.zones import TIME_ZONES


def validate_visible_name(value: str) -> None:
    """Refuse a name holding invisible or control characters (a bidirectional override, a
    zero-width space …): two such names look alike, or a line reads in another order."""
    hidden = invisible_characters(value)
    if hidden:
        raise ValidationError(
            _("a name may not hold invisible or control characters (%(codes)s)"),
            code="invisible",
            params={"codes": ", ".join(hidden)},
        )


def text_limit(model: type[models.Model], field: str) -> int:
    """Return the most characters a text field of ``model`` holds (its ``max_length``)."""
    limit = model._meta.get_field(field).max_length  # type: ignore[union-attr]
    if limit is None:
        raise TypeError(f"{model.__name__}.{field} has no max_length")
    return limit


def clean_visible_names(instance: models.Model, *fields: str) -> None:
    """Model.clean's check of ``fields`` with validate_visible_name (no migration needed)."""
    errors = {}
    for name in fields:
        try:
            validate_visible_name(getattr(instance, name))
        except ValidationError as error:
            errors[name] = error
    if errors:
        raise ValidationError(errors)


def language_choices() -> list[tuple[str, str]]:
    """The site's languages (``settings.LANGUAGES``), each named in its own language: the
    choices of a club's and a member's language (a callable: a new language needs no
    migration)."""
    return list(settings.LANGUAGES)


def currency_choices() -> list[tuple[str, StrOrPromise]]:
    """The currencies of ``ledger.games.money.CURRENCIES``, each by its translated name: the
    choices of a club's currency (a callable: a new country's currency needs no migration)."""
    return [(code, _(currency.name)) for code, currency in CURRENCIES.items()]


def time_zone_choices() -> list[tuple[str, StrOrPromise]]:
    """The time zones of ``ledger.games.zones.TIME_ZONES``, each by its translated name: the
    choices of a club's time zone (a callable: a new country's zone needs no migration)."""
    return [(zone, _(name)) for zone, name in TIME_ZONES.items()]


def validate_member_name(value: str) -> None:
    """Refuse a member name that is a table account's name in any game, or that holds
    invisible or control characters."""
    validate_visible_name(value)
    if is_reserved_name(value):
        raise ValidationError(
            _("%(name)s is the name of a table's account; choose another name"),
            code="reserved",
            params={"name": value},
        )


# A log-in unused for its club's ``idle_minutes`` ends (``ledger.web.sessions``): a club
# evening by default, from five minutes to a week.
IDLE_MINUTES_DEFAULT = 240
IDLE_MINUTES_MIN = 5
IDLE_MINUTES_MAX = 7 * 24 * 60


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), unique=True)
    price_per_point = models.DecimalField(
        _("price per point"),
        max_digits=8,
        decimal_places=4,
        default=Decimal("0.25"),
        validators=[MinValueValidator(Decimal("0"))],
    )
    currency = models.CharField(
        _("currency"), max_length=3, choices=currency_choices, default="DKK"
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=language_choices,
        default="da",
        help_text=_(
            "The club's pages, wall and public pages read in it, unless a member has chosen "
            "his own language."
        ),
    )
    time_zone = models.CharField(
        _("time zone"), max_length=40, choices=time_zone_choices, default="Europe/Copenhagen"
    )
    starting_jetons = models.PositiveIntegerField(
        _("jetons per member at the start"),
        default=500,
        validators=[MaxValueValidator(MAX_POINTS)],
        help_text=_("Each member's stack when a table starts, for counting jetons."),
    )
    rate_card = models.JSONField(_("rate card"), default=dict, blank=True)
    game = models.CharField(_("game"), max_length=30, choices=game_choices, default=default_game)
    publish_results = models.BooleanField(
        _("publish results"),
        default=False,
        help_text=_(
            "Anyone, without logging in, may read the season's standings and the results of "
            "closed evenings at the club's public page: members' names and points, never an "
            "open evening."
        ),
    )
    publish_money = models.BooleanField(
        _("publish money"),
        default=False,
        help_text=_(
            "Only with the results public: show the money too (each member's amount won or "
            "lost); without it the public pages show names and points only."
        ),
    )
    idle_minutes = models.PositiveIntegerField(
        _("log out after minutes unused"),
        default=IDLE_MINUTES_DEFAULT,
        validators=[MinValueValidator(IDLE_MINUTES_MIN), MaxValueValidator(IDLE_MINUTES_MAX)],
        help_text=_(
            "A log-in not used for this long ends by itself, on the club's tablet as on a "
            "member's phone: the next person finds nothing of the last one. From 5 minutes to "
            "7 days (10080 minutes); 240 is a club evening."
        ),
    )
    members_may_erase = models.BooleanField(
        _("members may erase themselves"),
        default=False,
        help_text=_(
            "A member who leaves may erase his own name, e-mail and log-in from his page; "
            "without it only a club admin may."
        ),
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("club", kwargs={"club": self.slug})

    def get_public_url(self) -> str | None:
        """Return the path of the club's public results page, or None when not published."""
        return reverse("public_club", kwargs={"club": self.slug}) if self.publish_results else None

    def clean(self):
        super().clean()
        clean_visible_names(self, "name")


class Federation(models.Model):
    """A federation (``federation.md`` section 1): one game and language, its member clubs and
    its officers (a role of the federation, not of a club)."""

    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name"), unique=True)
    game = models.CharField(_("game"), max_length=30, choices=game_choices)
    language = models.CharField(_("language"), max_length=8, choices=language_choices)
    clubs = models.ManyToManyField(
        Club, verbose_name=_("member clubs"), related_name="federations", blank=True
    )
    officers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("officers"),
        related_name="federations_as_officer",
        blank=True,
    )
    publish_results = models.BooleanField(
        _("publish results"),
        default=False,
        help_text=_(
            "Anyone, without logging in, may read the federation's series and their ladders "
            "at /pf/<federation>/: players' names, clubs and totals."
        ),
    )

    class Meta:
        verbose_name = _("federation")
        verbose_name_plural = _("federations")
        ordering = ["name"]

    def __str__(self):
        return self.name


class Player(models.Model):
    """One person across the installation: each club membership links to him, and so does
    each tournament entry. ``licence`` is the federation's number for him, unique within that
    federation; ``club_name`` is his club's name when his home club is not one of ours."""

    name = models.CharField(_("name"), max_length=60)
    federation = models.ForeignKey(
        Federation,
        verbose_name=_("federation"),
        on_delete=models.PROTECT,
        related_name="players",
        null=True,
        blank=True,
    )
    licence = models.CharField(_("licence"), max_length=40, blank=True)
    home_club = models.ForeignKey(
        Club,
        verbose_name=_("home club"),
        on_delete=models.PROTECT,
        related_name="home_players",
        null=True,
        blank=True,
    )
    club_name = models.CharField(_("club"), max_length=100, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["federation", "licence"],
                condition=~models.Q(licence=""),
                name="player_licence_unique_in_federation",
            ),
            models.CheckConstraint(
                condition=models.Q(licence="") | models.Q(federation__isnull=False),
                name="player_licence_needs_federation",
            ),
        ]

    def __str__(self):
        return self.name


class FederationLog(models.Model):
    """What an officer did to the federation's records (a merge of two players, ...)."""

    federation = models.ForeignKey(
        Federation,
        verbose_name=_("federation"),
        on_delete=models.PROTECT,
        related_name="log_rows",
        null=True,
        blank=True,
    )
    action = models.CharField(_("action"), max_length=20)
    details = models.JSONField(_("details"), default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("federation log entry")
        verbose_name_plural = _("federation log")
        ordering = ["pk"]

    def __str__(self):
        return f"{self.action} {self.at:%Y-%m-%d}"


class Member(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("member")
        SCOREKEEPER = "scorekeeper", _("scorekeeper")
        TREASURER = "treasurer", _("treasurer")
        ADMIN = "admin", _("club admin")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="members"
    )
    name = models.CharField(_("name"), max_length=60, validators=[validate_member_name])
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="memberships",
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    active = models.BooleanField(_("active"), default=True)
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="memberships",
        null=True,
        blank=True,
    )
    # When his name, e-mail and log-in were erased (``services.privacy.member_erase``): his
    # name is then a neutral label ("former member 12"), his figures stay.
    erased_at = models.DateTimeField(_("erased at"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("member")
        verbose_name_plural = _("members")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="member_name_unique_in_club"),
            models.UniqueConstraint(fields=["club", "user"], name="member_user_unique_in_club"),
        ]

    def __str__(self):
        return self.name


class ClubLog(models.Model):
    """What was done to a club's people (``ledger.services.people``): a member added, a role
    or the active flag changed, a log-in created, linked or unlinked, a password reset, an
    invitation made, used or revoked; who did it, when, and the value before and after in
    ``details`` ({"old": ..., "new": ...}, never a password or a token). Append-only, sealed
    chained within the club; its club's admins read it."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="people_log"
    )
    # The member's id and his name as they were: a guest removed with his entry leaves his
    # entries behind (no constraint, so the log never blocks nor loses a row).
    member = models.ForeignKey(
        "Member",
        verbose_name=_("member"),
        on_delete=models.DO_NOTHING,
        db_constraint=False,
        null=True,
        blank=True,
        related_name="+",
    )
    member_name = models.CharField(_("name"), max_length=60, blank=True)
    action = models.CharField(_("action"), max_length=20)
    details = models.JSONField(_("details"), default=dict, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("people log entry")
        verbose_name_plural = _("people log")
        ordering = ["pk"]

    # The actions the services log, in words (``action`` has no choices: a new action needs
    # no migration; one not listed here is shown as it is stored).
    ACTION_LABELS = {
        "added": _("member added"),
        "removed": _("member removed"),
        "role": _("role changed"),
        "active": _("active changed"),
        "name": _("name changed"),
        "login": _("log-in changed"),
        "login_created": _("log-in created"),
        "password_reset": _("password reset"),
        "invited": _("invitation made"),
        "invitation_used": _("invitation used"),
        "invitation_revoked": _("invitation revoked"),
        "erased": _("member erased"),
    }

    def __str__(self):
        return f"{self.club_id}: {self.action} {self.at:%Y-%m-%d}"

    @property
    def action_label(self) -> str:
        """Return the action in the reader's language."""
        return str(self.ACTION_LABELS.get(self.action, self.action))


class Season(models.Model):
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=60)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="season_dates_ordered"
            )
        ]

    def __str__(self):
        return self.name

    def clean(self):
        super().clean()
        clean_visible_names(self, "name")


class Evening(models.Model):
    """A date's play: a club's evening (its scorekeepers open tables, its treasurer counts,
    closes and settles it) or a tournament's (its tables are the round tables, opened and
    closed only by the tournament's round services; no club role touches it)."""

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    class Kind(models.TextChoices):
        CLUB = "club", _("club evening")
        TOURNAMENT = "tournament", _("tournament")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="evenings"
    )
    season = models.ForeignKey(
        Season,
        verbose_name=_("season"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="evenings",
    )
    date = models.DateField(_("date"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices, default=Kind.CLUB)
    game = models.CharField(_("game"), max_length=30, choices=game_choices, default=default_game)
    rate_card = models.JSONField(_("rate card in force"))
    price_per_point = models.DecimalField(_("price per point"), max_digits=8, decimal_places=4)
    starting_jetons = models.PositiveIntegerField(_("jetons per member at the start"), default=500)
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("evening")
        verbose_name_plural = _("evenings")
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["club", "date"])]
        constraints = [
            # One open club evening per date; any number of tournaments beside it.
            models.UniqueConstraint(
                fields=["club", "date"],
                condition=models.Q(status="open", kind="club"),
                name="one_open_club_evening_per_date",
            )
        ]

    def __str__(self):
        return f"{self.club} {self.date:%Y-%m-%d}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_tournament(self) -> bool:
        return self.kind == self.Kind.TOURNAMENT


class EveningLog(models.Model):
    """An action on an evening that a treasurer must answer for: close, reopen."""

    evening = models.ForeignKey(
        Evening, verbose_name=_("evening"), on_delete=models.PROTECT, related_name="log"
    )
    action = models.CharField(_("action"), max_length=20)
    reason = models.TextField(_("reason"), blank=True)
    # What the action found, as data (a close: the confirmed jeton differences, each
    # {"table": n, "account": code, "difference": points}); shown in the reader's language.
    details = models.JSONField(_("details"), default=list, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("evening log entry")
        verbose_name_plural = _("evening log")
        ordering = ["at", "id"]

    # The actions the services log, in words (``action`` has no choices: a new action needs
    # no migration; one not listed here is shown as it is stored).
    ACTION_LABELS = {
        "open": _("opened"),
        "close": _("closed"),
        "reopen": _("reopened"),
        "season": _("filed under a season"),
    }

    def __str__(self):
        return f"{self.evening}: {self.action_label}"

    @property
    def action_label(self) -> str:
        """Return the action in the reader's language ("closed", not ``close``)."""
        return str(self.ACTION_LABELS.get(self.action, self.action))


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("open")
        CLOSED = "closed", _("closed")

    evening = models.ForeignKey(
        Evening, verbose_name=_("evening"), on_delete=models.PROTECT, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    game = models.CharField(_("game"), max_length=30, choices=game_choices, default=default_game)
    first_dealer = models.ForeignKey(
        Member,
        verbose_name=_("first dealer"),
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["evening", "number"]
        constraints = [
            models.UniqueConstraint(fields=["evening", "number"], name="table_number_unique")
        ]

    def __str__(self):
        return gettext("{evening}, table {number}").format(evening=self.evening, number=self.number)

    def get_absolute_url(self):
        return reverse("table", kwargs={"club": self.evening.club.slug, "pk": self.pk})


class SeatQuerySet(models.QuerySet["Seat"]):
    def of_table(self, table_id: int, *, current: bool = True) -> list[Seat]:
        """Return the table's seats in the direction of play, with their members: those still
        at the table, or with ``current=False`` every seat (those who left included)."""
        seats = self.filter(table_id=table_id)
        if current:
            seats = seats.filter(left=False)
        return list(seats.select_related("member").order_by("position"))


def is_reversed(posting: str = "pk") -> models.Exists:
    """Whether a posting has a reversal, for the model whose field ``posting`` holds its id (a
    posting's own ``pk``, a transfer's ``posting_id``): EXISTS on the unique index of
    ``reverses``, one probe a row, on every database."""
    return models.Exists(Posting.objects.filter(reverses_id=models.OuterRef(posting)))


def not_reversed(posting: str = "pk") -> models.Expression:
    """The condition that a posting has no reversal (``is_reversed`` negated), for ``filter``.
    Written as the join ``reversed_by__isnull=True``, SQLite with its planner's statistics
    (after ANALYZE, as ``restore`` runs: the index nearly all NULLs) built a temporary index of
    every posting for each read, or walked every transfer: an evening's transfers took 128 ms
    instead of 5 at 96,000 hands, a save 39.6 ms instead of 7.9."""
    return ~is_reversed(posting)


class PostingQuerySet(models.QuerySet):
    def live(self):
        """Return the postings that count: neither a reversal nor reversed."""
        return self.filter(not_reversed()).exclude(kind=Posting.Kind.REVERSAL)

    def changing_the_count(self):
        """Return the postings that change what a table's jetons should be: hands (a
        correction posts one too), late arrivals' funding, and the reversal of a hand (a void).
        Adjustments reconcile the ledger with a count, and a reopening only reverses the split:
        neither makes a count stale."""
        return self.filter(
            models.Q(kind__in=[Posting.Kind.HAND, Posting.Kind.FUNDING])
            | models.Q(kind=Posting.Kind.REVERSAL, reverses__kind=Posting.Kind.HAND)
        )


class TransferQuerySet(models.QuerySet):
    def live(self):
        """Return the transfers of live postings (neither a reversal nor reversed)."""
        return self.filter(not_reversed("posting_id")).exclude(posting__kind=Posting.Kind.REVERSAL)

    def balances(self) -> dict[int, int]:
        """Return account id -> points, the balance of every account these transfers touch:
        what it received minus what it gave (two grouped queries). The one sum over
        transfers; the running summary (``AccountBalance``) is re-checked against it."""
        return {pk: balance for pk, (balance, _n) in self.balances_and_counts().items()}

    def balances_and_counts(self) -> dict[int, tuple[int, int]]:
        """Return account id -> (balance, number of transfers) over these transfers."""
        totals: dict[int, list[int]] = {}
        for column, sign in (("target_id", 1), ("source_id", -1)):
            rows = (
                self.order_by()
                .values(column)
                .annotate(s=models.Sum("points"), n=models.Count("pk"))
                .values_list(column, "s", "n")
            )
            for pk, points, n in rows:
                total = totals.setdefault(pk, [0, 0])
                total[0] += sign * points
                total[1] += n
        return {pk: (balance, n) for pk, (balance, n) in totals.items()}


class AccountBalanceQuerySet(models.QuerySet):
    def of_table(self, table_id: int) -> dict[int, int]:
        """Return every account's balance of a table, by account id (one query), read from the
        summary; an account without transfers is missing (its balance is 0)."""
        return dict(self.filter(account__table_id=table_id).values_list("account_id", "balance"))


class Seat(models.Model):
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="seats"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="seats"
    )
    # The member's name when seated: the table's hand records name him so, whatever he is
    # called later, so a rename never changes what a stored hand settles to.
    name = models.CharField(_("name when seated"), max_length=60)
    position = models.PositiveSmallIntegerField(_("position"))
    joined_at_hand = models.PositiveIntegerField(_("joined at hand"), default=1)
    left = models.BooleanField(_("has left"), default=False)

    objects = SeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "member"], name="seat_member_unique"),
        ]

    def __str__(self):
        return f"{self.member} @ {self.table}"


class Account(models.Model):
    """A member's account at a table, or one of the game's pools.

    ``code`` is the account's key in the table's hand records and settlements: the seat's
    name as it was when seated, or the pool's code (``game.features.pools``). The ledger
    maps codes to accounts once per table and works with ids from there.
    """

    class Kind(models.TextChoices):
        MEMBER = "member", _("member")
        POOL = "pool", _("pool")

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="accounts"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    code = models.CharField(_("code"), max_length=60)
    member = models.ForeignKey(
        Member,
        verbose_name=_("member"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="accounts",
    )

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "member"],
                condition=models.Q(kind="member"),
                name="account_member_unique",
            ),
            models.UniqueConstraint(fields=["table", "code"], name="account_code_unique"),
            models.CheckConstraint(
                condition=(models.Q(kind="member") & models.Q(member__isnull=False))
                | (~models.Q(kind="member") & models.Q(member__isnull=True)),
                name="account_member_iff_kind_member",
            ),
        ]

    def __str__(self):
        return self.member.name if self.member is not None else self.code

    @property
    def name(self) -> str:
        """Return the member's current name, or the pool's code."""
        return str(self)

    @property
    def label(self) -> str:
        """Return the account as a screen names it: the member's name, or the pool's label in
        the reader's language (capitalised, as the game's web side names it: "Pulje")."""
        if self.member is not None:
            return self.member.name
        return capfirst(get_web(self.table.game).pool_label(self.code))


class Hand(models.Model):
    class Status(models.TextChoices):
        RECORDED = "recorded", _("recorded")
        VOIDED = "voided", _("voided")

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="hands"
    )
    number = models.PositiveIntegerField(_("number"))
    game = models.CharField(_("game"), max_length=30, choices=game_choices, default=default_game)
    record = models.JSONField(_("hand record"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.RECORDED
    )
    token = models.CharField(_("form token"), max_length=64, null=True, blank=True, unique=True)
    dealer = models.ForeignKey(
        Member, verbose_name=_("dealer"), on_delete=models.PROTECT, related_name="+"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique")
        ]

    def __str__(self):
        return gettext("{table}, hand {number}").format(table=self.table, number=self.number)


class HandRevision(models.Model):
    class Action(models.TextChoices):
        RECORD = "record", _("recorded")
        CORRECT = "correct", _("corrected")
        VOID = "void", _("voided")

    hand = models.ForeignKey(
        Hand, verbose_name=_("hand"), on_delete=models.PROTECT, related_name="revisions"
    )
    number = models.PositiveIntegerField(_("number"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    record = models.JSONField(_("hand record"))
    reason = models.TextField(_("reason"), blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand revision")
        verbose_name_plural = _("hand revisions")
        ordering = ["hand", "number"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "number"], name="revision_number_unique")
        ]

    def __str__(self):
        return gettext("{hand}, revision {number} ({action})").format(
            hand=self.hand, number=self.number, action=self.get_action_display()
        )


class Posting(models.Model):
    class Kind(models.TextChoices):
        FUNDING = "funding", _("funding")
        HAND = "hand", _("hand")
        REVERSAL = "reversal", _("reversal")
        SPLIT = "split", _("split")
        ADJUSTMENT = "adjustment", _("adjustment")

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="postings"
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind.choices)
    hand = models.ForeignKey(
        Hand,
        verbose_name=_("hand"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="postings",
    )
    revision = models.ForeignKey(
        HandRevision,
        verbose_name=_("revision"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="postings",
    )
    reverses = models.OneToOneField(
        "self",
        verbose_name=_("reverses"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="reversed_by",
    )
    # The game's state the hand started from and left (Danish cups, Slovenian radli).
    state_before = models.JSONField(_("state before"), null=True, blank=True)
    state_after = models.JSONField(_("state after"), null=True, blank=True)
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    # What a treasurer asked of an adjustment (account ids and points), to re-check it.
    intent = models.JSONField(_("intent"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    objects = PostingQuerySet.as_manager()

    class Meta:
        verbose_name = _("posting")
        verbose_name_plural = _("postings")
        ordering = ["table", "id"]

    def __str__(self):
        return gettext("{kind} (posting {number})").format(
            kind=self.get_kind_display(), number=self.pk
        )


class Transfer(models.Model):
    posting = models.ForeignKey(
        Posting, verbose_name=_("posting"), on_delete=models.PROTECT, related_name="transfers"
    )
    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="+"
    )
    source = models.ForeignKey(
        Account, verbose_name=_("from account"), on_delete=models.PROTECT, related_name="outgoing"
    )
    target = models.ForeignKey(
        Account, verbose_name=_("to account"), on_delete=models.PROTECT, related_name="incoming"
    )
    points = models.BigIntegerField(_("points"))
    reason = models.CharField(_("reason"), max_length=40)

    objects = TransferQuerySet.as_manager()

    class Meta:
        verbose_name = _("transfer")
        verbose_name_plural = _("transfers")
        ordering = ["posting", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(points__gt=0), name="transfer_points_positive"
            ),
            models.CheckConstraint(
                condition=~models.Q(source=models.F("target")), name="transfer_not_to_itself"
            ),
        ]

    def __str__(self):
        return f"{self.source.label} → {self.target.label} {self.points}"


class PostingSeatQuerySet(models.QuerySet):
    def live(self):
        """Return the rows of live hand postings (neither a reversal nor reversed)."""
        return self.filter(not_reversed("posting_id")).exclude(posting__kind=Posting.Kind.REVERSAL)


class PostingSeat(models.Model):
    """One seat of a hand posting: the role its member played in the hand, whether he played,
    and what his game counts of it (``Game.stats_of`` of the settlement).

    Written with the posting, in its transaction (``ledger.services.stats``), never changed; a
    reversed posting's rows stay and are no longer live. The statistics read these rows (and
    their summary, ``AccountStats``), never the stored JSON of a hand; ``verify_ledger``
    compares each row with a replay of its hand. Like the summaries, the rows are derived, so
    backups and the demo fixtures leave them out and ``rebuild_balances`` replays them.
    """

    posting = models.ForeignKey(
        Posting, verbose_name=_("posting"), on_delete=models.PROTECT, related_name="seat_rows"
    )
    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="seat_rows"
    )
    role = models.CharField(_("role"), max_length=20)
    played = models.BooleanField(_("played"), default=False)
    counts = models.JSONField(_("counts"), default=dict)

    objects = PostingSeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("seat of a hand")
        verbose_name_plural = _("seats of hands")
        ordering = ["posting", "id"]
        constraints = [
            models.UniqueConstraint(fields=["posting", "account"], name="posting_seat_unique")
        ]

    def __str__(self):
        return f"{self.account} ({get_web(self.account.table.game).role_label(self.role)})"


class AccountBalance(models.Model):
    """The running balance of one account (a summary of its transfers, kept for speed).

    Written only in the transaction that writes the transfers (``ledger.services.balances``); an
    account without transfers may have no row (its balance is 0).
    """

    account = models.OneToOneField(
        Account,
        verbose_name=_("account"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="summary",
    )
    balance = models.BigIntegerField(_("balance"), default=0)
    transfers = models.PositiveIntegerField(_("transfers"), default=0)

    objects = AccountBalanceQuerySet.as_manager()

    class Meta:
        verbose_name = _("account balance")
        verbose_name_plural = _("account balances")

    def __str__(self):
        return f"{self.account_id}: {self.balance}"


class AccountStats(models.Model):
    """The statistics of one member account (a summary of its table's live hands and of the
    points it received, kept for speed).

    ``stats`` maps each statistic of the table's game (``played`` and the game's
    ``stats_columns`` keys) to its count or points. Written only at the end of the transaction
    that posts to the account's table (``services.stats``); a member account without a row has
    played nothing.
    """

    account = models.OneToOneField(
        Account,
        verbose_name=_("account"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="stats_summary",
    )
    stats = models.JSONField(_("statistics"), default=dict)

    class Meta:
        verbose_name = _("account statistics")
        verbose_name_plural = _("account statistics")

    def __str__(self):
        return f"{self.account_id}: {self.stats}"


class Seal(models.Model):
    """A keyed digest of one ledger row (a posting, a hand revision, an evening log entry, a
    hand) or of a table's or an evening's head, written only by ``ledger.services.seals`` in the
    transaction that writes what it seals, and recomputed by ``verify_ledger``: what the ledger
    cannot re-derive (who wrote a revision and why, a table's seats, an evening's results)
    cannot be changed unseen. ``scope`` is what the row belongs to (a posting's and a hand's
    table, a revision's hand, a log entry's and a table's evening, an evening's club); postings,
    revisions and log entries are chained within it. Backups carry the seals; ``restore``
    refuses a file whose seals do not hold."""

    class Kind(models.TextChoices):
        POSTING = "posting", _("posting")
        REVISION = "revision", _("hand revision")
        LOG = "log", _("evening log entry")
        HAND = "hand", _("hand")
        TABLE = "table", _("table")
        EVENING = "evening", _("evening")
        TOURNAMENT = "tournament", _("tournament")
        CLUB = "club", _("club's chain head")
        MEMBER = "member", _("member")
        CLUB_LOG = "clublog", _("people log entry")
        PEOPLE = "people", _("club's people")

    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    object_id = models.BigIntegerField(_("object"))
    scope = models.BigIntegerField(_("belongs to"))
    digest = models.CharField(_("digest"), max_length=64)

    class Meta:
        verbose_name = _("seal")
        verbose_name_plural = _("seals")
        constraints = [
            models.UniqueConstraint(fields=["kind", "object_id"], name="seal_unique_per_object")
        ]
        indexes = [models.Index(fields=["kind", "scope", "object_id"], name="seal_chain")]

    def __str__(self):
        return f"{self.get_kind_display()} {self.object_id}"


class ChainLink(models.Model):
    """One link of a club's chain: one of its evenings, tournaments or rounds as it was created
    or took a new status (an evening closed or reopened, a round closed), in the order it
    happened, sealed chained to the link before it. The club's head (a ``Seal`` of kind club)
    covers its last link: an evening, a tournament or a round removed with all its seals, or a
    chain cut short, no longer matches it. Written only by ``ledger.services.seals``."""

    class Kind(models.TextChoices):
        EVENING = "evening", _("evening")
        TOURNAMENT = "tournament", _("tournament")
        ROUND = "round", _("round")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="chain"
    )
    number = models.PositiveIntegerField(_("number"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    object_id = models.BigIntegerField(_("object"))
    status = models.CharField(_("status"), max_length=12)
    digest = models.CharField(_("digest"), max_length=64)

    class Meta:
        verbose_name = _("chain link")
        verbose_name_plural = _("chain links")
        constraints = [
            models.UniqueConstraint(fields=["club", "number"], name="chain_link_unique_number")
        ]
        indexes = [models.Index(fields=["kind", "object_id", "number"], name="chain_link_object")]

    def __str__(self):
        return f"{self.club_id} #{self.number}: {self.kind} {self.object_id} {self.status}"


class JetonCount(models.Model):
    """What the treasurer counted in front of one account; the ledger is never changed by it."""

    table = models.ForeignKey(
        Table, verbose_name=_("table"), on_delete=models.PROTECT, related_name="jeton_counts"
    )
    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="jeton_counts"
    )
    points = models.IntegerField(_("points"), validators=[MaxValueValidator(MAX_POINTS)])
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("counted by"),
        on_delete=models.PROTECT,
        null=True,
        related_name="+",
    )
    counted_at = models.DateTimeField(_("counted at"), auto_now_add=True)

    class Meta:
        verbose_name = _("jeton count")
        verbose_name_plural = _("jeton counts")
        ordering = ["table", "counted_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(points__gte=0, points__lte=MAX_POINTS),
                name="jeton_count_bounded",
            )
        ]

    def __str__(self):
        return f"{self.account}: {self.points}"


class EveningResult(models.Model):
    """A member's result of a closed evening, in points and in money (written at closing)."""

    evening = models.ForeignKey(
        Evening, verbose_name=_("evening"), on_delete=models.PROTECT, related_name="results"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="results"
    )
    points = models.BigIntegerField(_("points"))
    money = models.DecimalField(_("money"), max_digits=18, decimal_places=2)
    closing = models.PositiveIntegerField(_("closing"), default=1)

    class Meta:
        verbose_name = _("evening result")
        verbose_name_plural = _("evening results")
        constraints = [
            models.UniqueConstraint(
                fields=["evening", "member", "closing"], name="result_unique_per_closing"
            )
        ]

    def __str__(self):
        return f"{self.member} {self.points:+d}"


class Invitation(models.Model):
    """A one-time, expiring link with which a member chooses his log-in or a new password.

    Only the token's SHA-256 is looked up; the token itself is an HMAC of ``nonce`` under the
    site's secret key (``services.invitations``), so the sheet of pending links can be printed
    again, and the database alone gives no link away. ``used_at`` makes it single use.
    """

    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.CASCADE, related_name="invitations"
    )
    nonce = models.CharField(_("nonce"), max_length=64)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True)
    created = models.DateTimeField(_("created"))
    expires = models.DateTimeField(_("expires"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created", "-id"]

    def __str__(self):
        return f"{self.member} {self.created:%Y-%m-%d}"


# The reader's text size (``Profile.text_size``): a class on every page's <html>
# (``text-large``, ``text-larger``; static/ledger/site.css).
TEXT_SIZE_CHOICES = [("normal", _("normal")), ("large", _("large")), ("larger", _("larger"))]


class Profile(models.Model):
    """A user's own settings, whatever his clubs: his language and his text size.

    ``language`` is the one he chose in the language switch ('' for none): it wins over his
    clubs' languages and his browser's. One no longer offered is ignored (``ledger.web.locale``).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="profile",
    )
    language = models.CharField(
        _("language"), max_length=8, choices=language_choices, blank=True, default=""
    )
    text_size = models.CharField(
        _("text size"), max_length=8, choices=TEXT_SIZE_CHOICES, default="normal"
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return str(self.user)


# --- tournaments (issue 21, ``tournament.md``) ---------------------------------------------


def tournament_format_choices() -> list[tuple[str, StrOrPromise]]:
    """Return the formats of ``tournament.md`` section 7: each registered game's own, then the
    generic ones (a callable: a new game's format needs no migration)."""
    return [
        (code, _(rules.title or code)) for code, rules in tournament_catalogue().formats.items()
    ]


class Tournament(models.Model):
    """An event of several rounds at drawn tables (``tournament.md`` section 2).

    ``params`` holds only the overrides of the format's defaults (the engine validates them);
    ``rate_card`` is copied when the tournament starts, as an evening copies the club's, and
    every round table plays it. It is played on the days from ``date`` to ``last_date`` (the
    same day for a one-day tournament), an evening of its own per day played: ``evening`` is
    the first one, opened when round 1 starts; each round keeps the evening of its ``day``.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("draft")
        RUNNING = "running", _("running")
        PROVISIONAL = "provisional", _("provisional")
        FINAL = "final", _("final")
        CANCELLED = "cancelled", _("cancelled")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=100)
    date = models.DateField(_("date"))
    last_date = models.DateField(_("last day"))
    game = models.CharField(_("game"), max_length=30, choices=game_choices)
    tournament_format = models.CharField(
        _("format"), max_length=20, choices=tournament_format_choices
    )
    seed = models.CharField(_("seed"), max_length=100, blank=True)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    rate_card = models.JSONField(_("rate card in force"), null=True, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.DRAFT
    )
    evening = models.ForeignKey(
        Evening,
        verbose_name=_("evening"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    # The director's acts on the whole tournament (finish, reopen with its reason).
    log = models.JSONField(_("log"), default=list, blank=True)
    ladder = models.ForeignKey(
        "Series",
        verbose_name=_("ladder"),
        on_delete=models.PROTECT,
        related_name="seeded_tournaments",
        null=True,
        blank=True,
        help_text=_("The series whose ladder, as of the day before, gives the ladder ranks."),
    )
    rating_list = models.ForeignKey(
        "RatingList",
        verbose_name=_("rating list"),
        on_delete=models.PROTECT,
        related_name="seeded_tournaments",
        null=True,
        blank=True,
        help_text=_("The rating list whose ratings, as of the day before, give the ladder ranks."),
    )
    # Raised by every tournament service that locks the tournament (its entries, draws and
    # results change only there), in the same transaction: the kept standings are keyed by it.
    version = models.PositiveBigIntegerField(_("version"), default=0, editable=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "-id"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament", kwargs={"club": self.club.slug, "pk": self.pk})

    @property
    def several_days(self) -> bool:
        """Whether the tournament is played on more than one day."""
        return self.last_date is not None and self.last_date != self.date


class Entry(models.Model):
    """A player entered in a tournament: a member of the club, or a guest from another club
    (a guest gets an inactive member row of the club, so that he can sit at an ordinary
    table). ``code`` is his stable id in the draw's hashes (section 3): a federation id
    when the ladder gives one, else the member's id."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="entries"
    )
    member = models.ForeignKey(
        Member, verbose_name=_("member"), on_delete=models.PROTECT, related_name="entries"
    )
    code = models.CharField(_("id"), max_length=40)
    name = models.CharField(_("name"), max_length=60, validators=[validate_member_name])
    club_name = models.CharField(_("club"), max_length=100, blank=True)
    guest = models.BooleanField(_("guest"), default=False)
    ladder_rank = models.PositiveIntegerField(
        _("ladder rank"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    from_round = models.PositiveSmallIntegerField(_("from round"), default=1)
    withdrawn_after = models.PositiveSmallIntegerField(_("withdrawn after round"), null=True)
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="entries",
        null=True,
        blank=True,
    )

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="entry_code_unique"),
            models.UniqueConstraint(fields=["tournament", "member"], name="entry_member_unique"),
        ]

    def __str__(self):
        return self.name


class Round(models.Model):
    """A round with its draw (``tables``: lists of entry codes in seat order; ``byes``), the
    draw's mode, the checker's findings (``warnings``, each ``Violation.as_dict()``), the
    draw the engine computed (``computed``, kept when the director swaps) and the log of the
    director's acts on it (``log``). It is played on its ``day`` (one of the tournament's
    days, never before an earlier round's), at the tournament's ``evening`` of that day, set
    when it starts."""

    class Status(models.TextChoices):
        DRAFTED = "drafted", _("drafted")
        PUBLISHED = "published", _("published")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"))
    day = models.DateField(_("day"))
    evening = models.ForeignKey(
        Evening,
        verbose_name=_("evening"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="rounds",
    )
    kind = models.CharField(_("kind"), max_length=20)
    mode = models.CharField(_("mode"), max_length=10)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFTED
    )
    tables = models.JSONField(_("tables"), default=list)
    byes = models.JSONField(_("byes"), default=list)
    groups = models.JSONField(_("seeding groups"), default=dict, blank=True)
    warnings = models.JSONField(_("warnings"), default=list, blank=True)
    computed = models.JSONField(_("computed draw"), default=dict, blank=True)
    log = models.JSONField(_("log"), default=list, blank=True)
    time_limit_min = models.PositiveIntegerField(_("minutes"))
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self):
        return f"{self.tournament} #{self.number}"

    @property
    def evening_pk(self) -> int:
        """Return the id of the evening of a round that has started (its day's)."""
        if self.evening_id is None:
            raise ValueError(f"round {self.pk} has not started")
        return self.evening_id

    @property
    def signal_at(self):
        """Return the moment of the signal (section 10): the start plus the round's minutes."""
        if self.started_at is None:
            return None
        return self.started_at + datetime.timedelta(minutes=self.time_limit_min)


class RoundTable(models.Model):
    """A table of a round: its seats (entry codes in seat order, seat 1 deals first), the
    ordinary ``table`` it was opened as, and per seated player his round result
    (``results``: code -> {score, place, points, first, left}, points an exact rational as a
    string), written when the round closes."""

    class EndedBy(models.TextChoices):
        TARGET = "target", _("the hands target")
        TIME = "time", _("the time")
        SHORT = "short", _("too few players")
        DIRECTOR = "director", _("the director, before the time")

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="round_tables"
    )
    number = models.PositiveSmallIntegerField(_("table"))
    seats = models.JSONField(_("seats"), default=list)
    table = models.OneToOneField(
        Table,
        verbose_name=_("table"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="round_table",
    )
    hands_played = models.PositiveIntegerField(_("hands played"), null=True, blank=True)
    results = models.JSONField(_("results"), default=dict, blank=True)
    ended_by = models.CharField(
        _("ended by"), max_length=10, choices=EndedBy.choices, blank=True, default=""
    )
    # The table's own link for one phone or tablet (``/c/<club>/link/<token>/``), made when
    # the draw is published, and the device that holds it (a digest of its key; empty until
    # a device opens the link or after the director hands it over).
    token = models.CharField(_("link"), max_length=64, unique=True, null=True, blank=True)
    device = models.CharField(_("device"), max_length=64, blank=True, default="")
    # The number of the one hand the table marked "begun before the signal" (section 10).
    signal_hand = models.PositiveIntegerField(_("hand begun before the signal"), null=True)
    # Players the table reported missing (entry codes), for the director's progress screen.
    missing = models.JSONField(_("reported missing"), default=list, blank=True)
    # Substitutes (section 9): absent entry code -> {member, name, at_hand, by, at}.
    substitutes = models.JSONField(_("substitutes"), default=dict, blank=True)

    class Meta:
        verbose_name = _("round table")
        verbose_name_plural = _("round tables")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="round_table_unique")
        ]

    def __str__(self):
        return f"{self.round} T{self.number}"

    @property
    def started_table(self) -> Table:
        """Return the table of a round that has started (it has one from its start on)."""
        if self.table is None:
            raise ValueError(f"round table {self.pk} has not started")
        return self.table

    @property
    def table_pk(self) -> int:
        """Return the id of the table of a round that has started."""
        if self.table_id is None:
            raise ValueError(f"round table {self.pk} has not started")
        return self.table_id


class HandConfirmation(models.Model):
    """A hand saved on a round table's own link while its tournament asks for confirmation
    (``confirm_hands``): who at the table saved it (``saved_by``, a seat's name) and, once
    a second player of the hand confirmed it on the same phone, who did, which revision he
    saw and when. Until then the hand is "to confirm": its postings stand (the table goes on
    settling from it) but it does not count for the table's hands target. The confirmation is
    also written in the round's log, which the tournament's seal covers."""

    hand = models.OneToOneField(
        Hand, verbose_name=_("hand"), on_delete=models.PROTECT, related_name="confirmation"
    )
    saved_by = models.CharField(_("saved by"), max_length=60)
    confirmed_by = models.CharField(_("confirmed by"), max_length=60, blank=True, default="")
    revision = models.PositiveIntegerField(_("revision confirmed"), null=True, blank=True)
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("hand confirmation")
        verbose_name_plural = _("hand confirmations")
        ordering = ["hand"]

    def __str__(self):
        return str(self.hand)


class Bye(models.Model):
    """A player of a round without a table (section 4); his points are written at the close."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.PROTECT, related_name="bye_rows"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.PROTECT, related_name="byes"
    )
    points = models.CharField(_("points"), max_length=40, blank=True)

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_unique_in_round")
        ]

    def __str__(self):
        return f"{self.round} {self.entry}"


class Series(models.Model):
    """A ladder over a season (``federation.md`` section 2): of a federation, or of one club
    (its own cup); its rule as the engine reads it (``federation.engine.example.read_rule``),
    its seed, dates and events."""

    federation = models.ForeignKey(
        Federation,
        verbose_name=_("federation"),
        on_delete=models.PROTECT,
        related_name="series",
        null=True,
        blank=True,
    )
    club = models.ForeignKey(
        Club,
        verbose_name=_("club"),
        on_delete=models.PROTECT,
        related_name="series",
        null=True,
        blank=True,
    )
    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(_("game"), max_length=30, choices=game_choices)
    seed = models.CharField(_("seed"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    rule = models.JSONField(_("rule"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-starts_on", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(federation__isnull=True, club__isnull=False)
                | models.Q(federation__isnull=False, club__isnull=True),
                name="series_of_a_federation_or_a_club",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="series_dates_ordered",
            ),
        ]

    def __str__(self):
        return self.name


class ImportedEvent(models.Model):
    """A tournament played on another installation, imported from its results file
    (``federation.md`` section 5): read-only here, replaced only by a higher revision of the
    same ``uid``. ``document`` is the file as imported; ``log`` lists each import (revision,
    when, by whom, the file's corrections)."""

    federation = models.ForeignKey(
        Federation,
        verbose_name=_("federation"),
        on_delete=models.PROTECT,
        related_name="imported_events",
    )
    uid = models.CharField(_("id"), max_length=36)
    revision = models.PositiveIntegerField(_("revision"))
    source = models.CharField(_("source"), max_length=100)
    name = models.CharField(_("name"), max_length=100)
    game = models.CharField(_("game"), max_length=30, choices=game_choices)
    tournament_format = models.CharField(
        _("format"), max_length=20, choices=tournament_format_choices
    )
    date = models.DateField(_("date"))
    seed = models.CharField(_("seed"), max_length=100, blank=True)
    document = models.JSONField(_("results file"))
    log = models.JSONField(_("log"), default=list, blank=True)
    imported_at = models.DateTimeField(_("imported at"))

    class Meta:
        verbose_name = _("imported event")
        verbose_name_plural = _("imported events")
        ordering = ["-date", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["federation", "uid"], name="imported_event_unique")
        ]

    def __str__(self):
        return self.name


class UploadToken(models.Model):
    """A federation's upload token (``federation.md`` section 5): a club's installation posts
    its results files with it. Only the SHA-256 of the token is stored (``digest``); the
    token itself is shown once, when it is made. ``prefix`` (its first 8 characters) tells
    tokens apart; a revoked token is refused."""

    federation = models.ForeignKey(
        Federation,
        verbose_name=_("federation"),
        on_delete=models.PROTECT,
        related_name="upload_tokens",
    )
    label = models.CharField(_("label"), max_length=100)
    digest = models.CharField(_("digest"), max_length=64, unique=True)
    prefix = models.CharField(_("prefix"), max_length=8)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        verbose_name = _("upload token")
        verbose_name_plural = _("upload tokens")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.label} ({self.prefix}…)"


class ImportedPlacing(models.Model):
    """A player's line of an imported event's final ranking: his rank and points."""

    event = models.ForeignKey(
        ImportedEvent,
        verbose_name=_("imported event"),
        on_delete=models.CASCADE,
        related_name="placings",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="placings"
    )
    code = models.CharField(_("id"), max_length=40)
    rank = models.PositiveIntegerField(_("rank"))
    points = models.CharField(_("points"), max_length=40)
    status = models.CharField(_("status"), max_length=20)

    class Meta:
        verbose_name = _("imported placing")
        verbose_name_plural = _("imported placings")
        ordering = ["event", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="imported_placing_unique"),
            models.UniqueConstraint(fields=["event", "player"], name="imported_player_once"),
        ]

    def __str__(self):
        return f"{self.event} {self.rank}"


class SeriesEvent(models.Model):
    """A tournament of the series (or an imported event), its results times ``factor`` (an
    exact rational)."""

    series = models.ForeignKey(
        Series, verbose_name=_("series"), on_delete=models.CASCADE, related_name="events"
    )
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.PROTECT,
        related_name="series_events",
        null=True,
        blank=True,
    )
    imported = models.ForeignKey(
        ImportedEvent,
        verbose_name=_("imported event"),
        on_delete=models.PROTECT,
        related_name="series_events",
        null=True,
        blank=True,
    )
    factor = models.CharField(_("factor"), max_length=40, default="1")

    class Meta:
        verbose_name = _("series event")
        verbose_name_plural = _("series events")
        ordering = ["tournament__date", "tournament_id", "imported_id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="series_event_unique"),
            models.UniqueConstraint(
                fields=["series", "imported"], name="series_imported_event_unique"
            ),
            models.CheckConstraint(
                condition=models.Q(tournament__isnull=True, imported__isnull=False)
                | models.Q(tournament__isnull=False, imported__isnull=True),
                name="series_event_a_tournament_or_an_import",
            ),
        ]

    def __str__(self):
        return f"{self.series} {self.tournament or self.imported}"


class RatingList(models.Model):
    """A federation's rating list of its game (``federation.md`` section 3): its parameters
    (``params``: initial, scale, k, k_new, new_tables) and whether the member clubs' closed
    evening tables are rated too. Its rated tables, changes and ratings are derived data,
    never money: ``services.federation.ratings`` rebuilds them from the final tournaments
    (and evenings) whenever these change, and ``verify_ledger`` compares them."""

    federation = models.ForeignKey(
        Federation,
        verbose_name=_("federation"),
        on_delete=models.PROTECT,
        related_name="rating_lists",
    )
    game = models.CharField(_("game"), max_length=30, choices=game_choices)
    name = models.CharField(_("name"), max_length=100)
    params = models.JSONField(_("parameters"), default=dict)
    club_evenings = models.BooleanField(
        _("club evenings"),
        default=False,
        help_text=_("Also rate the closed tables of the member clubs' evenings."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("created by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name


class RatedTable(models.Model):
    """A table of a rating list, at its ``position`` in the spec's order: a round table of a
    final tournament, a closed table of a club evening, or a table of an imported event
    (``key``: ``t<round table>``, ``e<table>``, ``i<event>.<round>.<table>``). Derived data:
    rebuilt by the list's recomputation."""

    rating_list = models.ForeignKey(
        RatingList,
        verbose_name=_("rating list"),
        on_delete=models.CASCADE,
        related_name="rated_tables",
    )
    position = models.PositiveIntegerField(_("position"))
    date = models.DateField(_("date"))
    key = models.CharField(_("id"), max_length=40)
    round_table = models.ForeignKey(
        RoundTable,
        verbose_name=_("round table"),
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    table = models.ForeignKey(
        Table,
        verbose_name=_("table"),
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    imported = models.ForeignKey(
        ImportedEvent,
        verbose_name=_("imported event"),
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    label = models.CharField(_("table"), max_length=200)

    class Meta:
        verbose_name = _("rated table")
        verbose_name_plural = _("rated tables")
        ordering = ["rating_list", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "position"], name="rated_table_position_unique"
            )
        ]

    def __str__(self):
        return self.label


class RatingChange(models.Model):
    """What one rated table did to one player's rating (the line his page explains): his
    rating before, expected and actual score, K, the change and the rating after, as exact
    IEEE doubles; ``score`` his table score (an exact rational as a string). Derived data."""

    rated_table = models.ForeignKey(
        RatedTable, verbose_name=_("rated table"), on_delete=models.CASCADE, related_name="changes"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="rating_changes"
    )
    seat = models.PositiveSmallIntegerField(_("seat"))
    score = models.CharField(_("score"), max_length=40)
    before = models.FloatField(_("rating before"))
    expected = models.FloatField(_("expected"))
    actual = models.FloatField(_("actual"))
    k = models.FloatField(_("K"))
    delta = models.FloatField(_("change"))
    after = models.FloatField(_("rating after"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["rated_table", "seat"]
        indexes = [models.Index(fields=["player", "rated_table"])]

    def __str__(self):
        return f"{self.rated_table} {self.player_id}"


class PlayerRating(models.Model):
    """A player's current rating on a list and how many rated tables he has played (the
    last change's rating after, kept for the list's page). Derived data."""

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="ratings"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    rating = models.FloatField(_("rating"))
    tables = models.PositiveIntegerField(_("tables"))

    class Meta:
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        ordering = ["rating_list", "-rating", "player"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "player"], name="player_rating_unique")
        ]

    def __str__(self):
        return f"{self.player_id}: {self.rating:.0f}"


class KeptLadder(models.Model):
    """A series' ladder as last computed (``services.federation.ladder``): derived data, kept
    under the ``fingerprint`` of what it read (the series' rule and seed, its events with
    their names, factors, tournaments' status and version, imported events' revisions, and
    the last merge of players). A read whose fingerprint differs recomputes it through the
    engine; ``verify_ledger`` compares a current one with a recompute."""

    series = models.OneToOneField(
        Series,
        verbose_name=_("series"),
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="kept_ladder",
    )
    fingerprint = models.CharField(_("fingerprint"), max_length=64)
    events = models.PositiveIntegerField(_("events"))
    last_event = models.DateField(_("last event"), null=True, blank=True)
    computed_at = models.DateTimeField(_("computed at"), auto_now=True)

    class Meta:
        verbose_name = _("kept ladder")
        verbose_name_plural = _("kept ladders")

    def __str__(self):
        return f"{self.series} {self.fingerprint[:8]}"


class KeptLadderLine(models.Model):
    """A line of a kept ladder (``KeptLadder``): the player's position, exact total and best
    (``13/2``), wins, events, counted and struck events by name, and the qualified line (None:
    the series qualifies nobody). Derived data."""

    series = models.ForeignKey(
        Series, verbose_name=_("series"), on_delete=models.CASCADE, related_name="kept_lines"
    )
    position = models.PositiveIntegerField(_("position"))
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="kept_lines"
    )
    total = models.CharField(_("total"), max_length=60)
    best = models.CharField(_("best"), max_length=60)
    wins = models.PositiveIntegerField(_("wins"))
    events = models.PositiveIntegerField(_("events"))
    counted = models.JSONField(_("counted"), default=list)
    struck = models.JSONField(_("struck"), default=list)
    qualified = models.BooleanField(_("qualified"), null=True)

    class Meta:
        verbose_name = _("kept ladder line")
        verbose_name_plural = _("kept ladder lines")
        ordering = ["series", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "position"], name="kept_ladder_position_unique"
            ),
            models.UniqueConstraint(fields=["series", "player"], name="kept_ladder_player_once"),
        ]
        indexes = [models.Index(fields=["player", "series"])]

    def __str__(self):
        return f"{self.series_id} {self.position}"
