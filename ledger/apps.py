from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Ledger")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from ledger import checks, db  # noqa: F401  (system checks; the SQLite guard function)
        from ledger.games.registry import tournament_catalogue
        from ledger.tournaments.engine import use_games

        # locale, sessions and text_size: their log-in signals
        from ledger.web import locale, sessions, tables2_speed, text_size  # noqa: F401

        tables2_speed.install()
        use_games(tournament_catalogue)  # the registered games' table sizes and formats
        post_migrate.connect(create_cache_table, sender=self)


def create_cache_table(sender, using="default", **kwargs):
    """After ``migrate``, create the shared cache's table (``CACHES["shared"]``) if missing."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)
