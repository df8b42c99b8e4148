"""Impact previews: re-score the submitted assessments with a draft scoring model or catalog,
inline for a few, on a worker for many."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from advisor.decisions import languages, live
from advisor.engine import (
    Answers,
    AnswersError,
    ScoringModelError,
    evaluate,
    load_catalog,
    load_scoring_model,
    parse_answers,
    rescore,
)
from advisor.engine import Catalog as EngineCatalog
from advisor.engine import ScoringModel as EngineScoringModel
from advisor.engine.catalog import CatalogError
from advisor.models import Assessment
from advisor.reference.models import Catalog, ImpactPreview, ScoringModel
from advisor.reference.services.scoring import ScoringModelInvalid

logger = logging.getLogger(__name__)


# Below this many submitted assessments a preview runs in the request (about 0.1 s per 1,000);
# above, a worker runs it and the page polls its progress.
INLINE_PREVIEW_LIMIT = 2_000
# The preview keeps this many flipped assessments to list; the counts cover all of them.
FLIPS_KEPT = 1_000


def _shift_histogram(shifts: list[float]) -> list[dict[str, float]]:
    if not shifts:
        return []
    low, high = min(shifts), max(shifts)
    if high - low < 1e-9:
        return [{"start": round(low, 3), "end": round(high, 3), "count": len(shifts)}]
    # A "nice" bin width giving at most about 20 bars.
    width = next(
        step * 10**exp
        for exp in range(-2, 6)
        for step in (1, 2, 2.5, 5)
        if step * 10**exp >= (high - low) / 20
    )
    first = math.floor(low / width)
    counts = [0] * (math.floor(high / width) - first + 1)
    for s in shifts:
        counts[math.floor(s / width) - first] += 1
    return [
        {
            "start": round((first + i) * width, 3),
            "end": round((first + i + 1) * width, 3),
            "count": n,
        }
        for i, n in enumerate(counts)
    ]


def impact_preview(
    *,
    draft: ScoringModel | None = None,
    catalog_draft: Catalog | None = None,
    limit: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """Re-score every submitted assessment with a draft scoring model, or a draft catalog, and
    with the active ones.

    Counts the flips (GPU↔TPU, deployment mode, billing), lists the flipped assessments and
    bins the shift of the GPU−TPU score difference (positive: towards GPU). Assessments
    whose stored answers no longer validate are counted as skipped.
    """
    lang = languages.engine_language()
    baseline = live.active_scoring_model()
    catalog = candidate_catalog = live.active_catalog()
    candidate = baseline
    if draft is not None:
        try:
            candidate = load_scoring_model(draft.to_document())
        except ScoringModelError as error:
            raise ScoringModelInvalid(
                [f"{p.path}: {p.message(lang)}" for p in error.problems]
            ) from error
        names = {
            "baseline": {"name": baseline.name, "version": baseline.version},
            "candidate": {"name": draft.name, "version": draft.version},
        }
    elif catalog_draft is not None:
        try:
            candidate_catalog = load_catalog(catalog_draft.to_document())
        except CatalogError as error:
            raise ScoringModelInvalid(
                [f"{p.path}: {p.message(lang)}" for p in error.problems]
            ) from error
        names = {
            "baseline": {"name": "catalog", "version": catalog.version},
            "candidate": {"name": "catalog", "version": catalog_draft.version},
        }
    else:
        raise ValueError("a preview needs a draft scoring model or a draft catalog")
    started = time.perf_counter()
    rows = (
        Assessment.objects.filter(status=Assessment.Status.SUBMITTED)
        .order_by("pk")
        .values_list("pk", "title", "organization__name", "answers")
    )
    if limit is not None:
        rows = rows[:limit]
    total = rows.count()
    flips = {"accelerator": 0, "gpu_to_tpu": 0, "tpu_to_gpu": 0, "deployment_mode": 0, "billing": 0}
    # A catalog changes which card is cheapest and what it costs, which the fast path leaves
    # out: catalog previews also compare the full results (cards and monthly cost), and their
    # shift is the change of the monthly cost in percent.
    pricing = catalog_draft is not None
    if pricing:
        flips["card"] = 0
    keys = ("accelerator", "deployment_mode", "billing", *(("card",) if pricing else ()))
    today = timezone.localdate()
    flipped: list[dict[str, Any]] = []
    flipped_total = scored = skipped = 0
    shifts: list[float] = []
    for i, (pk, title, organization, answers) in enumerate(rows.iterator(chunk_size=1_000)):
        if progress is not None and i and i % 1_000 == 0:
            progress(i / total)
        try:
            parsed = parse_answers(answers)
        except AnswersError:
            skipped += 1
            continue
        before = rescore(parsed, catalog, baseline)
        after = rescore(parsed, candidate_catalog, candidate)
        if pricing:
            before.update(_priced(parsed, catalog, baseline, today))
            after.update(_priced(parsed, candidate_catalog, candidate, today))
        scored += 1
        changes = [k for k in keys if before[k] != after[k]]
        for k in changes:
            flips[k] += 1
        if "accelerator" in changes:
            flips["gpu_to_tpu" if after["accelerator"] == "tpu" else "tpu_to_gpu"] += 1
        if changes:
            flipped_total += 1
            if len(flipped) < FLIPS_KEPT:
                flipped.append(
                    {
                        "id": pk,
                        "title": title,
                        "organization": organization,
                        "changes": changes,
                        "before": {k: before[k] for k in (*keys, "monthly_usd") if k in before},
                        "after": {k: after[k] for k in (*keys, "monthly_usd") if k in after},
                    }
                )
        if pricing:
            if before["monthly_usd"] and after["monthly_usd"] is not None:
                shifts.append(round(100 * (after["monthly_usd"] / before["monthly_usd"] - 1), 6))
            continue
        b, a = before["scores"], after["scores"]
        if None not in (b["gpu"], b["tpu"], a["gpu"], a["tpu"]):
            shifts.append(round((a["gpu"] - a["tpu"]) - (b["gpu"] - b["tpu"]), 6))
    return {
        **names,
        "kind": "catalog" if pricing else "scoring",
        "total": total,
        "scored": scored,
        "skipped": skipped,
        "flips": flips,
        "flipped_total": flipped_total,
        "flipped": flipped,
        "shift": {
            "histogram": _shift_histogram(shifts),
            "count": len(shifts),
            "unchanged": sum(1 for s in shifts if abs(s) < 1e-9),
            "mean": round(sum(shifts) / len(shifts), 3) if shifts else 0.0,
            "min": round(min(shifts), 3) if shifts else 0.0,
            "max": round(max(shifts), 3) if shifts else 0.0,
        },
        "seconds": round(time.perf_counter() - started, 3),
    }


def _priced(
    answers: Answers, catalog: EngineCatalog, scoring: EngineScoringModel, today: date
) -> dict[str, Any]:
    """The cards recommended per workload ("h100 × 8, ...") and the monthly cost."""
    result = evaluate(answers, catalog, scoring, lang="en", today=today)
    cost = result["cost"]
    card = ", ".join(f"{w['accelerator_id']} × {w['count']}" for w in cost["by_workload"])
    return {"card": card or None, "monthly_usd": cost["monthly_total_usd"]}


def impact_preview_request(
    *, draft: ScoringModel | None = None, catalog: Catalog | None = None, user: User | None
) -> ImpactPreview:
    """Start a preview of a draft scoring model or catalog: inline for a few assessments, else
    on a worker after commit."""
    total = Assessment.objects.filter(status=Assessment.Status.SUBMITTED).count()
    preview = ImpactPreview.objects.create(
        scoring_model=draft, catalog=catalog, requested_by=user, total=total
    )
    if total < INLINE_PREVIEW_LIMIT:
        return impact_preview_run(preview_id=preview.pk)
    transaction.on_commit(lambda: impact_preview_enqueue(preview_id=preview.pk))
    return preview


def impact_preview_enqueue(*, preview_id: int) -> bool:
    from advisor.reference.tasks import run_impact_preview

    try:
        run_impact_preview.apply_async(
            args=(preview_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors
        logger.warning("impact preview %s: broker unreachable", preview_id, exc_info=True)
        ImpactPreview.objects.filter(pk=preview_id).update(
            status=ImpactPreview.Status.FAILED,
            error=gettext("No worker could be reached; try again in a minute."),
            finished_at=timezone.now(),
        )
        return False
    return True


def impact_preview_run(*, preview_id: int) -> ImpactPreview:
    """Compute one preview and store it; a finished one is left as it is."""
    preview = ImpactPreview.objects.select_related("scoring_model", "catalog").get(pk=preview_id)
    if preview.is_finished:
        return preview
    ImpactPreview.objects.filter(pk=preview_id).update(
        status=ImpactPreview.Status.RUNNING, started_at=timezone.now()
    )

    def progress(fraction: float) -> None:
        ImpactPreview.objects.filter(pk=preview_id).update(progress=round(fraction, 3))

    try:
        result = impact_preview(
            draft=preview.scoring_model, catalog_draft=preview.catalog, progress=progress
        )
    except ScoringModelInvalid as error:
        ImpactPreview.objects.filter(pk=preview_id).update(
            status=ImpactPreview.Status.FAILED,
            error="\n".join(error.problems),
            finished_at=timezone.now(),
        )
    else:
        ImpactPreview.objects.filter(pk=preview_id).update(
            status=ImpactPreview.Status.DONE,
            progress=1.0,
            total=result["total"],
            result=result,
            finished_at=timezone.now(),
        )
    preview.refresh_from_db()
    return preview
