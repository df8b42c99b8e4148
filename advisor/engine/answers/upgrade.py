"""Answers documents of an earlier schema version, read as the current one (version 3).

Version 1 asked inference.context_tokens (the prompt plus the output) and output_tokens, two
numbers that could contradict each other (more output than context) in a way JSON Schema cannot
state. Version 2 asks prompt_tokens and output_tokens; the context the engine sizes for is their
sum (answers.Inference.context_tokens), so a v1 document upgraded here evaluates exactly as it did.

Version 2's custom architecture had four such pairs: kv_heads divides attention_heads,
attention_heads divides hidden_size (unless head_dim is given), experts_per_token <= experts and
active_parameters <= parameters. Version 3 asks kv_heads and kv_group_size (attention_heads =
their product), head_dim always, experts_per_token and inactive_experts (experts = their sum) and
active_parameter_share (active_parameters / parameters, which rounds back to the same count), so
a v2 document upgraded here is sized exactly as it was.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeGuard

from advisor.engine.answers.schema import version_of
from advisor.engine.answers.vocabulary import SCHEMA_VERSION


def _whole(value: Any) -> TypeGuard[int | float]:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


def _positive(value: Any) -> TypeGuard[int | float]:
    return _whole(value) and value > 0


def upgrade_inference(inference: Mapping[str, Any]) -> dict[str, Any]:
    """A v1 inference section as v2: prompt_tokens = context_tokens - output_tokens, in the
    place context_tokens held. A context with no output (a draft) cannot be split and is left
    out; one that the output exceeds (refused by v1's rules) or that is not a whole number is
    kept as it is, for version 2's checks to refuse."""
    out: dict[str, Any] = {}
    context, output = inference.get("context_tokens"), inference.get("output_tokens")
    for key, value in inference.items():
        if key != "context_tokens":
            out[key] = copy.deepcopy(value)
        elif _whole(context) and _whole(output) and output <= context:
            out["prompt_tokens"] = int(context) - int(output)
        elif "output_tokens" in inference or not _whole(context):
            out[key] = copy.deepcopy(value)
    return out


def v2_head_dim(architecture: Mapping[str, Any]) -> int | None:
    """The head dimension a v1/v2 architecture states or implies (hidden_size /
    attention_heads when not given and the heads divide the width), else None."""
    if "head_dim" in architecture:
        given = architecture["head_dim"]
        return int(given) if _whole(given) else None
    hidden, heads = architecture.get("hidden_size"), architecture.get("attention_heads")
    if _positive(hidden) and _positive(heads) and int(hidden) % int(heads) == 0:
        return int(hidden) // int(heads)
    return None


def upgrade_architecture(architecture: Mapping[str, Any]) -> dict[str, Any]:
    """A v1/v2 custom architecture as v3, each new field in the place of the one it replaces.

    Meant for an architecture that passed v2's checks, for which every conversion is exact. In a
    draft, one of a pair without the other (attention_heads without kv_heads, experts without
    experts_per_token, active_parameters without parameters) cannot be converted and is left
    out, as is a head_dim that hidden_size and attention_heads do not give; a pair that breaks
    v2's rules is kept as it is, for version 3's checks to refuse (as unknown keys)."""
    a = architecture
    heads, kv = a.get("attention_heads"), a.get("kv_heads")
    experts, k = a.get("experts", 1), a.get("experts_per_token")
    total, active = a.get("parameters"), a.get("active_parameters")
    head_dim = v2_head_dim(a)
    dense = _whole(experts) and experts == 1
    moe = _whole(experts) and experts > 1
    out: dict[str, Any] = {}
    for key, value in a.items():
        if key == "attention_heads":
            if _positive(kv) and _whole(heads) and int(heads) % int(kv) == 0:
                out["kv_group_size"] = int(heads) // int(kv)
            elif "kv_heads" in a:
                out[key] = copy.deepcopy(value)
        elif key == "hidden_size":
            out[key] = copy.deepcopy(value)
            if "head_dim" not in a and head_dim is not None:
                out["head_dim"] = head_dim
        elif key == "experts":
            if moe and _positive(k) and k <= experts:
                out["inactive_experts"] = int(experts) - int(k)
            elif not (dense or (moe and k is None)):
                out[key] = copy.deepcopy(value)
        elif key == "experts_per_token":
            # Version 3's mixture of experts states both numbers; a model of one expert (v2's
            # default) is dense and states neither.
            if not (dense and _whole(value) and value == 1):
                out[key] = copy.deepcopy(value)
        elif key == "active_parameters":
            if _positive(total) and _positive(active) and active <= total:
                out["active_parameter_share"] = int(active) / int(total)
            elif "parameters" in a:
                out[key] = copy.deepcopy(value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def upgrade_answers(doc: Any) -> Any:
    """`doc` as answers version 3 when it states version 1 or 2, else `doc` itself.

    Meant for a document that passed `validate` or `check_partial` (a v1 or v2 document is
    checked against its own version's schema and rules: output_tokens <= context_tokens in v1,
    the architecture's four comparisons in v1 and v2), so that what a client or a stored draft
    said is never lost or changed in meaning."""
    if not isinstance(doc, Mapping):
        return doc
    version = version_of(doc)
    if version == SCHEMA_VERSION:
        return doc
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "schema_version":
            out[key] = SCHEMA_VERSION
        elif key == "inference" and version == 1 and isinstance(value, Mapping):
            out[key] = upgrade_inference(value)
        elif key == "model" and isinstance(value, Mapping):
            out[key] = {
                k: upgrade_architecture(v)
                if k == "architecture" and isinstance(v, Mapping)
                else copy.deepcopy(v)
                for k, v in value.items()
            }
        else:
            out[key] = copy.deepcopy(value)
    return out
