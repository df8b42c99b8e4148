"""The versions a result was made with, and the overall recommendation with its rules,
confidence, reasons, exclusions and the changes that would flip it."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class ScoringModelVersion(TypedDict):
    name: str
    version: int


class Versions(TypedDict):
    engine: str
    scoring_model: ScoringModelVersion
    catalog: str


class Rule(TypedDict):
    id: str
    statement: str


class ConfidenceParts(TypedDict):
    family: float
    mode: float
    card: float


class Reason(TypedDict):
    criterion: str
    label: str
    answer_path: str
    answer_value: Any
    weight: float
    contribution: dict[str, float]
    effect: str
    mode_effect: str | None
    explanation: str
    derived_from: NotRequired[str]
    workloads: NotRequired[list[str]]


class Excluded(TypedDict):
    option: str
    workload: str | None
    code: str
    answer_path: str
    reason: str


class Change(TypedDict):
    """One entry of `would_change_if`: a flip of family and mode, or (kind "lever") a numeric
    answer that changes a workload's option."""

    changes: list[dict[str, Any]]
    explanation: str
    kind: NotRequired[str]
    workload: NotRequired[str]
    option: NotRequired[dict[str, Any]]
    accelerator: NotRequired[str]
    deployment_mode: NotRequired[str]
    # A relaxation (kind "relaxation"): what the team gives up.
    gives_up: NotRequired[list[str]]


class Recommendation(TypedDict):
    accelerator: str
    deployment_mode: str
    billing: str
    billing_reason: str
    rules: list[Rule]
    confidence: float
    mode_confidence: float
    confidence_formula: str | None
    scores: dict[str, float | None]
    split: bool
    split_note: str | None
    by_workload: dict[str, dict[str, str]]
    excluded: list[Excluded]
    reasons: list[Reason]
    would_change_if: list[Change]
    confidence_parts: NotRequired[ConfidenceParts]
