"""Hooks that Schemathesis loads (SCHEMATHESIS_HOOKS) when tests/api/test_schemathesis.py runs it.

The published answers schema of version 3 (AnswersV3, what the API answers) states every rule
of an answers document: no number of it has to divide, or stay below, another, so every
generated version 3 document is sent. A create still accepts versions 2 and 1 (AnswersIn is one
of AnswersV3, AnswersV2 and AnswersV1), whose rules include comparisons of two numbers that JSON
Schema has no keyword for ("a <= b", "a divides b": its `multipleOf` takes a constant): their
schemas say them in the fields' descriptions, and the API refuses a document that breaks one
with 400 and the field's path. Schemathesis cannot read descriptions, so it would take such a
document for a valid one and report the 400 as a schema-valid request rejected; these older
documents are not sent. Every other generated request is.
"""

from __future__ import annotations

from typing import Any

import schemathesis


def _breaks_a_rule_beyond_json_schema(answers: Any) -> bool:
    if not isinstance(answers, dict):
        return False
    version = answers.get("schema_version")
    if not (_whole(version) and version in (1, 2)):
        return False
    inference = answers.get("inference")
    if version == 1 and isinstance(inference, dict):
        context, output = inference.get("context_tokens"), inference.get("output_tokens")
        if _whole(context) and _whole(output) and output > context:
            return True
    model = answers.get("model")
    architecture = model.get("architecture") if isinstance(model, dict) else None
    if isinstance(architecture, dict):
        heads, kv_heads = architecture.get("attention_heads"), architecture.get("kv_heads")
        hidden = architecture.get("hidden_size")
        if _whole(heads) and _whole(kv_heads) and kv_heads > 0 and heads % kv_heads:
            return True
        # A mixture of experts routes each token to at most all of its experts, and its active
        # parameters are at most its total.
        experts, top_k = architecture.get("experts", 1), architecture.get("experts_per_token")
        if _whole(experts) and _whole(top_k) and top_k > experts:
            return True
        total, active = architecture.get("parameters"), architecture.get("active_parameters")
        if _whole(total) and _whole(active) and active > total:
            return True
        if "head_dim" not in architecture and _whole(hidden) and _whole(heads) and heads > 0:
            # The head the width and the heads make must divide, and fit version 3's bounds.
            return bool(hidden % heads) or not 8 <= hidden // heads <= 1_024
    return False


def _whole(value: Any) -> bool:
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and float(value).is_integer()
    )


@schemathesis.hook
def filter_body(context: schemathesis.HookContext, body: Any) -> bool:
    return not (isinstance(body, dict) and _breaks_a_rule_beyond_json_schema(body.get("answers")))
