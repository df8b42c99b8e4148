"""The operator's servers sold on request, shown beside a workload's first option."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.planning.priced_option import billed_price
from advisor.engine.text import i18n


def house_beside_first(options: Sequence[dict[str, Any]], lang: str = "en") -> None:
    """The operator's own servers sold on request that fit this workload (an
    option runnable with the team's stack, the server in the customer's region) are listed on the
    first priced option as `house_on_request`, with their sizing, so that the report shows
    "our server for this workload: ask for a price" beside it. They stay unpriced and are never
    ranked as if priced; the key is absent when there is none (results keep their bytes)."""
    if not options:
        return
    found = house_offers(options, lang=lang)
    if not found:
        return
    first = beside_first(options)
    # The server that prices the option itself is its plan, not a server beside it.
    own = billed_price(first)
    found = [f for f in found if not own or f["price_id"] != own["price_id"]]
    if found:
        first["house_on_request"] = found


def beside_first(options: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The option the operator's servers are shown beside: the first priced one, else the first."""
    return next((o for o in options if o["cost_to_result"]["usd"] is not None), options[0])


def house_offers(
    options: Sequence[Mapping[str, Any]], near: Sequence[str] = (), *, lang: str = "en"
) -> list[dict[str, Any]]:
    """The operator's servers sold on request among a mode's options, each sized for the card's
    option: runnable with the team's stack, the server in the customer's region or in one of
    the `near` regions (neighbours), once each."""
    found: list[dict[str, Any]] = []
    seen: set[str] = set()
    for o in options:
        if not o["stack"]["runnable"]:
            continue
        for offer in o.get("on_request") or []:
            if not offer.get("house") or offer["price_id"] in seen:
                continue
            # Only a server where the customer is or next door (the list beside an option
            # names the rest).
            here = offer.get("region_match") == "exact" and o["availability"]["available"]
            if not (here or offer.get("region_key") in near):
                continue
            seen.add(offer["price_id"])
            needed = int(o.get("min_count") or o["count"])
            per_unit = max(1, int(offer.get("gpus_per_unit") or 1))
            found.append(
                {
                    **offer,
                    "accelerator_id": o["accelerator_id"],
                    "name": o["name"],
                    "needed_count": needed,
                    "servers": -(-needed // per_unit),
                    "option_rank": o["rank"],
                    # How the server is sold, in words, wherever it is shown.
                    "deployment": i18n.deployment_words(offer.get("modes") or (), lang),
                }
            )
    return found
