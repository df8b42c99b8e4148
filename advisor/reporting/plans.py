"""Each workload's plan as a buyer reads it (what to rent where, the runner-up, the operator's
own server beside it) and what its confidence covers."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from advisor.charts.results import BILLING_LABELS
from advisor.engine.result.document import Change, Option, ResultDocument, Workload
from advisor.labels import catalog_text, modes_text, region_text, usd
from advisor.reporting import dead_ends
from advisor.reporting.options import (
    PER_WORDS,
    amount_text,
    cost_per_result,
    latency_text,
    option_label,
    option_price,
    per_result_text,
    server_spec,
    target_flagged,
    time_text,
    unit_text,
    where_sold,
)
from advisor.reporting.text import customer_text, percent


def every_plan_dead(plans: list[dict[str, Any]]) -> bool:
    sized = [p for p in plans if p["kind"] != "preprocessing"]
    return bool(sized) and all(p["dead_end"] for p in sized)


def plan_context(result: ResultDocument, w: dict[str, Any], raw: Workload) -> dict[str, Any]:
    """One workload's plan as a buyer reads it: what to rent where, how it is paid, what it
    costs a month and per result, how fast, and the runner-up with the difference."""
    # A dead end has no option the team can run and buy: page one states the dead end alone,
    # never "buy" over an unpriced or unrunnable card.
    chosen = None if raw.get("dead_end") else w["chosen"]
    plan: dict[str, Any] = {
        "kind": w["kind"],
        "chosen": None,
        "dead_end": dead_ends.dead_end_context(raw),
    }
    if chosen is None:
        plan["cpu"] = _cpu_plan(raw.get("cpu_plan"))
        return plan
    price = option_price(chosen)
    used = chosen["billing_used"]
    per_result, per_key = cost_per_result(chosen, w["kind"])
    unpriced = chosen.get("unpriced") if chosen["monthly_cost_usd"] is None else None
    unpriced_text = ""
    if unpriced is not None:
        if unpriced.get("reason") == "no_purchase_price":
            unpriced_text = _(
                "Owned hardware: no sourced purchase price for these cards; ask vendors for a "
                "quote."
            )
        else:
            unpriced_text = _("No price in the catalog for this option: ask for a quote.")
    if chosen.get("target_hours") is not None:
        speed = time_text(chosen)
    elif chosen.get("latency_metric"):
        speed = latency_text(chosen)
    else:
        speed = ""
    runner_up = _runner_up(w, chosen, per_result)
    return {
        "kind": w["kind"],
        "chosen": chosen,
        "option": option_label(chosen),
        "units": unit_text(chosen),
        "where": "" if unpriced is not None else where_sold(price),
        # The operator's own server on its demo price list: said so, with the quote it leads to.
        "demo": _demo(price),
        "deployment_mode": w["deployment_mode"],
        "billing": BILLING_LABELS.get(used, "") if used else "",
        "monthly": chosen["monthly_cost_usd"],
        "per_result": per_result,
        "per_result_text": per_result_text(per_result, per_key),
        "speed": speed,
        "speed_flag": target_flagged(chosen),
        "unpriced": unpriced_text,
        "runner_up": runner_up,
        "house": [_house_beside(offer) for offer in chosen.get("house_on_request") or []],
        # Priced on an indicative figure (a server sold on request): what it is based on, and
        # the quote that decides it.
        "indicative": _indicative(price),
        "dead_end": dead_ends.dead_end_context(raw),
    }


def _cpu_plan(cpu: Any) -> dict[str, Any] | None:
    """Preprocessing's CPU server as page one states it: what to rent and its month."""
    if not cpu:
        return None
    if cpu.get("billing") == "monthly":
        what = _(
            "%(servers)s dedicated CPU server(s) of %(per)s vCPU by the month (%(vcpu)s vCPU "
            "needed)"
        ) % {"servers": cpu["servers"], "per": cpu["vcpu_per_server"], "vcpu": cpu["vcpu"]}
    else:
        what = _("%(vcpu)s vCPU of CPU instances on demand, %(hours)s hours a month") % {
            "vcpu": cpu["vcpu"],
            "hours": f"{float(cpu.get('hours_per_month') or 0):,.0f}",
        }
    return {"what": what, "monthly": cpu["usd_per_month"]}


def _demo(price: Any) -> dict[str, Any] | None:
    if not price or not price.get("demo"):
        return None
    return {"price_id": price["price_id"], "source": price.get("source") or ""}


def _indicative(price: Any) -> dict[str, Any] | None:
    if not price or not price.get("indicative"):
        return None
    basis = price.get("basis") or {}
    kind = (
        _("monthly prices of rented servers")
        if basis.get("kind") == "rented_server"
        else _("on-demand rates over a month")
    )
    text = _(
        "the median of %(rows)s sourced %(kind)s for this card: %(provider)s (%(region)s), "
        "%(usd)s per GPU a month, %(date)s"
    ) % {
        "rows": basis.get("rows", ""),
        "kind": kind,
        "provider": catalog_text(basis.get("provider")),
        "region": region_text(basis.get("region")),
        "usd": usd(basis.get("usd_per_device_month")),
        "date": basis.get("as_of") or "",
    }
    return {"basis": text, "price_id": price.get("price_id") if price.get("house") else None}


def _house_beside(offer: dict[str, Any]) -> dict[str, Any]:
    """The operator's own server sold on request that fits the workload, shown beside the
    first priced option: the server as entered and its sizing."""
    server = offer.get("server") or {}
    return {
        "provider": catalog_text(offer.get("provider")),
        "region": region_text(offer.get("region")),
        "server": offer.get("sold_as") or server.get("name") or "",
        "spec": server_spec(server, china=True),
        "card": offer.get("name") or "",
        "needed": offer.get("needed_count"),
        "servers": offer.get("servers"),
        "per_unit": offer.get("gpus_per_unit"),
        "price_id": offer.get("price_id"),
        # How the operator sells it (results before engine words carry only the modes).
        "deployment": modes_text(offer.get("modes") or ()),
    }


def _runner_up(w: dict[str, Any], chosen: Option, per_result: float | None) -> str:
    others = [o for o in w["options"] if not o["chosen"]]
    if not others:
        return ""
    other = others[0]
    other_cost, per_key = cost_per_result(other, w["kind"])
    per = PER_WORDS.get(per_key, "")
    unit = other.get("unit") or {}
    # Bought in servers or instances: the units and every card they hold (one count).
    label = (
        _("%(units)s × %(server)s (%(billed)s × %(card)s)")
        % {
            "units": unit["count"],
            "server": unit["name"],
            "billed": unit["billed"],
            "card": other["name"],
        }
        if unit.get("kind") in ("server", "instance") and unit.get("name")
        else option_label(other)
    )
    text = _("%(option)s (%(where)s)") % {
        "option": label,
        "where": where_sold(option_price(other)) or _("no price"),
    }
    if other_cost is not None and per_result is not None:
        diff = other_cost - per_result
        unit_work = per_key not in ("run", "million_tokens")
        if (
            amount_text(other_cost, per_key) == amount_text(per_result, per_key)
            if unit_work
            else abs(diff) < 0.005
        ):
            text += " — " + _("costs the same %(per)s") % {"per": per}
        elif diff > 0:
            text += " — " + _("%(diff)s more %(per)s") % {
                "diff": amount_text(diff, per_key),
                "per": per,
            }
        else:
            text += " — " + _("%(diff)s less %(per)s, but ranked lower") % {
                "diff": amount_text(-diff, per_key),
                "per": per,
            }
    elif other["monthly_cost_usd"] is not None and chosen["monthly_cost_usd"] is not None:
        diff = other["monthly_cost_usd"] - chosen["monthly_cost_usd"]
        text += " — " + _("%(diff)s a month more") % {"diff": usd(diff)}
    return text


CONFIDENCE_PARTS = {
    "family": _lazy("GPU or TPU"),
    "mode": _lazy("deployment mode"),
    "card": _lazy("the card"),
}


def confidence_context(
    result: ResultDocument,
    workloads: list[dict[str, Any]],
    changes: list[Change],
    levers: list[dict[str, Any]],
) -> dict[str, Any]:
    """What each workload's confidence covers (the lowest of family, mode and card) and the
    easiest changes that would flip the answer."""
    rows = []
    for w, raw in zip(workloads, result["workloads"], strict=True):
        parts = raw["confidence_parts"]
        if parts is None:
            covers = ""
        else:
            weakest = min(CONFIDENCE_PARTS, key=lambda k: float(parts[k]))  # type: ignore[literal-required]
            covers = _(
                "the lowest of: GPU or TPU %(family)s, deployment mode %(mode)s, card "
                "%(card)s — least sure: %(weakest)s"
            ) % {
                "family": percent(parts["family"]),
                "mode": percent(parts["mode"]),
                "card": percent(parts["card"]),
                "weakest": CONFIDENCE_PARTS[weakest],
            }
        rows.append({"kind": w["kind"], "confidence": w["confidence"], "covers": covers})
    flips = [customer_text(c["explanation"]) for c in dead_ends.page_one_changes(changes)]
    flips += [str(lv["explanation"]) for lv in levers[:2]]
    return {"rows": rows, "flips": flips}
