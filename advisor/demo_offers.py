"""The operator's house offers the demo seed (`manage.py seed`) adds to the catalog, and the
sample assessment of its core customer.

Issue 22 item 3: every demo row is marked `demo` and priced only from a sourced public list
price for that server in that city, otherwise "on request". None was found: the regional
reference (shared/reference/offers_hk_tokyo_la.md §5, "Searched for but not found") lists no
public monthly price for a dedicated or bare-metal H100, H200 or L40S server in Hong Kong, Tokyo
or Los Angeles (Dataplugs, Zenlayer, Server.HK, Simcentric, 44ns, RAKsmart, Vultr, Latitude.sh,
Psychz, QuadraNet), and a search of stored public pages on 2026-12-02 found none either. So
every row below is on request. The RTX-class server is an RTX 6000 Ada server in Los Angeles (the
catalog carries that card since 2026-12-05, with RunPod, Hetzner and purchase prices); the catalog
has no RTX 4090, so the Hong Kong RTX 4090 server is listed in `HELD_BACK` with that reason
instead of as a price row.
"""

from __future__ import annotations

import copy
from typing import Any

from advisor.engine.samples import DELETE, sample

CHECKED = "2026-12-02"
_SOURCE = (
    "Demo house offer (manage.py seed): the operator's server as it would be sold. No public "
    "list price for this server in this city was found (shared/reference/offers_hk_tokyo_la.md "
    "section 5; stored public pages searched {checked}), so it is sold on request."
)


def _offer(
    key: str,
    acc_id: str,
    gpus: int,
    region: str,
    region_key: str,
    modes: list[str],
    server: dict[str, Any],
) -> dict[str, Any]:
    return {
        "id": key,
        "accelerator_id": acc_id,
        "provider": "",  # the operator's public name, filled in by the seed
        "cloud": "other",
        "modes": modes,
        "billing": "monthly",
        "usd_per_device_hour": None,
        "usd_per_device_month": None,
        "region": region,
        "region_key": region_key,
        "source": _SOURCE.format(checked=CHECKED),
        "as_of": CHECKED,
        "estimated": False,
        "derived": False,
        "note": "Demo row: price on request.",
        "gpus_per_unit": gpus,
        "unit": server["name"],
        "house": True,
        "demo": True,
        "price_on_request": True,
        "server": {**server, "gpus": gpus},
    }


_HOSTED = ["dedicated_hosting", "bare_metal"]
# The Los Angeles host of the 4-card L40S server, which the RTX 6000 Ada server shares.
_LAX_L40S_4: dict[str, Any] = {
    "name": "LAX-L40S-4",
    "cpu": "2 × AMD EPYC 9254 (48 cores)",
    "ram_gb": 512,
    "nvme_tb": 7.68,
    "network_gbps": 25.0,
    "china_bandwidth_type": "cn2_gia",
    "china_bandwidth_mbps": 30,
    "china_bandwidth_usd_per_mbps_month": None,
    "min_term_months": 12,
}
# Servers as the operator's sales team would enter them in the house-offer form. CN2 GIA is
# sold in tens of Mbps (offers_hk_tokyo_la.md section 4), so each includes 30 to 100 Mbps.
HOUSE_OFFERS: tuple[dict[str, Any], ...] = (
    _offer(
        "demo-hk-l40s-4",
        "nvidia-l40s",
        4,
        "Hong Kong (Tseung Kwan O)",
        "hong_kong",
        _HOSTED,
        {
            "name": "HK-L40S-4",
            "cpu": "2 × AMD EPYC 9254 (48 cores)",
            "ram_gb": 512,
            "nvme_tb": 7.68,
            "network_gbps": 25.0,
            "china_bandwidth_type": "cn2_gia",
            "china_bandwidth_mbps": 50,
            "china_bandwidth_usd_per_mbps_month": None,
            "min_term_months": 12,
        },
    ),
    _offer(
        "demo-hk-h100-8",
        "nvidia-h100-sxm",
        8,
        "Hong Kong (Tseung Kwan O)",
        "hong_kong",
        _HOSTED,
        {
            "name": "HK-H100-8",
            "cpu": "2 × AMD EPYC 9354 (64 cores)",
            "ram_gb": 2048,
            "nvme_tb": 30.72,
            "network_gbps": 100.0,
            "china_bandwidth_type": "cn2_gia",
            "china_bandwidth_mbps": 100,
            "china_bandwidth_usd_per_mbps_month": None,
            "min_term_months": 12,
        },
    ),
    _offer(
        "demo-tokyo-h200-8",
        "nvidia-h200",
        8,
        "Tokyo (Otemachi)",
        "tokyo",
        ["bare_metal"],
        {
            "name": "TYO-H200-8",
            "cpu": "2 × Intel Xeon Platinum 8480+ (112 cores)",
            "ram_gb": 2048,
            "nvme_tb": 30.72,
            "network_gbps": 400.0,
            "china_bandwidth_type": "cn2_gia",
            "china_bandwidth_mbps": 30,
            "china_bandwidth_usd_per_mbps_month": None,
            "min_term_months": 12,
        },
    ),
    _offer(
        "demo-tokyo-l40s-8",
        "nvidia-l40s",
        8,
        "Tokyo (Otemachi)",
        "tokyo",
        _HOSTED,
        {
            "name": "TYO-L40S-8",
            "cpu": "2 × AMD EPYC 9354 (64 cores)",
            "ram_gb": 1024,
            "nvme_tb": 15.36,
            "network_gbps": 100.0,
            "china_bandwidth_type": "cn2_gia",
            "china_bandwidth_mbps": 30,
            "china_bandwidth_usd_per_mbps_month": None,
            "min_term_months": 6,
        },
    ),
    _offer(
        "demo-la-h100-8",
        "nvidia-h100-sxm",
        8,
        "Los Angeles (One Wilshire)",
        "los_angeles",
        _HOSTED,
        {
            "name": "LAX-H100-8",
            "cpu": "2 × AMD EPYC 9354 (64 cores)",
            "ram_gb": 2048,
            "nvme_tb": 30.72,
            "network_gbps": 100.0,
            "china_bandwidth_type": "cn2_gia",
            "china_bandwidth_mbps": 100,
            "china_bandwidth_usd_per_mbps_month": None,
            "min_term_months": 12,
        },
    ),
    _offer(
        "demo-la-l40s-4",
        "nvidia-l40s",
        4,
        "Los Angeles (One Wilshire)",
        "los_angeles",
        _HOSTED,
        _LAX_L40S_4,
    ),
    # The RTX-class server (issue 22 item 3): four 48 GB RTX 6000 Ada cards on PCIe, with the
    # host the operator enters for its 4-card L40S server (same PCIe 4.0 cards, 48 GB each).
    _offer(
        "demo-la-rtx6000ada-4",
        "nvidia-rtx-6000-ada",
        4,
        "Los Angeles (One Wilshire)",
        "los_angeles",
        _HOSTED,
        {**_LAX_L40S_4, "name": "LAX-RTX6000ADA-4"},
    ),
)
# Servers the operator sells that the catalog cannot price or size (no such card in it).
HELD_BACK: tuple[dict[str, str], ...] = (
    {
        "offer": "HK-RTX4090-8 (8 × RTX 4090, CN2 GIA)",
        "region": "Hong Kong",
        "reason": "the catalog has no RTX 4090",
    },
)


def house_offers(provider: str) -> list[dict[str, Any]]:
    """The demo price rows, credited to the operator by its public name."""
    return [{**copy.deepcopy(row), "provider": provider} for row in HOUSE_OFFERS]


CORE_CUSTOMER_TITLE = "Hong Kong assistant serving mainland China"
# The operator's core customer: a Hong Kong team serving users in mainland China from dedicated
# servers (a 70B-class assistant around the clock), with CN2 GIA reach.
CORE_CUSTOMER: dict[str, Any] = sample(
    **{
        "organization.industry": "ecommerce",
        "organization.regions": ["hong_kong"],
        "workloads": [{"kind": "realtime_inference", "schedule": "continuous"}],
        "maturity.demand": "predictable",
        "deployment.allowed_modes": ["dedicated_hosting", "bare_metal"],
        "deployment.china_connectivity": True,
        "cost.billing": "committed",
        "cost.monthly_budget_usd": 30000,
        "cost.hours_per_day": 24,
        "training.epochs": DELETE,
        "training.deadline_hours": DELETE,
        "inference.prompt_tokens": 3584,
        "inference.output_tokens": 512,
        "inference.p95_latency_ms": 4000,
        "inference.tokens_per_day": 200_000_000,
        "inference.traffic": "daily_cycle",
    }
)
