"""Engine runs as the product makes them: the published catalog and scoring model, in the user's
language; prices are judged stale against today's date. A stored result is reused while it is
what a run now would give, and reworded in another language from the versions and day it used."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from django.utils import timezone

from advisor import engine
from advisor.decisions.languages import engine_language
from advisor.decisions.live import active_both, active_catalog, active_scoring_model
from advisor.decisions.pinned import catalog_at, scoring_model_at
from advisor.engine import Answers, sizing
from advisor.engine.planning.decide import answers_shape
from advisor.engine.result.document import ResultDocument
from advisor.engine.sizing import measured
from advisor.engine.sizing.measured import Measurement


def evaluate(
    answers: Answers,
    *,
    language: str | None = None,
    today: date | None = None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    """`answers` evaluated with the published catalog and scoring model, prices judged against
    `today` (the local date unless given: a submit passes the day of its own instant)."""
    catalog, scoring = active_both()
    return engine.evaluate(
        answers,
        catalog,
        scoring,
        lang=engine_language(language),
        today=today or timezone.localdate(),
        measurements=measurements,
    )


def is_current(result: ResultDocument, *, language: str, today: date) -> bool:
    """Whether `result` is what evaluating its answers on `today` would give: the same engine,
    the catalog and scoring model published now, the same day (prices age by the day) and
    `language`. The caller says which day counts: for a report, the day it was requested, so a
    submit just before midnight is not run again by a worker that starts after it."""
    versions = result["versions"]
    catalog, scoring = active_both()
    return (
        versions["engine"] == engine.ENGINE_VERSION
        and str(versions["catalog"]) == catalog.version
        and versions["scoring_model"] == {"name": scoring.name, "version": scoring.version}
        and result["cost"]["today"] == today.isoformat()
        and result["lang"] == engine_language(language)
    )


def evaluate_like(
    answers: Answers,
    result: ResultDocument,
    *,
    language: str | None,
    measurements: Sequence[Measurement] = (),
) -> ResultDocument:
    """`answers` evaluated with the catalog, scoring model and day that `result` used, in
    `language`: the same recommendation, worded in another language. The versions published
    now stand in for one that is no longer stored."""
    versions = result["versions"]
    catalog = catalog_at(str(versions["catalog"])) or active_catalog()
    named = versions["scoring_model"]
    scoring = scoring_model_at(str(named["name"]), int(named["version"])) or (
        active_scoring_model()
    )
    return engine.evaluate(
        answers,
        catalog,
        scoring,
        lang=engine_language(language),
        today=result["cost"]["today"],
        measurements=measurements,
    )


def measurement_problems(
    answers: Answers, result: ResultDocument, m: Measurement, *, devices: int
) -> list[measured.ParseProblem]:
    """Every figure of `m`, a run on one replica of `devices` cards, that the card's physics
    rules out for these answers' model (engine/sizing/measured/physics.py `implausible`), with
    the catalog `result` used."""
    catalog = catalog_at(str(result["versions"]["catalog"])) or active_catalog()
    shape = answers_shape(answers, catalog)
    acc = catalog.by_id.get(m.accelerator_id)
    if shape is None or answers.inference is None or acc is None:
        return []
    mem = sizing.inference_memory(shape, answers.inference, catalog, answers.frameworks.serving)
    bounds = measured.bounds(shape, answers.inference, acc, devices, mem)
    return measured.implausible(m, bounds) if bounds is not None else []


def preview(draft: dict[str, Any]) -> dict[str, Any] | None:
    # Only stored drafts come here, and a stored draft always passes check_partial.
    catalog, scoring = active_both()
    return engine.preview(draft, catalog, scoring, lang=engine_language(), checked=True)
