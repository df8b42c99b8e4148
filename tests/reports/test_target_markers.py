"""An option that misses its target is marked as missing wherever the report
lists it (page one, the option tables, the CSV), and when nothing meets a latency target page one
says so with the best reachable figure and the levers."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest
from django.utils.html import escape

from advisor.decisions import evaluation
from advisor.engine.answers.samples import DELETE, sample
from advisor.reporting.csv import cost_table_csv
from advisor.reporting.render import render_report
from advisor.reporting.text import customer_text

pytestmark = pytest.mark.django_db

# A US East shop assistant: a 7B model, 512-token answers wanted whole within 300 ms, which no
# card reaches (one sequence at a time, the fastest is about half a second).
TEAM = sample(
    **{
        "organization.regions": ["us_east"],
        "workloads": [{"kind": "realtime_inference", "schedule": "continuous"}],
        "deployment.allowed_modes": ["public_cloud"],
        "deployment.china_connectivity": False,
        "model.preset": "qwen2.5-7b",
        "training.epochs": DELETE,
        "training.deadline_hours": DELETE,
        "inference.prompt_tokens": 3584,
        "inference.output_tokens": 512,
        "inference.p95_latency_ms": 300,
        "inference.latency_metric": "whole_response",
    }
)
MISSES = {"en": "misses the target", "zh-hant": "未達目標"}
NOTHING = {"en": "no option meets", "zh-hant": "沒有方案能達到"}


@cache
def _result(language: str) -> dict[str, Any]:
    return evaluation.evaluate(TEAM, language=language)


@cache
def _html(language: str) -> str:
    return render_report(
        result=_result(language),
        title="Targets",
        organization="Acme AI Ltd.",
        language=language,
        generated_at=datetime(2026, 11, 30, 9, 30, tzinfo=UTC),
    ).document_html


def _section(html: str, section: str) -> str:
    match = re.search(rf'<section[^>]*id="{section}".*?</section>', html, re.S)
    assert match, section
    return match.group(0)


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_page_one_says_nothing_meets_the_latency_target_and_what_would(language: str) -> None:
    result = _result(language)
    (w,) = result["workloads"]
    assert w["options"] and all(o["target_status"] == "missed" for o in w["options"])
    (warning,) = w["target_warnings"]
    assert NOTHING[language] in warning
    summary = _section(_html(language), "report-summary")
    assert escape(customer_text(warning)) in summary
    # The plan on page one is marked too, not only a risk line.
    assert '<span class="flag">' in summary and MISSES[language] in summary


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_every_missing_option_is_marked_in_the_tables_and_the_csv(language: str) -> None:
    result = _result(language)
    (w,) = result["workloads"]
    html = _html(language)
    serving = _section(html, "report-serving")
    cost = _section(html, "report-cost")
    missed = len(w["options"])
    assert serving.count(f'<span class="flag">{MISSES[language]}</span>') == missed
    assert cost.count(MISSES[language]) == missed
    rows = list(csv.reader(io.StringIO(cost_table_csv(result, language))))
    target = rows[0].index("Target" if language == "en" else "目標")
    assert [r[target] for r in rows[1:]] == [MISSES[language]] * missed
    assert all(float(r[target + 1]) < 0 for r in rows[1:])


def test_a_met_target_states_its_margin() -> None:
    result = evaluation.evaluate(
        {**TEAM, "inference": {**TEAM["inference"], "p95_latency_ms": 60_000}}, language="en"
    )
    (w,) = result["workloads"]
    first = w["options"][0]
    assert first["target_status"] == "met" and first["target_margin"] >= 0.10
    summary = _section(
        render_report(
            result=result,
            title="Targets",
            organization="Acme AI Ltd.",
            language="en",
            generated_at=datetime(2026, 11, 30, 9, 30, tzinfo=UTC),
        ).document_html,
        "report-summary",
    )
    assert f"met, {first['target_margin'] * 100:.0f}% to spare" in summary


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_pdf_summary_marks_the_missed_target(language: str) -> None:
    from tests.reports.test_buyable_plan import pdf_pages, squash

    rendered = render_report(
        result=_result(language),
        title="Targets",
        organization="Acme AI Ltd.",
        language=language,
        generated_at=datetime(2026, 11, 30, 9, 30, tzinfo=UTC),
    )
    summary = squash(pdf_pages(rendered.pdf, 1, 2))
    assert MISSES[language] in summary and NOTHING[language] in summary
