"""I11: both languages say the same, and the Chinese report holds no English sentence."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from advisor.audit.invariants.case import Case, Violation, _first, _v

# An English sentence inside the Chinese report: four lowercase English words in a row (names,
# codes and units are capitalised, hyphenated or single words).
_ENGLISH_RUN = re.compile(r"\b[a-z]{2,}(?:[ ,;:]+[a-z]{2,}){3,}\b")
# Words of a product, stack or unit that may stand in a Chinese sentence in a row.
_ENGLISH_ALLOWED = re.compile(
    r"^(?:(?:per|device|hour|month|run|tokens?|million|mbps|gbps|gib|gb|tb|ms|vcpu|cpu|ram|"
    r"nvme|bf16|fp8|fp16|int4|int8|lora|qlora|vllm|sglang|tgi|triton|tensorrt|llm|bench|serve|"
    r"serving|sku|cn2|gia|cmi|nvlink|pcie|sxm|hgx|dgx|ssd|on|demand|spot)[ ,;:]*)+$"
)


# -------------------------------------------------------------------------- I11: languages


def _key(option: Mapping[str, Any] | None) -> tuple[Any, ...] | None:
    if option is None:
        return None
    return (
        option["accelerator_id"],
        option["count"],
        option.get("monthly_cost_usd"),
        option.get("billing_used"),
    )


def i11_languages(case: Case) -> Iterator[Violation]:
    en, zh = case.results["en"], case.results["zh-hant"]
    for we, wz in zip(en["workloads"], zh["workloads"], strict=True):
        fe, fz = _first(we), _first(wz)
        if _key(fe) != _key(fz):
            yield _v("I11", we, f"the first option differs: en {_key(fe)} vs zh-hant {_key(fz)}")
    if en["cost"].get("monthly_total_usd") != zh["cost"].get("monthly_total_usd"):
        yield _v("I11", None, "the monthly total differs between the languages")
    for where, text in (
        ("page one", case.page_one.get("zh-hant", "")),
        ("summary", case.summary.get("zh-hant", "")),
    ):
        for match in _ENGLISH_RUN.finditer(text):
            if not _ENGLISH_ALLOWED.match(match.group(0)):
                yield _v("I11", None, f"English in the zh-hant {where}: {match.group(0)!r}")
                break
