"""The operator's house offers the demo seed (`manage.py seed`) adds to the catalog, and the
sample assessment of its core customer.

Every demo row is marked `demo`. No public list price was found for a dedicated or bare-metal
H100, H200 or L40S server in Hong Kong, Tokyo or Los Angeles (shared/reference/
offers_hk_tokyo_la.md §5, "Searched for but not found"; stored public pages searched
2026-12-02), so each house server carries a demo price list per term (by the month, 12 months,
36 months) derived from a named comparable public offer of the same card in the same server
size, its arithmetic in the row's source (`COMPARABLES`). An operator replaces them with its own
prices in the house-offer form; a row it marks "on request" ranks on an indicative figure.

The term ratios are one comparable's: Sakura's 8 × H100 bare metal costs ¥2,436,896 a month on
a 3-year contract, and the AIXS survey quotes it at ~$20,307 a month without one against
~$16,246 on three years (offers_hk_tokyo_la.md §2 item 3): 36 months = 0.8 × the monthly price.
Twelve months is taken halfway (0.9), a demo assumption. No regional premium is added.

The catalog has no RTX 4090, so the Hong Kong RTX 4090 server is listed in `HELD_BACK` with that
reason instead of as a price row.
"""

from __future__ import annotations

import copy
from typing import Any

from advisor.engine.answers.samples import DELETE, sample

CHECKED = "2026-12-02"
# JPY per USD: offers_hk_tokyo_la.md §1 (ECB reference rates of 2026-05-08, derived).
JPY_PER_USD = 156.76
EUR_PER_USD_NOTE = "converted at the reference's own EUR→USD rate (deployment_offers.json)"
# Price of a term as a share of the monthly (no-term) price; see the module docstring.
TERMS: tuple[tuple[str, str, int, float], ...] = (
    ("monthly", "", 1, 1.0),
    ("commit_1y", "-12m", 12, 0.9),
    ("commit_3y", "-36m", 36, 0.8),
)
# Per card: the comparable public offer a demo price is derived from, and its monthly price per
# GPU in USD (the 36-month figure of a 3-year offer divided by 0.8).
COMPARABLES: dict[str, tuple[str, float]] = {
    "nvidia-h100-sxm": (
        "Sakura Internet 高火力 PHY 8 × H100 bare metal, ¥2,436,896 per server-month on a "
        "3-year contract (offers_hk_tokyo_la.json, 2026-06-13, secondary) = $15,545.65 at "
        f"{JPY_PER_USD} JPY/USD = $1,943.21 per GPU-month on 36 months; monthly = ÷ 0.8",
        round(2436896 / JPY_PER_USD / 8 / 0.8, 2),
    ),
    "nvidia-h200": (
        "HIGHRESO (GPUSOROBAN) 8 × H200 SXM node, ¥2,783,000 per month (offers_hk_tokyo_la.json, "
        f"AIXS survey 2025-03) = $17,753.25 at {JPY_PER_USD} JPY/USD = $2,219.16 per GPU-month",
        round(2783000 / JPY_PER_USD / 8, 2),
    ),
    "nvidia-l40s": (
        "Contabo L40S dedicated server, €690 per month (deployment_offers.json, 2026-08-25) = "
        "$768.18 per GPU-month, the median of the reference's three monthly dedicated L40S "
        "rows (Leaseweb $684.68, Contabo $768.18, OVHcloud $1,122.21), "
        f"{EUR_PER_USD_NOTE}",
        768.18,
    ),
    "nvidia-rtx-6000-ada": (
        "Hetzner Server Auction RTX 6000 Ada, €771 per month (deployment_offers.json, "
        f"2026-08-25) = $858.35 per GPU-month, {EUR_PER_USD_NOTE}",
        858.35,
    ),
}
_SOURCE = (
    "Demo price, not a quote (manage.py seed): the operator's server as it would be sold. No "
    "public list price for this server in this city was found (shared/reference/"
    "offers_hk_tokyo_la.md section 5; stored public pages searched {checked}). Derived from "
    "{comparable}; {term} = {share:g} × monthly = ${figure:,.2f} per GPU-month, "
    "${server:,.2f} per {gpus}-GPU server-month. No regional premium added."
)
_TERM_WORDS = {"monthly": "by the month", "commit_1y": "12 months", "commit_3y": "36 months"}


def _offer(
    key: str,
    acc_id: str,
    gpus: int,
    region: str,
    region_key: str,
    modes: list[str],
    server: dict[str, Any],
) -> list[dict[str, Any]]:
    """The server's price rows, one per term."""
    comparable, monthly = COMPARABLES[acc_id]
    rows = []
    for billing, suffix, months, share in TERMS:
        figure = round(monthly * share, 2)
        rows.append(
            {
                "id": key + suffix,
                "accelerator_id": acc_id,
                "provider": "",  # the operator's public name, filled in by the seed
                "cloud": "other",
                "modes": modes,
                "billing": billing,
                "usd_per_device_hour": None,
                "usd_per_device_month": figure,
                "region": region,
                "region_key": region_key,
                "source": _SOURCE.format(
                    checked=CHECKED,
                    comparable=comparable,
                    term=_TERM_WORDS[billing],
                    share=share,
                    figure=figure,
                    server=figure * gpus,
                    gpus=gpus,
                ),
                "as_of": CHECKED,
                "estimated": False,
                "derived": True,
                "note": f"Demo price ({_TERM_WORDS[billing]}), derived from a public comparable.",
                "gpus_per_unit": gpus,
                "unit": server["name"],
                "house": True,
                "demo": True,
                "server": {**server, "gpus": gpus, "min_term_months": months},
            }
        )
    return rows


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
}
# Servers as the operator's sales team would enter them in the house-offer form. CN2 GIA is
# sold in tens of Mbps (offers_hk_tokyo_la.md section 4), so each includes 30 to 100 Mbps.
_SERVERS: tuple[list[dict[str, Any]], ...] = (
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
    # The RTX-class server: four 48 GB RTX 6000 Ada cards on PCIe, with the
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
# Every term of every server, as price rows.
HOUSE_OFFERS: tuple[dict[str, Any], ...] = tuple(row for rows in _SERVERS for row in rows)
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
