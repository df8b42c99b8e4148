"""Plans in servers as sold: models no server holds served across servers, one fleet per team,
spares in whole servers, the operator's priced server first."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.demo_offers import house_offers
from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from tests.engine.test_expert_cases import team, workload
from tests.engine.test_house_offers import _house, _with

OPERATOR = "Harbour GPU Cloud"
# Llama 3.1 405B (config.json of meta-llama/Llama-3.1-405B): 126 layers, hidden 16384, FFN
# 53248, 128 heads (8 KV heads of 16 query heads each) of 128, vocabulary 128256.
LLAMA_405B = {
    "architecture": {
        "parameters": 405_853_388_800,
        "layers": 126,
        "hidden_size": 16384,
        "intermediate_size": 53248,
        "kv_heads": 8,
        "kv_group_size": 16,
        "head_dim": 128,
        "vocab_size": 128256,
        "tied_embeddings": False,
    }
}


# Qwen2.5-14B (config.json of Qwen/Qwen2.5-14B-Instruct).
QWEN_14B = {
    "architecture": {
        "parameters": 14_770_000_000,
        "layers": 48,
        "hidden_size": 5120,
        "intermediate_size": 13824,
        "kv_heads": 8,
        "kv_group_size": 5,
        "head_dim": 128,
        "vocab_size": 152064,
        "tied_embeddings": False,
    }
}


@pytest.fixture(scope="module")
def demo(catalog: Catalog) -> Catalog:
    data = catalog.to_dict()
    data["prices"] += house_offers(OPERATOR)
    return load_catalog(data)


def _serving(region: str, model: dict[str, Any], precision: str) -> dict[str, Any]:
    doc = team(
        organization={"industry": "media", "regions": [region]},
        deployment={"allowed_modes": ["dedicated_hosting", "bare_metal"]},
        inference={
            "precision": precision,
            "tokens_per_day": 50_000_000,
            "concurrent_sequences": 16,
        },
    )
    doc["model"] = model
    return doc


def _option(w: dict[str, Any], card: str) -> dict[str, Any]:
    return next(o for o in w["options"] if o["accelerator_id"] == card)


@pytest.mark.parametrize(
    ("region", "model", "precision", "server"),
    [
        ("hong_kong", {"preset": "deepseek-v3"}, "fp8", "HK-H100-8"),
        ("los_angeles", LLAMA_405B, "bf16", "LAX-H100-8"),
    ],
    ids=["deepseek-v3-fp8", "llama-3.1-405b-bf16"],
)
def test_a_model_no_server_holds_is_served_across_two_hgx_h100_servers(
    demo: Catalog,
    scoring: ScoringModel,
    region: str,
    model: dict[str, Any],
    precision: str,
    server: str,
) -> None:
    w = workload(evaluate(_serving(region, model, precision), demo, scoring), "realtime_inference")
    h100 = _option(w, "nvidia-h100-sxm")
    # Eight-way tensor parallel inside each server, two pipeline stages across two servers.
    assert h100["tensor_parallel"] == 8 and h100["pipeline_parallel"] == 2
    unit = h100["unit"]
    assert unit["kind"] == "server" and unit["name"] == server and unit["gpus"] == 8
    assert unit["count"] % 2 == 0 and unit["billed"] == h100["billed_count"] == h100["count"]
    assert h100["prices"][h100["billing_used"]]["house"] is True
    assert h100["meets_latency"] is True
    # The operator's server is where this team is, priced: it leads wherever it meets the
    # target with no less margin than the first option.
    first = w["options"][0]
    assert first["prices"][first["billing_used"]]["house"] is True


def test_a_service_a_nightly_batch_and_a_weekly_fine_tune_share_one_fleet(
    demo: Catalog, scoring: ScoringModel
) -> None:
    doc = team(
        organization={"industry": "media", "regions": ["hong_kong"]},
        workloads=[
            {"kind": "realtime_inference", "schedule": "continuous"},
            {"kind": "batch_inference", "schedule": "daily"},
            {"kind": "fine_tuning", "schedule": "weekly"},
        ],
        deployment={"allowed_modes": ["dedicated_hosting", "bare_metal"]},
        inference={"traffic": "daily_cycle"},
    )
    result = evaluate(doc, demo, scoring)
    firsts = {w["kind"]: w["options"][0] for w in result["workloads"]}
    servers = {o["unit"]["name"] for o in firsts.values()}
    (group,) = result["fleet"]["groups"]
    assert set(group["workloads"]) == set(firsts) and len(servers) == 1
    assert group["shared"] and group["servers_shared"] < group["servers_separate"]
    assert group["servers_separate"] == sum(o["unit"]["count"] for o in firsts.values())
    # Which workload runs when, on how many servers; the saving is in the total.
    runs = {r["workload"]: r for r in group["runs"]}
    assert runs["realtime_inference"]["always"] is True
    assert runs["batch_inference"]["every_hours"] == 24
    assert runs["fine_tuning"]["every_hours"] == 168
    assert 0 <= runs["fine_tuning"]["start_hour_of_week"] < 168
    saves = group["saves_usd_per_month"]
    assert saves == pytest.approx(
        group["usd_per_month_separate"] - group["usd_per_month_shared"], abs=0.01
    )
    assert result["cost"]["fleet_saves_usd_per_month"] == pytest.approx(saves)
    (said,) = [n for n in result["cost"]["notes"] if "share one fleet" in n]
    assert f"{group['servers_shared']} server(s) instead of {group['servers_separate']}" in said
    assert "separate fleets are the alternative" in said


def test_one_priced_house_h200_server_carries_a_14b_service_and_its_weekly_lora(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # The operator's only server: 8 x H200 in Hong Kong at $2,000 a GPU-month. A 14B chat and
    # a weekly LoRA fine-tune: one server serves the chat, its spare stands by for it, and the
    # fine-tune runs on the spare each week rather than on a third server.
    one = _with(
        catalog,
        _house("house-h200", "nvidia-h200", usd_per_device_month=2000, gpus_per_unit=8),
    )
    doc = team(
        organization={"industry": "ecommerce", "regions": ["hong_kong"]},
        workloads=[
            {"kind": "realtime_inference", "schedule": "continuous"},
            {"kind": "fine_tuning", "schedule": "weekly"},
        ],
        deployment={"allowed_modes": ["dedicated_hosting"]},
        training={"method": "lora", "dataset_tokens": 20_000_000, "deadline_hours": 48},
        inference={"tokens_per_day": 5_000_000, "concurrent_sequences": 8},
    )
    doc["model"] = QWEN_14B
    result = evaluate(doc, one, scoring)
    firsts = {w["kind"]: w["options"][0] for w in result["workloads"]}
    assert {o["accelerator_id"] for o in firsts.values()} == {"nvidia-h200"}
    service = firsts["realtime_inference"]
    # One server serves the chat; the spare is a whole second server (a failed server leaves
    # the other), never a spare counted inside the one server.
    assert service["unit"]["count"] == 2 and service["redundancy"]["spare_units"] == 1
    (group,) = result["fleet"]["groups"]
    assert group["shared"] and group["servers_shared"] == 2 and group["servers_separate"] == 3
    runs = {r["workload"]: r for r in group["runs"]}
    assert runs["realtime_inference"]["spare_servers"] == 1
    total = result["cost"]["monthly_total_usd"]
    assert result["cost"]["fleet_saves_usd_per_month"] == pytest.approx(8 * 2000, abs=1)
    assert total < sum(o["monthly_cost_usd"] for o in firsts.values())
    # Best effort (no spare): the chat's card and the fine-tune's, shrunk back from the whole
    # server it was stretched to, sit side by side on one server, inside the fine-tune's target.
    doc["inference"]["availability"] = "best_effort"
    result = evaluate(doc, one, scoring)
    (group,) = result["fleet"]["groups"]
    assert group["side_by_side"] and group["servers_shared"] == 1
    runs = {r["workload"]: r for r in group["runs"]}
    tune = next(w for w in result["workloads"] if w["kind"] == "fine_tuning")["options"][0]
    assert runs["realtime_inference"]["cards"] + runs["fine_tuning"]["cards"] <= 8
    assert runs["fine_tuning"]["hours"] <= tune["target_hours"]
    (said,) = [n for n in result["cost"]["notes"] if "side by side" in n]
    assert "1 server(s) instead of 2" in said


def test_a_spare_for_owned_cards_is_a_second_server(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Owned PCIe cards for a small production service: the vendor builds a server for the
    # cards; the spare is a second such server, never more cards in the same one.
    doc = team(
        organization={"industry": "finance", "regions": ["hong_kong"]},
        deployment={"allowed_modes": ["on_premises"], "data_residency": "on_premises_only"},
        inference={"tokens_per_day": 2_000_000, "concurrent_sequences": 4},
    )
    w = workload(evaluate(doc, catalog, scoring), "realtime_inference")
    priced = [o for o in w["options"] if o.get("tco") and o.get("redundancy", {}).get("planned")]
    assert priced
    for o in priced:
        assert o["tco"]["servers"] >= 2, o["name"]
        assert o["unit"]["count"] == o["tco"]["servers"]
        assert o["billed_count"] == o["tco"]["devices"] == o["unit"]["billed"]
