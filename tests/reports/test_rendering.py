from __future__ import annotations

import csv
import io
import re
import subprocess
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest
from weasyprint.urls import URLFetchingError

from advisor.charts.report import cost_chart, memory_chart, serving_chart, time_cost_chart
from advisor.charts.svg import as_data_uri
from advisor.decisions import evaluation
from advisor.reporting.csv import cost_table_csv
from advisor.reporting.pdf import PDF_BASE_URL, STYLESHEET, _ReportFetcher
from advisor.reporting.render import RenderedReport, render_report
from advisor.starters import STARTERS

# The engine reads the published scoring model from the database.
pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hant")
CASES = [(s.slug, lang) for s in STARTERS for lang in LANGUAGES]
GENERATED_AT = datetime(2026, 11, 30, 9, 30, tzinfo=UTC)

HEADINGS = {
    "en": [
        "Executive summary",
        "Why this recommendation",
        "What would change the answer",
        "Excluded options",
        "Memory",
        "Cost",
        "The balanced server",
        "Risks and next steps",
        "Assumptions and sources",
    ],
    "zh-hant": [
        "摘要",
        "為何如此建議",
        "什麼會改變答案",
        "已排除的選項",
        "記憶體",
        "成本",
        "均衡的伺服器配置",
        "風險與後續步驟",
        "假設與資料來源",
    ],
}
MODE_LABELS = {
    "en": {
        "public_cloud": "Public cloud",
        "dedicated_hosting": "Dedicated hosting",
        "bare_metal": "Bare metal",
        "private_cloud": "Private cloud",
        "on_premises": "On premises",
    },
    "zh-hant": {
        "public_cloud": "公有雲",
        "dedicated_hosting": "專屬主機代管",
        "bare_metal": "裸機",
        "private_cloud": "私有雲",
        "on_premises": "自有機房",
    },
}


@cache
def result_for(slug: str, language: str) -> dict[str, Any]:
    starter = next(s for s in STARTERS if s.slug == slug)
    return evaluation.evaluate(starter.answers, language=language)


@cache
def rendered_for(slug: str, language: str) -> RenderedReport:
    return render_report(
        result=result_for(slug, language),
        title=f"Report for {slug}",
        organization="Acme AI Ltd.",
        language=language,
        generated_at=GENERATED_AT,
    )


def html_for(slug: str, language: str, standalone: bool = True) -> str:
    rendered = rendered_for(slug, language)
    return rendered.document_html if standalone else rendered.body_html


@cache
def pdf_text_for(slug: str, language: str) -> tuple[bytes, str, str]:
    pdf = rendered_for(slug, language).pdf
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")
    fonts = subprocess.run(
        ["pdffonts", "-"], input=pdf, capture_output=True, check=False
    ).stdout.decode("utf-8", "replace")
    return pdf, text, fonts


def expected_charts(result: dict[str, Any], language: str) -> int:
    svgs = [memory_chart(result, language, phase=p) for p in ("training", "inference")]
    svgs += [cost_chart(result, language, workload=w["kind"]) for w in result["workloads"]]
    svgs += [time_cost_chart(result, language), serving_chart(result, language)]
    return sum(svg is not None for svg in svgs)


@pytest.mark.parametrize(("slug", "language"), CASES)
def test_html_names_the_recommendation_and_every_section(slug: str, language: str) -> None:
    result = result_for(slug, language)
    html = html_for(slug, language)
    rec = result["recommendation"]
    assert f'<html lang="{language}">' in html
    assert MODE_LABELS[language][rec["deployment_mode"]] in html
    assert f"<strong>{rec['accelerator'].upper()}</strong>" in html
    for heading in HEADINGS[language]:
        assert f">{heading}</h2>" in html, heading


@pytest.mark.parametrize(("slug", "language"), CASES)
def test_html_embeds_charts_as_data_uris(slug: str, language: str) -> None:
    html = html_for(slug, language)
    count = html.count('src="data:image/svg+xml;base64,')
    assert count == expected_charts(result_for(slug, language), language)
    assert count >= 1


@pytest.mark.parametrize(("slug", "language"), CASES)
def test_html_has_no_inline_styles_or_scripts(slug: str, language: str) -> None:
    for html in (html_for(slug, language), html_for(slug, language, standalone=False)):
        assert " style=" not in html
        assert "<style" not in html
        assert "<script" not in html


def test_body_only_render_is_a_fragment_for_the_site_layout() -> None:
    body = html_for(STARTERS[0].slug, "en", standalone=False)
    assert "<html" not in body
    assert "<head>" not in body
    assert 'class="report"' in body


def test_training_with_prices_shows_time_and_cost_per_run() -> None:
    html = html_for("llm-fine-tuning-startup", "en")
    assert ">Time to result against cost (training)</h2>" in html
    assert ">Serving capacity and cost per million tokens</h2>" in html


def test_split_decision_is_stated_in_the_summary() -> None:
    html = html_for("regulated-finance-private-cloud", "zh-hant")
    assert "訓練與推論最好使用不同的基礎設施。" in html


def test_stale_prices_are_flagged_in_sources_and_risks() -> None:
    result = result_for("llm-fine-tuning-startup", "en")
    stale = [p for p in result["cost"]["prices_used"] if p["stale"]]
    assert stale
    html = html_for("llm-fine-tuning-startup", "en")
    sources = html.split('id="report-sources"', 1)[1]
    prices = sources.split("</table>", 1)[0]
    rows = prices.split("<tr>")[2:]  # past the header row
    # One row per provider's price page and date: a row says "confirm before quoting" exactly
    # when one of its prices is stale.
    for price in result["cost"]["prices_used"]:
        date = price["as_of"] or "undated"
        row = next(r for r in rows if re.search(rf">{re.escape(date)}(?:</span>)?</td>", r))
        if price["stale"]:
            assert "confirm before quoting" in row
    for row in rows:
        dated = re.search(r">(\d{4}-\d{2}-\d{2})(?:</span>)?</td>", row)
        if dated and not any(
            p["stale"] for p in result["cost"]["prices_used"] if p["as_of"] == dated.group(1)
        ):
            assert "confirm before quoting" not in row
    assert f"{len(stale)} of the {len(result['cost']['prices_used'])} prices used" in html


def test_charts_are_static_svg_with_an_explicit_cjk_font() -> None:
    result = result_for("llm-fine-tuning-startup", "zh-hant")
    svg = cost_chart(result, "zh-hant")
    assert svg is not None
    assert svg.startswith("<svg")
    assert "<script" not in svg
    assert '"Noto Sans CJK TC"' in svg
    assert "使用率" in svg


def test_charts_carry_no_tooltip_markup() -> None:
    result = result_for("llm-fine-tuning-startup", "en")
    svgs = [memory_chart(result, "en", phase="training"), cost_chart(result, "en")]
    for svg in svgs:
        assert svg is not None
        assert "<desc" not in svg
        assert ":hover" not in svg
        assert "tooltip" not in svg
        assert svg.count("<title>") == 1
        assert "<!--" not in svg


def test_render_report_renders_body_document_and_pdf_once() -> None:
    slug, language = "llm-fine-tuning-startup", "zh-hant"
    rendered = render_report(
        result=result_for(slug, language),
        title=f"Report for {slug}",
        organization="Acme AI Ltd.",
        language=language,
        generated_at=GENERATED_AT,
    )
    assert rendered.body_html in rendered.document_html
    assert rendered.pdf.startswith(b"%PDF")
    with pytest.raises(AttributeError):
        rendered.pdf = b""  # type: ignore[misc]


def test_charts_are_none_without_data() -> None:
    result = result_for("realtime-chatbot", "en")
    assert time_cost_chart(result, "en") is None
    assert memory_chart(result, "en", phase="training") is None
    assert cost_chart({"workloads": []}, "en") is None


def test_pdf_fetcher_refuses_anything_but_static_css_and_data() -> None:
    fetcher = _ReportFetcher()
    with pytest.raises(URLFetchingError):
        fetcher.fetch("http://example.com/tracker.png")
    with pytest.raises(URLFetchingError):
        fetcher.fetch("file:///etc/passwd")
    css = fetcher.fetch(PDF_BASE_URL + "static/" + STYLESHEET)
    assert b"@page" in css.read()
    assert fetcher.fetch(as_data_uri("<svg/>")).read() == b"<svg/>"


@pytest.mark.slow
@pytest.mark.parametrize(("slug", "language"), CASES)
def test_pdf_holds_the_recommendation_in_its_language(slug: str, language: str) -> None:
    pdf, text, fonts = pdf_text_for(slug, language)
    rec = result_for(slug, language)["recommendation"]
    assert pdf.startswith(b"%PDF")
    flat = re.sub(r"\s+", "", text)
    assert rec["accelerator"].upper() in text
    assert re.sub(r"\s+", "", MODE_LABELS[language][rec["deployment_mode"]]) in flat
    for heading in HEADINGS[language]:
        assert re.sub(r"\s+", "", heading) in flat, heading
    # No tofu: every font is embedded, the CJK one is used, and no replacement characters.
    assert "\ufffd" not in text
    assert re.search(r"Noto-?Sans-?CJK", fonts)
    rows = [line for line in fonts.splitlines()[2:] if line.strip()]
    assert all(" yes " in row for row in rows), fonts


@pytest.mark.parametrize(("slug", "language"), CASES)
def test_cost_csv_has_one_row_per_option(slug: str, language: str) -> None:
    result = result_for(slug, language)
    rows = list(csv.reader(io.StringIO(cost_table_csv(result, language))))
    header, body = rows[0], rows[1:]
    assert len(body) == sum(len(w["options"]) for w in result["workloads"])
    assert all(len(row) == len(header) for row in body)
    assert header[0] == ("Workload" if language == "en" else "工作負載")


def test_cost_csv_flags_stale_prices() -> None:
    result = result_for("llm-fine-tuning-startup", "en")
    rows = list(csv.DictReader(io.StringIO(cost_table_csv(result, "en"))))
    priced = [r for r in rows if r["Price source"]]
    assert priced
    assert {r["Stale price"] for r in priced} <= {"yes", "no"}
    assert any(r["Stale price"] == "yes" for r in priced)
