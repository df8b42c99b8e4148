"""Write-side operations on assessments. Only services call the engine or write models."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import Organization, User
from advisor import decisions
from advisor.engine import AnswersError, parse_answers
from advisor.engine.answers import SCHEMA_VERSION, Problem, check_partial, validate
from advisor.forms import StepForm
from advisor.models import Assessment
from advisor.starters import BY_SLUG as STARTERS
from advisor.wizard import Step

IGNORED_INPUT = frozenset({"csrfmiddlewaretoken", "version", "action"})
# Bounds on what a draft keeps of raw input: nobody types more, and the row stays small.
MAX_PENDING_VALUES = 64
MAX_PENDING_CHARS = 2_000


class PendingInput(Exception):
    """Some steps still hold input the engine refused; they must be fixed before submitting."""

    def __init__(self, steps: list[str]) -> None:
        super().__init__(", ".join(steps))
        self.steps = steps


class VersionConflict(Exception):
    """Someone saved this assessment since the form was loaded; nothing was written."""

    def __init__(self, current: Assessment) -> None:
        super().__init__("assessment changed since it was loaded")
        self.current = current


@dataclass
class StepOutcome:
    problems: list[Problem] = field(default_factory=list)
    version: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def assessment_create(
    *, organization: Organization, user: User, title: str, starter: str | None = None
) -> Assessment:
    """A new draft, empty or pre-filled from one of the starting points."""
    answers: dict[str, Any] = {"schema_version": SCHEMA_VERSION}
    if starter:
        answers = STARTERS[starter].document()
    return Assessment.objects.create(
        organization=organization, created_by=user, title=title.strip(), answers=answers
    )


def step_save(
    *,
    assessment: Assessment,
    step: Step,
    form: StepForm,
    expected_version: int | None,
    strict: bool,
) -> StepOutcome:
    """Save what a step's form holds, then report the engine's problems for that step.

    Values the engine accepts are merged into `answers`; anything it refuses is dropped from
    `answers` but kept verbatim in `pending_input`, so the step shows it again with its error.
    `strict` (Next) also reports what is missing; a lenient save (Back, autosave) does not.
    Raises VersionConflict when `expected_version` is stale, writing nothing.
    """
    answers, problems = step_problems(assessment=assessment, form=form, strict=strict)
    pending = dict(assessment.pending_input)
    if problems and form.is_bound:
        pending[step.slug] = {"data": _raw_input(form), "strict": strict}
    else:
        pending.pop(step.slug, None)

    version = _write(assessment, expected_version, answers=answers, pending_input=pending)
    return StepOutcome(problems=problems, version=version)


def step_problems(
    *, assessment: Assessment, form: StepForm, strict: bool
) -> tuple[dict[str, Any], list[Problem]]:
    """The answers with this form's section merged in (refused values dropped), and the
    problems the engine and the form report for that section. Writes nothing."""
    form.is_valid()
    section = form.section
    answers = copy.deepcopy(assessment.answers)
    answers.setdefault("schema_version", SCHEMA_VERSION)
    value = form.section_value()
    if value in (None, [], {}):
        answers.pop(section, None)
    else:
        answers[section] = value
    problems = [
        p for p in (validate(answers) if strict else check_partial(answers)) if form.owns(p.path)
    ]
    problems += _problems_for_invalid_input(form)
    return _drop_refused(answers, section), problems


def _write(assessment: Assessment, expected_version: int | None, **values: Any) -> int:
    with transaction.atomic():
        updated = Assessment.objects.filter(
            pk=assessment.pk, version=expected_version if expected_version is not None else -1
        ).update(version=F("version") + 1, updated_at=timezone.now(), **values)
        if not updated:
            raise VersionConflict(Assessment.objects.get(pk=assessment.pk))
    for name, value in values.items():
        setattr(assessment, name, value)
    assessment.version = (expected_version or 0) + 1
    return assessment.version


def _problems_for_invalid_input(form: StepForm) -> list[Problem]:
    # Django's own conversion errors ("Enter a whole number.") become problems at the field's
    # path, so the caller handles one list.
    return [
        Problem(f"{form.section}.{name}", "form", {"messages": [str(m) for m in errors]})
        for name, errors in form.errors.items()
        if name != "version"
    ]


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _split(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _PATH_PART.findall(path)]


def _drop_refused(answers: dict[str, Any], section: str) -> dict[str, Any]:
    """Remove from `section` every value the engine refuses for a draft (a few passes at most:
    removing one value can clear a cross-field problem that named another)."""
    for _ in range(5):
        refused = [
            p.path for p in check_partial(answers) if p.path.split(".")[0].split("[")[0] == section
        ]
        if not refused:
            break
        for path in sorted(set(refused), key=len, reverse=True):
            _delete(answers, _split(path))
    return answers


def _delete(node: Any, parts: list[str | int]) -> None:
    for part in parts[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return
    last = parts[-1] if parts else None
    if isinstance(node, dict) and isinstance(last, str):
        node.pop(last, None)
    elif isinstance(node, list) and isinstance(last, int) and last < len(node):
        node.pop(last)


def _raw_input(form: StepForm) -> dict[str, list[str]]:
    data = form.data
    raw: dict[str, list[str]] = {}
    keys = list(data.keys())[:MAX_PENDING_VALUES]
    for key in keys:
        if key in IGNORED_INPUT or key not in form.fields:
            continue
        values = data.getlist(key) if hasattr(data, "getlist") else [data[key]]
        raw[key] = [str(v)[:MAX_PENDING_CHARS] for v in values[:MAX_PENDING_VALUES]]
    return raw


def assessment_submit(*, assessment: Assessment, expected_version: int | None) -> Assessment:
    """Submit a complete draft: the engine validates it and its result is stored with it.

    Raises PendingInput when a step still holds refused input, AnswersError listing every
    problem when the answers are incomplete or invalid, and VersionConflict when the draft
    changed since the review page was loaded.
    """
    if assessment.pending_input:
        raise PendingInput(sorted(assessment.pending_input))
    parsed = parse_answers(assessment.answers)
    # Frozen in both languages: what was recommended must not change when the page is re-read.
    result = decisions.evaluate_all_languages(parsed)
    _write(
        assessment,
        expected_version,
        status=Assessment.Status.SUBMITTED,
        submitted_at=timezone.now(),
        result=result,
    )
    return assessment


def assessment_reopen(*, assessment: Assessment) -> Assessment:
    """Back to draft so the answers can change; the last result stays until the next submit."""
    _write(assessment, assessment.version, status=Assessment.Status.DRAFT)
    return assessment


def assessment_create_from_document(
    *,
    organization: Organization,
    user: User,
    title: str,
    answers: dict[str, Any],
    draft: bool,
) -> Assessment:
    """Create an assessment from a whole answers document (the JSON API's way in).

    A draft may be incomplete but must hold only values the wizard would keep (check_partial);
    anything else must be a complete, valid document and is submitted at once, its result
    stored with it. Raises AnswersError listing every problem, and then stores nothing.
    """
    problems = check_partial(answers) if draft else validate(answers)
    if problems:
        raise AnswersError(problems)
    with transaction.atomic():
        assessment = Assessment.objects.create(
            organization=organization,
            created_by=user,
            title=title.strip(),
            answers=copy.deepcopy(answers),
        )
        if not draft:
            assessment_submit(assessment=assessment, expected_version=assessment.version)
            assessment.refresh_from_db()  # the submit's timestamps were written by UPDATE
    return assessment
