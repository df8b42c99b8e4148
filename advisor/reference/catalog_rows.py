"""Between the engine's catalog document and the rows admins edit.

The engine reads a catalog as one JSON document (engine/data/catalog.json with its presets);
the admin keeps accelerators, prices and model presets as rows, so that each is edited in a
form and every change lands in the history. Pure functions over plain data: the seed migration
uses them as well as the models and services.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

# Document keys kept in a row's own columns; anything else rides along in `extra`.
ACCELERATOR_COLUMNS = {
    "id": "key",
    "name": "name",
    "vendor": "vendor",
    "type": "kind",
    "memory_gb": "memory_gb",
    "memory_gib": "memory_gib",
    "memory_bw_tbps": "memory_bw_tbps",
    "bf16_dense_tflops": "bf16_dense_tflops",
    "fp16_dense_tflops": "fp16_dense_tflops",
    "fp8_dense_tflops": "fp8_dense_tflops",
    "int8_dense_tops": "int8_dense_tops",
    "interconnect": "interconnect",
    "fast_interconnect": "fast_interconnect",
    "max_devices_per_node": "max_devices_per_node",
    "max_devices_per_group": "max_devices_per_group",
    "slice_sizes": "slice_sizes",
    "source": "source",
    "as_of": "as_of",
}
PRICE_COLUMNS = {
    "id": "key",
    "provider": "provider",
    "cloud": "cloud",
    "modes": "modes",
    "billing": "billing",
    "usd_per_device_hour": "usd_per_device_hour",
    "usd_per_device_month": "usd_per_device_month",
    "region": "region",
    "region_key": "region_key",
    "source": "source",
    "as_of": "as_of",
    "estimated": "estimated",
    "derived": "derived",
    "note": "note",
    "setup_fee_usd": "setup_fee_usd",
    "min_term_months": "min_term_months",
}
PRESET_COLUMNS = {
    "id": "key",
    "name": "name",
    "parameters": "parameters",
    "layers": "layers",
    "hidden_size": "hidden_size",
    "intermediate_size": "intermediate_size",
    "attention_heads": "attention_heads",
    "kv_heads": "kv_heads",
    "head_dim": "head_dim",
    "vocab_size": "vocab_size",
    "tied_embeddings": "tied_embeddings",
    "max_position_embeddings": "max_position_embeddings",
    "source": "source",
    "as_of": "as_of",
}
# Columns whose document value is null when the row's is (text columns store "" instead).
_TEXT_NULLABLE = {"region", "region_key", "note"}
_DECIMALS = {"usd_per_device_hour", "usd_per_device_month", "setup_fee_usd"}
# The catalog's own keys besides its rows (figures, rules, regions, gaps, ...) go in `data`.
CATALOG_ROW_KEYS = ("version", "description", "accelerators", "prices", "model_presets")


def _to_row(doc: dict[str, Any], columns: dict[str, str]) -> dict[str, Any]:
    fields: dict[str, Any] = {"extra": {k: v for k, v in doc.items() if k not in columns}}
    for key, column in columns.items():
        value = doc.get(key)
        if column == "as_of":
            value = date.fromisoformat(value) if value else None
        elif column in _DECIMALS:
            value = None if value is None else Decimal(str(value))
        elif column in _TEXT_NULLABLE or column in {"vendor", "interconnect"}:
            value = value or ""
        fields[column] = value
    return fields


def accelerator_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """Row fields for one accelerator of a catalog document."""
    fields = _to_row(doc, ACCELERATOR_COLUMNS)
    fields["fast_interconnect"] = bool(fields["fast_interconnect"])
    for column, default in (("max_devices_per_node", 8), ("max_devices_per_group", 4096)):
        if fields[column] is None:
            fields[column] = default
    return fields


def price_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """Row fields for one price (its accelerator is named by `accelerator_id`)."""
    fields = _to_row({k: v for k, v in doc.items() if k != "accelerator_id"}, PRICE_COLUMNS)
    fields["key"] = str(fields["key"])
    fields["estimated"] = bool(fields["estimated"])
    fields["derived"] = bool(fields["derived"])
    return fields


# A Hugging Face repository id as the pilot's commands name it: an owner and a name of
# letters, digits, ".", "_" and "-" (neither starting with punctuation), at most 96 each, the
# characters and length huggingface_hub's validate_repo_id allows (its documentation,
# package_reference/utilities, read 2026-12: it also refuses "--" and "..", harmless in a
# command). No character here is special to a shell, so an id that matches is one shell word
# as it stands (shlex.quote leaves it unchanged); anything else never reaches a command.
HF_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}")


def hf_id_valid(value: Any) -> bool:
    return isinstance(value, str) and HF_ID.fullmatch(value) is not None


def preset_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """Row fields for one model preset."""
    return _to_row(doc, PRESET_COLUMNS)


def _number(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def row_document(row: Any, columns: dict[str, str]) -> dict[str, Any]:
    """A row back as the engine's dict: its columns under their document keys, then `extra`."""
    doc: dict[str, Any] = {}
    for key, column in columns.items():
        value = getattr(row, column)
        if column == "as_of":
            value = value.isoformat() if value else None
        elif column in _TEXT_NULLABLE:
            value = value or None
        doc[key] = _number(value)
    for key, value in (row.extra or {}).items():
        doc.setdefault(key, value)
    return doc
