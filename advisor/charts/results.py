"""What the charts and the report's tables read of a result document: the workload kinds, the
billing names, the catalog it was computed with, the option its cost summary used and an
option's cost per run or per million output tokens."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from advisor.decisions import pinned
from advisor.engine import Catalog
from advisor.engine.result.document import Option, ResultDocument, Workload

TRAINING_KINDS = ("pretraining", "fine_tuning")
INFERENCE_KINDS = ("realtime_inference", "batch_inference")
HOURLY_SLOTS = ("on_demand", "spot", "capacity_block")
FIXED_SLOTS = ("commit_1y", "commit_3y", "monthly")

BILLING_LABELS: dict[str, Promise] = {
    "on_demand": gettext_lazy("On-demand (hourly)"),
    "spot": gettext_lazy("Spot"),
    "capacity_block": gettext_lazy("Capacity block"),
    "flex_start": gettext_lazy("Flex-start (queued)"),
    "commit_1y": gettext_lazy("1-year commitment"),
    "commit_3y": gettext_lazy("3-year commitment"),
    "monthly": gettext_lazy("Monthly dedicated"),
    "monthly_fixed": gettext_lazy("Fixed monthly"),
    "purchase": gettext_lazy("Purchase or lease"),
}

# Short names for table headers, where eleven columns share the page width.
BILLING_SHORT_LABELS: dict[str, Promise] = {
    "on_demand": gettext_lazy("On-demand"),
    "spot": gettext_lazy("Spot"),
    "capacity_block": gettext_lazy("Cap. block"),
    "commit_1y": gettext_lazy("1-yr commit"),
    "commit_3y": gettext_lazy("3-yr commit"),
    "monthly": gettext_lazy("Monthly"),
}


def pinned_catalog(result: ResultDocument) -> Catalog | None:
    """The catalog version the result was computed with (see pinned.catalog_at)."""
    return pinned.catalog_at(str(result["versions"]["catalog"]))


def workloads_of(result: ResultDocument, kinds: Iterable[str]) -> list[Workload]:
    wanted = set(kinds)
    return [w for w in result["workloads"] if w["kind"] in wanted]


def chosen_option(result: ResultDocument, workload: Workload) -> Option | None:
    """The option the cost summary used for this workload (else the first, the cheapest)."""
    options = workload["options"]
    if not options:
        return None
    for entry in result["cost"]["by_workload"]:
        if entry["workload"] == workload["kind"]:
            for option in options:
                if option["accelerator_id"] == entry["accelerator_id"]:
                    return option
    return options[0]


def option_run_cost(option: Option) -> tuple[float | None, str | None]:
    costs = option.get("cost_per_run_usd") or {}  # training options only
    used = option["billing_used"]
    cost = costs.get(used) if used else None
    if cost is not None:
        return cost, used
    for slot in HOURLY_SLOTS:
        cost = costs.get(slot)
        if cost is not None:
            return cost, slot
    return None, None


def option_token_cost(option: Option) -> tuple[float | None, str | None]:
    costs = option.get("cost_per_million_output_tokens_usd") or {}  # serving options only
    used = option["billing_used"]
    cost = costs.get(used) if used else None
    if cost is not None:
        return cost, used
    for slot in (*HOURLY_SLOTS, *FIXED_SLOTS):
        cost = costs.get(slot)
        if cost is not None:
            return cost, slot
    return None, None
