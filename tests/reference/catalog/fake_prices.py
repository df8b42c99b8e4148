"""A price source for a provider the project does not ship: what a new provider module is (the
recipe in docs/architecture.md), registered only by test_price_provider_plugin's fixture.

Its "public price list" is one JSON document, {"published": DATE, "gpus": [{"accelerator": ID,
"usd_per_gpu_hour": N}, ...]}, for the catalog rows whose provider is "Fake GPU Cloud".
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import date
from typing import Any

from advisor.reference.prices.base import (
    PriceTarget,
    PriceUpdate,
    Source,
    SourceResult,
    Transport,
    check_update,
    say,
    to_decimal,
)

PROVIDER = "Fake GPU Cloud"
FAKE_API = "https://prices.fake-gpu-cloud.example/v1/gpus.json"


def collect_fake(
    targets: Iterable[PriceTarget], transport: Transport, *, today: date, **_: Any
) -> SourceResult:
    result = SourceResult()
    rows = [t for t in targets if t.provider == PROVIDER]
    if not rows:
        return result
    try:
        document = json.loads(transport.get(FAKE_API))
        listed = {g["accelerator"]: to_decimal(g["usd_per_gpu_hour"]) for g in document["gpus"]}
        published = str(document["published"])
    except (ValueError, KeyError, TypeError) as error:
        result.problems.append(say("%(where)s: not JSON (%(error)s)", where=FAKE_API, error=error))
        return result
    for target in rows:
        price = listed.get(target.accelerator)
        if price is None:
            result.left.append(target.key)
            continue
        label = say("Price %(id)s", id=target.key)
        checked = check_update(target, price, result.problems, label)
        if checked is not None:
            result.updates.append(
                PriceUpdate(
                    key=target.key,
                    usd_per_device_hour=checked,
                    source=f"Fake GPU Cloud price list (published {published}); "
                    f"read {today.isoformat()}",
                    derived=False,
                    detail={"published": published},
                )
            )
    if result.problems:
        result.updates = []
    return result


SOURCE = Source(
    name="fakegpu", label="Fake GPU Cloud price list", page=FAKE_API, collector=collect_fake
)
