"""Measured results that cannot crash the page or poison the plan, as an attacker or a team
pastes them: the bounded reader and the card's physics refuse each hostile input with a
message naming what is wrong (never a 500), refused attempts count against the limit, the run
applied is the newest (ties: the one pasted last) and the report names it, a member deletes a
measurement of their organisation (audited), and a measured card that meets its target stays
first over an estimate that is not firmly better."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.models import Measurement, Report
from advisor.selectors.measurements import first_serving_option, measured_option
from advisor.services import reports
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory, operator_member

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-TW"}
DATA = Path(__file__).parents[1] / "engine" / "data"
RECORDED = json.loads((DATA / "vllm_bench_serve_h100.json").read_text())


@pytest.fixture
def owner(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _url(report: Report, name: str = "report_measure") -> str:
    return reverse(f"advisor:{name}", kwargs={"pk": report.assessment_id, "number": report.number})


def _page(response: Any) -> str:
    return html.unescape(re.sub(r"</?code[^>]*>", "", response.content.decode()))


def _busy_report(membership: Any) -> Report:
    assessment = AssessmentFactory(membership=membership, submitted=True)
    assessment.answers["inference"]["tokens_per_day"] = 150_000_000
    assessment.save()
    return ReportFactory(assessment=assessment)


def _run(report: Report, ratio: float = 1.0, **fields: Any) -> dict[str, Any]:
    """The recorded vLLM result at the plan's concurrency, at `ratio` of the estimate."""
    first = first_serving_option(report.result) or {}
    return (
        RECORDED
        | {
            "max_concurrency": first["batch_per_replica"],
            "output_throughput": first["tokens_per_second_per_replica"] * ratio,
        }
        | fields
    )


def _json(report: Report, **fields: Any) -> str:
    return json.dumps(_run(report, **fields))


NESTED = "[" * 100_000
HOSTILE: list[tuple[str, Any, str]] = [
    ("nested", lambda r: NESTED, "nests lists and objects more than 64 levels deep"),
    (
        "jsonl-line-nested",
        lambda r: f"{_json(r)}\n{NESTED}\n",
        "more than 64 levels deep (line 2)",
    ),
    (
        "csv-field",
        lambda r: "Metric,avg\n" + "x" * 200_000 + ",1\n",
        "A field of this CSV is longer than 1,000 characters",
    ),
    (
        "4000-digits",
        lambda r: _json(r)[:-1] + ', "output_throughput": ' + "9" * 4000 + "}",
        "has 4,000 characters; numbers may have at most 40",
    ),
    ("date-99999999", lambda r: _json(r, date="99999999-000000"), "date 99999999-000000 is not"),
    ("date-month-13", lambda r: _json(r, date="20261399-000000"), "date 20261399-000000 is not"),
    ("date-future", lambda r: _json(r, date="29991231-000000"), "is after today"),
    (
        "concurrency-1e30",
        lambda r: _json(r, max_concurrency=10**30),
        "max_concurrency 100000000000… is more than 100000",
    ),
    (
        "concurrency-beyond-memory",
        lambda r: _json(r, max_concurrency=5000),
        "is more than 4 times the",
    ),
    (
        "throughput-5e-324",
        lambda r: _json(r, output_throughput=5e-324),
        "output_throughput 4.94e-324 tokens/s is below",
    ),
    ("throughput-zero", lambda r: _json(r, output_throughput=0), "output_throughput is zero"),
    (
        "throughput-1e308",
        lambda r: _json(r, output_throughput=1e308),
        "output_throughput 1e+308 tokens/s is more than 4 times",
    ),
    (
        "throughput-nan",
        lambda r: _json(r)[:-1] + ', "output_throughput": NaN}',
        "output_throughput",
    ),
    (
        "ttft-below-prefill",
        lambda r: _json(r, p99_ttft_ms=0.01),
        "p99_ttft_ms 0.01 ms is less than 1/4",
    ),
]


@pytest.mark.parametrize(("raw", "said"), [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
@pytest.mark.parametrize("how", ["pasted", "uploaded"])
def test_a_hostile_result_is_refused_naming_what_is_wrong(
    client: Client, owner: Any, raw: Any, said: str, how: str
) -> None:
    v1 = _busy_report(owner)
    text = raw(v1)
    sent = (
        {"text": text}
        if how == "pasted"
        else {"file": SimpleUploadedFile("run.json", text.encode())}
    )
    response = client.post(_url(v1), sent)
    assert response.status_code == 400
    assert said in _page(response)
    assert not Measurement.objects.exists() and v1.assessment.reports.count() == 1


def test_the_refusals_are_worded_in_chinese_too(client: Client, owner: Any) -> None:
    v1 = _busy_report(owner)
    response = client.post(_url(v1), {"text": _json(v1, output_throughput=1e308)}, **ZH)
    assert response.status_code == 400
    assert "單一副本在此模型上可達上限" in _page(response)
    response = client.post(_url(v1), {"text": NESTED}, **ZH)
    assert "巢狀超過 64 層" in _page(response)


def test_refused_attempts_count_against_the_report_limit(
    client: Client, owner: Any, settings: Any
) -> None:
    settings.REPORT_REQUESTS_PER_USER = 3
    v1 = _busy_report(owner)
    for _ in range(3):
        assert client.post(_url(v1), {"text": NESTED}).status_code == 400
    response = client.post(_url(v1), {"text": _json(v1)})
    assert response.status_code == 400
    assert "Too many report requests" in _page(response)
    assert not Measurement.objects.exists()


def _upload(client: Client, report: Report, name: str, doc: dict[str, Any]) -> Report:
    response = client.post(
        _url(report), {"file": SimpleUploadedFile(name, json.dumps(doc).encode())}
    )
    assert response.status_code == 302, _page(response)
    newest = report.assessment.reports.order_by("-number").first()
    assert newest is not None
    done = reports.report_generate(report_id=newest.pk)
    assert done is not None and done.status == Report.Status.DONE
    return done


def test_the_newest_run_is_applied_and_the_report_names_it(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    estimated = first_serving_option(v1.result) or {}
    with django_capture_on_commit_callbacks(execute=False):
        _upload(client, v1, "a.json", _run(v1, 0.8))
        # The same day, pasted later: this one is applied.
        v3 = _upload(client, v1, "b.json", _run(v1, 0.9))
        # An older run pasted last: the newer run stays applied.
        v4 = _upload(client, v1, "c.json", _run(v1, 0.7, date="20261101-090000"))
    for version in (v3, v4):
        measured = measured_option(version.result) or {}
        assert measured["measured"]["source"] == "b.json"
        want = round(estimated["tokens_per_second_per_replica"] * 0.9, 1)
        assert measured["tokens_per_second_per_replica"] == pytest.approx(want, abs=0.11)
        page = html.unescape(client.get(_url(version, "report")).content.decode())
        section = page[page.index('id="measured"') : page.index('id="report-summary"')]
        assert "b.json" in section and "c.json" not in section and "a.json" not in section


def test_a_measured_card_that_meets_the_target_stays_first(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    # At 0.65 of the estimated throughput the card needs more devices and costs more than an
    # untested card, but within the catalog's rank_cost_tolerance (25%) of it: a tie on price,
    # which the measurement outweighs.
    v1 = _busy_report(owner)
    before = first_serving_option(v1.result) or {}
    # Its latencies as estimated: the run meets the target.
    latencies = {
        "p99_ttft_ms": before["ttft_ms"],
        "p99_tpot_ms": before["tpot_ms"],
        "p99_e2el_ms": before["latency_ms"],
    }
    with django_capture_on_commit_callbacks(execute=False):
        v2 = _upload(client, v1, "slower.json", _run(v1, 0.65, **latencies))
    assert v2.result is not None
    (workload,) = [w for w in v2.result["workloads"] if w["kind"] == "realtime_inference"]
    first, *others = workload["options"]
    assert first["accelerator_id"] == before["accelerator_id"]
    assert first["measured"] and first["meets_latency"] and first["count"] > before["count"]
    cost = first["cost_to_result"]["usd"]
    # An untested card of the same tier is cheaper, within the tolerance: ranked first before.
    assert any(
        o["cost_to_result"]["usd"] < cost <= o["cost_to_result"]["usd"] * 1.25 for o in others
    )


def test_a_member_deletes_a_measurement_and_the_history_keeps_who(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        _upload(client, v1, "run.json", _run(v1, 0.5))
    row = Measurement.objects.get()
    delete = reverse(
        "advisor:measurement_delete",
        kwargs={"pk": v1.assessment_id, "number": v1.number, "measurement": row.pk},
    )
    page = client.get(_url(v1), **ZH).content.decode()
    assert f'action="{delete}"' in page and "刪除這筆實測數據" in page
    assert "Delete this measurement" in client.get(_url(v1)).content.decode()
    # Another organisation's member: 404, and the row stays.
    colleague = MembershipFactory(organization=owner.organization, role=Role.MEMBER)
    stranger = MembershipFactory()
    client.force_login(stranger.user)
    assert client.post(delete).status_code == 404
    assert Measurement.objects.filter(pk=row.pk).exists()
    client.force_login(colleague.user)
    assert client.get(delete).status_code == 405
    response = client.post(delete)
    assert response.status_code == 302 and response["Location"] == _url(v1)
    assert not Measurement.objects.exists()
    (gone,) = Measurement.history.filter(id=row.pk, history_type="-")
    assert gone.history_user == colleague.user
    # A re-plan after the deletion is estimated again.
    with django_capture_on_commit_callbacks(execute=False):
        client.post(
            reverse("advisor:report_request", kwargs={"pk": v1.assessment_id}),
            {"language": "en", "source": 1},
        )
    latest = v1.assessment.reports.order_by("-number").first()
    assert latest is not None
    done = reports.report_generate(report_id=latest.pk)
    assert done is not None and done.result is not None and "measurements" not in done.result


def test_a_run_stored_before_the_checks_moves_neither_plan_nor_calibration(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    first = first_serving_option(v1.result) or {}
    Measurement.objects.create(
        organization=owner.organization,
        report=v1,
        accelerator_id=first["accelerator_id"],
        serving="vllm",
        model_id="x",
        concurrency=max(1, first["batch_per_replica"] // 2),
        figures={
            "output_tokens_per_s": 1e308,
            "request_throughput": 1.0,
            "ttft_ms": 300.0,
            "tpot_ms": 30.0,
            "e2el_ms": None,
            "percentile": "p99",
            "tool": "vllm",
        },
        estimated={
            "tokens_per_second_per_replica": first["tokens_per_second_per_replica"],
            "batch_per_replica": first["batch_per_replica"],
        },
        measured_on="2026-12-01",
        source_name="forged.json",
    )
    with django_capture_on_commit_callbacks(execute=False):
        v2 = _upload(client, v1, "run.json", _run(v1, 0.9))
    measured = measured_option(v2.result) or {}
    assert measured["measured"]["source"] == "run.json"
    client.force_login(operator_member(Role.SALES_ENGINEER))
    page = client.get(reverse("advisor:measurements_staff")).content.decode()
    row = re.search(r'<tr><th scope="row">[^<]*</th><td>vllm</td>.*?</tr>', page)
    assert row is not None and "inf" not in row.group(0)
    assert '<td class="text-end">1</td>' in row.group(0) and "0.90" in row.group(0)
