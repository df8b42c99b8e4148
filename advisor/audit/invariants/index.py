"""The invariants by id: their titles, the ones the planner owns, and `check`, which runs them
all over one team's report."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from advisor.audit.invariants.asked import i4_targets, i6_place, i12_work
from advisor.audit.invariants.case import Case, Violation
from advisor.audit.invariants.costs import (
    i3_priced_on_page_one,
    i5_billing,
    i10_budget,
    i13_figures,
)
from advisor.audit.invariants.dead_ends import i1_answer_or_honest_dead_end, i1q_dead_end_quote
from advisor.audit.invariants.languages import i11_languages
from advisor.audit.invariants.plans import (
    i2_built_as_sold,
    i7_operator_first,
    i8_one_count,
    i9_one_fleet,
)

# The invariants, their titles, and the ones that depend on how plans are built (the planner's
# own work); the audit and the suite report those apart.
TITLES: dict[str, str] = {
    "I1": "An answer or an honest dead end",
    "I1q": "A dead end where the operator sells offers the sized server as a quote",
    "I2": "Built as sold",
    "I3": "Priced on page one",
    "I4": "Targets ranked and told truly",
    "I5": "Billing as asked",
    "I6": "Place",
    "I7": "The operator first where it sells",
    "I8": "One count",
    "I9": "One fleet where one serves",
    "I10": "Budget: compute and staff apart, staff once",
    "I11": "Both languages say the same",
    "I12": "Work as it is",
    "I13": "Figures add up",
}
PLANNER_OWNED = frozenset({"I1q", "I2", "I7", "I8", "I9"})


def check(case: Case) -> list[Violation]:
    """Every violation of every invariant in one team's report."""
    out: list[Violation] = []
    for fn in CHECKS:
        out.extend(fn(case))
    return out


CHECKS: tuple[Callable[[Case], Iterator[Violation]], ...] = (
    i1_answer_or_honest_dead_end,
    i1q_dead_end_quote,
    i2_built_as_sold,
    i3_priced_on_page_one,
    i4_targets,
    i5_billing,
    i6_place,
    i7_operator_first,
    i8_one_count,
    i9_one_fleet,
    i10_budget,
    i11_languages,
    i12_work,
    i13_figures,
)
