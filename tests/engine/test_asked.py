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


def test_a_short_daily_batch_run_pays_its_start_up(catalog: Catalog, scoring: ScoringModel) -> None:
    doc = sample(
        **{
            "workloads": [{"kind": "batch_inference", "schedule": "daily"}],
            "inference.tokens_per_day": 5_000_000,
            "cost.hours_per_day": 0.15,
        }
    )
    result = evaluate(doc, catalog, scoring)
    first = result["workloads"][0]["options"][0]
    overhead = first["run_overhead"]
    assert overhead["provisioning_hours"] > 0 and overhead["container_start_hours"] > 0
    # Once a day, in the month's hours and so in the cost per million tokens.
    per_month = catalog.hours_per_month / 24.0
    assert first["hours"] == pytest.approx(overhead["run_hours"] * per_month, abs=0.1)
    assert any("each run spends about" in n for n in result["cost"]["notes"])
