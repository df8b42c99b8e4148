"""docs/calibration.md: every speed figure the engine uses beside an independent or published
one, case by case, with the ratio (engine / independent), the source and the command."""

from __future__ import annotations

from typing import Any

from advisor.calibration import serving
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
    ]
    return "\n".join(parts) + "\n"
