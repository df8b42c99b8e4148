from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from advisor import views

advisor_patterns = (
    [
        path("", views.landing, name="landing"),
        path("dashboard/", views.dashboard, name="dashboard"),
    ],
    "advisor",
)

urlpatterns = [
    path("", include(advisor_patterns)),
    path("accounts/", include("accounts.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
