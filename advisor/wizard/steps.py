"""The assessment wizard as data: which steps exist, when they apply and when they are done.

Completeness is the engine's call: a step is complete when its section is present and the
engine's full validation reports nothing under it. This module knows no form (services,
selectors and reporting count progress with it); `forms_by_step` gives each step its form.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from advisor.engine.answers import vocabulary
from advisor.engine.answers.problems import Problem

Answers = dict[str, Any]


def _kinds(answers: Answers) -> set[str]:
    workloads = answers.get("workloads")
    if not isinstance(workloads, list):
        return set()
    return {str(w.get("kind")) for w in workloads if isinstance(w, dict)}


def _always(answers: Answers) -> bool:
    return True


def _trains(answers: Answers) -> bool:
    return bool(_kinds(answers) & vocabulary.TRAINING_KINDS)


def _serves(answers: Answers) -> bool:
    return bool(_kinds(answers) & vocabulary.INFERENCE_KINDS)


def _sizes(answers: Answers) -> bool:
    return _trains(answers) or _serves(answers)


# Serving counted in its own unit (images, audio, passages, pairs) is sized from
# the work step; training stays in tokens, so the question is for serving-only teams.
def _serves_only(answers: Answers) -> bool:
    return _serves(answers) and not _trains(answers)


def _in_units(answers: Answers) -> bool:
    return _serves_only(answers) and isinstance(answers.get("work"), dict)


def _sizes_a_model(answers: Answers) -> bool:
    return _sizes(answers) and not _in_units(answers)


def _serves_tokens(answers: Answers) -> bool:
    return _serves(answers) and not _in_units(answers)


@dataclass(frozen=True)
class Step:
    slug: str
    title: str | Promise
    intro: str | Promise
    # The answers' section the step's form fills in; None for the review, which has no form.
    section: str | None
    is_applicable: Callable[[Answers], bool] = _always
    # An optional section left out is an answer (its default), not a step still to do.
    optional: bool = False

    def is_complete(self, answers: Answers, problems: Sequence[Problem]) -> bool:
        section = self.section
        if section is None:
            return False
        if section not in answers:
            return self.optional
        return not any(_under(p.path, section) for p in problems)


def _under(path: str, section: str) -> bool:
    return path == section or path.startswith((section + ".", section + "["))


STEPS: tuple[Step, ...] = (
    Step(
        "organization",
        _("Organisation and regions"),
        _("Who you are and where your users and data are."),
        "organization",
    ),
    Step(
        "workloads",
        _("Workloads"),
        _(
            "Training and inference are planned separately: tick every kind of work you run and "
            "how often."
        ),
        "workloads",
    ),
    Step(
        "work",
        _("What your model works on"),
        _(
            "Text tokens for a language model, or images, audio, passages or pairs: each is "
            "sized and priced in its own unit."
        ),
        "work",
        _serves_only,
        optional=True,
    ),
    Step(
        "model",
        _("Model"),
        _("The model you train or serve, so memory can be sized before compute."),
        "model",
        _sizes_a_model,
    ),
    Step(
        "training",
        _("Training details"),
        _("How you train: these decide memory per device, time-to-result and cost per run."),
        "training",
        _trains,
    ),
    Step(
        "inference",
        _("Inference details"),
        _("How you serve: latency, concurrency, memory and traffic shape."),
        "inference",
        _serves_tokens,
    ),
    Step(
        "maturity",
        _("Maturity"),
        _("How stable and repeatable your work is."),
        "maturity",
    ),
    Step(
        "frameworks",
        _("Frameworks"),
        _("The software you run decides which accelerators can run it."),
        "frameworks",
    ),
    Step(
        "deployment",
        _("Deployment and location"),
        _("Where you may run, and what must stay where."),
        "deployment",
    ),
    Step(
        "cost",
        _("Cost and operations"),
        _("How you pay and who runs it."),
        "cost",
    ),
    Step("review", _("Review and submit"), _("Check every answer, then submit."), None),
)

BY_SLUG = {step.slug: step for step in STEPS}


def applicable_steps(answers: Answers) -> list[Step]:
    return [s for s in STEPS if s.is_applicable(answers)]


def first_incomplete(answers: Answers, problems: Sequence[Problem]) -> Step:
    for step in applicable_steps(answers):
        if step.section is not None and not step.is_complete(answers, problems):
            return step
    return BY_SLUG["review"]


def progress(answers: Answers, problems: Sequence[Problem]) -> tuple[int, int]:
    """(completed, total) form steps that apply to these answers."""
    steps = [s for s in applicable_steps(answers) if s.section is not None]
    return sum(s.is_complete(answers, problems) for s in steps), len(steps)


def neighbours(step: Step, answers: Answers) -> tuple[Step | None, Step | None]:
    steps = applicable_steps(answers)
    if step not in steps:
        return None, None
    i = steps.index(step)
    return (steps[i - 1] if i > 0 else None, steps[i + 1] if i + 1 < len(steps) else None)
