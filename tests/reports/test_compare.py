"""Compare two report versions: what changed in the answer (cards, counts, where, billing, cost,
time and latency per workload) and which answers changed, named as the wizard names them."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from advisor import charts
from advisor.models import Assessment, Report
from advisor.services import reports
from advisor.starters import BY_SLUG as STARTERS
from tests.factories import MembershipFactory

pytestmark = pytest.mark.django_db


def _version(obj: Assessment, number: int, answers: dict[str, Any]) -> Report:
    report = Report.objects.create(assessment=obj, number=number, language="en", answers=answers)
    reports.report_generate(report_id=report.pk)
    report.refresh_from_db()
    assert report.status == Report.Status.DONE
    return report


def _rows(html: str, heading: str) -> list[str]:
    """The text of every table row headed `heading`."""
    rows = re.findall(r"<th scope=\"row\">" + re.escape(heading) + r".*?</tr>", html, re.S)
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", row)) for row in rows]


def _serving(report: Report) -> tuple[str, str]:
    """The serving workload's first option as the compare page should name it: card × count
    and its monthly cost."""
    result = report.result
    (workload,) = [w for w in result["workloads"] if w["kind"] == "realtime_inference"]
    option = charts.chosen_option(result, workload)
    assert option is not None
    return f"{option['name']} × {option['count']}", f"${option['monthly_cost_usd']:,.0f}"


def test_a_quieter_service_reads_as_a_change_of_card_count_and_cost() -> None:
    membership = MembershipFactory()
    answers = STARTERS["llm-fine-tuning-startup"].document()
    obj = Assessment.objects.create(
        organization=membership.organization,
        created_by=membership.user,
        title="Compare",
        status=Assessment.Status.SUBMITTED,
        answers=answers,
    )
    busy = _serving(_version(obj, 1, answers))
    quieter = copy.deepcopy(answers)
    quieter["inference"].update(concurrent_sequences=1, tokens_per_day=1_000_000)
    quiet = _serving(_version(obj, 2, quieter))
    assert busy != quiet  # the premise: 32 sessions need other hardware than one
    client = Client()
    client.force_login(membership.user)
    page = client.get(reverse("advisor:compare", kwargs={"pk": obj.pk}) + "?a=1&b=2").text
    # The serving workload's first option changed; the training one did not.
    assert busy[0] in page and quiet[0] in page
    assert "unchanged" in page  # fine-tuning
    _training, serving = _rows(page, "Monthly cost")
    assert f"{busy[1]} {quiet[1]}" in serving
    assert "per month" in page
    # The answers that moved, by the wizard's names, with before and after.
    assert "No criterion contributed differently" not in page
    assert "Your answers changed:" in page
    assert re.search(r"Concurrent.*32.*1", page, re.S)
    assert "20,000,000" in page and "1,000,000" in page  # numbers grouped, as on the review page
