"""A zh-Hant report is written in Traditional Chinese all the way, risks, known
gaps, server notes and the figures table included. What may stay in English is named data: card,
provider, region and product names, units, and the catalog's own source citations."""

from __future__ import annotations

import html
import re
import subprocess
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils.translation import override

from advisor.decisions import evaluation, live
from advisor.engine.answers.parse import parse_answers
from advisor.engine.result.document import normalise
from advisor.reporting.context import report_context
from advisor.reporting.render import render_report
from advisor.reporting.text import customer_text
from advisor.starters import STARTERS
from tests.engine.test_expert_cases import CASES

pytestmark = pytest.mark.django_db

# Teams from the expert cases that reach sections the starters do not: dedicated hosting, China
# reach, a tight latency target on a 70B model, a daily pipeline with preprocessing, TensorFlow.
EXPERT_TEAMS = (
    "la_dedicated_hosting_serving_ranks_priced_first",
    "mainland_china_insurer_priced_from_outside_its_region_group",
    "tight_latency_on_70b_warns_and_lowers_confidence",
    "daily_pipeline_sizes_preprocessing_as_its_own_workload",
    "tensorflow_shop_on_gcp_is_not_offered_tpu7x_or_v6e_first",
    "hk_and_singapore_team_leaves_an_unpriced_european_host",
)
TEAMS: dict[str, Any] = {s.slug: s.answers for s in STARTERS} | {
    name: parse_answers(doc) for name, doc, _ in CASES if name in EXPERT_TEAMS
}

# Product names a Chinese technical text writes as they are.
ALLOWED = (
    "Text Generation Inference",
    "Triton Inference Server",
    "TensorFlow Serving",
    "Hugging Face",
)
CJK = re.compile(r"[\u4e00-\u9fff]")
# Three English words in a row, as a sentence or a phrase of one would have.
ENGLISH_RUN = re.compile(r"[A-Za-z][A-Za-z'\-]*(?:\s+[A-Za-z][A-Za-z'\-]*){2,}")
# An engine key or answer value (decode_mbu, committed_3y) shown instead of its label.
CODE_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


@cache
def result_for(team: str) -> dict[str, Any]:
    return dict(evaluation.evaluate(TEAMS[team], language="zh-hant"))


@cache
def body_for(team: str) -> str:
    with override("zh-hant"):
        context = report_context(normalise(result_for(team)), language="zh-hant")
        context.update(language="zh-hant", title="報告", organization="示例公司")
        return render_to_string("advisor/report/_body.html", context)


def named_data(result: dict[str, Any]) -> list[str]:
    """The names the report shows as the catalog writes them, longest first."""
    names = {a.name for a in live.active_catalog().accelerators}
    for w in result["workloads"]:
        for o in [*w["options"], *w["alternatives"], *w["excluded_options"]]:
            names.update(str(o[k]) for k in ("name", "provider", "region") if o.get(k))
            # The unit it is bought in, as its seller names it ("gpu_1x_gh200", "HK-H100-8").
            if (o.get("unit") or {}).get("name"):
                names.add(str(o["unit"]["name"]))
            # An owned option's break-even names the rental it is compared with.
            rental = (o.get("tco") or {}).get("break_even") or {}
            names.update(str(rental[k]) for k in ("provider", "region") if rental.get(k))
        # A dead end's relaxations and quote name the offers they bring back.
        dead = w.get("dead_end") or {}
        for o in [*(r["option"] for r in dead.get("relaxations", [])), dead.get("quote") or {}]:
            names.update(str(o[k]) for k in ("name", "provider", "region", "unit") if o.get(k))
    for p in result["cost"]["prices_used"]:
        names.update(str(p[k]) for k in ("provider", "region", "source", "sold_as") if p.get(k))
    names.update(f["source"] for f in result["cost"]["figures_used"].values())
    names.update(customer_text(f["source"]) for f in result["cost"]["figures_used"].values())
    return sorted(names, key=len, reverse=True)


def section(body: str, name: str) -> str:
    match = re.search(rf'<section class="report-section" id="{name}">(.*?)</section>', body, re.S)
    assert match is not None, name
    return match.group(1)


def section_text(body: str, name: str) -> str:
    # The catalog's source citations are data; charts are images.
    text = re.sub(r'<td class="source">.*?</td>', " ", section(body, name), flags=re.S)
    text = re.sub(r'src="data:[^"]*"', "", text)
    return html.unescape(re.sub(r"<[^>]+>", "\n", text))


def english_left(text: str, result: dict[str, Any]) -> list[str]:
    for name in [*named_data(result), *ALLOWED]:
        text = text.replace(name, " ")
    text = re.sub(r"https?://\S+", " ", text)
    # Citations of the reference files ("deployment_costs.md 1c") are worded elsewhere.
    text = re.sub(r"[\w./-]+\.(?:md|json|py)\b", " ", text)
    return [m.group(0) for m in ENGLISH_RUN.finditer(text)] + CODE_NAME.findall(text)


def items(body: str, name: str) -> list[str]:
    found = re.findall(r"<li[^>]*>(.*?)</li>", section(body, name), re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", x)).strip() for x in found]


SECTIONS = (
    "report-summary",
    "report-why",
    "report-options",
    "report-change",
    "report-excluded",
    "report-memory",
    "report-cost",
    "report-time",
    "report-serving",
    "report-server",
    "report-risks",
    "report-sources",
)


@pytest.mark.parametrize("team", TEAMS)
def test_chinese_report_has_no_english_outside_names_and_sources(team: str) -> None:
    body, result = body_for(team), result_for(team)
    left = {
        name: english_left(section_text(body, name), result)
        for name in SECTIONS
        if f'id="{name}"' in body
    }
    assert {name: runs for name, runs in left.items() if runs} == {}


@pytest.mark.parametrize("team", TEAMS)
def test_chinese_risks_server_notes_and_gaps_are_chinese(team: str) -> None:
    body, result = body_for(team), result_for(team)
    risks = items(body, "report-risks")
    server = items(body, "report-server")
    assert risks and server
    for text in [*risks, *server, *result["cost"]["gaps"]]:
        assert CJK.search(text), text
        assert not english_left(text, result), text
    assert len(result["cost"]["gaps"]) == len(set(result["cost"]["gaps"]))


@pytest.mark.parametrize("team", TEAMS)
def test_chinese_figures_table_names_each_figure_in_words(team: str) -> None:
    body = body_for(team)
    table = body.split('class="report-table report-compact report-sources report-figures', 1)[1]
    table = table.split("</table>", 1)[0]
    names = [html.unescape(n) for n in re.findall(r'<th scope="row">(.*?)</th>', table)]
    assert len(names) == len(result_for(team)["cost"]["figures_used"])
    for name in names:
        assert CJK.search(name), name
        assert not CODE_NAME.search(name), name
    units = [html.unescape(u) for u in re.findall(r'<td data-label="數值">(.*?)</td>', table)]
    assert units and all(not ENGLISH_RUN.search(u) for u in units), units


def test_chinese_pdf_writes_risks_gaps_and_figures_in_chinese() -> None:
    team = "llm-fine-tuning-startup"
    rendered = render_report(
        result=result_for(team),
        title="報告",
        organization="示例公司",
        language="zh-hant",
        generated_at=datetime(2026, 11, 30, 9, 30, tzinfo=UTC),
    )
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=rendered.pdf, capture_output=True, check=True
    ).stdout.decode("utf-8")
    assert "價格目錄尚未涵蓋：Azure 在亞洲的 GPU 價格" in text
    # The training option's MFU, its regime and the published runs it was fitted on.
    assert "以公開的訓練數據擬合" in text
    assert "稠密運算峰值的比例" in text
    for english in ("Azure GPU prices in Asia", "fraction of dense peak", "mfu_pretraining"):
        assert english not in text
