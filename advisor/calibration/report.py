"""docs/calibration.md: every speed figure the engine uses beside an independent or published
one, case by case, with the ratio (engine / independent), the source and the command."""

from __future__ import annotations

from typing import Any

from advisor.calibration import serving, training, units
from advisor.engine import load_catalog
from advisor.engine.catalog import Catalog

_NAMES = {"served_tps": "served throughput", "ttft_ms": "TTFT", "tpot_ms": "TPOT"}


def _serving(catalog: Catalog) -> list[str]:
    rows = serving.ratios(catalog)
    meta = serving.stored()
    lines = [
        "## Serving (LLM) against an independent kernel-data model",
        "",
        f"Independent model: {meta['source']}, run {meta['as_of']} over the "
        f"{len(rows)} cases of `advisor/calibration/serving.py` (stored in "
        "`advisor/calibration/data/serving_oracle.json`; rerun it with aiconfigurator "
        "installed in a separate environment: `python -m advisor.calibration.refresh`). "
        "TTFT is one prompt prefilled alone, TPOT one decode step of the whole batch, served "
        "throughput one replica's output tokens a second with chunked prefill (vLLM). "
        "Ratio = engine / independent.",
        "",
        "| metric | cases | median | middle half | min | max | within ×0.7–1.4 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for m, s in serving.spread(rows).items():
        lines.append(
            f"| {_NAMES[m]} | {s['n']} | ×{s['median']:.2f} | ×{s['q1']:.2f}–{s['q3']:.2f} "
            f"| ×{s['min']:.2f} | ×{s['max']:.2f} | {s['within_07_14']:.0%} |"
        )
    outside = []
    for r in rows:
        off = [f"{_NAMES[m]} ×{v:.2f}" for m, v in r["ratio"].items() if not 0.7 <= v <= 1.4]
        if off:
            outside.append(f"`{r['case'].key}` ({', '.join(off)})")
    lines += [
        "",
        "Outside ×0.7–1.4: " + ("; ".join(outside) or "none") + ". Most are FP8 cases where "
        "the independent model's vLLM kernel data has 8-bit weights no faster, or slower, "
        "than 16-bit at decode (Mixtral's per-tensor FP8 experts on Hopper; B200 at small "
        "batches); the engine keeps FP8's halved weight reads there, so it is optimistic in "
        "those cases and says so here rather than fitting one database's kernels.",
    ]
    lines += [
        "",
        "| case | served tok/s engine / indep. | ratio | TTFT ms engine / indep. | ratio "
        "| TPOT ms engine / indep. | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        e, o, q = r["engine"], r["oracle"], r["ratio"]
        lines.append(
            f"| `{r['case'].key}` | {e['served_tps']:,.0f} / {o['served_tps']:,.0f} "
            f"| ×{q['served_tps']:.2f} | {e['ttft_ms']:,.1f} / {o['ttft_ms']:,.1f} "
            f"| ×{q['ttft_ms']:.2f} | {e['tpot_ms']:.2f} / {o['tpot_ms']:.2f} "
            f"| ×{q['tpot_ms']:.2f} |"
        )
    return lines


def _training(catalog: Catalog) -> list[str]:
    return [
        "## Training speed against published runs",
        "",
        "Every run of the catalog rule `training_mfu_runs`, sized by the engine with the run's own "
        "model, card, precision, method, micro-batch, sequence length, device count and "
        "parallelism (`python -m advisor.calibration.training` prints this table alone). "
        "Ratio = engine / published tokens a second per device.",
        "",
        training.markdown(training.calibration(catalog)),
    ]


def _units(catalog: Catalog) -> list[str]:
    return [
        "## Work in its own unit (images, audio, passages, pairs)",
        "",
        "Each card's rate against its own published figure, the framework stacks' factors "
        "against published framework measurements, and the fallback (another card scaled by "
        "dense FP16 peaks) where a card has its own figure "
        "(`python -m advisor.calibration.units` prints these tables alone).",
        "",
        "### Each card's rate against its own published figure",
        "",
        *units.card_table(catalog),
        "",
        "### Framework stacks against published framework measurements",
        "",
        *units.framework_table(catalog),
        "",
        "### The fallback (scaling by dense FP16 peaks) against cards' own figures",
        "",
        *units.fallback_table(catalog),
    ]


def markdown(catalog: Catalog | None = None) -> str:
    catalog = catalog or load_catalog()
    parts: list[Any] = [
        "# Calibration",
        "",
        "What the engine estimates, beside what an independent model or a published run "
        "gives for the same model, card, precision, lengths and parallelism. Reprint with "
        "`python -m advisor.calibration` (writes this page); `make calibration` does the same.",
        "",
        *_serving(catalog),
        "",
        *_training(catalog),
        "",
        *_units(catalog),
    ]
    return "\n".join(parts) + "\n"
