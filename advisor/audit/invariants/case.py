"""What every invariant reads: a team's report as a case, a violation, and the small readers
of a result's workloads, options and prices."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

HOSTED = frozenset({"dedicated_hosting", "bare_metal"})
# The operator's cities and the region keys of its price rows.
OPERATOR_REGIONS = frozenset({"hong_kong", "tokyo", "los_angeles"})
LANGS = ("en", "zh-hant")


@dataclass(frozen=True)
class Violation:
    invariant: str
    sentence: str
    workload: str | None = None


@dataclass(frozen=True)
class Case:
    """One team's report as the architect reads it."""

    answers: Mapping[str, Any]
    results: Mapping[str, Mapping[str, Any]]  # by language
    page_one: Mapping[str, str]  # by language: the executive summary as text
    summary: Mapping[str, str]  # by language: the CLI's text summary
    body: Mapping[str, str] = field(default_factory=dict)  # by language: the whole report

    @property
    def result(self) -> Mapping[str, Any]:
        return self.results["en"]


def _sized(w: Mapping[str, Any]) -> bool:
    return bool(w["kind"] != "preprocessing")


def _first(w: Mapping[str, Any]) -> Mapping[str, Any] | None:
    options = w.get("options") or []
    return options[0] if options else None


def _price(option: Mapping[str, Any]) -> Mapping[str, Any] | None:
    prices = option.get("prices") or {}
    used = option.get("billing_used")
    if used and prices.get(used):
        return prices[used]  # type: ignore[no-any-return]
    return None


def _workloads(case: Case) -> Iterator[tuple[int, Mapping[str, Any]]]:
    yield from enumerate(case.result["workloads"])


def _v(inv: str, w: Mapping[str, Any] | None, sentence: str) -> Violation:
    return Violation(inv, sentence, None if w is None else str(w["kind"]))


def _answer(case: Case, path: str) -> Any:
    node: Any = case.answers
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node
