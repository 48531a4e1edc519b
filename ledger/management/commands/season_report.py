from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from ledger import reports, selectors
from ledger.models import Club, Member, Season
from ledger.tables.columns import activate_currency, deactivate_currency


class Command(BaseCommand):
    help = (
        "Write a season's standings as a PDF (A4, page numbers, the club's name, the date "
        "printed). With --member, write that member's season report instead."
    )

    def add_arguments(self, parser):
        parser.add_argument("--club", required=True, help="the club's short name (slug)")
        parser.add_argument("--season", required=True, help="the season's id or name")
        parser.add_argument("--output", required=True, help="the PDF file to write")
        parser.add_argument("--member", help="a member's name: write his season report")
        parser.add_argument(
            "--language",
            default=None,
            help="language of the report (default: the club's)",
        )

    def handle(self, *args, **options):
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club with the short name {options['club']!r}")
        try:
            season = selectors.season_resolve(club=club, value=options["season"])
        except Season.DoesNotExist:
            raise CommandError(
                f"no season {options['season']!r} in {club.slug}; seasons: "
                + ", ".join(f"{s.pk} {s.name!r}" for s in Season.objects.filter(club=club))
            ) from None
        language = options["language"] or club.language or settings.LANGUAGE_CODE
        token = activate_currency(club.currency)
        try:
            self.write(options, club, season, language)
        finally:
            deactivate_currency(token)

    def write(self, options, club, season, language):
        with translation.override(language):
            if options["member"]:
                member = Member.objects.filter(club=club, name=options["member"]).first()
                if member is None:
                    raise CommandError(f"no member {options['member']!r} in {club.slug}")
                filename, _type, content = reports.member_season_pdf(season=season, member=member)
            else:
                filename, _type, content = reports.season_standings_pdf(season=season)
        output = Path(options["output"])
        output.write_bytes(content)
        self.stdout.write(f"{output}: {filename}, {len(content)} bytes")
