"""AWS Price List bulk API, https://pricing.us-east-1.amazonaws.com: the EC2 region index (JSON),
then each region's EC2 offer as CSV, streamed line by line (a region's file is hundreds of MB).
No account or key."""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator
from datetime import date
from decimal import Decimal
from typing import Any

from advisor.reference.prices.base import (
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

AWS_HOST = "https://pricing.us-east-1.amazonaws.com"
AWS_REGION_INDEX = f"{AWS_HOST}/offers/v1.0/aws/AmazonEC2/current/region_index.json"
AWS_DEFAULT_REGION = ("us-east-1", "us_east")
# A Region ("ap-east-1") or a Local Zone ("us-west-2-lax-1", whose prices are in its parent
# Region's offer file under their own "Region Code").
AWS_REGION = r"^([a-z]{2}(?:-gov)?-[a-z]+-\d(?:-[a-z]{3}-\d[a-z]?)?)\b"
AWS_PARENT_REGION = r"^[a-z]{2}(?:-gov)?-[a-z]+-\d"
# The instance a row prices is catalog data: its `unit_id` ("aws:p5.48xlarge", a unit in the
# catalog's `units` with its source and date) and `gpus_per_unit`. A row without one is left.
AWS_UNIT = r"^aws:([a-z][a-z0-9-]*\.\d*x?large)$"
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
            say("%(where)s: not JSON (%(error)s)", where="AWS region index", error=error)
        )
        return {}
    if not isinstance(index, dict) or not isinstance(index.get("regions"), dict):
        problems.append(say("AWS region index: no regions object"))
        return {}
    urls: dict[str, str] = {}
    for region in sorted(regions):
        entry = index["regions"].get(region)
        url = entry.get("currentVersionUrl") if isinstance(entry, dict) else None
        if not isinstance(url, str) or not re.fullmatch(r"/offers/[\w./-]+\.json", url):
            problems.append(
                say("AWS region index: no currentVersionUrl for %(region)s", region=region)
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
                say(
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
        problems.append(say("%(where)s: no Publication Date", where=label))
        return "", {}
    header = next(reader, None) or []
    missing = [c for c in AWS_COLUMNS if c not in header]
    if missing:
        problems.append(
            say("%(where)s: columns missing: %(columns)s", where=label, columns=", ".join(missing))
        )
        return published, {}
    at = {c: header.index(c) for c in AWS_COLUMNS}
    prices: dict[tuple[str, str, str, str, str], set[Decimal]] = {}
    for number, row in enumerate(reader, start=7):
        if len(row) != len(header):
            problems.append(
                say(
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
                say(
                    "%(where)s: line %(line)s is priced in %(currency)s",
                    where=label,
                    line=number,
                    currency=row[at["Currency"]],
                )
            )
            continue
        price = to_decimal(row[at["PricePerUnit"]])
        if price is None:
            problems.append(
                say(
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
        code = region_code(target.region, AWS_REGION) or AWS_DEFAULT_REGION[0]
        named = re.match(AWS_UNIT, target.unit_id.strip())
        if named is None:
            result.left.append(target.key)
            continue
        instance, gpus = named.group(1), max(1, target.gpus_per_unit)
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
            row_label = say("Price %(id)s", id=target.key) + f" ({where}: {what})"
            if not found:
                result.problems.append(
                    say("%(row)s: not in the offer file (partial file?)", row=row_label)
                )
                continue
            if len(found) > 1:
                result.problems.append(
                    say("%(row)s: %(count)s different prices", row=row_label, count=len(found))
                )
                continue
            per_instance = next(iter(found))
            price = check_update(target, per_instance / gpus, result.problems, row_label)
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
                    **default_region(target, AWS_DEFAULT_REGION, AWS_REGION),
                )
            )
    if result.problems:
        result.updates = []
    return result


SOURCE = Source(name="aws", label="AWS Price List", page=AWS_REGION_INDEX, collector=collect_aws)
