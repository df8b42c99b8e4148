"""Assessments: create one (empty, from a starting point or from a whole document), save a
wizard step under optimistic locking, submit, reopen, and a submitted one's result in another
language."""

from __future__ import annotations

import copy
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import router, transaction
from django.utils import timezone

from accounts.models import Organization, User
from accounts.rows import update_versioned
from advisor.decisions import evaluation, languages
from advisor.engine import AnswersError, parse_answers
from advisor.engine.answers.problems import Problem, check_partial, draft_problems, validate
from advisor.engine.answers.upgrade import upgrade_answers
from advisor.engine.answers.vocabulary import SCHEMA_VERSION
from advisor.engine.result.document import ResultDocument, normalise
from advisor.models import Assessment
from advisor.services.reports import report_request, report_throttle
from advisor.starters import BY_SLUG as STARTERS
from advisor.wizard.steps import progress


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


class Superseded(Exception):
    """An autosave older than a save its own tab already made; nothing was written."""


@dataclass
class StepOutcome:
    problems: list[Problem] = field(default_factory=list)
    version: int = 0
    # An autosave that reached the server after its own tab's newer save (Next, Back or a
    # later autosave) and so was dropped rather than written over it.
    superseded: bool = False
    # Every problem of the answers as saved (validate's), for the page that shows them.
    answer_problems: list[Problem] = field(default_factory=list)

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
    done, total = progress(answers, validate(answers))
    return Assessment.objects.create(
        organization=organization,
        created_by=user,
        title=title.strip(),
        answers=answers,
        completed_steps=done,
        total_steps=total,
    )


def step_save(
    *,
    assessment: Assessment,
    section: str,
    value: Any,
    raw_input: dict[str, list[str]],
    input_problems: Sequence[Problem] = (),
    expected_version: int | None,
    strict: bool,
    editor: str = "",
    autosave: bool = False,
) -> StepOutcome:
    """Save one section of the answers, then report the engine's problems for that section.

    `value` is the section as the step's form converted it (None or empty: not answered),
    `raw_input` what the person typed, field by field, and `input_problems` what could not
    be converted at all (a word in a number field). Values the engine accepts are merged into
    `answers`; anything it refuses is dropped from `answers` while `raw_input` waits in
    `pending_input`, so the step shows it again with its error. `strict` (Next) also reports
    what is missing; a lenient save (Back, autosave) does not. The merged answers are
    validated once (only a refused value costs another pass).
    Raises VersionConflict when `expected_version` is stale, writing nothing. An `autosave`
    that is stale only because its own tab saved since (it was delayed past that tab's Next)
    writes nothing either, and comes back `superseded` rather than as a conflict.
    """
    answers, problems, checked = _step_checked(
        assessment=assessment,
        section=section,
        value=value,
        input_problems=input_problems,
        strict=strict,
    )
    pending = dict(assessment.pending_input)
    if problems:
        pending[section] = {"data": raw_input, "strict": strict}
    else:
        pending.pop(section, None)

    done, total = progress(answers, checked)
    try:
        version = assessment_write(
            assessment,
            expected_version,
            editor=editor,
            older_is_superseded=autosave,
            answers=answers,
            pending_input=pending,
            completed_steps=done,
            total_steps=total,
        )
    except Superseded:
        return StepOutcome(
            problems=problems, version=assessment.version, superseded=True, answer_problems=checked
        )
    return StepOutcome(problems=problems, version=version, answer_problems=checked)


def step_problems(
    *,
    assessment: Assessment,
    section: str,
    value: Any,
    input_problems: Sequence[Problem] = (),
    strict: bool,
) -> tuple[dict[str, Any], list[Problem]]:
    """The answers with `value` merged in as `section` (refused values dropped), and the
    problems the engine reports for that section after `input_problems`. Writes nothing."""
    answers, problems, _checked = _step_checked(
        assessment=assessment,
        section=section,
        value=value,
        input_problems=input_problems,
        strict=strict,
    )
    return answers, problems


def _step_checked(
    *,
    assessment: Assessment,
    section: str,
    value: Any,
    input_problems: Sequence[Problem],
    strict: bool,
) -> tuple[dict[str, Any], list[Problem], list[Problem]]:
    """step_problems, plus every problem of the answers it returns (`validate`'s, for the
    progress count and the page). The merged answers are validated once; only a value the
    engine refuses costs another pass, to check what is left once it is dropped."""
    # A draft stored as answers version 1 or 2 is saved as version 3 (the step forms ask v3's
    # fields).
    stored = upgrade_answers(assessment.answers)
    # A new top-level dict: only `section` is replaced or trimmed below, and that value is the
    # form's own (or a deep copy of the stored one), so the stored sections need no copy.
    answers = dict(stored)
    answers.setdefault("schema_version", SCHEMA_VERSION)
    if value in (None, [], {}):
        answers.pop(section, None)
    else:
        answers[section] = value
    checked = validate(answers)
    problems = [
        p
        for p in (checked if strict else draft_problems(checked))
        if p.path == section or p.path.startswith((section + ".", section + "["))
    ]
    problems += input_problems
    answers, checked = _drop_refused(answers, section, stored, checked)
    return answers, problems, checked


def assessment_write(
    assessment: Assessment,
    expected_version: int | None,
    *,
    editor: str = "",
    older_is_superseded: bool = False,
    **values: Any,
) -> int:
    """Save `values` if nobody else saved since `expected_version`; returns the new version.

    `editor` names the browser tab that saves. A tab whose own autosave moved the version on
    while its page still showed the old one is not in conflict with itself: if it was the
    last writer, nobody else can have written in between. The tab's saves are ordered the
    other way too: with `older_is_superseded` (an autosave), a stale save from the last
    writer's tab left the browser before that tab's newer save landed, so it raises
    Superseded and writes nothing rather than putting older answers back.
    """
    stamp = {"updated_at": timezone.now(), "last_editor": editor, **values}
    # The usual case is one UPDATE, atomic by itself (no BEGIN/COMMIT round trips): it writes
    # only if the version is still the one this page showed. Written once, not built by the
    # ORM on every save (accounts.rows; the statement QuerySet.update would run).
    updated = (
        expected_version is not None
        and update_versioned(
            Assessment,
            pk=assessment.pk,
            version=expected_version,
            values=stamp,
            using=router.db_for_write(Assessment),
        )
        > 0
    )
    if updated:
        version = (expected_version or 0) + 1
    else:
        rows = Assessment.objects.filter(pk=assessment.pk)
        with transaction.atomic():
            current = rows.select_for_update().get()
            if not editor or current.last_editor != editor:
                raise VersionConflict(current)
            if older_is_superseded:
                assessment.version = current.version
                raise Superseded
            version = current.version + 1
            rows.update(version=version, **stamp)
    for name, value in values.items():
        setattr(assessment, name, value)
    assessment.version = version
    assessment.last_editor = editor
    return version


_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _split(path: str) -> list[str | int]:
    return [name if name else int(index) for name, index in _PATH_PART.findall(path)]


def _drop_refused(
    answers: dict[str, Any], section: str, stored: dict[str, Any], checked: list[Problem]
) -> tuple[dict[str, Any], list[Problem]]:
    """Remove from `section` every value the engine refuses for a draft (a few passes at most:
    removing one value can clear a cross-field problem that named another). `checked` is
    `validate(answers)`; the answers come back with theirs.

    If the engine still refuses something it cannot place, the section keeps its stored
    (valid) value: a draft in the database is never invalid.
    """

    def refused() -> list[str]:
        return [
            p.path for p in draft_problems(checked) if p.path.split(".")[0].split("[")[0] == section
        ]

    paths = refused()
    for _ in range(5):
        if not paths:
            break
        for path in sorted(set(paths), key=len, reverse=True):
            _delete(answers, _split(path))
        checked = validate(answers)
        paths = refused()
    if draft_problems(checked):
        if section in stored:
            answers[section] = copy.deepcopy(stored[section])
        else:
            answers.pop(section, None)
        checked = validate(answers)
    return answers, checked


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


def assessment_submit(
    *,
    assessment: Assessment,
    expected_version: int | None,
    user: User | None = None,
    language: str = "en",
) -> Assessment:
    """Submit a complete draft: the engine validates it, its result is stored with it and
    the first report is requested in the submitter's language.

    Raises PendingInput when a step still holds refused input, AnswersError listing every
    problem when the answers are incomplete or invalid, VersionConflict when the draft
    changed since the review page was loaded, and ReportThrottled past the submitter's or
    the organisation's report limit (report_throttle): each submit runs the engine and makes
    a report and its PDF, so a reopen-submit loop or a script of API creates counts like
    any other report request. The count is taken before the engine runs.
    """
    if assessment.pending_input:
        raise PendingInput(sorted(assessment.pending_input))
    parsed = parse_answers(assessment.answers)
    report_throttle(user=user, organization=assessment.organization)
    # One engine run, in the submitter's language; the first report reuses it, and the other
    # language is worded from the same versions and day when first asked for (assessment_result).
    language = languages.engine_language(language)
    # One clock reading: the result's day is the submit's day, which its first report (requested
    # in the same instant) compares with, however late a worker picks it up (_report_result).
    now = timezone.now()
    result = {
        language: evaluation.evaluate(parsed, language=language, today=timezone.localdate(now))
    }
    with transaction.atomic():
        assessment_write(
            assessment,
            expected_version,
            status=Assessment.Status.SUBMITTED,
            submitted_at=now,
            result=result,
        )
        # Counted once above, before the engine ran.
        report_request(assessment=assessment, user=user, language=language, throttle=False)
    return assessment


def assessment_result(*, assessment: Assessment, language: str) -> ResultDocument | None:
    """A submitted assessment's result in `language` (None for a draft), frozen at submission.

    Submit stores the result in the submitter's language; another language is evaluated once,
    when first asked for, with the catalog, scoring model and day of the stored one, and kept.
    """
    stored = assessment.result
    if assessment.status != Assessment.Status.SUBMITTED or not isinstance(stored, dict):
        return None
    language = languages.engine_language(language)
    if language in stored or not stored:
        return normalise(stored[language]) if language in stored else None
    result = evaluation.evaluate_like(
        parse_answers(assessment.answers), normalise(next(iter(stored.values()))), language=language
    )
    stored = {**stored, language: result}
    # Only onto the same submission: a resubmit since has its own result.
    Assessment.objects.filter(pk=assessment.pk, submitted_at=assessment.submitted_at).update(
        result=stored
    )
    assessment.result = stored
    return result


def assessment_preview(*, assessment: Assessment) -> dict[str, Any] | None:
    """The wizard panel's live preview of `assessment`'s stored draft: the engine's best-effort
    leaning with the published catalog and scoring model, in the user's language; None when there
    is nothing to say yet. Never raises."""
    return evaluation.preview(assessment.answers)


def assessment_reopen(*, assessment: Assessment) -> Assessment:
    """Back to draft so the answers can change; the last result stays until the next submit."""
    assessment_write(assessment, assessment.version, status=Assessment.Status.DRAFT)
    return assessment


def assessment_create_from_document(
    *,
    organization: Organization,
    user: User,
    title: str,
    answers: dict[str, Any],
    draft: bool,
    language: str = "en",
) -> Assessment:
    """Create an assessment from a whole answers document (the JSON API's way in).

    A draft may be incomplete but must hold only values the wizard would keep (check_partial);
    anything else must be a complete, valid document and is submitted at once, its result
    stored with it. A version 1 or 2 document is checked by its version's rules and
    stored as version 3 (upgrade_answers). Raises AnswersError listing every problem, or (for a
    complete document) ReportThrottled past the report limits, and then stores nothing.
    """
    problems = check_partial(answers) if draft else validate(answers)
    if problems:
        raise AnswersError(problems)
    with transaction.atomic():
        assessment = Assessment.objects.create(
            organization=organization,
            created_by=user,
            title=title.strip(),
            answers=copy.deepcopy(upgrade_answers(answers)),
        )
        if not draft:
            assessment_submit(
                assessment=assessment,
                expected_version=assessment.version,
                user=user,
                language=language,
            )
            assessment.refresh_from_db()  # the submit's timestamps were written by UPDATE
    return assessment
