"""What the dead-end search and the flips share: the re-plan callable, a relaxation, an answer
replaced, the neighbouring regions and the stack changes that let more cards run a workload."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.answers.sections import replaced
from advisor.engine.catalog import Catalog
from advisor.engine.planning import options
from advisor.engine.planning.availability import round_trip_ms
from advisor.engine.pricing import billing
from advisor.engine.pricing.regions import NEIGHBOURS
from advisor.engine.ranking import scoring
from advisor.engine.text import i18n

# The sizing and cost inputs of a set of answers (result.py builds them; passed in so that this
# module does not import result.py, which calls it).
Plan = Callable[[vocabulary.Answers], tuple[options.Sized, billing.CostInputs]]

HOSTED = ("public_cloud", "dedicated_hosting", "bare_metal")
# Mainland China has no measured round trip in the catalog; its neighbour for hosting is Hong
# Kong, where the China routes (CN2 GIA, CMI) the catalog prices land.
_FIXED_NEIGHBOURS = NEIGHBOURS


@dataclasses.dataclass(frozen=True, slots=True)
class Relax:
    kind: str  # a key of candidates._WEIGHT
    path: str  # the answer path it changes
    old: Any
    new: Any
    answers: vocabulary.Answers
    region: str | None = None  # the region a region relaxation adds


def regions_text(regions: Sequence[str], lang: str) -> str:
    return i18n.value_label("organization.regions", list(regions), lang)


def modes_text(modes: Sequence[str], lang: str) -> str:
    return i18n.value_label("deployment.allowed_modes", list(modes), lang)


def with_answer(answers: vocabulary.Answers, path: str, value: Any) -> vocabulary.Answers:
    section, field = path.split(".")
    return dataclasses.replace(
        answers, **{section: replaced(getattr(answers, section), **{field: value})}
    )


def neighbours(catalog: Catalog, regions: Sequence[str]) -> list[str]:
    """Regions next to the team's, nearest first: a fixed neighbour where the catalog measures no
    round trip (mainland China: Hong Kong), else the catalog's round-trip table."""
    out: list[str] = []
    for r in regions:
        out += [n for n in _FIXED_NEIGHBOURS.get(r, ()) if n not in regions]
    timed: list[tuple[float, str]] = []
    for n in catalog.regions:
        if n in regions or n in out or n == "japan":
            continue
        rtts = [round_trip_ms(catalog, r, n) for r in regions]
        known = [t for t in rtts if t is not None]
        if known:
            timed.append((min(known), n))
    out += [n for _, n in sorted(timed)]
    return [n for n in out if n in vocabulary.REGIONS][:2]


def stack_relaxations(answers: vocabulary.Answers, kind: str) -> list[Relax]:
    """The changes that let more cards run the workload's stack: the serving stack to vLLM,
    custom kernels off, the numeric format to the plain one."""
    fw = answers.frameworks
    out: list[Relax] = []
    phase = scoring.PHASE_OF[kind]
    if phase == "inference" and fw.serving not in ("vllm", "none", "custom"):
        out.append(
            Relax(
                "serving",
                "frameworks.serving",
                fw.serving,
                "vllm",
                with_answer(answers, "frameworks.serving", "vllm"),
            )
        )
    if fw.custom_kernels:
        out.append(
            Relax(
                "kernels",
                "frameworks.custom_kernels",
                True,
                False,
                with_answer(answers, "frameworks.custom_kernels", False),
            )
        )
    precise = answers.inference if phase == "inference" else answers.training
    plain = "bf16" if phase == "inference" else "bf16_mixed"
    if precise is not None and precise.precision not in (plain, "fp16", "fp32"):
        section = "inference" if phase == "inference" else "training"
        out.append(
            Relax(
                "precision",
                f"{section}.precision",
                precise.precision,
                plain,
                with_answer(answers, f"{section}.precision", plain),
            )
        )
    return out
