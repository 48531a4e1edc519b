from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = _("Ledger")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from ledger import db  # noqa: F401  (registers the SQLite guard function)
        from ledger.web import locale, tables2_speed  # noqa: F401  (locale: its log-in signal)

        tables2_speed.install()
