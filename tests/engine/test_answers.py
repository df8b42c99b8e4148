from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from advisor.engine import AnswersError, Problem, answers_schema, check_partial, parse_answers
from advisor.engine.answers import problems as engine_problems
from advisor.engine.answers.cross_field import cross_field_problems
from advisor.engine.answers.problems import draft_problems, validate
from advisor.engine.answers.schema import schema_doc, validator
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.answers.vocabulary import MAX_CONTEXT_TOKENS
from advisor.engine.text.i18n import LANGS, MESSAGES
from advisor.engine.text.labels import GROUPS
from tests.engine.conftest import DELETE, SAMPLE, sample
from tests.engine.strategies import answers_docs, draft_docs


def problems_of(doc: Any) -> list[tuple[str, str]]:
    with pytest.raises(AnswersError) as info:
        parse_answers(doc)
    return [(p.path, p.code) for p in info.value.problems]


def test_the_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(answers_schema())


def test_the_schema_is_a_fresh_copy_each_time() -> None:
    schema = answers_schema()
    schema["properties"].clear()
    assert answers_schema()["properties"]


def test_the_sample_parses_into_frozen_dataclasses() -> None:
    answers = parse_answers(SAMPLE)
    assert answers.kinds == ("fine_tuning", "realtime_inference")
    assert answers.training is not None and answers.training.lora_rank == 16
    with pytest.raises(AttributeError):
        answers.cost.hours_per_day = 3  # type: ignore[misc]


def test_to_dict_round_trips() -> None:
    answers = parse_answers(SAMPLE)
    assert parse_answers(answers.to_dict()) == answers


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({"cost.hours_per_day": "eight"}, ("cost.hours_per_day", "type")),
        ({"cost.hours_per_day": 25}, ("cost.hours_per_day", "maximum")),
        ({"cost.hours_per_day": -1}, ("cost.hours_per_day", "minimum")),
        ({"training.micro_batch_size": 0}, ("training.micro_batch_size", "minimum")),
        ({"training.micro_batch_size": 1.5}, ("training.micro_batch_size", "type")),
        ({"inference.prompt_tokens": 3_000_000}, ("inference.prompt_tokens", "maximum")),
        ({"inference.prompt_tokens": -1}, ("inference.prompt_tokens", "minimum")),
        ({"inference.context_tokens": 4096}, ("inference.context_tokens", "unknown_key")),
        ({"maturity.demand": "sometimes"}, ("maturity.demand", "enum")),
        ({"frameworks.primary": "PyTorch"}, ("frameworks.primary", "enum")),
        ({"organization.regions": []}, ("organization.regions", "min_items")),
        ({"organization.regions": ["tokyo", "tokyo"]}, ("organization.regions", "unique_items")),
        ({"deployment.colour": "blue"}, ("deployment.colour", "unknown_key")),
        ({"extra": 1}, ("extra", "unknown_key")),
        ({"schema_version": 4}, ("schema_version", "schema_version")),
        ({"cost": DELETE}, ("cost", "required")),
        ({"maturity.pipeline": DELETE}, ("maturity.pipeline", "required")),
        ({"training": DELETE}, ("training", "section_required")),
        ({"inference": DELETE}, ("inference", "section_required")),
        ({"model": DELETE}, ("model", "model_required")),
        ({"training.lora_rank": DELETE}, ("training.lora_rank", "lora_rank_required")),
        ({"model": {"preset": "gpt-5"}}, ("model.preset", "enum")),
        ({"model": {}}, ("model", "model_one_of")),
        ({"workloads.1.kind": "fine_tuning"}, ("workloads[1].kind", "duplicate_workload")),
        ({"workloads.0.kind": "training"}, ("workloads[0].kind", "enum")),
        ({"workloads.1.cadence": "daily"}, ("workloads[1].cadence", "unknown_key")),
        (
            {
                "deployment.allowed_modes": ["public_cloud"],
                "deployment.data_residency": "on_premises_only",
            },
            ("deployment.data_residency", "residency_needs_on_premises"),
        ),
    ],
)
def test_bad_input_is_reported_at_its_path(
    overrides: dict[str, Any], expected: tuple[str, str]
) -> None:
    assert expected in problems_of(sample(**overrides))


def test_a_10_to_the_15_parameter_model_is_rejected_with_a_clear_message() -> None:
    arch = {
        "parameters": 10**15,
        "layers": 32,
        "hidden_size": 4096,
        "intermediate_size": 14336,
        "kv_heads": 8,
        "kv_group_size": 4,
        "head_dim": 128,
        "vocab_size": 128256,
        "tied_embeddings": False,
    }
    with pytest.raises(AnswersError) as info:
        parse_answers(sample(model={"architecture": arch}))
    [problem] = info.value.problems
    assert problem.path == "model.architecture.parameters"
    assert "at most 10,000,000,000,000" in problem.message()
    assert "不得大於" in problem.message("zh-hant")


def test_kv_heads_must_divide_attention_heads_in_a_version_2_document() -> None:
    arch = {
        "parameters": 10**9,
        "layers": 8,
        "hidden_size": 1024,
        "intermediate_size": 4096,
        "attention_heads": 16,
        "kv_heads": 3,
        "vocab_size": 32000,
        "tied_embeddings": True,
    }
    assert ("model.architecture.kv_heads", "kv_heads_divide") in problems_of(
        sample(schema_version=2, model={"architecture": arch})
    )


def test_every_problem_is_collected_not_just_the_first() -> None:
    found = problems_of(
        sample(
            **{
                "cost.hours_per_day": 99,
                "maturity.demand": "x",
                "deployment.zzz": 1,
                "training.epochs": 0,
            }
        )
    )
    assert {
        ("cost.hours_per_day", "maximum"),
        ("maturity.demand", "enum"),
        ("deployment.zzz", "unknown_key"),
        ("training.epochs", "exclusive_minimum"),
    } <= set(found)


def test_a_non_object_document_is_one_root_problem() -> None:
    assert problems_of([1, 2]) == [("", "not_object")]


def test_sections_that_do_not_apply_are_accepted_and_ignored() -> None:
    doc = sample(workloads=[{"kind": "realtime_inference", "schedule": "continuous"}])
    answers = parse_answers(doc)
    assert answers.training is None and answers.inference is not None


def test_optional_fields_take_their_documented_defaults() -> None:
    doc = sample()
    del doc["frameworks"]["others"], doc["deployment"]["clouds"], doc["cost"]["monthly_budget_usd"]
    del (
        doc["training"]["epochs"],
        doc["training"]["deadline_hours"],
        doc["inference"]["p95_latency_ms"],
    )
    answers = parse_answers(doc)
    assert answers.frameworks.others == () and answers.deployment.clouds == ()
    assert answers.training is not None and answers.training.epochs == 1.0
    assert answers.training.deadline_hours is None


def test_check_partial_accepts_an_empty_draft() -> None:
    assert check_partial({}) == []


def test_check_partial_still_reports_wrong_values() -> None:
    found = {
        (p.path, p.code)
        for p in check_partial(
            {"cost": {"hours_per_day": 30, "colour": 1}, "maturity": {"demand": 3}}
        )
    }
    assert found == {
        ("cost.hours_per_day", "maximum"),
        ("cost.colour", "unknown_key"),
        ("maturity.demand", "type"),
    }


@settings(max_examples=150, deadline=None)
@given(draft_docs())
def test_check_partial_never_raises(draft: dict[str, Any]) -> None:
    for p in check_partial(draft):
        assert isinstance(p, Problem)
        assert p.message("en") and p.message("zh-hant")


@settings(max_examples=100, deadline=None)
@given(answers_docs())
def test_generated_documents_are_valid(doc: dict[str, Any]) -> None:
    parse_answers(json.loads(json.dumps(doc)))


def test_every_message_exists_in_both_languages() -> None:
    for code, entry in MESSAGES.items():
        assert set(entry) == set(LANGS), code
        assert all(entry[lang].strip() for lang in LANGS), code
    for group, values in GROUPS.items():
        for value, label in values.items():
            for lang in LANGS:
                assert label.shown(lang).strip() and label.in_text(lang).strip(), (group, value)


def test_astronomically_large_numbers_get_a_bound_message_not_an_overflow() -> None:
    from advisor.engine.answers.problems import check_partial

    problems = check_partial({"training": {"micro_batch_size": 10**400}})
    assert [(p.path, p.code) for p in problems] == [("training.micro_batch_size", "maximum")]
    assert "1e400" in problems[0].message("en")


_VALID = answers_docs()


@st.composite
def _damaged(draw: st.DrawFn) -> dict[str, Any]:
    """A valid document with a few values removed or replaced by wrong ones (lists emptied,
    numbers out of range, both model choices, a LoRA rank dropped...)."""
    doc = json.loads(json.dumps(draw(_VALID)))
    wrong = st.sampled_from([None, "", -1, 0, 10**12, [], {}, "nope", True, 1.5])
    for _ in range(draw(st.integers(1, 4))):
        section = draw(st.sampled_from(sorted(doc)))
        node = doc[section]
        if isinstance(node, dict) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node)))
            if draw(st.booleans()):
                del node[key]
            else:
                node[key] = draw(wrong)
        elif draw(st.booleans()):
            del doc[section]
        else:
            doc[section] = draw(wrong)
    if isinstance(doc.get("model"), dict) and draw(st.booleans()):
        doc["model"]["architecture"] = {"parameters": 7}
    return doc


@settings(max_examples=300, deadline=None)
@given(st.one_of(draft_docs(), answers_docs(), _damaged()))
def test_a_drafts_problems_are_a_complete_validations_less_what_is_missing(
    doc: dict[str, Any],
) -> None:
    # The wizard validates a save once and takes the draft's problems from the full ones.
    assert draft_problems(validate(doc)) == check_partial(doc)


def _whole_schema_problems(doc: dict[str, Any], partial: bool) -> list[tuple[str, str, str]]:
    """What the published schema finds in one jsonschema pass over the whole document (as the
    engine validated before it checked section by section), plus the cross-field rules."""
    bounded, found = engine_problems._bounded(doc, schema_doc(), [])
    found += [
        p
        for error in validator(partial).iter_errors(bounded)
        for p in engine_problems._schema_problems(error)
    ]
    found += cross_field_problems(bounded, partial=partial)
    typed = {p.path for p in found if p.code == "type"}
    too_long = {p.path for p in found if p.code == "max_length"}
    # A wrong schema_version first (the rest were judged by the current version), then by path.
    return sorted(
        {
            (p.path, p.code, json.dumps(p.params, sort_keys=True, default=str))
            for p in found
            if (p.code == "type" or p.path not in typed)
            and (p.code != "enum" or p.path not in too_long)
        },
        key=lambda key: (key[1] != "schema_version", key),
    )


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(draft_docs(), answers_docs(), _damaged()),
    st.one_of(draft_docs(), answers_docs(), _damaged()),
)
def test_a_document_checked_section_by_section_has_the_whole_schemas_problems(
    doc: dict[str, Any], seen: dict[str, Any]
) -> None:
    # Sections already checked (here: those of `seen`, and of doc itself on the second call)
    # are remembered by value; whatever was seen before, the answer is the same.
    engine_problems._MEMO.clear()
    validate(seen)
    check_partial(seen)
    mixed = {**doc, **{k: v for k, v in seen.items() if k in ("cost", "model", "workloads")}}
    expected: dict[tuple[int, bool], list[tuple[str, str, str]]] = {}  # the reference, once a doc
    for checked in (doc, mixed, doc):
        for partial, found in ((False, validate(checked)), (True, check_partial(checked))):
            keys = [
                (p.path, p.code, json.dumps(p.params, sort_keys=True, default=str)) for p in found
            ]
            if (id(checked), partial) not in expected:
                expected[id(checked), partial] = _whole_schema_problems(checked, partial)
            assert keys == expected[id(checked), partial], (checked, partial)


def test_a_section_is_remembered_by_its_exact_value() -> None:
    one = sample(**{"cost.hours_per_day": 8})
    assert validate(one) == []
    # 8.5, True and "8" print differently from 8, and are checked again, not remembered.
    assert [p.code for p in validate(sample(**{"cost.hours_per_day": "8"}))] == ["type"]
    assert [p.code for p in validate(sample(**{"cost.hours_per_day": True}))] == ["type"]
    assert validate(sample(**{"cost.hours_per_day": 8.5})) == []
    workloads = [dict(w) for w in SAMPLE["workloads"]]
    as_tuple = {**SAMPLE, "workloads": tuple(workloads)}
    assert validate({**SAMPLE, "workloads": workloads}) == []
    assert [p.path for p in validate(as_tuple)] == ["workloads"]


# --- China reach asked once; operations headcount and region; problems in words


@pytest.mark.parametrize(
    ("regions", "expected"),
    [(["hong_kong", "mainland_china"], True), (["hong_kong", "singapore"], False)],
)
def test_china_reach_left_out_follows_the_regions(regions: list[str], expected: bool) -> None:
    doc = sample(**{"organization.regions": regions, "deployment.china_connectivity": DELETE})
    assert validate(doc) == []
    assert parse_answers(doc).deployment.china_connectivity is expected


def test_a_stored_china_answer_is_kept_as_it_was() -> None:
    # The sample is a Hong Kong and Singapore team that reaches mainland China.
    assert "mainland_china" not in SAMPLE["organization"]["regions"]
    assert parse_answers(SAMPLE).deployment.china_connectivity is True
    off = sample(
        **{"organization.regions": ["mainland_china"], "deployment.china_connectivity": False}
    )
    assert parse_answers(off).deployment.china_connectivity is False


def test_ops_headcount_and_region_are_optional_and_round_trip() -> None:
    assert "ops_headcount" not in parse_answers(SAMPLE).to_dict()["cost"]
    doc = sample(**{"cost.ops_headcount": 2, "cost.ops_region": "hong_kong"})
    answers = parse_answers(doc)
    assert (answers.cost.ops_headcount, answers.cost.ops_region) == (2, "hong_kong")
    assert parse_answers(answers.to_dict()) == answers


@pytest.mark.parametrize(
    ("path", "value", "code"),
    [
        ("cost.ops_headcount", -1, "minimum"),
        ("cost.ops_headcount", 10_001, "maximum"),
        ("cost.ops_headcount", 1.5, "type"),
        ("cost.ops_region", "mars", "enum"),
    ],
)
def test_ops_headcount_and_region_are_bounded(path: str, value: Any, code: str) -> None:
    assert (path, code) in problems_of(sample(**{path: value}))


@pytest.mark.parametrize(
    ("doc", "lang", "expected"),
    [
        ({"schema_version": 1}, "en", "Organisation is required"),
        ({"schema_version": 1}, "en", "Workloads are required"),
        ({"schema_version": 1}, "zh-hant", "必須填寫組織"),
        (
            sample(**{"cost.hours_per_day": 25}),
            "en",
            "Hours of use per day must be at most 24 hours a day, not 25",
        ),
        (
            sample(**{"cost.hours_per_day": 25}),
            "zh-hant",
            "每日使用時數不得大於每天 24 小時（收到 25）",
        ),
        (
            sample(**{"inference.p95_latency_ms": 0}),
            "en",
            "p95 latency target (ms) must be more than 0 ms, not 0",
        ),
        (sample(**{"organization.regions": []}), "en", "Regions: choose at least one"),
        (
            sample(**{"cost.hours_per_day": "eight"}),
            "en",
            "Hours of use per day must be a number, not text",
        ),
        (
            sample(**{"maturity.demand": "x"}),
            "en",
            'Demand cannot be "x"; choose from: unpredictable, seasonal, predictable',
        ),
        (
            sample(**{"training.method": "lora", "training.lora_rank": DELETE}),
            "en",
            "The LoRA rank is required for LoRA",
        ),
        (
            sample(**{"cost.ops_headcount": -2}),
            "en",
            "Operations headcount must be at least 0 people, not -2",
        ),
        (sample(**{"cost.ops_headcount": -2}), "zh-hant", "維運人數不得小於 0 人（收到 -2）"),
    ],
)
def test_problems_name_their_field_in_words_and_bounds_as_sentences(
    doc: dict[str, Any], lang: str, expected: str
) -> None:
    assert expected in [p.message(lang) for p in validate(doc)]


@pytest.mark.parametrize("lang", LANGS)
def test_no_problem_message_shows_a_raw_field_name(lang: str) -> None:
    docs = [
        {"schema_version": 1},
        sample(**{"cost.hours_per_day": 25, "training.sequence_length": 0, "cost.ops_region": 3}),
        sample(**{"model": {"architecture": {"layers": 0}}}),
        sample(**{"deployment.data_residency": "on_premises_only"}),
    ]
    for doc in docs:
        for problem in validate(doc):
            text = problem.message(lang)
            assert "'" not in text.replace("'s", ""), text
            for raw in (
                "hours_per_day",
                "sequence_length",
                "ops_region",
                "hidden_size",
                "kv_heads",
            ):
                assert raw not in text, text


# --- answers version 2: prompt and output tokens; version 1 read through upgrade_answers


def _v1(**inference: Any) -> dict[str, Any]:
    """SAMPLE as version 1 wrote it: a context (prompt + output) instead of the prompt."""
    doc = sample(**{"schema_version": 1, "inference.prompt_tokens": DELETE})
    doc["inference"] = {
        "precision": "bf16",
        "context_tokens": 8192,
        "output_tokens": 512,
        **{k: v for k, v in SAMPLE["inference"].items() if k not in ("prompt_tokens",)},
        **inference,
    }
    return doc


def test_the_sample_is_version_3_with_a_prompt_and_an_output() -> None:
    assert SAMPLE["schema_version"] == 3
    assert {"prompt_tokens", "output_tokens"} <= set(SAMPLE["inference"])
    assert "context_tokens" not in SAMPLE["inference"]
    inference = parse_answers(SAMPLE).inference
    assert inference is not None
    # What the engine sizes the KV cache for: the prompt plus the output.
    assert inference.context_tokens == inference.prompt_tokens + inference.output_tokens == 8192


def test_a_version_1_document_is_read_as_version_2_with_the_same_context() -> None:
    v1 = _v1(context_tokens=8192, output_tokens=512)
    assert validate(v1) == []
    assert upgrade_answers(v1) == SAMPLE
    assert list(upgrade_answers(v1)["inference"])[:3] == [
        "precision",
        "prompt_tokens",
        "output_tokens",
    ]
    assert parse_answers(v1) == parse_answers(SAMPLE)
    assert parse_answers(v1).to_dict()["schema_version"] == 3


def test_a_version_1_context_of_only_its_output_is_a_prompt_of_none() -> None:
    inference = parse_answers(_v1(context_tokens=512, output_tokens=512)).inference
    assert inference is not None
    assert (inference.prompt_tokens, inference.context_tokens) == (0, 512)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "cannot be more than the context tokens (8,192)"),
        ("zh-hant", "不得超過上下文 token 數（8,192）"),
    ],
)
def test_a_version_1_document_whose_output_exceeds_its_context_is_refused_by_name(
    lang: str, words: str
) -> None:
    with pytest.raises(AnswersError) as info:
        parse_answers(_v1(context_tokens=8192, output_tokens=9000))
    [problem] = info.value.problems
    assert (problem.path, problem.code) == ("inference.output_tokens", "output_exceeds_context")
    assert words in problem.message(lang)
    # A draft is held to it too: both numbers are there, and they contradict each other.
    assert [(p.path, p.code) for p in check_partial(_v1(output_tokens=9000))] == [
        ("inference.output_tokens", "output_exceeds_context")
    ]


def test_version_1s_schema_is_version_2s_with_a_context_for_the_prompt() -> None:
    v1, v2 = answers_schema(1), answers_schema(2)
    Draft202012Validator.check_schema(v1)
    assert v1["properties"]["schema_version"]["const"] == 1
    assert v2["properties"]["schema_version"]["const"] == 2
    inference_v1, inference_v2 = v1["properties"]["inference"], v2["properties"]["inference"]
    assert (
        "context_tokens" in inference_v1["required"]
        and "prompt_tokens" not in inference_v1["properties"]
    )
    assert (
        "prompt_tokens" in inference_v2["required"]
        and "context_tokens" not in inference_v2["properties"]
    )
    for doc in (v1, v2):
        doc["properties"].pop("inference")
        doc["properties"].pop("schema_version")
        for key in ("$id", "title", "description"):
            doc.pop(key)
    assert v1 == v2


def test_a_version_1_draft_keeps_what_it_can_say_in_version_2() -> None:
    # A context without its output cannot be split; an output alone means the same in both.
    draft = {"schema_version": 1, "inference": {"context_tokens": 4096, "traffic": "steady"}}
    assert check_partial(draft) == []
    assert upgrade_answers(draft) == {"schema_version": 3, "inference": {"traffic": "steady"}}
    draft = {"schema_version": 1, "inference": {"output_tokens": 256}}
    assert upgrade_answers(draft) == {"schema_version": 3, "inference": {"output_tokens": 256}}
    # Any other version, and anything not a document, comes back as it is.
    assert upgrade_answers(SAMPLE) is SAMPLE
    assert upgrade_answers([1]) == [1]


@settings(max_examples=200, deadline=None)
@given(
    prompt=st.integers(0, MAX_CONTEXT_TOKENS),
    output=st.integers(1, MAX_CONTEXT_TOKENS),
)
def test_any_prompt_and_output_within_their_bounds_are_valid_together(
    prompt: int, output: int
) -> None:
    # The rule JSON Schema could not state (output <= context) has nothing left to check: every
    # pair the published schema accepts, the engine accepts.
    doc = sample(**{"inference.prompt_tokens": prompt, "inference.output_tokens": output})
    assert Draft202012Validator(answers_schema()).is_valid(doc)
    assert validate(doc) == []
