"""The wizard's step forms bound to a draft: input to service data, problems back on fields.

A bound form is turned into the data a service takes, a service's problems are put back onto
the form's fields, and answers are shown as the forms word them.

Services take data (a section's value, the raw input, problems), never a form; this is the
one place that binds a step's form to an assessment and attaches errors to it. Answers read
back as the wizard asked them (the review, the compare page) are worded here too: the forms
hold each question's label and choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.datastructures import MultiValueDict
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from advisor.decisions import languages
from advisor.engine.answers.problems import Problem
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.forms.base import StepForm
from advisor.labels import question_for
from advisor.models import Assessment
from advisor.services import assessments
from advisor.wizard.forms_by_step import form_for
from advisor.wizard.steps import Step, applicable_steps

IGNORED_INPUT = frozenset({"csrfmiddlewaretoken", "version", "action"})
# Bounds on what a draft keeps of raw input: nobody types more, and the row stays small.
MAX_PENDING_VALUES = 64
MAX_PENDING_CHARS = 2_000


@dataclass(frozen=True)
class StepInput:
    """What a bound step form holds, as data for assessments.step_save."""

    section: str
    value: Any
    raw_input: dict[str, list[str]]
    problems: list[Problem]


def step_input(form: StepForm) -> StepInput:
    form.is_valid()
    return StepInput(
        section=form.section,
        value=form.section_value(),
        raw_input=_raw_input(form),
        problems=_problems_for_invalid_input(form),
    )


def attach_problems(form: StepForm, problems: Sequence[Problem]) -> None:
    """Show the engine's problems at the fields they name, in the reader's language."""
    language = languages.engine_language()
    for problem in problems:
        if problem.code == "form":
            continue  # Django's own conversion errors are on the field already
        name = form.field_for(problem.path)
        message = problem.message(language)
        if name is not None and name in form.errors and message in form.errors[name]:
            continue
        form.add_error(name, message)


def step_form(*, assessment: Assessment, step: Step) -> StepForm:
    """The step's form: bound to input still waiting to be fixed, else filled from answers."""
    form_class = form_for(step)
    assert form_class is not None  # noqa: S101 - only form steps get here
    pending = assessment.pending_input.get(step.slug)
    if isinstance(pending, dict) and isinstance(pending.get("data"), dict):
        data = MultiValueDict({k: list(v) for k, v in pending["data"].items()})
        data["version"] = str(assessment.version)
        form = form_class(data)
        entered = step_input(form)
        _, problems = assessments.step_problems(
            assessment=assessment,
            section=entered.section,
            value=entered.value,
            input_problems=entered.problems,
            strict=bool(pending.get("strict")),
        )
        attach_problems(form, problems)
        return form
    form = form_class()
    # One form, not a second one only to read the initial values: each costs a deep copy
    # of every field.
    form.initial = {
        **form.initial_from(upgrade_answers(assessment.answers)),
        "version": assessment.version,
    }
    return form


def _problems_for_invalid_input(form: StepForm) -> list[Problem]:
    # Django's own conversion errors ("Enter a whole number.") become problems at the field's
    # path, so the caller handles one list.
    return [
        Problem(f"{form.section}.{name}", "form", {"messages": [str(m) for m in errors]})
        for name, errors in form.errors.items()
        if name != "version"
    ]


def _raw_input(form: StepForm) -> dict[str, list[str]]:
    data = form.data
    raw: dict[str, list[str]] = {}
    keys = list(data.keys())[:MAX_PENDING_VALUES]
    for key in keys:
        if key in IGNORED_INPUT or key not in form.fields:
            continue
        values = data.getlist(key) if hasattr(data, "getlist") else [data[key]]
        # PostgreSQL's jsonb cannot hold NUL; it is never meaningful input anyway.
        raw[key] = [
            str(v)[:MAX_PENDING_CHARS].replace("\x00", "\ufffd")
            for v in values[:MAX_PENDING_VALUES]
        ]
    return raw


def review_sections(*, assessment: Assessment) -> list[dict[str, Any]]:
    """Every answer of every applicable step, as label and display value, for the review."""
    return answer_sections(assessment.answers)


def answer_sections(answers: dict[str, Any]) -> list[dict[str, Any]]:
    """Every answer of every step that applies to `answers`, as label and display value."""
    answers = upgrade_answers(answers)  # a version's answers stored as v1 read as v2
    sections = []
    for step in applicable_steps(answers):
        form_class = form_for(step)
        if form_class is None:
            continue
        form = form_class()
        form.initial = form.initial_from(answers)
        rows = []
        for bound in form.visible_fields():
            value = form.initial.get(bound.name)
            rows.append({"label": bound.label, "value": _display(bound.field, value)})
            if bound.name == "output_tokens" and step.slug == "inference":
                rows.append(_context_row(form.initial))
        sections.append({"step": step, "rows": rows})
    return sections


def _context_row(initial: dict[str, Any]) -> dict[str, Any]:
    # The context a sequence holds, which the engine sizes the KV cache for: answers v2 asks its
    # two parts, so that they cannot contradict each other, and the review shows their sum.
    prompt, output = initial.get("prompt_tokens"), initial.get("output_tokens")
    value = None
    if type(prompt) is int and type(output) is int:
        value = _display(None, prompt + output)
    return {"label": question_for("inference.context_tokens"), "value": value}


def _display(field: Any, value: Any) -> Any:
    if value in (None, "", []):
        return None
    choices = dict(getattr(field, "choices", []) or [])
    if isinstance(value, list):
        return ", ".join(str(choices.get(v, v)) for v in value)
    if value is True:
        return choices.get("yes", _("Yes"))
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value not in choices:
        # 20,000,000 reads at a glance where 20000000 does not (grouped in the reader's locale).
        return number_format(value, force_grouping=True)
    return choices.get(value, value)


def answer_changes(left: dict[str, Any], right: dict[str, Any]) -> list[dict[str, Any]]:
    """Each answer that differs, named as the wizard names it: step, question, before, after."""

    def rows(answers: dict[str, Any]) -> dict[tuple[str, str], tuple[Any, Any]]:
        out = {}
        for section in answer_sections(answers):
            for row in section["rows"]:
                out[(section["step"].slug, str(row["label"]))] = (section["step"], row["value"])
        return out

    before, after = rows(left), rows(right)
    changes = []
    for key in [*before, *(k for k in after if k not in before)]:
        step, old = before.get(key, (None, None))
        step_after, new = after.get(key, (None, None))
        if old != new:
            changes.append({"step": step or step_after, "label": key[1], "left": old, "right": new})
    return changes
