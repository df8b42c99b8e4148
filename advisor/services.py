"""Write-side operations on assessments. Only services call the engine or write models."""

from __future__ import annotations

import copy
import hashlib
import logging
import math
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.mail import EmailMessage
from django.db import DatabaseError, transaction
from django.db.models import F, Max, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext

from accounts import throttle as rate_limits
from accounts.models import Invitation, Organization, Role, User
from accounts.services import invitation_create, organization_create
from advisor import decisions, selectors
from advisor.engine import AnswersError, parse_answers
from advisor.engine import measured as M
from advisor.engine.answers import SCHEMA_VERSION
from advisor.engine.document import ResultDocument, normalise
from advisor.engine.problems import Problem, check_partial, draft_problems, validate
from advisor.models import Assessment, Lead, Measurement, Report, ShareLink
from advisor.reference.models import Catalog
from advisor.starters import BY_SLUG as STARTERS
from advisor.wizard import progress


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
        version = _write(
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
    answers = copy.deepcopy(assessment.answers)
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
    answers, checked = _drop_refused(answers, section, assessment.answers, checked)
    return answers, problems, checked


def _write(
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
    rows = Assessment.objects.filter(pk=assessment.pk)
    stamp = {"updated_at": timezone.now(), "last_editor": editor, **values}
    # The usual case is one UPDATE, atomic by itself (no BEGIN/COMMIT round trips): it writes
    # only if the version is still the one this page showed.
    updated = rows.filter(version=expected_version if expected_version is not None else -1).update(
        version=F("version") + 1, **stamp
    )
    if updated:
        version = (expected_version or 0) + 1
    else:
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
    problem when the answers are incomplete or invalid, and VersionConflict when the draft
    changed since the review page was loaded.
    """
    if assessment.pending_input:
        raise PendingInput(sorted(assessment.pending_input))
    parsed = parse_answers(assessment.answers)
    # One engine run, in the submitter's language; the first report reuses it, and the other
    # language is worded from the same versions and day when first asked for (assessment_result).
    language = decisions.engine_language(language)
    result = {language: decisions.evaluate(parsed, language=language)}
    with transaction.atomic():
        _write(
            assessment,
            expected_version,
            status=Assessment.Status.SUBMITTED,
            submitted_at=timezone.now(),
            result=result,
        )
        # Not throttled: a submit is a rare, deliberate step with its own engine run.
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
    language = decisions.engine_language(language)
    if language in stored or not stored:
        return normalise(stored[language]) if language in stored else None
    result = decisions.evaluate_like(
        parse_answers(assessment.answers), normalise(next(iter(stored.values()))), language=language
    )
    stored = {**stored, language: result}
    # Only onto the same submission: a resubmit since has its own result.
    Assessment.objects.filter(pk=assessment.pk, submitted_at=assessment.submitted_at).update(
        result=stored
    )
    assessment.result = stored
    return result


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
    language: str = "en",
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
            assessment_submit(
                assessment=assessment, expected_version=assessment.version, language=language
            )
            assessment.refresh_from_db()  # the submit's timestamps were written by UPDATE
    return assessment


# --- Reports -------------------------------------------------------------------------------

logger = logging.getLogger(__name__)


class ReportNotReady(Exception):
    """The report is not done yet (or failed), so it cannot be shared or exported."""


class ReportThrottled(Exception):
    """Too many report requests from this person or organisation; try again in `retry_after`
    seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


def _window_hit(key: str, *, limit: int, window: int) -> int | None:
    """Count one hit on `key` in a window that opens with its first hit; the seconds until
    the window closes when the count is past `limit`, else None. Redis's INCR keeps
    concurrent hits exact."""
    now = time.time()
    cache.add(f"{key}:since", now, timeout=window)
    cache.add(f"{key}:count", 0, timeout=window)
    try:
        count = cache.incr(f"{key}:count")
    except ValueError:  # the window closed between add and incr
        cache.set(f"{key}:count", 1, timeout=window)
        count = 1
    if count <= limit:
        return None
    since = float(cache.get(f"{key}:since", now))
    return max(1, math.ceil(since + window - now))


def report_throttle(*, user: User | None, organization: Organization) -> None:
    """Count one report request against the person's and the organisation's limits per
    window (REPORT_REQUESTS_PER_USER, REPORT_REQUESTS_PER_ORGANIZATION, per
    REPORT_REQUEST_WINDOW_SECONDS); raises ReportThrottled past either. Reports share the
    workers, so one organisation's burst must not hold everyone else's reports back."""
    window = settings.REPORT_REQUEST_WINDOW_SECONDS
    waits = [
        _window_hit(
            f"report-requests:org:{organization.pk}",
            limit=settings.REPORT_REQUESTS_PER_ORGANIZATION,
            window=window,
        )
    ]
    if user is not None:
        waits.append(
            _window_hit(
                f"report-requests:user:{user.pk}",
                limit=settings.REPORT_REQUESTS_PER_USER,
                window=window,
            )
        )
    refused = [w for w in waits if w is not None]
    if refused:
        raise ReportThrottled(max(refused))


class ReportTimedOut(Exception):
    """Raised inside a report's generation when it runs past its time limit (see tasks.py)."""


def report_request(
    *,
    assessment: Assessment,
    user: User | None,
    language: str,
    throttle: bool = True,
    source: Report | None = None,
) -> Report:
    """Create the next report version for a submitted assessment and enqueue its generation.

    The version starts from `source`'s answers when it names a version whose answers differ
    from the assessment's (one saved from a what-if, or generated again from one) or that was
    re-planned with measured figures, and records that it did (`origin`, `based_on`);
    otherwise from the assessment's answers. Regenerating
    in another language or with a newer model or catalog so never drops a saved scenario.
    A report of the same answers in the same language that is still pending or running is
    returned instead of a new one. With `throttle` (people's requests; not the submit's first
    report nor the benchmarks) the request counts against report_throttle's limits and
    raises ReportThrottled past them.

    The task is sent only after the transaction commits, so a worker never looks for a row
    that is not there; if the broker is down the report stays pending and the sweeper sends
    it again later.
    """
    language = decisions.engine_language(language)
    with transaction.atomic():
        locked = (
            Assessment.objects.select_for_update()
            .select_related("organization")
            .get(pk=assessment.pk)
        )
        answers, origin, based_on = locked.answers, Report.Origin.ASSESSMENT, None
        if source is not None and (source.answers != locked.answers or _is_measured(source)):
            # A version re-planned with measured figures stays measured: its generation
            # (_report_result) passes the organisation's measurements again.
            answers, origin, based_on = source.answers, Report.Origin.REGENERATED, source
        unfinished = locked.reports.filter(
            status__in=[Report.Status.PENDING, Report.Status.RUNNING], language=language
        )
        for waiting in unfinished:
            if waiting.answers == answers:
                return waiting
        if throttle:
            report_throttle(user=user, organization=locked.organization)
        number = (locked.reports.aggregate(n=Max("number"))["n"] or 0) + 1
        report = Report.objects.create(
            assessment=locked,
            number=number,
            language=language,
            requested_by=user,
            answers=copy.deepcopy(answers),
            origin=origin,
            based_on=based_on,
        )
        transaction.on_commit(lambda: report_enqueue(report_id=report.pk))
    return report


# --- What-if ----------------------------------------------------------------------------


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
    result = decisions.evaluate_like(
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
    _write(
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


def report_enqueue(*, report_id: int) -> bool:
    """Send the generation task; False (and a log line) when the broker cannot be reached."""
    from advisor.tasks import generate_report

    try:
        # One quick retry re-opens a pooled connection that died with an earlier broker;
        # anything longer would keep the person's request waiting on a broker that is down.
        generate_report.apply_async(
            args=(report_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors; the sweeper retries
        logger.warning("report %s: broker unreachable, left pending", report_id, exc_info=True)
        return False
    return True


def report_generate(*, report_id: int) -> Report | None:
    """Compute, render and store one report. Idempotent: a done report is left as it is.

    Runs the engine on the answers frozen at request time, renders the HTML, and records the
    engine, scoring-model and catalog versions used. The report is done once its page can be
    read: the PDF (nine tenths of the rendering time) follows in a task of its own
    (report_pdf_render), and a download that comes first renders it then. Errors in the
    answers or the rendering mark the report failed with the reason; database errors
    propagate so the task can retry.
    """
    from advisor.reporting import render

    with transaction.atomic():
        report = (
            Report.objects.select_for_update()
            .select_related("assessment__organization")
            .filter(pk=report_id)
            .first()
        )
        if report is None or report.status == Report.Status.DONE:
            # Deleted with its assessment, or finished by an earlier delivery of the message.
            return report
        report.status = Report.Status.RUNNING
        report.started_at = timezone.now()
        report.attempts += 1
        report.error = ""
        report.save(update_fields=["status", "started_at", "attempts", "error"])
    try:
        result = _report_result(report)
        common: dict[str, Any] = {
            "result": result,
            "title": report.assessment.title,
            "organization": report.assessment.organization.name,
            "language": report.language,
            "generated_at": report.started_at,
        }
        body, _document = render.render_report_html(**common)
    except ReportTimedOut:
        logger.error("report %s: stopped at its time limit", report_id)
        if not transaction.get_connection().in_atomic_block:
            # The limit may have cut a query short and left the connection mid-command.
            transaction.get_connection().close()
        return report_fail(report_id=report.pk, failure=Report.Failure.TIMED_OUT)
    except (DatabaseError, OSError):
        raise
    except Exception:  # a bug or bad data: record it, don't retry forever
        # The exception goes to the logs; the reader sees a plain message (Report.Failure).
        logger.exception("report %s failed", report_id)
        return report_fail(report_id=report.pk, failure=Report.Failure.ERROR)
    versions = result["versions"]
    report.result = result
    report.html = body
    report.engine_version = str(versions["engine"])
    report.scoring_model = (
        f"{versions['scoring_model']['name']} v{versions['scoring_model']['version']}"
    )
    report.catalog_version = str(versions["catalog"])
    if report.catalog_version.isdigit():
        report.catalog = Catalog.objects.filter(version=int(report.catalog_version)).first()
    report.status = Report.Status.DONE
    report.finished_at = timezone.now()
    report.save()
    report_pdf_enqueue(report_id=report.pk)
    return report


def report_pdf_enqueue(*, report_id: int) -> bool:
    """Send the PDF task of a done report to the PDF queue; False (and a log line) when the
    broker cannot be reached: a member's first download renders the PDF then."""
    from advisor.tasks import generate_report_pdf

    try:
        generate_report_pdf.apply_async(
            args=(report_id,),
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0, "interval_step": 0.2},
        )
    except Exception:  # kombu/redis raise transport-specific errors
        logger.warning("report %s: broker unreachable, PDF left to the download", report_id)
        return False
    return True


def _pdf_claim_stale_before() -> datetime:
    # A render that was claimed longer ago than a report task may run died with its process.
    return timezone.now() - timedelta(seconds=settings.REPORT_TIME_LIMIT)


def report_pdf_claim(*, report: Report) -> bool:
    """Take the one right to render a report's PDF: True for exactly one caller among any
    number of web processes and workers at once, until the PDF is stored or the claim is
    older than a report task may run (its renderer died)."""
    claimed = (
        Report.objects.filter(pk=report.pk, pdf="")
        .filter(Q(pdf_started_at__isnull=True) | Q(pdf_started_at__lt=_pdf_claim_stale_before()))
        .update(pdf_started_at=timezone.now())
    )
    return claimed == 1


def report_pdf_rendering(*, report: Report) -> bool:
    """Whether someone holds a live claim on this report's PDF (it is being rendered now)."""
    return Report.objects.filter(
        pk=report.pk, pdf="", pdf_started_at__gte=_pdf_claim_stale_before()
    ).exists()


def report_pdf_request(*, report: Report) -> None:
    """Ask the PDF worker for a report's PDF unless it is stored or being rendered: what a
    download that may not render (an anonymous link holder) does. Concurrent requests send
    the task once per minute at most; the claim keeps a duplicate task from rendering."""
    if report.pdf or report_pdf_rendering(report=report):
        return
    if cache.add(f"report-pdf-requested:{report.pk}", 1, timeout=60):
        report_pdf_enqueue(report_id=report.pk)


def report_pdf_render(*, report: Report) -> Report:
    """Store the PDF of a done report if it has none yet, and return the report with it.

    The worker's PDF task and a member's download that comes before it both land here; only
    the caller that claims the render (report_pdf_claim) renders, so concurrent downloads
    never render the same PDF twice: the others get the report back without a PDF (and say
    it is being prepared). A failed render gives its claim up for the next try.
    """
    if report.pdf or not isinstance(report.result, dict):
        return report
    if not report_pdf_claim(report=report):
        report.refresh_from_db(fields=["pdf"])
        return report
    from advisor.reporting import render

    try:
        rendered = render.render_report(
            result=normalise(report.result),
            title=report.assessment.title,
            organization=report.assessment.organization.name,
            language=report.language,
            generated_at=report.started_at or report.requested_at,
        )
        name = f"report-{report.assessment_id}-{report.number}.pdf"
        stored = report.pdf.storage.save(
            report.pdf.field.generate_filename(report, name), ContentFile(rendered.pdf)
        )
    except BaseException:  # a time limit included: the next download or task tries again
        Report.objects.filter(pk=report.pk, pdf="").update(pdf_started_at=None)
        raise
    if Report.objects.filter(pk=report.pk, pdf="").update(pdf=stored):
        report.pdf.name = stored
        return report
    report.pdf.storage.delete(stored)  # a stale claim's render stored its PDF first
    report.refresh_from_db(fields=["pdf"])
    return report


def _report_result(report: Report) -> ResultDocument:
    """The result a what-if version was saved with (report_save_what_if), else a fresh run with
    the organisation's measurements for a regenerate of a measured version, else the submit's
    own result when it is what the engine would give now (same answers, language, versions
    and day: the first report of a submit), else a fresh engine run."""
    if isinstance(report.result, dict):
        logger.info("report %s: keeps the result it was requested with", report.pk)
        return normalise(report.result)
    if report.based_on is not None and _is_measured(report.based_on):
        logger.info("report %s: runs the engine with the organisation's measurements", report.pk)
        return decisions.evaluate(
            parse_answers(report.answers),
            language=report.language,
            measurements=_engine_measurements(report.assessment.organization),
        )
    stored = (report.assessment.result or {}).get(report.language)
    if isinstance(stored, dict) and report.answers == report.assessment.answers:
        submitted = normalise(stored)
        if decisions.is_current(submitted, language=report.language):
            logger.info("report %s: reuses the submitted result", report.pk)
            return submitted
    logger.info("report %s: runs the engine", report.pk)
    return decisions.evaluate(parse_answers(report.answers), language=report.language)


def _is_measured(report: Report) -> bool:
    """The version was re-planned with measured figures (report_measure, or a regenerate of
    such a version)."""
    return isinstance(report.result, dict) and bool(report.result.get("measurements"))


def report_fail(*, report_id: int, failure: Report.Failure) -> Report | None:
    """Mark a report that is not done as failed, with `failure` as the reason the page shows."""
    Report.objects.filter(pk=report_id).exclude(status=Report.Status.DONE).update(
        status=Report.Status.FAILED, finished_at=timezone.now(), error=failure.value
    )
    return Report.objects.filter(pk=report_id).first()


def report_retry(*, report: Report, user: User | None = None) -> Report:
    """Send a failed report to the workers again (stuck ones are the sweeper's). Counts
    against report_throttle's limits like a new request."""
    if report.status != Report.Status.FAILED:
        return report
    report_throttle(user=user, organization=report.assessment.organization)
    resent = Report.objects.filter(pk=report.pk, status=Report.Status.FAILED).update(
        status=Report.Status.PENDING, error="", requested_at=timezone.now()
    )
    if resent:  # a second click, or another tab, finds it pending and sends nothing
        transaction.on_commit(lambda: report_enqueue(report_id=report.pk))
    report.refresh_from_db()
    return report


def report_sweep(*, older_than: timedelta, max_attempts: int = 5) -> int:
    """Re-enqueue reports stuck pending or running (a lost message, a killed worker).

    Reports that already used `max_attempts` are marked failed instead, with a reason.
    Returns the number re-enqueued.
    """
    cutoff = timezone.now() - older_than
    stuck = Report.objects.filter(
        Q(status=Report.Status.PENDING, requested_at__lt=cutoff)
        | Q(status=Report.Status.RUNNING, started_at__lt=cutoff)
    )
    Report.objects.filter(pk__in=stuck.filter(attempts__gte=max_attempts).values("pk")).update(
        status=Report.Status.FAILED,
        finished_at=timezone.now(),
        error=Report.Failure.GAVE_UP.value,
    )
    count = 0
    for report_id in stuck.filter(attempts__lt=max_attempts).values_list("pk", flat=True):
        # Touch the row first so the next sweep waits a full period again.
        Report.objects.filter(pk=report_id).update(
            status=Report.Status.PENDING, requested_at=timezone.now()
        )
        count += report_enqueue(report_id=report_id)
    return count


def share_link_create(
    *, report: Report, user: User, label: str = "", expires_at: datetime | None = None
) -> tuple[ShareLink, str]:
    """A new share link to a done report; returns it with the raw token (shown once)."""
    if report.status != Report.Status.DONE:
        raise ReportNotReady
    token = secrets.token_urlsafe(24)  # 192 bits
    link = ShareLink.objects.create(
        report=report,
        token_hash=hashlib.sha256(token.encode()).hexdigest(),
        label=label.strip(),
        created_by=user,
        expires_at=expires_at,
    )
    return link, token


def share_link_revoke(*, link: ShareLink) -> None:
    ShareLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def share_link_record_view(*, link: ShareLink) -> None:
    ShareLink.objects.filter(pk=link.pk).update(
        view_count=F("view_count") + 1, last_viewed_at=timezone.now()
    )


# --- Sales engineers -----------------------------------------------------------------------


def customer_invite(
    *, assessment: Assessment, email: str, invited_by: User, base_url: str
) -> Invitation:
    """Invite a customer's contact to join their organisation and fill in this assessment."""
    invitation, _token = invitation_create(
        organization=assessment.organization,
        email=email,
        role=Role.MEMBER,
        invited_by=invited_by,
        base_url=base_url,
        next_path=reverse("advisor:assessment", kwargs={"pk": assessment.pk}),
        note=gettext('You are asked to fill in the assessment "%(title)s".')
        % {"title": assessment.title},
    )
    return invitation


def prospect_start(
    *, user: User, organization_name: str, title: str, contact_email: str, base_url: str
) -> Assessment:
    """A sales engineer opens a new prospect: its organisation (with the sales engineer in it),
    a first draft assessment, and, given an address, an invitation for the customer's contact."""
    with transaction.atomic():
        organization = organization_create(
            name=organization_name, owner=user, role=Role.SALES_ENGINEER
        )
        assessment = assessment_create(organization=organization, user=user, title=title)
        if contact_email:
            customer_invite(
                assessment=assessment, email=contact_email, invited_by=user, base_url=base_url
            )
    return assessment


# --- Quote requests (house offers) ---------------------------------------------------------------


class QuoteNotAvailable(Exception):
    """The report has no house offer to quote (or is not finished)."""


def _sales_engineer_emails() -> list[str]:
    return sorted(
        User.objects.filter(
            is_active=True,
            memberships__organization__is_operator=True,
            memberships__role__in=[Role.SALES_ENGINEER, Role.ADMIN],
        )
        .values_list("email", flat=True)
        .distinct()
    )


def lead_create(
    *,
    report: Report,
    user: User,
    term_months: int,
    china_bandwidth_mbps: int,
    china_bandwidth_type: str,
    note: str,
    dashboard_url: str,
    offer_id: str = "",
    report_url: str = "",
) -> Lead:
    """A quote request for the report's house offer, its sized server copied from the report
    (selectors.quote_snapshot), and an email to the operating organisation's sales engineers
    once it is committed."""
    snapshot = (
        selectors.quote_snapshot(report=report, offer_id=offer_id)
        if report.status == Report.Status.DONE
        else None
    )
    if snapshot is None:
        raise QuoteNotAvailable
    lead = Lead.objects.create(
        report=report,
        organization=report.assessment.organization,
        requested_by=user,
        server=snapshot,
        region=str(snapshot["region"])[:40],
        term_months=term_months,
        china_bandwidth_mbps=china_bandwidth_mbps,
        china_bandwidth_type=china_bandwidth_type,
        note=note,
    )
    recipients = _sales_engineer_emails()
    if recipients:
        context = {
            "lead": lead,
            "snapshot": snapshot,
            "url": dashboard_url,
            "report_url": report_url,
        }
        message = EmailMessage(
            subject=gettext("Quote request: %(server)s for %(customer)s")
            % {"server": snapshot["summary"], "customer": lead.organization.name},
            body=render_to_string("advisor/email/quote_request.txt", context),
            to=recipients,
            reply_to=[user.email],
        )
        transaction.on_commit(message.send)
    return lead


class QuoteThrottled(Exception):
    """Too many quote requests from this person, their organisation or on this report; try
    again in `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


# A quote request a sales engineer has not answered yet: asking again adds nothing.
OPEN_LEAD_STATUSES = (Lead.Status.NEW, Lead.Status.CONTACTED)


def _quote_limits() -> list[rate_limits.Limit]:
    window = settings.QUOTE_REQUEST_WINDOW_SECONDS
    return [
        rate_limits.Limit("quote-user", limit=settings.QUOTE_REQUESTS_PER_USER, window=window),
        rate_limits.Limit(
            "quote-org", limit=settings.QUOTE_REQUESTS_PER_ORGANIZATION, window=window
        ),
        rate_limits.Limit("quote-report", limit=settings.QUOTE_REQUESTS_PER_REPORT, window=window),
    ]


def quote_throttle(*, user: User, report: Report) -> None:
    """Count one quote request against the person's, the customer organisation's and the
    report's limits (settings.QUOTE_REQUESTS_*); raises QuoteThrottled past any of them. Each
    request emails the operator's staff, so a script must not flood their inboxes. A request
    refused because one limit is used up counts against none of the others."""
    limits = list(
        zip(
            _quote_limits(),
            (str(user.pk), str(report.assessment.organization_id), str(report.pk)),
            strict=True,
        )
    )
    waits = [rate_limits.exceeded(limit, subject) for limit, subject in limits]
    if not any(waits):
        waits = [rate_limits.hit(limit, subject) for limit, subject in limits]
    refused = [wait for wait in waits if wait is not None]
    if refused:
        raise QuoteThrottled(max(refused))


def quote_request(
    *, report: Report, user: User, offer_id: str = "", **fields: Any
) -> tuple[Lead, bool]:
    """A quote request from a person on a report (lead_create), bounded: the same person's
    open request for the same offer on the same report is returned instead of a new one
    (False: nothing created, nothing sent), and a new one counts against quote_throttle's
    limits first (QuoteThrottled past them). The report's row is locked while this is decided,
    so parallel clicks make one request."""
    with transaction.atomic():
        locked = Report.objects.select_for_update().select_related("assessment").get(pk=report.pk)
        snapshot = (
            selectors.quote_snapshot(report=locked, offer_id=offer_id)
            if locked.status == Report.Status.DONE
            else None
        )
        if snapshot is None:
            raise QuoteNotAvailable
        open_request = (
            Lead.objects.filter(
                report=locked,
                requested_by=user,
                status__in=OPEN_LEAD_STATUSES,
                server__offer__price_id=(snapshot.get("offer") or {}).get("price_id", ""),
            )
            .order_by("-created_at")
            .first()
        )
        if open_request is not None:
            return open_request, False
        quote_throttle(user=user, report=locked)
        return lead_create(report=locked, user=user, offer_id=offer_id, **fields), True


def lead_set_status(*, lead: Lead, status: str) -> Lead:
    """A sales engineer moves a quote request along (new → contacted → quoted → won/lost)."""
    lead.status = status
    lead.save(update_fields=["status", "updated_at"])
    return lead


# --------------------------------------------------------------------------- measured results


def _engine_measurements(organization: Organization) -> tuple[M.Measurement, ...]:
    """The organisation's own measurements (never another's), as the engine takes them."""
    return tuple(
        M.Measurement(
            accelerator_id=row.accelerator_id,
            serving=row.serving,
            model_id=row.model_id,
            concurrency=row.concurrency,
            measured_on=row.measured_on.isoformat(),
            source=row.source_name,
            **row.figures,
        )
        for row in Measurement.objects.filter(organization=organization).order_by("created_at")
    )


def report_measure(
    *,
    report: Report,
    raw: bytes | str,
    source: str,
    user: User | None,
    concurrency: int | None = None,
) -> Report:
    """A serving benchmark's result for `report`'s first serving option, kept for the
    organisation, and a new version re-planned with it (and the organisation's earlier
    measurements): its result is evaluated now as a what-if is (the report's catalog, scoring
    model and day), `based_on` names `report`. Raises MeasurementError naming every problem
    (nothing is stored), NothingToMeasure when the report has no serving option, and
    ReportThrottled past the limits. `concurrency` is the one the team typed, for a format that
    does not record it (engine/measured.py parse)."""
    first = selectors.first_serving_option(report.result)
    serving = str((report.answers.get("frameworks") or {}).get("serving") or "")
    if first is None or not serving or not isinstance(report.result, dict):
        raise NothingToMeasure
    m = M.parse(
        raw,
        accelerator_id=first["accelerator_id"],
        serving=serving,
        source=source,
        today=timezone.localdate().isoformat(),
        concurrency=concurrency,
    )
    before = first.get("measured") or {}
    estimated = before.get("estimated") or {
        "tokens_per_second_per_replica": first.get("tokens_per_second_per_replica"),
        "tpot_ms": first.get("tpot_ms"),
        "ttft_ms": first.get("ttft_ms"),
    }
    estimated = {**estimated, "batch_per_replica": first.get("batch_per_replica")}
    organization = report.assessment.organization
    with transaction.atomic():
        locked = Assessment.objects.select_for_update().get(pk=report.assessment_id)
        report_throttle(user=user, organization=organization)
        Measurement.objects.create(
            organization=organization,
            report=report,
            accelerator_id=m.accelerator_id,
            serving=m.serving,
            model_id=m.model_id[:200],
            concurrency=m.concurrency,
            figures={
                "output_tokens_per_s": m.output_tokens_per_s,
                "request_throughput": m.request_throughput,
                "ttft_ms": m.ttft_ms,
                "tpot_ms": m.tpot_ms,
                "e2el_ms": m.e2el_ms,
                "percentile": m.percentile,
                "tool": m.tool,
            },
            estimated=estimated,
            measured_on=m.measured_on,
            source_name=source[:200],
            created_by=user,
        )
        result = decisions.evaluate_like(
            parse_answers(report.answers),
            normalise(report.result),
            language=report.language,
            measurements=_engine_measurements(organization),
        )
        number = (locked.reports.aggregate(n=Max("number"))["n"] or 0) + 1
        saved = Report.objects.create(
            assessment=locked,
            number=number,
            language=report.language,
            requested_by=user,
            answers=copy.deepcopy(report.answers),
            origin=Report.Origin.REGENERATED,
            based_on=report,
            result=result,
        )
        transaction.on_commit(lambda: report_enqueue(report_id=saved.pk))
    return saved


class NothingToMeasure(Exception):
    """The report has no serving option (or no serving stack) a benchmark could measure."""
