"""The report's dead-end block and the sentences that must agree with the result: what
rules a workload's options out, the relaxations that bring them back, the
operator's server to quote, and the confidence wording read from the same fields the plan table
shows (no "runner-up is close" when there is no runner-up)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from advisor.reporting.text import customer_text


def _text(value: Any) -> str:
    return customer_text(str(value))


def dead_end_context(raw: Mapping[str, Any]) -> dict[str, Any] | None:
    """A workload's dead-end block as the report shows it (None when it has an option)."""
    dead = raw.get("dead_end")
    if not dead:
        return None
    quote = dead.get("quote")
    return {
        "statement": _text(dead["statement"]),
        "relaxations": [
            {
                "explanation": _text(r["explanation"]),
                "option": r["option"],
            }
            for r in dead["relaxations"]
        ],
        "quote": None if not quote else {**quote, "statement": _text(quote["statement"])},
        "next": _text(dead["next"]),
    }


def is_dead(raw: Mapping[str, Any]) -> bool:
    return bool(raw.get("dead_end"))


def _priced_runnable(options: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [
        o
        for o in options
        if o["stack"]["runnable"] and (o.get("cost_to_result") or {}).get("usd") is not None
    ]


def has_runner_up(raw: Mapping[str, Any]) -> bool:
    """A second runnable, priced option the first is compared with."""
    return len(_priced_runnable(raw.get("options") or [])) >= 2


def workload_confidence_risk(raw: Mapping[str, Any], kind: str, confidence: float) -> str:
    """Why a workload's confidence is low, from the part that is lowest and what the options
    are: the scores of GPU/TPU or of the modes are close, the runner-up is close, the first
    option has no price or misses its target; a dead end says there is nothing to be sure of."""
    pct = f"{confidence * 100:.0f}%"
    if is_dead(raw):
        return _(
            "%(kind)s: no option meets every answer, so there is no plan to be confident in "
            "yet; see the changes that bring options back."
        ) % {"kind": kind}
    parts = raw.get("confidence_parts") or {}
    weakest = min(parts, key=lambda k: float(parts[k])) if parts else "card"
    if weakest == "family":
        return _(
            "%(kind)s: confidence is %(confidence)s: GPU and TPU score close; a pilot on both "
            "should settle it."
        ) % {"kind": kind, "confidence": pct}
    if weakest == "mode":
        return _(
            "%(kind)s: confidence is %(confidence)s: the deployment modes score close; price "
            "both before choosing."
        ) % {"kind": kind, "confidence": pct}
    options = raw.get("options") or []
    first = options[0] if options else None
    if first is not None and (first.get("cost_to_result") or {}).get("usd") is None:
        return _(
            "%(kind)s: confidence is %(confidence)s: the first option has no price in the "
            "catalog; get a quote before relying on it."
        ) % {"kind": kind, "confidence": pct}
    if first is not None and (
        first.get("meets_latency") is False or first.get("meets_deadline") is False
    ):
        return _("%(kind)s: confidence is %(confidence)s: the first option misses your target.") % {
            "kind": kind,
            "confidence": pct,
        }
    if has_runner_up(raw):
        return _(
            "%(kind)s: confidence is %(confidence)s: the runner-up costs nearly the same; a "
            "pilot on both should settle it."
        ) % {"kind": kind, "confidence": pct}
    return _("%(kind)s: confidence is %(confidence)s.") % {"kind": kind, "confidence": pct}


def overall_confidence_risk(result: Mapping[str, Any], confidence: float) -> str:
    """The overall confidence sentence, from the lowest part of the recommendation's confidence:
    a runner-up is named only where a workload has one and its card is the unsure part."""
    pct = f"{confidence * 100:.0f}%"
    workloads = [w for w in result["workloads"] if w["kind"] != "preprocessing"]
    if workloads and all(is_dead(w) for w in workloads):
        return _(
            "No workload has an option that meets every answer: the report lists the changes "
            "that bring options back."
        )
    parts = result["recommendation"].get("confidence_parts") or {}
    weakest = min(parts, key=lambda k: float(parts[k])) if parts else "card"
    if weakest == "family":
        return _("Overall confidence is %(confidence)s: GPU and TPU score close.") % {
            "confidence": pct
        }
    if weakest == "mode":
        return _("Overall confidence is %(confidence)s: the deployment modes score close.") % {
            "confidence": pct
        }
    if any(has_runner_up(w) for w in workloads if not is_dead(w)):
        return _("Overall confidence is %(confidence)s: the runner-up is close.") % {
            "confidence": pct
        }
    return _(
        "Overall confidence is %(confidence)s: see what each workload's confidence covers."
    ) % {"confidence": pct}


def dead_end_offer(
    workload: Mapping[str, Any], offer_id: str = ""
) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """(option, offer) of a dead-end workload's quote, as the quote form reads an option and its
    house offer: the sized servers of the operator's unit (`offer_id` must name it, when given)."""
    quote = (workload.get("dead_end") or {}).get("quote")
    if not quote or (offer_id and quote["price_id"] != offer_id):
        return None
    per = max(1, int(quote["per_server"] or 1))
    option = {
        "accelerator_id": quote["accelerator_id"],
        "name": quote["name"],
        "count": quote["count"],
        "billed_count": quote["servers"] * per,
        "monthly_cost_usd": quote["monthly_cost_usd"],
    }
    offer = {
        "price_id": quote["price_id"],
        "provider": quote["provider"],
        "region": quote["region"],
        "region_key": quote["region_key"],
        "sold_as": quote["unit"],
        "gpus_per_unit": per,
        "price_on_request": not quote["priced"],
        "server": {
            **_sized_where_not_entered(quote),
            **{
                k: v
                for k, v in {
                    **quote["server"],
                    "china_bandwidth_type": quote["server"].get("china_route"),
                }.items()
                if k != "china_route" and v is not None
            },
        },
    }
    return option, offer


def _sized_where_not_entered(quote: Mapping[str, Any]) -> dict[str, Any]:
    """The host the engine sizes for the workload (cores, GiB, NVMe, network) for the fields the
    operator left out of the server, so that the quote never shows a blank CPU."""
    sized = dict(quote.get("sized_server") or {})
    entered = quote.get("server") or {}
    if entered.get("cpu") or entered.get("ram_gb"):
        sized.pop("cpu_cores", None)
        sized.pop("ram_gib", None)
    return {k: v for k, v in sized.items() if entered.get(k) is None}


def page_one_changes(changes: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The changes page one lists under "would change if": the smallest relaxation of every
    dead-end workload first (each has its own way out), then the first two other changes."""
    firsts: dict[str, Mapping[str, Any]] = {}
    for c in changes:
        if c.get("kind") == "relaxation":
            firsts.setdefault(str(c.get("workload")), c)
    others = [c for c in changes if c.get("kind") != "relaxation"]
    return [*firsts.values(), *others[:2]]
