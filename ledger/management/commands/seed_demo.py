"""Load the demo clubs (one per game that has one, ``fixtures/*.json``) once, and say how to
log in to them."""

from __future__ import annotations

import json
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from ledger.models import Club, Federation, Member, Table, Tournament
from ledger.services import balances, seals, stats
from ledger.services.demo import Demo, all_demos, write_fixture


def default_fixture(demo: Demo | None = None) -> Path:
    demo = demo or all_demos()[0]
    return Path(settings.BASE_DIR) / "fixtures" / demo.fixture


class Command(BaseCommand):
    help = (
        "Load every game's demo club from its fixture (fixtures/*.json) unless it is there "
        "already, and print the demo log-ins. With --regenerate, build them in order through "
        "the services into this (fresh) database and write the fixtures."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--regenerate",
            action="store_true",
            help="build the demo into this database (run it on a fresh one) and write the fixture",
        )
        parser.add_argument(
            "--fixture",
            help="the first demo's fixture file (default: fixtures/demo.json); the others' "
            "files are written beside it under their own names",
        )
        parser.add_argument(
            "--url",
            default="http://127.0.0.1:8000",
            help="where the site runs, for the log-in note (default: %(default)s)",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="load into a development database that holds other clubs or users already "
            "(never with DJANGO_DEBUG=0: the demo log-ins share a published password)",
        )

    def handle(self, *args, **options):
        demos = all_demos()
        first = Path(options["fixture"]) if options["fixture"] else default_fixture(demos[0])
        paths = [first] + [first.parent / d.fixture for d in demos[1:]]
        if options["regenerate"]:
            for demo in demos:
                if Club.objects.filter(slug=demo.slug).exists():
                    raise CommandError(
                        "A demo club exists in this database already. Regenerate into a fresh "
                        "database, e.g. DATABASE_URL=sqlite:////tmp/demo.sqlite3 (migrate first)."
                    )
            for demo, path in zip(demos, paths, strict=True):
                self.refuse_taken_usernames(demo)
                count = write_fixture(demo.build(), path)
                self.stdout.write(
                    f"Built the demo club {demo.name} and wrote {count} objects to {path}."
                )
        elif not settings.DEBUG:
            # Not an error: `make run` calls this command, and a production-like run must go on.
            self.stderr.write(
                "Not loading the demo: DJANGO_DEBUG is 0, and the demo log-ins (a superuser "
                "among them) share a published password. The demo is for development only."
            )
            return
        elif (others := foreign_rows(demos)) and not options["force"]:
            self.stderr.write(
                f"Not loading the demo: this database holds {others} already, so it is not an "
                "empty development database. Use --force to load the demo into it anyway."
            )
            return
        else:
            for demo, path in zip(demos, paths, strict=True):
                if Club.objects.filter(slug=demo.slug).exists():
                    self.stdout.write(
                        f"The demo club {demo.name} is there already; nothing loaded."
                    )
                else:
                    self.load(demo, path)
            # After every fixture is loaded, so the extras' fresh ids never take a fixture's.
            self.add_extras(demos)
        for demo in demos:
            self.print_logins(demo, options["url"].rstrip("/"))
            self.print_federation(demo, options["url"].rstrip("/"))

    def load(self, demo: Demo, path: Path) -> None:
        self.refuse_taken_usernames(demo)
        if not path.exists():
            demo.build()
            self.stdout.write(f"{path} is missing: built the demo club through the services.")
            return
        taken = ids_taken(path)
        if taken:
            # Loading would overwrite these rows; the services give the demo fresh ids instead.
            demo.build()
            self.stdout.write(
                f"The database already holds rows with the fixture's ids ({', '.join(taken)}): "
                "built the demo club through the services instead."
            )
            return
        with transaction.atomic():
            call_command("loaddata", str(path), verbosity=0)
            # The fixture holds the transfers, not their summary: rebuild it for this club.
            tables = Table.objects.filter(evening__club__slug=demo.slug)
            balances.rebuild(tables)
            stats.replay(tables)
            stats.rebuild(tables)
            # The fixture holds no seals (they depend on the site's secret): seal what it held.
            seals.seal_all(tables)
        self.stdout.write(f"Loaded the demo club {demo.name} from {path}.")

    def add_extras(self, demos: list[Demo]) -> None:
        """Build what a demo adds after loading (the demo tournament), once."""
        for demo in demos:
            club = Club.objects.filter(slug=demo.slug).first()
            if demo.after_load is None or club is None:
                continue
            before = Tournament.objects.filter(club=club).count()
            demo.after_load(club)
            if Tournament.objects.filter(club=club).count() > before:
                self.stdout.write(f"Built the demo tournament of {demo.name}.")

    def refuse_taken_usernames(self, demo: Demo) -> None:
        usernames = [user.username for user in demo.users]
        taken = list(
            get_user_model()
            .objects.filter(username__in=usernames)
            .values_list("username", flat=True)
        )
        if taken:
            raise CommandError(
                f"The demo's usernames are taken by other users: {', '.join(sorted(taken))}."
            )

    def print_federation(self, demo: Demo, url: str) -> None:
        """Say where the demo's federation is and how its officer logs in."""
        federation = (
            Federation.objects.filter(slug=demo.federation).first() if demo.federation else None
        )
        if federation is None:
            return
        officers = ", ".join(
            federation.officers.order_by("username").values_list("username", flat=True)
        )
        home = reverse("federation_home", kwargs={"federation": federation.slug})
        public = reverse("public_federation", kwargs={"federation": federation.slug})
        self.stdout.write("")
        self.stdout.write(
            f"Demo federation {federation.name}: {url}{home} (its public ladders: {url}{public}); "
            f"its officer logs in as {officers} with the password {demo.password}"
        )

    def print_logins(self, demo: Demo, url: str) -> None:
        club = Club.objects.filter(slug=demo.slug).first()
        if club is None:
            return
        members = {
            m.user.username: m
            for m in Member.objects.filter(club=club, user__isnull=False).select_related("user")
            if m.user is not None
        }
        self.stdout.write("")
        language = translation.get_language_info(club.language)["name"]
        self.stdout.write(
            f"Demo club {club.name}: {url}{reverse('club', kwargs={'club': club.slug})}"
            f" (in {language}, money in {club.currency})"
        )
        self.stdout.write(
            f"Log in at {url}{reverse('login')} with the password {demo.password} as:"
        )
        for user in demo.users:
            member = members.get(user.username)
            if member is None:
                continue
            with translation.override(club.language):  # the club's own words for its roles
                role = str(Member.Role(member.role).label)
            extra = (
                f" (also the site admin, {url}{reverse('admin:index')})" if user.superuser else ""
            )
            self.stdout.write(f"  {user.username:<9} {member.name:<6} {role}{extra}")
        for tournament in Tournament.objects.filter(club=club).order_by("pk"):
            director = next((u.username for u in demo.users if u.role == Member.Role.ADMIN), "?")
            page = reverse("tournament", kwargs={"club": club.slug, "pk": tournament.pk})
            wall = reverse("tournament_wall", kwargs={"club": club.slug, "pk": tournament.pk})
            self.stdout.write(
                f"Demo tournament {tournament.name}: {url}{page} (the wall: {url}{wall}); "
                f"its director logs in as {director}"
            )
            published = tournament.rounds.filter(status="published").order_by("number").first()
            first = published.round_tables.order_by("number").first() if published else None
            if published is not None and first is not None:
                link = reverse("table_link", kwargs={"club": club.slug, "token": first.token})
                cards = reverse(
                    "tournament_round_cards_pdf", kwargs={"club": club.slug, "pk": published.pk}
                )
                self.stdout.write(
                    f"  Round {published.number} is drawn: after its start a phone scores "
                    f"table {first.number} at {url}{link} (no log-in; every table's QR "
                    f"code: {url}{cards})"
                )


def foreign_rows(demos: list[Demo]) -> str:
    """Say what this database holds besides the demos (clubs, users), or '' when nothing."""
    clubs = Club.objects.exclude(
        slug__in=[d.slug for d in demos] + [slug for d in demos for slug in d.extra_clubs]
    ).count()
    usernames = [user.username for d in demos for user in d.users]
    usernames += [username for d in demos for username in d.extra_users]
    users = get_user_model().objects.exclude(username__in=usernames).count()
    held = []
    if clubs:
        held.append(f"{clubs} club(s)")
    if users:
        held.append(f"{users} user(s)")
    return " and ".join(held)


def ids_taken(path: Path) -> list[str]:
    """Return the models whose fixture primary keys (their range) are used in this database."""
    with open(path, encoding="utf-8") as handle:
        objects = json.load(handle)
    by_model: dict[str, set] = {}
    for obj in objects:
        if "pk" in obj:
            by_model.setdefault(obj["model"], set()).add(obj["pk"])
    return [
        label
        for label, pks in by_model.items()
        if apps.get_model(label).objects.filter(pk__gte=min(pks), pk__lte=max(pks)).exists()
    ]
