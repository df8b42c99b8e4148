"""Azure Retail Prices API, https://prices.azure.com/api/retail/prices: JSON, one query per VM
size and region, following NextPageLink pages. No account or key."""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext, gettext_noop

from advisor.reference.prices.base import (
    HOURS_PER_YEAR,
    MAX_PAGES,
    PriceTarget,
    PriceUpdate,
    Source,
    SourceResult,
    Transport,
    check_update,
    default_region,
    redact,
    region_code,
    say,
    to_decimal,
)

AZURE_API = "https://prices.azure.com/api/retail/prices"
AZURE_DEFAULT_REGION = ("eastus", "us_east")
AZURE_REGION = r"^([a-z]+[a-z0-9]*)\b"
# Accelerator → (VM size, GPUs in it). The catalog's Azure rows are these sizes divided by their
# GPU count (NC24ads A100 v4 is one A100 80GB; the ND sizes are 8-GPU nodes).
AZURE_VMS: dict[str, tuple[str, int]] = {
    "nvidia-a100-40gb": ("Standard_ND96asr_v4", 8),
    "nvidia-a100-80gb": ("Standard_NC24ads_A100_v4", 1),
    "nvidia-h100-sxm": ("Standard_ND96isr_H100_v5", 8),
    "nvidia-h200": ("Standard_ND96isr_H200_v5", 8),
}
AZURE_BILLINGS = {"on_demand", "spot", "commit_1y", "commit_3y"}
AZURE_ITEM_FIELDS: dict[str, tuple[type | tuple[type, ...], str]] = {
    "currencyCode": (str, gettext_noop("text")),
    "retailPrice": ((int, float), gettext_noop("a number")),
    "armRegionName": (str, gettext_noop("text")),
    "armSkuName": (str, gettext_noop("text")),
    "productName": (str, gettext_noop("text")),
    "skuName": (str, gettext_noop("text")),
    "type": (str, gettext_noop("text")),
    "unitOfMeasure": (str, gettext_noop("text")),
}


def azure_url(vm: str, region: str) -> str:
    query = (
        f"serviceName eq 'Virtual Machines' and armSkuName eq '{vm}' "
        f"and armRegionName eq '{region}'"
    )
    return f"{AZURE_API}?" + urllib.parse.urlencode(
        {"api-version": "2023-01-01-preview", "currencyCode": "USD", "$filter": query}
    )


def _azure_items(transport: Transport, url: str, problems: list[str]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    next_url: str | None = url
    for page in range(MAX_PAGES):
        if next_url is None:
            return items
        if not next_url.startswith(AZURE_API):
            problems.append(
                say(
                    "Azure page %(page)s: NextPageLink leaves %(api)s", page=page + 1, api=AZURE_API
                )
            )
            return []
        label = f"Azure {redact(next_url)[len(AZURE_API) :][:160]} page {page + 1}"
        try:
            document = json.loads(transport.get(next_url))
        except (ValueError, UnicodeDecodeError) as error:
            problems.append(say("%(where)s: not JSON (%(error)s)", where=label, error=error))
            return []
        if not isinstance(document, dict) or not isinstance(document.get("Items"), list):
            problems.append(say("%(where)s: no Items list", where=label))
            return []
        link = document.get("NextPageLink")
        if link is not None and not isinstance(link, str):
            problems.append(say("%(where)s: NextPageLink is not text", where=label))
            return []
        page_problems: list[str] = []
        for i, item in enumerate(document["Items"]):
            if not isinstance(item, dict):
                page_problems.append(
                    say("%(where)s: Items[%(i)s] is not an object", where=label, i=i)
                )
                continue
            for name, (kind, said) in AZURE_ITEM_FIELDS.items():
                if not isinstance(item.get(name), kind) or isinstance(item.get(name), bool):
                    page_problems.append(
                        say(
                            "%(where)s: Items[%(i)s].%(name)s is missing or not %(kind)s",
                            where=label,
                            i=i,
                            name=name,
                            kind=gettext(said),
                        )
                    )
        problems.extend(page_problems)
        if page_problems:
            return []
        items.extend(document["Items"])
        next_url = link
    problems.append(
        say("Azure: more than %(pages)s pages for %(url)s", pages=MAX_PAGES, url=redact(url))
    )
    return []


def _azure_price(items: list[dict[str, Any]], billing: str) -> tuple[Decimal, str] | None:
    """The per-VM hourly price for `billing` from one size's items (Linux, USD, retail)."""
    found: list[tuple[Decimal, str]] = []
    for item in items:
        if "Windows" in item["productName"] or item["currencyCode"] != "USD":
            continue
        sku, kind, term = item["skuName"], item["type"], item.get("reservationTerm")
        price = to_decimal(item["retailPrice"])
        if price is None:
            continue
        low_priority = "Low Priority" in sku
        spot = sku.endswith(" Spot")
        if billing == "on_demand" and kind == "Consumption" and not spot and not low_priority:
            found.append((price, f"{sku}, pay as you go"))
        elif billing == "spot" and kind == "Consumption" and spot:
            found.append((price, f"{sku}, spot"))
        elif billing in {"commit_1y", "commit_3y"} and kind == "Reservation":
            years = 1 if billing == "commit_1y" else 3
            if term == f"{years} Year" + ("s" if years > 1 else ""):
                # A reservation's retail price is the whole term, paid for every hour of it.
                found.append((price / (HOURS_PER_YEAR * years), f"{sku}, {term} reservation"))
    prices = {p for p, _ in found}
    if len(prices) != 1:
        return None
    return found[0]


def collect_azure(
    targets: Iterable[PriceTarget], transport: Transport, *, today: date, **_: Any
) -> SourceResult:
    result = SourceResult()
    wanted: dict[tuple[str, str], list[PriceTarget]] = {}
    for target in targets:
        if target.cloud != "azure":
            continue
        vm = AZURE_VMS.get(target.accelerator)
        region = region_code(target.region, AZURE_REGION) or AZURE_DEFAULT_REGION[0]
        if vm is None or target.billing not in AZURE_BILLINGS:
            result.left.append(target.key)
            continue
        wanted.setdefault((vm[0], region), []).append(target)
    for (size, region), rows in sorted(wanted.items()):
        before = len(result.problems)
        items = _azure_items(transport, azure_url(size, region), result.problems)
        if not items and len(result.problems) == before:
            result.problems.append(
                say(
                    "Azure: no prices for %(size)s in %(region)s (partial answer?)",
                    size=size,
                    region=region,
                )
            )
        for target in rows:
            found = _azure_price(items, target.billing)
            label = (
                say("Price %(id)s", id=target.key) + f" (Azure {size} {region} {target.billing})"
            )
            if found is None:
                if items:
                    result.problems.append(
                        say("%(row)s: no single Linux retail price in the answer", row=label)
                    )
                continue
            per_vm, what = found
            gpus = AZURE_VMS[target.accelerator][1]
            price = check_update(target, per_vm / gpus, result.problems, label)
            if price is None:
                continue
            result.updates.append(
                PriceUpdate(
                    key=target.key,
                    usd_per_device_hour=price,
                    source=(
                        f"Azure Retail Prices API (prices.azure.com), {what}, {region}"
                        + (f", ÷ {gpus} GPUs" if gpus > 1 else "")
                        + f"; read {today.isoformat()}"
                    ),
                    derived=gpus > 1 or target.billing.startswith("commit"),
                    detail={"sku": size, "region": region, "per_vm_usd_hour": str(per_vm)},
                    **default_region(target, AZURE_DEFAULT_REGION, AZURE_REGION),
                )
            )
    if result.problems:
        result.updates = []
    return result


SOURCE = Source(
    name="azure", label="Azure Retail Prices API", page=AZURE_API, collector=collect_azure
)
