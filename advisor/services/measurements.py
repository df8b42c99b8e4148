"""Measured results: a serving benchmark kept for the organisation and a report version
re-planned with it."""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from advisor.decisions import evaluation
from advisor.engine import parse_answers
from advisor.engine.explain import pilot
from advisor.engine.result.document import normalise
from advisor.engine.sizing import measured
from advisor.models import Assessment, Measurement, Report
from advisor.selectors.measurements import first_serving_option
from advisor.services.reports import engine_measurements, report_enqueue, report_throttle

# The largest benchmark file read (a larger one is refused unread), and the error naming every
# problem of one refused.
MAX_BYTES = measured.MAX_BYTES
MeasurementError = measured.MeasurementError


class NothingToMeasure(Exception):
    """The report has no serving option (or no serving stack) a benchmark could measure."""


def report_measure(
    *,
    report: Report,
    raw: bytes | str,
    source: str,
    user: User | None,
    concurrency: int | None = None,
) -> Report:
    """A serving benchmark's result for `report`'s first serving option, kept for the
    organisation, and a new version re-planned with it (and the organisation's earlier
    measurements): its result is evaluated now as a what-if is (the report's catalog, scoring
    model and day), `based_on` names `report`. Raises MeasurementError naming every problem
    (nothing is stored), NothingToMeasure when the report has no serving option, and
    ReportThrottled past the limits. `concurrency` is the one the team typed, for a format that
    does not record it (engine/sizing/measured/formats.py parse). Every attempt counts against the
    limits, refused ones too; a run beyond the card's physics (engine/sizing/measured/physics.py
    `implausible`) is refused naming its fields."""
    first = first_serving_option(report.result)
    serving = str((report.answers.get("frameworks") or {}).get("serving") or "")
    if first is None or not serving or not isinstance(report.result, dict):
        raise NothingToMeasure
    organization = report.assessment.organization
    # Counted before the file is read: a refused file costs the same parse as an accepted one.
    report_throttle(user=user, organization=organization)
    m = measured.parse(
        raw,
        accelerator_id=first["accelerator_id"],
        serving=serving,
        source=source,
        today=timezone.localdate().isoformat(),
        concurrency=concurrency,
    )
    answers = parse_answers(report.answers)
    devices = int(first.get("tensor_parallel") or 1) * int(first.get("pipeline_parallel") or 1)
    implausible = evaluation.measurement_problems(
        answers, normalise(report.result), m, devices=devices
    )
    if implausible:
        raise measured.MeasurementError(implausible)
    before = first.get("measured") or {}
    estimated = before.get("estimated") or {
        "tokens_per_second_per_replica": first.get("tokens_per_second_per_replica"),
        "tpot_ms": first.get("tpot_ms"),
        "ttft_ms": first.get("ttft_ms"),
    }
    estimated = {**estimated, "batch_per_replica": first.get("batch_per_replica")}
    with transaction.atomic():
        locked = Assessment.objects.select_for_update().get(pk=report.assessment_id)
        Measurement.objects.create(
            organization=organization,
            report=report,
            accelerator_id=m.accelerator_id,
            serving=m.serving,
            model_id=m.model_id[:200],
            concurrency=m.concurrency,
            figures={
                "output_tokens_per_s": m.output_tokens_per_s,
                "request_throughput": m.request_throughput,
                "ttft_ms": m.ttft_ms,
                "tpot_ms": m.tpot_ms,
                "e2el_ms": m.e2el_ms,
                "percentile": m.percentile,
                "tool": m.tool,
            },
            estimated=estimated,
            measured_on=m.measured_on,
            source_name=source[:200],
            created_by=user,
        )
        result = evaluation.evaluate_like(
            answers,
            normalise(report.result),
            language=report.language,
            measurements=engine_measurements(organization),
        )
        number = (locked.reports.aggregate(n=Max("number"))["n"] or 0) + 1
        saved = Report.objects.create(
            assessment=locked,
            number=number,
            language=report.language,
            requested_by=user,
            answers=copy.deepcopy(report.answers),
            origin=Report.Origin.REGENERATED,
            based_on=report,
            result=result,
        )
        transaction.on_commit(lambda: report_enqueue(report_id=saved.pk))
    return saved


def pilot_result_file(*, stack: str, first: dict[str, Any] | None) -> str:
    """The file the pilot's commands save at the plan's concurrency, the one to paste; blank
    without a serving option."""
    return pilot.result_file(stack, first["batch_per_replica"]) if first else ""


def measurement_delete(*, measurement: Measurement, user: User | None) -> None:
    """Delete a measurement of the organisation: reports re-planned from now on no longer use
    it (versions already made keep the figures they were made with). The history keeps who
    deleted it and when, as it keeps who added it."""
    if user is not None:
        measurement._history_user = user  # type: ignore[attr-defined]  # simple_history reads it
    measurement.delete()
