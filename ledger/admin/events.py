"""The admin of tournaments and the federation: read only (their services write them)."""

from __future__ import annotations

from django.contrib import admin

# The release beside the title, so an operator sees which version he administers.
from ledger.admin.core import ReadOnlyMixin
from ledger.models import (
    Bye,
    Entry,
    Federation,
    FederationLog,
    HandConfirmation,
    ImportedEvent,
    ImportedPlacing,
    KeptLadder,
    KeptLadderLine,
    Player,
    PlayerRating,
    RatedTable,
    RatingChange,
    RatingList,
    Round,
    RoundTable,
    Series,
    SeriesEvent,
    Tournament,
    UploadToken,
)


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "club", "date", "game", "tournament_format", "status"]
    list_filter = ["status", "club"]
    list_select_related = ["club"]


@admin.register(Entry)
class EntryAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "tournament", "club_name", "ladder_rank", "guest", "code"]
    list_filter = ["tournament__club", "guest"]
    list_select_related = ["tournament"]
    search_fields = ["name"]


@admin.register(Round)
class RoundAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "mode", "status"]
    list_filter = ["status", "tournament__club"]
    list_select_related = ["tournament"]


@admin.register(RoundTable)
class RoundTableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["round", "number", "table", "hands_played"]
    list_select_related = ["round__tournament", "table__evening__club"]


@admin.register(HandConfirmation)
class HandConfirmationAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["hand", "saved_by", "confirmed_by", "revision", "confirmed_at"]
    list_select_related = ["hand__table__evening__club"]


@admin.register(Bye)
class ByeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["round", "entry", "points"]
    list_select_related = ["round__tournament", "entry"]


# --- the federation (written only by ledger.services.federation) ---------------------------


@admin.register(Federation)
class FederationAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "slug", "game", "language"]


@admin.register(Player)
class PlayerAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "federation", "licence", "club_name"]
    list_select_related = ["federation"]
    search_fields = ["name", "licence"]


@admin.register(FederationLog)
class FederationLogAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["federation", "action", "at"]
    list_select_related = ["federation"]


@admin.register(Series)
class SeriesAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "federation", "club", "starts_on", "ends_on"]
    list_select_related = ["federation", "club"]


@admin.register(SeriesEvent)
class SeriesEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["series", "tournament", "imported", "factor"]
    list_select_related = ["series", "tournament", "imported"]


@admin.register(ImportedEvent)
class ImportedEventAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["name", "federation", "date", "source", "revision", "imported_at"]
    list_filter = ["federation"]
    list_select_related = ["federation"]


@admin.register(RatingList)
class RatingListAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The federations' rating lists (derived data: recomputed from their rated tables by
    ``services.federation.ratings``, checked by ``verify_ledger``)."""

    list_display = ["name", "federation", "game", "club_evenings", "created_at"]
    list_filter = ["federation"]
    list_select_related = ["federation"]


@admin.register(RatedTable)
class RatedTableAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["rating_list", "position", "date", "label"]
    list_filter = ["rating_list"]
    list_select_related = ["rating_list"]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["rated_table", "player", "before", "expected", "actual", "k", "delta", "after"]
    list_select_related = ["rated_table", "player"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["player", "rating_list", "rating", "tables"]
    list_filter = ["rating_list"]
    list_select_related = ["player", "rating_list"]


@admin.register(KeptLadder)
class KeptLadderAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The series' kept ladders (derived data: recomputed when what they read changes, by
    ``services.federation.ladder``; checked by ``verify_ledger``)."""

    list_display = ["series", "events", "last_event", "computed_at"]
    list_select_related = ["series"]


@admin.register(KeptLadderLine)
class KeptLadderLineAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["series", "position", "player", "total", "wins", "events", "qualified"]
    list_filter = ["series"]
    list_select_related = ["series", "player"]


@admin.register(UploadToken)
class UploadTokenAdmin(ReadOnlyMixin, admin.ModelAdmin):
    """The federations' upload tokens: their labels and prefixes, never the tokens (only
    their digests are stored); created and revoked on the officer's page."""

    list_display = ["label", "federation", "prefix", "created_at", "last_used_at", "revoked_at"]
    list_filter = ["federation"]
    list_select_related = ["federation"]
    exclude = ["digest"]


@admin.register(ImportedPlacing)
class ImportedPlacingAdmin(ReadOnlyMixin, admin.ModelAdmin):
    list_display = ["event", "rank", "player", "points", "status"]
    list_select_related = ["event", "player"]
