"""Explanations of a decision, one module per concern:

- `reasons`: attributed reasons per workload and merged, the exclusions, a reason reworded
- `would_change`: the answer changes that would flip the recommendation (`would_change_if`)
- `summary`: the plain-text summary the CLI prints
- `notes`, `option_notes`: the notes a result and an option carry
- `pilot`: the pilot that proves the plan
- `sizing_docs`: the result's sizing sections

The result's assembly reads the names below; other callers import the concern's module.
"""

from advisor.engine.explain.reasons import aggregate_reasons, exclusion_docs, workload_reasons
from advisor.engine.explain.would_change import flip_doc, would_change_if

__all__ = [
    "aggregate_reasons",
    "exclusion_docs",
    "flip_doc",
    "workload_reasons",
    "would_change_if",
]
