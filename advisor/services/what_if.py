"""What-if: a report's answers with some changed, evaluated as the report was; saved as a new
report version, or adopted as the assessment's answers."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from advisor.decisions import evaluation
from advisor.engine import AnswersError, parse_answers
from advisor.engine.answers.problems import Problem, validate
from advisor.engine.result.document import ResultDocument, normalise
from advisor.models import Assessment, Report
from advisor.services.assessments import assessment_write
from advisor.services.reports import report_enqueue, report_throttle
from advisor.wizard.steps import progress


@dataclass
class WhatIf:
    """A report's answers with some changed, and either the engine's problems with them or the
    result they give."""

    answers: dict[str, Any]
    problems: list[Problem]
    result: ResultDocument | None = None


def what_if_answers(
    *, answers: dict[str, Any], changes: dict[str, Any], removed: Sequence[str] = ()
) -> dict[str, Any]:
    """`answers` (a copy) with each of `changes` ("section.key": value) put in its place and
    the `removed` paths taken out. A section the answers do not hold is left out: it does not
    apply to them."""
    out = copy.deepcopy(answers)
    for path in [*changes, *removed]:
        section, key = path.split(".", 1)
        target = out.get(section)
        if not isinstance(target, dict):
            continue
        if path in changes:
            target[key] = changes[path]
        else:
            target.pop(key, None)
    return out


def report_what_if(
    *, report: Report, answers: dict[str, Any], language: str, run: bool = True
) -> WhatIf:
    """`answers` evaluated as `report` was: with its catalog, scoring model and day (the ones
    published now stand in for any no longer stored), so that the difference comes from the
    answers alone. Writes nothing; the problems are the engine's when it refuses them. Without
    `run` (some input did not even convert) only the problems are found."""
    problems = validate(answers)
    if problems or not run or not isinstance(report.result, dict):
        return WhatIf(answers=answers, problems=problems)
    result = evaluation.evaluate_like(
        parse_answers(answers), normalise(report.result), language=language
    )
    return WhatIf(answers=answers, problems=[], result=result)


def report_save_what_if(*, report: Report, answers: dict[str, Any], user: User | None) -> Report:
    """A new report version of `report`'s assessment with `answers`, in `report`'s language.

    The version holds its own frozen answers; the assessment's answers stay as they were
    submitted (a what-if is a scenario, not an edit: "Edit answers" changes those). Its result
    is evaluated now, as report_what_if showed it (the pinned catalog, scoring model and day),
    and the worker renders that result rather than running the engine again. Raises
    AnswersError when the engine refuses the answers and ReportThrottled past the limits.
    """
    problems = validate(answers)
    if problems:
        raise AnswersError(problems)
    what_if = report_what_if(report=report, answers=answers, language=report.language)
    with transaction.atomic():
        locked = (
            Assessment.objects.select_for_update()
            .select_related("organization")
            .get(pk=report.assessment_id)
        )
        unfinished = locked.reports.filter(
            status__in=[Report.Status.PENDING, Report.Status.RUNNING], language=report.language
        )
        for waiting in unfinished:
            if waiting.answers == answers:  # a second click on the same what-if
                return waiting
        report_throttle(user=user, organization=locked.organization)
        number = (locked.reports.aggregate(n=Max("number"))["n"] or 0) + 1
        saved = Report.objects.create(
            assessment=locked,
            number=number,
            language=report.language,
            requested_by=user,
            answers=copy.deepcopy(answers),
            origin=Report.Origin.WHAT_IF,
            based_on=report,
            result=what_if.result,
        )
        transaction.on_commit(lambda: report_enqueue(report_id=saved.pk))
    return saved


def report_answers_adopt(
    *, report: Report, expected_version: int | None, editor: str = ""
) -> Assessment:
    """Make a version's answers the assessment's (one action from the report page), with the
    version's result as the assessment's result in its language: the answers and the result
    the customer chose travel together. The assessment stays (or becomes) submitted; input
    still waiting in a reopened draft gives way to the version's answers.

    Raises VersionConflict when the assessment was saved since `expected_version` (another
    tab, a colleague), writing nothing, and AnswersError when the version's answers no longer
    pass the engine (an older schema).
    """
    problems = validate(report.answers)
    if problems:
        raise AnswersError(problems)
    assessment = report.assessment
    answers = copy.deepcopy(report.answers)
    done, total = progress(answers, [])
    result = {report.language: report.result} if isinstance(report.result, dict) else None
    assessment_write(
        assessment,
        expected_version,
        editor=editor,
        answers=answers,
        pending_input={},
        status=Assessment.Status.SUBMITTED,
        submitted_at=timezone.now(),
        result=result,
        completed_steps=done,
        total_steps=total,
    )
    return assessment
