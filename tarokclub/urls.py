from django.contrib import admin
from django.urls import include, path

from ledger.views.scoring import service_worker

urlpatterns = [
    path("admin/", admin.site.urls),
    path("sw.js", service_worker, name="service_worker"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("password-reset/", include("ledger.urls.password")),
    path("p/", include("ledger.urls.public")),
    path("", include("ledger.urls")),
]
