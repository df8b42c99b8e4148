"""A dead-end workload's block: what rules its options out, the relaxations and the quote."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.catalog import Catalog
from advisor.engine.planning.options import has_plan
from advisor.engine.planning.relax import blocking, candidates, quote, wording
from advisor.engine.planning.relax.common import Plan, Relax, with_answer
from advisor.engine.ranking import scoring
from advisor.engine.text import i18n

# How many relaxations the block lists: single changes, else pairs of them.
_MAX_SINGLE = 4
_MAX_PAIRS = 3


def is_dead_end(options: Sequence[Mapping[str, Any]]) -> bool:
    """No option of the workload runs the stack as it is and has a price."""
    return not has_plan(options)


def dead_end(
    catalog: Catalog,
    answers: vocabulary.Answers,
    kind: str,
    schedule: str,
    mode: str,
    options: Sequence[Mapping[str, Any]],
    excluded: Sequence[Mapping[str, Any]],
    plan: Plan,
    lang: str,
) -> dict[str, Any] | None:
    """The dead-end block of one workload (None when it has a runnable, priced option): what rules
    every option out, the smallest relaxations that bring one back (each re-planned) and, where
    a house offer fits, the sized unit to quote."""
    if scoring.PHASE_OF[kind] == "preprocessing" or not is_dead_end(options):
        return None
    blockers = blocking.blocking(answers, kind, mode, options, excluded, lang)
    singles = candidates.candidates(catalog, answers, kind, excluded, options)
    found: list[tuple[tuple[int, float], list[Relax], dict[str, Any]]] = []
    # The scores chose a family (or mode) that has nothing here while another the answers allow
    # does: that is the first way out, and it changes no answer.
    same = candidates.first_option(catalog, answers, kind, schedule, plan, lang)
    if same is not None:
        keep = Relax("family", "", None, None, answers)
        found.append((candidates.order([keep], same), [keep], same))
    for r in singles:
        first = candidates.first_option(
            catalog, r.answers, kind, schedule, plan, lang, only=candidates.added_mode(r)
        )
        if first is not None:
            found.append((candidates.order([r], first), [r], first))
    if len(found) == (same is not None):
        for a, b in itertools.combinations(singles, 2):  # no single one works: two at once
            if a.path == b.path and a.kind not in ("region", "region_same_country"):
                continue
            both = candidates.combine(a, b)
            if both is None:
                continue
            first = candidates.first_option(catalog, both, kind, schedule, plan, lang)
            if first is not None:
                found.append((candidates.order([a, b], first), [a, b], first))
    found.sort(key=lambda f: f[0])
    limit = _MAX_SINGLE if found and len(found[0][1]) == 1 else _MAX_PAIRS
    relaxations = [
        wording.relaxation_doc(catalog, answers, kind, rs, first, lang)
        for _, rs, first in found[:limit]
    ]
    blockers = blocking.binding(blockers, relaxations, lang)
    # The sized server to quote: on the answers as they are, else on the first relaxation under
    # which the operator's server holds the work (a run that needs gradient checkpointing).
    ways: list[tuple[vocabulary.Answers, list[str]]] = [(answers, [])]
    for _, rs, _first in found[:limit]:
        relaxed = rs[0].answers if len(rs) == 1 else candidates.combine(rs[0], rs[1])
        if relaxed is not None:
            ways.append((relaxed, [r.path for r in rs if r.path]))
    if answers.frameworks.custom_kernels:
        # The operator's cards run the team's work on the framework's own kernels.
        ways += [
            (
                with_answer(way, "frameworks.custom_kernels", False),
                [*paths, "frameworks.custom_kernels"],
            )
            for way, paths in list(ways)
        ]
    if scoring.PHASE_OF[kind] == "training":
        # A run that fits the operator's server only with activations recomputed, or one
        # sequence per micro-batch, or both.
        ways += [
            (
                with_answer(way, "training.gradient_checkpointing", True),
                [*paths, "training.gradient_checkpointing"],
            )
            for way, paths in list(ways)
            if way.training is not None and not way.training.gradient_checkpointing
        ]
        ways += [
            (
                with_answer(way, "training.micro_batch_size", 1),
                [*paths, "training.micro_batch_size"],
            )
            for way, paths in list(ways)
            if way.training is not None and way.training.micro_batch_size > 1
        ]
    quoted = None
    for way, paths in ways:
        quoted = quote.quote(catalog, way, kind, schedule, mode, plan, lang, paths)
        if quoted is not None:
            break
    status = "no_option" if not options else "nothing_priced"
    statement = i18n.message(
        f"dead_end.{status}",
        lang,
        kind=i18n.label(kind, lang),
        reasons=i18n.message("dead_end.reasons_separator", lang).join(b["text"] for b in blockers),
    )
    return {
        "status": status,
        "statement": statement,
        "blocking": blockers,
        "relaxations": relaxations,
        "quote": quoted,
        "next": i18n.message(
            "dead_end.next_quote"
            if quoted
            else "dead_end.next_relax"
            if relaxations
            else "dead_end.next_none",
            lang,
            kind=i18n.label(kind, lang),
        ),
    }
