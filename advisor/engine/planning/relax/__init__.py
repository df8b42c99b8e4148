"""No dead ends, and flips that lead somewhere. When a workload's allowed modes x regions x data
residency x stack leave no runnable, priced option, the result says which answers rule every
option out (counted from the exclusions the options already record) and the smallest relaxations
that bring one back, each re-planned by building the workload's options again with that answer
relaxed. Where the operator sells (a house offer in the catalog, priced or on request) the answer
is also the sized unit as a quote. One module per concern:

- `dead_end`: a dead-end workload's block, put together from
  - `blocking`: what rules every option out, and which of it binds;
  - `candidates`: the relaxations worth re-planning and the first option each brings back;
  - `wording`: a relaxation in words;
  - `quote`: the operator's server, sized and stated as a quote;
- `flips`: `would_change_if` changes checked against the per-card rules the plan applies;
- `common`: what they share (the re-plan callable, a relaxation, the neighbouring regions).

The result's assembly reads the names below.
"""

from advisor.engine.planning.relax.common import HOSTED, Plan, neighbours
from advisor.engine.planning.relax.dead_end import dead_end, is_dead_end
from advisor.engine.planning.relax.flips import open_changes, planned_now
from advisor.engine.planning.relax.wording import option_summary

__all__ = [
    "HOSTED",
    "Plan",
    "dead_end",
    "is_dead_end",
    "neighbours",
    "open_changes",
    "planned_now",
    "option_summary",
]
