"""One card's sized and priced option, memoised on the catalog, and the price it is billed at."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Accelerator, Catalog
from advisor.engine.planning import serving_cost, training_cost
from advisor.engine.pricing import billing
from advisor.engine.sizing import ModelShape

if TYPE_CHECKING:
    # options builds with priced_option: the type only, or the two would import each other.
    from advisor.engine.planning.options import Sized


# The one data residency planning tells apart from the others (billing, serving and the options
# read it as "is it this"; planning_key and the option memo key on that alone).
IN_REGION = "in_region"


# Fields of an option doc that are its own (copied out of the memo); `prices` and
# `break_even_utilisation` are the memoised offer's, shared and read-only by contract.
_OWN_DICTS = (
    "cost_per_run_usd",
    "cost_to_result",
    "compute_usd_per_month",
    "cost_per_million_output_tokens_usd",
)


_OPTION_MEMO_MAX = 10_000


def _copy_option(option: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(option)
    for k in _OWN_DICTS:
        if k in out:
            out[k] = dict(out[k])
    out["missing_prices"] = list(out["missing_prices"])
    return out


def _option_inputs(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    mode: str,
    phase: str,
    shape: ModelShape,
    ci: billing.CostInputs,
) -> object:
    """A token for everything a card's priced option reads besides the card and the round trip:
    the workload, the mode, the sizing answers (which determine the memory and FLOPs) and the
    cost inputs. Memoised on the catalog, so equal inputs give the same token."""
    local = ("option_inputs", kind, schedule, mode)
    token = ci.sized.get(local)
    if token is None:
        sizing = (
            (answers.training,)
            if phase == "training"
            else (answers.inference, answers.frameworks.serving, answers.cost.hours_per_day)
        )
        key = (
            "option_inputs",
            kind,
            schedule,
            mode,
            shape,
            sizing,
            ci.today,
            ci.stale_days,
            ci.regions,
            ci.clouds,
            ci.residency == IN_REGION,
            ci.china,
            ci.ops_capacity,
            ci.ops_headcount,
            ci.staff_region,
            ci.billing,
            ci.predictable,
            ci.stable,
            ci.amortisation_months,
            ci.capex_budget_usd,
            ci.measurements,
        )
        token = ci.sized[local] = catalog.memo(key, object)
    return token


def priced_option(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    acc: Accelerator,
    mode: str,
    phase: str,
    sized: Sized,
    ci: billing.CostInputs,
    rtt: float | None,
) -> dict[str, Any] | None:
    """One card's sized and priced option (None = it does not fit), memoised on the catalog:
    the same cards in the same modes recur across the builds of one evaluation and across
    evaluations of the same answers. A copy is handed out, so callers may change it."""

    def compute() -> dict[str, Any] | None:
        shape = sized.shape
        if shape is None:
            return None
        if phase == "training" and sized.tmem and sized.tflops and answers.training:
            return training_cost.training_option(
                acc,
                mode,
                kind,
                schedule,
                shape,
                answers.training,
                sized.tmem,
                sized.tflops,
                ci,
            )
        if phase == "inference" and sized.imem and answers.inference:
            return serving_cost.inference_option(
                acc,
                mode,
                kind,
                shape,
                answers.inference,
                sized.imem,
                answers.cost.hours_per_day,
                ci,
                rtt_ms=rtt,
            )
        return None

    if sized.shape is None:
        return None
    token = _option_inputs(catalog, answers, kind, schedule, mode, phase, sized.shape, ci)
    memo: dict[Any, dict[str, Any] | None] = catalog.memo("option_memo", dict)
    key = (token, acc.id, rtt)
    try:
        found = memo[key]
    except KeyError:
        if len(memo) >= _OPTION_MEMO_MAX:  # option docs are large: a memo of their own, bounded
            memo.clear()
        found = memo[key] = compute()
    return None if found is None else _copy_option(found)


def billed_price(option: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The price the option is billed at (None when it has none)."""
    used = option.get("billing_used")
    price: Mapping[str, Any] | None = (option.get("prices") or {}).get(used) if used else None
    return price


def priced_pairs(catalog: Catalog) -> frozenset[tuple[str, str]]:
    """(accelerator, mode) pairs that have at least one price in the catalog."""
    return catalog.memo(
        "priced_pairs",
        lambda: frozenset(
            (p.accelerator_id, m)
            for p in catalog.prices
            if not p.on_request or p.indicative
            for m in p.modes
        ),
    )
