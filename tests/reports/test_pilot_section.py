"""The report page, the PDF body and the JSON carry the pilot that proves the
plan, in the report's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from advisor.models import Report
from advisor.services import reports
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = pytest.mark.django_db

HEADING = {"en": "A pilot that proves the plan", "zh-hant": "驗證方案的試行"}
PASS_LINE = {"en": "Pass line", "zh-hant": "合格線"}


@pytest.fixture
def owner(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _report(owner: Any, language: str) -> Report:
    obj = AssessmentFactory(
        membership=owner, title="Pilot", submitted=True, starter="llm-fine-tuning-startup"
    )
    report = ReportFactory(assessment=obj, language=language, queued=True)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    return report


def _section(html: str) -> str:
    match = re.search(r'<section[^>]*id="report-pilot".*?</section>', html, re.S)
    assert match, "no pilot section"
    return match.group(0)


def _commands(section: str) -> list[str]:
    """The pilot's command lines as the page shows them (its wrapping pieces joined)."""
    part = r'<span class="report-command-part">[^<]*</span> ?'
    lines = re.findall(rf'<span class="report-command-line">((?:{part})*)</span>', section)
    return [re.sub(r"<[^>]+>", "", line) for line in lines]


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_report_page_shows_the_pilot_in_its_language(
    client: Client, owner: Any, language: str
) -> None:
    report = _report(owner, language)
    assert report.result is not None
    kwargs = {"pk": report.assessment_id, "number": report.number}
    page = client.get(reverse("advisor:report", kwargs=kwargs))
    assert page.status_code == 200
    section = _section(page.text)
    assert HEADING[language] in section and PASS_LINE[language] in section
    # Headings and the price's source read in the report's language (a full-width colon and
    # brackets in Chinese), the date never split at its hyphens.
    first, runner_up = {
        "en": ("First option: ", "Runner-up: "),
        "zh-hant": ("第一個方案：", "次佳方案："),
    }[language]
    assert first in section and ": NVIDIA" not in section.replace(first, "").replace(runner_up, "")
    if language == "zh-hant":
        assert "價目表" in section and "價目表)" not in section and "價目表," not in section
    assert re.search(r'<span class="report-nowrap">\d{4}-\d\d-\d\d</span>', section)
    # The links above the report lead to the pilot, far down the page.
    assert '<a href="#report-pilot">' in page.text
    for w in report.result["workloads"]:
        pilot = w.get("pilot")
        if not pilot:
            continue
        assert escape(pilot["summary"]) in section
        for run in pilot["runs"]:
            # Each command is a line of its own and reads back as it is, to copy and run.
            assert escape("\n".join(run["commands"])) in "\n".join(_commands(section))
            for check in run["checks"]:
                assert escape(check["label"]) in section and escape(check["basis"]) in section
    # The pilot is the first next step: right after the risks and next steps, before the
    # sources (the executive summary stays within its two PDF pages).
    assert (
        page.text.index('id="report-risks"')
        < page.text.index('id="report-pilot"')
        < page.text.index('id="report-sources"')
    )
    data = client.get(reverse("advisor:report_json", kwargs=kwargs)).json()
    kinds = {w["kind"]: w.get("pilot") for w in data["workloads"]}
    assert kinds["fine_tuning"]["runs"][0]["commands"][0].startswith("torchrun ")
    assert any(
        c.startswith("vllm bench serve ")
        for c in kinds["realtime_inference"]["runs"][0]["commands"]
    )


@pytest.mark.parametrize(
    ("command", "parts"),
    [
        (
            "vllm serve meta-llama/Meta-Llama-3-8B --tensor-parallel-size 4 --max-num-seqs 32",
            [
                "vllm",
                "serve",
                "meta-llama/Meta-Llama-3-8B",
                "--tensor-parallel-size 4",
                "--max-num-seqs 32",
            ],
        ),
        (
            "vllm bench serve --ignore-eos --max-concurrency 16 --percentile-metrics ttft,tpot "
            "--save-result --result-filename pilot-c16.json",
            [
                "vllm",
                "bench",
                "serve",
                "--ignore-eos",
                "--max-concurrency 16",
                "--percentile-metrics ttft,tpot",
                "--save-result",
                "--result-filename pilot-c16.json",
            ],
        ),
    ],
)
def test_a_command_wraps_between_words_and_keeps_each_option_with_its_value(
    command: str, parts: list[str]
) -> None:
    from advisor.templatetags.advisor_tags import command_parts

    assert command_parts(command) == parts and " ".join(parts) == command


def test_a_date_is_kept_whole_on_one_line_and_an_empty_one_falls_to_its_default() -> None:
    from django.template import Context, Template

    template = Template(
        '{% load advisor_tags %}{{ d|nowrap_date|default:"undated" }}|{{ e|nowrap_date }}'
    )
    html = template.render(Context({"d": "2026-12-01", "e": "<b>"}))
    assert html == (
        '<span class="report-nowrap text-nowrap">2026-12-01</span>|'
        '<span class="report-nowrap text-nowrap">&lt;b&gt;</span>'
    )
    assert template.render(Context({"d": "", "e": None})) == "undated|None"
