"""Answers documents of an earlier schema version, written out once for every test that needs
one (the API's, the contract's and the 0019_answers_v2 migration's)."""

from __future__ import annotations

import copy
from typing import Any


def as_v1(answers: dict[str, Any]) -> dict[str, Any]:
    """A version 2 document as version 1 wrote it: the context (prompt + output) in place of the
    prompt."""
    v1 = copy.deepcopy(answers)
    v1["schema_version"] = 1
    inference = v1["inference"]
    v1["inference"] = {
        ("context_tokens" if k == "prompt_tokens" else k): (
            v + inference["output_tokens"] if k == "prompt_tokens" else v
        )
        for k, v in inference.items()
    }
    return v1
