"""Accessibility audit: axe-core on every page in both languages, with the CSP enforced, and
the wizard completed from the keyboard alone.

axe-core comes from the npm registry at test time (`.ci/test.sh` installs it into the ignored
`var/axe/`); run by hand without it, these tests skip and say how to install it.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import Role
from advisor.decisions import evaluation, live
from advisor.models import Assessment, Report
from advisor.reference.models import Catalog, ScoringModel
from advisor.reference.services.catalog import catalog_publish
from advisor.reference.services.scoring import scoring_model_from_document
from advisor.reporting.render import render_report
from advisor.services import assessments, prospects, sharing
from tests.e2e.test_catalog_browser import _draft as published_catalog_draft
from tests.e2e.test_wizard_browser import SLUGS, _log_in
from tests.factories import (
    AssessmentFactory,
    MembershipFactory,
    ReportFactory,
    operator_organization,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "var" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
LANGS = ["en", "zh-hant"]
# WCAG 2.1 A and AA, plus axe's best practices (landmarks, heading order, region).
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
BLOCKING = {"serious", "critical"}


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        pytest.skip(
            "axe-core is not installed: npm install --prefix var/axe axe-core@4 "
            "(.ci/test.sh does this)"
        )
    return AXE.read_text()


class Audit:
    """Runs axe on pages and collects violations and CSP console errors, per page."""

    def __init__(self, axe_source: str, lang: str) -> None:
        self.axe_source = axe_source
        self.lang = lang
        self.violations: list[dict[str, Any]] = []
        self.csp_errors: list[str] = []
        self.pages: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on(
            "console",
            lambda m: (
                self.csp_errors.append(f"{page.url}: {m.text}")
                if m.type == "error" and "Content Security Policy" in m.text
                else None
            ),
        )
        return page

    def check(self, page: Page, name: str) -> None:
        """axe on the page as it is now. `evaluate` runs outside the page's CSP, so axe
        needs no inline script and the page keeps its policy enforced."""
        page.wait_for_load_state("networkidle")
        if not page.evaluate("() => typeof window.axe !== 'undefined'"):
            page.evaluate(self.axe_source)
        result = page.evaluate(
            "async (tags) => await axe.run(document, "
            "{resultTypes: ['violations'], runOnly: {type: 'tag', values: tags}})",
            AXE_TAGS,
        )
        self.pages.append(name)
        for v in result["violations"]:
            self.violations.append(
                {
                    "page": name,
                    "url": page.url,
                    "id": v["id"],
                    "impact": v["impact"],
                    "help": v["help"],
                    "targets": [n["target"] for n in v["nodes"]][:5],
                    "nodes": len(v["nodes"]),
                    "summary": v["nodes"][0].get("failureSummary", "")[:300],
                }
            )

    def visit(self, page: Page, url: str, name: str) -> None:
        response = page.goto(url)
        assert response is not None
        self.check(page, name)

    def report(self) -> None:
        counts = Counter(v["impact"] for v in self.violations)
        print(f"\naxe [{self.lang}]: {len(self.pages)} pages, violations by impact {dict(counts)}")
        for v in self.violations:
            print(
                f"  {v['impact']:<8} {v['id']:<28} {v['page']:<22} x{v['nodes']} {v['targets'][:2]}"
            )
        blocking = [v for v in self.violations if v["impact"] in BLOCKING]
        assert not blocking, json.dumps(blocking, indent=1, ensure_ascii=False)
        assert not self.csp_errors, self.csp_errors


def _done_report(obj: Assessment, number: int, language: str) -> Report:
    result = evaluation.evaluate(obj.answers, language=language)
    html = render_report(
        result=result,
        title=obj.title,
        organization=obj.organization.name,
        language=language,
        generated_at=timezone.now(),
    ).body_html
    return ReportFactory(assessment=obj, number=number, language=language, result=result, html=html)


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_passes_axe_with_the_csp_enforced(
    browser: Browser, live_server: Any, axe_source: str, lang: str
) -> None:
    audit = Audit(axe_source, lang)
    base = live_server.url
    cookie = [{"name": "django_language", "value": lang, "url": base}]

    # Anonymous pages, in a context of their own.
    anonymous = browser.new_context()
    anonymous.add_cookies(cookie)
    page = audit.watch(anonymous.new_page())
    page.set_default_timeout(10_000)
    for path, name in [
        ("/", "landing"),
        ("/accounts/signup/", "signup"),
        ("/accounts/login/", "login"),
        ("/accounts/password-reset/", "password reset"),
        ("/accounts/password-reset/sent/", "password reset sent"),
        ("/accounts/password-reset/MQ/not-a-token/", "password reset bad link"),
        ("/accounts/password-reset/done/", "password reset done"),
        ("/accounts/invitation/not-a-token/", "invitation invalid"),
        ("/accounts/signup/sent/", "signup sent"),
        ("/accounts/signup/confirm/not-a-token/", "signup link invalid"),
        ("/s/not-a-real-token-000000000000000/", "share link 404"),
    ]:
        audit.visit(page, base + path, name)

    # A member with a submitted assessment, two done reports and a share link.
    membership = MembershipFactory()
    user = membership.user
    submitted = AssessmentFactory(
        membership=membership, title="Accessibility " + lang, submitted=True
    )
    first = _done_report(submitted, 1, "en")
    _done_report(submitted, 2, "zh-hant")
    for number, status in [(3, Report.Status.PENDING), (4, Report.Status.FAILED)]:
        ReportFactory(
            assessment=submitted, number=number, language=lang, status=status, queued=True
        )
    blank = assessments.assessment_create(
        organization=membership.organization, user=user, title="Blank " + lang
    )
    _, token = sharing.share_link_create(report=first, user=user, label="Board")
    draft = assessments.assessment_create(
        organization=membership.organization,
        user=user,
        title="Draft " + lang,
        starter="llm-fine-tuning-startup",
    )

    audit.visit(page, f"{base}/s/{token}/", "shared report")
    anonymous.close()

    context = browser.new_context()
    page = audit.watch(context.new_page())
    page.set_default_timeout(10_000)
    _log_in(page, live_server, membership, lang)
    audit.check(page, "dashboard (member)")
    for path, name in [
        ("/accounts/organisation/", "organisation"),
        ("/accounts/tokens/", "API tokens"),
        ("/accounts/password/", "password change"),
        ("/assessments/new/", "new assessment"),
        *[(f"/assessments/{draft.pk}/steps/{slug}/", f"step {slug}") for slug in SLUGS],
        (f"/assessments/{draft.pk}/steps/review/", "review"),
        (f"/assessments/{submitted.pk}/reports/1/", "report"),
        (f"/assessments/{submitted.pk}/reports/compare/?a=1&b=2", "compare"),
        (f"/assessments/{submitted.pk}/reports/3/", "report pending"),
        (f"/assessments/{submitted.pk}/reports/4/", "report failed"),
        (f"/assessments/{blank.pk}/steps/organization/", "blank step organization"),
        (f"/assessments/{blank.pk}/steps/review/", "blank review"),
    ]:
        audit.visit(page, base + path, name)
    # The wizard's inline validation (htmx swaps in an error message) and a new share link.
    page.goto(f"{base}/assessments/{draft.pk}/steps/training/")
    page.locator("#id_micro_batch_size").fill("many")
    page.locator("#id_micro_batch_size").blur()
    expect(page.locator("#errors-micro_batch_size")).not_to_be_empty()
    audit.check(page, "step training (error)")
    page.goto(f"{base}/assessments/{submitted.pk}/reports/1/")
    page.locator("form[action$='/share/'] button[type=submit]").click()
    expect(page.locator("#new-share-url")).to_be_visible()
    audit.check(page, "report (new share)")
    context.close()

    # A sales engineer with a customer, who also reads the scoring models.
    engineer = MembershipFactory(role=Role.SALES_ENGINEER, organization=operator_organization())
    prospects.prospect_start(
        user=engineer.user,
        organization_name="Harbour AI " + lang,
        title="Harbour workload",
        contact_email="",
        base_url=base + "/",
    )
    model = ScoringModel.objects.filter(status=ScoringModel.Status.PUBLISHED).first()
    if model is None:  # transactional tests flush the migration's seed
        model = scoring_model_from_document(
            document=live.active_scoring_model().to_dict(),
            user=None,
            status=ScoringModel.Status.PUBLISHED,
        )
    context = browser.new_context()
    page = audit.watch(context.new_page())
    page.set_default_timeout(10_000)
    _log_in(page, live_server, engineer, lang)
    audit.check(page, "dashboard (engineer)")
    audit.visit(page, base + "/scoring-models/", "scoring models")
    audit.visit(page, f"{base}/scoring-models/{model.pk}/", "scoring model")
    audit.visit(page, f"{base}/scoring-models/{model.pk}/preview/", "scoring preview")
    if not Catalog.objects.filter(status=Catalog.Status.PUBLISHED).exists():
        catalog_publish(catalog=published_catalog_draft(), user=None)
    audit.visit(page, base + "/catalog/", "price catalog")
    context.close()

    audit.report()


class Keyboard:
    """Moves through a page and fills it in with key presses only: no clicks, no fills.

    The page is read (where the focus is, what a field holds) but only the keyboard acts."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.presses = 0

    def press(self, key: str) -> None:
        self.presses += 1
        self.page.keyboard.press(key)

    def focused(self, selector: str) -> bool:
        return bool(
            self.page.evaluate(
                "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
            )
        )

    def tab_to(self, selector: str, limit: int = 150) -> None:
        for _ in range(limit):
            if self.focused(selector):
                return
            self.press("Tab")
        raise AssertionError(f"Tab never reached {selector} on {self.page.url}")

    def type(self, selector: str, text: str) -> None:
        self.tab_to(selector)
        self.press("Control+A")
        self.page.keyboard.type(text)
        self.presses += len(text)

    def check(self, selector: str) -> None:
        self.tab_to(selector)
        if not self.page.evaluate("() => document.activeElement.checked"):
            self.press("Space")
        assert self.page.evaluate("() => document.activeElement.checked"), selector

    def choose(self, name: str, value: str) -> None:
        """A radio group: Tab lands on it once, the arrow keys pick within it."""
        self.tab_to(f"input[type=radio][name={name}]")
        target = f"input[type=radio][name={name}][value={value}]"
        for _ in range(20):
            if self.page.evaluate("(s) => document.querySelector(s).checked", target):
                return
            if self.focused(target):
                self.press("Space")
            else:
                self.press("ArrowDown")
        raise AssertionError(f"the arrow keys never chose {target}")

    def select(self, selector: str, value: str) -> None:
        self.tab_to(selector)
        self.press("Home")
        for _ in range(60):
            if self.page.evaluate("() => document.activeElement.value") == value:
                return
            self.press("ArrowDown")
        raise AssertionError(f"the arrow keys never selected {value} in {selector}")

    def activate(self, selector: str) -> None:
        self.tab_to(selector)
        self.press("Enter")


def _keyboard_step(kb: Keyboard, slug: str) -> None:
    if slug == "organization":
        kb.select("#id_industry", "research")
        kb.check("input[name=regions][value=hong_kong]")
    elif slug == "workloads":
        kb.check("#id_fine_tuning")
        kb.select("#id_fine_tuning_schedule", "weekly")
        kb.check("#id_realtime_inference")
        kb.select("#id_realtime_inference_schedule", "continuous")
    elif slug == "model":
        kb.choose("source", "preset")
        kb.select("#id_preset", "llama-3-8b")
    elif slug == "training":
        kb.choose("method", "lora")
        kb.type("#id_lora_rank", "16")
        kb.select("#id_precision", "bf16_mixed")
        kb.select("#id_optimizer", "adamw")
        kb.type("#id_micro_batch_size", "4")
        kb.type("#id_sequence_length", "4096")
        kb.choose("gradient_checkpointing", "yes")
        kb.type("#id_dataset_tokens", "200000000")
    elif slug == "inference":
        kb.select("#id_precision", "bf16")
        kb.type("#id_prompt_tokens", "3584")
        kb.type("#id_output_tokens", "512")
        kb.type("#id_concurrent_sequences", "32")
        kb.type("#id_tokens_per_day", "20000000")
        kb.choose("traffic", "bursty")
    elif slug == "maturity":
        kb.choose("stack_changes", "weekly")
        kb.choose("pipeline", "exploratory")
        kb.choose("demand", "unpredictable")
    elif slug == "frameworks":
        kb.choose("primary", "pytorch")
        kb.choose("custom_kernels", "yes")
        kb.select("#id_serving", "vllm")
    elif slug == "deployment":
        kb.check("input[name=allowed_modes][value=public_cloud]")
        kb.choose("portability", "preferred")
        kb.choose("data_residency", "none")
    elif slug == "cost":
        kb.choose("billing", "pay_as_you_go")
        kb.type("#id_hours_per_day", "8")
        kb.choose("ops_capacity", "part_time")


# The autosave leaves 400 ms after the last change, and nothing in the page shows it coming: the
# page counts the changes it reacts to and, for each autosave answered, the changes it carried.
AUTOSAVE_WATCH = """
(() => {
  const state = (window.__autosave = { changes: 0, answered: 0 });
  const autosave = (el) => el instanceof Element && el.closest('[hx-vals*="autosave"]');
  document.addEventListener("change", (e) => { if (autosave(e.target)) state.changes++; }, true);
  document.addEventListener("htmx:beforeRequest", (e) => {
    if (autosave(e.detail.elt)) e.detail.xhr.autosaveChanges = state.changes;
  });
  document.addEventListener("htmx:afterRequest", (e) => {
    if (autosave(e.detail.elt))
      state.answered = Math.max(state.answered, e.detail.xhr.autosaveChanges);
  });
})();
"""


def _settle(page: Page) -> None:
    """Waits until every change so far has had its autosave answered, before saving the step."""
    page.wait_for_function(
        "() => window.__autosave.answered >= window.__autosave.changes"
        " && !document.querySelector('.htmx-request')"
    )


def _arrived(page: Page, url: str) -> None:
    try:
        page.wait_for_url(url)
    except Exception as error:
        raise AssertionError(f"{page.url}:\n{page.locator('main').inner_text()[:2000]}") from error


def test_the_wizard_is_completed_with_the_keyboard_alone(page: Page, live_server: Any) -> None:
    membership = MembershipFactory()
    page.add_init_script(AUTOSAVE_WATCH)
    _log_in(page, live_server, membership, "en")
    page.goto(live_server.url + "/assessments/new/")
    kb = Keyboard(page)
    # The skip link is the first stop and takes the focus to the content.
    kb.press("Tab")
    assert kb.focused("a[href='#main']")
    kb.type("#id_title", "Keyboard only")
    kb.activate("main form button[type=submit]")
    for slug in SLUGS:
        _arrived(page, f"**/steps/{slug}/")
        expect(page.get_by_role("heading", level=2).first).to_be_visible()
        _keyboard_step(kb, slug)
        _settle(page)
        kb.activate("button[name=action][value=next]")
    _arrived(page, "**/steps/review/")
    kb.activate("form[action$='/submit/'] button[type=submit]")
    page.wait_for_url("**/reports/1/")
    obj = Assessment.objects.get(title="Keyboard only")
    assert obj.status == Assessment.Status.SUBMITTED
    assert obj.answers["training"]["lora_rank"] == 16
    assert obj.answers["cost"]["ops_capacity"] == "part_time"
    print(f"\nkeyboard-only wizard: {kb.presses} key presses, no clicks")
