"""The walk's medium findings, each through the page the person used: a shared report's quote
request, the share-link form's error, the admin's view of a published house offer and the
report's gap notes beside the operator's own server."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Role
from advisor.decisions import evaluation
from advisor.engine.catalog import load_catalog
from advisor.models import Lead, Report
from advisor.reference.models import CatalogPrice
from advisor.reference.services.catalog import catalog_publish
from advisor.reporting.render import render_report_html
from advisor.services import reports, sharing
from tests.advisor.test_house_offers import (  # noqa: F401 - fixtures
    _hong_kong_hosted,
    _offer_post,
    customer,
    editor,
    published_offer,
)
from tests.factories import (
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    operator_member,
)

pytestmark = pytest.mark.django_db


def _text(page: Any) -> str:
    """The page's words, without tags and with entities read."""
    body = re.sub(r"<[^>]+>", " ", page.content.decode())
    return re.sub(r"\s+", " ", html.unescape(body))


# --- the admin's view of a published house offer --------------------------------------------


def test_a_published_house_offer_shows_its_fields_and_how_to_change_it(
    editor: Client,  # noqa: F811 - a fixture
    published_offer: CatalogPrice,  # noqa: F811 - a fixture
) -> None:
    # The walk: every server field of a published offer read "None", and nothing said how to
    # change it.
    page = editor.get(reverse("admin:reference_houseoffer_change", args=[published_offer.pk]))
    assert page.status_code == 200
    text = _text(page)
    assert "None" not in text.replace("China route: None", "")
    for shown in (
        "GPUs per server: 8",
        "Server name: HK-H200-8",
        "CPU: 2 × AMD EPYC 9354 (64 cores)",
        "RAM (GB): 2048",
        "Premium bandwidth to mainland China (Mbps): 200",
        "China route: CN2 GIA",
        "Region group: Hong Kong",
        "Deployment modes: Dedicated hosting",
    ):
        assert shown in text, shown
    clone = reverse("admin:reference_catalog_clone", args=[published_offer.catalog_id])
    assert f'href="{clone}"' in page.content.decode()
    assert "a published catalog never changes" in text
    # Once a draft holds the same offer, the page links to it instead.
    editor.post(clone)
    draft_row = CatalogPrice.objects.exclude(pk=published_offer.pk).get(key=published_offer.key)
    again = editor.get(reverse("admin:reference_houseoffer_change", args=[published_offer.pk]))
    change = reverse("admin:reference_houseoffer_change", args=[draft_row.pk])
    assert f'href="{change}"' in again.content.decode()
    # The draft's row is still a form to edit.
    assert editor.get(change).context["adminform"].form.fields["server_name"]


# --- the catalog's gap notes beside the operator's own servers -------------------------------

HK_GAP = "any H100-class offer physically in Hong Kong"


def test_no_gap_note_denies_the_operators_own_server_in_hong_kong(
    customer: tuple[Client, Report],  # noqa: F811 - a fixture
) -> None:
    _client, report = customer
    # The report sizes the operator's H200 server in Hong Kong (an H100-class card) ...
    first = report.result["workloads"][0]["options"][0]
    assert first["accelerator_id"] == "nvidia-h200"
    assert first["prices"][first["billing_used"]]["price_id"] == "house-hk-h200"
    # ... so its known gaps do not say there is no such offer there, in either language.
    assert HK_GAP not in report.result["cost"]["gaps"]
    for language, gap, other_gap in (
        ("en", HK_GAP, "Azure GPU prices in Asia"),
        ("zh-hant", "實體位於香港的 H100 等級方案", "Azure 在亞洲的 GPU 價格"),
    ):
        result = evaluation.evaluate(report.assessment.answers, language=language)
        body, _document = render_report_html(
            result=result,
            title="Gaps",
            organization="ACME",
            language=language,
            generated_at=timezone.now(),
        )
        assert other_gap in body and gap not in body
    # The bundled catalog, which has no house server, keeps the gap.
    assert HK_GAP in load_catalog().open_gaps


# --- the share-link form's error -----------------------------------------------------------


def test_the_share_link_forms_error_reads_as_text(client: Client) -> None:
    membership = MembershipFactory()
    client.force_login(membership.user)
    report = ReportFactory(assessment=AssessmentFactory(membership=membership, submitted=True))
    url = reverse(
        "advisor:share_create", kwargs={"pk": report.assessment_id, "number": report.number}
    )
    page = client.post(url, {"label": "CTO", "expires_in_days": "999"}, follow=True)
    body = page.content.decode()
    # The walk: "<ul class="errorlist"><li>…" showed on the page as markup.
    assert "errorlist" not in _text(page) and "&lt;ul" not in body and "&lt;li" not in body
    assert "The link could not be created: Ensure this value is less than or equal to 365." in (
        _text(page)
    )


# --- the pilot of a server sold by the month, for users across a network ---------------------


@pytest.mark.parametrize(
    ("language", "monthly", "apart"),
    [
        ("en", "Sold by the month: rent 1 unit(s), 8 device(s) in all, for one month", "apart"),
        ("zh-hant", "按月計費：租用 1 個單位，共 8 個裝置，租期一個月", "另行"),
    ],
)
def test_the_pilot_rents_a_monthly_server_by_the_month_and_names_network_time_apart(
    editor: Client,  # noqa: F811 - a fixture
    language: str,
    monthly: str,
    apart: str,
) -> None:
    draft = CatalogFactory()
    post = _offer_post(draft, usd_per_server_month="16000", price_on_request="")
    assert editor.post(reverse("admin:reference_houseoffer_add"), post).status_code == 302
    catalog_publish(catalog=draft, user=None)
    answers = _hong_kong_hosted()
    answers["organization"]["regions"] = ["hong_kong", "mainland_china"]
    membership = MembershipFactory()
    assessment = AssessmentFactory(membership=membership, submitted=True, answers=answers)
    report = ReportFactory(assessment=assessment, language=language, queued=True)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    serving = next(w for w in report.result["workloads"] if w["kind"] == "realtime_inference")
    run = serving["pilot"]["runs"][0]
    assert run["rent"]["price_id"] == "house-hk-h200" and run["rent"]["terms"] == "monthly"
    client = Client()
    client.force_login(membership.user)
    page = client.get(
        reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": report.number})
    )
    text = _text(page)
    assert monthly in text and "$16,000" in text
    # Its minimum term is a year: the pilot is a month on trial terms, asked for.
    assert {"en": "minimum term is 12 months", "zh-hant": "最短租期為 12 個月"}[language] in text
    rtt = serving["options"][0]["round_trip_ms"]
    assert rtt > 0 and apart in text


# --- a shared report's quote request ---------------------------------------------------------


def _shared_path(report: Report) -> str:
    user = report.assessment.organization.memberships.first().user
    _link, token = sharing.share_link_create(report=report, user=user)
    return reverse("advisor:shared", kwargs={"token": token})


VISITOR = {
    "contact_name": "Mei Chan",
    "contact_email": "Mei.Chan@Example.com",
    "term_months": 12,
    "note": "Pilot in January",
}


def test_a_visitor_with_a_share_link_requests_a_quote(
    customer: tuple[Client, Report],  # noqa: F811 - a fixture
    django_capture_on_commit_callbacks: Any,
    sent_mail: Any,
) -> None:
    _member, report = customer
    engineer = operator_member(Role.SALES_ENGINEER)
    path = _shared_path(report)
    visitor = Client(enforce_csrf_checks=True)
    page = visitor.get(path + "?offer=house-hk-h200")
    # The walk: the report's "Request a quote" (?offer=…#quote) led nowhere on a shared page.
    body = page.content.decode()
    assert 'id="quote"' in body and path + "quote/" in body
    assert "Your email" in body
    token = visitor.cookies["csrftoken"].value
    # Without the CSRF token the request is refused.
    assert visitor.post(path + "quote/", VISITOR).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        sent = visitor.post(path + "quote/", {**VISITOR, "csrfmiddlewaretoken": token})
    assert sent.status_code == 302 and sent["Location"].endswith("#quote")
    lead = Lead.objects.get()
    # The report's organisation's lead, with who asked as they typed it.
    assert lead.organization == report.assessment.organization and lead.report == report
    assert lead.requested_by is None
    assert (lead.contact_name, lead.contact_email) == ("Mei Chan", "mei.chan@example.com")
    assert lead.share_link is not None and lead.server["offer"]["price_id"] == "house-hk-h200"
    (message,) = sent_mail()
    assert engineer.email in message.to and message.reply_to == ["mei.chan@example.com"]
    assert "Mei Chan (mei.chan@example.com)" in message.body
    assert "Your quote request was sent" in _text(visitor.get(path))
    # The same visitor asking again is acknowledged, not sent again.
    with django_capture_on_commit_callbacks(execute=True):
        visitor.post(path + "quote/", {**VISITOR, "csrfmiddlewaretoken": token})
    assert Lead.objects.count() == 1 and len(sent_mail()) == 1
    # The sales engineers see who asked on their leads list.
    staff = Client()
    staff.force_login(engineer)
    assert "Mei Chan · mei.chan@example.com" in _text(staff.get(reverse("advisor:dashboard")))


def test_a_visitors_quote_request_needs_contact_details_and_is_limited(
    customer: tuple[Client, Report],  # noqa: F811 - a fixture
    settings: Any,
) -> None:
    _member, report = customer
    path = _shared_path(report)
    visitor = Client()
    refused = visitor.post(path + "quote/", {"term_months": 12, "contact_email": "not-mail"})
    assert refused.status_code == 400 and not Lead.objects.exists()
    text = _text(refused)
    assert "The quote request was not sent" in text and "Enter a valid email address." in text
    # Each address is a new person, but the report's limit holds whoever asks.
    settings.QUOTE_REQUESTS_PER_REPORT = 2
    answers = [
        visitor.post(path + "quote/", {**VISITOR, "contact_email": f"v{i}@example.com"})
        for i in range(4)
    ]
    assert [a.status_code for a in answers] == [302, 302, 429, 429]
    assert int(answers[2]["Retry-After"]) > 0 and Lead.objects.count() == 2
    # An unknown link asks nothing of anyone.
    assert visitor.post("/s/" + "y" * 40 + "/quote/", VISITOR).status_code == 404
