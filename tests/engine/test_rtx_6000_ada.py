"""The RTX-class card: the NVIDIA RTX 6000 Ada in the catalog, every figure
with its source and date, its rental, dedicated and purchase prices, and a team it suits."""

from __future__ import annotations

from advisor.demo_offers import house_offers
from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog
from advisor.engine.catalog.offers import import_offers
from tests.engine.test_expert_cases import team, workload

CARD = "nvidia-rtx-6000-ada"


def test_the_rtx_6000_ada_has_its_datasheet_figures_with_sources(catalog: Catalog) -> None:
    card = catalog.by_id[CARD]
    assert (card.memory_gb, card.memory_bw_tbps, card.tdp_w) == (48, 0.96, 300)
    assert card.interconnect_gbps == 64 and not card.fast_interconnect
    assert "no NVLink" in card.interconnect
    assert card.compute_capability == (8, 9)
    assert card.format_support("fp8") == card.format_support("bf16") == "native"
    # NVIDIA publishes only the sparse FP8 figure: the dense ones are derived, arithmetic shown.
    assert (card.bf16_dense_tflops, card.fp8_dense_tflops) == (364.2, 728.5)
    assert "1,457.0" in card.source and "sparsity" in card.source
    assert "DER: dense FP8 = 1,457.0 / 2 = 728.5" in card.source
    assert "142 SMs x 1,024 FLOP per clock per SM x 2,505 MHz" in card.source
    assert "https://www.nvidia.com/en-us/products/workstations/rtx-6000/" in card.source
    assert card.as_of == "2026-12-05"


def test_it_serves_with_the_stacks_of_the_l40s_the_same_ada_card(catalog: Catalog) -> None:
    card, l40s = catalog.by_id[CARD], catalog.by_id["nvidia-l40s"]
    compat = card.compatibility or {}
    assert compat["serving"] == (l40s.compatibility or {})["serving"]
    for stack in ("vllm", "sglang", "tensorrt_llm", "triton"):
        assert compat["serving"][stack] == "native", stack
    assert "sm_89" in compat["source"]
    assert "sm_89" in compat["serving_sources"]["sglang"]["source"]
    assert (card.capabilities or {})["formats"] == (l40s.capabilities or {})["formats"]


def test_its_prices_carry_source_date_and_staleness(catalog: Catalog) -> None:
    rows = {p.id: p for p in catalog.prices if p.accelerator_id == CARD}
    # Hetzner's GEX130 (p203, EUR 838 a month before its April 2026 price change, absent from
    # Hetzner's GPU matrix of 2026-10-08) was withdrawn: no later public price dates it.
    assert set(rows) == {"p201", "p202"}
    secure, community = rows["p201"], rows["p202"]
    # Secure Cloud read again in SkyPilot's RunPod catalog (2026-12-06), the earlier pages kept.
    assert (secure.provider, secure.usd_per_device_hour, secure.as_of) == (
        "RunPod",
        0.77,
        "2026-12-06",
    )
    assert "skypilot-catalog" in secure.source and "runpod.io/pricing" in secure.source
    assert (community.usd_per_device_hour, community.as_of) == (0.74, "2026-03-16")
    assert "Community" in (community.note or "")
    purchase = catalog.figures["purchase_usd_nvidia_rtx_6000_ada"]
    assert purchase["value"] == 6800.0 and purchase["as_of"] and "$6,800" in purchase["source"]
    assert catalog.rule("purchase_price_by_accelerator")[CARD] == "purchase_usd_nvidia_rtx_6000_ada"


def test_an_fp8_vllm_team_serving_an_8b_model_is_sized_on_the_rtx_6000_ada_but_not_sold_it_first(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # A Hong Kong shop serving Llama 3 8B in FP8 with vLLM on public cloud: the weights (8 GB)
    # fit one 48 GB card, which computes FP8 natively; two carry the traffic.
    doc = team(frameworks={"serving": "vllm"}, inference={"precision": "fp8"})
    result = evaluate(doc, catalog, scoring)
    w = workload(result, "realtime_inference")
    (rtx,) = [o for o in w["options"] if o["accelerator_id"] == CARD]
    assert rtx["stack"]["runnable"] and rtx["stack"]["status"] == "native"
    assert rtx["tensor_parallel"] == 1 and rtx["meets_latency"]
    assert rtx["count"] == 2
    price = rtx["prices"][rtx["billing_used"]]
    assert price["provider"] == "RunPod" and price["source"] and price["as_of"]
    # The cheapest runnable option that meets the target, by a margin ...
    others = [
        o["monthly_cost_usd"]
        for o in w["options"]
        if o is not rtx and o["stack"]["runnable"] and o.get("meets_latency")
    ]
    assert rtx["monthly_cost_usd"] < min(c for c in others if c)
    # ... but RunPod's row names no region ("global (not stated)"): not where the customer is,
    # so it ranks after the offers that name theirs, and the report says what it would cost.
    assert price["region"] == "global (not stated)" and rtx["availability"]["location_unknown"]
    assert w["options"][0]["accelerator_id"] != CARD
    assert any(
        "NVIDIA RTX 6000 Ada" in n and "does not say where it runs" in n
        for n in result["cost"]["notes"]
    )


def test_an_offer_row_names_the_rtx_6000_ada_but_not_the_rtx_pro_6000(catalog: Catalog) -> None:
    row = {
        "provider": "Example",
        "offer": "1x RTX 6000 Ada",
        "region": "Los Angeles Local Zone",
        "gpu": "NVIDIA RTX 6000 Ada 48 GB",
        "gpu_count": 1,
        "billing": "hourly",
        "price": 0.8,
        "currency": "USD",
        "source": "https://example.com/pricing",
        "source_date": "2026-12-05",
    }
    pro = {**row, "offer": "1x RTX PRO 6000", "gpu": "NVIDIA RTX PRO 6000 Blackwell 96 GB"}
    imported = import_offers(
        [row, pro], accelerator_ids=list(catalog.by_id), fx=catalog.raw["regional_offers"]["fx"]
    )
    assert [p["accelerator_id"] for p in imported.prices] == [CARD]
    assert [h["row"] for h in imported.held] == [2]


def test_the_house_server_of_the_card_is_bought_as_its_4_card_server(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # The result document (what the API returns) prices the card on the operator's Los Angeles
    # server for a Los Angeles team on dedicated servers, in whole 4-card servers, and names how
    # the server is sold.
    data = catalog.to_dict()
    data["prices"] += house_offers("Harbour GPU Cloud")
    with_house = load_catalog(data)
    doc = team(
        organization={"industry": "media", "regions": ["los_angeles"]},
        deployment={"allowed_modes": ["dedicated_hosting", "bare_metal"]},
        inference={"precision": "fp8"},
    )
    for lang in ("en", "zh-hant"):
        options = workload(evaluate(doc, with_house, scoring, lang=lang), "realtime_inference")
        rtx = next(o for o in options["options"] if o["accelerator_id"] == CARD)
        price = rtx["prices"][rtx["billing_used"]]
        assert price["house"] and price["sold_as"] == "LAX-RTX6000ADA-4"
        assert price["modes"] == ["dedicated_hosting", "bare_metal"]
        unit = rtx["unit"]
        assert unit["kind"] == "server" and unit["gpus"] == 4
        assert unit["count"] == -(-rtx["count"] // 4) and rtx["billed_count"] == unit["billed"]
