"""Reaching mainland China. A hosted option's premium route (CN2 GIA/CMI) covers
the Mbps a serving workload needs up to what its servers include; more is priced per Mbps-month
from the offer and enters the total (so it ranks), or the result says in words that it is not
priced. On public cloud, Google's published China egress rate is used; a cloud without one is
priced at its internet rate in the option's region and the result names it."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.engine import Catalog, ScoringModel, evaluate
from tests.engine.test_expert_cases import team, workload
from tests.engine.test_house_offers import SERVER, _house, _with


def _serving_china(tokens_per_day: int = 20_000_000_000, **deployment: Any) -> dict[str, Any]:
    """A Hong Kong team serving a small model to users in mainland China: at this load about
    36 Mbps of responses at peak (steady traffic), spread over 7 eight-card H100 servers."""
    return team(
        model={"preset": "llama-3.2-1b"},
        deployment={
            "allowed_modes": ["dedicated_hosting"],
            "china_connectivity": True,
            **deployment,
        },
        inference={"tokens_per_day": tokens_per_day, "traffic": "steady"},
    )


def _route(mbps: int, per_mbps: float | None = None, route: str = "cn2_gia") -> dict[str, Any]:
    extra = {} if per_mbps is None else {"china_bandwidth_usd_per_mbps_month": per_mbps}
    return {**SERVER, "china_bandwidth_mbps": mbps, "china_bandwidth_type": route, **extra}


def _no_route_h200(usd_per_card_month: float) -> dict[str, Any]:
    return {
        **_house("other-h200", "nvidia-h200", usd_per_device_month=usd_per_card_month),
        "provider": "Another Host",
        "house": False,
        "server": None,
    }


def _options(result: dict[str, Any]) -> list[dict[str, Any]]:
    return workload(result, "realtime_inference")["options"]


def _option(result: dict[str, Any], acc_id: str) -> dict[str, Any]:
    return next(o for o in _options(result) if o["accelerator_id"] == acc_id)


def test_thirty_mbps_of_cn2_gia_per_server_covers_a_chat_service_at_no_extra_cost(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    house = _with(
        catalog,
        _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500, server=_route(30, 80)),
    )
    result = evaluate(_serving_china(), house, scoring)
    h100 = _option(result, "nvidia-h100-sxm")
    bw = h100["china_bandwidth"]
    assert bw["status"] == "covered" and bw["route"] == "cn2_gia"
    assert 30 < bw["needed_mbps"] < 40 and bw["basis"] == "peak"
    assert bw["included_mbps"] == 30 * bw["servers"] and bw["extra_mbps"] == 0
    assert h100["china_bandwidth_usd_per_month"] == 0.0
    first = _options(result)[0]
    assert first["accelerator_id"] == "nvidia-h100-sxm"
    assert any("which covers it" in n and "CN2 GIA" in n for n in result["cost"]["notes"])


def test_mbps_beyond_what_the_servers_include_are_priced_per_mbps_month_into_the_total(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    def h100(per_mbps: float) -> dict[str, Any]:
        house = _with(
            catalog,
            _house(
                "house-h100",
                "nvidia-h100-sxm",
                usd_per_device_month=1500,
                server=_route(2, per_mbps),
            ),
        )
        return _option(evaluate(_serving_china(), house, scoring), "nvidia-h100-sxm")

    cheap, dear = h100(10), h100(200)
    bw = dear["china_bandwidth"]
    assert bw["status"] == "priced" and bw["included_mbps"] == 2 * bw["servers"]
    assert bw["extra_mbps"] == pytest.approx(bw["needed_mbps"] - bw["included_mbps"], abs=1)
    assert bw["usd_per_mbps_month"] == 200 and bw["provider"] == "Harbour Compute"
    assert dear["china_bandwidth_usd_per_month"] == bw["extra_mbps"] * 200
    assert dear["monthly_cost_usd"] - cheap["monthly_cost_usd"] == pytest.approx(
        bw["extra_mbps"] * 190, abs=0.02
    )
    assert dear["cost_to_result"]["usd"] == dear["monthly_cost_usd"]


@pytest.mark.parametrize(("per_mbps", "cheaper"), [(10, False), (200, True)])
def test_the_price_of_the_extra_mbps_is_weighed_against_an_offer_without_a_route(
    catalog: Catalog, scoring: ScoringModel, per_mbps: float, cheaper: bool
) -> None:
    both = _with(
        catalog,
        _house(
            "house-h100",
            "nvidia-h100-sxm",
            usd_per_device_month=1500,
            server=_route(2, per_mbps),
        ),
        # Priced between the two H100 totals (cheap and dear Mbps) for the calibrated replica
        # counts with a production service's spare server (38 + 8 H200 against 46 + 8 H100).
        _no_route_h200(1800),
    )
    result = evaluate(_serving_china(), both, scoring)
    # The operator's server comes first either way; when its extra Mbps make it dearer than
    # the other host's H200, the report says so and by how much.
    assert _options(result)[0]["accelerator_id"] == "nvidia-h100-sxm"
    h100, h200 = _option(result, "nvidia-h100-sxm"), _option(result, "nvidia-h200")
    assert (h200["cost_to_result"]["usd"] < h100["cost_to_result"]["usd"]) is cheaper
    said = [n for n in result["cost"]["notes"] if "costs" in n and "less" in n]
    assert bool([n for n in said if "NVIDIA H200" in n and "Another Host" in n]) is cheaper
    # The offer without a route is never priced at zero for China: the line is None.
    assert h200["china_bandwidth"]["status"] == "no_route"
    assert h200["china_bandwidth_usd_per_month"] is None


def test_a_route_without_a_price_per_mbps_says_what_is_missing_in_both_languages(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    house = _with(
        catalog,
        _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500, server=_route(2)),
    )
    en = evaluate(_serving_china(), house, scoring)
    bw = _option(en, "nvidia-h100-sxm")["china_bandwidth"]
    assert bw["status"] == "not_priced" and bw["usd_per_month"] is None
    assert _option(en, "nvidia-h100-sxm")["china_bandwidth_usd_per_month"] is None
    (note,) = [n for n in en["cost"]["notes"] if "Mbps" in n]
    assert f"include {bw['included_mbps']:,.0f} Mbps of CN2 GIA" in note
    assert f"no price for the {bw['extra_mbps']} Mbps more" in note
    assert "ask the provider for a CN2 GIA/CMI price per Mbps-month" in note
    zh = evaluate(_serving_china(), house, scoring, lang="zh-hant")
    (zh_note,) = [n for n in zh["cost"]["notes"] if "Mbps" in n]
    assert "請向供應商索取 CN2 GIA／CMI 每 Mbps 每月的報價" in zh_note


def test_a_team_that_does_not_reach_china_gets_no_china_line(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    house = _with(
        catalog,
        _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500, server=_route(2, 200)),
    )
    result = evaluate(_serving_china(china_connectivity=False), house, scoring)
    for o in _options(result):
        assert "china_bandwidth" not in o and "china_bandwidth_usd_per_month" not in o
    assert not [n for n in result["cost"]["notes"] if "Mbps" in n]


def _cloud_team(cloud: str, china: bool = True) -> dict[str, Any]:
    return team(deployment={"china_connectivity": china, "clouds": [cloud]})


def test_aws_publishes_no_china_rate_so_its_hong_kong_internet_rate_is_used_and_said(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    result = evaluate(_cloud_team("aws"), catalog, scoring)
    first = _options(result)[0]
    assert first["prices"][first["billing_used"]]["region"] == "ap-east-1 (Hong Kong)"
    egress = first["china_egress"]
    assert egress == {
        "provider": "AWS",
        "cloud": "aws",
        "region": "ap-east-1 (Hong Kong)",
        "egress_figure": "aws_egress_usd_per_gb_hong_kong",
        "usd_per_gb": 0.12,
        "china_rate": False,
        # The path itself, from Hong Kong over the ordinary internet.
        "path": {
            "route": "internet",
            "premium_route": None,
            "round_trip_ms": catalog.figure("china_rtt_ms_internet_hong_kong"),
            "round_trip_figure": "china_rtt_ms_internet_hong_kong",
            "peak_loss": catalog.figure("china_loss_internet_peak"),
            "loss_figure": "china_loss_internet_peak",
        },
    }
    (note,) = [n for n in result["cost"]["notes"] if "egress price to mainland China" in n]
    assert "AWS publishes no egress price to mainland China" in note
    assert "AWS egress price in Hong Kong, $0.12/GB" in note
    zh = evaluate(_cloud_team("aws"), catalog, scoring, lang="zh-hant")
    assert any("AWS 未公布連往中國大陸的對外流量價格" in n for n in zh["cost"]["notes"])


def test_google_cloud_uses_its_published_china_rate(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    # The first option priced on Google Cloud (an A10G is offered in Hong Kong by AWS only).
    china = next(
        o for o in _options(evaluate(_cloud_team("gcp"), catalog, scoring)) if o["billing_used"]
    )
    world = next(
        o
        for o in _options(evaluate(_cloud_team("gcp", china=False), catalog, scoring))
        if o["billing_used"]
    )
    assert china["china_egress"]["china_rate"] is True
    assert china["egress_figure"] == "gcp_egress_china_usd_per_gb"
    assert world["egress_figure"] == "gcp_egress_usd_per_gb" and "china_egress" not in world
    # The same traffic at $0.23 instead of $0.12 a GB.
    assert china["egress_usd_per_month"] == pytest.approx(
        world["egress_usd_per_month"] * 0.23 / 0.12, abs=0.02
    )


@pytest.mark.parametrize(
    ("region", "figure"),
    [("tokyo", "aws_egress_usd_per_gb_tokyo"), ("us_east", "aws_egress_usd_per_gb")],
)
def test_aws_egress_follows_the_region_of_the_price_where_the_reference_has_one(
    catalog: Catalog, scoring: ScoringModel, region: str, figure: str
) -> None:
    doc = team(
        organization={"industry": "media", "regions": [region]},
        deployment={"clouds": ["aws"]},
    )
    first = _options(evaluate(doc, catalog, scoring))[0]
    assert first["prices"][first["billing_used"]]["cloud"] == "aws"
    assert first["egress_figure"] == figure


@pytest.mark.parametrize(("china", "chosen"), [(True, "house-h100-cn2"), (False, "house-h100")])
def test_of_two_offers_for_one_card_the_china_bandwidth_counts_in_the_cheaper(
    catalog: Catalog, scoring: ScoringModel, china: bool, chosen: str
) -> None:
    # 7 servers: the cheaper one needs 22 Mbps more at $200 (+$4,400 a month); the dearer one
    # costs $60 a card more (+$3,360) and its 30 Mbps a server cover the need.
    both = _with(
        catalog,
        _house("house-h100", "nvidia-h100-sxm", usd_per_device_month=1500, server=_route(2, 200)),
        _house("house-h100-cn2", "nvidia-h100-sxm", usd_per_device_month=1560, server=_route(30)),
    )
    h100 = _option(
        evaluate(_serving_china(china_connectivity=china), both, scoring), "nvidia-h100-sxm"
    )
    assert h100["prices"]["monthly"]["price_id"] == chosen
    if china:
        assert h100["china_bandwidth"]["status"] == "covered"
