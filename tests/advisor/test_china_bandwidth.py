"""Premium China bandwidth through the pages: the operator gives a house offer's price per extra
Mbps of premium China bandwidth in the admin (validated, kept through an edit), and a report for a
team that must reach mainland China shows the bandwidth line - Mbps needed, included, extra, the
price per Mbps-month and its source, or that it is not priced - in English and in Traditional
Chinese."""

from __future__ import annotations

import math
import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Assessment, Report
from advisor.reference.models import CatalogPrice
from advisor.reference.services.catalog import catalog_publish
from advisor.services import pdfs, reports
from advisor.starters import BY_SLUG
from tests.advisor.test_house_offers import _offer_post, _report_url
from tests.factories import (
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    operator_member,
    operator_organization,
)

pytestmark = pytest.mark.django_db

ADD = "admin:reference_houseoffer_add"


@pytest.fixture
def editor(client: Client) -> Client:
    operator_organization().__class__.objects.filter(is_operator=True).update(
        name="Harbour Compute"
    )
    client.force_login(operator_member(Role.ADMIN))
    return client


def test_the_price_per_mbps_month_is_stored_and_comes_back_on_edit(editor: Client) -> None:
    draft = CatalogFactory()
    post = _offer_post(draft, china_bandwidth_usd_per_mbps_month="45.50")
    assert editor.post(reverse(ADD), post).status_code == 302
    row = CatalogPrice.objects.get(catalog=draft, key="house-hk-h200")
    assert row.extra["server"]["china_bandwidth_usd_per_mbps_month"] == 45.5
    change = reverse("admin:reference_houseoffer_change", args=[row.pk])
    form = editor.get(change).context["adminform"].form
    assert form.initial["china_bandwidth_usd_per_mbps_month"] == 45.5
    # Saving the edit form as it comes back keeps the price.
    again = {**post, "china_bandwidth_usd_per_mbps_month": "45.5"}
    assert editor.post(change, again).status_code == 302
    row.refresh_from_db()
    assert row.extra["server"]["china_bandwidth_usd_per_mbps_month"] == 45.5


def test_without_a_price_per_mbps_the_server_says_none(editor: Client) -> None:
    draft = CatalogFactory()
    assert editor.post(reverse(ADD), _offer_post(draft)).status_code == 302
    row = CatalogPrice.objects.get(catalog=draft, key="house-hk-h200")
    assert row.extra["server"]["china_bandwidth_usd_per_mbps_month"] is None


@pytest.mark.parametrize(
    ("changes", "english", "chinese"),
    [
        (
            {"china_bandwidth_usd_per_mbps_month": "0"},
            "A price per Mbps-month is more than zero",
            "每 Mbps 每月的價格必須大於零",
        ),
        (
            {"china_bandwidth_usd_per_mbps_month": "25000"},
            "At most 10000 USD per Mbps-month",
            "每 Mbps 每月最多 10000 美元",
        ),
        (
            {"china_bandwidth_usd_per_mbps_month": "forty"},
            "Give the price as a number of US dollars",
            "請以美元金額填寫價格",
        ),
        (
            {
                "china_bandwidth_usd_per_mbps_month": "45",
                "china_bandwidth_type": "",
                "china_bandwidth_mbps": "",
            },
            "A price per Mbps-month needs the China route it is for.",
            "每 Mbps 每月的價格須註明適用的中國大陸線路。",
        ),
    ],
)
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_bad_price_per_mbps_is_refused_with_a_clear_error_and_the_input_kept(
    editor: Client, changes: dict[str, Any], english: str, chinese: str, language: str
) -> None:
    draft = CatalogFactory()
    post = _offer_post(draft, **changes)
    response = editor.post(reverse(ADD), post, headers={"accept-language": language})
    assert response.status_code == 200
    form = response.context["adminform"].form
    errors = " ".join(form.errors["china_bandwidth_usd_per_mbps_month"])
    assert (chinese if language == "zh-hant" else english) in errors
    page = response.content.decode()
    assert f'value="{changes["china_bandwidth_usd_per_mbps_month"]}"' in page
    assert "HK-H200-8" in page  # the rest of the input is kept too
    assert not CatalogPrice.objects.filter(catalog=draft, key="house-hk-h200").exists()


# --- the report ---------------------------------------------------------------------------------


def _china_team() -> dict[str, Any]:
    """A Hong Kong team serving a small model to mainland China from hosted servers: about
    36 Mbps of responses at peak."""
    answers = BY_SLUG["llm-fine-tuning-startup"].document()
    answers["organization"]["regions"] = ["hong_kong"]
    answers["workloads"] = [{"kind": "realtime_inference", "schedule": "continuous"}]
    answers["deployment"]["allowed_modes"] = ["dedicated_hosting"]
    answers["deployment"]["china_connectivity"] = True
    answers["model"] = {"preset": "llama-3.2-1b"}
    answers["inference"] |= {"tokens_per_day": 20_000_000_000, "traffic": "steady"}
    answers.pop("training", None)
    return answers


def _generated(assessment: Assessment, language: str = "en", number: int = 1) -> Report:
    report = ReportFactory(assessment=assessment, queued=True, language=language, number=number)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.DONE, report.error
    return report


def _report(editor: Client, **offer: Any) -> tuple[Client, Report]:
    draft = CatalogFactory()
    post = _offer_post(
        draft,
        key="house-hk-h100",
        accelerator=draft.accelerators.get(key="nvidia-h100-sxm").pk,
        server_name="HK-H100-8",
        usd_per_server_month="12000",
        price_on_request="",
        china_bandwidth_mbps=2,
        **offer,
    )
    response = editor.post(reverse(ADD), post)
    assert response.status_code == 302, response.context["adminform"].form.errors
    catalog_publish(catalog=draft, user=None)
    membership = MembershipFactory(role=Role.MEMBER)
    assessment = AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=_china_team()
    )
    client = Client()
    client.force_login(membership.user)
    return client, _generated(assessment)


def test_the_report_shows_the_priced_china_bandwidth_line_in_both_languages(
    editor: Client,
) -> None:
    client, report = _report(editor, china_bandwidth_usd_per_mbps_month="80")
    first = report.result["workloads"][0]["options"][0]
    bw = first["china_bandwidth"]
    assert first["accelerator_id"] == "nvidia-h100-sxm" and bw["status"] == "priced"
    page = client.get(_report_url(report), headers={"accept-language": "en"}).content.decode()
    assert "China bandwidth" in page
    assert f"{bw['needed_mbps']:,.0f} Mbps" in page
    assert f"{bw['included_mbps']:,.0f} Mbps CN2 GIA" in page
    assert f"{bw['extra_mbps']} Mbps" in page
    assert "$80.00 per Mbps-month" in page and "Harbour Compute price list, 2026-11-01" in page
    assert f"${first['china_bandwidth_usd_per_month']:,.0f}" in page
    report_zh = _generated(report.assessment, "zh-hant", 2)
    zh = client.get(_report_url(report_zh)).content.decode()
    assert "中國大陸頻寬" in zh and "每 Mbps 每月 $80.00" in zh
    assert "Harbour Compute 價目表，2026-11-01" in zh
    # The PDF is the same document: the line is in it in both languages.
    pdf = _pdf_text(report)
    assert "China bandwidth" in pdf and f"{bw['included_mbps']:,.0f} Mbps CN2 GIA" in pdf
    assert "中國大陸頻寬" in _pdf_text(report_zh)


def _pdf_text(report: Report) -> str:
    # The PDF follows the page (the worker's task; here rendered as a first download would).
    report = pdfs.report_pdf_render(report=report)
    done = subprocess.run(  # noqa: S603 - a fixed command on our own file
        ["pdftotext", "-layout", report.pdf.path, "-"],  # noqa: S607
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def test_the_report_says_when_the_extra_china_bandwidth_is_not_priced(editor: Client) -> None:
    client, report = _report(editor)
    bw = report.result["workloads"][0]["options"][0]["china_bandwidth"]
    assert bw["status"] == "not_priced"
    page = client.get(_report_url(report)).content.decode()
    assert "not priced: ask the provider for a CN2 GIA/CMI price per Mbps-month" in page
    report_zh = _generated(report.assessment, "zh-hant", 2)
    zh = client.get(_report_url(report_zh)).content.decode()
    assert "未計價：請向供應商索取 CN2 GIA／CMI 每 Mbps 每月的報價" in zh


def test_the_quote_form_asks_for_the_china_bandwidth_the_report_sized(editor: Client) -> None:
    client, report = _report(editor)
    bw = report.result["workloads"][0]["options"][0]["china_bandwidth"]
    page = client.get(_report_url(report)).content.decode()
    quote = page[page.index('id="quote"') :]
    needed = math.ceil(bw["needed_mbps"])
    assert f'name="china_bandwidth_mbps" value="{needed}"' in quote
    assert '<option value="cn2_gia" selected>' in quote
