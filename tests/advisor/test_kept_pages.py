"""Pages kept in the cache ({% fragment %}) show what a fresh render would: each visitor's own
CSRF token and nonce, the reader's language, and nothing older than the assessment, the rows
listed or the published catalog and scoring model (the wizard's preview is live)."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.template import Context, Template
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from accounts.services import membership_create
from advisor.decisions import evaluation
from advisor.models import Assessment
from advisor.reference.models import Catalog, Criterion, ScoringModel
from advisor.reference.services.catalog import catalog_clone, catalog_publish
from advisor.reference.services.scoring import scoring_model_clone, scoring_model_publish
from advisor.services import sharing
from advisor.starters import BY_SLUG as STARTERS
from advisor.templatetags import fragments
from advisor.wizard.steps import STEPS
from tests.factories import AssessmentFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

FULL = STARTERS["llm-fine-tuning-startup"].answers


def _team_for(slug: str) -> dict[str, Any]:
    """FULL, or for a step FULL does not reach (the work step asks serving-only teams what
    their model works on) FULL without its training."""
    from advisor.engine.answers.vocabulary import TRAINING_KINDS
    from advisor.wizard.steps import BY_SLUG as STEP_BY_SLUG

    if STEP_BY_SLUG[slug].is_applicable(FULL):
        return FULL
    kept = [w for w in FULL["workloads"] if w["kind"] not in TRAINING_KINDS]
    return {**{k: v for k, v in FULL.items() if k != "training"}, "workloads": kept}


CHATBOT = STARTERS["realtime-chatbot"].answers


@pytest.fixture(autouse=True)
def _forget_kept_fragments() -> None:
    # The shared cache is cleared for every test (tests/conftest.py); this process's copies too.
    fragments.forget_local()


@pytest.fixture
def member(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _new(member: Any, answers: dict[str, Any], title: str = "Kept") -> Assessment:
    return AssessmentFactory(membership=member, title=title, answers=copy.deepcopy(answers))


def _url(obj: Assessment, slug: str = "organization") -> str:
    return reverse("advisor:step", kwargs={"pk": obj.pk, "slug": slug})


def _preview(page: Any) -> str:
    found = re.search(r'<aside id="preview".*?</aside>', page.content.decode(), re.S)
    assert found, "no preview panel"
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(0)).split())


def _csrf_inputs(page: Any) -> list[str]:
    return re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode())


def test_a_second_view_of_a_step_is_kept_and_identical(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    first = client.get(_url(obj))
    second = client.get(_url(obj))
    assert first.status_code == second.status_code == 200

    def without_tokens(page: Any) -> str:
        text = page.content.decode()
        text = re.sub(r'(csrfmiddlewaretoken" value=")[^"]+', r"\1", text)
        text = re.sub(r'("X-CSRFToken": ")[^"]+', r"\1", text)
        text = re.sub(r'nonce="[^"]+"', "", text)
        return re.sub(r'(id="tab-id" value=")[^"]+', r"\1", text)

    assert without_tokens(first) == without_tokens(second)
    assert "fragment-" not in second.content.decode()


def test_kept_pages_carry_each_visitors_own_csrf_token_and_nonce(client: Client) -> None:
    one, other = MembershipFactory(), MembershipFactory()
    membership_create(user=other.user, organization=one.organization, role=Role.MEMBER)
    obj = AssessmentFactory(membership=one, title="Shared", answers=FULL)
    visitors, seen = [], []
    for membership in (one, other, one):
        visitor = Client(enforce_csrf_checks=True)
        visitor.force_login(membership.user)
        page = visitor.get(_url(obj))
        # The step form, the language and logout forms and htmx's header.
        tokens = _csrf_inputs(page) + re.findall(r'"X-CSRFToken": "([^"]+)"', page.text)
        assert len(tokens) >= 4
        nonce = re.search(r"'nonce-([^']+)'", page["Content-Security-Policy"])
        assert nonce
        assert set(re.findall(r'nonce="([^"]+)"', page.text)) == {nonce.group(1)}
        visitors.append((visitor, tokens))
        seen.append(nonce.group(1))
    assert len(set(seen)) == 3

    def switch_language(visitor: Client, token: str) -> int:
        data = {"language": "en", "next": "/", "csrfmiddlewaretoken": token}
        return visitor.post(reverse("set_language"), data).status_code

    for i, (visitor, tokens) in enumerate(visitors):
        # Every token on a visitor's page is theirs; the previous visitor's is refused.
        assert {switch_language(visitor, token) for token in tokens} == {302}
        assert switch_language(visitor, visitors[i - 1][1][0]) == 403


def test_the_language_form_returns_to_the_page_it_is_on(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    for slug in ("organization", "workloads", "organization"):
        page = client.get(_url(obj, slug))
        assert f'name="next" value="{_url(obj, slug)}"' in page.text


def test_kept_fragments_are_in_the_readers_language(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    for language, words in [
        ("en", ["Current leaning", "Log out", "Organisation and regions"]),
        ("zh-hant", ["目前傾向", "登出"]),
        ("en", ["Current leaning", "Log out", "Organisation and regions"]),
        ("zh-hant", ["目前傾向", "登出"]),
    ]:
        client.cookies["django_language"] = language
        page = client.get(_url(obj)).content.decode()
        for word in words:
            assert word in page, (language, word)
        assert ("Current leaning" in page) == (language == "en")


def test_after_a_save_the_step_and_its_preview_show_the_new_answers(
    client: Client, member: Any
) -> None:
    obj = _new(member, FULL)
    before = _preview(client.get(_url(obj, "deployment")))
    assert "Public cloud" in before
    obj.refresh_from_db()
    saved = client.post(
        _url(obj, "deployment"),
        {
            "allowed_modes": ["dedicated_hosting"],
            "portability": "preferred",
            "china_connectivity": "no",
            "data_residency": "none",
            "version": obj.version,
        },
    )
    assert saved.status_code == 302
    page = client.get(_url(obj, "deployment"))
    after = _preview(page)
    assert "Dedicated hosting" in after and "Public cloud" not in after
    assert re.search(r'value="dedicated_hosting"[^>]*checked', page.text)
    assert not re.search(r'value="public_cloud"[^>]*checked', page.text)


def test_an_autosave_refreshes_the_preview_out_of_band(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    client.get(_url(obj, "deployment"))
    autosave = client.post(
        _url(obj, "deployment"),
        {"allowed_modes": ["on_premises"], "version": obj.version, "action": "autosave"},
        HTTP_HX_REQUEST="true",
    )
    assert autosave.status_code == 200
    assert 'hx-swap-oob="true"' in autosave.text
    assert "On premises" in _preview(autosave)
    assert "On premises" in _preview(client.get(_url(obj, "deployment")))


def test_publishing_a_scoring_model_reaches_a_kept_step(client: Client, member: Any) -> None:
    obj = _new(member, CHATBOT)
    kept = _preview(client.get(_url(obj)))
    assert kept == _preview(client.get(_url(obj)))
    assert "GPU" in kept
    # A model that leans hard towards TPUs, as tests/reference/scoring/conftest.py's draft.
    active = ScoringModel.objects.get(status=ScoringModel.Status.PUBLISHED)
    model = scoring_model_clone(model=active, user=None)
    Criterion.objects.filter(scoring_model=model, key="framework_fit").update(weight=10)
    fit = Criterion.objects.get(scoring_model=model, key="framework_fit")
    fit.contributions.filter(option="tpu").update(points=5)
    Criterion.objects.filter(scoring_model=model, key="ops_capacity").update(weight=9)
    scoring_model_publish(model=model, user=None)
    assert "TPU" in _preview(client.get(_url(obj)))


def test_publishing_a_catalog_reaches_a_kept_step(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    kept = _preview(client.get(_url(obj)))
    assert kept == _preview(client.get(_url(obj)))
    draft = catalog_clone(catalog=Catalog.objects.get(status=Catalog.Status.PUBLISHED), user=None)
    # The starter's model four times bigger: more memory to train it.
    draft.presets.filter(key="llama-3-8b").update(parameters=F("parameters") * 4)
    catalog_publish(catalog=draft, user=None)
    assert _preview(client.get(_url(obj))) != kept


@pytest.mark.parametrize("slug", [s.slug for s in STEPS])
def test_the_kept_panel_reads_nothing_of_the_catalog_or_scoring_model(
    client: Client, member: Any, slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The wizard panel is kept per assessment version, not per published catalog and scoring
    # model (advisor.wizard.views._step_context): only its {% live %} preview may read those.
    # A step that comes to show them must add their published versions to the panel's key.
    monkeypatch.setattr(evaluation, "preview", lambda draft: None)
    obj = _new(member, _team_for(slug))
    statements: list[str] = []

    def record(execute: Any, sql: str, *args: Any) -> Any:
        statements.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(record):
        assert client.get(_url(obj, slug)).status_code == 200
    engine_data = ("advisor_catalog", "advisor_scoringmodel", "advisor_criterion")
    assert not [sql for sql in statements if any(table in sql for table in engine_data)]


def test_a_renamed_assessment_shows_its_new_title(client: Client, member: Any) -> None:
    obj = _new(member, FULL, title="Old name")
    assert "Old name" in client.get(_url(obj)).text
    obj.title = "New name"
    obj.save()
    page = client.get(_url(obj)).text
    assert "New name" in page and "Old name" not in page


def test_the_invitation_box_follows_the_readers_role(client: Client) -> None:
    member = MembershipFactory(role=Role.MEMBER)
    engineer = UserFactory()
    membership_create(user=engineer, organization=member.organization, role=Role.SALES_ENGINEER)
    obj = AssessmentFactory(membership=member, title="Roles", answers=FULL)
    for user, shown in [(engineer, True), (member.user, False), (engineer, True)]:
        visitor = Client()
        visitor.force_login(user)
        page = visitor.get(_url(obj)).text
        assert ("Ask the customer to fill this in" in page) == shown


def test_the_htmx_panel_of_a_kept_step_is_the_pages_panel(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    client.get(_url(obj))
    panel = client.get(_url(obj), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="wizard")
    assert panel.status_code == 200
    assert "<html" not in panel.text
    assert panel.text.strip().startswith('<div id="wizard">')
    assert _preview(panel) == _preview(client.get(_url(obj)))


def test_the_review_follows_the_answers(client: Client, member: Any) -> None:
    obj = _new(member, FULL)
    review = client.get(_url(obj, "review")).text
    assert "Before you can submit" not in review
    Assessment.objects.filter(pk=obj.pk).update(version=F("version") + 1, answers={})
    assert "Before you can submit" in client.get(_url(obj, "review")).text


def test_the_dashboard_lists_new_and_renamed_assessments(client: Client, member: Any) -> None:
    obj = _new(member, FULL, title="First plan")
    assert "First plan" in client.get(reverse("advisor:dashboard")).text
    obj.title = "Renamed plan"
    obj.save()
    _new(member, FULL, title="Second plan")
    page = client.get(reverse("advisor:dashboard")).text
    assert "Renamed plan" in page and "Second plan" in page and "First plan" not in page


def test_a_shared_report_is_kept_but_every_view_counts_and_a_revoked_link_closes(
    client: Client, member: Any
) -> None:
    obj = _new(member, FULL)
    report = obj.reports.create(
        number=1,
        language="en",
        status="done",
        html="<p>The stored report</p>",
        finished_at=obj.updated_at,
    )
    link, token = sharing.share_link_create(report=report, user=member.user, label="x")
    visitor = Client()
    url = reverse("advisor:shared", kwargs={"token": token})
    for _ in range(3):
        page = visitor.get(url)
        assert page.status_code == 200
        assert "<p>The stored report</p>" in page.text
    link.refresh_from_db()
    assert link.view_count == 3
    sharing.share_link_revoke(link=link)
    assert visitor.get(url).status_code == 404


def test_a_fragment_keyed_on_none_or_nothing_is_rendered_every_time() -> None:
    template = Template('{% load fragments %}{% fragment "t" key %}{{ value }}{% endfragment %}')
    assert template.render(Context({"key": None, "value": "a"})) == "a"
    assert template.render(Context({"key": None, "value": "b"})) == "b"
    assert template.render(Context({"value": "c"})) == "c"
    assert template.render(Context({"key": 1, "value": "d"})) == "d"
    assert template.render(Context({"key": 1, "value": "e"})) == "d"


def test_a_live_block_is_rendered_every_time() -> None:
    template = Template(
        '{% load fragments %}{% fragment "t" 1 %}[{{ kept }}|{% live %}{{ now }}{% endlive %}]'
        "{% endfragment %}"
    )
    assert template.render(Context({"kept": "a", "now": "1"})) == "[a|1]"
    assert template.render(Context({"kept": "b", "now": "2<"})) == "[a|2&lt;]"


def test_live_values_are_escaped_like_the_template_would() -> None:
    template = Template(
        '{% load fragments %}{% fragment "t" 1 live path=path %}<a href="{{ path }}">'
        "{% endfragment %}"
    )
    assert template.render(Context({"path": "/a?b=1&c=<2>"})) == '<a href="/a?b=1&amp;c=&lt;2&gt;">'
    assert template.render(Context({"path": "/x"})) == '<a href="/x">'
