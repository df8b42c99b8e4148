"""What evaluate's stages hand each other (result.evaluate runs them in this order).

decide → size → plan → workloads → price → billing reason → recommendation → assemble. Each
hand-off is frozen: a stage never rebinds what an earlier one made. The result document itself
stays plain dicts (document.py states its shape); the lists and dicts below are its parts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from advisor.engine import sizing
from advisor.engine.answers import vocabulary
from advisor.engine.planning import mode_choice, options
from advisor.engine.pricing.billing import CostInputs
from advisor.engine.ranking import scoring


@dataclass(frozen=True)
class Decided:
    """Validate and decide: the parsed answers, the scores' decision (before cost moves a
    workload's mode), its confidence and billing advice, and the reasons it gives."""

    answers: vocabulary.Answers
    lang: str
    when: date  # the day prices are judged stale against
    stale_days: float
    shape: sizing.ModelShape | None
    ctx: scoring.Context
    scored: scoring.Decision
    accelerator_confidence: float
    mode_confidence: float
    billing: str  # the billing the scores' mode advises, and the message that says why
    billing_code: str
    reasons: tuple[list[dict[str, Any]], ...]  # each workload's, in the decision's order
    aggregated_reasons: list[dict[str, Any]]

    @property
    def facts(self) -> Mapping[str, Any]:
        """The answers' facts with the derived ones the scores added."""
        return self.scored.facts


@dataclass(frozen=True)
class Sizing:
    """Size: the result's sizing sections and what the options are built from."""

    training: dict[str, Any] | None
    inference: dict[str, Any] | None
    sized: options.Sized


@dataclass(frozen=True)
class Planned:
    """Plan: the decision weighed by cost, every workload's options built so far (keyed by
    kind, family and mode), each workload's mode decision and the cost inputs."""

    decision: scoring.Decision
    built: mode_choice.Built
    mode_docs: dict[str, dict[str, Any] | None]
    ci: CostInputs
    # What the flips may reuse of this plan (relax.planned_now); empty with measured runs.
    planned_now: dict[tuple[Any, ...], tuple[str, str, bool]]


@dataclass(frozen=True)
class Workloads:
    """Per-workload documents: each workload's section of the result and what the later stages
    read from them, in the decision's order."""

    docs: list[dict[str, Any]]
    notes: list[str]
    firsts: list[dict[str, Any]]  # each workload's first option, with its `workload`
    firsts_by_kind: dict[str, dict[str, Any] | None]
    price_docs: dict[str, dict[str, Any]]  # price id -> the last price document seen with it
    rules: list[list[str]]  # the rules each workload applied
    confidence: list[tuple[float, float, float]]  # each workload's (family, mode, card)
    relaxations: list[dict[str, Any]]  # what brings a dead end's option back

    @property
    def dead_kinds(self) -> frozenset[str]:
        """The workloads that ended dead."""
        return frozenset(str(w["kind"]) for w in self.docs if "dead_end" in w)


@dataclass(frozen=True)
class Costs:
    """Price: the result's cost section (its notes apart), the servers, the shared fleet and
    the notes pricing adds, with the budget's own (the billing reason repeats it)."""

    section: dict[str, Any]
    servers: list[dict[str, Any]]
    server: dict[str, Any] | None  # the server of the workload with the most cards
    fleet: dict[str, Any] | None
    notes: list[str]
    over_budget: str | None
