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

from advisor.decisions import evaluation
from advisor.engine.catalog import load_catalog
from advisor.models import Report
from advisor.reference.models import CatalogPrice
from advisor.reporting.render import render_report_html
from tests.advisor.test_house_offers import (  # noqa: F401 - fixtures
    customer,
    editor,
    published_offer,
)
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

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
