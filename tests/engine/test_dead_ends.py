"""No dead ends. Teams whose allowed modes x regions x data residency x stack
leave no runnable, priced option get what rules every option out, the smallest relaxations that
bring one back (each re-planned through the engine) and, where the operator sells, its sized
server as a quote."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from advisor.engine.answers.samples import sample
from advisor.starters import STARTERS
from tests.engine.test_expert_cases import team, workload

# (a) A Los Angeles team serving a 70B model, dedicated hosting only, data kept in region.
LA_70B_DEDICATED = team(
    organization={"industry": "ecommerce", "regions": ["los_angeles"]},
    deployment={"allowed_modes": ["dedicated_hosting"], "data_residency": "in_region"},
    model={"preset": "llama-3-70b"},
)
# (b) A Hong Kong shop serving mainland China on dedicated servers, data kept in region.
HK_MAINLAND_DEDICATED = team(
    organization={"industry": "ecommerce", "regions": ["hong_kong", "mainland_china"]},
    deployment={
        "allowed_modes": ["dedicated_hosting", "bare_metal"],
        "china_connectivity": True,
        "data_residency": "in_region",
    },
)
# (b') The same shop serving a 70B model: cards fit, none is priced on dedicated hosting.
HK_MAINLAND_70B = team(
    organization={"industry": "ecommerce", "regions": ["hong_kong", "mainland_china"]},
    deployment={"allowed_modes": ["dedicated_hosting"], "china_connectivity": True},
    model={"preset": "llama-3-70b"},
)
# (c) A TensorFlow team pinned to Google Cloud in Hong Kong (TPUs or A100s), data in region.
TF_GCP_HONG_KONG = sample(
    **{
        "organization.regions": ["hong_kong"],
        "frameworks.primary": "tensorflow",
        "frameworks.serving": "tf_serving",
        "deployment.allowed_modes": ["public_cloud"],
        "deployment.clouds": ["gcp"],
        "deployment.data_residency": "in_region",
        "deployment.china_connectivity": False,
    }
)
# (d) A mainland-China-only team whose data must stay in the mainland.
MAINLAND_ONLY = team(
    organization={"industry": "ecommerce", "regions": ["mainland_china"]},
    deployment={
        "data_residency": "in_region",
        "allowed_modes": ["public_cloud", "dedicated_hosting"],
    },
)

SHAPES = {
    "la_70b_dedicated": LA_70B_DEDICATED,
    "hk_mainland_dedicated": HK_MAINLAND_DEDICATED,
    "hk_mainland_70b": HK_MAINLAND_70B,
    "tf_gcp_hong_kong": TF_GCP_HONG_KONG,
    "mainland_only": MAINLAND_ONLY,
}

SERVER = {
    "name": "LA-H100-8",
    "cpu": "2x AMD EPYC 9354",
    "ram_gb": 1536,
    "nvme_tb": 15.36,
    "network_gbps": 25,
    "china_bandwidth_mbps": 100,
    "china_bandwidth_type": "cn2_gia",
}


def house(price_id: str, acc_id: str, region_key: str, **fields: Any) -> dict[str, Any]:
    return {
        "id": price_id,
        "accelerator_id": acc_id,
        "provider": "Harbour Compute",
        "cloud": "other",
        "modes": ["dedicated_hosting", "bare_metal"],
        "billing": "monthly",
        "usd_per_device_hour": None,
        "usd_per_device_month": None,
        "region": f"{region_key} (house)",
        "region_key": region_key,
        "source": "Harbour Compute price list",
        "as_of": "2026-11-01",
        "estimated": False,
        "derived": True,
        "note": None,
        "gpus_per_unit": 8,
        "unit": "H100-8",
        "house": True,
        "server": SERVER,
        **fields,
    }


def with_prices(catalog: Catalog, *prices: dict[str, Any]) -> Catalog:
    data = catalog.to_dict()
    data["prices"] = [*data["prices"], *prices]
    return load_catalog(data)


def dead_ends(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [w["dead_end"] for w in result["workloads"] if w.get("dead_end")]


def _cost(relaxation: dict[str, Any]) -> float:
    return float(relaxation["option"]["cost_to_result"]["usd"])


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
@pytest.mark.parametrize("name", list(SHAPES))
def test_every_dead_end_names_its_blockers_and_relaxations(
    catalog: Catalog, scoring: ScoringModel, name: str, lang: str
) -> None:
    result = evaluate(SHAPES[name], catalog, scoring, lang=lang)
    found = dead_ends(result)
    assert found, f"{name} is expected to be a dead end"
    for dead in found:
        assert dead["blocking"] and all(b["text"] for b in dead["blocking"])
        assert dead["statement"] in result["cost"]["notes"]
        assert dead["relaxations"], "a dead end with no way out"
        for r in dead["relaxations"]:
            option = r["option"]
            assert option["count"] >= 1 and option["monthly_cost_usd"] is not None
            assert option["cost_to_result"]["usd"] is not None and option["provider"]
            assert r["gives_up"] and all(r["gives_up"])
            assert r in result["recommendation"]["would_change_if"]
    # Never the bare engine note this replaces.
    bare = {"en": "No priced option", "zh-hant": "沒有具價格的選項"}[lang]
    assert not any(bare in n for n in result["cost"]["notes"])


def _relaxed(answers: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    section, field = change["answer_path"].split(".")
    return {**answers, section: {**answers[section], field: change["to"]}}


@pytest.mark.parametrize("name", list(SHAPES))
def test_each_relaxation_is_what_the_engine_plans_with_that_answer_relaxed(
    catalog: Catalog, scoring: ScoringModel, name: str
) -> None:
    result = evaluate(SHAPES[name], catalog, scoring)
    for w in result["workloads"]:
        for r in (w.get("dead_end") or {}).get("relaxations", []):
            if not r["changes"]:
                # Another family under the answers as they are: the result lists it already.
                assert (r["option"]["accelerator_id"], r["option"]["count"]) in {
                    (o["accelerator_id"], o["count"]) for o in w["alternatives"]
                }
                continue
            answers = SHAPES[name]
            for change in r["changes"]:
                answers = _relaxed(answers, change)
            again = workload(evaluate(answers, catalog, scoring), w["kind"])
            priced = [
                o
                for o in again["options"]
                if o["stack"]["runnable"] and o["cost_to_result"]["usd"] is not None
            ]
            assert not again.get("dead_end") and priced
            # The option it names is one the team would be offered with the answer changed.
            offered = {
                (o["accelerator_id"], o["count"])
                for o in [*again["options"], *again["alternatives"], *again["dominated_options"]]
            }
            if again["deployment_mode"] == r["option"]["deployment_mode"]:
                assert (r["option"]["accelerator_id"], r["option"]["count"]) in offered


def test_relaxations_come_smallest_first(catalog: Catalog, scoring: ScoringModel) -> None:
    # Google Cloud pin, Hong Kong residency: another cloud in Hong Kong is a smaller step than
    # sending the data to Singapore or dropping residency, whatever each costs.
    w = workload(evaluate(TF_GCP_HONG_KONG, catalog, scoring), "realtime_inference")
    first = w["dead_end"]["relaxations"][0]
    assert first["changes"] == [{"answer_path": "deployment.clouds", "from": ["gcp"], "to": []}]
    assert first["option"]["provider"] == "AWS"
    paths = [r["changes"][0]["answer_path"] for r in w["dead_end"]["relaxations"]]
    assert paths.index("deployment.data_residency") > paths.index("deployment.clouds")


def test_los_angeles_needs_two_relaxations_and_keeps_data_in_the_us(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    dead = workload(evaluate(LA_70B_DEDICATED, catalog, scoring), "realtime_inference")["dead_end"]
    assert dead["status"] == "no_option"
    assert "13 card(s) are not offered in Los Angeles" in dead["statement"]
    first = dead["relaxations"][0]
    assert len(first["changes"]) == 2  # no single answer brings an option back
    assert "data stays in the same country" in first["explanation"]
    assert dead["quote"] is None  # the operator sells nothing in Los Angeles in this catalog


def test_mainland_team_is_offered_hong_kong_as_its_neighbour(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    dead = workload(evaluate(MAINLAND_ONLY, catalog, scoring), "realtime_inference")["dead_end"]
    regions = [
        r["changes"][0]["to"]
        for r in dead["relaxations"]
        if r["changes"][0]["answer_path"] == "organization.regions"
    ]
    assert ["mainland_china", "hong_kong"] in regions
    text = next(r for r in dead["relaxations"] if "Hong Kong" in r["explanation"])
    assert "not measured" in text["explanation"]  # no invented round trip


def test_a_house_offer_on_request_where_the_team_is_is_its_first_option_not_a_dead_end(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Sold on request, the operator's server still prices the plan on an indicative figure
    # whose basis it names: the team gets an answer, and a quote to ask for.
    sells = with_prices(
        catalog, house("house-la-h100", "nvidia-h100-sxm", "los_angeles", price_on_request=True)
    )
    result = evaluate(LA_70B_DEDICATED, sells, scoring)
    w = workload(result, "realtime_inference")
    assert "dead_end" not in w
    first = w["options"][0]
    price = first["prices"][first["billing_used"]]
    assert price["price_id"] == "house-la-h100" and price["indicative"] and price["on_request"]
    assert price["source"].startswith("Indicative, not a quote")
    assert first["monthly_cost_usd"] is not None and first["cost_to_result"]["usd"] is not None
    assert first["billed_count"] % 8 == 0  # whole 8-GPU servers


def test_a_priced_house_offer_in_the_neighbouring_region_is_quoted_with_its_price(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    sells = with_prices(
        catalog, house("house-hk-h100", "nvidia-h100-sxm", "hong_kong", usd_per_device_month=1800)
    )
    dead = workload(evaluate(MAINLAND_ONLY, sells, scoring), "realtime_inference")["dead_end"]
    quote = dead["quote"]
    assert quote["price_id"] == "house-hk-h100" and quote["priced"] is True
    assert quote["needs"] == ["organization.regions"]
    assert quote["monthly_cost_usd"] > 1800 * quote["count"] * 0.99
    # The relaxation that adds Hong Kong now leads to the operator's own server.
    via_hk = [
        r
        for r in dead["relaxations"]
        if r["changes"]
        == [
            {
                "answer_path": "organization.regions",
                "from": ["mainland_china"],
                "to": ["mainland_china", "hong_kong"],
            }
        ]
    ]
    assert via_hk


def test_a_team_with_an_option_has_no_dead_end(catalog: Catalog, scoring: ScoringModel) -> None:
    result = evaluate(team(), catalog, scoring)
    assert dead_ends(result) == []
    changes = result["recommendation"]["would_change_if"]
    assert not any(c.get("kind") == "relaxation" for c in changes)


def test_a_tpu_the_answers_rule_out_gives_way_to_the_gpu_they_allow(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # The e-commerce starter: TensorFlow pre-training pinned to Google Cloud in Tokyo and Hong
    # Kong with data in region; no TPU is offered there, an A100 is. With the answers as they
    # are there is a plan, so it is the answer, not a dead end, and the report says why.
    starter = next(s for s in STARTERS if s.slug == "ecommerce-recommender")
    result = evaluate(starter.document(), catalog, scoring)
    w = workload(result, "pretraining")
    assert w["accelerator"] == "gpu" and "dead_end" not in w
    first = w["options"][0]
    assert first["type"] == "gpu" and first["stack"]["runnable"]
    assert first["cost_to_result"]["usd"] is not None
    said = [n for n in result["cost"]["notes"] if "the scores prefer TPU" in n]
    assert said and "planned on GPU" in said[0]


@pytest.mark.parametrize(
    ("lang", "precision", "kernels"),
    [
        ("en", "4 card(s) cannot run FP8 arithmetic", "the team's custom CUDA kernels as they are"),
        ("zh-hant", "4 種卡片無法執行FP8 運算", "團隊目前所編譯的自訂 CUDA 核心"),
    ],
)
def test_a_card_ruled_out_by_its_own_data_is_named_in_words(
    catalog: Catalog, scoring: ScoringModel, lang: str, precision: str, kernels: str
) -> None:
    # A Hong Kong team keeping data in region: the cards offered there lack fp8 units, or
    # predate the sm_100 its kernels are built for. The list said "stack_item.precision".
    in_region = {"allowed_modes": ["public_cloud"], "data_residency": "in_region"}
    hk = {"industry": "ecommerce", "regions": ["hong_kong"]}
    fp8 = team(organization=hk, deployment=in_region, inference={"precision": "fp8"})
    built = team(
        organization=hk,
        deployment=in_region,
        frameworks={"custom_kernels": True, "kernel_architectures": ["sm_100"]},
    )
    for doc, said in ((fp8, precision), (built, kernels)):
        w = workload(evaluate(doc, catalog, scoring, lang=lang), "realtime_inference")
        assert said in w["dead_end"]["statement"]
        assert "stack_item" not in w["dead_end"]["statement"]


def test_a_run_no_card_can_hold_names_the_answers_that_shrink_it(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Eight 32K-token sequences a micro-batch with no gradient checkpointing: the activations
    # alone exceed every card, in any mode. The dead end names those two answers (not the modes
    # every option was built under), and relaxing either one plans the run.
    doc = team(
        workloads=[{"kind": "pretraining", "schedule": "project_cycles"}],
        model={"preset": "llama-3-8b"},
        training={
            "method": "full",
            "micro_batch_size": 8,
            "sequence_length": 32768,
            "gradient_checkpointing": False,
            "dataset_tokens": 10**11,
        },
    )
    dead = workload(evaluate(doc, catalog, scoring), "pretraining")["dead_end"]
    named = [a for b in dead["blocking"] for a in b["answers"]]
    assert named == ["training.gradient_checkpointing", "training.micro_batch_size"]
    assert "gradient checkpointing is no" in dead["statement"]
    changed = {c["answer_path"] for r in dead["relaxations"] for c in r["changes"]}
    assert changed == set(named)
    assert all(r["option"]["monthly_cost_usd"] is not None for r in dead["relaxations"])
