"""A finished report as files: the PDF (rendered once, by the worker or the first member's
download), the result JSON and the cost CSV; and the PDF button polled while it renders."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_GET

from advisor.htmx import AuthenticatedHttpRequest, HtmxHttpRequest
from advisor.models import Report
from advisor.report_views.common import (
    done_or_404,
    no_store,
    readable_report,
    report_pdf_button_context,
)
from advisor.reporting.csv import cost_table_csv
from advisor.services import pdfs


@login_required
@require_GET
@no_store
def report_pdf_button(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    """The PDF button, polled while the worker renders the PDF after the page."""
    assessment, obj = readable_report(request, pk, number)
    done_or_404(obj)
    pdfs.report_pdf_request(report=obj)  # a lost or failed PDF task is sent again
    context = report_pdf_button_context(assessment, obj)
    return render(request, "advisor/report/_pdf_button.html", context)


def _attachment(response: HttpResponse, obj: Report, extension: str) -> HttpResponse:
    """Offer the download under the title and date a reader recognises: files travel (share
    links, mail), so their names carry no database ids."""
    stem = slugify(obj.assessment.title, allow_unicode=True)[:60] or "report"
    day = (obj.finished_at or obj.requested_at).date().isoformat()
    name = f"{stem}-v{obj.number}-{day}-{obj.language}.{extension}"
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


PDF_RETRY_SECONDS = 3


def pdf_response(
    request: HtmxHttpRequest, obj: Report, *, may_render: bool, back_url: str
) -> HttpResponse:
    """The stored PDF; else, while it is rendered, 202 "being prepared" with Retry-After.

    The PDF worker renders each PDF once, just after the page. A member's download that comes
    first may render it here, but only as the one claimant (pdfs.report_pdf_render): every
    concurrent download gets the "being prepared" answer instead of a render of its own. An
    anonymous link holder never makes the web render: the download asks the PDF worker."""
    done_or_404(obj)
    if not obj.pdf:
        if may_render:
            obj = pdfs.report_pdf_render(report=obj)
        else:
            pdfs.report_pdf_request(report=obj)
    if not obj.pdf:
        context = {"retry_after": PDF_RETRY_SECONDS, "back_url": back_url}
        response = render(request, "advisor/report/pdf_preparing.html", context, status=202)
        response["Retry-After"] = str(PDF_RETRY_SECONDS)
        return response
    # Report PDFs are a few hundred kB: read them whole rather than stream an open file.
    with obj.pdf.open("rb") as handle:
        body = handle.read()
    return _attachment(HttpResponse(body, content_type="application/pdf"), obj, "pdf")


@login_required
@require_GET
@no_store
def report_pdf(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponseBase:
    _, obj = readable_report(request, pk, number)
    back = reverse("advisor:report", kwargs={"pk": pk, "number": number})
    return pdf_response(request, obj, may_render=True, back_url=back)


@login_required
@require_GET
@no_store
def report_json(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    _, obj = readable_report(request, pk, number)
    done_or_404(obj)
    response = HttpResponse(
        json.dumps(obj.result, ensure_ascii=False, indent=2), content_type="application/json"
    )
    return _attachment(response, obj, "json")


@login_required
@require_GET
@no_store
def report_csv(request: AuthenticatedHttpRequest, pk: int, number: int) -> HttpResponse:
    _, obj = readable_report(request, pk, number)
    done_or_404(obj)
    assert obj.result is not None  # noqa: S101 - done reports have a result
    # A BOM lets spreadsheet programs open the Chinese headers as UTF-8.
    body = "\ufeff" + cost_table_csv(obj.result, obj.language)
    return _attachment(HttpResponse(body, content_type="text/csv; charset=utf-8"), obj, "csv")
