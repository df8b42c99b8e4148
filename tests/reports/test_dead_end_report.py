"""Dead ends through the report: a workload with no runnable, priced
option shows on page one (page, PDF) what rules its options out, the relaxations that bring them
back and the operator's sized server to quote, in both languages; never a bare "no option",
and no sentence about a runner-up that the result does not have."""

from __future__ import annotations

import html
import re
import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Assessment, Report
from advisor.reference.models import CatalogPrice
from advisor.services import reports
from tests.advisor.test_house_offers import editor, published_offer  # noqa: F401
from tests.engine.test_dead_ends import MAINLAND_ONLY
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hant")
BACK = {"en": "What brings options back", "zh-hant": "如何恢復可選方案"}
OUR_SERVER = {"en": "Our server for this workload", "zh-hant": "我們適合此工作負載的伺服器"}
NO_CHANGE = {
    "en": "No single change to your answers would change the recommendation",
    "zh-hant": "任何單一答案的變更都不會改變建議",
}
RUNNER_UP = {"en": "runner-up", "zh-hant": "次佳"}


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(text))


def _report(answers: dict[str, Any], language: str) -> tuple[Client, Report]:
    membership = MembershipFactory(role=Role.MEMBER)
    assessment = AssessmentFactory(
        membership=membership, status=Assessment.Status.SUBMITTED, answers=answers
    )
    report = ReportFactory(assessment=assessment, queued=True, language=language)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    client = Client()
    client.force_login(membership.user)
    return client, report


def _url(report: Report) -> str:
    return reverse("advisor:report", kwargs={"pk": report.assessment_id, "number": report.number})


def _pdf_text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_one_shows_what_rules_options_out_and_what_brings_them_back(language: str) -> None:
    client, report = _report(MAINLAND_ONLY, language)
    assert report.status == Report.Status.DONE and report.result is not None
    (w,) = [w for w in report.result["workloads"] if w.get("dead_end")]
    dead = w["dead_end"]
    page = squash(client.get(_url(report)).content.decode())
    plan = page[page.index('id="report-plan"') : page.index('id="report-confidence"')]
    assert dead["statement"] in plan
    assert BACK[language] in plan
    for r in dead["relaxations"]:
        assert r["explanation"] in plan
    # "Would change if" lists the relaxations; nothing claims a runner-up there is not.
    confidence = page[page.index('id="report-confidence"') : page.index('class="report-details"')]
    assert dead["relaxations"][0]["explanation"] in confidence
    assert NO_CHANGE[language] not in page
    assert RUNNER_UP[language] not in confidence
    # The PDF carries the same block.
    pdf = client.get(
        reverse("advisor:report_pdf", kwargs={"pk": report.assessment_id, "number": 1})
    ).content
    text = squash(_pdf_text(pdf))
    assert BACK[language] in text
    assert dead["relaxations"][0]["option"]["name"] in text


@pytest.mark.parametrize("language", LANGUAGES)
def test_where_the_operator_sells_the_dead_end_is_a_sized_server_to_quote(
    published_offer: CatalogPrice,  # noqa: F811 - Harbour Compute's HK H200 x 8, on request
    language: str,
) -> None:
    # A mainland team whose data stays in the mainland: nothing there; the operator's Hong Kong
    # server next door is the sized server to quote (on request: its figure is indicative).
    client, report = _report(MAINLAND_ONLY, language)
    assert report.result is not None
    (w,) = [w for w in report.result["workloads"] if w.get("dead_end")]
    quote = w["dead_end"]["quote"]
    assert quote["price_id"] == "house-hk-h200" and quote["priced"] is False
    assert quote["per_server"] == 8 and quote["servers"] >= 1
    page = squash(client.get(_url(report)).content.decode())
    plan = page[page.index('id="report-plan"') : page.index('id="report-confidence"')]
    assert OUR_SERVER[language] in plan and quote["statement"] in plan
    assert "2 × AMD EPYC 9354 (64 cores)" in plan and "2048 GB" in plan
    assert "?offer=house-hk-h200#quote" in plan
    # One click: the link opens the quote form for the sized server.
    form = squash(client.get(_url(report), {"offer": "house-hk-h200"}).content.decode())
    section = form[form.index('id="quote"') :]
    assert 'value="house-hk-h200"' in section
    assert f"{quote['servers']} servers of 8 × {quote['name']}" in section or (
        f"{quote['servers']} server of 8 × {quote['name']}" in section
    )


SIZED_CORES = {"en": "cores (sized for this workload)", "zh-hant": "核（依此工作負載估算）"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dead_end_quote_of_a_server_entered_without_its_spec_shows_the_sized_host(
    editor: Client,  # noqa: F811
    language: str,
) -> None:
    """Where the operator's server carries no CPU, RAM, NVMe or network (a row
    imported with the card and route only), the dead end's quote and the quote card show the
    host the engine sizes for the workload, never a blank "— cores"."""
    from advisor.reference.services.catalog import catalog_publish
    from tests.advisor.test_house_offers import _offer_post
    from tests.factories import CatalogFactory

    draft = CatalogFactory()
    response = editor.post(reverse("admin:reference_houseoffer_add"), _offer_post(draft))
    assert response.status_code == 302
    row = CatalogPrice.objects.get(catalog=draft, key="house-hk-h200")
    server = row.extra["server"]
    for key in ("cpu", "ram_gb", "nvme_tb", "network_gbps"):
        server.pop(key, None)
    row.save()
    catalog_publish(catalog=draft, user=None)

    client, report = _report(MAINLAND_ONLY, language)
    assert report.result is not None
    (w,) = [w for w in report.result["workloads"] if w.get("dead_end")]
    quote = w["dead_end"]["quote"]
    sized = quote["sized_server"]
    assert quote["server"]["cpu"] is None and sized["cpu_cores"] > 0 and sized["ram_gib"] > 0
    page = squash(client.get(_url(report)).content.decode())
    plan = page[page.index('id="report-plan"') : page.index('id="report-confidence"')]
    assert f"{sized['cpu_cores']} {SIZED_CORES[language]}" in plan
    assert f"{sized['ram_gib']} GiB" in plan and f"{sized['network_gbps']} Gbps" in plan
    form = squash(client.get(_url(report), {"offer": "house-hk-h200"}).content.decode())
    card = form[form.index('id="quote"') :]
    card = card[: card.index("</dl>")]
    assert "— cores" not in card and "— 核" not in card
    # The quote card is part of the page's tools, in the reader's language (English here).
    assert f"{sized['cpu_cores']} cores · {sized['ram_gib']} GiB" in card
