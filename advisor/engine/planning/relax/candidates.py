"""The relaxations worth re-planning for a dead-end workload, and the first option each gives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning import mode_choice
from advisor.engine.planning.options import signable
from advisor.engine.planning.relax.common import (
    HOSTED,
    Plan,
    Relax,
    neighbours,
    stack_relaxations,
    with_answer,
)
from advisor.engine.ranking import scoring

# How much a team gives up with each kind of relaxation, smallest first: the list is ordered by
# it, then by the cost to the result of the option the relaxation brings back.
_WEIGHT = {
    "family": 0,
    "serving": 1,
    "clouds": 1,
    "precision": 1,
    "kernels": 2,
    "checkpointing": 1,
    "micro_batch": 1,
    "region_same_country": 1,
    "mode": 2,
    "region": 3,
    "residency": 3,
}
# Regions in one country, for what a team keeps when a neighbouring region is added (data in the
# US stays in the US). Wider than regions.COUNTRY, which decides residency for prices, on purpose:
# this only words the trade-off and never admits a price.
_COUNTRY = {
    "los_angeles": "us",
    "us_west": "us",
    "us_east": "us",
    "us_central": "us",
    "tokyo": "jp",
    "japan": "jp",
}


def candidates(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    excluded: Sequence[Mapping[str, Any]],
    options: Sequence[Mapping[str, Any]],
) -> list[Relax]:
    """Every one-answer relaxation worth re-planning for this workload."""
    dep, org = answers.deployment, answers.organization
    out: list[Relax] = []
    for n in neighbours(catalog, org.regions):
        same = any(_COUNTRY.get(n) and _COUNTRY.get(n) == _COUNTRY.get(r) for r in org.regions)
        regions = (*org.regions, n)
        out.append(
            Relax(
                "region_same_country" if same else "region",
                "organization.regions",
                list(org.regions),
                list(regions),
                with_answer(answers, "organization.regions", regions),
                region=n,
            )
        )
    for m in HOSTED:
        if m not in dep.allowed_modes:
            modes = (*dep.allowed_modes, m)
            out.append(
                Relax(
                    "mode",
                    "deployment.allowed_modes",
                    list(dep.allowed_modes),
                    list(modes),
                    with_answer(answers, "deployment.allowed_modes", modes),
                )
            )
    if dep.data_residency == "in_region":
        out.append(
            Relax(
                "residency",
                "deployment.data_residency",
                "in_region",
                "none",
                with_answer(answers, "deployment.data_residency", "none"),
            )
        )
    if dep.clouds and "public_cloud" in dep.allowed_modes:
        out.append(
            Relax(
                "clouds",
                "deployment.clouds",
                list(dep.clouds),
                [],
                with_answer(answers, "deployment.clouds", ()),
            )
        )
    stack_blocked = any(e["code"] == "unsupported_stack" for e in excluded) or (
        bool(options) and not any(o["stack"]["runnable"] for o in options)
    )
    if stack_blocked:
        out += stack_relaxations(answers, kind)
    out += _memory_relaxations(answers, kind, options)
    return out


def _memory_relaxations(
    answers: vocabulary.Answers, kind: str, options: Sequence[Mapping[str, Any]]
) -> list[Relax]:
    """Where no card holds a training run at all (its activations alone exceed every device),
    the answers that shrink them: gradient checkpointing on, one sequence per micro-batch."""
    t = answers.training
    if scoring.PHASE_OF[kind] != "training" or t is None or options:
        return []
    out: list[Relax] = []
    if not t.gradient_checkpointing:
        out.append(
            Relax(
                "checkpointing",
                "training.gradient_checkpointing",
                False,
                True,
                with_answer(answers, "training.gradient_checkpointing", True),
            )
        )
    if t.micro_batch_size > 1:
        out.append(
            Relax(
                "micro_batch",
                "training.micro_batch_size",
                t.micro_batch_size,
                1,
                with_answer(answers, "training.micro_batch_size", 1),
            )
        )
    return out


def combine(a: Relax, b: Relax) -> vocabulary.Answers | None:
    """Both relaxations at once (two neighbouring regions add up; two changes of one other
    answer do not)."""
    if a.path == b.path:
        if a.region is None or b.region is None:
            return None
        regions = tuple(dict.fromkeys((*a.new, *b.new)))
        return with_answer(a.answers, "organization.regions", regions)
    section, field = b.path.split(".")
    value = getattr(getattr(b.answers, section), field)
    return with_answer(a.answers, b.path, value)


def added_mode(r: Relax) -> str | None:
    """The mode a mode relaxation adds: its option must be in that mode, not one allowed before."""
    return next((m for m in r.new if m not in r.old), None) if r.kind == "mode" else None


def first_option(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    plan: Plan,
    lang: str,
    *,
    only: str | None = None,
) -> dict[str, Any] | None:
    """The first runnable, priced option of the workload under `answers`: its options built again
    in every allowed rented mode (or `only` that one; GPU, and TPU on public cloud), best standing
    first (options.standing: available where the team is, then cost to the result)."""
    sized, ci = plan(answers)
    best: tuple[tuple[int, int, int, int, float], dict[str, Any]] | None = None
    for mode in answers.deployment.allowed_modes:
        if mode not in HOSTED or (only is not None and mode != only):
            continue
        for family in ("gpu", "tpu"):
            if family == "tpu" and mode != "public_cloud":
                continue
            runnable = signable(catalog, answers, kind, schedule, family, mode, sized, ci, lang)
            if not runnable:
                continue
            standing = mode_choice.standing(runnable)
            if best is None or standing < best[0]:
                best = (standing, {**runnable[0], "deployment_mode": mode})
    return None if best is None else best[1]


def order(rs: Sequence[Relax], first: Mapping[str, Any]) -> tuple[int, float]:
    return (sum(_WEIGHT[r.kind] for r in rs), float(first["cost_to_result"]["usd"]))
