from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.utils import translation

from advisor.reference.models import ScoringModel
from advisor.reference.services.scoring import (
    ScoringModelInvalid,
    scoring_model_diff,
    scoring_model_export,
    scoring_model_import,
)

pytestmark = pytest.mark.django_db


def _exported(model: ScoringModel, **changes: Any) -> dict[str, Any]:
    doc = json.loads(scoring_model_export(model=model))
    doc.update(changes)
    return dict(doc)


def _problems(doc: Any) -> list[str]:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(ScoringModelInvalid) as caught:
        scoring_model_import(json_text=text, user=None)
    return caught.value.problems


def test_an_exported_model_imports_back_as_a_draft(active: ScoringModel) -> None:
    doc = _exported(active, version=7)
    doc["criteria"][0]["weight"] = 2.5
    model = scoring_model_import(json_text=json.dumps(doc), user=None)
    assert (model.version, model.status) == (7, "draft")
    assert model.to_document() == doc


def test_broken_json_says_where(active: ScoringModel) -> None:
    [problem] = _problems('{"name": "default", "version": 2,,}')
    assert "not valid JSON" in problem and "line 1, column 34" in problem


def test_wrong_shape_is_refused(active: ScoringModel) -> None:
    assert _problems([1, 2]) == ["The file must hold one JSON object: a scoring model."]
    problems = _problems({"name": "", "version": "two"})
    assert "The model needs a name of 1 to 100 characters." in problems
    assert "The version must be a whole number from 1 up." in problems
    assert "A scoring model needs at least one criterion." in problems


def test_a_duplicate_version_is_refused_with_the_next_free_one(active: ScoringModel) -> None:
    [problem] = _problems(_exported(active))
    assert problem == (
        "Version 1 of default already exists; give the file another version number "
        "(the next free one is 2)."
    )


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"weight": -1}, "Criterion stack_changes: the weight -1 must be more than 0."),
        ({"weight": 0}, "Criterion stack_changes: the weight 0 must be more than 0."),
        (
            {"weight": 1000},
            "Criterion stack_changes: the weight 1000 is too large (weights go up to 10).",
        ),
        ({"weight": "2"}, "Criterion stack_changes: the weight must be a number."),
        ({"contributions": {}}, "Criterion stack_changes: it has no contributions."),
        (
            {"contributions": {"weekly": {"gpu": 0}}},
            "Criterion stack_changes: it gives no points to any option.",
        ),
        (
            {"contributions": {"hourly": {"gpu": 1}}},
            "Criterion stack_changes: hourly is not a value of maturity.stack_changes "
            "(it can be weekly, monthly, quarterly, rarely).",
        ),
        (
            {"contributions": {"weekly": {"fpga": 1}}},
            "Criterion stack_changes: fpga is not an option (the options are gpu, tpu, "
            "public_cloud, dedicated_hosting, bare_metal, private_cloud, on_premises).",
        ),
        (
            {"contributions": {"weekly": {"gpu": 9}}},
            "Criterion stack_changes: weekly → gpu gives 9 points; points are numbers from -5 "
            "to 5 with at most three decimals.",
        ),
        (
            {"answer": "maturity.mood"},
            "Criterion stack_changes: maturity.mood is not an answer the engine reads.",
        ),
        (
            {"applies_to": []},
            "Criterion stack_changes: it must apply to one or more of training, inference and "
            "preprocessing.",
        ),
    ],
)
def test_bad_criteria_are_refused_with_clear_messages(
    active: ScoringModel, change: dict[str, Any], expected: str
) -> None:
    doc = _exported(active, version=2)
    doc["criteria"][0].update(change)
    assert expected in _problems(doc)
    assert not ScoringModel.objects.filter(version=2).exists()


def test_empty_criteria_and_repeated_ids_are_refused(active: ScoringModel) -> None:
    assert "A scoring model needs at least one criterion." in _problems(
        _exported(active, version=2, criteria=[])
    )
    doc = _exported(active, version=2)
    doc["criteria"].append(copy.deepcopy(doc["criteria"][0]))
    assert "Criterion stack_changes appears twice." in _problems(doc)


def test_messages_follow_the_users_language(active: ScoringModel) -> None:
    doc = _exported(active, version=2)
    doc["criteria"][0]["weight"] = -1
    with translation.override("zh-hant"):
        problems = _problems(doc)
    assert any("stack_changes" in p and "大於 0" in p for p in problems), problems


def test_diff_lists_changed_added_and_removed(active: ScoringModel) -> None:
    doc = _exported(active, version=2)
    doc["criteria"][0]["weight"] = 3.0
    doc["criteria"][0]["contributions"]["weekly"]["gpu"] = 2.0
    doc["criteria"][0]["contributions"]["weekly"]["bare_metal"] = -1.0
    del doc["criteria"][0]["contributions"]["weekly"]["tpu"]
    removed = doc["criteria"].pop()
    new = scoring_model_import(json_text=json.dumps(doc), user=None)

    diff = scoring_model_diff(old=active, new=new)

    rows = {(r["change"], r["criterion"], r["field"], r["item"]): r for r in diff["rows"]}
    assert rows[("changed", "stack_changes", "weight", "")]["before"] == 2.0
    assert rows[("changed", "stack_changes", "weight", "")]["after"] == 3.0
    assert ("changed", "stack_changes", "contribution", "weekly → gpu") in rows
    assert ("added", "stack_changes", "contribution", "weekly → bare_metal") in rows
    assert ("removed", "stack_changes", "contribution", "weekly → tpu") in rows
    assert ("removed", removed["id"], "criterion", removed["label"]["en"]) in rows
    assert diff["counts"] == {"added": 1, "removed": 2, "changed": 2}
    assert scoring_model_diff(old=active, new=active)["rows"] == []
