"""The report lists every offer a workload could buy. For the first option and the
runner-up it says which offer each price slot comes from and labels a slot priced from another
provider or region; offers sold on request that fit are listed after the priced options, with a
Request-a-quote link for the operator's own servers that quotes that server."""

from __future__ import annotations

import html
import re
import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Assessment, Lead, Report
from advisor.reference.services.catalog import catalog_publish
from advisor.services import pdfs, reports
from advisor.starters import BY_SLUG
from tests.advisor.test_house_offers import _hong_kong_hosted, _offer_post, editor  # noqa: F401
from tests.factories import (
    AssessmentFactory,
    CatalogFactory,
    MembershipFactory,
    ReportFactory,
    operator_member,
)

pytestmark = pytest.mark.django_db


def _generated(answers: dict[str, Any], language: str = "en") -> tuple[Client, Report]:
    membership = MembershipFactory(role=Role.MEMBER)
    assessment = AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=answers
    )
    report = ReportFactory(assessment=assessment, queued=True, language=language)
    reports.report_generate(report_id=report.pk)  # what the worker does
    report.refresh_from_db()
    assert report.status == Report.Status.DONE
    client = Client()
    client.force_login(membership.user)
    return client, report


def _url(report: Report, **query: str) -> str:
    url = reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": report.number})
    return url + "".join(f"?{k}={v}" for k, v in query.items())


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_the_report_says_where_each_price_comes_from_and_labels_a_mixed_slot() -> None:
    client, report = _generated(BY_SLUG["realtime-chatbot"].document())
    w = report.result["workloads"][0]
    # The report names the offers of the first option and the runner-up (8 x B200 on an
    # indicative price ranks above 16 x H200).
    first = next(
        o
        for o in w["options"][:2]
        if any(p and p.get("same_offer") is False for p in o["prices"].values())
    )
    mixed = [(slot, p) for slot, p in first["prices"].items() if p and p.get("same_offer") is False]
    assert mixed  # the H200's capacity block is AWS's, its on-demand price another provider's
    text = _text(client.get(_url(report)).content.decode())
    assert "Where each price comes from" in text
    slot, price = mixed[0]
    label = {"capacity_block": "Capacity block", "spot": "Spot"}[slot]
    assert f"{label} price from another provider or region: {price['provider']}" in text
    anchor = first["prices"][first["billing_used"]]
    assert f"{anchor['provider']} · {anchor['region']}" in text
    assert re.search(r"Recommended ?: NVIDIA", text) and re.search(r"Runner-up ?: ", text)


def test_the_pdf_and_chinese_report_carry_the_offer_sources() -> None:
    _client, report = _generated(BY_SLUG["realtime-chatbot"].document(), "zh-hant")
    assert "價格來自其他供應商或區域" in _text(report.html)
    report = pdfs.report_pdf_render(report=report)  # as the worker does after the page
    with report.pdf.open("rb") as f:
        pdf = subprocess.run(
            ["pdftotext", "-", "-"], input=f.read(), capture_output=True, check=True
        ).stdout.decode("utf-8")
    assert "每個價格的來源" in pdf and "價格來自其他供應商或區域" in re.sub(r"\s+", "", pdf)


@pytest.fixture
def two_house_offers(editor: Client) -> None:  # noqa: F811
    draft = CatalogFactory()
    for post in (
        _offer_post(draft),
        _offer_post(
            draft,
            key="house-hk-h100",
            accelerator=draft.accelerators.get(key="nvidia-h100-sxm").pk,
            server_name="HK-H100-8",
        ),
    ):
        assert editor.post(reverse("admin:reference_houseoffer_add"), post).status_code == 302
    catalog_publish(catalog=draft, user=None)


def test_offers_on_request_price_the_plan_indicatively_with_a_quote_link(
    two_house_offers: None,
) -> None:
    client, report = _generated(_hong_kong_hosted())
    page = client.get(_url(report)).content.decode()
    text = _text(page)
    # The operator's servers sold on request rank on an indicative figure: the plan names one,
    # says its price is indicative, and links its quote; none is left in the "also offered" list.
    assert "Indicative: ask for a quote" in text
    first = report.result["workloads"][0]["options"][0]
    price = first["prices"][first["billing_used"]]
    assert price["house"] and price["indicative"]
    assert f'href="?offer={price["price_id"]}#quote"' in page
    assert "Also offered: price on request" not in text


def test_the_quote_link_quotes_the_server_it_names(
    two_house_offers: None, django_capture_on_commit_callbacks: Any, sent_mail: Any
) -> None:
    client, report = _generated(_hong_kong_hosted())
    page = client.get(_url(report, offer="house-hk-h100")).content.decode()
    assert 'name="offer" value="house-hk-h100"' in page
    card = page[page.index('id="quote"') :]
    assert "HK-H100-8" in card and "NVIDIA H100" in card
    operator_member(Role.SALES_ENGINEER)
    post = {"term_months": 12, "offer": "house-hk-h100"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse(
                "advisor:quote_request",
                kwargs={"pk": report.assessment_id, "number": report.number},
            ),
            post,
        )
    assert response.status_code == 302
    lead = Lead.objects.get()
    assert lead.server["offer"]["price_id"] == "house-hk-h100"
    assert lead.server["accelerator_id"] == "nvidia-h100-sxm"
    assert "HK-H100-8" in sent_mail()[0].body


def test_a_quote_for_an_offer_the_report_does_not_list_is_refused(two_house_offers: None) -> None:
    client, report = _generated(_hong_kong_hosted())
    url = reverse(
        "advisor:quote_request", kwargs={"pk": report.assessment_id, "number": report.number}
    )
    assert client.post(url, {"term_months": 12, "offer": "p001"}).status_code == 404
    assert not Lead.objects.exists()
