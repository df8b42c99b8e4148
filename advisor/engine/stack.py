"""Does the team's stack run on a card as it is? Compatibility is catalog data per accelerator.

Each accelerator's `compatibility` names, for every framework, serving stack and for custom CUDA
kernels, one of native / supported / needs_porting / unsupported, with its source. An option
whose stack is native or supported is runnable; needs_porting is listed after every runnable
option with what porting means; unsupported is excluded with its reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from advisor.engine.catalog import Accelerator, Catalog

STATUSES = ("native", "supported", "needs_porting", "unsupported")
_ORDER = {s: i for i, s in enumerate(STATUSES)}
RUNNABLE = frozenset({"native", "supported"})
# Serving "stacks" that run the team's own framework code, so the framework must run too.
_FRAMEWORK_SERVING = frozenset({"none", "custom", "torchserve", "tf_serving"})


@dataclass(frozen=True, slots=True)
class StackFit:
    """How the team's stack fares on one card for one workload phase."""

    status: str
    checks: tuple[tuple[str, str], ...]  # (item, status), e.g. ("serving.triton", "needs_porting")
    porting: tuple[str, ...]  # porting message codes for the items that need porting
    source: str | None
    as_of: str | None

    @property
    def runnable(self) -> bool:
        return self.status in RUNNABLE


def _items(phase: str, primary: str, serving: str, custom_kernels: bool) -> tuple[str, ...]:
    items: list[str] = []
    if phase == "inference":
        items.append(f"serving.{serving}")
        if serving in _FRAMEWORK_SERVING:
            items.append(f"frameworks.{primary}")
    else:
        items.append(f"frameworks.{primary}")
    if custom_kernels:
        items.append("custom_cuda_kernels")
    return tuple(items)


def _status(compat: Mapping[str, Any] | None, item: str) -> str:
    if not compat:
        return "needs_porting"  # a card without compatibility data: to be verified first
    if item == "custom_cuda_kernels":
        value = compat.get("custom_cuda_kernels")
    else:
        group, key = item.split(".", 1)
        value = (compat.get(group) or {}).get(key)
    return value if value in _ORDER else "needs_porting"


def stack_fit(
    catalog: Catalog,
    acc: Accelerator,
    phase: str,
    primary: str,
    serving: str,
    custom_kernels: bool,
) -> StackFit:
    """The worst status over what the workload needs from the card (memoised on the catalog)."""
    key = ("stack", acc.id, phase, primary, serving, custom_kernels)
    return catalog.memo(key, lambda: _fit(acc, phase, primary, serving, custom_kernels))


def _fit(acc: Accelerator, phase: str, primary: str, serving: str, custom: bool) -> StackFit:
    compat = acc.compatibility
    checks = tuple(
        (item, _status(compat, item)) for item in _items(phase, primary, serving, custom)
    )
    worst = max((s for _, s in checks), key=_ORDER.__getitem__, default="native")
    porting_codes = (compat or {}).get("porting") or {}
    porting: list[str] = []
    for item, status in checks:
        if status != "needs_porting":
            continue
        group = item.split(".", 1)[0]
        code = porting_codes.get(group) or ("verify" if not compat else "generic")
        if code not in porting:
            porting.append(code)
    return StackFit(
        status=worst,
        checks=checks,
        porting=tuple(porting),
        source=(compat or {}).get("source"),
        as_of=(compat or {}).get("as_of"),
    )
