"""Players across clubs (issue: federation, part 2): the federation and its clubs, a member's
player, a guest matched by licence, else by name and club, else new, licences unique in a
federation, and an officer's merge of two records of one person."""

import pytest
from django.contrib.auth import get_user_model

from ledger.models import Entry, FederationLog, Member, Player
from ledger.services import federation as fed
from ledger.services import tournaments as tour
from ledger.services.errors import LedgerError
from ledger.tests.factories import make_club, make_member, make_tournament, new_member

pytestmark = pytest.mark.django_db


def slovenian(slug="kranj", name="Tarok Kranj"):
    return make_club(slug=slug, name=name, game="slovenian_tarok")


def federation(*clubs):
    federation = fed.federation_create(
        name="Tarok zveza Slovenije", slug="tzs", game="slovenian_tarok", language="sl"
    )
    for club in clubs:
        fed.club_join(federation=federation, club=club)
    return federation


def test_a_club_of_another_game_cannot_join():
    """A federation plays one game: a Danish club is refused, naming the club field."""
    tzs = federation()
    with pytest.raises(LedgerError) as caught:
        fed.club_join(federation=tzs, club=make_club(slug="dk", game="danish_tarok"))
    assert caught.value.field == "club"
    assert "the federation plays" in str(caught.value.message)
    assert not tzs.clubs.exists()


def test_a_bad_federation_names_its_field_and_writes_nothing():
    """An unknown game or language is refused by its field; no federation is written."""
    with pytest.raises(LedgerError) as caught:
        fed.federation_create(name="X", slug="x", game="bridge", language="sl")
    assert (caught.value.field, str(caught.value.message)) == (
        "game",
        "bridge is not a game of this site",
    )
    with pytest.raises(LedgerError) as caught:
        fed.federation_create(name="X", slug="x", game="slovenian_tarok", language="de")
    assert caught.value.field == "language"
    assert not Player.objects.exists()


def test_a_member_of_two_clubs_sharing_a_log_in_is_one_player():
    """A member is entered as his player; the same log-in in another club is the same player."""
    kranj, bled = slovenian(), slovenian("bled", "Tarok Bled")
    ana = make_member(kranj, "Ana", login=True)
    ana_bled = new_member(club=bled, name="Ana K.", user=ana.user)
    player = fed.player_for_member(ana)
    assert (player.name, player.home_club) == ("Ana", kranj)
    assert fed.player_for_member(ana_bled) == player
    t = make_tournament(bled)
    (entry,) = tour.entries_add(tournament=t, members=[ana_bled])
    assert entry.player == player
    assert Player.objects.count() == 1


def test_a_member_entered_by_the_pasted_list_is_his_player():
    """The list's name of a member enters his player (created when he had none)."""
    kranj = slovenian()
    bor = make_member(kranj, "Bor")
    t = make_tournament(kranj, ["Bor"])
    bor.refresh_from_db()
    assert bor.player is not None
    assert Entry.objects.get(tournament=t).player == bor.player


def test_a_guest_is_matched_by_licence_first():
    """A guest with a licence of the federation is that licence's player, whatever his name."""
    kranj = slovenian()
    tzs = federation(kranj)
    known = Player.objects.create(name="Urban Novak", club_name="Bled")
    fed.player_set_licence(player=known, federation=tzs, licence="SLO-17")
    t = make_tournament(kranj)
    entry = tour.entry_add_guest(tournament=t, name="U. Novak", club_name="Ptuj", licence="SLO-17")
    assert entry.player == known
    assert entry.member.player == known
    assert Player.objects.count() == 1


def test_a_guest_is_matched_by_name_and_club_else_new():
    """Without a licence a guest is the player of his name and club (case aside); a name of
    another club is a new player, whose club is the entry's."""
    kranj = slovenian()
    first = make_tournament(kranj, name="DP 1")
    urban = tour.entry_add_guest(tournament=first, name="Urban", club_name="Bled").player
    second = make_tournament(kranj, name="DP 2")
    tour.entries_import(tournament=second, text="Gost,Ptuj,1\n")
    # Urban is now an inactive member of Kranj: the list enters that member, his player.
    tour.entries_import(tournament=second, text="Urban,BLED,2\n")
    entries = {e.name: e.player for e in second.entries.all()}
    assert entries["Urban"] == urban
    assert entries["Gost"] != urban
    gost = entries["Gost"]
    assert gost is not None and (gost.name, gost.club_name) == ("Gost", "Ptuj")
    other = slovenian("ptuj", "Tarok Ptuj")
    third = make_tournament(other, name="DP 3")
    again = tour.entry_add_guest(tournament=third, name="urban", club_name="bled")
    assert again.player == urban


def test_a_licence_used_twice_in_one_federation_is_refused():
    """A licence is unique in its federation: a second player with it is refused, naming the
    licence, and the player keeps what he had."""
    kranj = slovenian()
    tzs = federation(kranj)
    ana, bor = Player.objects.create(name="Ana"), Player.objects.create(name="Bor")
    fed.player_set_licence(player=ana, federation=tzs, licence="SLO-1")
    with pytest.raises(LedgerError) as caught:
        fed.player_set_licence(player=bor, federation=tzs, licence="SLO-1")
    assert caught.value.field == "licence"
    assert str(caught.value.message) == (
        "the licence SLO-1 is already a player's of Tarok zveza Slovenije"
    )
    bor.refresh_from_db()
    assert bor.licence == ""


def test_the_database_holds_a_licence_unique_in_its_federation():
    """Behind the services, the constraint refuses the same licence twice in a federation;
    blank licences are many."""
    from django.db import IntegrityError, transaction

    tzs = federation()
    Player.objects.create(name="A", federation=tzs, licence="7")
    Player.objects.create(name="B")
    Player.objects.create(name="C")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="D", federation=tzs, licence="7")


def test_a_merge_moves_every_entry_and_membership_and_is_logged():
    """Merging two records of one person: the memberships and entries of the merged record
    follow the kept one, which takes its licence; the merge is logged with both records."""
    kranj, bled = slovenian(), slovenian("bled", "Tarok Bled")
    tzs = federation(kranj, bled)
    officer = get_user_model().objects.create_user(username="officer")
    ana = make_member(kranj, "Ana")
    t1 = make_tournament(kranj, ["Ana"], name="DP 1")
    t2 = make_tournament(bled, name="DP 2")
    guest = tour.entry_add_guest(tournament=t2, name="Ana Kos", club_name="Kranj")
    assert guest.player is not None
    fed.player_set_licence(player=guest.player, federation=tzs, licence="SLO-9")
    ana.refresh_from_db()
    kept, merged = ana.player, guest.player
    assert kept is not None and merged is not None
    result = fed.player_merge(kept=kept, merged=merged, by=officer)
    assert result.licence == "SLO-9"
    assert not Player.objects.filter(pk=merged.pk).exists()
    assert {e.player_id for e in Entry.objects.filter(tournament__in=[t1, t2])} == {kept.pk}
    assert set(Member.objects.filter(player=kept).values_list("name", flat=True)) == {
        "Ana",
        "Ana Kos",
    }
    log = FederationLog.objects.get(action="merge")
    assert log.by == officer
    assert log.details["kept"] == {"id": kept.pk, "name": "Ana", "licence": ""}
    assert log.details["merged"] == {"id": merged.pk, "name": "Ana Kos", "licence": "SLO-9"}
    assert log.details["entries"] == [guest.pk]


def test_a_player_merged_into_himself_is_refused():
    """A merge of a player into himself is refused, naming the field; nothing is logged."""
    ana = Player.objects.create(name="Ana")
    with pytest.raises(LedgerError) as caught:
        fed.player_merge(kept=ana, merged=ana)
    assert (caught.value.field, str(caught.value.message)) == (
        "merged",
        "a player cannot be merged into himself",
    )
    assert not FederationLog.objects.exists()
    assert Player.objects.filter(pk=ana.pk).exists()


def test_two_records_in_one_tournament_are_not_merged():
    """Two records entered in the same tournament are two people: the merge is refused."""
    kranj = slovenian()
    make_member(kranj, "Ana")
    make_member(kranj, "Bor")
    t = make_tournament(kranj, ["Ana", "Bor"])
    ana, bor = (e.player for e in t.entries.order_by("name"))
    assert ana is not None and bor is not None
    with pytest.raises(LedgerError) as caught:
        fed.player_merge(kept=ana, merged=bor)
    assert str(caught.value.message) == "both records are entered in the tournament DP Kranj"
    assert Player.objects.filter(pk=bor.pk).exists()
