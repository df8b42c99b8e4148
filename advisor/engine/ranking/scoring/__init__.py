"""Hard constraints, then soft scoring from a scoring model held as data.

Options scored: the accelerators ("gpu", "tpu") and the deployment modes. A workload's decision is
the feasible (accelerator, mode) pair with the most points; TPUs pair only with public_cloud because
they exist only as a Google Cloud service. The overall decision is the pair feasible for every
workload with the most points summed over workloads; `split` says when a workload's best differs.

- `model`: the options and phases, the scoring model's criteria, schema and `load_scoring_model`
- `facts`: the answers as facts by answer path, and the derived answers (`derive`)
- `constraints`: the hard constraints, the options the answers rule out (`exclusions`)
- `decision`: the points, the choice per workload and overall (`decide`), and its confidence

The engine's modules read the names below.
"""

from advisor.engine.ranking.scoring.constraints import (
    Exclusion,
    exclusion_inputs,
    exclusions,
    feasibility,
)
from advisor.engine.ranking.scoring.decision import (
    ALL_PAIRS,
    PAIR_INDEX,
    Decision,
    WorkloadDecision,
    confidence,
    decide,
    feasibility_key,
    pick,
)
from advisor.engine.ranking.scoring.facts import Context, answers_facts, derive
from advisor.engine.ranking.scoring.model import (
    ACCELERATORS,
    OPTIONS,
    PHASE_OF,
    Criterion,
    Pair,
    ScoringModel,
    ScoringModelError,
    answer_values,
    load_scoring_model,
)

__all__ = [
    "ACCELERATORS",
    "ALL_PAIRS",
    "OPTIONS",
    "PAIR_INDEX",
    "PHASE_OF",
    "Context",
    "Criterion",
    "Decision",
    "Exclusion",
    "Pair",
    "ScoringModel",
    "ScoringModelError",
    "WorkloadDecision",
    "answer_values",
    "answers_facts",
    "confidence",
    "decide",
    "derive",
    "exclusion_inputs",
    "exclusions",
    "feasibility",
    "feasibility_key",
    "load_scoring_model",
    "pick",
]
