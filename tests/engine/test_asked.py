"""The answers that say what the team asked for are validated, optional and
read back; the result states what it did with them (expert teams in test_expert_cases.py)."""

from __future__ import annotations

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, parse_answers
from advisor.engine.answers.problems import validate
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


# --------------------------------------------------------------------------- batch windows


def _batch(**extra: object) -> dict[str, object]:
    return sample(
        **{
            "workloads": [{"kind": "batch_inference", "schedule": "daily"}],
            "inference.tokens_per_day": 300_000_000,
            **extra,
        }
    )


@pytest.mark.parametrize(
    ("extra", "path", "code"),
    [
        ({"inference.batch_window_hours": 0}, "inference.batch_window_hours", "exclusive_minimum"),
        ({"inference.batch_window_hours": 25}, "inference.batch_window_hours", "maximum"),
        (
            {"inference.batch_window_hours": 4, "inference.batch_window_start_hour": 24},
            "inference.batch_window_start_hour",
            "maximum",
        ),
        (
            {"inference.batch_window_hours": 4, "inference.batch_window_firmness": "firm"},
            "inference.batch_window_firmness",
            "enum",
        ),
        (
            {"inference.batch_window_start_hour": 1},
            "inference.batch_window_start_hour",
            "batch_window_hours_required",
        ),
        (
            {"inference.batch_window_firmness": "soft"},
            "inference.batch_window_firmness",
            "batch_window_hours_required",
        ),
    ],
)
def test_a_batch_window_that_is_no_window_is_refused_in_words(
    extra: dict[str, object], path: str, code: str
) -> None:
    (problem,) = [p for p in validate(_batch(**extra)) if p.path == path]
    assert problem.code == code
    assert problem.message("en") != problem.message("zh-hant")
    for lang in ("en", "zh-hant"):
        assert problem.message(lang)


def test_a_batch_window_is_read_back_and_absent_without_one() -> None:
    assert "batch_window_hours" not in parse_answers(_batch()).to_dict()["inference"]
    doc = _batch(**{"inference.batch_window_hours": 4, "inference.batch_window_start_hour": 1})
    back = parse_answers(doc).to_dict()["inference"]
    assert back["batch_window_hours"] == 4 and back["batch_window_start_hour"] == 1
    assert back["batch_window_firmness"] == "hard"


def test_a_window_shorter_than_the_start_up_is_missed_and_a_soft_one_only_flagged(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Provisioning and container start alone take longer than a 6-minute window.
    for firmness, words in (("hard", "past your hard"), ("soft", "past your soft")):
        doc = _batch(
            **{"inference.batch_window_hours": 0.1, "inference.batch_window_firmness": firmness}
        )
        result = evaluate(doc, catalog, scoring)
        first = result["workloads"][0]["options"][0]
        assert first["meets_window"] is False and first["target_status"] == "missed"
        assert first["window"]["firmness"] == firmness
        (said,) = [n for n in result["cost"]["notes"] if words in n]
        assert first["name"] in said
        zh = evaluate(doc, catalog, scoring, lang="zh-hant")["cost"]["notes"]
        assert any(("硬性時段" if firmness == "hard" else "彈性時段") in n for n in zh)


# --------------------------------------------------------------------------- N+1


@pytest.mark.parametrize("availability", ["best_effort", "dev_test"])
def test_a_service_that_needs_no_spare_says_why_and_costs_less(
    catalog: Catalog, scoring: ScoringModel, availability: str
) -> None:
    doc = sample(**{"workloads": [{"kind": "realtime_inference", "schedule": "continuous"}]})
    production = evaluate(doc, catalog, scoring)
    lean = evaluate(sample(**{**doc, "inference.availability": availability}), catalog, scoring)
    first = production["workloads"][0]["options"][0]
    other = lean["workloads"][0]["options"][0]
    assert first["redundancy"]["planned"] and not other["redundancy"]["planned"]
    assert other["redundancy"]["basis"] == availability
    assert production["cost"]["monthly_total_usd"] > lean["cost"]["monthly_total_usd"]
    words = {"best_effort": "as you answered best effort", "dev_test": "development or test"}
    assert any(words[availability] in n for n in lean["cost"]["notes"])
    zh = evaluate(
        sample(**{**doc, "inference.availability": availability}), catalog, scoring, lang="zh-hant"
    )
    assert any("不配置備援伺服器" in n for n in zh["cost"]["notes"])


def test_batch_work_keeps_no_spare_server(catalog: Catalog, scoring: ScoringModel) -> None:
    first = evaluate(_batch(), catalog, scoring)["workloads"][0]["options"][0]
    assert "redundancy" not in first
