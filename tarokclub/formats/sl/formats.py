"""Slovenian formats: Django's, with dates written the Slovenian way with spaces (1. 12. 2026)
and typed with or without them; 1.234,50 for numbers.

The first input format is the one date fields are shown in (``DateInput``).
"""

from django.conf.locale.sl.formats import *  # noqa: F403

SHORT_DATE_FORMAT = "j. n. Y"  # 1. 12. 2026
SHORT_DATETIME_FORMAT = "j. n. Y H:i"  # 1. 12. 2026 19:30
DATE_INPUT_FORMATS = [
    "%d. %m. %Y",  # 01. 12. 2026
    "%d.%m.%Y",  # 01.12.2026
    "%d. %m. %y",  # 01. 12. 26
    "%d.%m.%y",  # 01.12.26
    "%Y-%m-%d",  # 2026-12-01 (ISO, as a browser's date picker sends it)
]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "."
NUMBER_GROUPING = 3
