"""The admin: club set-up (clubs, members, seasons, the rate card) and a window on the ledger.

The admin writes only set-up rows. Evenings, tables and hands are read-mostly (an evening's
season can be fixed; nothing else); every ledger write goes through ``ledger.services`` from
the tablet and the treasurer's pages. Postings and transfers are strictly read-only: nobody,
not even a superuser, may add, change or delete one here (the database refuses it as well).
"""

from __future__ import annotations

import json
from typing import Any, cast

from django.contrib import admin
from django.db.models import Count, IntegerField, OuterRef, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.forms import ModelChoiceField
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger import selectors, services
from ledger.forms.admin import club_form
from ledger.games.registry import GAMES, default_game, get_game, get_web
from ledger.models import (
    Account,
    AccountBalance,
    AccountStats,
    ChainLink,
    Club,
    ClubLog,
    Evening,
    EveningLog,
    EveningResult,
    Hand,
    HandRevision,
    Invitation,
    JetonCount,
    Member,
    Posting,
    PostingSeat,
    Profile,
    Round,
    Seal,
    Season,
    Seat,
    Table,
    Tournament,
    Transfer,
    is_reversed,
)
from ledger.tables.columns import price_text
from tarokclub import __version__

# The release beside the title, so an operator sees which version he administers.
admin.site.site_header = format_lazy("{} {}", _("tarokclub administration"), __version__)
admin.site.site_title = _("tarokclub")


class ReadOnlyMixin:
    """Allow viewing only: no add, change or delete, whoever asks (superusers included)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyInline(ReadOnlyMixin, admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = True

    def get_readonly_fields(self, request, obj=None):
        return self.fields


def _pretty_json(value) -> str:
    return format_html(
        '<pre class="ledger-json">{}</pre>', json.dumps(value, ensure_ascii=False, indent=2)
    )


def _admin_link(obj, label=None) -> str:
    if obj is None:
        return "-"
    meta = obj._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, label if label is not None else obj)


# --- set-up --------------------------------------------------------------------------------


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0
    fields = ["name", "starts_on", "ends_on"]


class MemberInline(ReadOnlyInline):
    """The club's members, read-only here: a member is added or changed on his own page
    (``MemberAdmin``), through the service that logs and seals it."""

    model = Member
    fields = ["name", "user", "role", "active"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "game", "language", "price", "member_count"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SeasonInline, MemberInline]
    readonly_fields = ["house_rule_changes"]

    @admin.display(description=_("price per point"), ordering="price_per_point")
    def price(self, obj) -> str:
        return price_text(obj.price_per_point, obj.currency, symbol=True)

    def _game(self, obj) -> str:
        return obj.game if obj is not None and obj.pk else default_game()

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = club_form(self._game(obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        game = self._game(obj)
        house_rules = get_web(game).rate_card_field_groups()
        first, *rest = house_rules or [(_("House rules"), [])]
        presets = ["rate_card_preset"] if get_game(game).presets else []
        return [
            (
                None,
                {
                    "fields": [
                        "name",
                        "slug",
                        "game",
                        "language",
                        "price_per_point",
                        "currency",
                        "time_zone",
                    ]
                },
            ),
            (_("Jetons"), {"fields": ["starting_jetons"]}),
            (_("Public results"), {"fields": ["publish_results", "publish_money"]}),
            (
                first[0],
                {
                    "fields": [*presets, "house_rule_changes", *first[1]],
                    "description": _(
                        "The club's house rules. A change applies to evenings opened from now "
                        "on; an evening keeps the rate card it opened with."
                    ),
                },
            ),
            *((title, {"fields": names}) for title, names in rest),
        ]

    @admin.display(description=_("What the card changes from the game's default"))
    def house_rule_changes(self, obj) -> str:
        """The settings where the club's stored card differs from its game's defaults."""
        if obj is None or not obj.pk:
            return gettext("Nothing: this card is the game's default.")
        changes = get_web(obj.game).rate_card_changes(obj.rate_card)
        if not changes:
            return gettext("Nothing: this card is the game's default.")
        return format_html_join(
            mark_safe("<br>"),
            "{}: {} → {}",
            ((c["label"], c["default"], c["value"]) for c in changes),
        )

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_members=Count("members"))

    @admin.display(description=_("members"), ordering="_members")
    def member_count(self, obj):
        return obj._members


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "user", "role", "active"]
    list_filter = ["club", "role", "active"]
    list_select_related = ["club", "user"]
    search_fields = ["name", "user__username"]
    autocomplete_fields = ["user"]
    fields = ["club", "name", "user", "role", "active"]

    def save_model(self, request, obj, form, change):
        """Through ``services.member_save``: each change logged (old → new) and sealed."""
        services.member_save(member=obj, by=request.user)

    def has_delete_permission(self, request, obj=None):
        """A member is never deleted (his results keep him): he leaves (not active)."""
        return False


class SummaryAdmin(admin.ModelAdmin):
    """A summary derived from the ledger (``rebuild_balances`` rebuilds it, ``verify_ledger``
    checks it): read it, never edit it."""

    list_select_related = ["account__member", "account__table__evening__club"]
    list_filter = ["account__table__evening__club"]

    def get_readonly_fields(self, request, obj=None):
        return self.list_display

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(AccountBalance)
class AccountBalanceAdmin(SummaryAdmin):
    """The running balances, derived from the transfers."""

    list_display = ["account", "balance", "transfers"]


@admin.register(AccountStats)
class AccountStatsAdmin(SummaryAdmin):
    """The statistics, summed from the live seat rows of hands."""

    list_display = ["account", "stats"]


@admin.register(PostingSeat)
class PostingSeatAdmin(SummaryAdmin):
    """The seat rows of hands: each member's role and statistics, derived from his hand."""

    list_display = ["posting", "account", "role_label", "played", "counts"]
    list_select_related = ["posting", *SummaryAdmin.list_select_related]
    fields = ["posting", "account", "role_label", "played", "counts"]

    @admin.display(description=_("role"), ordering="role")
    def role_label(self, obj):
        """The seat's role in the game's words ("sat out", not ``out``)."""
        return get_web(obj.account.table.game).role_label(obj.role)


@admin.register(Seal)
class SealAdmin(SummaryAdmin):
    """The seals ``verify_ledger`` recomputes (``ledger.services.seals``): read them, never
    edit them."""

    list_display = ["kind", "object_id", "scope", "digest"]
    list_filter = ["kind"]
    list_select_related: list[str] = []  # type: ignore[misc]


@admin.register(ChainLink)
class ChainLinkAdmin(SummaryAdmin):
    """The clubs' chains (``ledger.services.seals``): read them, never edit them."""

    list_display = ["club", "number", "kind", "object_id", "status_label", "digest"]
    fields = list_display  # type: ignore[assignment]
    list_filter = ["club", "kind"]
    list_select_related = ["club"]

    @admin.display(description=_("status"), ordering="status")
    def status_label(self, obj):
        """The status in words, as its evening, tournament or round names it."""
        model: Any = {"evening": Evening, "tournament": Tournament, "round": Round}[obj.kind]
        return dict(model.Status.choices).get(obj.status, obj.status)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    """Invitations are made and used in the app; the operator may look and revoke (delete)."""

    list_display = ["member", "created", "expires", "used_at"]
    list_filter = ["member__club"]
    list_select_related = ["member__club"]
    readonly_fields = [
        "member",
        "nonce",
        "token_hash",
        "created",
        "expires",
        "used_at",
        "created_by",
    ]

    def has_add_permission(self, request):
        return False

    def delete_model(self, request, obj):
        """Revoke: through ``services.invitations_revoke``, which logs it."""
        services.invitations_revoke(invitations=[obj], by=request.user)

    def delete_queryset(self, request, queryset):
        services.invitations_revoke(invitations=list(queryset), by=request.user)


@admin.register(ClubLog)
class ClubLogAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The clubs' people logs: written by the services only, sealed; read here."""

    list_display = ["at", "club", "member_name", "action", "by"]
    list_filter = ["club", "action"]
    list_select_related = ["club", "by"]
    fields = ["club", "member", "member_name", "action", "details", "by", "at"]
    readonly_fields = fields  # type: ignore[assignment]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "evening_count"]
    list_filter = ["club"]
    list_select_related = ["club"]
    date_hierarchy = "starts_on"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_evenings=Count("evenings"))

    @admin.display(description=_("evenings"), ordering="_evenings")
    def evening_count(self, obj):
        return obj._evenings


# --- evenings, tables, hands: read-mostly --------------------------------------------------


class TableInline(ReadOnlyInline):
    model = Table
    fields = ["number", "status", "first_dealer"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("evening__club", "first_dealer")


class EveningResultInline(ReadOnlyInline):
    model = EveningResult
    fields = ["member", "points", "money", "closing"]
    show_change_link = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("member")


class ActionLabel:
    @admin.display(description=_("action"), ordering="action")
    def action_label(self, obj):
        """The action in the reader's language ("closed", not ``close``)."""
        return obj.action_label


class ActionFilter(admin.SimpleListFilter):
    """Log entries by action, each in the reader's language."""

    title = _("action")
    parameter_name = "action"

    def lookups(self, request, model_admin):
        return [(code, label) for code, label in EveningLog.ACTION_LABELS.items()]

    def queryset(self, request, queryset):
        return queryset.filter(action=self.value()) if self.value() else queryset


class EveningLogInline(ActionLabel, ReadOnlyInline):
    model = EveningLog
    fields = ["action_label", "reason", "by", "at"]
    show_change_link = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("by")


@admin.register(Evening)
class EveningAdmin(admin.ModelAdmin):
    list_display = [
        "date",
        "club",
        "season",
        "status",
        "table_count",
        "hand_count",
        "closed_at",
    ]
    list_filter = ["status", "club", "season"]
    list_select_related = ["club", "season"]
    date_hierarchy = "date"
    fields = [
        "club",
        "date",
        "season",
        "status",
        "price_per_point",
        "starting_jetons",
        "rate_card_pretty",
        "opened_at",
        "closed_at",
    ]
    readonly_fields = [f for f in fields if f != "season"]  # type: ignore[misc]
    inlines = [TableInline, EveningResultInline, EveningLogInline]

    def get_queryset(self, request):
        hands = (
            Hand.objects.filter(table__evening=OuterRef("pk"), status=Hand.Status.RECORDED)
            .order_by()
            .values("table__evening")
            .annotate(n=Count("pk"))
            .values("n")
        )
        return (
            super()
            .get_queryset(request)
            .annotate(
                _tables=Count("tables"),
                _hands=Coalesce(Subquery(hands, output_field=IntegerField()), Value(0)),
            )
        )

    def has_add_permission(self, request):
        return False  # an evening is opened through the services, which copy the rate card

    def save_model(self, request, obj, form, change):
        # The season is the one thing changed here, through the service that logs and seals it.
        services.evening_file_under(evening=obj, season=obj.season, by=request.user)

    def has_delete_permission(self, request, obj=None):
        return False

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if obj is not None and "season" in form.base_fields:
            season = cast(ModelChoiceField, form.base_fields["season"])
            season.queryset = Season.objects.filter(club=obj.club_id)
        return form

    @admin.display(description=_("tables"), ordering="_tables")
    def table_count(self, obj):
        return obj._tables

    @admin.display(description=_("hands"), ordering="_hands")
    def hand_count(self, obj):
        return obj._hands

    @admin.display(description=_("rate card in force"))
    def rate_card_pretty(self, obj):
        return _pretty_json(obj.rate_card)


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["position", "member", "joined_at_hand", "left"]
    show_change_link = False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("member")


@admin.register(Table)
class TableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "evening", "number", "status", "seat_names", "hand_count"]
    list_filter = ["status", "evening__club", "evening__status"]
    list_select_related = ["evening__club", "first_dealer"]
    date_hierarchy = "evening__date"
    search_fields = ["seats__member__name"]
    fields = ["evening", "number", "game", "status", "first_dealer", "balances"]
    readonly_fields = fields  # type: ignore[assignment]
    inlines = [SeatInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(_hands=Count("hands", distinct=True))
            .prefetch_related("seats__member")
        )

    @admin.display(description=_("seats"))
    def seat_names(self, obj):
        seats = sorted(obj.seats.all(), key=lambda s: s.position)
        return ", ".join(s.member.name + (" †" if s.left else "") for s in seats)

    @admin.display(description=_("hands"), ordering="_hands")
    def hand_count(self, obj):
        return obj._hands

    @admin.display(description=_("balances"))
    def balances(self, obj):
        rows = selectors.table_balances(obj.pk).items()
        return format_html(
            "<table><tbody>{}</tbody></table>",
            format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows),
        )


class HandRevisionInline(ReadOnlyInline):
    model = HandRevision
    fields = ["number", "action", "reason", "by", "at"]
    show_change_link = True

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("by")


@admin.register(Hand)
class HandAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "number", "dealer", "status", "created_by", "created_at"]
    list_filter = ["status", "table__evening__club", "table__evening__status"]
    list_select_related = ["table__evening__club", "dealer", "created_by"]
    date_hierarchy = "table__evening__date"
    fields = ["table", "number", "game", "dealer", "status", "record_pretty", "created_by"]
    readonly_fields = fields  # type: ignore[assignment]
    inlines = [HandRevisionInline]

    @admin.display(description=_("hand record"))
    def record_pretty(self, obj):
        return _pretty_json(obj.record)


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["__str__", "number", "action", "reason", "by", "at"]
    list_filter = ["action", "hand__table__evening__club"]
    list_select_related = ["hand__table__evening__club", "by"]
    fields = ["hand", "number", "action", "reason", "by", "at", "record_pretty"]
    readonly_fields = fields  # type: ignore[assignment]

    @admin.display(description=_("hand record"))
    def record_pretty(self, obj):
        return _pretty_json(obj.record)


# --- the ledger itself: strictly read-only -------------------------------------------------


class TransferLabels:
    """A transfer's accounts and rule as a screen names them (a pool by its label, the rule
    in the game's words: "dealer's fee", not ``dealer_fee``)."""

    @admin.display(description=_("from account"))
    def source_label(self, obj):
        return _admin_link(obj.source, obj.source.label)

    @admin.display(description=_("to account"))
    def target_label(self, obj):
        return _admin_link(obj.target, obj.target.label)

    @admin.display(description=_("reason"), ordering="reason")
    def reason_label(self, obj):
        return get_web(obj.table.game).reason_label(obj.reason)


class TransferInline(TransferLabels, ReadOnlyInline):
    model = Transfer
    fields = ["source_label", "target_label", "points", "reason_label"]
    show_change_link = False

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related(
                "table", "source__member", "source__table", "target__member", "target__table"
            )
        )


class ReasonFilter(admin.SimpleListFilter):
    """Transfers by rule, each rule in its game's words."""

    title = _("reason")
    parameter_name = "reason"

    def lookups(self, request, model_admin):
        reasons = Transfer.objects.order_by("reason").values_list("reason", flat=True).distinct()
        return [(r, reason_words(r)) for r in reasons]

    def queryset(self, request, queryset):
        return queryset.filter(reason=self.value()) if self.value() else queryset


def reason_words(reason: str) -> str:
    """Return a transfer rule in words: the first game that names it, else the shared ones."""
    for code in GAMES:
        web = get_web(code)
        if reason in web.reason_labels:
            return web.reason_label(reason)
    return get_web(default_game()).reason_label(reason)


@admin.register(Posting)
class PostingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "id",
        "table",
        "kind",
        "hand_number",
        "reverses",
        "live",
        "points",
        "created_by",
        "created_at",
    ]
    list_filter = ["kind", "table__evening__club", "table__evening__status"]
    list_select_related = ["table__evening__club", "hand", "reverses", "created_by"]
    date_hierarchy = "table__evening__date"
    fields = [
        "table",
        "kind",
        "hand",
        "revision",
        "reverses",
        "state_before",
        "outcome_pretty",
        "note",
        "created_by",
        "created_at",
    ]
    readonly_fields = fields  # type: ignore[assignment]
    inlines = [TransferInline]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                _points=Coalesce(Sum("transfers__points"), Value(0)),
                _reversed=is_reversed(),
            )
        )

    @admin.display(description=_("hand"), ordering="hand__number")
    def hand_number(self, obj):
        return obj.hand.number if obj.hand_id else None

    @admin.display(description=_("live"), boolean=True)
    def live(self, obj):
        return obj.kind != Posting.Kind.REVERSAL and not obj._reversed

    @admin.display(description=_("points moved"), ordering="_points")
    def points(self, obj):
        return obj._points

    @admin.display(description=_("outcome"))
    def outcome_pretty(self, obj):
        return _pretty_json(obj.outcome) if obj.outcome else "-"


@admin.register(Transfer)
class TransferAdmin(TransferLabels, ReadOnlyMixin, admin.ModelAdmin):
    list_display = [
        "id",
        "posting_link",
        "table",
        "source_label",
        "target_label",
        "points",
        "reason_label",
    ]
    list_filter = [ReasonFilter, "posting__kind", "table__evening__club", "table__evening__status"]
    list_select_related = [
        "posting",
        "table__evening__club",
        "source__member",
        "source__table",
        "target__member",
        "target__table",
    ]
    date_hierarchy = "table__evening__date"
    search_fields = ["source__member__name", "target__member__name", "reason"]
    fields = ["posting", "table", "source_label", "target_label", "points", "reason_label"]
    readonly_fields = fields  # type: ignore[assignment]

    @admin.display(description=_("posting"), ordering="posting")
    def posting_link(self, obj):
        return _admin_link(obj.posting)


def _balance_annotation():
    def total(direction: str):
        return Coalesce(
            Subquery(
                Transfer.objects.filter(**{direction: OuterRef("pk")})
                .order_by()
                .values(direction)
                .annotate(s=Sum("points"))
                .values("s"),
                output_field=IntegerField(),
            ),
            Value(0),
        )

    return total("target") - total("source")


@admin.register(Account)
class AccountAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["account_label", "table", "kind", "balance"]
    list_filter = ["kind", "table__evening__club", "table__status"]
    list_select_related = ["table__evening__club", "member"]
    search_fields = ["member__name"]
    fields = ["table", "kind", "member", "balance"]
    readonly_fields = fields  # type: ignore[assignment]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(_balance=_balance_annotation())

    @admin.display(description=_("balance"), ordering="_balance")
    def balance(self, obj):
        return obj._balance

    @admin.display(description=_("account"))
    def account_label(self, obj):
        """A member by his name, a pool by its label in the reader's language."""
        return obj.label


@admin.register(Seat)
class SeatAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["member", "table", "position", "joined_at_hand", "left"]
    list_filter = ["left", "table__evening__club"]
    list_select_related = ["member", "table__evening__club"]
    search_fields = ["member__name"]


@admin.register(EveningLog)
class EveningLogAdmin(ActionLabel, ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["evening", "action_label", "reason", "by", "at"]
    list_filter = [ActionFilter, "evening__club"]
    list_select_related = ["evening__club", "by"]
    fields = ["evening", "action_label", "reason", "details", "by", "at"]
    readonly_fields = fields  # type: ignore[assignment]


@admin.register(EveningResult)
class EveningResultAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["evening", "member", "points", "money", "closing"]
    list_filter = ["evening__club", "evening__season"]
    list_select_related = ["evening__club", "member"]
    search_fields = ["member__name"]


@admin.register(JetonCount)
class JetonCountAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["table", "account", "points", "counted_by", "counted_at"]
    list_filter = ["table__evening__club"]
    list_select_related = ["table__evening__club", "account__member", "counted_by"]


# --- tournaments: written by ``services.tournaments`` only, read here ----------------------
