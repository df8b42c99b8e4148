"""A workload's decision: its mode, the options feasible for it, its pilot, and the dead end
(with its blockers and a quote) when nothing fits."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from advisor.engine.result.document.option import ExcludedOption, Option
from advisor.engine.result.document.recommendation import Change, ConfidenceParts, Reason


class ModeDecision(TypedDict):
    by_scores: str
    chosen: str
    costs: dict[str, float | None]
    reason: str | None
    alternative: NotRequired[str]
    gap_usd: NotRequired[float | None]


class Feasible(TypedDict):
    accelerators: list[str]
    deployment_modes: list[str]


class PilotCheck(TypedDict):
    figure: str
    label: str
    assumed: float
    unit: str
    pass_if: str  # ">=": the measurement must be at least the line; "<=": at most
    line: float
    basis: str
    # Measured apart from the benchmark (the network time to the users, from their city).
    apart: NotRequired[bool]


class PilotRun(TypedDict):
    role: str  # first | runner_up
    accelerator_id: str
    name: str
    kind: str  # serving | training
    stack: str
    model: str
    # What to rent: units of the offer's price row, devices, hours (an estimate), cost, source.
    rent: dict[str, Any]
    hours_basis: str
    commands: list[str]
    settings: dict[str, Any]
    checks: list[PilotCheck]


class Pilot(TypedDict):
    """The short rental and benchmark that proves the plan before buying."""

    safety_share: float
    rank_cost_tolerance: float
    runs: list[PilotRun]
    summary: str


class Workload(TypedDict):
    kind: str
    schedule: str
    accelerator: str
    deployment_mode: str
    billing: str
    confidence: float
    scores: dict[str, float]
    feasible: Feasible
    reasons: list[Reason]
    options: list[Option]
    alternatives: list[Option]
    # Schema 2; normalise gives a schema-1 workload empty ones (the report then shows no
    # "why this option" block for it).
    confidence_parts: ConfidenceParts | None
    excluded_options: list[ExcludedOption]
    mode_decision: ModeDecision | None
    rules: list[str]
    # Options left out because another beats or equals them on every axis, and the
    # sentences about the first option's target (missed, at risk) that belong on page one.
    dominated_options: NotRequired[list[dict[str, Any]]]
    target_warnings: NotRequired[list[str]]
    # The pilot for the first option (and the runner-up when close); None when none.
    pilot: NotRequired[Pilot | None]
    # Only on a workload with no runnable, priced option (engine/planning/relax/).
    dead_end: NotRequired[DeadEnd]
    # Engine 2.5: preprocessing's CPU server (vCPUs, servers, billing, a month's price).
    cpu_plan: NotRequired[dict[str, Any]]


class Blocking(TypedDict):
    """An answer (or answers) that rules a dead end's options out, and how many cards it rules
    out (None: the answer every option was built under, such as the allowed modes)."""

    answers: list[str]
    count: int | None
    text: str


class Quote(TypedDict):
    """The operator's server for a dead-end workload (a house offer), sized: card x count per
    server, servers, the server's spec as the operator entered it, the term, and its price
    (None: on request). `needs` names the answers it changes (a neighbouring region, a mode)."""

    price_id: str
    provider: str
    region: str | None
    region_key: str | None
    deployment_mode: str
    accelerator_id: str
    name: str
    count: int
    per_server: int
    servers: int
    unit: str | None
    server: dict[str, Any]
    # One server's host as the engine sizes it for the workload (cpu_cores, ram_gib, nvme_tb,
    # network_gbps): what the quote shows where the operator entered no spec.
    sized_server: NotRequired[dict[str, Any]]
    training: NotRequired[bool]
    term: str
    priced: bool
    monthly_cost_usd: float | None
    needs: list[str]
    source: str
    as_of: str | None
    statement: str


class DeadEnd(TypedDict):
    status: str  # no_option | nothing_priced
    statement: str
    blocking: list[Blocking]
    relaxations: list[Change]
    quote: Quote | None
    next: str
