"""Public cloud price lists: fetch, validate and turn into new figures for catalog price rows.

No ORM here: the service (services.price_refresh) hands in the published catalog's price rows as
`PriceTarget`s and writes what comes back into a draft. Each source reads only what its public
document says; a document that is malformed, partial or implausible yields problems and no
updates, so a refresh never writes half a source.

Sources (all read-only, none needs an account except Google's API key):
- Azure Retail Prices API, https://prices.azure.com/api/retail/prices (JSON, NextPageLink pages).
- AWS Price List bulk API, https://pricing.us-east-1.amazonaws.com (region index JSON, then each
  region's EC2 offer as CSV, streamed line by line: a region's file is hundreds of MB).
- Google Cloud Billing Catalog API, https://cloudbilling.googleapis.com/v1 (needs an API key).
"""

from __future__ import annotations

import csv
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Protocol

from django.utils.translation import gettext, gettext_noop

SOURCES = ("azure", "aws", "gcp")
MAX_USD_PER_DEVICE_HOUR = Decimal(500)
# A list price that moves more than this factor from the catalog's figure is more likely a
# wrong SKU or unit than a price change: refused, for a person to look at.
MAX_CHANGE_FACTOR = Decimal(5)
HOURS_PER_YEAR = Decimal(8760)
MAX_DOCUMENT_BYTES = 64_000_000
MAX_PAGES = 200
PLACES = Decimal("0.000001")


def _say(message: str, **values: Any) -> str:
    """A problem in the active language (the one the refresh runs in)."""
    return gettext(message) % values if values else gettext(message)


class SourceUnavailable(Exception):
    """The provider did not answer usably: an HTTP error, a timeout, a broken connection."""


class Transport(Protocol):
    def get(self, url: str) -> bytes: ...

    def lines(self, url: str) -> Iterator[str]: ...


def redact(url: str) -> str:
    """The URL without its API key: what logs, messages and recordings may hold."""
    parts = urllib.parse.urlsplit(url)
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query) if k != "key"]
    return urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))


class UrllibTransport:
    """The live transport: plain HTTPS GETs with a timeout and a size limit."""

    def __init__(self, *, timeout: float) -> None:
        self.timeout = timeout

    def _open(self, url: str) -> Any:
        if not url.startswith("https://"):
            raise SourceUnavailable(_say("%(url)s: only https URLs are fetched", url=redact(url)))
        request = urllib.request.Request(url, headers={"User-Agent": "advisor-price-refresh"})  # noqa: S310 - https only, checked above
        try:
            return urllib.request.urlopen(request, timeout=self.timeout)  # noqa: S310
        except urllib.error.HTTPError as error:
            raise SourceUnavailable(
                _say("%(url)s: HTTP %(code)s", url=redact(url), code=error.code)
            ) from error
        except TimeoutError as error:
            raise SourceUnavailable(
                _say(
                    "%(url)s: no answer in %(seconds)s s",
                    url=redact(url),
                    seconds=f"{self.timeout:g}",
                )
            ) from error
        except (urllib.error.URLError, OSError) as error:
            raise SourceUnavailable(f"{redact(url)}: {error}") from error

    def get(self, url: str) -> bytes:
        with self._open(url) as response:
            try:
                body: bytes = response.read(MAX_DOCUMENT_BYTES + 1)
            except (TimeoutError, OSError) as error:
                raise SourceUnavailable(
                    _say("%(url)s: the answer broke off", url=redact(url))
                ) from error
        if len(body) > MAX_DOCUMENT_BYTES:
            raise SourceUnavailable(
                _say(
                    "%(url)s: larger than %(bytes)s bytes",
                    url=redact(url),
                    bytes=MAX_DOCUMENT_BYTES,
                )
            )
        return body

    def lines(self, url: str) -> Iterator[str]:
        with self._open(url) as response:
            try:
                for raw in response:
                    yield raw.decode("utf-8")
            except (TimeoutError, OSError) as error:
                raise SourceUnavailable(
                    _say("%(url)s: the answer broke off", url=redact(url))
                ) from error


class RecordedTransport:
    """Answers from files recorded earlier (tests, demos): `manifest.json` in `directory` maps
    each URL (without its key) to a file, or to {"error": "..."} for a recorded failure such as
    a timeout. A URL not in the manifest is a failure too: nothing reaches the network."""

    def __init__(self, directory: Path | str, overrides: dict[str, Any] | None = None) -> None:
        self.directory = Path(directory)
        manifest = json.loads((self.directory / "manifest.json").read_text())
        self.manifest: dict[str, Any] = {
            redact(url): entry for url, entry in {**manifest, **(overrides or {})}.items()
        }

    def _entry(self, url: str) -> Path:
        entry = self.manifest.get(redact(url))
        if entry is None:
            raise SourceUnavailable(_say("%(url)s: not in the recorded responses", url=redact(url)))
        if isinstance(entry, dict):
            raise SourceUnavailable(f"{redact(url)}: {entry.get('error', 'failed')}")
        path = Path(entry)
        return path if path.is_absolute() else self.directory / path

    def get(self, url: str) -> bytes:
        return self._entry(url).read_bytes()

    def lines(self, url: str) -> Iterator[str]:
        with self._entry(url).open(encoding="utf-8", newline="") as handle:
            yield from handle


class RecordingTransport:
    """Passes requests to `inner` and keeps every answer in `directory` with a manifest, so
    that a live refresh can be replayed (and trimmed into test fixtures)."""

    def __init__(self, inner: Transport, directory: Path | str) -> None:
        self.inner = inner
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        manifest = self.directory / "manifest.json"
        self.manifest: dict[str, Any] = (
            json.loads(manifest.read_text()) if manifest.exists() else {}
        )

    def _name(self, url: str, suffix: str) -> str:
        host = urllib.parse.urlsplit(url).hostname or "response"
        return f"{host.split('.')[0]}_{len(self.manifest) + 1:03d}{suffix}"

    def _save(self) -> None:
        (self.directory / "manifest.json").write_text(
            json.dumps(self.manifest, indent=2, sort_keys=True) + "\n"
        )

    def get(self, url: str) -> bytes:
        body = self.inner.get(url)
        name = self._name(url, ".json")
        (self.directory / name).write_bytes(body)
        self.manifest[redact(url)] = name
        self._save()
        return body

    def lines(self, url: str) -> Iterator[str]:
        name = self._name(url, ".csv")
        self.manifest[redact(url)] = name
        self._save()
        with (self.directory / name).open("w", encoding="utf-8", newline="") as out:
            for line in self.inner.lines(url):
                out.write(line)
                yield line


# --- What a refresh works on and what it returns ------------------------------------------------


@dataclass(frozen=True)
class PriceTarget:
    """A catalog price row a source may refresh."""

    key: str
    accelerator: str
    cloud: str
    billing: str
    region: str
    usd_per_device_hour: Decimal | None
    # What the row is sold as ("p5.4xlarge on-demand (Linux)") and the devices in that unit:
    # a regional row names its own instance, which may not be the card's usual one.
    unit: str = ""
    gpus_per_unit: int = 1


@dataclass(frozen=True)
class PriceUpdate:
    key: str
    usd_per_device_hour: Decimal
    source: str
    derived: bool
    detail: dict[str, Any]
    region: str = ""
    region_key: str = ""


@dataclass
class SourceResult:
    updates: list[PriceUpdate] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    # Rows of this cloud the source does not price (no SKU mapping, a billing it does not list).
    left: list[str] = field(default_factory=list)


def _region_code(region: str, pattern: str) -> str | None:
    match = re.match(pattern, region.strip())
    return match.group(1) if match else None


def _default_region(target: PriceTarget, default: tuple[str, str], pattern: str) -> dict[str, str]:
    """A row without a region the source knows ("", "US (region not stated)") is priced in
    the source's default region, and now says so."""
    if _region_code(target.region, pattern):
        return {}
    return {"region": default[0], "region_key": default[1]}


def _check_update(
    target: PriceTarget, price: Decimal, problems: list[str], label: str
) -> Decimal | None:
    """The per-device-hour price rounded to the catalog's places, or None with a problem."""
    if not price.is_finite() or price <= 0 or price > MAX_USD_PER_DEVICE_HOUR:
        problems.append(
            _say(
                "%(row)s: %(price)s USD per device-hour is outside (0, %(most)s]",
                row=label,
                price=price,
                most=MAX_USD_PER_DEVICE_HOUR,
            )
        )
        return None
    old = target.usd_per_device_hour
    if old and not (old / MAX_CHANGE_FACTOR <= price <= old * MAX_CHANGE_FACTOR):
        problems.append(
            _say(
                "%(row)s: %(price)s USD per device-hour against %(old)s in the catalog is more "
                "than a %(factor)sx change; check the SKU before trusting it",
                row=label,
                price=f"{price:.4f}",
                old=old,
                factor=MAX_CHANGE_FACTOR,
            )
        )
        return None
    return price.quantize(PLACES)


def _decimal(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


# --- Azure Retail Prices API ----------------------------------------------------------------------

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
                _say(
                    "Azure page %(page)s: NextPageLink leaves %(api)s", page=page + 1, api=AZURE_API
                )
            )
            return []
        label = f"Azure {redact(next_url)[len(AZURE_API) :][:160]} page {page + 1}"
        try:
            document = json.loads(transport.get(next_url))
        except (ValueError, UnicodeDecodeError) as error:
            problems.append(_say("%(where)s: not JSON (%(error)s)", where=label, error=error))
            return []
        if not isinstance(document, dict) or not isinstance(document.get("Items"), list):
            problems.append(_say("%(where)s: no Items list", where=label))
            return []
        link = document.get("NextPageLink")
        if link is not None and not isinstance(link, str):
            problems.append(_say("%(where)s: NextPageLink is not text", where=label))
            return []
        page_problems: list[str] = []
        for i, item in enumerate(document["Items"]):
            if not isinstance(item, dict):
                page_problems.append(
                    _say("%(where)s: Items[%(i)s] is not an object", where=label, i=i)
                )
                continue
            for name, (kind, said) in AZURE_ITEM_FIELDS.items():
                if not isinstance(item.get(name), kind) or isinstance(item.get(name), bool):
                    page_problems.append(
                        _say(
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
        _say("Azure: more than %(pages)s pages for %(url)s", pages=MAX_PAGES, url=redact(url))
    )
    return []


def _azure_price(items: list[dict[str, Any]], billing: str) -> tuple[Decimal, str] | None:
    """The per-VM hourly price for `billing` from one size's items (Linux, USD, retail)."""
    found: list[tuple[Decimal, str]] = []
    for item in items:
        if "Windows" in item["productName"] or item["currencyCode"] != "USD":
            continue
        sku, kind, term = item["skuName"], item["type"], item.get("reservationTerm")
        price = _decimal(item["retailPrice"])
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
        region = _region_code(target.region, AZURE_REGION) or AZURE_DEFAULT_REGION[0]
        if vm is None or target.billing not in BILLINGS_LISTED["azure"]:
            result.left.append(target.key)
            continue
        wanted.setdefault((vm[0], region), []).append(target)
    for (size, region), rows in sorted(wanted.items()):
        before = len(result.problems)
        items = _azure_items(transport, azure_url(size, region), result.problems)
        if not items and len(result.problems) == before:
            result.problems.append(
                _say(
                    "Azure: no prices for %(size)s in %(region)s (partial answer?)",
                    size=size,
                    region=region,
                )
            )
        for target in rows:
            found = _azure_price(items, target.billing)
            label = (
                _say("Price %(id)s", id=target.key) + f" (Azure {size} {region} {target.billing})"
            )
            if found is None:
                if items:
                    result.problems.append(
                        _say("%(row)s: no single Linux retail price in the answer", row=label)
                    )
                continue
            per_vm, what = found
            gpus = AZURE_VMS[target.accelerator][1]
            price = _check_update(target, per_vm / gpus, result.problems, label)
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
                    **_default_region(target, AZURE_DEFAULT_REGION, AZURE_REGION),
                )
            )
    if result.problems:
        result.updates = []
    return result


# --- AWS Price List bulk API ----------------------------------------------------------------------

AWS_HOST = "https://pricing.us-east-1.amazonaws.com"
AWS_REGION_INDEX = f"{AWS_HOST}/offers/v1.0/aws/AmazonEC2/current/region_index.json"
AWS_DEFAULT_REGION = ("us-east-1", "us_east")
# A Region ("ap-east-1") or a Local Zone ("us-west-2-lax-1", whose prices are in its parent
# Region's offer file under their own "Region Code").
AWS_REGION = r"^([a-z]{2}(?:-gov)?-[a-z]+-\d(?:-[a-z]{3}-\d[a-z]?)?)\b"
AWS_PARENT_REGION = r"^[a-z]{2}(?:-gov)?-[a-z]+-\d"
AWS_INSTANCE = r"^([a-z][a-z0-9-]*\.\d*x?large)\b"
AWS_INSTANCES: dict[str, tuple[str, int]] = {
    "nvidia-t4": ("g4dn.xlarge", 1),
    "nvidia-l4": ("g6.xlarge", 1),
    "nvidia-a10g": ("g5.xlarge", 1),
    "nvidia-l40s": ("g6e.xlarge", 1),
    "nvidia-a100-40gb": ("p4d.24xlarge", 8),
    "nvidia-a100-80gb": ("p4de.24xlarge", 8),
    "nvidia-h100-sxm": ("p5.48xlarge", 8),
    "nvidia-h200": ("p5en.48xlarge", 8),
    "nvidia-b200": ("p6-b200.48xlarge", 8),
}
AWS_COLUMNS = (
    "TermType",
    "Unit",
    "PricePerUnit",
    "Currency",
    "LeaseContractLength",
    "PurchaseOption",
    "OfferingClass",
    "Instance Type",
    "Tenancy",
    "Operating System",
    "Pre Installed S/W",
    "CapacityStatus",
    "License Model",
    "Region Code",
)
# Reserved instances priced by the hour with nothing upfront are what "commit" means here.
AWS_TERMS = {
    "on_demand": ("OnDemand", "", ""),
    "commit_1y": ("Reserved", "1yr", "No Upfront"),
    "commit_3y": ("Reserved", "3yr", "No Upfront"),
}


def _aws_region_urls(
    transport: Transport, regions: set[str], problems: list[str]
) -> dict[str, str]:
    try:
        index = json.loads(transport.get(AWS_REGION_INDEX))
    except (ValueError, UnicodeDecodeError) as error:
        problems.append(
            _say("%(where)s: not JSON (%(error)s)", where="AWS region index", error=error)
        )
        return {}
    if not isinstance(index, dict) or not isinstance(index.get("regions"), dict):
        problems.append(_say("AWS region index: no regions object"))
        return {}
    urls: dict[str, str] = {}
    for region in sorted(regions):
        entry = index["regions"].get(region)
        url = entry.get("currentVersionUrl") if isinstance(entry, dict) else None
        if not isinstance(url, str) or not re.fullmatch(r"/offers/[\w./-]+\.json", url):
            problems.append(
                _say("AWS region index: no currentVersionUrl for %(region)s", region=region)
            )
            continue
        urls[region] = AWS_HOST + url.removesuffix(".json") + ".csv"
    return urls


def _aws_offer(
    lines: Iterator[str], instances: set[str], label: str, problems: list[str]
) -> tuple[str, dict[tuple[str, str, str, str, str], set[Decimal]]]:
    """(publication date, {(region code, instance, term type, lease, purchase option): prices})
    of the Linux, shared-tenancy, no-software, used-capacity hourly rows of `instances`."""
    preamble: dict[str, str] = {}
    reader = csv.reader(lines)
    for _ in range(5):
        row = next(reader, None)
        if row is None or len(row) != 2:
            problems.append(
                _say(
                    "%(where)s: the file does not open with the 5 lines of an offer file",
                    where=label,
                )
            )
            return "", {}
        preamble[row[0]] = row[1]
    published = preamble.get("Publication Date", "")[:10]
    try:
        date.fromisoformat(published)
    except ValueError:
        problems.append(_say("%(where)s: no Publication Date", where=label))
        return "", {}
    header = next(reader, None) or []
    missing = [c for c in AWS_COLUMNS if c not in header]
    if missing:
        problems.append(
            _say("%(where)s: columns missing: %(columns)s", where=label, columns=", ".join(missing))
        )
        return published, {}
    at = {c: header.index(c) for c in AWS_COLUMNS}
    prices: dict[tuple[str, str, str, str, str], set[Decimal]] = {}
    for number, row in enumerate(reader, start=7):
        if len(row) != len(header):
            problems.append(
                _say(
                    "%(where)s: line %(line)s has %(fields)s fields, not %(expected)s",
                    where=label,
                    line=number,
                    fields=len(row),
                    expected=len(header),
                )
            )
            if len(problems) > 50:
                return published, {}
            continue
        if row[at["Instance Type"]] not in instances:
            continue
        if (
            row[at["Operating System"]] != "Linux"
            or row[at["Tenancy"]] != "Shared"
            or row[at["Pre Installed S/W"]] not in {"NA", ""}
            or row[at["CapacityStatus"]] not in {"Used", ""}
            or row[at["License Model"]] not in {"No License required", ""}
            or row[at["Unit"]] != "Hrs"
        ):
            continue
        if row[at["Currency"]] != "USD":
            problems.append(
                _say(
                    "%(where)s: line %(line)s is priced in %(currency)s",
                    where=label,
                    line=number,
                    currency=row[at["Currency"]],
                )
            )
            continue
        price = _decimal(row[at["PricePerUnit"]])
        if price is None:
            problems.append(
                _say(
                    "%(where)s: line %(line)s: PricePerUnit is not a number",
                    where=label,
                    line=number,
                )
            )
            continue
        if row[at["TermType"]] == "Reserved" and row[at["OfferingClass"]] != "standard":
            continue
        key = (
            row[at["Region Code"]],
            row[at["Instance Type"]],
            row[at["TermType"]],
            row[at["LeaseContractLength"]] if row[at["TermType"]] == "Reserved" else "",
            row[at["PurchaseOption"]] if row[at["TermType"]] == "Reserved" else "",
        )
        prices.setdefault(key, set()).add(price)
    return published, prices


def collect_aws(
    targets: Iterable[PriceTarget], transport: Transport, *, today: date, **_: Any
) -> SourceResult:
    result = SourceResult()
    wanted: dict[str, list[tuple[PriceTarget, str, str, int]]] = {}
    for target in targets:
        if target.cloud != "aws":
            continue
        code = _region_code(target.region, AWS_REGION) or AWS_DEFAULT_REGION[0]
        named = re.match(AWS_INSTANCE, target.unit.strip())
        if named is not None:
            instance, gpus = named.group(1), max(1, target.gpus_per_unit)
        elif target.accelerator in AWS_INSTANCES:
            instance, gpus = AWS_INSTANCES[target.accelerator]
        else:
            result.left.append(target.key)
            continue
        if target.billing not in AWS_TERMS:
            result.left.append(target.key)
            continue
        parent = re.match(AWS_PARENT_REGION, code)
        region = parent.group(0) if parent else code
        wanted.setdefault(region, []).append((target, code, instance, gpus))
    if not wanted:
        return result
    urls = _aws_region_urls(transport, set(wanted), result.problems)
    for region, rows in sorted(wanted.items()):
        if region not in urls:
            continue
        label = f"AWS EC2 offer {region}"
        instances = {instance for _t, _c, instance, _g in rows}
        published, prices = _aws_offer(
            transport.lines(urls[region]), instances, label, result.problems
        )
        for target, code, instance, gpus in rows:
            term = AWS_TERMS[target.billing]
            found = prices.get((code, instance, *term))
            what = f"{instance} Linux " + (
                "on demand" if term[0] == "OnDemand" else f"{term[1]} {term[2]} reserved"
            )
            where = f"{label}, {code}" if code != region else label
            row_label = _say("Price %(id)s", id=target.key) + f" ({where}: {what})"
            if not found:
                result.problems.append(
                    _say("%(row)s: not in the offer file (partial file?)", row=row_label)
                )
                continue
            if len(found) > 1:
                result.problems.append(
                    _say("%(row)s: %(count)s different prices", row=row_label, count=len(found))
                )
                continue
            per_instance = next(iter(found))
            price = _check_update(target, per_instance / gpus, result.problems, row_label)
            if price is None:
                continue
            result.updates.append(
                PriceUpdate(
                    key=target.key,
                    usd_per_device_hour=price,
                    source=(
                        f"AWS EC2 price list (Price List bulk API, {region} offer published "
                        f"{published}), {what}"
                        + (f" in {code}" if code != region else "")
                        + (f", ÷ {gpus} GPUs" if gpus > 1 else "")
                        + f"; read {today.isoformat()}"
                    ),
                    derived=gpus > 1,
                    detail={
                        "instance": instance,
                        "region": code,
                        "per_instance_usd_hour": str(per_instance),
                        "published": published,
                    },
                    **_default_region(target, AWS_DEFAULT_REGION, AWS_REGION),
                )
            )
    if result.problems:
        result.updates = []
    return result


# --- Google Cloud Billing Catalog API -------------------------------------------------------------

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
    units, nanos = _decimal(money.get("units", "0")), money.get("nanos", 0)
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
            problems.append(_say("%(where)s: not JSON (%(error)s)", where=label, error=error))
            return []
        if not isinstance(document, dict) or not isinstance(document.get("skus"), list):
            problems.append(_say("%(where)s: no skus list", where=label))
            return []
        page_problems: list[str] = []
        for i, sku in enumerate(document["skus"]):
            where = f"{label}: skus[{i}]"
            if not isinstance(sku, dict):
                page_problems.append(_say("%(where)s is not an object", where=where))
                continue
            category = sku.get("category")
            if not isinstance(sku.get("description"), str):
                page_problems.append(
                    _say("%(where)s.description is missing or not text", where=where)
                )
            if not isinstance(category, dict) or not isinstance(category.get("usageType"), str):
                page_problems.append(_say("%(where)s.category.usageType is missing", where=where))
            regions = sku.get("serviceRegions")
            if not isinstance(regions, list) or not all(isinstance(r, str) for r in regions):
                page_problems.append(
                    _say("%(where)s.serviceRegions is not a list of names", where=where)
                )
            info = sku.get("pricingInfo")
            if not isinstance(info, list) or not info:
                page_problems.append(_say("%(where)s.pricingInfo is empty", where=where))
        problems.extend(page_problems)
        if page_problems:
            return []
        skus.extend(document["skus"])
        token = document.get("nextPageToken") or ""
        if not isinstance(token, str):
            problems.append(_say("%(where)s: nextPageToken is not text", where=label))
            return []
        if not token:
            return skus
    problems.append(
        _say(
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
        region = _region_code(target.region, GCP_REGION) or GCP_DEFAULT_REGION[0]
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
        label = _say("Price %(id)s", id=target.key) + (
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
                    _say(
                        "%(row)s: %(count)s different hourly prices match %(pattern)s",
                        row=label,
                        count=len(matches),
                        pattern=repr(pattern),
                    )
                    + (_say(" (partial answer?)") if not matches else "")
                )
                break
            part, description = next(iter(matches.items()))
            total += part * quantity
            used.append(f"{quantity} × {description}")
        else:
            gpus = machine["gpus"]
            per_device = _check_update(target, total / gpus, result.problems, label)
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
                    **_default_region(target, GCP_DEFAULT_REGION, GCP_REGION),
                )
            )
    if result.problems:
        result.updates = []
    return result


BILLINGS_LISTED = {
    "azure": {"on_demand", "spot", "commit_1y", "commit_3y"},
    "aws": set(AWS_TERMS),
    "gcp": set(GCP_USAGE),
}
COLLECTORS: dict[str, Callable[..., SourceResult]] = {
    "azure": collect_azure,
    "aws": collect_aws,
    "gcp": collect_gcp,
}
SOURCE_PAGES = {
    "azure": AZURE_API,
    "aws": AWS_REGION_INDEX,
    "gcp": f"{GCP_API}/services/{GCP_COMPUTE_SERVICE}/skus",
}
