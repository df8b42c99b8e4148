"""Answers documents of an earlier schema version, read as the current one.

Version 1 asked inference.context_tokens (the prompt plus the output) and output_tokens, two
numbers that could contradict each other (more output than context) in a way JSON Schema cannot
state. Version 2 asks prompt_tokens and output_tokens; the context the engine sizes for is their
sum (answers.Inference.context_tokens), so a v1 document upgraded here evaluates exactly as it did.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, TypeGuard

from advisor.engine.answers import SCHEMA_VERSION
from advisor.engine.schema import version_of


def _whole(value: Any) -> TypeGuard[int | float]:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


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


def upgrade_answers(doc: Any) -> Any:
    """`doc` as answers version 2 when it states version 1, else `doc` itself.

    Meant for a document that passed `validate` or `check_partial` (a v1 document is checked
    against v1's schema and rules, output_tokens <= context_tokens among them), so that what a
    client or a stored draft said is never lost or changed in meaning."""
    if not isinstance(doc, Mapping) or version_of(doc) != 1:
        return doc
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "schema_version":
            out[key] = SCHEMA_VERSION
        elif key == "inference" and isinstance(value, Mapping):
            out[key] = upgrade_inference(value)
        else:
            out[key] = copy.deepcopy(value)
    return out
