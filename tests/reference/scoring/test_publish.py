from __future__ import annotations

import json
from decimal import Decimal
from importlib import resources

import pytest
from django.db import IntegrityError, transaction

from advisor.decisions import evaluation, live
from advisor.reference.models import Criterion, ScoringModel
from advisor.reference.services.scoring import (
    ScoringModelInvalid,
    ScoringModelLocked,
    scoring_model_clone,
    scoring_model_ensure_editable,
    scoring_model_export,
    scoring_model_publish,
)
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory, UserFactory

pytestmark = pytest.mark.django_db


def _bundled() -> dict[str, object]:
    text = resources.files("advisor.engine").joinpath("data/scoring_v1.json").read_text("utf-8")
    return dict(json.loads(text))


def test_migration_seeds_version_1_published_as_the_bundled_document(
    active: ScoringModel,
) -> None:
    assert (active.name, active.version) == ("default", 1)
    assert json.loads(scoring_model_export(model=active)) == _bundled()


def test_the_active_model_is_the_published_row(active: ScoringModel) -> None:
    model = live.active_scoring_model()
    assert (model.name, model.version) == ("default", 1)
    assert model.to_dict() == _bundled()


def test_without_a_published_model_the_bundled_seed_is_used(active: ScoringModel) -> None:
    ScoringModel.objects.all().delete()
    assert live.active_scoring_model().version == 1


def test_clone_is_a_draft_with_the_next_version(active: ScoringModel) -> None:
    user = UserFactory()
    clone = scoring_model_clone(model=active, user=user)
    assert (clone.version, clone.status, clone.created_by) == (2, "draft", user)
    assert clone.to_document()["criteria"] == active.to_document()["criteria"]
    again = scoring_model_clone(model=active, user=user)
    assert again.version == 3


def test_publish_retires_the_previous_model_and_takes_effect_at_once(
    active: ScoringModel, draft: ScoringModel
) -> None:
    assert live.active_scoring_model().version == 1
    user = UserFactory()
    scoring_model_publish(model=draft, user=user)
    active.refresh_from_db()
    draft.refresh_from_db()
    assert active.status == "retired" and active.retired_at is not None
    assert (draft.status, draft.published_by) == ("published", user)
    model = live.active_scoring_model()
    assert model.version == 2
    assert next(c for c in model.criteria if c.id == "framework_fit").weight == 10.0
    # History records who published, and the status going from draft to published.
    latest = draft.history.first()
    assert latest is not None and latest.history_user == user and latest.status == "published"


def test_published_and_retired_models_are_immutable(
    active: ScoringModel, draft: ScoringModel
) -> None:
    scoring_model_publish(model=draft, user=None)
    active.refresh_from_db()
    for model in (active, draft):
        with pytest.raises(ScoringModelLocked, match="Clone it into a new draft"):
            scoring_model_ensure_editable(model=model)
        with pytest.raises(ScoringModelLocked):
            scoring_model_publish(model=model, user=None)


def test_publish_refuses_an_invalid_draft_with_every_problem(active: ScoringModel) -> None:
    draft = scoring_model_clone(model=active, user=None)
    Criterion.objects.filter(scoring_model=draft, key="demand").update(weight=Decimal("50"))
    empty = Criterion.objects.get(scoring_model=draft, key="pipeline")
    empty.contributions.all().delete()
    with pytest.raises(ScoringModelInvalid) as caught:
        scoring_model_publish(model=draft, user=None)
    problems = caught.value.problems
    assert any("demand" in p and "too large" in p for p in problems), problems
    assert any("pipeline" in p and "no contributions" in p for p in problems), problems
    draft.refresh_from_db()
    active.refresh_from_db()
    assert (draft.status, active.status) == ("draft", "published")


def test_the_database_allows_one_published_model(active: ScoringModel, draft: ScoringModel) -> None:
    draft.status = ScoringModel.Status.PUBLISHED
    with pytest.raises(IntegrityError), transaction.atomic():
        draft.save()


def test_old_reports_are_unchanged_after_a_publish(
    active: ScoringModel, draft: ScoringModel
) -> None:
    membership = MembershipFactory()
    assessment = AssessmentFactory(
        organization=membership.organization, title="Before the publish", submitted=True
    )
    result = evaluation.evaluate(assessment.answers, language="en")
    report = ReportFactory(assessment=assessment, result=result, html="<p>frozen</p>")
    frozen = json.loads(json.dumps(result))

    scoring_model_publish(model=draft, user=None)

    report.refresh_from_db()
    assert report.result == frozen
    assert report.scoring_model == "default v1"
    assert report.result["versions"]["scoring_model"] == {"name": "default", "version": 1}
    fresh = evaluation.evaluate(assessment.answers, language="en")
    assert fresh["versions"]["scoring_model"] == {"name": "default", "version": 2}
