"""The report's risks, confidence wording and "would change if" are read from
the result the plan shows. Every starter and every dead-end shape, in both languages: no runner-up
sentence without a runner-up, no "no single change" beside a dead end, a dead end's own sentence
among the risks, and a headline that recommends only what has an option."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils.translation import override

from advisor.decisions import evaluation
from advisor.reporting import dead_ends
from advisor.reporting.context import report_context
from advisor.starters import STARTERS
from tests.engine.test_dead_ends import SHAPES

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hant")
DOCUMENTS = [(f"starter:{s.slug}", s.answers) for s in STARTERS] + [
    (f"dead_end:{name}", answers) for name, answers in SHAPES.items()
]
RUNNER_UP = {"en": "runner-up", "zh-hant": "次佳"}
PILOT_ON_BOTH = {"en": "pilot on both", "zh-hant": "兩者都做試點"}
DEAD = {"en": "no option meets every answer", "zh-hant": "沒有任何方案符合您的所有答案"}


def _context(answers: dict[str, Any], language: str) -> tuple[dict[str, Any], dict[str, Any]]:
    result = evaluation.evaluate(answers, language=language)
    with override(language):
        context = report_context(result, language=language)
        # Lazy strings in the language they were made for.
        risks = [str(r) for r in context["risks"]]
        flips = [str(f) for f in context["confidence"]["flips"]]
    return dict(result), {**context, "risks": risks, "flips": flips}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "answers"), DOCUMENTS, ids=[d[0] for d in DOCUMENTS])
def test_risks_confidence_and_levers_agree_with_the_result(
    name: str, answers: dict[str, Any], language: str
) -> None:
    result, context = _context(answers, language)
    workloads = [w for w in result["workloads"] if w["kind"] != "preprocessing"]
    live = [w for w in workloads if not w.get("dead_end")]
    dead = [w for w in workloads if w.get("dead_end")]
    risks = " ".join(context["risks"])
    if not any(dead_ends.has_runner_up(w) for w in live):
        assert RUNNER_UP[language] not in risks, name
    if PILOT_ON_BOTH[language] in risks:
        # Only where two things are close: GPU and TPU, or the first option and its runner-up.
        assert any(
            dead_ends.has_runner_up(w)
            or min(w["confidence_parts"], key=lambda k: w["confidence_parts"][k]) == "family"
            for w in live
        ), name
    for w in dead:
        assert DEAD[language] in risks, name
        assert w["dead_end"]["relaxations"] or w["dead_end"]["quote"], name
        # "Would change if" shows the way out; page one never says nothing would change.
        assert context["flips"], name
        assert w["dead_end"]["relaxations"][0]["explanation"] in " ".join(context["flips"])
    # The headline recommends a family and mode only if some workload has an option.
    assert context["all_dead"] == (bool(workloads) and not live), name
    if name.startswith("dead_end:"):
        assert dead, f"{name} no longer ends empty: move it out of the dead-end shapes"
