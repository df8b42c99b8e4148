"""One option as the report reads it: its label, where it is sold, the price it is billed at,
its cost per result or per unit of work, and how it stands to its target."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext

from advisor.charts.results import TRAINING_KINDS, option_run_cost, option_token_cost
from advisor.engine.result.document import Option, Price
from advisor.labels import catalog_text, label_for, region_text, usd
from advisor.reporting.text import ms_text

BILLING_SLOTS = ("on_demand", "spot", "capacity_block", "commit_1y", "commit_3y", "monthly")


def option_label(option: Mapping[str, Any]) -> str:
    return f"{option['name']} × {option['count']}"


def unit_text(option: Mapping[str, Any]) -> str:
    """The units the option is bought in, as sold: "5 × TYO-L40S-8 servers, 8 × NVIDIA L40S
    each (40 cards)", with the cards needed when fewer than bought."""
    unit = option.get("unit")
    if not unit:
        return ""
    values = {
        "count": unit["count"],
        "name": unit.get("name") or option["name"],
        "gpus": unit["gpus"],
        "card": option["name"],
        "billed": unit["billed"],
    }
    if unit["kind"] == "instance":
        text = ngettext(
            "%(count)s × %(name)s instance, %(gpus)s × %(card)s each (%(billed)s cards)",
            "%(count)s × %(name)s instances, %(gpus)s × %(card)s each (%(billed)s cards)",
            unit["count"],
        )
    elif unit["kind"] == "server":
        text = ngettext(
            "%(count)s × %(name)s server, %(gpus)s × %(card)s each (%(billed)s cards)",
            "%(count)s × %(name)s servers, %(gpus)s × %(card)s each (%(billed)s cards)",
            unit["count"],
        )
    elif unit.get("name") in ("HGX", "OAM"):
        text = ngettext(
            "%(count)s %(name)s server of %(gpus)s × %(card)s (%(billed)s cards), bought",
            "%(count)s %(name)s servers of %(gpus)s × %(card)s each (%(billed)s cards), bought",
            unit["count"],
        )
    else:
        text = ngettext(
            "%(count)s PCIe server of %(gpus)s × %(card)s (%(billed)s cards), bought",
            "%(count)s PCIe servers of %(gpus)s × %(card)s each (%(billed)s cards), bought",
            unit["count"],
        )
    out = text % values
    if int(option["count"]) < int(unit["billed"]):
        out += _("; %(count)s cards needed") % {"count": option["count"]}
    return out


def where_sold(price: Mapping[str, Any] | None) -> str:
    if not price:
        return ""
    provider, region = price.get("provider"), price.get("region")
    return " · ".join(v for v in (catalog_text(provider), region_text(region)) if v)


def option_price(option: Option) -> Price | None:
    prices = option["prices"]
    used = option["billing_used"]
    if used and prices.get(used):
        return prices[used]
    return next((p for p in prices.values() if p), None)


# How the report, the compare page and the what-if word a cost per result, one phrase per unit
# the engine prices a result in (the same notion read "$8.32 per million tokens"
# on the report and "$57,330 per month" on compare). A monthly cost is its own figure, never this.
PER_RESULT = {
    "run": _lazy("%(usd)s per run"),
    "million_tokens": _lazy("%(usd)s per million tokens"),
    "thousand_images": _lazy("%(usd)s per 1,000 images"),
    "audio_hour": _lazy("%(usd)s per audio hour"),
    "million_passages": _lazy("%(usd)s per million passages"),
    "million_pairs": _lazy("%(usd)s per million pairs"),
}
PER_WORDS = {
    "run": _lazy("per run"),
    "million_tokens": _lazy("per million tokens"),
    "thousand_images": _lazy("per 1,000 images"),
    "audio_hour": _lazy("per audio hour"),
    "million_passages": _lazy("per million passages"),
    "million_pairs": _lazy("per million pairs"),
}


def cost_per_result(option: Mapping[str, Any], kind: str) -> tuple[float | None, str]:
    """The cost a customer compares options by, at the billing the option uses, and what it is
    per: a training run, a million output tokens, or the team's own unit of work (1,000 images,
    an audio hour). Never per month: a serving option's cost to its result is per token."""
    if kind in TRAINING_KINDS:
        run_cost, _slot = option_run_cost(cast(Option, option))
        return run_cost, "run"
    work = option.get("work")
    if work:
        unit_cost, _slot = unit_work_cost(option)
        return unit_cost, str(work.get("per") or "")
    token_cost, _slot = option_token_cost(cast(Option, option))
    return token_cost, "million_tokens"


def per_result_text(value: float | None, per: str) -> str:
    """A cost per result in the page's language, e.g. "$8.32 per million tokens"."""
    if value is None:
        return "—"
    phrase = PER_RESULT.get(per)
    amount = amount_text(value, per)
    return str(phrase % {"usd": amount}) if phrase is not None else amount


def amount_text(value: float, per: str) -> str:
    """US dollars as `usd` writes them; a cost per unit of work below a dollar keeps its first
    three significant figures (a thousand images can cost a fraction of a cent)."""
    if per in ("run", "million_tokens") or abs(value) >= 1 or value == 0:
        return usd(value)
    decimals = max(2, 2 - math.floor(math.log10(abs(value))))
    return f"${value:.{decimals}f}"


def target_verdict(option: Mapping[str, Any]) -> str:
    """How an option stands to its target, with the margin (older result documents carry
    only met / not met)."""
    status = option.get("target_status")
    margin = option.get("target_margin")
    if status == "missed":
        return str(_("misses the target"))
    if status == "at_risk" and margin is not None:
        return str(
            _("met with only %(margin)s to spare: a risk, not met comfortably")
            % {"margin": f"{float(margin) * 100:.1f}%"}
        )
    if status == "met" and margin is not None:
        return str(_("met, %(margin)s to spare") % {"margin": f"{float(margin) * 100:.0f}%"})
    met = option.get("meets_deadline", option.get("meets_latency"))
    if met is None:
        return "—"
    if "meets_deadline" in option:
        return str(_("met") if met else _("cannot be met"))
    return str(_("met") if met else _("not met"))


def target_flagged(option: Mapping[str, Any]) -> bool:
    """Whether the report marks the option: it misses its target or meets it at risk."""
    met = option.get("meets_deadline", option.get("meets_latency"))
    return met is False or option.get("target_status") in ("missed", "at_risk")


def latency_text(option: Option) -> str:
    metric = label_for("latency_metric", option.get("latency_metric"))
    at = option.get("latency_at_metric_ms")
    target = option.get("latency_target_ms")
    if target is None:
        return _("p95 %(metric)s: %(ms)s ms, no target") % {"metric": metric, "ms": ms_text(at)}
    verdict = target_verdict(option)
    return _("p95 %(metric)s: %(ms)s ms against a target of %(target)s ms — %(verdict)s") % {
        "metric": metric,
        "ms": ms_text(at),
        "target": ms_text(target),
        "verdict": verdict,
    }


TARGET_BASES = {
    "deadline": _lazy("your deadline"),
    "schedule": _lazy("the schedule"),
    "default": _lazy("the default target"),
}


def time_text(option: Option) -> str:
    verdict = target_verdict(option)
    basis = TARGET_BASES.get(option.get("target_basis") or "", option.get("target_basis") or "—")
    return _("%(hours)s h per run against a target of %(target)s h (%(basis)s) — %(verdict)s") % {
        "hours": f"{option['hours']:,.1f}",
        "target": f"{float(option['target_hours']):,.0f}",
        "basis": basis,
        "verdict": verdict,
    }


MFU_LAYOUTS = {
    "one_node": _lazy("on one node"),
    "data_parallel_across_nodes": _lazy("data parallel across nodes"),
    "model_parallel_across_nodes": _lazy("tensor or pipeline parallel, across nodes"),
}


def mfu_text(option: Option) -> str:
    """The training speed an option assumes: its MFU, the regime that gave it and where the
    regime's figures come from (the catalog's table of published runs)."""
    basis = option.get("mfu_basis") or {}
    layout = basis.get("parallelism") or ""
    return _(
        "MFU %(mfu)s at %(tokens)s tokens per micro-step, %(layout)s; fitted on published "
        "training runs (LLM Foundry, torchtitan, NeMo, Qwen, Llama 3.1)"
    ) % {
        "mfu": f"{float(option.get('mfu') or 0) * 100:.0f}%",
        "tokens": f"{int(basis.get('tokens_per_micro_step') or 0):,}",
        "layout": MFU_LAYOUTS.get(layout, layout or "—"),
    }


def in_units(w: Mapping[str, Any]) -> bool:
    """Inference work counted in its own unit (images, audio, pairs)."""
    return any("work" in o for o in w["options"])


def unit_work_cost(option: Mapping[str, Any]) -> tuple[float | None, str | None]:
    """An option's cost per the team's unit at the billing it uses (else the first priced)."""
    costs = (option.get("work") or {}).get("cost_per_unit_usd") or {}
    used = option.get("billing_used")
    if used and costs.get(used) is not None:
        return costs[used], used
    return next(((v, k) for k, v in costs.items() if v is not None), (None, None))


def server_spec(server: dict[str, Any], *, china: bool = False) -> str:
    """A server as its seller entered it, in one line: CPU, RAM, NVMe, network and, with
    `china`, its route to mainland China and the Mbps included."""
    parts = (
        server.get("cpu"),
        f"{server['ram_gb']} GB RAM" if server.get("ram_gb") else None,
        f"{server['nvme_tb']} TB NVMe" if server.get("nvme_tb") else None,
        f"{server['network_gbps']} Gbps" if server.get("network_gbps") else None,
        f"{label_for('china_route', server['china_bandwidth_type'])} "
        f"{server.get('china_bandwidth_mbps') or 0} Mbps"
        if china and server.get("china_bandwidth_type")
        else None,
    )
    return " · ".join(str(v) for v in parts if v)
