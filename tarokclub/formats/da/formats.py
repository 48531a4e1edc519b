"""Danish formats: Django's, and a date typed with dashes (24-11-2026) or a two-digit year.

The first input format is the one date fields are shown in (``DateInput``): 24.11.2026.
"""

from django.conf.locale.da.formats import *  # noqa: F403

DATE_INPUT_FORMATS = [
    "%d.%m.%Y",  # 24.11.2026
    "%d-%m-%Y",  # 24-11-2026
    "%d/%m/%Y",  # 24/11/2026
    "%d.%m.%y",  # 24.11.26
    "%Y-%m-%d",  # 2026-11-24 (ISO, as a browser's date picker sends it)
]
