"""Create a club for a scripted install: the club of a game with its default house rules, its
first season and, with ``--admin``, that user as the club's admin (through
``services.club_create``, as the "Create a club" screen does)."""

from __future__ import annotations

import datetime
from decimal import Decimal, InvalidOperation

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from ledger.games.registry import GAMES
from ledger.services.errors import LedgerError
from ledger.services.setup import club_create, season_dates, season_name


def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError as error:
        raise CommandError(f"not a date (YYYY-MM-DD): {value}") from error


class Command(BaseCommand):
    help = "Create a club with its house rules (the game's defaults), first season and admin."

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True)
        parser.add_argument("--slug", required=True, help="the short name in the club's URLs")
        parser.add_argument("--game", choices=sorted(GAMES), default="danish_tarok")
        parser.add_argument("--price-per-point", default="0.25")
        parser.add_argument("--currency", help="EUR, HUF or DKK; default: the game's")
        parser.add_argument(
            "--language", help="da, sl, hu or en: the club's pages' language; default: the game's"
        )
        parser.add_argument(
            "--time-zone",
            help="Europe/Ljubljana, Europe/Budapest or Europe/Copenhagen; default: the game's",
        )
        parser.add_argument("--starting-jetons", type=int, default=500)
        parser.add_argument("--season-name", help="default: 2026/2027 for the current season")
        parser.add_argument("--season-start", help="YYYY-MM-DD; default 1 August")
        parser.add_argument("--season-end", help="YYYY-MM-DD; default 31 July")
        parser.add_argument("--admin", help="an existing user name: the club's admin")
        parser.add_argument("--admin-name", help="his member name (default: his user name)")

    def handle(self, *args, **opts):
        starts, ends = season_dates(timezone.localdate())
        starts = _date(opts["season_start"]) if opts["season_start"] else starts
        ends = _date(opts["season_end"]) if opts["season_end"] else ends
        try:
            price = Decimal(opts["price_per_point"])
        except InvalidOperation as error:
            raise CommandError(f"not a price: {opts['price_per_point']}") from error
        admin = None
        if opts["admin"]:
            try:
                admin = get_user_model().objects.get(username=opts["admin"])
            except get_user_model().DoesNotExist as error:
                raise CommandError(f"no user named {opts['admin']}") from error
        try:
            club, member, season = club_create(
                name=opts["name"],
                slug=opts["slug"],
                game=opts["game"],
                price_per_point=price,
                currency=opts["currency"],
                language=opts["language"],
                time_zone=opts["time_zone"],
                starting_jetons=opts["starting_jetons"],
                season_name=opts["season_name"] or season_name(starts),
                season_starts_on=starts,
                season_ends_on=ends,
                admin_user=admin,
                admin_name=opts["admin_name"],
            )
        except LedgerError as error:
            raise CommandError("; ".join(f"{f}: {m}" for f, m in error.messages())) from error
        self.stdout.write(
            f"club {club.slug}: {club.name} ({club.get_game_display()}), "
            f"{club.price_per_point} {club.currency} a point, {club.starting_jetons} jetons"
        )
        self.stdout.write(f"language {club.language}, time zone {club.time_zone}")
        self.stdout.write(f"season {season.name}: {season.starts_on} to {season.ends_on}")
        if member is not None and admin is not None:
            self.stdout.write(f"club admin {member.name} (user {admin.get_username()})")
        self.stdout.write(f"members: {club.get_absolute_url()}setup/members/")
