"""The data errors a buyer would catch, where each card is offered, and the
regional offers imported from shared/reference/offers_hk_tokyo_la.json."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from advisor.engine.catalog import CatalogError
from advisor.engine.catalog.offers import import_offers
from tests.engine.test_expert_cases import CASES, team, workload

OFFERS = Path(__file__).parents[1] / "fixtures" / "offers" / "offers_hk_tokyo_la.json"


def _option(result: dict[str, Any], kind: str, acc_id: str) -> dict[str, Any]:
    return next(o for o in workload(result, kind)["options"] if o["accelerator_id"] == acc_id)


def _results(catalog: Catalog, scoring: ScoringModel) -> list[dict[str, Any]]:
    return [evaluate(doc, catalog, scoring) for _name, doc, _check in CASES]


def test_lambdas_gh200_is_its_own_accelerator_not_an_h200(catalog: Catalog) -> None:
    gh200 = catalog.by_id["nvidia-gh200"]
    assert gh200.memory_gb == 96 and gh200.estimated_fields  # not in the reference: marked
    lambda_gh200 = next(
        p for p in catalog.prices if p.provider == "Lambda" and "GH200" in (p.note or "")
    )
    assert lambda_gh200.accelerator_id == "nvidia-gh200"
    assert lambda_gh200.usd_per_device_hour == 2.29
    assert not any(
        "GH200" in (p.note or "")
        for p in catalog.prices_by_accelerator["nvidia-h200"]
        if "not GH200" not in (p.note or "")
    )


def test_an_8_gpu_node_is_bought_whole_and_its_per_gpu_figure_is_derived(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # A LoRA of an 8B model fits one H100; AWS sells H100s in N. California only as p5.48xlarge.
    doc = team(
        organization={"regions": ["us_west"]},
        workloads=[{"kind": "fine_tuning", "schedule": "weekly"}],
        deployment={"clouds": ["aws"]},
    )
    option = _option(evaluate(doc, catalog, scoring), "fine_tuning", "nvidia-h100-sxm")
    price = option["prices"][option["billing_used"]]
    assert price["sold_as"].startswith("p5.48xlarge") and price["gpus_per_unit"] == 8
    assert option["count"] == option["billed_count"] == 8  # the run uses the node it pays for
    assert option["min_count"] == 1
    assert price["derived"] is True
    assert price["usd_per_unit_hour"] == pytest.approx(price["usd_per_device_hour"] * 8, abs=1e-3)


def test_every_option_is_billed_in_whole_units_of_its_price(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    checked = 0
    for result in _results(catalog, scoring):
        for w in result["workloads"]:
            for o in w.get("options") or []:
                used = o.get("billing_used")
                if not used:
                    continue
                if o.get("tco"):  # owned hardware: bought in whole servers as vendors build
                    tco = o["tco"]
                    assert o["billed_count"] == tco["devices"] >= o["count"]
                    assert tco["devices"] == tco["servers"] * tco["devices_per_server"]
                    continue
                unit = o["prices"][used]["gpus_per_unit"]
                assert o["billed_count"] % unit == 0 and o["billed_count"] >= o["count"]
                if "min_count" in o:  # training runs on every device it pays for
                    assert o["billed_count"] == o["count"]
                checked += 1
    assert checked > 100


def test_one_options_prices_are_one_offer_or_say_they_are_not(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    mixed = 0
    for result in _results(catalog, scoring):
        for w in result["workloads"]:
            for o in w.get("options") or []:
                prices = o["prices"]
                anchor = next(
                    (prices[s] for s in ("on_demand", "monthly", "commit_1y") if prices.get(s)),
                    None,
                )
                for slot, p in prices.items():
                    if p is None or anchor is None:
                        continue
                    same = (p["provider"], p["region"]) == (anchor["provider"], anchor["region"])
                    assert p["same_offer"] is same, (o["accelerator_id"], slot)
                    mixed += not same
                spot, od = prices.get("spot"), prices.get("on_demand")
                if spot and od and spot["same_offer"]:
                    assert spot["usd_per_device_hour"] <= od["usd_per_device_hour"]
    assert mixed  # some cards have no spot price from their on-demand provider: labelled


def test_a_far_commitment_never_heads_a_local_on_demand_price(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # AWS sells T4 commitments only in Hong Kong; a Los Angeles team pays LA's on-demand price.
    # A 1B model fits one T4, so LA's 1-GPU g4dn.xlarge can build it (an 8B model needs two
    # T4 in one unit, which LA does not sell).
    doc = team(
        organization={"regions": ["los_angeles"]},
        deployment={"clouds": ["aws"]},
        model={"preset": "llama-3.2-1b"},
    )
    t4 = _option(evaluate(doc, catalog, scoring), "realtime_inference", "nvidia-t4")
    assert t4["prices"]["commit_1y"]["same_offer"] is False
    assert t4["billing_used"] == "on_demand"
    assert t4["prices"]["on_demand"]["region"].startswith("us-west-2-lax-1")


def test_flex_start_is_its_own_billing_not_spot(catalog: Catalog, scoring: ScoringModel) -> None:
    doc = next(doc for name, doc, _check in CASES if name == "us_jax_lab_pretraining_on_gcp")
    v6e = _option(evaluate(doc, catalog, scoring), "pretraining", "tpu-v6e")
    assert v6e["prices"]["flex_start"]["price_id"] == "p153"
    assert (v6e["prices"]["spot"] or {}).get("price_id") != "p153"


def test_a_price_list_row_in_hong_kong_is_not_a_hong_kong_offer(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # Google prices A2/A3/G2 in asia-east2 but offers none of those cards there.
    doc = team(deployment={"clouds": ["gcp"]})
    result = evaluate(doc, catalog, scoring)
    for acc_id in ("nvidia-a100-40gb", "nvidia-h100-sxm", "nvidia-l4"):
        option = _option(result, "realtime_inference", acc_id)
        assert option["availability"]["available"] is False
        for p in option["prices"].values():
            assert p is None or "asia-east2" not in (p["region"] or "")


def test_every_availability_entry_names_its_source_and_date(catalog: Catalog) -> None:
    known = set(catalog.by_id)
    regions = catalog.availability["regions"]
    assert regions["hong_kong"]["public_cloud"] == ["nvidia-t4", "nvidia-a10g"]
    for key, row in regions.items():
        assert row["source"] and row["as_of"], key
        offered: set[str] = set()
        for entry in row.get("by_provider", []):
            assert entry["source"] and "as_of" in entry, (key, entry["provider"])
            assert set(entry["cards"]) <= known
            offered |= set(entry["cards"])
        for entry in row.get("not_offered", []):
            assert entry["source"] and entry["note"] and "as_of" in entry
            assert (
                not set(entry["cards"]) & set(row["public_cloud"])
                or entry["provider"] != "Google Cloud"
            )
        if row.get("by_provider"):
            assert set(row["public_cloud"]) <= offered | set(row.get("hosted", [])), key
    hk_gcp = next(e for e in regions["hong_kong"]["not_offered"] if e["provider"] == "Google Cloud")
    assert {"nvidia-a100-40gb", "nvidia-h100-sxm"} <= set(hk_gcp["cards"])


def test_the_bundled_regional_rows_are_the_reference_file_imported(catalog: Catalog) -> None:
    rows = json.loads(OFFERS.read_text("utf-8"))
    notes = catalog.raw["regional_offers"]
    imported = import_offers(
        rows,
        accelerator_ids=list(catalog.by_id),
        fx=notes["fx"],
        reference="shared/reference/offers_hk_tokyo_la.json",
    )
    bundled = [p for p in catalog.raw["prices"] if p["id"].startswith("rg")]
    # Rows the catalog withdrew after the import, each with its reason: no public source dates
    # or confirms them.
    withdrawn = {w["id"]: w for w in notes.get("withdrawn", [])}
    for w in withdrawn.values():
        assert w["reason"] and w["as_of"] and w["id"] == f"rg{w['row']}"
    assert len(rows) == 39 and len(bundled) == 37 - len(withdrawn)
    assert not withdrawn.keys() & {p["id"] for p in bundled}
    # The unit each row sells (the `units` table) and a second source's confirmation are catalog
    # data added beside the import.
    assert all(p["unit_id"] in catalog.raw["units"] for p in bundled)
    beside = {"unit_id", "confirmed_by", "dated_by"}
    # The importer dates a row only from a full day in source_date. Where the reference states a
    # month only ("2025-03"), the row carries `dated_by` and its as_of is the first of that
    # month; nothing else may differ, and only a row the importer left undated may be dated so.
    by_ref = {p["id"]: p for p in imported.prices}
    for p in bundled:
        if "dated_by" in p:
            stated = p["price_as_listed"]["source_date"]
            assert by_ref[p["id"]]["as_of"] is None, p["id"]
            assert p["dated_by"]["precision"] == "month" and p["dated_by"]["source"]
            assert p["as_of"] == p["dated_by"]["as_of"] == f"{stated[:7]}-01", p["id"]

    def as_imported(p: dict[str, Any]) -> dict[str, Any]:
        row = {k: v for k, v in p.items() if k not in beside}
        if "dated_by" in p:
            row["as_of"] = None
        return row

    assert [as_imported(p) for p in bundled] == [
        p for p in imported.prices if p["id"] not in withdrawn
    ]
    assert {p["id"] for p in imported.prices} >= withdrawn.keys()
    assert [h["row"] for h in notes["held_back"]] == [30, 38]  # V100, a 48 GB RTX 4090
    for p in bundled:
        assert p["source"] and (p["as_of"] or "source date:" in p["note"])
    by_id = {p["id"]: p for p in bundled}
    assert by_id["rg28"]["region_key"] == "japan"  # Sakura Ishikari: Japan, not Tokyo
    assert by_id["rg20"]["region_key"] == "us_west"  # us-west-1 is not Los Angeles
    assert by_id["rg23"]["region_key"] == "los_angeles"
    assert by_id["rg28"]["fx"]["as_of"] == "2026-05-08"
    assert by_id["rg28"]["usd_per_device_hour"] == pytest.approx(990 / 156.76, abs=1e-5)
    assert by_id["rg37"]["marketplace"] is False
    assert next(p for p in imported.prices if p["id"] == "rg39")["marketplace"] is True
    assert any("Japan is not always Tokyo" in n for n in notes["notes"])


def test_bad_offer_rows_are_all_listed_and_none_is_returned(catalog: Catalog) -> None:
    rows = json.loads(OFFERS.read_text("utf-8"))
    bad = copy.deepcopy(rows)
    bad[0]["price"] = -5
    bad[1]["currency"] = "EUR"
    bad[2]["region"] = "Mars"
    bad[3]["source_date"] = "2026-02-30"
    bad[4]["gpu_count"] = 0
    del bad[5]["source"]
    bad[6]["price_usd_per_month_per_gpu"] = 1.0
    bad[7] = "not an offer"
    with pytest.raises(CatalogError) as caught:
        import_offers(
            bad, accelerator_ids=list(catalog.by_id), fx=catalog.raw["regional_offers"]["fx"]
        )
    paths = [p.path for p in caught.value.problems]
    assert paths == [
        "offers[0].price",
        "offers[1].currency",
        "offers[2].region",
        "offers[3].source_date",
        "offers[4].gpu_count",
        "offers[5].source",
        "offers[6].price_usd_per_month_per_gpu",
        "offers[7]",
    ]


def test_every_price_that_names_a_unit_names_one_the_catalog_defines(catalog: Catalog) -> None:
    # A row whose unit the catalog does not define is planned as loose cards: a tensor-parallel
    # group of 2 on Nebius's 1-GPU H200 VMs was priced that way until its presets were added.
    named = [p for p in catalog.raw["prices"] if p.get("unit_id")]
    assert named
    assert {p["id"]: p["unit_id"] for p in named if p["unit_id"] not in catalog.raw["units"]} == {}
