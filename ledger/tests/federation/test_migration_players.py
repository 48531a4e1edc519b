"""Migration 0061: one player per existing member (a guest's of his entry's club); members of
several clubs who share a log-in share one player; every existing entry takes its member's
player."""

import importlib

import pytest
from django.apps import apps

from ledger.models import Entry, Member, Player
from ledger.services import tournaments as tour
from ledger.tests.factories import make_club, make_member, make_tournament

pytestmark = pytest.mark.django_db


def test_every_member_gets_a_player_and_a_shared_log_in_shares_one():
    """Ana in two clubs with one log-in is one player; two Bors without a log-in are two; the
    guest Urban is a player of Bled, no club of ours; each entry takes its member's player."""
    migration = importlib.import_module("ledger.migrations.0061_players_for_members")
    kranj = make_club(slug="kranj", name="Tarok Kranj", game="slovenian_tarok")
    bled = make_club(slug="bled", name="Tarok Bled", game="slovenian_tarok")
    ana = make_member(kranj, "Ana", login=True)
    Member.objects.create(club=bled, name="Ana K.", user=ana.user)
    make_member(kranj, "Bor")
    make_member(bled, "Bor")  # same name, no log-in: another person
    t = make_tournament(kranj, ["Ana", "Bor"])
    tour.entry_add_guest(tournament=t, name="Urban", club_name="Bled")
    # As before the migration: no player anywhere.
    Entry.objects.update(player=None)
    Member.objects.update(player=None)
    Player.objects.all().delete()

    migration.players_for_members(apps, None)

    players = {(m.club.slug, m.name): m.player for m in Member.objects.select_related("player")}
    assert players[("kranj", "Ana")] == players[("bled", "Ana K.")]
    assert players[("kranj", "Bor")] != players[("bled", "Bor")]
    assert Player.objects.count() == 4
    urban = players[("kranj", "Urban")]
    assert urban is not None
    assert (urban.name, urban.home_club, urban.club_name) == ("Urban", None, "Bled")
    ana_player = players[("kranj", "Ana")]
    assert ana_player is not None and (ana_player.name, ana_player.home_club) == ("Ana", kranj)
    assert {e.name: e.player for e in t.entries.all()} == {
        "Ana": players[("kranj", "Ana")],
        "Bor": players[("kranj", "Bor")],
        "Urban": urban,
    }
