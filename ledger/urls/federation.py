"""A federation's officer pages, mounted at /f/<federation>/ (the federation's short name).

Every view here is a ``federation_officer`` view; the authorization test checks that each URL
under the prefix is in ``FEDERATION_MATRIX`` (``ledger/tests/helpers.py``).
"""

from django.urls import path

from ledger.views import federation as views
from ledger.views import federation_imports as imports

urlpatterns = [
    path("", views.federation_home, name="federation_home"),
]

# Results files (``federation.md`` section 5): ``ledger.views.federation_imports``.
urlpatterns += [
    path("imports/", imports.federation_imports, name="federation_imports"),
    path("imports/upload/", imports.federation_import_upload, name="federation_import_upload"),
    path("imports/<int:pk>/", imports.federation_import, name="federation_import"),
    path("imports/<int:pk>/file/", imports.federation_import_file, name="federation_import_file"),
    path("tokens/", imports.federation_tokens, name="federation_tokens"),
]
