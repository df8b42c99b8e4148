"""The unit an option is bought in, as sold: a cloud instance, a host's server (the operator's
or a third party's) or, for owned hardware, a server a vendor builds. Cards are a property of
units: the option's billed cards are always whole units of one kind, and every sentence, the
quote and the API read the counts from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from advisor.engine.catalog import Accelerator
from advisor.engine.pricing.tco import vendor_build

OWNED = frozenset({"private_cloud", "on_premises"})


def unit_doc(option: Mapping[str, Any], acc: Accelerator, mode: str) -> dict[str, Any] | None:
    """{kind, name, gpus, count, billed}: `count` units of `gpus` cards each (`billed` cards in
    all). kind: instance (a public cloud's), server (a host's dedicated or bare-metal server),
    vendor_build (owned: an HGX board of 4 or 8 SXM cards, or a PCIe server). None for a TPU
    slice, which is sold as a slice."""
    if acc.type != "gpu":
        return None
    used = option.get("billing_used")
    price: Mapping[str, Any] | None = (option.get("prices") or {}).get(used) if used else None
    count = int(option["count"])
    billed = int(option.get("billed_count") or count)
    kind = "instance" if mode == "public_cloud" else "server"
    if price:
        sold = price.get("sold_unit") or {}
        if sold:
            gpus, units = int(sold["gpus"]), int(sold["units"])
            return _doc(kind, str(sold["name"]), gpus, units, price)
        gpus = max(1, int(price.get("gpus_per_unit") or 1))
        name = (price.get("server") or {}).get("name") or price.get("sold_as")
        return _doc(kind, name, gpus, -(-billed // gpus), price)
    tco = option.get("tco") or {}
    if tco:
        per, servers = int(tco["devices_per_server"]), int(tco["servers"])
        return _doc("vendor_build", _build_name(acc), per, servers)
    # A service's spare server is a second server, never cards inside the only one.
    spared = bool((option.get("redundancy") or {}).get("spare_units"))
    _bought, per, servers = vendor_build(acc, billed, min_servers=2 if spared else 1)
    return _doc("vendor_build", _build_name(acc), per, servers)


def _build_name(acc: Accelerator) -> str:
    """An NVIDIA SXM baseboard is an HGX; AMD's accelerator modules sit on an OAM baseboard."""
    if not acc.fast_interconnect:
        return "PCIe server"
    return "HGX" if acc.id.startswith("nvidia-") else "OAM"


def _doc(
    kind: str, name: str | None, gpus: int, units: int, price: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    return {
        "kind": kind,
        "name": name,
        "gpus": gpus,
        "count": units,
        "billed": gpus * units,
        **({"house": True} if price and price.get("house") else {}),
    }
