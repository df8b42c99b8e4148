"""The catalog document's JSON Schema and the checks beyond it: every problem of catalog data."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from advisor.engine.answers.problems import Problem, join_path
from advisor.engine.catalog.entries import BILLING_KINDS
from advisor.engine.text import clouds

_NUM_OR_NULL = {"type": ["number", "null"]}
_SOURCED = {"source": {"type": "string", "minLength": 1}, "as_of": {"type": ["string", "null"]}}
_CATALOG_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["version", "accelerators", "prices", "figures"],
    "properties": {
        "version": {"type": "string", "minLength": 1},
        "accelerators": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": [
                    "id",
                    "name",
                    "type",
                    "memory_gib",
                    "memory_bw_tbps",
                    "source",
                    "as_of",
                ],
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "type": {"enum": ["gpu", "tpu"]},
                    "memory_gib": {"type": "number", "exclusiveMinimum": 0},
                    "memory_bw_tbps": {"type": "number", "exclusiveMinimum": 0},
                    "bf16_dense_tflops": _NUM_OR_NULL,
                    "fp16_dense_tflops": _NUM_OR_NULL,
                    "fp8_dense_tflops": _NUM_OR_NULL,
                    **_SOURCED,
                },
            },
        },
        "prices": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [
                    "id",
                    "accelerator_id",
                    "provider",
                    "cloud",
                    "modes",
                    "billing",
                    "source",
                    "as_of",
                ],
                "properties": {
                    "cloud": {"enum": list(clouds.CLOUDS)},
                    "billing": {"enum": list(BILLING_KINDS)},
                    "usd_per_device_hour": {"type": ["number", "null"], "minimum": 0},
                    "usd_per_device_month": {"type": ["number", "null"], "minimum": 0},
                    "gpus_per_unit": {"type": "integer", "minimum": 1, "maximum": 4096},
                    "unit": {"type": ["string", "null"], "maxLength": 200},
                    "unit_id": {"type": ["string", "null"], "maxLength": 200},
                    **_SOURCED,
                },
            },
        },
        "figures": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "required": ["value", "source", "as_of"],
                "properties": _SOURCED,
            },
        },
    },
}


def _problems(data: Any) -> list[Problem]:
    validator = Draft202012Validator(_CATALOG_SCHEMA)
    out = [
        Problem(join_path(e.absolute_path), "catalog_invalid", {"detail": e.message})
        for e in validator.iter_errors(data)
    ]
    if out:
        return out
    ids = [a["id"] for a in data["accelerators"]]
    known = set(ids)
    if len(known) != len(ids):
        out.append(
            Problem("accelerators", "catalog_invalid", {"detail": "duplicate accelerator ids"})
        )
    for i, p in enumerate(data["prices"]):
        if p["accelerator_id"] not in known:
            out.append(
                Problem(
                    f"prices[{i}].accelerator_id",
                    "catalog_invalid",
                    {"detail": "unknown accelerator"},
                )
            )
        no_value = p.get("usd_per_device_hour") is None and p.get("usd_per_device_month") is None
        if no_value and not p.get("price_on_request"):
            out.append(Problem(f"prices[{i}]", "catalog_invalid", {"detail": "no price value"}))
    return out
