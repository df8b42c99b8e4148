"""parse_answers reads each section's answers by their field registry entries. Held here to a
reference parse that states every answer's conversion and default by hand, over generated
documents: the documents of the Hypothesis strategy of realistic teams, and every document the
published schemas (versions 3 and 2) accept."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from schemathesis.generation.jsonschema.builder import build

from advisor.engine import parse_answers
from advisor.engine.answers import fields, vocabulary
from advisor.engine.answers.parse import china_by_region
from advisor.engine.answers.problems import validate
from advisor.engine.answers.schema import answers_schema, schema_doc
from advisor.engine.answers.sections import Section
from advisor.engine.answers.upgrade import upgrade_answers
from tests.engine.conftest import JAX_PRETRAIN, SAMPLE
from tests.engine.strategies import answers_docs

_DRAFT_2020_12 = 20


def _opt_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _reference_parse(doc: Mapping[str, Any]) -> vocabulary.Answers:
    """A valid document parsed answer by answer, each conversion and default written out."""
    doc = upgrade_answers(doc)
    org, fw, dep, cost, mat = (
        doc["organization"],
        doc["frameworks"],
        doc["deployment"],
        doc["cost"],
        doc["maturity"],
    )
    kinds = {w["kind"] for w in doc["workloads"]}
    model: vocabulary.Model | None = None
    if "model" in doc:
        m = doc["model"]
        arch: vocabulary.Architecture | None = None
        if "architecture" in m:
            a = m["architecture"]
            parameters, kv_heads = int(a["parameters"]), int(a["kv_heads"])
            k = int(a.get("experts_per_token", 1))
            share = a.get("active_parameter_share")
            arch = vocabulary.Architecture(
                parameters=parameters,
                layers=int(a["layers"]),
                hidden_size=int(a["hidden_size"]),
                intermediate_size=int(a["intermediate_size"]),
                attention_heads=kv_heads * int(a["kv_group_size"]),
                kv_heads=kv_heads,
                vocab_size=int(a["vocab_size"]),
                tied_embeddings=bool(a["tied_embeddings"]),
                head_dim=int(a["head_dim"]),
                experts=k + int(a.get("inactive_experts", 0)),
                experts_per_token=k,
                active_parameters=None
                if share is None
                else max(vocabulary.MIN_ACTIVE_PARAMETERS, round(parameters * float(share))),
            )
        model = vocabulary.Model(preset=m.get("preset"), architecture=arch)
    training: vocabulary.Training | None = None
    if "training" in doc and kinds & vocabulary.TRAINING_KINDS:
        t = doc["training"]
        training = vocabulary.Training(
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
    inference: vocabulary.Inference | None = None
    if "inference" in doc and kinds & vocabulary.INFERENCE_KINDS:
        i = doc["inference"]
        inference = vocabulary.Inference(
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
    work: vocabulary.Work | None = None
    if "work" in doc and kinds & vocabulary.INFERENCE_KINDS:
        w = doc["work"]
        work = vocabulary.Work(
            unit=w["unit"],
            model=w["model"],
            per_day=float(w["per_day"]),
            p95_latency_ms=_opt_float(w.get("p95_latency_ms")),
            peak_to_average=_opt_float(w.get("peak_to_average")),
        )
        inference = None
    return vocabulary.Answers(
        schema_version=vocabulary.SCHEMA_VERSION,
        organization=vocabulary.Organization(org["industry"], tuple(org["regions"])),
        workloads=tuple(vocabulary.Workload(w["kind"], w["schedule"]) for w in doc["workloads"]),
        maturity=vocabulary.Maturity(mat["stack_changes"], mat["pipeline"], mat["demand"]),
        frameworks=vocabulary.Frameworks(
            fw["primary"],
            tuple(fw.get("others", ())),
            bool(fw["custom_kernels"]),
            fw["serving"],
            tuple(fw.get("kernel_architectures", ())),
        ),
        deployment=vocabulary.Deployment(
            tuple(dep["allowed_modes"]),
            tuple(dep.get("clouds", ())),
            dep["portability"],
            bool(dep.get("china_connectivity", china_by_region(org["regions"]))),
            dep["data_residency"],
        ),
        cost=vocabulary.Cost(
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


def _same_as_the_reference(doc: Any) -> None:
    doc = json.loads(json.dumps(doc))
    parsed = parse_answers(doc)
    assert parsed == _reference_parse(doc)
    assert repr(parsed) == repr(_reference_parse(doc))  # the same types (1 == 1.0 == True)
    assert parse_answers(parsed.to_dict()) == parsed


@pytest.mark.parametrize("doc", [SAMPLE, JAX_PRETRAIN], ids=["sample", "jax_pretrain"])
def test_the_samples_parse_as_the_reference_does(doc: dict[str, Any]) -> None:
    _same_as_the_reference(doc)


@settings(max_examples=200, deadline=None)
@given(answers_docs())
def test_a_generated_team_parses_as_the_reference_does(doc: dict[str, Any]) -> None:
    _same_as_the_reference(doc)


_SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much]


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=_SLOW)
@given(
    st.one_of(
        build(answers_schema(), draft=_DRAFT_2020_12, formats={}),
        build(schema_doc(2), draft=_DRAFT_2020_12, formats={}),
    )
)
def test_every_schema_valid_document_parses_as_the_reference_does(doc: Any) -> None:
    assume(not validate(doc))  # version 2's cross-field rules, which its schema cannot state
    _same_as_the_reference(doc)


_SECTIONS = (
    vocabulary.Organization,
    vocabulary.Workload,
    vocabulary.Maturity,
    vocabulary.Frameworks,
    vocabulary.Deployment,
    vocabulary.Cost,
    vocabulary.Architecture,
    vocabulary.Model,
    vocabulary.Training,
    vocabulary.Inference,
    vocabulary.Work,
)
# The attributes parse.py (or architecture_from) states itself, not as a plain read.
_STATED = {
    "deployment.china_connectivity",  # from the regions when left out
    "model.architecture",
    "model.architecture.attention_heads",
    "model.architecture.experts",
    "model.architecture.experts_per_token",
    "model.architecture.active_parameters",
}


@pytest.mark.parametrize("cls", _SECTIONS, ids=lambda c: c.PATH)
def test_every_typed_attribute_is_a_registry_answer_or_stated_by_the_parser(
    cls: type[Section],
) -> None:
    for f in dataclasses.fields(cls):
        path = f"{cls.PATH}.{f.name}"
        if f.name == "extra" or path in _STATED:
            continue
        entry = fields.by_path(path)
        assert entry is not None and entry.type in fields.ANSWER_TYPES, path


def test_an_answer_by_name_is_the_typed_attribute_or_refused() -> None:
    cost = parse_answers(SAMPLE).cost
    assert cost.answer("hours_per_day") == cost.hours_per_day
    with pytest.raises(KeyError, match="most_servers"):
        cost.answer("most_servers")
    with pytest.raises(KeyError):
        cost.answer("extra")
    # Registry-only answers are not attributes, so mypy sees every misspelled attribute.
    assert not hasattr(cost, "hours_a_day")
