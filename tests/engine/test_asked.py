"""Issue 21 item 8: the answers that say what the team asked for are validated, optional and
read back; the result states what it did with them (expert teams in test_expert_cases.py)."""

from __future__ import annotations

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, parse_answers
from advisor.engine.answers import validate
from tests.engine.conftest import sample


@pytest.mark.parametrize(("value", "code"), [(0.5, "minimum"), (101, "maximum"), ("ten", "type")])
def test_a_peak_to_average_out_of_bounds_is_refused_in_words(value: object, code: str) -> None:
    problems = validate(sample(**{"inference.peak_to_average": value}))
    (problem,) = [p for p in problems if p.path == "inference.peak_to_average"]
    assert problem.code == code
    for lang in ("en", "zh-hant"):
        assert problem.message(lang)


def test_a_document_without_a_peak_to_average_reads_as_before() -> None:
    doc = sample()
    answers = parse_answers(doc)
    assert answers.inference is not None and answers.inference.peak_to_average is None
    assert "peak_to_average" not in answers.to_dict()["inference"]
    given = parse_answers(sample(**{"inference.peak_to_average": 10}))
    assert given.to_dict()["inference"]["peak_to_average"] == 10


def test_real_time_serving_is_sized_for_the_answered_peak(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    def first(peak: float | None) -> dict[str, object]:
        extra = {} if peak is None else {"inference.peak_to_average": peak}
        doc = sample(**{"workloads": [{"kind": "realtime_inference", "schedule": "continuous"}]})
        doc = sample(**{**{"workloads": doc["workloads"]}, **extra})
        w = evaluate(doc, catalog, scoring)["workloads"][0]
        return w["options"][0]

    shape_default = first(None)
    assert shape_default["peak_to_average"] == catalog.rule("traffic_peak_to_mean")["daily_cycle"]
    ten = first(10)
    assert ten["peak_to_average"] == 10
    # Ten times the average rate needs more replicas than the daily cycle's default.
    assert ten["replicas"] * ten["tensor_parallel"] >= shape_default["replicas"]
    assert ten["replicas_at_average"] < ten["replicas"]
