"""Answers version 3: a custom architecture stated by numbers that are each free within their
bounds, so that every document the published schema accepts is one the engine accepts; and the
version 1 and 2 documents it replaces, read as version 3 with the same sizing."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.generation.jsonschema.builder import build

from advisor.engine import AnswersError, Catalog, ScoringModel, evaluate, parse_answers, sizing
from advisor.engine.answers.problems import check_partial, validate
from advisor.engine.answers.schema import answers_draft_schema, answers_schema
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.answers.vocabulary import MAX_HEAD_DIM, SCHEMA_VERSION, SCHEMA_VERSIONS
from tests.engine.conftest import SAMPLE

# The generator Schemathesis draws API requests from (draft 2020-12), here on the answers schema
# alone: what it found through the API (a schema-valid create refused) shows up in milliseconds.
_DRAFT_2020_12 = 20

MIXTRAL_V2 = {
    "parameters": 46_702_792_704,
    "layers": 32,
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "attention_heads": 32,
    "kv_heads": 8,
    "vocab_size": 32000,
    "tied_embeddings": False,
    "experts": 8,
    "experts_per_token": 2,
    "active_parameters": 12_879_925_248,
}
MIXTRAL_V3 = {
    "parameters": 46_702_792_704,
    "layers": 32,
    "hidden_size": 4096,
    "intermediate_size": 14336,
    "kv_heads": 8,
    "kv_group_size": 4,
    "head_dim": 128,
    "vocab_size": 32000,
    "tied_embeddings": False,
    "experts_per_token": 2,
    "inactive_experts": 6,
    "active_parameter_share": 12_879_925_248 / 46_702_792_704,
}


def _with_architecture(arch: dict[str, Any], version: int = SCHEMA_VERSION) -> dict[str, Any]:
    doc = copy.deepcopy(SAMPLE)
    doc["schema_version"] = version
    doc["model"] = {"architecture": copy.deepcopy(arch)}
    return doc


def _codes(problems: list[Any]) -> set[tuple[str, str]]:
    return {(p.path, p.code) for p in problems}


@settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(build(answers_schema(), draft=_DRAFT_2020_12, formats={}))
def test_every_document_valid_by_the_published_schema_is_accepted(doc: Any) -> None:
    # Version 2 failed this within a few dozen examples (kv_heads_divide, heads_divide_hidden,
    # experts_per_token_exceed, active_exceeds_total); version 3 leaves no rule to the fields'
    # descriptions, so the engine's validation and the schema agree on every document.
    assert validate(doc) == []
    answers = parse_answers(json.loads(json.dumps(doc)))
    assert parse_answers(answers.to_dict()) == answers


@settings(max_examples=200, deadline=None, database=None)
@given(build(answers_draft_schema(), draft=_DRAFT_2020_12, formats={}))
def test_every_draft_valid_by_the_published_draft_schema_is_accepted(draft: Any) -> None:
    assert check_partial(draft) == []


@settings(max_examples=300, deadline=None, database=None)
@given(
    build(
        answers_schema()["properties"]["model"]["properties"]["architecture"],
        draft=_DRAFT_2020_12,
        formats={},
    )
)
def test_every_schema_valid_architecture_sizes_to_finite_figures(arch: dict[str, Any]) -> None:
    doc = _with_architecture(arch)
    if ("experts_per_token" in arch) != ("inactive_experts" in arch):
        # The schema's allOf (and the engine) ask both routing numbers of a mixture of experts.
        assert {p.code for p in validate(doc)} <= {
            "experts_k_required",
            "inactive_experts_required",
        }
        return
    parsed = parse_answers(doc).model
    assert parsed is not None and parsed.architecture is not None
    a = parsed.architecture
    assert a.attention_heads == arch["kv_heads"] * arch["kv_group_size"]
    assert a.experts_per_token <= a.experts
    assert a.active_parameters is None or 0 < a.active_parameters <= a.parameters
    shape = sizing.shape_from_architecture(a)
    assert math.isfinite(sizing.kv_bytes_per_token(shape)) and sizing.kv_bytes_per_token(shape) > 0
    assert 0 < shape.active <= shape.parameters


def test_the_refused_create_schemathesis_found_has_no_version_3_form_to_refuse() -> None:
    # 196 wide, 181 heads, 635 KV heads: version 2 refuses it with two rules its schema could
    # only describe. Version 3 cannot state it: the heads are kv_heads x kv_group_size.
    v2 = _with_architecture(
        {**MIXTRAL_V2, "hidden_size": 196, "attention_heads": 181, "kv_heads": 635}, version=2
    )
    assert _codes(validate(v2)) == {
        ("model.architecture.hidden_size", "heads_divide_hidden"),
        ("model.architecture.kv_heads", "kv_heads_divide"),
    }
    v3 = _with_architecture(
        {**MIXTRAL_V3, "hidden_size": 196, "kv_heads": 635, "kv_group_size": 1, "head_dim": 8}
    )
    assert validate(v3) == []
    assert parse_answers(v3).model.architecture.attention_heads == 635  # type: ignore[union-attr]


def test_a_version_2_architecture_reads_as_version_3_with_the_same_sizing(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    v2 = _with_architecture(MIXTRAL_V2, version=2)
    v3 = _with_architecture(MIXTRAL_V3)
    assert validate(v2) == [] and validate(v3) == []
    assert upgrade_answers(v2) == v3
    assert parse_answers(v2) == parse_answers(v3)
    # Same numbers in, same result out: only the document's encoding changed.
    assert evaluate(v2, catalog, scoring) == evaluate(v3, catalog, scoring)


@pytest.mark.parametrize(
    ("v2_arch", "v3_fields"),
    [
        # No head_dim given: v2 derived it from the width and the heads.
        (
            {k: v for k, v in MIXTRAL_V2.items() if k not in ("experts", "experts_per_token")},
            {"head_dim": 128, "kv_group_size": 4},
        ),
        # Gemma-7B's head is wider than hidden / heads (3,072 / 16 = 192): head_dim is kept.
        (
            {
                **MIXTRAL_V2,
                "hidden_size": 3072,
                "attention_heads": 16,
                "kv_heads": 16,
                "head_dim": 256,
                "experts": 1,
                "experts_per_token": 1,
            },
            {"head_dim": 256, "kv_group_size": 1},
        ),
    ],
)
def test_version_2_shapes_convert_exactly(
    v2_arch: dict[str, Any], v3_fields: dict[str, Any]
) -> None:
    v2 = _with_architecture(v2_arch, version=2)
    upgraded = upgrade_answers(v2)
    arch = upgraded["model"]["architecture"]
    assert {k: arch[k] for k in v3_fields} == v3_fields
    assert "attention_heads" not in arch and "experts" not in arch
    assert ("inactive_experts" in arch) == (v2_arch.get("experts", 1) > 1)
    assert validate(upgraded) == []
    assert parse_answers(upgraded) == parse_answers(v2)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"attention_heads": 30}, ("model.architecture.kv_heads", "kv_heads_divide")),
        ({"hidden_size": 4001}, ("model.architecture.hidden_size", "heads_divide_hidden")),
        (
            {"experts_per_token": 9},
            ("model.architecture.experts_per_token", "experts_per_token_exceed"),
        ),
        (
            {"active_parameters": 50_000_000_000},
            ("model.architecture.active_parameters", "active_exceeds_total"),
        ),
        # 64 / 16 = a head of 4: valid in version 2, but no head version 3 can state.
        (
            {"hidden_size": 64, "attention_heads": 16, "kv_heads": 8},
            ("model.architecture.hidden_size", "head_dim_out_of_range"),
        ),
    ],
)
def test_a_version_2_document_keeps_its_own_refusals(
    change: dict[str, Any], expected: tuple[str, str]
) -> None:
    for version in (1, 2):
        doc = _with_architecture({**MIXTRAL_V2, **change}, version=version)
        if version == 1:
            inference = doc["inference"]
            inference["context_tokens"] = (
                inference.pop("prompt_tokens") + inference["output_tokens"]
            )
        with pytest.raises(AnswersError) as info:
            parse_answers(doc)
        assert expected in _codes(info.value.problems)
        for p in info.value.problems:
            assert p.message("en") and p.message("zh-hant")


def test_a_derived_head_out_of_range_is_refused_by_name_in_both_languages() -> None:
    doc = _with_architecture(
        {**MIXTRAL_V2, "hidden_size": 131_072, "attention_heads": 64, "kv_heads": 8}, version=2
    )
    [problem] = validate(doc)
    assert problem.code == "head_dim_out_of_range"
    assert problem.message("en") == (
        "The hidden size (131072) over the attention heads (64) makes a head dimension of "
        f"2048, outside 8..{MAX_HEAD_DIM:,}: give the head dimension (schema version 3 asks it "
        "instead)"
    )
    assert "頭維度為 2048" in problem.message("zh-hant")
    # Given explicitly, the same shape is valid and reads as version 3.
    ok = _with_architecture({**doc["model"]["architecture"], "head_dim": 128}, version=2)
    assert validate(ok) == []


@pytest.mark.parametrize("missing", ["experts_per_token", "inactive_experts"])
def test_a_version_3_mixture_of_experts_states_both_routing_numbers(missing: str) -> None:
    arch = {k: v for k, v in MIXTRAL_V3.items() if k != missing}
    problems = validate(_with_architecture(arch))
    code = "experts_k_required" if missing == "experts_per_token" else "inactive_experts_required"
    assert _codes(problems) == {(f"model.architecture.{missing}", code)}
    assert problems[0].message("en") and problems[0].message("zh-hant")
    # A draft may hold one without the other yet.
    assert check_partial({"schema_version": 3, "model": {"architecture": arch}}) == []


def test_version_2_drafts_keep_what_can_be_converted() -> None:
    draft = {
        "schema_version": 2,
        "model": {"architecture": {"hidden_size": 4096, "attention_heads": 32, "experts": 8}},
    }
    assert check_partial(draft) == []
    # The heads without their KV heads and the experts without the experts per token have no
    # version 3 form; the head dimension they imply does.
    assert upgrade_answers(draft) == {
        "schema_version": 3,
        "model": {"architecture": {"hidden_size": 4096, "head_dim": 128}},
    }
    assert check_partial(upgrade_answers(draft)) == []


@settings(max_examples=200, deadline=None, database=None)
@given(
    parameters=st.integers(1_000_000, 10**13),
    share=st.floats(min_value=0, max_value=1, exclude_min=True),
)
def test_an_active_share_rounds_to_a_count_within_the_parameters(
    parameters: int, share: float
) -> None:
    arch = {**MIXTRAL_V3, "parameters": parameters, "active_parameter_share": share}
    a = parse_answers(_with_architecture(arch)).model.architecture  # type: ignore[union-attr]
    assert a is not None and a.active_parameters is not None
    assert 1_000_000 <= a.active_parameters <= parameters


@settings(max_examples=200, deadline=None, database=None)
@given(total=st.integers(1_000_000, 10**13), data=st.data())
def test_a_version_2_active_count_survives_the_share(total: int, data: st.DataObject) -> None:
    active = data.draw(st.integers(1_000_000, total))
    v2 = _with_architecture({**MIXTRAL_V2, "parameters": total, "active_parameters": active}, 2)
    assert parse_answers(v2).model.architecture.active_parameters == active  # type: ignore[union-attr]


def test_every_version_is_still_read() -> None:
    assert SCHEMA_VERSIONS == (1, 2, 3) and SCHEMA_VERSION == 3
    assert answers_schema(2)["properties"]["model"]["properties"]["architecture"]["required"] == [
        "parameters",
        "layers",
        "hidden_size",
        "intermediate_size",
        "attention_heads",
        "kv_heads",
        "vocab_size",
        "tied_embeddings",
    ]
    assert answers_schema(1)["properties"]["schema_version"] == {
        "const": 1,
        "description": "Always 1.",
    }
