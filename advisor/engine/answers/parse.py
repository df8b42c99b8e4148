"""parse_answers: a valid answers document into the frozen Answers dataclasses."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from advisor.engine.answers.problems import AnswersError, validate
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.answers.vocabulary import (
    INFERENCE_KINDS,
    SCHEMA_VERSION,
    TRAINING_KINDS,
    Answers,
    Architecture,
    Cost,
    Deployment,
    Frameworks,
    Inference,
    Maturity,
    Model,
    Organization,
    Training,
    Work,
    Workload,
    architecture_from,
)


def china_by_region(regions: Iterable[Any]) -> bool:
    """deployment.china_connectivity when a document leaves it out: mainland China is among
    the regions where the users and data are (step 1 already asks it)."""
    return "mainland_china" in regions


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def parse_answers(doc: Mapping[str, Any]) -> Answers:
    """Validate `doc` against the answers schema of its version (3, or 1 and 2 read as 3) and the
    cross-field rules; return frozen dataclasses.

    Raises AnswersError carrying every problem (schema and cross-field), not just the first.
    """
    problems = validate(doc)
    if problems:
        raise AnswersError(problems)
    doc = upgrade_answers(doc)
    org, fw, dep, cost, mat = (
        doc["organization"],
        doc["frameworks"],
        doc["deployment"],
        doc["cost"],
        doc["maturity"],
    )
    kinds = {w["kind"] for w in doc["workloads"]}
    model: Model | None = None
    if "model" in doc:
        m = doc["model"]
        arch: Architecture | None = None
        if "architecture" in m:
            arch = architecture_from(m["architecture"])
        model = Model(preset=m.get("preset"), architecture=arch)
    training: Training | None = None
    # A section present but not applicable is accepted and ignored (documented in the schema).
    if "training" in doc and kinds & TRAINING_KINDS:
        t = doc["training"]
        training = Training(
            method=t["method"],
            lora_rank=int(t["lora_rank"]) if "lora_rank" in t else None,
            precision=t["precision"],
            optimizer=t["optimizer"],
            micro_batch_size=int(t["micro_batch_size"]),
            sequence_length=int(t["sequence_length"]),
            gradient_checkpointing=bool(t["gradient_checkpointing"]),
            dataset_tokens=int(t["dataset_tokens"]),
            epochs=float(t.get("epochs", 1)),
            deadline_hours=_opt_float(t.get("deadline_hours")),
            optimizer_impl=t.get("optimizer_impl", "fused"),
        )
    inference: Inference | None = None
    if "inference" in doc and kinds & INFERENCE_KINDS:
        i = doc["inference"]
        inference = Inference(
            precision=i["precision"],
            prompt_tokens=int(i["prompt_tokens"]),
            output_tokens=int(i["output_tokens"]),
            concurrent_sequences=int(i["concurrent_sequences"]),
            tokens_per_day=int(i["tokens_per_day"]),
            traffic=i["traffic"],
            p95_latency_ms=_opt_float(i.get("p95_latency_ms")),
            latency_metric=i.get("latency_metric", "whole_response"),
            peak_to_average=_opt_float(i.get("peak_to_average")),
            batch_window_hours=_opt_float(i.get("batch_window_hours")),
            batch_window_start_hour=(
                int(i["batch_window_start_hour"]) if "batch_window_start_hour" in i else None
            ),
            batch_window_firmness=i.get("batch_window_firmness", "hard"),
            availability=i.get("availability", "survive_one_failure"),
        )
    work: Work | None = None
    if "work" in doc and kinds & INFERENCE_KINDS:
        w = doc["work"]
        work = Work(
            unit=w["unit"],
            model=w["model"],
            per_day=float(w["per_day"]),
            p95_latency_ms=_opt_float(w.get("p95_latency_ms")),
            peak_to_average=_opt_float(w.get("peak_to_average")),
        )
        # The work section sizes the inference workloads: a token inference section is ignored.
        inference = None
    return Answers(
        schema_version=SCHEMA_VERSION,
        organization=Organization(org["industry"], tuple(org["regions"])),
        workloads=tuple(Workload(w["kind"], w["schedule"]) for w in doc["workloads"]),
        maturity=Maturity(mat["stack_changes"], mat["pipeline"], mat["demand"]),
        frameworks=Frameworks(
            fw["primary"],
            tuple(fw.get("others", ())),
            bool(fw["custom_kernels"]),
            fw["serving"],
            tuple(fw.get("kernel_architectures", ())),
        ),
        deployment=Deployment(
            tuple(dep["allowed_modes"]),
            tuple(dep.get("clouds", ())),
            dep["portability"],
            bool(dep.get("china_connectivity", china_by_region(org["regions"]))),
            dep["data_residency"],
        ),
        cost=Cost(
            cost["billing"],
            _opt_float(cost.get("monthly_budget_usd")),
            float(cost["hours_per_day"]),
            cost["ops_capacity"],
            int(cost["ops_headcount"]) if "ops_headcount" in cost else None,
            cost.get("ops_region"),
            int(cost["amortisation_months"]) if "amortisation_months" in cost else None,
            _opt_float(cost.get("capex_budget_usd")),
        ),
        model=model,
        training=training,
        inference=inference,
        work=work,
    )
