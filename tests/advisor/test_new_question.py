"""The new-question recipe (docs/architecture.md), checked with a question the product does not
ask: declared once in the field registry at run time, it reaches the published JSON Schema, the
validation and its problems' words, the labels in both languages, the wizard's step form and the
what-if. No other table is edited."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from advisor.engine.answers import fields, problems
from advisor.engine.answers import schema as SCH
from advisor.engine.answers.fields import Field
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
    for value in vars(SCH).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    problems._MEMO.clear()


@pytest.fixture
def question() -> Iterator[Field]:
    undo = fields.register(QUESTION)
    _clear_schema_caches()
    try:
        yield QUESTION
    finally:
        undo()
        _clear_schema_caches()


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
    assert "most_servers" not in SCH.answers_schema()["properties"]["cost"]["properties"]
    codes = [p.code for p in problems.validate(_document(most_servers=4))]
    assert "unknown_key" in codes


def test_one_declaration_reaches_the_schema_and_the_validation(question: Field) -> None:
    node = SCH.answers_schema()["properties"]["cost"]["properties"]["most_servers"]
    assert node == {
        "type": "integer",
        "minimum": 1,
        "maximum": 10_000,
        "description": "Test only: the most servers the team will run at once.",
    }
    assert "most_servers" in SCH.answers_draft_schema()["properties"]["cost"]["properties"]
    assert SCH.number_range("cost.most_servers") == (1.0, 10_000.0, False)
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
