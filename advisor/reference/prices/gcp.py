"""Google Cloud Billing Catalog API, https://cloudbilling.googleapis.com/v1: the Compute Engine
SKUs (and Cloud TPU's for TPU v4), paged JSON. Needs an API key (GCP_BILLING_API_KEY)."""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext_noop

from advisor.reference.prices.base import (
    MAX_PAGES,
    PriceTarget,
    PriceUpdate,
    Source,
    SourceResult,
    Transport,
    check_update,
    default_region,
    region_code,
    say,
    to_decimal,
)

GCP_API = "https://cloudbilling.googleapis.com/v1"
GCP_DEFAULT_REGION = ("us-central1", "us_central")
GCP_REGION = r"^([a-z]+-[a-z]+\d+)"
GCP_COMPUTE_SERVICE = "6F81-5844-456A"
GCP_TPU_SERVICE = "E000-3F24-B8AA"  # older TPUs (v2-v4); newer ones are Compute Engine SKUs
GCP_USAGE = {
    "on_demand": "OnDemand",
    "spot": "Preemptible",
    "commit_1y": "Commit1Yr",
    "commit_3y": "Commit3Yr",
}
# What a catalog row prices: the GPU alone (T4, attached to any N1 VM) or the whole accelerator
# VM shared by its GPUs (the catalog's L4, A100 and H100 rows are g2-standard-4, a2-highgpu-1g,
# a2-ultragpu-1g and a3-highgpu-8g per GPU). (description pattern, quantity) per component.
_EXCLUDED = re.compile(r"\b(Custom|DWS|Reserved|Calendar|Sole Tenancy|Mega|Plus|Extended)\b", re.I)


def _family(name: str, gpu: str, cores: int, ram_gib: int, gpus: int) -> dict[str, Any]:
    return {
        "machine": name,
        "gpus": gpus,
        "parts": [
            (rf"\b{gpu}\b", gpus),
            (rf"\b{name[:2].upper()} (Instance Core|Cpu)\b", cores),
            (rf"\b{name[:2].upper()} (Instance Ram|Ram)\b", ram_gib),
        ],
    }


GCP_MACHINES: dict[str, dict[str, Any]] = {
    "nvidia-t4": {"machine": "T4 GPU", "gpus": 1, "parts": [(r"\bNvidia Tesla T4 GPU\b", 1)]},
    "nvidia-l4": _family("g2-standard-4", "Nvidia L4 GPU", 4, 16, 1),
    "nvidia-a100-40gb": _family("a2-highgpu-1g", "Nvidia Tesla A100 GPU", 12, 85, 1),
    "nvidia-a100-80gb": _family("a2-ultragpu-1g", "Nvidia Tesla A100 80GB GPU", 12, 170, 1),
    "nvidia-h100-sxm": _family("a3-highgpu-8g", "Nvidia H100 80GB GPU", 208, 1872, 8),
}
# TPUs are priced per chip-hour.
for _key, _pattern in {
    "tpu-v4": r"\bTpu[- ]?v4\b",
    "tpu-v5e": r"\bTpu[- ]?v5 ?(e|lite)",
    "tpu-v5p": r"\bTpu[- ]?v5 ?p\b",
    "tpu-v6e": r"\bTpu[- ]?v6 ?e\b",
    "tpu-7x": r"\bTpu[- ]?7x\b",
}.items():
    GCP_MACHINES[_key] = {"machine": f"{_key} chip", "gpus": 1, "parts": [(_pattern, 1)]}


def gcp_url(service: str, key: str, token: str = "") -> str:
    query = {"currencyCode": "USD", "pageSize": "5000", "key": key}
    if token:
        query["pageToken"] = token
    return f"{GCP_API}/services/{service}/skus?" + urllib.parse.urlencode(query)


def _gcp_unit_price(sku: dict[str, Any]) -> tuple[Decimal | None, str]:
    """(USD per unit from the newest pricing info's first tier, usage unit)."""
    info = sku["pricingInfo"][-1]
    expression = info.get("pricingExpression") if isinstance(info, dict) else None
    if not isinstance(expression, dict):
        return None, ""
    rates = expression.get("tieredRates")
    unit = expression.get("usageUnit")
    if not isinstance(rates, list) or not rates or not isinstance(unit, str):
        return None, ""
    money = rates[-1].get("unitPrice") if isinstance(rates[-1], dict) else None
    if not isinstance(money, dict) or money.get("currencyCode") != "USD":
        return None, unit
    units, nanos = to_decimal(money.get("units", "0")), money.get("nanos", 0)
    if units is None or not isinstance(nanos, int) or isinstance(nanos, bool):
        return None, unit
    return units + Decimal(nanos) / Decimal(1_000_000_000), unit


def _gcp_skus(
    transport: Transport, service: str, key: str, problems: list[str]
) -> list[dict[str, Any]]:
    skus: list[dict[str, Any]] = []
    token = ""
    for page in range(MAX_PAGES):
        label = f"Google Cloud Billing Catalog {service} page {page + 1}"
        try:
            document = json.loads(transport.get(gcp_url(service, key, token)))
        except (ValueError, UnicodeDecodeError) as error:
            problems.append(say("%(where)s: not JSON (%(error)s)", where=label, error=error))
            return []
        if not isinstance(document, dict) or not isinstance(document.get("skus"), list):
            problems.append(say("%(where)s: no skus list", where=label))
            return []
        page_problems: list[str] = []
        for i, sku in enumerate(document["skus"]):
            where = f"{label}: skus[{i}]"
            if not isinstance(sku, dict):
                page_problems.append(say("%(where)s is not an object", where=where))
                continue
            category = sku.get("category")
            if not isinstance(sku.get("description"), str):
                page_problems.append(
                    say("%(where)s.description is missing or not text", where=where)
                )
            if not isinstance(category, dict) or not isinstance(category.get("usageType"), str):
                page_problems.append(say("%(where)s.category.usageType is missing", where=where))
            regions = sku.get("serviceRegions")
            if not isinstance(regions, list) or not all(isinstance(r, str) for r in regions):
                page_problems.append(
                    say("%(where)s.serviceRegions is not a list of names", where=where)
                )
            info = sku.get("pricingInfo")
            if not isinstance(info, list) or not info:
                page_problems.append(say("%(where)s.pricingInfo is empty", where=where))
        problems.extend(page_problems)
        if page_problems:
            return []
        skus.extend(document["skus"])
        token = document.get("nextPageToken") or ""
        if not isinstance(token, str):
            problems.append(say("%(where)s: nextPageToken is not text", where=label))
            return []
        if not token:
            return skus
    problems.append(
        say(
            "Google Cloud Billing Catalog %(service)s: more than %(pages)s pages",
            service=service,
            pages=MAX_PAGES,
        )
    )
    return []


def collect_gcp(
    targets: Iterable[PriceTarget], transport: Transport, *, today: date, api_key: str = ""
) -> SourceResult:
    result = SourceResult()
    wanted: list[tuple[PriceTarget, str]] = []
    for target in targets:
        if target.cloud != "gcp":
            continue
        region = region_code(target.region, GCP_REGION) or GCP_DEFAULT_REGION[0]
        if target.accelerator not in GCP_MACHINES or target.billing not in GCP_USAGE:
            result.left.append(target.key)
            continue
        wanted.append((target, region))
    if not wanted:
        return result
    skus = _gcp_skus(transport, GCP_COMPUTE_SERVICE, api_key, result.problems)
    if any(t.accelerator == "tpu-v4" for t, _ in wanted) and not result.problems:
        skus += _gcp_skus(transport, GCP_TPU_SERVICE, api_key, result.problems)
    if result.problems:
        return result
    for target, region in wanted:
        machine = GCP_MACHINES[target.accelerator]
        usage = GCP_USAGE[target.billing]
        label = say("Price %(id)s", id=target.key) + (
            f" (Google Cloud {machine['machine']} {region} {usage})"
        )
        total = Decimal(0)
        used: list[str] = []
        for pattern, quantity in machine["parts"]:
            matches = {
                part: sku["description"]
                for sku in skus
                if sku["category"].get("usageType") == usage
                and region in sku["serviceRegions"]
                and re.search(pattern, sku["description"], re.I)
                and not _EXCLUDED.search(sku["description"])
                and (usage != "OnDemand" or "Preemptible" not in sku["description"])
                for part, unit in [_gcp_unit_price(sku)]
                if part is not None and unit in {"h", "GiBy.h"}
            }
            if len(matches) != 1:
                result.problems.append(
                    say(
                        "%(row)s: %(count)s different hourly prices match %(pattern)s",
                        row=label,
                        count=len(matches),
                        pattern=repr(pattern),
                    )
                    + (say(" (partial answer?)") if not matches else "")
                )
                break
            part, description = next(iter(matches.items()))
            total += part * quantity
            used.append(f"{quantity} × {description}")
        else:
            gpus = machine["gpus"]
            per_device = check_update(target, total / gpus, result.problems, label)
            if per_device is None:
                continue
            result.updates.append(
                PriceUpdate(
                    key=target.key,
                    usd_per_device_hour=per_device,
                    source=(
                        f"Google Cloud Billing Catalog API (cloudbilling.googleapis.com), "
                        f"{machine['machine']} {region} {usage}"
                        + (f", ÷ {gpus}" if gpus > 1 else "")
                        + f"; read {today.isoformat()}"
                    ),
                    derived=len(used) > 1,
                    detail={"machine": machine["machine"], "region": region, "skus": used},
                    **default_region(target, GCP_DEFAULT_REGION, GCP_REGION),
                )
            )
    if result.problems:
        result.updates = []
    return result


SOURCE = Source(
    name="gcp",
    label="Google Cloud Billing Catalog",
    page=f"{GCP_API}/services/{GCP_COMPUTE_SERVICE}/skus",
    collector=collect_gcp,
    missing_key=gettext_noop(
        "No Google Cloud API key (GCP_BILLING_API_KEY is not set): Google Cloud "
        "prices were not fetched."
    ),
)
