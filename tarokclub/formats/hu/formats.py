"""Hungarian formats: Django's, with dates written year first with spaces (2026. 12. 01.)
and typed with or without them; 1 234,50 for numbers (a no-break space groups thousands).

The first input format is the one date fields are shown in (``DateInput``).
"""

from django.conf.locale.hu.formats import *  # noqa: F403

SHORT_DATE_FORMAT = "Y. m. d."  # 2026. 12. 01.
SHORT_DATETIME_FORMAT = "Y. m. d. H:i"  # 2026. 12. 01. 19:30
DATE_INPUT_FORMATS = [
    "%Y. %m. %d.",  # 2026. 12. 01.
    "%Y.%m.%d.",  # 2026.12.01.
    "%Y.%m.%d",  # 2026.12.01
    "%Y-%m-%d",  # 2026-12-01 (ISO, as a browser's date picker sends it)
]
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"
NUMBER_GROUPING = 3
