"""The pilot loop in a browser, in both languages: a vLLM team's finished report → its
pilot (commands and pass lines) → the measurements page, where a wrong result is refused with
every problem named and kept in the box → a recorded `vllm bench serve` result → the version
the real worker re-plans with it, saying what changed → compare v1 → v2 naming the measured
run. Screenshots at 390 and 1366 px go to the screenshot folder."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from advisor.models import Report
from advisor.selectors.measurements import first_serving_option
from advisor.services import reports
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory

pytestmark = [pytest.mark.e2e, pytest.mark.services, pytest.mark.django_db(transaction=True)]

# `vllm bench serve --save-result` on one H100 (tests/engine/data/README.md gives its source).
RECORDED = Path(__file__).parents[1] / "engine" / "data" / "vllm_bench_serve_h100.json"

TEXT = {
    "en": {
        "pilot": "A pilot that proves the plan",
        "not_json": "The result has no output_throughput.",
        "no_concurrency": "max_concurrency is missing",
        "measured": "Re-planned with measured figures",
        "devices": "Devices",
        "cost": "Cost per million output tokens",
        "target": "Latency target holds",
        "pasted": "pasted",
        "compare": "v2 was re-planned with a measured run: {} with vLLM",
        "same_answers": "The answers were the same; the change comes from the measured run.",
    },
    "zh-hant": {
        "pilot": "驗證方案的試行",
        "not_json": "結果中缺少 output_throughput。",
        "no_concurrency": "缺少 max_concurrency",
        "measured": "以實測數據重新規劃",
        "devices": "裝置數",
        "cost": "每百萬輸出 token 成本",
        "target": "符合延遲目標",
        "pasted": "貼上",
        "compare": "v2 已依一次實測重新規劃：於",
        "same_answers": "答案相同；改變來自這次實測。",
    },
}


def _shot(page: Page, selector: str, path: Path) -> None:
    """A section's picture cut from the whole page (an element screenshot waits for the
    element to hold still; a long section on a busy machine may not, in time)."""
    box = page.evaluate(
        """(s) => { const r = document.querySelector(s).getBoundingClientRect();
        return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; }""",
        selector,
    )
    page.screenshot(path=str(path), full_page=True, clip=box, animations="disabled", timeout=60_000)


def _pdf_ready(page: Page) -> None:
    expect(page.locator("#pdf-button")).not_to_have_attribute("aria-busy", "true", timeout=60_000)


def _no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width  # type: ignore[index]


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_the_pilot_loop_from_report_to_a_measured_version_and_compare(
    page: Page, live_server: Any, worker: Any, screenshot_dir: Path, lang: str
) -> None:
    text = TEXT[lang]
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title=f"Pilot {lang}", submitted=True)
    obj.answers["inference"]["tokens_per_day"] = 150_000_000
    assert obj.answers["frameworks"]["serving"] == "vllm"
    obj.save()
    v1 = reports.report_generate(
        report_id=ReportFactory(assessment=obj, language=lang, queued=True).pk
    )
    assert v1 is not None and v1.status == Report.Status.DONE
    first = first_serving_option(v1.result)
    assert first is not None
    c = first["batch_per_replica"]
    worker()
    # No smooth scrolling to the anchor: the page holds still for its pictures.
    page.emulate_media(reduced_motion="reduce")
    _log_in(page, live_server, membership, lang)

    # The report leads to its pilot: what to rent, the benchmark to run, the pass lines.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}/assessments/{obj.pk}/reports/1/")
    # The worker renders the PDF after the page; its button's swap moves the page under a shot.
    _pdf_ready(page)
    page.locator(".report-tools-nav a[href='#report-pilot']").click()
    pilot = page.locator("#report-pilot")
    expect(pilot).to_be_in_viewport()
    expect(pilot.locator("h2")).to_have_text(text["pilot"])
    serving = pilot.locator(".report-pilot", has_text="vllm bench serve")
    commands = serving.locator(".report-command").first
    expect(commands).to_contain_text("vllm serve ")
    expect(commands).to_contain_text(f"--max-concurrency {c} ")
    expect(commands).to_contain_text(f"--result-filename pilot-c{c}.json")
    expect(serving.locator("table").first.locator("tbody tr").first).to_contain_text("≥")
    _shot(page, "#report-pilot", screenshot_dir / f"pilot-{lang}-1366.png")
    page.set_viewport_size({"width": 390, "height": 844})
    _no_sideways_scroll(page)
    # At 390 px a command wraps between its pieces, never inside a flag or its value.
    split = page.evaluate(
        """() => [...document.querySelectorAll('#report-pilot .report-command-part')]
        .filter((e) => e.getClientRects().length > 1).map((e) => e.textContent)"""
    )
    assert page.locator("#report-pilot .report-command-part").count() > 20 and split == []
    assert page.evaluate(
        """() => [...document.querySelectorAll('#report-pilot .report-command')]
        .every((e) => e.scrollWidth <= e.clientWidth)"""
    )
    _shot(page, "#report-pilot", screenshot_dir / f"pilot-{lang}-390.png")

    # The measurements page names the file the pilot saved; a wrong result is refused with
    # every problem named, and what was pasted stays in the box.
    page.locator("#measure-link").click()
    page.wait_for_url("**/reports/1/measure/")
    expect(page.locator("#measure-pilot code")).to_have_text(f"pilot-c{c}.json")
    recorded = json.loads(RECORDED.read_text())
    wrong = json.dumps(
        {k: v for k, v in recorded.items() if k not in ("output_throughput", "max_concurrency")}
    )
    page.locator("#id_text").fill(wrong)
    page.locator("main form button[type=submit]").click()
    problems = page.locator("#measure-problems")
    expect(problems).to_contain_text(text["not_json"])
    expect(problems).to_contain_text(text["no_concurrency"])
    expect(page.locator("#id_text")).to_have_value(wrong)
    assert Report.objects.filter(assessment=obj).count() == 1
    _no_sideways_scroll(page)
    page.screenshot(
        path=str(screenshot_dir / f"measure-{lang}-390.png"),
        full_page=True,
        animations="disabled",
        timeout=60_000,
    )
    page.set_viewport_size({"width": 1366, "height": 900})
    page.screenshot(
        path=str(screenshot_dir / f"measure-{lang}-1366.png"),
        full_page=True,
        animations="disabled",
        timeout=60_000,
    )

    # The recorded run, at the pilot's concurrency and at half the throughput the plan
    # assumed: the worker re-plans it into v2.
    measured = recorded | {
        "max_concurrency": c,
        "output_throughput": round(first["tokens_per_second_per_replica"] / 2, 1),
    }
    page.locator("#id_text").fill(json.dumps(measured, indent=2))
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/reports/2/")
    expect(page.locator(".report-body")).to_be_visible(timeout=60_000)
    _pdf_ready(page)
    v2 = Report.objects.get(assessment=obj, number=2)
    assert v2.status == Report.Status.DONE and v2.based_on_id == v1.pk
    after = first_serving_option(v2.result)
    assert after is not None
    section = page.locator("#measured")
    expect(section).to_contain_text(text["measured"])
    # Figures carry thousands separators, as everywhere in the report.
    expect(section).to_contain_text(f"{first['tokens_per_second_per_replica']:,.1f}")
    changes = section.locator("#measured-changes")
    for label in (text["devices"], text["cost"], text["target"]):
        expect(changes).to_contain_text(label)
    expect(changes.locator("tr", has_text=text["devices"])).to_contain_text(
        re.compile(rf"{first['count']}\s*{after['count']}")
    )
    _shot(page, "#measured", screenshot_dir / f"measured-{lang}-1366.png")
    page.set_viewport_size({"width": 390, "height": 844})
    _no_sideways_scroll(page)
    _shot(page, "#measured", screenshot_dir / f"measured-{lang}-390.png")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(
        path=str(screenshot_dir / f"recalibrated-{lang}-390.png"),
        animations="disabled",
        timeout=60_000,
    )

    # Compare v1 → v2 names the measured run as the reason the plan moved.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.locator("#report-tools a[href$='/compare/']").click()
    page.wait_for_url("**/compare/?a=1&b=2")
    why = page.locator("#compare-measured")
    expect(why).to_contain_text(text["compare"].format(first["name"]))
    expect(why).to_contain_text(f"{v2.result['measurements'][0]['measured_on']}")
    expect(why).to_contain_text(text["pasted"])
    expect(page.locator("main")).to_contain_text(text["same_answers"])
    page.screenshot(
        path=str(screenshot_dir / f"compare-measured-{lang}-1366.png"),
        full_page=True,
        animations="disabled",
    )
