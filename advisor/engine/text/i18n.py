"""Bilingual lookups: the engine's sentences, field names and catalog notes in the user's language,
from the tables in `advisor.engine.messages` (English and Traditional Chinese). Templates use
`{param}` formatting.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from advisor.engine.answers import fields
from advisor.engine.text import labels
from advisor.engine.text.messages import CATALOG_TEXT, MESSAGES, REGION_PLACES, REGION_TEXT

LANGS = ("en", "zh-hant")


def _m(en: str, zh: str) -> dict[str, str]:
    return {"en": en, "zh-hant": zh}


def catalog_text(text: str, lang: str = "en") -> str:
    """A sentence of the catalog data in `lang` where the table has it, else as written."""
    entry = CATALOG_TEXT.get(text)
    return text if entry is None else entry.get(lang) or text


# "<code> (<place>)", the place possibly with its own brackets: "us-central1 (Iowa (US))".
_CODED_REGION = re.compile(r"(?P<code>[^()]+?) \((?P<place>.+)\)")


def region_text(text: str, lang: str = "en") -> str:
    """Where an offer is, in `lang`: the provider's region code kept and the place named in the
    reader's language ("ap-southeast-1 (Singapore)" -> "ap-southeast-1（新加坡）"), a text of
    another shape from the table; a bare code or an operator's own words as written."""
    if lang == "en" or not text:
        return text
    whole = REGION_TEXT.get(text)
    if whole is not None:
        return whole.get(lang) or text
    match = _CODED_REGION.fullmatch(text)
    place = REGION_PLACES.get(match["place"]) if match else None
    if match is None or place is None:
        return text
    # Chinese text brackets in full width, with no space before.
    return f"{match['code']}（{place.get(lang) or match['place']}）"


_INDEX = re.compile(r"\[(\d+)\]")


def field_label(path: str, lang: str = "en") -> str:
    """Display label for an answer path ("workloads[1].schedule" -> "workload 2 schedule");
    the path itself when there is none."""
    generic = _INDEX.sub("[]", path)
    field = fields.by_path(generic)
    if field is None:
        return path
    text = _words(field.label, lang)
    match = _INDEX.search(path)
    if match is not None and generic.startswith("workloads[]."):
        n = int(match.group(1)) + 1
        text = message("field.workload_n", lang, n=n, field=text)
    return text


def field_question(path: str, lang: str = "en") -> str:
    """How the wizard asks for an answer path ("training.micro_batch_size" -> "Micro-batch
    size"), which the what-if and the report's levers repeat; else its field label, capitalised."""
    field = fields.by_path(_INDEX.sub("[]", path))
    if field is not None and field.question is not None:
        return _words(field.question, lang)
    label = field_label(path, lang)
    return label if label == path else _start(label, lang)


def field_help(path: str, lang: str = "en", *, what_if: bool = False) -> str:
    """The help text under an answer's question in the wizard (or, `what_if`, in a report's
    what-if form); "" when it has none."""
    field = fields.by_path(_INDEX.sub("[]", path))
    text = None if field is None else field.what_if_help if what_if else field.help
    return "" if text is None else _words(text, lang)


def value_label(path: str, value: Any, lang: str = "en") -> str:
    """Display label for an answer's value, read in the context of its field: enum values by
    label, lists joined, booleans as yes/no, numbers trimmed."""
    if isinstance(value, tuple | list):
        return list_separator(lang).join(value_label(path, v, lang) for v in value) or "—"
    if value is None:
        return "—"
    if isinstance(value, float) and not isinstance(value, bool):
        return f"{value:g}"
    return labels.in_text(value, lang, path=_INDEX.sub("[]", path))


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def message(code: str, lang: str = "en", /, **params: Any) -> str:
    """The message for `code` in `lang` (falls back to English, then to the code itself)."""
    entry = MESSAGES.get(code)
    if entry is None:
        return code
    template = entry.get(lang) or entry["en"]
    return template.format_map(_SafeDict(params))


def list_separator(lang: str = "en") -> str:
    """What separates the items of a list in a sentence: ", " in English, "、" in Chinese."""
    return message("list.separator", lang)


def deployment_words(modes: Sequence[str], lang: str = "en") -> str:
    """The modes a house server is sold in, in words: "dedicated hosting or bare metal"."""
    words = [labels.in_text(m, lang, path="deployment.allowed_modes") for m in modes]
    if len(words) < 2:
        return "".join(words)
    most = list_separator(lang).join(words[:-1])
    return message("house.deployment", lang, modes=most, last=words[-1])


def label(value: Any, lang: str = "en") -> str:
    """Display label for an enum value (the value itself when there is none)."""
    return labels.in_text(value, lang)


_LABELLED_PARAMS = {
    "method": "training.method",
    "kind": "workloads[].kind",
    "kinds": "workloads[].kind",
    "work_model": "work.model",
    "work_unit": "work.unit",
    "serving": "frameworks.serving",
    "mode": "deployment.allowed_modes",
    "regions": "organization.regions",
}


def labelled(params: dict[str, Any], lang: str) -> dict[str, Any]:
    """`params` plus `<name>_label` for the ones that hold answer values or field names
    (comma-joined lists are labelled item by item), for templates that show labels."""
    out = dict(params)
    for name, value in params.items():
        if name in _LABELLED_PARAMS and isinstance(value, str):
            items = [v for v in value.split(", ") if v]
            out[f"{name}_label"] = value_label(_LABELLED_PARAMS[name], items, lang)
        elif name in ("section", "sections") and isinstance(value, str):
            out[f"{name}_label"] = list_separator(lang).join(
                field_label(v, lang) for v in value.split(", ") if v
            )
        elif name == "first" and isinstance(value, str):
            match = _INDEX.search(value)
            out[f"{name}_label"] = (
                message("field.workload_index", lang, n=int(match.group(1)) + 1) if match else value
            )
    return out


_TYPE_WORDS: dict[str, dict[str, str]] = {
    "integer": _m("a whole number", "整數"),
    "number": _m("a number", "數字"),
    "string": _m("text", "文字"),
    "boolean": _m("yes or no", "是或否"),
    "array": _m("a list", "清單"),
    "object": _m("a group of answers", "一組答案"),
    "null": _m("empty", "空值"),
}
_OR = _m(" or ", "或")
_LIST_ITEM = re.compile(r"\[\d+\]$")


def _words(text: dict[str, str] | tuple[str, str], lang: str) -> str:
    """`text` in `lang`, else in English: a {language: text} table or a field registry's
    (English, Chinese) pair."""
    if isinstance(text, tuple):
        return text[1] if lang == "zh-hant" and text[1] else text[0]
    return text.get(lang) or text["en"]


def _start(text: str, lang: str) -> str:
    # A label opens the sentence: "hours of use per day" -> "Hours of use per day" ("p95 ..."
    # and "KV heads" stay as they are).
    first = text.split(" ")[0]
    if lang != "en" or not text[:1].islower() or any(c.isdigit() for c in first):
        return text
    return text[0].upper() + text[1:]


def problem_message(code: str, path: str, params: dict[str, Any], lang: str = "en") -> str:
    """An answers problem as a sentence that names its field in words, in `lang`."""
    # An item of a list of values ("organization.regions[3]") is read as the list.
    field_path = _LIST_ITEM.sub("", path) if _LIST_ITEM.search(path) else path
    generic = _INDEX.sub("[]", field_path)
    out = labelled(params, lang)
    out["field_label"] = _start(field_label(field_path, lang), lang) if field_path else ""
    for name in ("section_label", "kind_label"):
        if name in out:
            out[f"{name}_start"] = _start(out[name], lang)
    field = fields.by_path(generic)
    unit = field.unit if field is not None else None
    if code in ("minimum", "maximum", "exclusive_minimum", "exclusive_maximum"):
        limit = params.get("limit")
        text = _words(unit, lang).format(n=limit) if unit else str(limit)
        # Chinese runs the limit on from the verb ("不得大於 24"), with a space before a number.
        out["limit"] = text if lang == "en" or not text[:1].isdigit() else f" {text}"
    if code == "type":
        for name in ("expected", "actual"):
            kinds = [k.strip() for k in str(params.get(name, "")).split("|") if k.strip()]
            out[f"{name}_words"] = _words(_OR, lang).join(
                _words(_TYPE_WORDS[k], lang) if k in _TYPE_WORDS else k for k in kinds
            )
    if code == "schema_version":
        # The older versions still read, newest first: "2 or 1" / "2 或 1".
        older = [v for v in str(params.get("older", "")).split(", ") if v]
        out["older"] = (" or " if lang == "en" else " 或 ").join(reversed(older))
    if code == "enum":
        allowed = [v for v in str(params.get("allowed", "")).split(", ") if v]
        out["allowed_label"] = value_label(generic, allowed, lang)
    key = f"problem.{code}"
    if code == "required" and lang == "en" and field is not None and field.plural_en:
        key += ".plural"
    if code == "min_items" and params.get("limit") == 1:
        key += ".one"
    return message(key, lang, **out)


def fmt_number(value: float | int) -> str:
    """Readable numbers: 10000000000000 -> '10,000,000,000,000 (1e13)'; floats trimmed."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    n = int(value)
    if abs(n) >= 10**30:
        # Far beyond any bound in answers v1; float formatting would overflow past 1e308.
        digits = str(abs(n))
        return f"{'-' if n < 0 else ''}{digits[0]}e{len(digits) - 1}"
    text = f"{n:,}"
    if abs(n) >= 10**7:
        text += f" ({n:.0e})".replace("e+", "e")
    return text


def percent(value: float) -> str:
    """0.63 -> '63%'."""
    return f"{value * 100:.0f}%"
