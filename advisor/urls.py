from __future__ import annotations

from django.contrib import admin
from django.urls import include, path

from advisor import views
from advisor.api import api

advisor_patterns = (
    [
        path("", views.landing, name="landing"),
        path("dashboard/", views.dashboard, name="dashboard"),
        path("assessments/new/", views.assessment_new, name="assessment_new"),
        path("assessments/<int:pk>/", views.assessment, name="assessment"),
        path("assessments/<int:pk>/steps/<slug:slug>/", views.step, name="step"),
        path("assessments/<int:pk>/submit/", views.submit, name="submit"),
        path("assessments/<int:pk>/result/", views.result, name="result"),
        path("assessments/<int:pk>/reopen/", views.reopen, name="reopen"),
    ],
    "advisor",
)

urlpatterns = [
    path("", include(advisor_patterns)),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
]
