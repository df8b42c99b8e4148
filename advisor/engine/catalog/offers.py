"""Regional offer rows (shared/reference offers_hk_tokyo_la.json and files of the same shape)
turned into catalog price rows, each keeping its source, date, unit and currency conversion.

Every row is checked and every problem listed (CatalogError) before any price is returned, so a
caller never writes half of a file. Rows for cards the catalog does not carry are held back with
the reason, not dropped silently.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeGuard

from advisor.engine.answers.problems import Problem
from advisor.engine.catalog import CatalogError
from advisor.engine.text import clouds

# The card a row's `gpu` text names, first match wins (GH200 before H200, PCIe before H100).
_CARDS: tuple[tuple[str, str], ...] = (
    (r"\bGH200\b", "nvidia-gh200"),
    (r"\bH200\b", "nvidia-h200"),
    (r"\bH100\b.*\bPCIe\b", "nvidia-h100-pcie"),
    (r"\bH100\b", "nvidia-h100-sxm"),
    (r"\bB200\b", "nvidia-b200"),
    (r"\bA100\b.*\b80 ?GB\b", "nvidia-a100-80gb"),
    (r"\bA100\b.*\b40 ?GB\b", "nvidia-a100-40gb"),
    (r"\bL40S\b", "nvidia-l40s"),
    # Not the RTX PRO 6000 (Blackwell, 96 GB), which the catalog does not carry.
    (r"\bRTX 6000 Ada\b", "nvidia-rtx-6000-ada"),
    (r"\bL4\b", "nvidia-l4"),
    (r"\bA10G\b", "nvidia-a10g"),
    (r"\bT4\b", "nvidia-t4"),
    (r"\bMI300X\b", "amd-mi300x"),
)
# The catalog region a row's `region` text is in, first match wins: "Japan" is not always Tokyo
# (Sakura's Ishikari zones, HIGHRESO's Kagawa and Ishikawa sites, RunPod AP-JP-1), and AWS
# us-west-1 is Northern California, not Los Angeles (only the us-west-2-lax-1 Local Zone is).
_REGIONS: tuple[tuple[str, str], ...] = (
    (r"not Tokyo", "japan"),
    (r"ap-northeast-1|\bTokyo\b|tokyo-japan", "tokyo"),
    (r"ap-east-1|Hong Kong|\bHK\b", "hong_kong"),
    (r"us-west-2-lax|Los Angeles Local Zone", "los_angeles"),
    (r"us-west-1|N\. California", "us_west"),
    (r"ap-southeast-1|Singapore", "singapore"),
    (r"\bJapan\b|\bJP\b|AP-JP", "japan"),
)
_BILLING = {
    "hourly": "on_demand",
    "monthly": "monthly",
    "commit_1y": "commit_1y",
    "commit_3y": "commit_3y",
}
# A row's premium route to mainland China, as the reference and the admin name it.
_CHINA_ROUTES = {"cn2 gia": "cn2_gia", "cn2_gia": "cn2_gia", "cmi": "cmi"}
# The most an extra Mbps-month may cost in USD (as the house-offer form): more is a typo or the
# price of a server.
CHINA_MBPS_PRICE_MAX_USD = 10_000.0
_REQUIRED = ("provider", "offer", "region", "gpu", "gpu_count", "billing", "price", "currency")
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_ROWS = 2000


@dataclass(frozen=True, slots=True)
class ImportedOffers:
    prices: list[dict[str, Any]]
    # Rows for cards the catalog does not carry: the row, its index and why it is held back.
    held: list[dict[str, Any]]


def _match(table: tuple[tuple[str, str], ...], text: str) -> str | None:
    return next((key for pattern, key in table if re.search(pattern, text)), None)


def _problem(i: int, field: str, detail: str) -> Problem:
    return Problem(
        f"offers[{i}].{field}" if field else f"offers[{i}]", "offer_invalid", {"detail": detail}
    )


def _number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and value == value


_TEXT = ("provider", "offer", "region", "gpu", "source", "source_date", "notes")


def _row_problems(i: int, row: Any, fx: Mapping[str, Mapping[str, Any]]) -> list[Problem]:
    """Every problem of one row: a field missing or of the wrong type is named once, and each
    other field is still checked, so that one pass over the file lists all there is to fix."""
    if not isinstance(row, dict):
        return [_problem(i, "", "each offer is a JSON object")]
    missing = {k for k in _REQUIRED if row.get(k) is None or row.get(k) == ""}
    out = [_problem(i, k, "missing") for k in _REQUIRED if k in missing]
    not_text = {k for k in _TEXT if row.get(k) is not None and not isinstance(row[k], str)}
    out += [_problem(i, k, "must be text") for k in _TEXT if k in not_text]
    if "source" not in not_text and not (
        isinstance(row.get("source"), str) and row["source"].strip()
    ):
        out.append(_problem(i, "source", "every offer names its source"))
    count = row.get("gpu_count")
    if "gpu_count" not in missing and not (
        isinstance(count, int) and not isinstance(count, bool) and 1 <= count <= 4096
    ):
        out.append(_problem(i, "gpu_count", "a whole number of devices from 1 to 4096"))
    billing = row.get("billing")
    if "billing" not in missing and not (isinstance(billing, str) and billing in _BILLING):
        out.append(_problem(i, "billing", f"one of {', '.join(_BILLING)}"))
    price = row.get("price")
    if "price" not in missing and not (_number(price) and 0 < price < 1e9):
        out.append(_problem(i, "price", "a positive number"))
    currency = row.get("currency")
    if "currency" not in missing:
        if not isinstance(currency, str):
            out.append(_problem(i, "currency", "a currency code such as USD"))
        elif currency != "USD" and currency not in fx:
            out.append(_problem(i, "currency", f"no exchange rate for {currency:.10}"))
    region = row.get("region")
    if isinstance(region, str) and region and _match(_REGIONS, region) is None:
        out.append(_problem(i, "region", "not a catalog region (Tokyo, Japan, Hong Kong, ...)"))
    when = row.get("source_date")
    if isinstance(when, str) and _ISO_DAY.match(when):
        try:
            date.fromisoformat(when)
        except ValueError:
            out.append(_problem(i, "source_date", "the date does not exist (YYYY-MM-DD)"))
    term = row.get("min_term_months")
    if term is not None and not (
        isinstance(term, int) and not isinstance(term, bool) and 0 <= term <= 120
    ):
        out.append(_problem(i, "min_term_months", "a whole number of months from 0 to 120"))
    stated = row.get("price_usd_per_month_per_gpu")
    if stated is not None and not _number(stated):
        out.append(_problem(i, "price_usd_per_month_per_gpu", "a number"))
    return out + _china_problems(i, row, fx)


def _china_problems(
    i: int, row: dict[str, Any], fx: Mapping[str, Mapping[str, Any]]
) -> list[Problem]:
    """The optional premium China bandwidth of a row: its route (CN2 GIA or CMI), the Mbps the
    price includes and the price of one more Mbps a month, in the row's currency."""
    out = []
    route = row.get("china_bandwidth_type")
    mbps = row.get("china_bandwidth_mbps")
    price = row.get("china_bandwidth_price_per_mbps_month")
    if route is not None and str(route).strip().lower() not in _CHINA_ROUTES:
        out.append(_problem(i, "china_bandwidth_type", "CN2 GIA or CMI"))
    if mbps is not None and not (
        isinstance(mbps, int) and not isinstance(mbps, bool) and 0 <= mbps <= 100_000
    ):
        out.append(_problem(i, "china_bandwidth_mbps", "a whole number of Mbps from 0 to 100000"))
    if route is not None and mbps is None:
        out.append(_problem(i, "china_bandwidth_mbps", "the Mbps the route includes (0 for none)"))
    if price is not None:
        currency = row.get("currency")
        # No rate when the row's currency is itself wrong (listed among its problems).
        rate = (
            1.0
            if currency == "USD"
            else fx.get(currency, {}).get("per_usd")
            if isinstance(currency, str)
            else None
        )
        if not _number(price) or price <= 0:
            out.append(_problem(i, "china_bandwidth_price_per_mbps_month", "a positive number"))
        elif rate and price / float(rate) > CHINA_MBPS_PRICE_MAX_USD:
            out.append(
                _problem(
                    i,
                    "china_bandwidth_price_per_mbps_month",
                    f"at most {CHINA_MBPS_PRICE_MAX_USD:,.0f} USD per Mbps-month",
                )
            )
        if route is None:
            out.append(_problem(i, "china_bandwidth_type", "the route the Mbps price is for"))
    return out


def _price(
    i: int, row: dict[str, Any], acc_id: str, fx: Mapping[str, Mapping[str, Any]], prefix: str
) -> tuple[dict[str, Any], float]:
    count = int(row["gpu_count"])
    currency = row["currency"]
    rate = 1.0 if currency == "USD" else float(fx[currency]["per_usd"])
    usd = float(row["price"]) / rate
    billing = _BILLING[row["billing"]]
    region_key = _match(_REGIONS, row["region"])
    when = row.get("source_date")
    as_of = when if isinstance(when, str) and _ISO_DAY.match(when) else None
    marketplace = "marketplace" in f"{row['provider']} {row.get('notes') or ''}".lower()
    bare_metal = re.search(r"bare metal|\bPHY\b", row["offer"]) is not None
    notes = [row["offer"]]
    if count > 1:
        notes.append(f"sold as {count} GPUs; the per-GPU figure is derived")
    if currency != "USD":
        f = fx[currency]
        notes.append(
            f"{currency} {row['price']:,} at {f['per_usd']} {currency}/USD ({f['source_short']})"
        )
    if marketplace:
        notes.append("marketplace offer")
    if as_of is None:
        notes.append(f"source date: {when or 'not stated'}")
    per_device_month = (usd * 730.0 if billing == "on_demand" else usd) / count
    setup = str(row.get("setup_fee") or "")
    price: dict[str, Any] = {
        "id": f"{prefix}{i + 1:02d}",
        "accelerator_id": acc_id,
        "provider": row["provider"],
        "cloud": clouds.of_provider(row["provider"]),
        "modes": ["bare_metal", "dedicated_hosting"] if bare_metal else ["public_cloud"],
        "billing": billing,
        "usd_per_device_hour": round(usd / count, 6) if billing == "on_demand" else None,
        "usd_per_device_month": round(usd / count, 4) if billing != "on_demand" else None,
        "region": row["region"],
        "region_key": region_key,
        "source": row["source"],
        "as_of": as_of,
        # A "from" price is the lowest tier, not a quote (HIGHRESO's B200 card).
        "estimated": re.search(r'"from|\bfrom [¥$]', row.get("notes") or "") is not None,
        "derived": count > 1 or currency != "USD",
        "note": "; ".join(notes),
        "setup_fee_usd": 0.0 if setup.lower().startswith("none") else None,
        "min_term_months": row.get("min_term_months") or None,
        "gpus_per_unit": count,
        "unit": row["offer"],
        "marketplace": marketplace,
        "offer": {
            k: row.get(k)
            for k in ("gpu", "cpu", "ram_gb", "storage", "network", "setup_fee", "notes")
            if row.get(k) not in (None, "")
        },
        "price_as_listed": {
            "amount": row["price"],
            "currency": currency,
            "billing": row["billing"],
            "basis": row.get("price_usd_per_month_per_gpu_basis"),
            "source_date": when,
        },
    }
    if currency != "USD":
        price["fx"] = dict(fx[currency])
    route = row.get("china_bandwidth_type")
    if route is not None:
        per_mbps = row.get("china_bandwidth_price_per_mbps_month")
        # Where the engine reads a price row's premium China route (as a house offer's server).
        price["server"] = {
            "china_bandwidth_type": _CHINA_ROUTES[str(route).strip().lower()],
            "china_bandwidth_mbps": int(row["china_bandwidth_mbps"]),
            "china_bandwidth_usd_per_mbps_month": None
            if per_mbps is None
            else round(float(per_mbps) / rate, 4),
        }
        if per_mbps is not None and currency != "USD":
            price["note"] += (
                f"; China bandwidth {currency} {per_mbps:,} per Mbps-month at "
                f"{fx[currency]['per_usd']} {currency}/USD"
            )
    return price, per_device_month


def import_offers(
    rows: Any,
    *,
    accelerator_ids: Collection[str],
    fx: Mapping[str, Mapping[str, Any]],
    id_prefix: str = "rg",
    reference: str = "",
) -> ImportedOffers:
    """Price rows for the catalog from offer rows; CatalogError lists every problem.

    `fx`: per currency, `per_usd` (units per US dollar), `source`, `source_short` and `as_of`.
    A row's own per-GPU monthly figure, when given, must agree with the conversion (1%)."""
    if not isinstance(rows, list) or not rows:
        raise CatalogError([Problem("offers", "offer_invalid", {"detail": "a list of offers"})])
    if len(rows) > MAX_ROWS:
        raise CatalogError(
            [Problem("offers", "offer_invalid", {"detail": f"at most {MAX_ROWS} offers"})]
        )
    problems: list[Problem] = []
    prices: list[dict[str, Any]] = []
    held: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        found = _row_problems(i, row, fx)
        if found:
            problems += found
            continue
        acc_id = _match(_CARDS, row["gpu"])
        if acc_id is None or acc_id not in accelerator_ids:
            held.append(
                {
                    "row": i + 1,
                    "provider": row["provider"],
                    "offer": row["offer"],
                    "region": row["region"],
                    "gpu": row["gpu"],
                    "source": row["source"],
                    "source_date": row.get("source_date"),
                    "reason": "the catalog has no accelerator for this card",
                    "reference": reference,
                }
            )
            continue
        price, per_month = _price(i, row, acc_id, fx, id_prefix)
        stated = row.get("price_usd_per_month_per_gpu")
        if stated is not None and abs(per_month - float(stated)) > 0.01 * float(stated) + 0.5:
            problems.append(
                _problem(
                    i,
                    "price_usd_per_month_per_gpu",
                    f"{stated} does not match the price ({per_month:.2f} per GPU-month)",
                )
            )
            continue
        if reference:
            price["reference"] = f"{reference} row {i + 1}"
        prices.append(price)
    if problems:
        raise CatalogError(problems)
    return ImportedOffers(prices, held)
