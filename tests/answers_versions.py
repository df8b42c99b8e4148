"""Answers documents of an earlier schema version, written out once for every test that needs
one (the API's, the contract's, the wizard's and the 0019_answers_v2 migration's)."""

from __future__ import annotations

import copy
from typing import Any


def as_v2(answers: dict[str, Any]) -> dict[str, Any]:
    """A version 3 document as version 2 wrote it: a custom architecture by its attention heads
    (KV heads x group size), its experts (used + not used) and its active parameter count."""
    v2 = copy.deepcopy(answers)
    v2["schema_version"] = 2
    model = v2.get("model")
    arch = model.get("architecture") if isinstance(model, dict) else None
    if isinstance(arch, dict):
        out: dict[str, Any] = {}
        for key, value in arch.items():
            if key == "kv_group_size":
                out["attention_heads"] = arch["kv_heads"] * value
            elif key == "inactive_experts":
                out["experts"] = arch["experts_per_token"] + value
            elif key == "active_parameter_share":
                out["active_parameters"] = round(arch["parameters"] * value)
            else:
                out[key] = value
        model["architecture"] = out
    return v2


def as_v1(answers: dict[str, Any]) -> dict[str, Any]:
    """A version 3 document as version 1 wrote it: version 2's architecture, and the context
    (prompt + output) in place of the prompt."""
    v1 = as_v2(answers)
    v1["schema_version"] = 1
    inference = v1["inference"]
    v1["inference"] = {
        ("context_tokens" if k == "prompt_tokens" else k): (
            v + inference["output_tokens"] if k == "prompt_tokens" else v
        )
        for k, v in inference.items()
    }
    return v1
