from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("password-reset/", include("ledger.urls_password")),
    path("", include("ledger.urls")),
]
