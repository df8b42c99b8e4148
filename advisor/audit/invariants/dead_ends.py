"""I1: an answer or an honest dead end, and I1q: a dead end quoted where the operator sells
the sized server."""

from __future__ import annotations

import re
from collections.abc import Iterator

from advisor.audit.invariants.case import (
    HOSTED,
    LANGS,
    OPERATOR_REGIONS,
    Case,
    Violation,
    _first,
    _sized,
    _v,
)

# ------------------------------------------------------------------------------ I1: dead ends


def i1_answer_or_honest_dead_end(case: Case) -> Iterator[Violation]:
    workloads = case.result["workloads"]
    sized = [w for w in workloads if _sized(w)]
    for w in sized:
        first = _first(w)
        dead = w.get("dead_end")
        if first is None and not dead:
            yield _v("I1", w, "no first option and no dead end that says why")
        if dead:
            for relax in dead.get("relaxations") or []:
                option = relax.get("option") or {}
                if not option or option.get("monthly_cost_usd") is None:
                    yield _v(
                        "I1",
                        w,
                        f"a relaxation ({', '.join(relax.get('gives_up') or []) or '?'}) is "
                        "listed without a first option and a price",
                    )
            if not dead.get("blocking"):
                yield _v("I1", w, "a dead end names no answer that rules the options out")
            relaxed = {
                c.get("answer_path")
                for relax in dead.get("relaxations") or []
                for c in relax.get("changes") or []
            }
            for block in dead.get("blocking") or []:
                answers = block.get("answers") or []
                touched = any(
                    str(p) == a or str(p).startswith(a + ".") for a in answers for p in relaxed
                )
                if relaxed and not touched:
                    yield _v(
                        "I1",
                        w,
                        f"a dead end names {', '.join(block.get('answers') or [])} as ruling "
                        "options out, yet no relaxation of it brings one back",
                    )
            if any(not relax.get("changes") for relax in dead.get("relaxations") or []):
                yield _v(
                    "I1",
                    w,
                    "a dead end lists a plan that changes none of the team's answers: an option "
                    "exists, and the workload has none",
                )
    plans = [w for w in sized if _first(w) is not None and not w.get("dead_end")]
    for lang, word in (("en", "Buy"), ("zh-hant", "採購")):
        bought = len(re.findall(rf"^{word}\b", case.page_one.get(lang, ""), re.M))
        if bought > len(plans):
            yield _v(
                "I1",
                None,
                f"{lang} page one says buy {bought} times for {len(plans)} workload(s) with a "
                "plan: a dead end is shown as a purchase",
            )
    all_dead = bool(sized) and all(_first(w) is None or w.get("dead_end") for w in sized)
    if all_dead:
        for lang in LANGS:
            headline = case.summary[lang].splitlines()[1] if case.summary.get(lang) else ""
            mode = case.result["recommendation"]["deployment_mode"]
            if re.search(r"confidence|信心|billing|計費", headline):
                yield _v(
                    "I1",
                    None,
                    f"every workload is a dead end, yet the {lang} summary's headline names a "
                    f"mode, billing or confidence: {headline!r} ({mode})",
                )
            page = case.page_one.get(lang, "")
            if re.search(r"Recommendation:|建議：", page):
                yield _v(
                    "I1",
                    None,
                    f"every workload is a dead end, yet {lang} page one states a recommendation",
                )


def i1q_dead_end_quote(case: Case) -> Iterator[Violation]:
    regions = set(case.answers["organization"]["regions"])
    if not regions & OPERATOR_REGIONS and "mainland_china" not in regions:
        return
    if not HOSTED & set(case.answers["deployment"]["allowed_modes"]):
        return
    for w in case.result["workloads"]:
        dead = w.get("dead_end")
        if _sized(w) and dead and not dead.get("quote"):
            yield _v("I1q", w, "a dead end in the operator's region group offers no sized quote")
