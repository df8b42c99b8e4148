"""A version's answers in a browser: a version saved from a what-if says where its answers came
from, and adopting them asks first (the browser's dialog with JavaScript, a second step
without), in both languages, at desktop and phone widths."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from advisor.models import Assessment, Report
from advisor.services import reports, what_if
from tests.e2e.test_accessibility import _done_report
from tests.e2e.test_wizard_browser import _log_in
from tests.factories import AssessmentFactory, MembershipFactory

pytestmark = [pytest.mark.e2e, pytest.mark.services, pytest.mark.django_db(transaction=True)]

QUESTION = {
    "en": "Replace the assessment's answers with those of v2?",
    "zh-hant": "以 v2 的答案取代評估的答案？",
}


def _what_if_version(obj: Assessment, lang: str) -> Report:
    v1 = _done_report(obj, 1, lang)
    answers = copy.deepcopy(v1.answers)
    answers["inference"]["p95_latency_ms"] = 2000
    answers["deployment"]["allowed_modes"] = [*answers["deployment"]["allowed_modes"], "bare_metal"]
    saved = what_if.report_save_what_if(report=v1, answers=answers, user=None)
    done = reports.report_generate(report_id=saved.pk)
    assert done is not None and done.status == Report.Status.DONE
    return done


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_adopting_a_what_if_versions_answers_asks_first_with_and_without_javascript(
    page: Page, browser: Browser, live_server: Any, screenshot_dir: Path, lang: str
) -> None:
    membership = MembershipFactory()
    obj = AssessmentFactory(membership=membership, title=f"Adopt {lang}", submitted=True)
    v2 = _what_if_version(obj, lang)
    _log_in(page, live_server, membership, lang)
    url = f"{live_server.url}/assessments/{obj.pk}/reports/2/"

    # Without JavaScript: the button leads to a question on the page; Cancel leaves all as it was.
    plain = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    plain.add_cookies(page.context.cookies())
    no_js = plain.new_page()
    no_js.goto(url)
    expect(no_js.locator("#answers-origin")).to_be_visible()
    no_js.locator("#adopt-button").click()
    expect(no_js.locator("#adopt-question")).to_contain_text(QUESTION[lang])
    no_js.locator("#answers-origin").screenshot(
        path=str(screenshot_dir / f"adopt-question-{lang}-390.png")
    )
    assert Assessment.objects.get(pk=obj.pk).answers != v2.answers
    no_js.locator("#answers-origin a.btn").click()
    expect(no_js.locator("#adopt-question")).to_have_count(0)
    plain.close()

    # With JavaScript: the browser's dialog asks; dismissing it sends nothing.
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(url)
    page.locator("#answers-origin").screenshot(
        path=str(screenshot_dir / f"answers-origin-{lang}-1366.png")
    )
    asked: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.locator("#adopt-button").click()
    expect(page.locator("#adopt-button")).to_be_visible()
    assert asked and QUESTION[lang] in asked[0]
    assert Assessment.objects.get(pk=obj.pk).answers != v2.answers

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#adopt-button").click()
    expect(page.locator("#adopt-button")).to_have_count(0)
    assert page.url == url
    assert Assessment.objects.get(pk=obj.pk).answers == v2.answers
