from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from advisor import bench_views, measure_views, views
from advisor.api.site import api
from advisor.reference import views as scoring_views
from advisor.reference.urls import moved_admin_urls
from advisor.report_views import exports, pages, quotes, sharing, what_if
from advisor.wizard import views as wizard_views

advisor_patterns = (
    [
        path("", views.landing, name="landing"),
        path("dashboard/", views.dashboard, name="dashboard"),
        path("assessments/new/", views.assessment_new, name="assessment_new"),
        path("prospects/new/", views.prospect_new, name="prospect_new"),
        path("assessments/<int:pk>/invite/", views.customer_invite, name="customer_invite"),
        path("assessments/<int:pk>/", wizard_views.assessment, name="assessment"),
        path("assessments/<int:pk>/steps/<slug:slug>/", wizard_views.step, name="step"),
        path("assessments/<int:pk>/submit/", wizard_views.submit, name="submit"),
        path("assessments/<int:pk>/result/", views.result, name="result"),
        path("assessments/<int:pk>/reopen/", wizard_views.reopen, name="reopen"),
        path("assessments/<int:pk>/reports/", pages.report_request, name="report_request"),
        path("assessments/<int:pk>/reports/compare/", pages.compare, name="compare"),
        path("assessments/<int:pk>/reports/<int:number>/", pages.report, name="report"),
        path(
            "assessments/<int:pk>/reports/<int:number>/status/",
            pages.report_status,
            name="report_status",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/retry/",
            pages.report_retry,
            name="report_retry",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/what-if/",
            what_if.report_what_if,
            name="report_what_if",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/what-if/save/",
            what_if.report_what_if_save,
            name="report_what_if_save",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/adopt/",
            what_if.report_adopt,
            name="report_adopt",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/pdf/",
            exports.report_pdf,
            name="report_pdf",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/pdf/button/",
            exports.report_pdf_button,
            name="report_pdf_button",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/json/",
            exports.report_json,
            name="report_json",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/csv/",
            exports.report_csv,
            name="report_csv",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/share/",
            sharing.share_create,
            name="share_create",
        ),
        path(
            "assessments/<int:pk>/share-links/<int:link_id>/revoke/",
            sharing.share_revoke,
            name="share_revoke",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/quote/",
            quotes.quote_request,
            name="quote_request",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/measure/",
            measure_views.report_measure,
            name="report_measure",
        ),
        path(
            "assessments/<int:pk>/reports/<int:number>/measure/<int:measurement>/delete/",
            measure_views.measurement_delete,
            name="measurement_delete",
        ),
        path("measurements/", measure_views.measurements_staff, name="measurements_staff"),
        path("leads/<int:lead_id>/status/", quotes.lead_status, name="lead_status"),
        path("s/<str:token>/", sharing.shared, name="shared"),
        path("s/<str:token>/pdf/", sharing.shared_pdf, name="shared_pdf"),
        path("s/<str:token>/quote/", sharing.shared_quote, name="shared_quote"),
        path("s/<str:token>/pdf/button/", sharing.shared_pdf_button, name="shared_pdf_button"),
        path("scoring-models/", scoring_views.scoring_models, name="scoring_models"),
        path("catalog/", scoring_views.catalog, name="catalog"),
        path("scoring-models/<int:pk>/", scoring_views.scoring_model, name="scoring_model"),
        path(
            "scoring-models/<int:pk>/preview/",
            scoring_views.scoring_preview,
            name="scoring_preview",
        ),
    ],
    "advisor",
)

handler500 = "advisor.errors.server_error"

urlpatterns = [
    path("", include(advisor_patterns)),
    path("accounts/", include("accounts.urls")),
    path("api/v1/", api.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("admin/advisor/", include(moved_admin_urls)),
    path("admin/", admin.site.urls),
]
if settings.BENCH_BASELINE:
    # make bench's reference page (.ci/bench.sh turns it on); production has no use for it.
    urlpatterns.append(path("bench/baseline", bench_views.baseline, name="bench_baseline"))
