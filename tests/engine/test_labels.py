from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog, load_scoring_model
from advisor.engine.answers import fields, vocabulary
from advisor.engine.answers.schema import answers_schema
from advisor.engine.bench import variants
from advisor.engine.explain.summary import text_summary
from advisor.engine.text import i18n, labels
from tests.engine.conftest import JAX_PRETRAIN, SAMPLE, sample
from tests.engine.strategies import answers_docs

CATALOG = load_catalog()
SCORING = load_scoring_model()

# Raw answer values (snake_case) and answer paths (dotted); source files such as
# "deployment_costs.md" or "sizing.md" are citations, not answers.
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
DOTTED = re.compile(r"\b[a-z_]+(?:\[\d+\])?\.[a-z_]+\b")
CITATIONS = {"deployment_costs"}


def _raw_snake(text: str) -> list[str]:
    return [m for m in SNAKE.findall(text) if m not in CITATIONS]


def _raw_paths(text: str) -> list[str]:
    return [m for m in DOTTED.findall(text) if not m.endswith(".md")]


def explanations(result: dict[str, Any]) -> list[str]:
    rec = result["recommendation"]
    out = [r["explanation"] for r in rec["reasons"]]
    out += [w["explanation"] for w in rec["would_change_if"]]
    out += [e["reason"] for e in rec["excluded"]]
    out += [rec["billing_reason"], rec["split_note"] or ""]
    for w in result["workloads"]:
        out += [r["explanation"] for r in w["reasons"]]
    return out


STARTER_LIKE = [
    SAMPLE,
    JAX_PRETRAIN,
    sample(**{"deployment.allowed_modes": ["bare_metal"], "frameworks.serving": "tensorrt_llm"}),
    sample(
        **{
            "deployment.data_residency": "in_region",
            "organization.regions": ["hong_kong", "mainland_china"],
            "cost.billing": "pay_as_you_go",
            "cost.ops_capacity": "none",
        }
    ),
    *(a.to_dict() for a in variants(30, seed=3)),
]


@pytest.mark.parametrize("doc", STARTER_LIKE)
def test_chinese_explanations_show_no_raw_answer_values_or_paths(doc: dict[str, Any]) -> None:
    result = evaluate(doc, CATALOG, SCORING, lang="zh-hant")
    for text in [*explanations(result), text_summary(result, "zh-hant")]:
        assert not _raw_snake(text), text
        assert not _raw_paths(text), text


@pytest.mark.parametrize("doc", STARTER_LIKE)
def test_english_explanations_show_no_answer_paths(doc: dict[str, Any]) -> None:
    result = evaluate(doc, CATALOG, SCORING)
    for text in explanations(result):
        assert not _raw_paths(text), text
        assert not _raw_snake(text), text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers_docs())
def test_no_document_leaks_raw_values_into_chinese_explanations(doc: dict[str, Any]) -> None:
    result = evaluate(doc, CATALOG, SCORING, lang="zh-hant")
    for text in explanations(result):
        assert not _raw_snake(text) and not _raw_paths(text), text


def test_machine_fields_keep_paths_and_values(catalog: Catalog, scoring: ScoringModel) -> None:
    rec = evaluate(JAX_PRETRAIN, catalog, scoring, lang="zh-hant")["recommendation"]
    assert {r["answer_path"] for r in rec["reasons"]} >= {"frameworks.primary"}
    [change] = rec["would_change_if"][0]["changes"]
    assert "." in change["answer_path"] and change["from"] is not None


ENUMS = {
    "organization.industry": vocabulary.INDUSTRIES,
    "organization.regions": vocabulary.REGIONS,
    "workloads[].kind": vocabulary.WORKLOAD_KINDS,
    "workloads[].schedule": vocabulary.SCHEDULES,
    "maturity.stack_changes": vocabulary.STACK_CHANGES,
    "maturity.pipeline": vocabulary.PIPELINES,
    "maturity.demand": vocabulary.DEMANDS,
    "frameworks.primary": vocabulary.FRAMEWORKS,
    "frameworks.others": vocabulary.FRAMEWORKS,
    "frameworks.serving": vocabulary.SERVING,
    "deployment.allowed_modes": vocabulary.MODES,
    "deployment.clouds": vocabulary.CLOUDS,
    "deployment.portability": vocabulary.PORTABILITY,
    "deployment.data_residency": vocabulary.RESIDENCY,
    "cost.billing": vocabulary.BILLING,
    "cost.ops_capacity": vocabulary.OPS_CAPACITY,
    "training.method": vocabulary.TRAINING_METHODS,
    "training.precision": vocabulary.TRAINING_PRECISIONS,
    "training.optimizer": vocabulary.OPTIMIZERS,
    "inference.precision": vocabulary.INFERENCE_PRECISIONS,
    "inference.traffic": vocabulary.TRAFFIC,
}


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize(("path", "values"), ENUMS.items())
def test_every_enum_value_of_answers_v1_has_a_label(
    path: str, values: tuple[str, ...], lang: str
) -> None:
    for value in values:
        text = i18n.value_label(path, value, lang)
        assert text and not _raw_snake(text), (path, value)
    assert i18n.field_label(path, lang) != path


def test_every_answer_path_has_a_field_label() -> None:
    schema = answers_schema()

    def paths(node: dict[str, Any], prefix: str) -> list[str]:
        out = []
        if node.get("type") == "array" and isinstance(node.get("items"), dict):
            return paths(node["items"], prefix + "[]")
        for name, sub in node.get("properties", {}).items():
            path = f"{prefix}.{name}" if prefix else name
            out.append(path)
            out += paths(sub, path)
        for alt in node.get("oneOf", []) + node.get("anyOf", []):
            out += paths(alt, prefix)
        return out

    found = set(paths(schema, ""))
    assert {"cost.billing", "workloads[].schedule", "model.architecture.kv_heads"} <= found
    assert not {p for p in found if p not in fields.labels()}


@pytest.mark.parametrize(("path", "values"), ENUMS.items())
def test_every_enum_value_has_its_label_in_the_one_table(
    path: str, values: tuple[str, ...]
) -> None:
    group = labels.GROUPS[labels.PATH_GROUPS[path]]
    assert set(values) <= set(group), path
    for value in values:
        assert labels.shown(labels.PATH_GROUPS[path], value, "zh-hant") != value, (path, value)


def test_a_value_outside_the_plain_words_reads_the_same_in_every_answer() -> None:
    # i18n.label (no answer path known) relies on it: "any" holds the words where answers differ.
    for value in {v for group in labels.GROUPS.values() for v in group} - set(labels.GROUPS["any"]):
        texts = {
            (label.in_text("en"), label.in_text("zh-hant"))
            for name in ("accelerator", *labels.GROUP_PATHS)
            if (label := labels.GROUPS[name].get(value)) is not None
        }
        assert len(texts) <= 1, (value, texts)
