from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from advisor.decisions import live
from advisor.engine import load_scoring_model, parse_answers, rescore
from advisor.management.commands.bench_rescore import varied_answers
from advisor.models import Assessment
from advisor.reference import tasks
from advisor.reference.models import ImpactPreview, ScoringModel
from advisor.reference.services import impact
from advisor.reference.services.scoring import scoring_model_clone, scoring_model_from_document
from tests.factories import OrganizationFactory

pytestmark = pytest.mark.django_db


def _direct(draft: ScoringModel) -> Counter[str]:
    catalog = live.active_catalog()
    baseline = live.active_scoring_model()
    candidate = load_scoring_model(draft.to_document())
    flips: Counter[str] = Counter()
    for assessment in Assessment.objects.filter(status=Assessment.Status.SUBMITTED):
        answers = parse_answers(assessment.answers)
        before = rescore(answers, catalog, baseline)
        after = rescore(answers, catalog, candidate)
        for key in ("accelerator", "deployment_mode", "billing"):
            flips[key] += before[key] != after[key]
        if before["accelerator"] != after["accelerator"]:
            flips[f"{before['accelerator']}_to_{after['accelerator']}"] += 1
        flips["any"] += before != after and any(
            before[k] != after[k] for k in ("accelerator", "deployment_mode", "billing")
        )
    return flips


def test_flip_counts_equal_a_direct_engine_computation(
    submitted: list[Assessment], draft: ScoringModel
) -> None:
    result = impact.impact_preview(draft=draft)
    direct = _direct(draft)
    assert result["scored"] == len(submitted) and result["skipped"] == 0
    assert result["flips"]["accelerator"] == direct["accelerator"] > 0
    assert result["flips"]["gpu_to_tpu"] == direct["gpu_to_tpu"]
    assert result["flips"]["tpu_to_gpu"] == direct["tpu_to_gpu"]
    assert result["flips"]["deployment_mode"] == direct["deployment_mode"]
    assert result["flips"]["billing"] == direct["billing"]
    assert result["flipped_total"] == direct["any"] == len(result["flipped"])
    flipped = result["flipped"][0]
    assert set(flipped) == {"id", "title", "organization", "changes", "before", "after"}
    assert sum(b["count"] for b in result["shift"]["histogram"]) == result["shift"]["count"]


def test_the_active_model_against_itself_flips_nothing(
    submitted: list[Assessment], active: ScoringModel
) -> None:
    result = impact.impact_preview(draft=active)
    assert result["flipped_total"] == 0
    assert result["shift"]["unchanged"] == result["shift"]["count"] > 0


def test_drafts_and_answers_that_no_longer_validate_are_skipped(
    submitted: list[Assessment], draft: ScoringModel
) -> None:
    Assessment.objects.filter(pk=submitted[0].pk).update(answers={"schema_version": 2})
    result = impact.impact_preview(draft=draft, limit=10)
    assert (result["total"], result["scored"], result["skipped"]) == (10, 9, 1)


def test_a_small_preview_runs_inline(submitted: list[Assessment], draft: ScoringModel) -> None:
    preview = impact.impact_preview_request(draft=draft, user=None)
    assert preview.status == ImpactPreview.Status.DONE and preview.progress == 1.0
    assert preview.result is not None and preview.result["scored"] == len(submitted)


def test_a_large_preview_goes_to_a_worker_after_commit(
    submitted: list[Assessment],
    draft: ScoringModel,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks,  # type: ignore[no-untyped-def]
) -> None:
    monkeypatch.setattr(impact, "INLINE_PREVIEW_LIMIT", 10)
    sent: list[int] = []
    monkeypatch.setattr(
        impact, "impact_preview_enqueue", lambda *, preview_id: sent.append(preview_id)
    )
    with django_capture_on_commit_callbacks(execute=True):
        preview = impact.impact_preview_request(draft=draft, user=None)
    assert preview.status == ImpactPreview.Status.PENDING and sent == [preview.pk]
    # What the worker runs (the task body, called directly).
    assert tasks.run_impact_preview(preview.pk) == ImpactPreview.Status.DONE
    preview.refresh_from_db()
    assert preview.result is not None and preview.result["scored"] == len(submitted)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_a_large_preview(worker: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Transactional tests flush the migration's seed: publish version 1 again from the engine.
    ScoringModel.objects.all().delete()
    active = scoring_model_from_document(
        document=live.active_scoring_model().to_dict(),
        user=None,
        status=ScoringModel.Status.PUBLISHED,
    )
    draft = scoring_model_clone(model=active, user=None)
    organization = OrganizationFactory()
    rng = random.Random(3)
    Assessment.objects.bulk_create(
        Assessment(
            organization=organization,
            title=f"Worker {i}",
            status=Assessment.Status.SUBMITTED,
            answers=varied_answers(rng),
        )
        for i in range(30)
    )
    monkeypatch.setattr(impact, "INLINE_PREVIEW_LIMIT", 10)
    worker()
    preview = impact.impact_preview_request(draft=draft, user=None)
    deadline = time.monotonic() + 60
    while not preview.is_finished and time.monotonic() < deadline:
        time.sleep(0.2)
        preview.refresh_from_db()
    assert preview.status == ImpactPreview.Status.DONE, preview.error
    assert preview.progress == 1.0
    assert preview.result is not None and preview.result["scored"] == 30
