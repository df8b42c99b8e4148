"""SkyPilot's public catalog (https://github.com/skypilot-org/skypilot-catalog, `catalogs/v8/
<cloud>/vms.csv`): one CSV per cloud in one format, so one source covers many clouds.

Two uses:
- a price source (`SOURCE`, registered as "skypilot"): a refresh reads each cloud's vms.csv and
  prices the catalog rows it maps (Google Cloud, AWS, Nebius);
- a second source (`cross_check`): every bundled row is compared with the figure of the same
  cloud, instance, region and billing in the dated extract committed under
  advisor/reference/data/skypilot/ (manifest.json names the upstream commits and the date read).
  A row within 5 % is confirmed by a second source; one more than 20 % apart is flagged in the
  admin's refresh table.

The format (schema v8): InstanceType, AcceleratorName, AcceleratorCount, Region,
AvailabilityZone, Price, SpotPrice (USD per hour of the whole row). On Google Cloud an
accelerator-optimized VM is two rows: the machine (no accelerator; the vCPUs, memory and any
bundled SSD) and the accelerators (no instance type; the GPU charge alone), so the VM's price is
their sum; the A4 machine row is 0.0 because SkyPilot folds it into the B200 row. Other clouds
give one row per instance with the GPUs included.

Licence: the skypilot-catalog repository carries no licence file (checked 2026-12-06); SkyPilot
is Apache-2.0. The rows are the clouds' list prices, kept as a small, dated, attributed extract;
no SkyPilot code is copied.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_noop

from advisor.reference.prices.base import (
    PLACES,
    PriceTarget,
    PriceUpdate,
    Source,
    SourceResult,
    SourceUnavailable,
    Transport,
    check_update,
    say,
    to_decimal,
)

PAGE = "https://github.com/skypilot-org/skypilot-catalog"
RAW = "https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v8/{cloud}/vms.csv"
SNAPSHOT = Path(__file__).resolve().parents[1] / "data" / "skypilot"
CONFIRMED_WITHIN = Decimal("0.05")
FLAG_BEYOND = Decimal("0.20")
_REGION = re.compile(r"\b([a-z]+-[a-z]+-?\d+)")
# An AWS Local Zone ("us-west-2-lax-1"): priced apart from its parent region, and not in the file.
_LOCAL_ZONE = re.compile(r"\b[a-z]+-[a-z]+-\d+-[a-z]{3}-\d")

# A catalog unit as SkyPilot names it: (machine row or "", accelerator name, accelerator count).
# A machine listed with alternatives is read from the first one the file has (the A3 Ultra
# machine is listed in some regions only without its bundled local SSD).
UNITS: dict[str, tuple[tuple[str, ...], str, int]] = {
    "gcp:a3-highgpu-1g": (("a3-highgpu-1g",), "H100", 1),
    "gcp:a3-highgpu-8g": (("a3-highgpu-8g",), "H100", 8),
    "gcp:a3-ultragpu-8g": (("a3-ultragpu-8g", "a3-ultragpu-8g-nolssd"), "H200", 8),
    "gcp:a4-highgpu-8g": (("a4-highgpu-8g",), "B200", 8),
    "gcp:g2-standard": (("g2-standard-4",), "L4", 1),
    "gcp:a2-highgpu": (("a2-highgpu-1g",), "A100", 1),
    "nebius:h100-1gpu": (("gpu-h100-sxm_1gpu-16vcpu-200gb",), "H100", 1),
    "nebius:h200-1gpu": (("gpu-h200-sxm_1gpu-16vcpu-200gb",), "H200", 1),
    "nebius:h100-8gpu": (("gpu-h100-sxm_8gpu-128vcpu-1600gb",), "H100", 8),
    "nebius:h200-8gpu": (("gpu-h200-sxm_8gpu-128vcpu-1600gb",), "H200", 8),
    "nebius:b200-8gpu": (("gpu-b200-sxm_8gpu-160vcpu-1792gb",), "B200", 8),
}
# AWS units are the instance itself ("aws:p5.48xlarge"): one row with its GPUs included.
AWS_UNIT = "aws:"
# Cloud TPUs are sold per chip; the one-chip slice is the per-device price.
TPUS = {"tpu-v6e": "tpu-v6e-1", "tpu-v5e": "tpu-v5litepod-1"}
# Which SkyPilot catalog a catalog row is in: by cloud, or by provider for the clouds the
# engine files under "other".
CLOUDS = {"gcp": "gcp", "aws": "aws"}
PROVIDERS = {"Nebius": "nebius"}
# Clouds whose own price API is a registered source: the refresh leaves their rows to it.
OWN_SOURCE = frozenset({"aws", "gcp"})
# SkyPilot's placeholder for "price unknown" (e.g. TPU v6e in asia-east1).
PLACEHOLDER = Decimal(700)


@dataclass(frozen=True)
class Row:
    instance: str
    accelerator: str
    count: int
    region: str
    zone: str
    price: Decimal | None
    spot: Decimal | None


def parse(text: str | Iterable[str]) -> list[Row]:
    """The rows of a SkyPilot vms.csv (schema v7 or v8; extra columns are ignored). A row
    without a usable price keeps None there; a file without the columns raises ValueError."""
    lines = io.StringIO(text) if isinstance(text, str) else text
    reader = csv.DictReader(lines)
    needed = {"InstanceType", "AcceleratorName", "AcceleratorCount", "Region", "Price"}
    if not reader.fieldnames or not needed <= set(reader.fieldnames):
        raise ValueError(f"not a SkyPilot vms.csv: columns {reader.fieldnames}")

    def money(value: str | None) -> Decimal | None:
        number = to_decimal((value or "").strip() or None)
        return number if number is not None and number >= 0 else None

    rows = []
    for line in reader:
        count = to_decimal((line.get("AcceleratorCount") or "").strip() or None)
        rows.append(
            Row(
                instance=(line.get("InstanceType") or "").strip(),
                accelerator=(line.get("AcceleratorName") or "").strip(),
                count=int(count) if count else 0,
                region=(line.get("Region") or "").strip(),
                zone=(line.get("AvailabilityZone") or "").strip(),
                price=money(line.get("Price")),
                spot=money(line.get("SpotPrice")),
            )
        )
    return rows


def region_of(text: str | None) -> str | None:
    if _LOCAL_ZONE.search(text or ""):
        return None
    match = _REGION.search(text or "")
    return match.group(1) if match else None


def _pick(row: Row, billing: str) -> Decimal | None:
    value = row.price if billing == "on_demand" else row.spot if billing == "spot" else None
    return None if value is None or value >= PLACEHOLDER else value


def unit_key(price: dict[str, Any]) -> str | None:
    """The UNITS key of a catalog row: its unit id, with the GPU count where a unit id names a
    family sold in several sizes (gcp:a3-highgpu is the 1- and the 8-GPU VM)."""
    unit = str(price.get("unit_id") or "")
    if unit == "gcp:a3-highgpu":
        return f"gcp:a3-highgpu-{int(price.get('gpus_per_unit') or 1)}g"
    return unit or None


def figure(rows: list[Row], price: dict[str, Any]) -> tuple[Decimal, str] | None:
    """SkyPilot's per-device-hour figure for a catalog row (same cloud, instance, region and
    billing) and what it was read from; None where the file has no such row."""
    billing = str(price.get("billing") or "")
    region = region_of(price.get("region"))
    if billing not in ("on_demand", "spot") or region is None:
        return None
    in_region = [r for r in rows if r.region == region]
    accelerator_id = str(price.get("accelerator_id") or "")
    if accelerator_id in TPUS:
        chip = next((r for r in in_region if r.accelerator == TPUS[accelerator_id]), None)
        value = _pick(chip, billing) if chip else None
        return (value, f"{TPUS[accelerator_id]} {chip.zone}") if value and chip else None
    key = unit_key(price) or ""
    machines: tuple[str, ...]
    if key.startswith(AWS_UNIT):
        count = int(price.get("gpus_per_unit") or 1)
        machines, accelerator = (key[len(AWS_UNIT) :],), ""
    elif key in UNITS:
        machines, accelerator, count = UNITS[key]
    else:
        return None
    machine = next(
        (r for name in machines for r in in_region if r.instance == name),
        None,
    )
    if machine is None:
        return None
    host = _pick(machine, billing)
    if host is None:
        return None
    if machine.accelerator:  # one row with the GPUs included (AWS, Nebius)
        total, what = host, f"{machine.instance} {machine.region}"
    else:  # Google Cloud: machine row + accelerator row
        gpus = next(
            (
                r
                for r in in_region
                if not r.instance and r.accelerator == accelerator and r.count == count
            ),
            None,
        )
        charge = _pick(gpus, billing) if gpus else None
        if charge is None or gpus is None:
            return None
        total = host + charge
        what = f"{machine.instance} ${host} + {count}x {accelerator} ${charge} {gpus.zone}"
    per_device = total / int(price.get("gpus_per_unit") or count or 1)
    return per_device.quantize(PLACES), what


# --- The committed extract and the cross-check ---------------------------------------------------


@cache
def snapshot() -> dict[str, Any]:
    """The committed extract: the manifest plus each cloud's parsed rows."""
    manifest = json.loads((SNAPSHOT / "manifest.json").read_text())
    rows = {
        cloud: parse((SNAPSHOT / entry["path"]).read_text())
        for cloud, entry in manifest["files"].items()
    }
    return {"manifest": manifest, "rows": rows}


def same_source(price: dict[str, Any]) -> bool:
    """A row read from SkyPilot itself: comparing it with SkyPilot confirms nothing."""
    return "skypilot" in str(price.get("source") or "").lower()


def catalog_of(price: dict[str, Any]) -> str | None:
    return PROVIDERS.get(str(price.get("provider") or "")) or CLOUDS.get(
        str(price.get("cloud") or "")
    )


def snapshot_source(cloud: str) -> str:
    manifest = snapshot()["manifest"]
    entry = manifest["files"][cloud]
    return (
        f"github:skypilot-org/skypilot-catalog {entry['upstream']} @ {entry['commit'][:8]} "
        f"(newest version in a public code index, read {manifest['read']}; "
        "extract in advisor/reference/data/skypilot/)"
    )


@dataclass(frozen=True)
class Check:
    price_id: str
    provider: str
    region: str
    billing: str
    ours: Decimal
    theirs: Decimal
    read_from: str
    source: str
    as_of: str

    @property
    def difference(self) -> Decimal:
        """Theirs against ours, as a fraction of ours (+0.25: SkyPilot is 25 % dearer)."""
        return (self.theirs - self.ours) / self.ours

    same_source: bool = False

    @property
    def state(self) -> str:
        """ "confirmed" (within 5 %), "close" (5 to 20 %), "differs" (over 20 %: flagged), or
        "same source" for a row SkyPilot is already the source of (it cannot confirm itself)."""
        gap = abs(self.difference)
        if gap > FLAG_BEYOND:
            return "differs"
        if self.same_source:
            return "same source"
        return "confirmed" if gap <= CONFIRMED_WITHIN else "close"

    def confirmed_by(self) -> dict[str, Any]:
        """What a row confirmed within 5 % carries in `confirmed_by`."""
        return {
            "source": self.source,
            "as_of": self.as_of,
            "usd_per_device_hour": float(self.theirs),
            "read_from": self.read_from,
            "within": f"{float(self.difference):+.1%}",
        }


def _hourly(price: dict[str, Any], hours_per_month: Decimal) -> Decimal | None:
    if price.get("usd_per_device_hour") is not None:
        return Decimal(str(price["usd_per_device_hour"]))
    if price.get("usd_per_device_month") is not None:
        return Decimal(str(price["usd_per_device_month"])) / hours_per_month
    return None


def cross_check(prices: Iterable[dict[str, Any]], hours_per_month: float = 730) -> list[Check]:
    """Every price row SkyPilot's extract has a figure for, compared with it."""
    data = snapshot()
    hours = Decimal(str(hours_per_month))
    out = []
    for price in prices:
        cloud = catalog_of(price)
        ours = _hourly(price, hours)
        if cloud is None or cloud not in data["rows"] or not ours:
            continue
        found = figure(data["rows"][cloud], price)
        if found is None:
            continue
        theirs, what = found
        out.append(
            Check(
                price_id=str(price["id"]),
                provider=str(price.get("provider") or ""),
                region=str(price.get("region") or ""),
                billing=str(price.get("billing") or ""),
                ours=ours,
                theirs=theirs,
                read_from=what,
                source=snapshot_source(cloud),
                as_of=data["manifest"]["read"],
                same_source=same_source(price),
            )
        )
    return out


# --- The refresh source --------------------------------------------------------------------------


def collect(
    targets: Iterable[PriceTarget], transport: Transport, *, today: date, api_key: str
) -> SourceResult:
    """Reads each cloud's vms.csv once and prices the targets it has a row for. Clouds with a
    price source of their own (the provider's price API: AWS, Google Cloud) are left to it:
    there SkyPilot is the second source the cross-check reads, not a writer of prices."""
    result = SourceResult()
    by_cloud: dict[str, list[PriceTarget]] = {}
    for target in targets:
        cloud = PROVIDERS.get(target.provider) or CLOUDS.get(target.cloud)
        if cloud is None or cloud in OWN_SOURCE:
            continue
        by_cloud.setdefault(cloud, []).append(target)
    for cloud, mine in sorted(by_cloud.items()):
        url = RAW.format(cloud=cloud)
        try:
            rows = parse(transport.lines(url))
        except ValueError as error:
            result.problems.append(f"{url}: {error}")
            continue
        except SourceUnavailable:
            raise
        for target in mine:
            price = {
                "id": target.key,
                "accelerator_id": target.accelerator,
                "billing": target.billing,
                "region": target.region,
                "unit_id": target.unit_id,
                "gpus_per_unit": target.gpus_per_unit,
            }
            found = figure(rows, price)
            if found is None:
                result.left.append(target.key)
                continue
            value, what = found
            checked = check_update(target, value, result.problems, target.key)
            if checked is None:
                continue
            result.updates.append(
                PriceUpdate(
                    key=target.key,
                    usd_per_device_hour=checked,
                    source=say(
                        "SkyPilot catalog %(file)s (read %(date)s): %(row)s",
                        file=f"catalogs/v8/{cloud}/vms.csv",
                        date=today.isoformat(),
                        row=what,
                    ),
                    derived=target.gpus_per_unit > 1 or "+" in what,
                    detail={"url": url, "row": what},
                )
            )
    return result


SOURCE = Source(
    name="skypilot",
    label=gettext_noop("SkyPilot catalog (several clouds)"),
    page=PAGE,
    collector=collect,
)
