from django.contrib import admin
from django.urls import include, path

from ledger.views.health import healthz
from ledger.views.home import set_language, set_text_size
from ledger.views.scoring import service_worker

urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("sw.js", service_worker, name="service_worker"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("text-size/", set_text_size, name="set_text_size"),
    path("password-reset/", include("ledger.urls.password")),
    path("p/", include("ledger.urls.public")),
    path("", include("ledger.urls")),
]
