"""The invariants an infrastructure architect checks on every report, as one function over a
team's answers, its result documents (English and Traditional Chinese) and the rendered text
(page one and the text summary in both languages).

Each check returns violations, never raises: the audit counts them per invariant. A check may be
made stricter; loosening one, or leaving a team out of the generator so that it passes, hides a
defect in the engine.

- `case`: the report as a case, a violation, and the readers every check shares
- `dead_ends`: I1 and I1q, an answer or an honest dead end
- `plans`: I2, I7, I8, I9, how plans are built (the planner's own work)
- `costs`: I3, I5, I10, I13, prices, billing, budget and figures
- `asked`: I4, I6, I12, targets, place and work as the team asked
- `languages`: I11, both languages say the same
- `index`: the titles, the planner's invariants, and `check`

The audit and the suite read the names below.
"""

from advisor.audit.invariants.case import HOSTED, LANGS, OPERATOR_REGIONS, Case, Violation
from advisor.audit.invariants.index import PLANNER_OWNED, TITLES, check

__all__ = [
    "HOSTED",
    "LANGS",
    "OPERATOR_REGIONS",
    "PLANNER_OWNED",
    "TITLES",
    "Case",
    "Violation",
    "check",
]
