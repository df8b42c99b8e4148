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
    # Why items are unsupported when the card itself says so (numeric formats, kernel
    # architectures): codes with parameters, read with `detail`.
    blocking: tuple[str, ...] = ()

    @property
    def runnable(self) -> bool:
        return self.status in RUNNABLE


# A bf16 run on a card without bf16 (a T4: Turing, compute capability 7.5) is re-planned in fp16:
# mixed precision with dynamic loss scaling (fp16 has 5 exponent bits against bf16's 8, so
# gradients underflow without it and activations of a bf16-trained model may overflow), at the
# card's fp16 peak. It is listed as needs porting, never as supported: the dtype and the loss
# scaler change and convergence must be checked. Pure bf16 training (weights and optimizer state
# in 16 bits, no fp32 master copy) has no fp16 counterpart (updates vanish below fp16's
# resolution), so it is excluded.
def _precision_check(acc: Accelerator, phase: str, precision: str | None) -> tuple[str, str] | None:
    """(status, code) of the numeric format the workload asks of the card; None when it runs."""
    if precision is None:
        return None
    if phase == "training":
        if precision not in ("bf16_mixed", "bf16", "fp8_mixed"):
            return None
        if acc.format_support("bf16") == "native":
            return None  # fp8_mixed without fp8 runs at bf16 speed (peak.no_fp8)
        if acc.format_support("fp16") != "native":
            return "unsupported", "no_16bit"
        if precision == "bf16":
            return "unsupported", "no_bf16_pure"
        return "needs_porting", "fp16_training"
    support = acc.format_support(precision)
    if precision == "bf16":
        if support == "native":
            return None
        if acc.format_support("fp16") == "native":
            return "needs_porting", "fp16_serving"
        return "unsupported", "no_16bit"
    if precision == "fp8":
        # fp8 serving as the team means it (W8A8 at the card's fp8 rate) needs fp8 units; the
        # weight-only path (fp8 Marlin) computes in 16 bits and is answered as int8/bf16 instead.
        return None if support == "native" else ("unsupported", "no_fp8")
    if precision in ("int8", "int4") and support == "none":
        return "unsupported", f"no_{precision}"
    return None


# A serving stack may run fewer formats on a card than the card has: the catalog's
# `serving_formats` names them per stack (SGLang's TPU back end, SGLang-JAX, serves bf16 only,
# its quantisation being in development). The card's own check comes first.
def _serving_format_check(
    compat: Mapping[str, Any] | None, serving: str, precision: str | None
) -> tuple[str, str] | None:
    formats = ((compat or {}).get("serving_formats") or {}).get(serving) or {}
    if precision is None or formats.get(precision) != "none":
        return None
    return "unsupported", f"stack_format:{serving}:{precision}"


def _arch(value: str) -> tuple[int, int]:
    digits = value.removeprefix("sm_")
    return int(digits[:-1]), int(digits[-1])


# CUDA binaries run on later minor revisions of the major architecture they were built for
# (sm_80 code runs on sm_86 and sm_89), not across majors (CUDA C++ Programming Guide, binary
# compatibility). A newer card needs the kernels rebuilt for it (PTX JIT may run them meanwhile,
# untuned: e.g. no Hopper wgmma/TMA), so it needs porting; an older card lacks the instructions
# the kernels were built for, so it is excluded.
def _kernel_check(acc: Accelerator, targets: tuple[str, ...]) -> tuple[str, str] | None:
    card = acc.compute_capability
    if card is None or not targets:
        return None
    archs = sorted(_arch(t) for t in targets)
    if any(major == card[0] and minor <= card[1] for major, minor in archs):
        return None
    sm = f"sm_{card[0]}{card[1]}"
    built = ",".join(targets)
    if archs[0] < card:
        return "needs_porting", f"kernel_rebuild:{sm}:{built}"
    return "unsupported", f"kernel_too_new:{sm}:{built}"


def detail(code: str) -> tuple[str, dict[str, str]]:
    """A check code and its parameters ("kernel_rebuild:sm_90:sm_80" -> card, targets;
    "stack_format:sglang:int8" -> stack, format)."""
    name, *rest = code.split(":")
    if name == "stack_format" and len(rest) == 2:
        return name, {"stack": rest[0], "format": rest[1]}
    if len(rest) == 2:
        return name, {"card": rest[0], "targets": rest[1].replace(",", ", ")}
    return name, {}


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
    precision: str | None = None,
    kernel_architectures: tuple[str, ...] = (),
) -> StackFit:
    """The worst status over what the workload needs from the card (memoised on the catalog):
    its frameworks and serving stack, the numeric format it runs in (`precision`: the training
    or inference precision answered) and the architectures its custom kernels are built for."""
    archs = kernel_architectures if custom_kernels else ()
    key = ("stack", acc.id, phase, primary, serving, custom_kernels, precision, archs)
    return catalog.memo(
        key, lambda: _fit(acc, phase, primary, serving, custom_kernels, precision, archs)
    )


def _fit(
    acc: Accelerator,
    phase: str,
    primary: str,
    serving: str,
    custom: bool,
    precision: str | None = None,
    archs: tuple[str, ...] = (),
) -> StackFit:
    compat = acc.compatibility
    checks = tuple(
        (item, _status(compat, item)) for item in _items(phase, primary, serving, custom)
    )
    own: list[tuple[str, str, str]] = []  # (item, status, code) the card's own data decides
    found = _precision_check(acc, phase, precision)
    if found is not None:
        own.append((f"precision.{precision}", *found))
    elif phase == "inference":
        found = _serving_format_check(compat, serving, precision)
        if found is not None:
            own.append((f"serving_format.{precision}", *found))
    found = _kernel_check(acc, archs) if custom else None
    if found is not None:
        own.append(("kernel_architectures", *found))
    checks += tuple((item, status) for item, status, _ in own)
    worst = max((s for _, s in checks), key=_ORDER.__getitem__, default="native")
    porting_codes = (compat or {}).get("porting") or {}
    porting: list[str] = []
    for _item, status, code in own:
        if status == "needs_porting" and code not in porting:
            porting.append(code)
    own_items = {item for item, _, _ in own}
    for item, status in checks:
        if status != "needs_porting" or item in own_items:
            continue
        group = item.split(".", 1)[0]
        code = porting_codes.get(group) or ("verify" if not compat else "generic")
        if code not in porting:
            porting.append(code)
    # A stack whose support the catalog sources on its own (SGLang) adds that source and date.
    stack_source = (
        ((compat or {}).get("serving_sources") or {}).get(serving) or {}
        if phase == "inference"
        else {}
    )
    return StackFit(
        status=worst,
        checks=checks,
        porting=tuple(porting),
        source="; ".join(
            str(src)
            for src in (
                (compat or {}).get("source"),
                stack_source.get("source"),
                (acc.capabilities or {}).get("source") if own else None,
            )
            if src
        )
        or None,
        as_of=max(
            (d for d in ((compat or {}).get("as_of"), stack_source.get("as_of")) if d),
            default=None,
        ),
        blocking=tuple(code for _, status, code in own if status == "unsupported"),
    )
