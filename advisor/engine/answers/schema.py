"""The answers document's JSON Schema (published at /api/v1/schema and used by every validator)
and the draft schema the wizard saves against; versions 1 and 2, which the API still accepts
(upgrade.py reads them as v3), are built from version 3's.

The schema is the single source of truth for field names, types, enums and bounds; the wizard, the
API and the CLI all validate against it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from advisor.engine.answers import fields
from advisor.engine.answers.schema_conditions import conditions
from advisor.engine.answers.vocabulary import (
    MAX_CONTEXT_TOKENS,
    MAX_EXPERTS,
    MAX_PARAMETERS,
    SCHEMA_VERSION,
    SCHEMA_VERSIONS,
)


def _properties(prefix: str) -> dict[str, Any]:
    """The JSON Schema properties of the answers under `prefix`, from the field registry."""
    return {f.name: f.schema() for f in fields.answers_in(prefix)}


def _required(prefix: str) -> list[str]:
    return [f.name for f in fields.answers_in(prefix) if f.required]


def _enum(values: Sequence[str], description: str) -> dict[str, Any]:
    return {
        "type": "string",
        "enum": list(values),
        "maxLength": max(len(v) for v in values),
        "description": description,
    }


def _int(lo: int, hi: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": lo, "maximum": hi, "description": description}


def _obj(properties: dict[str, Any], required: Iterable[str], description: str) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


def _unique_list(values: Sequence[str], lo: int, description: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {
            "type": "string",
            "enum": list(values),
            "maxLength": max(len(v) for v in values),
        },
        "minItems": lo,
        "maxItems": len(values),
        "uniqueItems": True,
        "description": description,
    }


@cache
def schema_doc(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """The answers schema of `version` (1, 2 or 3); shared, never to be changed: copy it first."""
    if version == 1:
        return _v1(schema_doc(2))
    if version == 2:
        return _v2(schema_doc(SCHEMA_VERSION))
    architecture = _obj(
        _properties("model.architecture"),
        _required("model.architecture"),
        "Decoder-only Transformer shape (Llama-style: SwiGLU MLP, RMSNorm, GQA). Every "
        "number is free within its bounds: none has to divide or stay below another.",
    )
    model = {
        "type": "object",
        "description": "Needed for sizing. Exactly one of preset or architecture. Required when a "
        "training or inference section is given.",
        "properties": {**_properties("model"), "architecture": architecture},
        "additionalProperties": False,
        "oneOf": [{"required": ["preset"]}, {"required": ["architecture"]}],
    }
    training = _obj(
        _properties("training"),
        _required("training"),
        "Required when a pretraining or fine_tuning workload exists; ignored otherwise.",
    )
    inference = _obj(
        _properties("inference"),
        _required("inference"),
        "Required when a batch_inference or realtime_inference workload exists; ignored otherwise.",
    )
    work = _obj(
        _properties("work"),
        _required("work"),
        "Optional, added in v1: inference work counted in its own unit instead of "
        "tokens. With it, an inference workload needs no inference or model section (both are "
        "ignored for it); training stays in tokens, so no pretraining or fine_tuning workload "
        "may come with it.",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://advisor.example/schemas/answers-v3.json",
        "title": "Advisor answers document, version 3",
        "description": "Unknown keys are errors. Sections that do not apply may be absent; a "
        "section present but not applicable (e.g. training without a training workload) is "
        "accepted "
        "and ignored. Fields added later are optional with documented defaults.",
        "type": "object",
        "properties": {
            "schema_version": {
                "const": SCHEMA_VERSION,
                "description": "Always 3. Version 2 documents (AnswersV2: a custom "
                "architecture by attention_heads, kv_heads, experts and active_parameters) and "
                "version 1 documents (AnswersV1: also inference context_tokens instead of "
                "prompt_tokens) are still accepted and read as version 3.",
            },
            "organization": _obj(
                _properties("organization"),
                _required("organization"),
                "Who the customer is.",
            ),
            "workloads": {
                "type": "array",
                "minItems": 1,
                "maxItems": 5,
                "description": "1..5 workloads; kinds are unique.",
                "items": _obj(
                    _properties("workloads[]"), _required("workloads[]"), "One workload."
                ),
            },
            "maturity": _obj(
                _properties("maturity"),
                _required("maturity"),
                "Team and demand maturity.",
            ),
            "frameworks": _obj(
                _properties("frameworks"),
                _required("frameworks"),
                "Software stack.",
            ),
            "deployment": _obj(
                _properties("deployment"),
                _required("deployment"),
                "Deployment constraints.",
            ),
            "cost": _obj(
                _properties("cost"),
                _required("cost"),
                "Cost preferences.",
            ),
            "model": model,
            "training": training,
            "inference": inference,
            "work": work,
        },
        "required": [
            "schema_version",
            "organization",
            "workloads",
            "maturity",
            "frameworks",
            "deployment",
            "cost",
        ],
        "additionalProperties": False,
        "allOf": conditions(version=SCHEMA_VERSION),
    }


def _architecture_v2() -> dict[str, Any]:
    """Version 2's (and 1's) custom architecture, whose numbers had to agree with each other in
    four ways the fields' descriptions state (problems.py checks them for those versions)."""
    return _obj(
        {
            "parameters": _int(1_000_000, MAX_PARAMETERS, "Total parameter count (10^6 .. 10^13)."),
            "layers": _int(1, 1_000, "Decoder layers."),
            "hidden_size": _int(
                64, 131_072, "Model width; a multiple of attention_heads unless head_dim is given."
            ),
            "intermediate_size": _int(64, 1_048_576, "MLP width (per projection)."),
            "attention_heads": _int(1, 1_024, "Query heads."),
            "kv_heads": _int(1, 1_024, "Key/value heads (GQA); must divide attention_heads."),
            "head_dim": _int(
                8,
                1_024,
                "Optional, added in v1: head dimension. Default hidden_size / attention_heads.",
            ),
            "vocab_size": _int(1, 2_000_000, "Vocabulary size."),
            "tied_embeddings": {
                "type": "boolean",
                "description": "Input embedding and output head share weights.",
            },
            "experts": _int(
                1,
                MAX_EXPERTS,
                "Optional, added in v1: routed experts per MoE layer (mixture of experts); "
                "intermediate_size is then one expert's MLP width. Default 1 (a dense model).",
            ),
            "experts_per_token": _int(
                1,
                MAX_EXPERTS,
                "Optional, added in v1: experts each token is routed to (top-k); at most experts. "
                "Required with experts > 1.",
            ),
            "active_parameters": _int(
                1_000_000,
                MAX_PARAMETERS,
                "Optional, added in v1: parameters used per token (<= parameters). Default for a "
                "mixture of experts: parameters less the experts a token does not use, in every "
                "layer.",
            ),
        },
        [
            "parameters",
            "layers",
            "hidden_size",
            "intermediate_size",
            "attention_heads",
            "kv_heads",
            "vocab_size",
            "tied_embeddings",
        ],
        "Decoder-only Transformer shape (Llama-style: SwiGLU MLP, RMSNorm, GQA).",
    )


def _v2(v3: dict[str, Any]) -> dict[str, Any]:
    """Version 2 of the schema: version 3 with v2's custom architecture (attention_heads,
    kv_heads and hidden_size that must divide each other, experts and experts_per_token <=
    experts, active_parameters <= parameters)."""
    doc = copy.deepcopy(v3)
    doc["$id"] = "https://advisor.example/schemas/answers-v2.json"
    doc["title"] = "Advisor answers document, version 2"
    doc["description"] = (
        "Version 2, still accepted: a document is read as version 3 with kv_group_size = "
        "attention_heads / kv_heads, head_dim = hidden_size / attention_heads when not given, "
        "inactive_experts = experts - experts_per_token and active_parameter_share = "
        "active_parameters / parameters. Four rules of its custom architecture compare two "
        "numbers, which JSON Schema cannot state: kv_heads divides attention_heads "
        "(kv_heads_divide), attention_heads divides hidden_size unless head_dim is given "
        "(heads_divide_hidden; the head dimension so derived must be within 8..1,024: "
        "head_dim_out_of_range), experts_per_token <= experts (experts_per_token_exceed) and "
        "active_parameters <= parameters (active_exceeds_total); such a document is refused "
        "with the rule's code. " + v3["description"]
    )
    doc["properties"]["schema_version"] = {"const": 2, "description": "Always 2."}
    doc["properties"]["model"]["properties"]["architecture"] = _architecture_v2()
    doc["allOf"] = conditions(version=2)
    return doc


def _v1(v2: dict[str, Any]) -> dict[str, Any]:
    """Version 1 of the schema: version 2 with inference.context_tokens (prompt + output, at
    least the output) in place of prompt_tokens."""
    doc = copy.deepcopy(v2)
    doc["$id"] = "https://advisor.example/schemas/answers-v1.json"
    doc["title"] = "Advisor answers document, version 1"
    doc["description"] = (
        "Version 1, still accepted: a document is read as version 2 with prompt_tokens = "
        "context_tokens - output_tokens. inference.output_tokens must not exceed "
        "inference.context_tokens (a rule JSON Schema cannot state; such a document is refused "
        "with output_exceeds_context at inference.output_tokens). " + v2["description"]
    )
    doc["properties"]["schema_version"] = {"const": 1, "description": "Always 1."}
    inference = doc["properties"]["inference"]
    inference["properties"] = {
        ("context_tokens" if key == "prompt_tokens" else key): value
        for key, value in inference["properties"].items()
    }
    inference["properties"]["context_tokens"] = _int(
        1, MAX_CONTEXT_TOKENS, "Prompt + output tokens per sequence."
    )
    inference["properties"]["output_tokens"] = _int(
        1, MAX_CONTEXT_TOKENS, "Generated tokens per sequence; <= context_tokens."
    )
    inference["required"] = [
        "context_tokens" if key == "prompt_tokens" else key for key in inference["required"]
    ]
    return doc


def version_of(doc: Any) -> int:
    """The schema version a document is checked against: 1 when it says so, else the current
    one (which reports a missing or unknown version)."""
    version = doc.get("schema_version") if isinstance(doc, Mapping) else None
    if (
        isinstance(version, int | float)
        and not isinstance(version, bool)
        and version in SCHEMA_VERSIONS
    ):
        return int(version)
    return SCHEMA_VERSION


def _property(path: str) -> dict[str, Any]:
    node: dict[str, Any] = schema_doc()
    for key in path.split("."):
        node = node.get("items", node)["properties"][key]
    return node


@cache
def number_range(path: str) -> tuple[float, float, bool]:
    """A number answer's bounds as the published schema states them: (minimum, maximum, whether
    the minimum itself is refused). The wizard's preview reads them here, never restated."""
    node = _property(path)
    if "exclusiveMinimum" in node:
        return float(node["exclusiveMinimum"]), float(node["maximum"]), True
    return float(node["minimum"]), float(node["maximum"]), False


@cache
def nullable_fields(section: str) -> frozenset[str]:
    """The answers of a section that may be null ("no target", "not stated"): a blank field the
    person saw stands for null there, and is left out elsewhere."""
    return frozenset(
        name
        for name, node in _property(section).get("items", _property(section))["properties"].items()
        if isinstance(node.get("type"), list) and "null" in node["type"]
    )


def answers_schema(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """Return the JSON Schema (draft 2020-12) of answers document `version` (a fresh copy)."""
    return copy.deepcopy(schema_doc(version))


@cache
def _draft_schema(version: int) -> dict[str, Any]:
    base = {k: v for k, v in schema_doc(version).items() if k != "allOf"}
    draft = {
        **strip_for_partial(base),
        "$id": f"https://advisor.example/schemas/answers-v{version}-draft.json",
        "title": f"Advisor answers document, version {version}, draft",
        "description": "What a draft may hold (check_partial): any part of an answers document, "
        "with no wrong values; required fields, minimum list sizes and the conditional "
        "sections do not apply until it is submitted.",
        "allOf": conditions(draft=True, version=version),
    }
    if version != SCHEMA_VERSION:
        # A draft that does not state its version is read as the current one (version_of), so
        # an older version's draft must say which it is.
        draft["required"] = ["schema_version"]
        draft["description"] += (
            f" A version {version} draft states schema_version {version}; it is read as "
            f"version {SCHEMA_VERSION}"
            + (
                ": prompt_tokens = context_tokens - output_tokens when both are given "
                "(output_tokens at most context_tokens); a context without its output cannot be "
                "split and is not kept; and as version 2 is"
                if version == 1
                else ""
            )
            + ": kv_group_size = attention_heads / kv_heads when both are given, head_dim = "
            "hidden_size / attention_heads when not given and both are, inactive_experts = "
            "experts - experts_per_token and active_parameter_share = active_parameters / "
            "parameters when both are; one of a pair without the other cannot be converted and "
            "is not kept (kv_heads and hidden_size are)."
        )
    return draft


def answers_draft_schema(version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """Return the JSON Schema of what a draft of answers `version` may hold (`check_partial`), a
    fresh copy."""
    return copy.deepcopy(_draft_schema(version))


def strip_for_partial(node: Any) -> Any:
    # A wizard draft may lack anything; it may not hold wrong values. So drop "required", minimum
    # list sizes and the preset/architecture choice, and keep types, enums, bounds and unknown keys.
    if isinstance(node, dict):
        return {
            k: strip_for_partial(v)
            for k, v in node.items()
            if k not in ("required", "minItems", "oneOf")
        }
    if isinstance(node, list):
        return [strip_for_partial(v) for v in node]
    return node


@cache
def validator(partial: bool, version: int = SCHEMA_VERSION) -> Draft202012Validator:
    # The conditions are checked by cross_field_problems, with messages that name the rule
    # (a bare "training is required" would not say which workload needs it).
    schema = {k: v for k, v in schema_doc(version).items() if k != "allOf"}
    return Draft202012Validator(strip_for_partial(schema) if partial else schema)


@cache
def sections() -> frozenset[str]:
    """The document's sections: its top-level keys other than schema_version."""
    return frozenset(k for k in schema_doc()["properties"] if k != "schema_version")


@cache
def root_validator(partial: bool, version: int = SCHEMA_VERSION) -> Draft202012Validator:
    """`validator(partial)` for the document's own keys only (the sections it requires, unknown
    keys, schema_version), without looking inside a section: `section_validator` does that."""
    schema = {k: v for k, v in schema_doc(version).items() if k != "allOf"}
    schema["properties"] = {
        k: (v if k == "schema_version" else {}) for k, v in schema["properties"].items()
    }
    return Draft202012Validator(strip_for_partial(schema) if partial else schema)


@cache
def section_validator(
    partial: bool, section: str, version: int = SCHEMA_VERSION
) -> Draft202012Validator:
    """`validator(partial)`'s checks of one section, for a document holding only that section
    (its errors' paths start with the section, as they do in the whole document)."""
    schema = {
        "type": "object",
        "properties": {section: schema_doc(version)["properties"][section]},
    }
    return Draft202012Validator(strip_for_partial(schema) if partial else schema)
