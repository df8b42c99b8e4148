"""The "japan" region (Japan outside Tokyo: Sakura Ishikari, HIGHRESO) is a region a customer can
choose. Data residency is national: a Tokyo customer's data may stay on a server elsewhere in
Japan (with a note on the distance), a customer anywhere in Japan takes Tokyo servers as theirs,
and neither takes a Hong Kong server."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from advisor.engine.answers.parse import parse_answers
from advisor.engine.answers.problems import AnswersError
from tests.engine.test_expert_cases import CASES, team, workload


def _hosted_h100(regions: list[str], residency: str) -> dict[str, Any]:
    return team(
        organization={"regions": regions},
        workloads=[{"kind": "realtime_inference", "schedule": "continuous"}],
        deployment={"allowed_modes": ["dedicated_hosting"], "data_residency": residency},
    )


def _prices(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        p
        for o in workload(result, "realtime_inference")["options"]
        for p in o["prices"].values()
        if p is not None
    ]


def _ids(result: dict[str, Any]) -> set[str]:
    return {o["accelerator_id"] for o in workload(result, "realtime_inference")["options"]}


def test_japan_is_a_region_an_answers_document_may_name() -> None:
    answers = parse_answers(team(organization={"regions": ["japan"]}))
    assert answers.organization.regions == ("japan",)
    with pytest.raises(AnswersError):
        parse_answers(team(organization={"regions": ["osaka"]}))


def _tokyo_chatbot(residency: str) -> dict[str, Any]:
    doc = next(d for name, d, _check in CASES if name == "tokyo_chatbot_always_on_commits")
    doc = copy.deepcopy(doc)
    doc["deployment"]["data_residency"] = residency
    return doc


def test_a_tokyo_customer_with_residency_may_use_a_server_elsewhere_in_japan(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(_tokyo_chatbot("in_region"), catalog, scoring)
    first = workload(result, "realtime_inference")["options"][0]
    price = first["prices"][first["billing_used"]]
    assert (price["provider"], price["region_key"], price["in_country"]) == (
        "Sakura Internet",
        "japan",
        True,
    )
    assert "Ishikari" in price["region"]
    (note,) = [n for n in result["cost"]["notes"] if "same country as Tokyo" in n]
    assert "not in the same city" in note and "Ishikari" in note
    zh = evaluate(_tokyo_chatbot("in_region"), catalog, scoring, lang="zh-hant")
    assert any("與 東京 同一國家" in n for n in zh["cost"]["notes"])
    # Without residency the same server is chosen, with the same note.
    free = evaluate(_tokyo_chatbot("none"), catalog, scoring)
    assert any("same country as Tokyo" in n for n in free["cost"]["notes"])
    # A Tokyo server for a Tokyo customer needs no such note.
    doc = _tokyo_chatbot("in_region")
    doc["deployment"]["clouds"] = ["aws"]
    aws = evaluate(doc, catalog, scoring)
    assert not any(p.get("in_country") for p in _prices(aws))
    assert not any("same country" in n for n in aws["cost"]["notes"])


def test_a_customer_anywhere_in_japan_takes_tokyo_as_theirs_and_not_hong_kong(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    doc = team(
        organization={"regions": ["japan"]},
        workloads=[{"kind": "realtime_inference", "schedule": "continuous"}],
        deployment={"allowed_modes": ["public_cloud"], "data_residency": "in_region"},
    )
    prices = _prices(evaluate(doc, catalog, scoring))
    assert prices and all(p["region_match"] == "exact" for p in prices)
    regions = {p["region"] for p in prices}
    assert any("Tokyo" in r for r in regions)
    assert not any("Hong Kong" in r or "Singapore" in r for r in regions)
    # Residency is national: a Hong Kong customer never gets a server in Japan.
    hk = evaluate(_hosted_h100(["hong_kong"], "in_region"), catalog, scoring)
    assert not any("Japan" in (p["region"] or "") or p.get("in_country") for p in _prices(hk))
