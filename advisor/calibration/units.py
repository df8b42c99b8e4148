"""Prints, as markdown, the rates the engine uses for work in its own unit against published
figures: each card and benchmark (the engine's rate for a TensorRT and a PyTorch team against
the card's own published figure), framework-stack measurements the stack factors must match,
and the fallback (scaling another card by dense FP16 peaks) checked where the card has its own
figure. Run: `python -m advisor.calibration.units`.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable

from advisor.engine import load_catalog
from advisor.engine.catalog import Catalog
from advisor.engine.planning import nonllm

_DLE = (
    "https://github.com/NVIDIA/DeepLearningExamples/blob/729963dd47e7c8bd462ad10bfac7a7b0b604e6dd/"
)
# Published rates on an eager framework (NVIDIA Deep Learning Examples): card, benchmark, stack,
# rate, source, and whether the catalog's stack factor is derived from it (then it matches by
# construction and only the other rows check the factor).
FRAMEWORK_FIGURES = (
    (
        "nvidia-t4",
        "resnet50",
        "pytorch",
        1198.0,
        _DLE + "PyTorch/Classification/ConvNets/resnet50v1.5/README.md (AMP, batch 256)",
        True,
    ),
    (
        "nvidia-t4",
        "resnet50",
        "tensorflow",
        995.81,
        _DLE + "TensorFlow/Classification/ConvNets/resnet50v1.5/README.md (AMP, batch 128)",
        True,
    ),
    (
        "nvidia-a100-40gb",
        "resnet50",
        "tensorflow",
        3474.94,
        _DLE + "TensorFlow/Classification/ConvNets/resnet50v1.5/README.md (AMP, batch 128)",
        False,
    ),
    (
        "nvidia-a100-80gb",
        "bert-large-384",
        "pytorch",
        312.0,
        _DLE + "PyTorch/LanguageModeling/BERT/README.md (AMP, SQuAD 384, batch 32)",
        True,
    ),
)
# Where the catalog once scaled a card from another by dense FP16 peaks and the card has its own
# published row: the fallback's error, card by card.
FALLBACK_PAIRS = (
    ("nvidia-t4", "nvidia-l4"),
    ("nvidia-l40s", "nvidia-l4"),
    ("nvidia-a100-40gb", "nvidia-a100-80gb"),
    ("nvidia-h100-pcie", "nvidia-h100-sxm"),
    ("nvidia-h200", "nvidia-h100-sxm"),
    ("nvidia-gh200", "nvidia-h100-sxm"),
)


def _n(value: float | None) -> str:
    return "—" if value is None else f"{value:,.1f}"


def _spread(ratios: Iterable[float]) -> str:
    values = sorted(ratios)
    if not values:
        return "no ratios"
    return (
        f"median ×{statistics.median(values):.2f}, range ×{values[0]:.2f}–×{values[-1]:.2f} "
        f"over {len(values)}"
    )


def card_table(catalog: Catalog) -> list[str]:
    """Every card and benchmark: the engine's rate per stack against the card's own figure."""
    lines = [
        "| Card | Benchmark | Engine, TensorRT team | Engine, PyTorch team | Card's own published "
        "| Engine / published | Basis | Source, date |",
        "|---|---|---:|---:|---:|---:|---|---|",
    ]
    benches = catalog.raw["unit_workloads"]["benchmarks"]
    for acc in catalog.accelerators:
        for bench_id in benches:
            row = nonllm.throughput(catalog, bench_id, acc.id)
            if row is None:
                lines.append(f"| {acc.name} | {bench_id} | — | — | — | — | not sized | — |")
                continue
            trt = row["per_second"] * nonllm.stack_factor(catalog, bench_id, "tensorrt")["value"]
            torch = row["per_second"] * nonllm.stack_factor(catalog, bench_id, "pytorch")["value"]
            own = None if row["estimated"] else float(row["per_second"])
            engine = trt if row["stack"] == "tensorrt" else torch
            ratio = "—" if own is None else f"×{engine / own:.2f}"
            basis = (
                f"estimated from {row['scaled_from']['card'].split(' (')[0]} "
                f"×{row['scaled_from']['ratio']:.3f}"
                if row["estimated"]
                else ("derived (per GPU)" if row["derived"] else "published")
            ) + f"; {row['stack']} {row['precision']}"
            lines.append(
                f"| {acc.name} | {bench_id} | {_n(trt)} | {_n(torch)} | {_n(own)} | {ratio} "
                f"| {basis} | {row['source']}, {row['as_of'] or 'undated'} |"
            )
    return lines


def framework_table(catalog: Catalog) -> list[str]:
    """The engine's rate for a framework team against published framework measurements."""
    lines = [
        "| Card | Benchmark | Stack | Engine | Published | Engine / published | Role | Source |",
        "|---|---|---|---:|---:|---:|---|---|",
    ]
    ratios = []
    for acc_id, bench_id, stack, published, source, defines in FRAMEWORK_FIGURES:
        row = nonllm.throughput(catalog, bench_id, acc_id)
        if row is None:
            continue
        factor = nonllm.stack_factor(catalog, bench_id, stack)
        engine = row["per_second"] * factor["value"]
        # A figure the factor is derived from matches by construction: only the others check it.
        if not defines:
            ratios.append(engine / published)
        lines.append(
            f"| {catalog.by_id[acc_id].name} | {bench_id} | {stack} | {_n(engine)} "
            f"| {_n(published)} | ×{engine / published:.2f} "
            f"| {'defines the factor' if defines else 'check'} | {source} |"
        )
    lines.append(f"\nChecks only: {_spread(ratios)}")
    return lines


def fallback_table(catalog: Catalog) -> list[str]:
    """The fallback (another card's row × the ratio of dense FP16 peaks) against own rows."""
    lines = [
        "| Card | Scaled from | Benchmark | Fallback estimate | Card's own | Estimate / own |",
        "|---|---|---|---:|---:|---:|",
    ]
    ratios = []
    for acc_id, base_id in FALLBACK_PAIRS:
        acc, base = catalog.by_id[acc_id], catalog.by_id[base_id]
        for bench_id in ("resnet50", "bert-large-384"):
            own, ref = (
                nonllm.throughput(catalog, bench_id, acc_id),
                nonllm.throughput(catalog, bench_id, base_id),
            )
            if own is None or ref is None or own["estimated"] or ref["estimated"]:
                continue
            peak = float(acc.fp16_dense_tflops or 0) / float(base.fp16_dense_tflops or 1)
            estimate = float(ref["per_second"]) * peak
            ratios.append(estimate / float(own["per_second"]))
            lines.append(
                f"| {acc.name} | {base.name} | {bench_id} | {_n(estimate)} "
                f"| {_n(float(own['per_second']))} | ×{ratios[-1]:.2f} |"
            )
    lines.append(f"\n{_spread(ratios)}")
    return lines


def main() -> None:
    catalog = load_catalog()
    print("### Work in its own unit: each card's rate against its own published figure\n")
    print("\n".join(card_table(catalog)))
    print("\n### Framework stacks: the engine's rate against published framework measurements\n")
    print("\n".join(framework_table(catalog)))
    print("\n### The fallback (scaling by dense FP16 peaks) against cards' own figures\n")
    print("\n".join(fallback_table(catalog)))


if __name__ == "__main__":
    main()
