"""Work counted in its own unit reads in that unit in every output of the
report: the page and the PDF (the throughput table with its source, cost per audio hour) and the
CSV (cost per unit of work and the throughput's source), in English and Traditional Chinese."""

from __future__ import annotations

import copy
import csv
import io
import re
import subprocess
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest

from advisor.decisions import evaluation
from advisor.engine.planning import nonllm
from advisor.reporting.csv import cost_table_csv
from advisor.reporting.render import RenderedReport, render_report
from tests.engine.test_expert_cases import CASES

pytestmark = pytest.mark.django_db

LA = copy.deepcopy(
    next(doc for n, doc, _c in CASES if n == "la_call_centre_transcribes_20000_audio_hours_a_night")
)
HEADING = {
    "en": "Serving capacity and cost in your unit",
    "zh-hant": "以您的計量單位表示的服務容量與成本",
}
PER = {"en": "per audio hour", "zh-hant": "小時音訊"}


@cache
def _result(language: str) -> dict[str, Any]:
    return evaluation.evaluate(LA, language=language)


@cache
def _rendered(language: str) -> RenderedReport:
    return render_report(
        result=_result(language),
        title="Transcription",
        organization="Acme Contact Ltd.",
        language=language,
        generated_at=datetime(2026, 12, 2, 9, 0, tzinfo=UTC),
    )


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_report_sizes_speech_in_audio_hours_with_the_throughput_source(language: str) -> None:
    result = _result(language)
    (w,) = result["workloads"]
    first = w["options"][0]
    html = _rendered(language).document_html
    match = re.search(r'<section[^>]*id="report-unit-work".*?</section>', html, re.S)
    assert match, "no section for work in its own unit"
    section = match.group(0)
    assert HEADING[language] in section and PER[language] in section
    assert first["work"]["throughput"]["source"] in section
    assert "report-serving" not in html  # no table of tokens for work that has none
    said = next(n for n in result["cost"]["notes"] if "inferencebench.io" in n)
    assert PER[language] in said


def test_the_pdf_shows_the_cost_per_audio_hour() -> None:
    pdf = _rendered("en").pdf
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    words = " ".join(text.split())
    assert "Serving capacity and cost in your unit" in words
    # The table's first row at its cost per audio hour, and the statement of the sizing.
    (w,) = _result("en")["workloads"]
    option = w["options"][0]
    cost = option["work"]["cost_per_unit_usd"][option["billing_used"]]
    assert f"{option['name']} × {option['count']}" in words
    assert f"${nonllm.money_text(cost)}" in words
    assert "per audio hour all in" in words


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_csv_gives_the_cost_per_unit_and_its_source(language: str) -> None:
    rows = list(csv.reader(io.StringIO(cost_table_csv(_result(language), language))))
    header, first = rows[0], rows[1]
    cost = first[
        header.index(
            "Cost per unit of work (USD)" if language == "en" else "每工作單位成本（美元）"
        )
    ]
    (w,) = _result(language)["workloads"]
    option = w["options"][0]
    assert float(cost) == option["work"]["cost_per_unit_usd"][option["billing_used"]]
    assert option["work"]["throughput"]["source"] in first
