"""Messages of libraries that ship no Danish translation, marked here so ours carries them.

django-tables2's pagination has no Danish catalogue; ``makemessages`` skips other packages'
``locale`` folders, so these ids are extracted from this module instead.
"""

from django.utils.translation import gettext_noop

LIBRARY_MESSAGES = (
    gettext_noop("previous"),
    gettext_noop("next"),
    gettext_noop("That page number is not an integer"),
)
