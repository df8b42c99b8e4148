"""The new-question recipe (docs/architecture.md), checked with a question the product does not
ask: declared once in the field registry at run time, it reaches the published JSON Schema, the
validation and its problems' words, the labels in both languages, the wizard's step form, the
what-if and the engine, which reads it from the parsed answers by name
(`answers.cost.answer("most_servers")`) and writes it back in the answers' document. No other
file is edited: neither the answers' dataclasses (vocabulary.py) nor the parser."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterator

import pytest
from django.utils import translation

from advisor.engine import evaluate, load_catalog, load_scoring_model, parse_answers
from advisor.engine.answers import fields, parse, problems, schema, sections, vocabulary
from advisor.engine.answers.fields import Field
from advisor.engine.answers.sections import replaced
from advisor.engine.answers.vocabulary import Answers
from advisor.engine.planning.options import planning_key
from advisor.engine.planning.relax.common import with_answer
from advisor.engine.text import i18n
from advisor.forms.base import StepForm, answer_field, step_fields

QUESTION = Field(
    path="cost.most_servers",
    type="integer",
    label=("most servers the team will run", "團隊最多會運行的伺服器數"),
    description="Test only: the most servers the team will run at once.",
    question=("Most servers you will run (optional)", "您最多會運行幾台伺服器（選填）"),
    help=("At once, across every site.", "同時運行、所有據點合計。"),
    minimum=1,
    maximum=10_000,
    unit=("{n} servers", "{n} 台伺服器"),
    plural_en=False,
    step="cost",
    what_if=99,
    what_if_help=("Leave empty for no limit.", "留空表示不設上限。"),
)


def _clear_schema_caches() -> None:
    # What is built once from the schema: the schema itself, its validators, remembered checks.
    for value in vars(schema).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    problems._MEMO.clear()


def _declared(field: Field) -> Iterator[Field]:
    undo = fields.register(field)
    _clear_schema_caches()
    try:
        yield field
    finally:
        undo()
        _clear_schema_caches()


@pytest.fixture
def question() -> Iterator[Field]:
    yield from _declared(QUESTION)


@pytest.fixture
def question_with_default() -> Iterator[Field]:
    yield from _declared(dataclasses.replace(QUESTION, default=12))


def _document(**cost: object) -> dict[str, object]:
    return {
        "schema_version": 3,
        "organization": {"industry": "media", "regions": ["hong_kong"]},
        "workloads": [{"kind": "preprocessing", "schedule": "daily"}],
        "maturity": {"stack_changes": "monthly", "pipeline": "evolving", "demand": "seasonal"},
        "frameworks": {"primary": "pytorch", "custom_kernels": False, "serving": "vllm"},
        "deployment": {
            "allowed_modes": ["public_cloud"],
            "data_residency": "none",
            "portability": "preferred",
        },
        "cost": {
            "billing": "pay_as_you_go",
            "hours_per_day": 8,
            "ops_capacity": "part_time",
            **cost,
        },
    }


def test_the_question_is_unknown_before_it_is_declared() -> None:
    assert "most_servers" not in schema.answers_schema()["properties"]["cost"]["properties"]
    codes = [p.code for p in problems.validate(_document(most_servers=4))]
    assert "unknown_key" in codes


def test_one_declaration_reaches_the_schema_and_the_validation(question: Field) -> None:
    node = schema.answers_schema()["properties"]["cost"]["properties"]["most_servers"]
    assert node == {
        "type": "integer",
        "minimum": 1,
        "maximum": 10_000,
        "description": "Test only: the most servers the team will run at once.",
    }
    assert "most_servers" in schema.answers_draft_schema()["properties"]["cost"]["properties"]
    assert schema.number_range("cost.most_servers") == (1.0, 10_000.0, False)
    assert not problems.validate(_document(most_servers=4))
    [problem] = problems.validate(_document(most_servers=20_000))
    assert problem.path == "cost.most_servers"
    assert "Most servers the team will run" in problem.message("en")
    assert problem.message("en") == (
        "Most servers the team will run must be at most 10,000 servers, not 20,000"
    )
    assert "10,000 台伺服器" in problem.message("zh-hant")


def test_one_declaration_reaches_the_labels_in_both_languages(question: Field) -> None:
    assert i18n.field_label("cost.most_servers") == "most servers the team will run"
    assert i18n.field_label("cost.most_servers", "zh-hant") == "團隊最多會運行的伺服器數"
    assert i18n.field_question("cost.most_servers", "zh-hant") == "您最多會運行幾台伺服器（選填）"
    assert i18n.field_help("cost.most_servers") == "At once, across every site."


def test_one_declaration_reaches_the_step_form_and_the_what_if(question: Field) -> None:
    assert list(step_fields("cost"))[-1] == "most_servers"

    class CostNow(StepForm):  # the cost step's form as it is built when the product starts
        section = "cost"

    field = CostNow.base_fields["most_servers"]
    with translation.override("zh-hant"):
        assert str(field.label) == "您最多會運行幾台伺服器（選填）"
        assert str(field.help_text) == "同時運行、所有據點合計。"
    form = CostNow(data={"most_servers": "1,200"})
    assert form.is_valid()
    assert form.section_value()["most_servers"] == 1200
    assert fields.what_if_fields()[-1] is question
    with translation.override("en"):
        assert str(answer_field("cost.most_servers", what_if=True).help_text) == (
            "Leave empty for no limit."
        )


def _most_servers(answers: Answers) -> int | None:
    # The engine module that would use the answer reads it so (typed Any: mypy takes it as
    # stated here).
    most: int | None = answers.cost.answer("most_servers")
    return most


def test_one_declaration_reaches_the_engine_by_name(question: Field) -> None:
    stated, left_out = parse_answers(_document(most_servers=4)), parse_answers(_document())
    assert _most_servers(stated) == 4
    assert _most_servers(left_out) is None  # the question has no default
    assert stated.cost.hours_per_day == left_out.cost.hours_per_day == 8.0
    # Equality, hashing and what the engine memoises on tell the two apart.
    assert stated != left_out and hash(stated) != hash(left_out)
    assert planning_key(stated) != planning_key(left_out)
    # The answers' document keeps it, and reads back to equal answers.
    assert stated.to_dict()["cost"]["most_servers"] == 4
    assert "most_servers" not in left_out.to_dict()["cost"]
    assert parse_answers(stated.to_dict()) == stated
    # Changing other answers keeps it; the engine's relaxations change it like any answer.
    cheaper = dataclasses.replace(stated.cost, hours_per_day=4.0)
    assert cheaper.answer("most_servers") == 4
    assert with_answer(stated, "cost.most_servers", 6).cost.answer("most_servers") == 6
    assert with_answer(stated, "cost.most_servers", None) == left_out
    assert replaced(left_out.cost, most_servers=4) == stated.cost
    with pytest.raises(TypeError, match="least_servers"):
        replaced(stated.cost, least_servers=1)
    with pytest.raises(KeyError):
        stated.cost.answer("least_servers")
    result = evaluate(_document(most_servers=4), load_catalog(), load_scoring_model())
    assert result == evaluate(_document(), load_catalog(), load_scoring_model())


def test_a_declared_default_is_read_when_the_answer_is_left_out(
    question_with_default: Field,
) -> None:
    left_out = parse_answers(_document())
    assert left_out.cost.answer("most_servers") == 12
    assert left_out == parse_answers(_document(most_servers=12))
    assert "most_servers" not in left_out.to_dict()["cost"]  # only when not the default
    assert parse_answers(_document(most_servers=3)).cost.answer("most_servers") == 3


def test_the_engine_does_not_know_the_question_before_it_is_declared() -> None:
    with pytest.raises(KeyError, match="most_servers"):
        parse_answers(_document()).cost.answer("most_servers")
    for module in (vocabulary, parse, sections):
        assert "most_servers" not in inspect.getsource(module)
