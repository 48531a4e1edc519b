"""One player per existing member (a guest's of his entry's club); the members of several clubs
who share a log-in share one player; every existing entry takes its member's player."""

from django.db import migrations


def players_for_members(apps, schema_editor):
    Member = apps.get_model("ledger", "Member")
    Player = apps.get_model("ledger", "Player")
    Entry = apps.get_model("ledger", "Entry")
    by_user: dict[int, int] = {}
    for member in Member.objects.filter(player__isnull=True).order_by("pk"):
        player_id = by_user.get(member.user_id) if member.user_id else None
        if player_id is None:
            guest = (
                Entry.objects.filter(member=member, guest=True).order_by("pk").first()
                if not member.active
                else None
            )
            if guest is not None:  # a guest from elsewhere: his club is his entry's
                player_id = Player.objects.create(name=member.name, club_name=guest.club_name).pk
            else:
                player_id = Player.objects.create(name=member.name, home_club_id=member.club_id).pk
            if member.user_id:
                by_user[member.user_id] = player_id
        Member.objects.filter(pk=member.pk).update(player_id=player_id)
    for entry in Entry.objects.filter(player__isnull=True).select_related("member"):
        Entry.objects.filter(pk=entry.pk).update(player_id=entry.member.player_id)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0060_federation_players"),
    ]

    operations = [
        migrations.RunPython(players_for_members, migrations.RunPython.noop),
    ]
