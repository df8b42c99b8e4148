"""Serving speed against an independent kernel-data model: NVIDIA's aiconfigurator (Apache-2.0),
run offline over the cases below; its figures are stored in `data/serving_oracle.json` with the
version and database they came from, so the comparison reprints anywhere without it.

Three figures per case, each as the independent model defines it:
- TTFT: one prompt prefilled alone (its `static_ctx` mode at batch 1);
- TPOT: one decode step of the whole batch (`static_gen` at the case's batch);
- served throughput: output tokens a second of one replica serving the batch with chunked
  prefill in vLLM (`agg`), prompts and decode mixed as the engine's `replica_cycle` plans it.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers.vocabulary import Architecture, Inference
from advisor.engine.catalog import Catalog
from advisor.engine.sizing import throughput

ORACLE = Path(__file__).parent / "data" / "serving_oracle.json"


def _arch(
    layers: int,
    hidden: int,
    inter: int,
    heads: int,
    kv: int,
    head_dim: int,
    vocab: int,
    experts: int = 1,
    top_k: int = 1,
) -> Architecture:
    """A Llama-style decoder from its config.json, its parameters counted from the shape (DER):
    the embeddings and head, per layer q/k/v/o, the SwiGLU MLP (per expert, plus the router),
    two norms, and the final norm; active = the same with top_k experts."""
    attn = hidden * heads * head_dim * 2 + hidden * kv * head_dim * 2
    mlp = 3 * hidden * inter
    router = hidden * experts if experts > 1 else 0
    rest = 2 * vocab * hidden + hidden
    total = rest + layers * (attn + mlp * experts + router + 2 * hidden)
    active = rest + layers * (attn + mlp * top_k + router + 2 * hidden)
    return Architecture(
        parameters=total,
        layers=layers,
        hidden_size=hidden,
        intermediate_size=inter,
        attention_heads=heads,
        kv_heads=kv,
        vocab_size=vocab,
        tied_embeddings=False,
        head_dim=head_dim,
        experts=experts,
        experts_per_token=top_k,
        active_parameters=active if experts > 1 else None,
    )


# config.json of each model as published on Hugging Face (the independent model carries the same
# files): layers, hidden, MLP width (one expert's for a mixture), heads, KV heads, head dim,
# vocabulary, experts and experts per token.
MODELS: dict[str, tuple[str, Architecture]] = {
    "llama-3.1-8b": ("meta-llama/Meta-Llama-3.1-8B", _arch(32, 4096, 14336, 32, 8, 128, 128256)),
    "llama-3.1-70b": (
        "meta-llama/Meta-Llama-3.1-70B",
        _arch(80, 8192, 28672, 64, 8, 128, 128256),
    ),
    "qwen3-32b": ("Qwen/Qwen3-32B", _arch(64, 5120, 25600, 64, 8, 128, 151936)),
    "qwen3-30b-a3b": ("Qwen/Qwen3-30B-A3B", _arch(48, 2048, 768, 32, 4, 128, 151936, 128, 8)),
    "mixtral-8x7b": (
        "mistralai/Mixtral-8x7B-v0.1",
        _arch(32, 4096, 14336, 32, 8, 128, 32000, 8, 2),
    ),
}

# How the published FP8 checkpoints quantise their experts: Qwen/Qwen3-30B-A3B-FP8 in blocks of
# 128 x 128 (its config.json's quantization_config), Mixtral's FP8 releases per tensor.
FP8_EXPERTS = {"qwen3-30b-a3b": "fp8_block", "mixtral-8x7b": "fp8"}

# The engine's card and the independent model's system of the same name.
SYSTEMS = {"nvidia-h100-sxm": "h100_sxm", "nvidia-h200": "h200_sxm", "nvidia-b200": "b200_sxm"}


@dataclass(frozen=True, slots=True)
class Case:
    model: str
    card: str
    precision: str  # "bf16" or "fp8" (weights and GEMMs; the KV cache stays 16-bit)
    tp: int
    batch: int
    prompt: int
    output: int

    @property
    def key(self) -> str:
        return (
            f"{self.model}/{SYSTEMS[self.card]}/{self.precision}/tp{self.tp}/b{self.batch}/"
            f"{self.prompt}-{self.output}"
        )


def _cases() -> list[Case]:
    """Dense and mixture models, three cards, both precisions, tensor-parallel 1-8, batch 1-256,
    short and long prompts: chosen to span what teams answer, not to flatter the engine."""
    out: list[Case] = []
    for card in SYSTEMS:
        for precision in ("bf16", "fp8"):
            out += [
                Case("llama-3.1-8b", card, precision, 1, 1, 1024, 256),
                Case("llama-3.1-8b", card, precision, 1, 32, 2048, 512),
                Case("llama-3.1-8b", card, precision, 1, 128, 1024, 256),
                Case("llama-3.1-70b", card, precision, 4, 16, 2048, 512),
                Case("llama-3.1-70b", card, precision, 8, 64, 4096, 512),
                Case("qwen3-32b", card, precision, 2, 32, 2048, 512),
                Case("qwen3-30b-a3b", card, precision, 1, 64, 2048, 512),
                Case("mixtral-8x7b", card, precision, 2, 32, 1024, 512),
            ]
    out += [
        Case("llama-3.1-8b", "nvidia-h100-sxm", "bf16", 1, 256, 512, 256),
        Case("llama-3.1-70b", "nvidia-h200", "fp8", 2, 1, 8192, 256),
        Case("qwen3-32b", "nvidia-h100-sxm", "bf16", 4, 8, 16384, 256),
        Case("qwen3-30b-a3b", "nvidia-h200", "bf16", 2, 256, 1024, 256),
    ]
    return out


CASES = _cases()


def _inference(case: Case) -> Inference:
    return Inference(
        precision=case.precision,
        prompt_tokens=case.prompt,
        output_tokens=case.output,
        concurrent_sequences=case.batch,
        tokens_per_day=0,
        traffic="steady",
    )


def engine(case: Case, catalog: Catalog, serving: str = "vllm") -> dict[str, float]:
    """The engine's TTFT (ms), TPOT (ms) and served output tokens a second of one replica."""
    shape = sizing.shape_from_architecture(MODELS[case.model][1])
    inf = _inference(case)
    mem = sizing.inference_memory(shape, inf, catalog, serving)
    acc = next(a for a in catalog.accelerators if a.id == case.card)
    cap = throughput.serving_capacity(shape, inf, mem, acc, case.tp, catalog, serving)
    return {"ttft_ms": cap.ttft_ms, "tpot_ms": cap.tpot_ms, "served_tps": cap.tokens_per_second}


def oracle(case: Case) -> dict[str, float]:  # pragma: no cover - needs aiconfigurator
    """The independent model's figures for `case` (aiconfigurator installed beside the repo,
    never a dependency of the product: `uv pip install aiconfigurator` in a separate venv)."""
    from aiconfigurator.cli.api import cli_estimate  # type: ignore[import-not-found]

    path = _local_config(MODELS[case.model][0])
    quant: dict[str, Any] = {"kvcache_quant_mode": "bfloat16", "fmha_quant_mode": "bfloat16"}
    if case.precision == "fp8":
        quant |= {"gemm_quant_mode": "fp8", "moe_quant_mode": FP8_EXPERTS.get(case.model, "fp8")}
    common = dict(backend_name="vllm", isl=case.prompt, osl=case.output, tp_size=case.tp, **quant)
    if MODELS[case.model][1].experts > 1:
        common |= {"moe_tp_size": case.tp, "moe_ep_size": 1}
    system = SYSTEMS[case.card]
    ctx = cli_estimate(path, system, mode="static_ctx", batch_size=1, **common)
    gen = cli_estimate(path, system, mode="static_gen", batch_size=case.batch, **common)
    agg = cli_estimate(path, system, mode="agg", batch_size=case.batch, **common)
    return {
        "ttft_ms": float(ctx.ttft),
        "tpot_ms": float(gen.tpot),
        "served_tps": float(agg.raw["tokens/s"]),
    }


def _local_config(hf_id: str) -> str:  # pragma: no cover - needs aiconfigurator
    """A model the independent model carries a config.json for but does not list as a default
    (Mixtral) is read from a local folder rather than downloaded."""
    import importlib.resources
    import tempfile

    cached = importlib.resources.files("aiconfigurator_core") / "model_configs"
    source = cached / f"{hf_id.replace('/', '--')}_config.json"
    if hf_id.startswith(("meta-llama/", "Qwen/")) or not source.is_file():
        return hf_id
    folder = Path(tempfile.mkdtemp(prefix="aic-model-"))
    (folder / "config.json").write_text(source.read_text())
    return str(folder)


def stored() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ORACLE.read_text())
    return data


def ratios(catalog: Catalog) -> list[dict[str, Any]]:
    """Per case: the engine's figures, the independent model's, and engine / independent."""
    data = stored()["cases"]
    rows = []
    for case in CASES:
        theirs = data.get(case.key)
        if theirs is None:
            continue
        ours = engine(case, catalog)
        rows.append(
            {
                "case": case,
                "engine": ours,
                "oracle": theirs,
                "ratio": {k: ours[k] / theirs[k] for k in ours if theirs.get(k)},
            }
        )
    return rows


METRICS = ("served_tps", "ttft_ms", "tpot_ms")


def spread(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per metric: the median ratio, the share within x0.7-1.4 and the extremes."""
    out = {}
    for m in METRICS:
        values = sorted(r["ratio"][m] for r in rows if m in r["ratio"])
        q = statistics.quantiles(values, n=4)
        out[m] = {
            "n": len(values),
            "median": statistics.median(values),
            "q1": q[0],
            "q3": q[2],
            "min": values[0],
            "max": values[-1],
            "within_07_14": sum(0.7 <= v <= 1.4 for v in values) / len(values),
        }
    return out
