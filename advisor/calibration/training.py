"""The engine's training speed against every published run of rule `training_mfu_runs`.

`python -m advisor.calibration.training` prints a markdown table: for each run, the
engine's MFU and regime, its tokens per second per device and the published figure, and the
ratio (engine / published), then the median and spread. The engine sizes the run with the
run's own model, card, precision, method, micro-batch, sequence length, device count and
tensor-parallel size, through the functions that size a team's run (sizing.training_mfu,
sizing.training_flops, sizing.peak_tflops).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TextIO

from advisor.engine import sizing
from advisor.engine.answers.vocabulary import Architecture, Training
from advisor.engine.catalog import Catalog, load_catalog

BAND = (0.7, 1.4)


@dataclass(frozen=True, slots=True)
class Calibrated:
    run: Mapping[str, Any]
    mfu: sizing.Mfu
    engine_tps: float  # tokens per second per device
    published_tps: float

    @property
    def ratio(self) -> float:
        return self.engine_tps / self.published_tps


def run_shape(run: Mapping[str, Any], catalog: Catalog) -> sizing.ModelShape:
    """The run's model: a bundled preset by id, else its published configuration."""
    model = run["model"]
    if isinstance(model, str):
        return sizing.shape_from_preset(catalog.presets[model])
    return sizing.shape_from_architecture(Architecture(**model))


def calibrate(run: Mapping[str, Any], catalog: Catalog) -> Calibrated:
    """The engine's rate for one published run."""
    shape = run_shape(run, catalog)
    method = str(run["method"])
    t = Training(
        method,
        None if method == "full" else 16,
        str(run["precision"]),
        "adamw",
        int(run["micro_batch_size"]),
        int(run["sequence_length"]),
        True,
        10**9,
    )
    acc = catalog.by_id[str(run["accelerator_id"])]
    devices = int(run["devices"])
    mfu = sizing.training_mfu(shape, t, acc, devices, int(run["tensor_parallel"]), catalog)
    flops = sizing.training_flops(shape, t)
    hours = sizing.training_hours(flops, acc, devices, t, mfu, catalog)
    engine = t.dataset_tokens / (hours * 3600.0) / devices
    return Calibrated(run, mfu, engine, float(run["tokens_per_second_per_device"]))


def calibration(catalog: Catalog) -> list[Calibrated]:
    """Every run of rule `training_mfu_runs`, in catalog order."""
    return [calibrate(run, catalog) for run in catalog.rule("training_mfu_runs")]


def _model_name(run: Mapping[str, Any]) -> str:
    model = run["model"]
    if isinstance(model, str):
        return model
    return f"{int(model['parameters']) / 1e9:.1f}B"


def markdown(rows: list[Calibrated]) -> str:
    """The table the calibration document folds in, with its median and spread."""
    out = [
        "| Run | Model | Card | Precision | Method | Micro-batch × sequence | Devices (TP×PP) "
        "| Regime | Engine MFU | Engine tok/s/device | Published tok/s/device | Ratio | Source |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        run = r.run
        out.append(
            f"| {run['id']} | {_model_name(run)} | {run['accelerator_id']} | {run['precision']} "
            f"| {run['method']} | {run['micro_batch_size']} × {run['sequence_length']:,} "
            f"| {run['devices']:,} ({run['tensor_parallel']}×{run['pipeline_parallel']}) "
            f"| {r.mfu.parallelism}, {r.mfu.tokens_per_micro_step:,} tokens per micro-step "
            "per TP group "
            f"| {r.mfu.value:.3f} | {r.engine_tps:,.0f} | {r.published_tps:,.0f} "
            f"| {r.ratio:.2f} | {run['source']} ({run['as_of']}) |"
        )
    ratios = [r.ratio for r in rows]
    inside = sum(BAND[0] <= x <= BAND[1] for x in ratios)
    out += [
        "",
        f"Runs: {len(ratios)}; ratio engine / published: median {statistics.median(ratios):.2f}, "
        f"min {min(ratios):.2f}, max {max(ratios):.2f}; within ×{BAND[0]}–{BAND[1]}: "
        f"{inside}/{len(ratios)}.",
    ]
    return "\n".join(out)


def main(out: TextIO = sys.stdout) -> int:
    """Print the table; exit 1 when a run falls outside the band."""
    rows = calibration(load_catalog())
    print(markdown(rows), file=out)
    return 0 if all(BAND[0] <= r.ratio <= BAND[1] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
