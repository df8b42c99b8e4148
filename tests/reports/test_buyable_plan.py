"""The report leads with a plan someone can buy, says what its confidence covers, speaks the
customer's language and opens with a two-page executive summary."""

from __future__ import annotations

import copy
import html
import re
import subprocess
from functools import cache

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.charts.results import chosen_option, option_run_cost
from advisor.decisions import evaluation
from advisor.engine.text import i18n
from advisor.models import Report
from advisor.reporting.render import render_report
from advisor.reporting.text import customer_text
from advisor.services import reports
from advisor.starters import STARTERS
from advisor.templatetags.advisor_tags import usd
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory
from tests.reports.test_rendering import GENERATED_AT, html_for, rendered_for, result_for

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hant")
TWO_WORKLOADS = "llm-fine-tuning-startup"  # fine-tuning and real-time serving
# The report's phrase for a cost per result, in each language's order.
PER_RUN = {"en": "{usd} per run", "zh-hant": "每次訓練 {usd}"}
PER_MTOK = {"en": "per million tokens", "zh-hant": "每百萬 token"}
SUMMARY = {"en": "Executive summary", "zh-hant": "摘要"}
DETAILS = {"en": "Why this recommendation", "zh-hant": "為何如此建議"}
MAIN_RISKS = {"en": "Main risks", "zh-hant": "主要風險"}


def pdf_pages(pdf: bytes, first: int, last: int) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-f", str(first), "-l", str(last), "-", "-"],
        input=pdf,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@cache
def summary_html(slug: str, language: str) -> str:
    html = html_for(slug, language)
    return html[html.index('id="report-summary"') : html.index('class="report-details"')]


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_one_names_card_provider_region_billing_and_cost_per_result(language: str) -> None:
    result = result_for(TWO_WORKLOADS, language)
    page_one = squash(pdf_pages(rendered_for(TWO_WORKLOADS, language).pdf, 1, 1))
    for w in result["workloads"]:
        chosen = chosen_option(result, w)
        assert chosen is not None
        price = chosen["prices"][chosen["billing_used"]]
        assert f"{chosen['name']} × {chosen['count']}" in page_one
        # Named in the report's language: "Vast.ai（市集）", "ap-southeast-1（新加坡）".
        assert i18n.catalog_text(price["provider"], language) in page_one
        assert i18n.region_text(price["region"], language) in page_one
        assert f"${chosen['monthly_cost_usd']:,.0f}" in page_one
    run_cost, _slot = option_run_cost(result["workloads"][0]["options"][0])
    # The report's dollar format: whole dollars from $100, cents below (this first option costs
    # under $100 a run).
    assert PER_RUN[language].format(usd=usd(run_cost)) in page_one
    assert PER_MTOK[language] in page_one


def test_the_runner_up_is_named_with_the_difference() -> None:
    result = result_for(TWO_WORKLOADS, "en")
    summary = squash(summary_html(TWO_WORKLOADS, "en"))
    training = result["workloads"][0]
    first, second = training["options"][:2]
    diff = option_run_cost(second)[0] - option_run_cost(first)[0]
    assert "Runner-up" in summary
    unit = second.get("unit") or {}
    if unit.get("kind") in ("server", "instance"):
        # Bought in units: the units, what they are called, and every card they hold.
        assert f"{unit['count']} × {unit['name']} ({unit['billed']} × {second['name']})" in summary
    else:
        assert f"{second['name']}&nbsp;×&nbsp;{second['count']}" in summary or (
            f"{second['name']} × {second['count']}" in summary
        )
    assert f"{usd(diff)} more per run" in summary


def test_an_owned_option_has_a_monthly_cost_and_no_rental_proxy() -> None:
    # Owned hardware is priced as a total cost of ownership; the proxy is gone.
    result = result_for("regulated-finance-private-cloud", "en")
    first = result["workloads"][0]["options"][0]
    summary = squash(summary_html("regulated-finance-private-cloud", "en"))
    assert first["tco"] and first["monthly_cost_usd"]
    assert usd(first["monthly_cost_usd"]) in summary
    assert "Rental-equivalent" not in summary and "no purchase price" not in summary


@pytest.mark.parametrize("language", LANGUAGES)
def test_confidence_says_what_it_covers_beside_the_easiest_flips(language: str) -> None:
    result = result_for(TWO_WORKLOADS, language)
    summary = squash(summary_html(TWO_WORKLOADS, language))
    parts = result["workloads"][0]["confidence_parts"]
    assert parts is not None
    covers = {"en": "the lowest of: GPU or TPU", "zh-hant": "取以下三者的最低值：GPU 或 TPU"}
    assert covers[language] in summary
    assert f"{float(parts['card']) * 100:.0f}%" in summary
    # This starter's first options now have no single flip (its page says so); the
    # flips beside the confidence are checked on a starter that has them.
    flipped = "ecommerce-recommender"
    flips = result_for(flipped, language)["recommendation"]["would_change_if"]
    assert flips and customer_text(flips[0]["explanation"]) in squash(
        summary_html(flipped, language)
    ).replace("&#x27;", "'")


@pytest.mark.parametrize("slug", [s.slug for s in STARTERS])
@pytest.mark.parametrize("language", LANGUAGES)
def test_report_has_no_file_references_code_names_tags_or_price_ids(
    slug: str, language: str
) -> None:
    # A pilot's commands are to be typed as they are (their --result-filename ends in .json).
    html = re.sub(
        r'<pre class="report-command">.*?</pre>', "", html_for(slug, language), flags=re.S
    )
    internal = ("sizing.md", "deployment_costs.md", ".json", "decode_mbu", "monthly_fixed")
    for code in (*internal, "committed_1y", "committed_3y", ", )", "，）"):
        assert code not in html
    assert not re.search(r"\b(EST|DER)\b", html)
    for p in result_for(slug, language)["cost"]["prices_used"]:
        assert not re.search(rf"\b{re.escape(p['price_id'])}\b", html), p["price_id"]


def test_sources_name_the_providers_price_page_and_its_date() -> None:
    html = squash(html_for(TWO_WORKLOADS, "en"))
    sources = html[html.index('id="report-sources"') :]
    # The date is kept whole on one line (never broken at its hyphens).
    assert re.search(
        r'AWS EC2 price list</th>\s*<td[^>]*><span class="report-nowrap text-nowrap">'
        r"2026-01-21</span></td>",
        sources,
    )
    assert "Glossary" in sources


def test_break_even_reads_as_a_sentence() -> None:
    # A starter whose chosen option has a fixed price to weigh (the batch
    # transcription starter's first option is an on-demand-only offer, so it has none).
    slug = next(
        s.slug
        for s in STARTERS
        if any(
            (o := chosen_option(result_for(s.slug, "en"), w))
            and any(o["compute_usd_per_month"].get(k) is not None for k in ("monthly", "commit_1y"))
            for w in result_for(s.slug, "en")["workloads"]
        )
    )
    html = squash(html_for(slug, "en"))
    cost = html[html.index('id="report-cost"') :]
    assert "Break-even utilisation against on-demand" not in cost
    assert "Against paying by the hour:" in cost
    assert re.search(r"pays off once the cards are busy|would not pay off even", cost)


@pytest.mark.parametrize(
    ("language", "label"),
    [("en", "none of your regions lists TPUs"), ("zh-hant", "您的區域都沒有提供 TPU")],
)
def test_region_coverage_with_hong_kong_and_mainland_china_says_none_lists_tpus(
    language: str, label: str
) -> None:
    answers = copy.deepcopy(next(s for s in STARTERS if s.slug == TWO_WORKLOADS).answers)
    answers["organization"]["regions"] = ["hong_kong", "mainland_china"]
    rendered = render_report(
        result=evaluation.evaluate(answers, language=language),
        title="HK and China",
        organization="Acme",
        language=language,
        generated_at=GENERATED_AT,
    )
    assert label in rendered.body_html
    assert "no region" not in rendered.body_html and "沒有任何區域" not in rendered.body_html


def test_a_per_workload_criterion_names_its_workload() -> None:
    html = html_for(TWO_WORKLOADS, "en")
    assert "Scale and schedule (Fine-tuning (incl. LoRA/QLoRA))" in html
    assert "Scale and schedule (Real-time inference)" in html


@pytest.mark.parametrize("slug", [s.slug for s in STARTERS])
@pytest.mark.parametrize("language", LANGUAGES)
def test_pdf_opens_with_an_executive_summary_of_at_most_two_pages(slug: str, language: str) -> None:
    pdf = rendered_for(slug, language).pdf
    pages = [pdf_pages(pdf, n, n) for n in range(1, 5)]
    assert SUMMARY[language] in pages[0]
    # The details start on a page of their own, page 2 or 3.
    details = next(n for n, text in enumerate(pages, start=1) if DETAILS[language] in text)
    assert details in (2, 3)
    assert MAIN_RISKS[language] in "".join(pages[: details - 1])


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.split(r"[^A-Za-z]+", text) if len(w) >= 3}


@pytest.mark.parametrize("slug", [s.slug for s in STARTERS])
def test_table_cells_never_break_a_word(slug: str) -> None:
    known = _words(html.unescape(re.sub(r"<[^>]+>|data:[^\"]+", " ", html_for(slug, "en"))))
    text = pdf_pages(rendered_for(slug, "en").pdf, 1, 99)
    # A word split across lines leaves fragments the report never wrote: the head or tail
    # of one of its words ("utilis" + "ation").
    fragments = {
        w
        for w in _words(text) - known
        if any(k != w and (k.startswith(w) or k.endswith(w)) for k in known)
    }
    assert fragments == set()
    assert not re.search(r"×\s*\n\s*\d", text)  # "NVIDIA A10G ×" / "8"


@pytest.fixture
def report_page(client: Client) -> tuple[Report, str]:
    membership = MembershipFactory(role=Role.SALES_ENGINEER)
    client.force_login(membership.user)
    assessment = AssessmentFactory(
        membership=membership, submitted=True, starter=TWO_WORKLOADS, title="Buyable plan"
    )
    report = ReportFactory(assessment=assessment, queued=True)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    url = reverse("advisor:report", kwargs={"pk": assessment.pk, "number": report.number})
    return report, url


def test_the_report_page_leads_with_the_plan(
    client: Client, report_page: tuple[Report, str]
) -> None:
    report, url = report_page
    html = squash(client.get(url).content.decode())
    plan = html[html.index('id="report-plan"') : html.index('id="report-confidence"')]
    result = report.result
    assert result is not None
    chosen = chosen_option(result, result["workloads"][0])
    assert chosen is not None
    price = chosen["prices"][chosen["billing_used"]]
    assert price["provider"] in plan and price["region"] in plan
    assert "per run" in plan and "Runner-up" in plan
    assert html.index('id="report-plan"') < html.index('id="report-why"')
    pdf = client.get(
        reverse("advisor:report_pdf", kwargs={"pk": report.assessment_id, "number": 1})
    ).content
    assert price["region"] in squash(pdf_pages(pdf, 1, 1))
