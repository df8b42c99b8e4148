"""A serving benchmark's own result, pasted or uploaded for a report's first
option, re-plans it in a new version that says what changed; refused results name every
problem in the page's language and keep what was sent; measurements stay with their
organisation; operator staff see measured-vs-estimated ratios without customer names."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.engine.sizing.measured import MAX_BYTES
from advisor.models import Measurement, Report
from advisor.selectors.measurements import first_serving_option, measured_option
from advisor.services import pdfs, reports, sharing
from tests.factories import AssessmentFactory, MembershipFactory, ReportFactory, operator_member

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-TW"}
RECORDED = json.loads(
    (Path(__file__).parents[1] / "engine" / "data" / "vllm_bench_serve_h100.json").read_text()
)


@pytest.fixture
def owner(client: Client) -> Any:
    membership = MembershipFactory()
    client.force_login(membership.user)
    return membership


def _unwrap_dates(page: str) -> str:
    """The page's text with its dates' no-wrap spans (the nowrap_date filter) taken off."""
    return re.sub(r'<span class="report-nowrap text-nowrap">([^<]*)</span>', r"\1", page)


def _page(response: Any) -> str:
    """The page's text with the problems' code spans (the code_words filter) taken off."""
    return html.unescape(re.sub(r"</?code[^>]*>", "", response.content.decode()))


def _url(report: Report, name: str = "report_measure") -> str:
    return reverse(f"advisor:{name}", kwargs={"pk": report.assessment_id, "number": report.number})


def _half_of_the_estimate(report: Report) -> str:
    """A recorded vLLM result at the plan's concurrency, at half the estimated throughput."""
    first = first_serving_option(report.result)
    assert first is not None
    doc = RECORDED | {
        "max_concurrency": first["batch_per_replica"],
        "output_throughput": first["tokens_per_second_per_replica"] / 2,
    }
    return json.dumps(doc)


def _at_the_estimate(report: Report) -> str:
    first = first_serving_option(report.result) or {}
    doc = RECORDED | {
        "max_concurrency": first["batch_per_replica"],
        "output_throughput": first["tokens_per_second_per_replica"],
    }
    return json.dumps(doc)


def _busy_report(membership: Any, serving: str | None = None) -> Report:
    assessment = AssessmentFactory(membership=membership, submitted=True)
    assessment.answers["inference"]["tokens_per_day"] = 150_000_000
    if serving is not None:
        assessment.answers["frameworks"]["serving"] = serving
    assessment.save()
    return ReportFactory(assessment=assessment)


@pytest.mark.parametrize("headers", [{}, ZH], ids=["en", "zh-hant"])
def test_an_upload_makes_a_new_version_that_says_what_changed(
    client: Client, owner: Any, headers: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    upload = SimpleUploadedFile("h100-vllm.json", _half_of_the_estimate(v1).encode())
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(_url(v1), {"file": upload}, **headers)
    assert response.status_code == 302
    v2 = Report.objects.get(assessment=v1.assessment, number=2)
    assert response["Location"] == _url(v2, "report")
    assert (v2.based_on, v2.origin, v2.answers) == (v1, Report.Origin.REGENERATED, v1.answers)
    done = reports.report_generate(report_id=v2.pk)
    assert done is not None and done.status == Report.Status.DONE
    before = first_serving_option(v1.result)
    after = first_serving_option(done.result)
    assert before is not None and after is not None
    assert done.result is not None
    (run,) = done.result["measurements"]
    assert (run["source"], run["accelerator_id"]) == ("h100-vllm.json", before["accelerator_id"])
    page = html.unescape(client.get(_url(v2, "report"), **headers).content.decode())
    # The section is part of the report's body, in the report's language (English here) as the
    # rest of the body is, whatever the page's chrome.
    assert "Re-planned with measured figures" in page and "Compared with v1" in page
    assert "2026-12-01" in page and "h100-vllm.json" in page
    # The re-plan moved the plan: more devices or another card for the same load.
    assert (after["accelerator_id"], after["count"]) != (before["accelerator_id"], before["count"])
    row = Measurement.objects.get()
    assert (row.organization, row.report, row.created_by) == (
        owner.organization,
        v1,
        owner.user,
    )


@pytest.mark.parametrize(
    ("headers", "expected"),
    [({}, "This is neither JSON nor CSV"), (ZH, "這不是 JSON 或 CSV")],
    ids=["en", "zh-hant"],
)
def test_pasted_text_that_is_not_json_is_refused_and_kept(
    client: Client, owner: Any, headers: dict[str, str], expected: str
) -> None:
    v1 = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    pasted = "Output token throughput (tok/s):         434.40"
    response = client.post(_url(v1), {"text": pasted}, **headers)
    assert response.status_code == 400
    page = _page(response)
    assert expected in page and pasted in page
    assert not Measurement.objects.exists() and v1.assessment.reports.count() == 1


def test_a_wrong_result_names_every_problem_and_comes_back_in_the_box(
    client: Client, owner: Any
) -> None:
    v1 = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    doc = {k: v for k, v in RECORDED.items() if k not in ("output_throughput", "max_concurrency")}
    upload = SimpleUploadedFile("run.json", json.dumps(doc).encode())
    response = client.post(_url(v1), {"file": upload})
    assert response.status_code == 400
    raw = response.content.decode()
    # Options and fields are code that never wraps inside itself.
    assert '<code class="text-nowrap">--max-concurrency</code>' in raw
    assert '<code class="text-nowrap">max_concurrency</code> is missing' in raw
    page = html.unescape(re.sub(r"</?code[^>]*>", "", raw))
    assert "The result has no output_throughput." in page
    assert "max_concurrency is missing" in page
    assert '"mean_ttft_ms": 212.5' in page  # the uploaded text, in the box to fix
    assert not Measurement.objects.exists()


DATA = Path(__file__).parents[1] / "engine" / "data"


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_shared_page_and_the_pdf_show_the_measured_section(
    client: Client, owner: Any, language: str, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    v1.language = language
    v1.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(v1), {"text": _half_of_the_estimate(v1)})
    v2 = reports.report_generate(report_id=Report.objects.get(number=2).pk)
    assert v2 is not None and v2.status == Report.Status.DONE
    heading, compared = (
        ("以實測數據重新規劃", "與 v1 比較")
        if language == "zh-hant"
        else ("Re-planned with measured figures", "Compared with v1")
    )
    _link, token = sharing.share_link_create(report=v2, user=owner.user)
    client.logout()
    shared = html.unescape(client.get(reverse("advisor:shared", args=[token])).content.decode())
    assert heading in shared and compared in shared and "2026-12-01" in shared
    pdf = pdfs.report_pdf_render(report=v2)
    text = subprocess.run(
        ["pdftotext", "-layout", pdf.pdf.path, "-"], capture_output=True, text=True, check=True
    ).stdout
    assert heading in text and "2026-12-01" in text


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_regenerating_a_measured_version_keeps_its_measurements(
    client: Client, owner: Any, language: str, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(v1), {"text": _half_of_the_estimate(v1)})
    v2 = reports.report_generate(report_id=Report.objects.get(number=2).pk)
    assert v2 is not None and v2.result is not None
    # "Regenerate with the current model" on v2's page, in either language.
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            reverse("advisor:report_request", kwargs={"pk": v1.assessment_id}),
            {"language": language, "source": 2},
        )
    v3 = Report.objects.get(assessment=v1.assessment, number=3)
    assert response["Location"] == _url(v3, "report")
    assert (v3.based_on, v3.origin) == (v2, Report.Origin.REGENERATED)
    done = reports.report_generate(report_id=v3.pk)
    assert done is not None and done.result is not None
    assert done.result["measurements"] == v2.result["measurements"]

    def plan(report: Report) -> tuple[str, int]:
        first = first_serving_option(report.result) or {}
        return first["accelerator_id"], first["count"]

    # The re-plan is v2's (measured), not v1's (estimated).
    assert plan(done) == plan(v2) != plan(v1)
    headers = ZH if language == "zh-hant" else {}
    page = html.unescape(client.get(_url(v3, "report"), **headers).content.decode())
    if language == "zh-hant":
        assert "以實測數據重新規劃" in page and "此版本保留這些實測數據" in page
    else:
        assert "Re-planned with measured figures" in page and "this version keeps them" in page
    # Regenerating the estimated v1 stays estimated.
    with django_capture_on_commit_callbacks(execute=False):
        client.post(
            reverse("advisor:report_request", kwargs={"pk": v1.assessment_id}),
            {"language": "zh-hant", "source": 1},
        )
    v4 = reports.report_generate(report_id=Report.objects.get(number=4).pk)
    assert v4 is not None and v4.result is not None and "measurements" not in v4.result


@pytest.mark.parametrize("headers", [{}, ZH], ids=["en", "zh-hant"])
def test_an_sglang_jsonl_and_a_genai_perf_csv_each_make_a_version(
    client: Client, owner: Any, headers: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    # The JSONL records an SGLang server's run (--backend sglang): an SGLang team's.
    v1 = _busy_report(owner, serving="sglang")
    sglang = SimpleUploadedFile(
        "bench.jsonl", (DATA / "sglang_bench_serving_h100.jsonl").read_bytes()
    )
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(_url(v1), {"file": sglang}, **headers)
    assert response.status_code == 302
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(
            _url(v1),
            {"text": (DATA / "genai_perf_h100.csv").read_text(), "concurrency": "32"},
            **headers,
        )
    assert response.status_code == 302
    runs = Measurement.objects.order_by("created_at")
    assert [(r.figures["tool"], r.concurrency, r.source_name) for r in runs] == [
        ("sglang", 32, "bench.jsonl"),
        ("genai_perf_csv", 32, "貼上" if headers else "pasted"),
    ]
    # Neither file is dated: the run is dated the day it was pasted.
    assert all(r.measured_on == r.created_at.date() for r in runs)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, "genai-perf's CSV does not record the concurrency"),
        (ZH, "genai-perf 的 CSV 不會記錄並行數"),
    ],
    ids=["en", "zh-hant"],
)
def test_a_csv_without_its_concurrency_is_refused_and_kept(
    client: Client, owner: Any, headers: dict[str, str], expected: str
) -> None:
    v1 = _busy_report(owner)
    upload = SimpleUploadedFile(
        "profile_export_genai_perf.csv", (DATA / "genai_perf_h100.csv").read_bytes()
    )
    response = client.post(_url(v1), {"file": upload}, **headers)
    assert response.status_code == 400
    page = _page(response)
    assert expected in page and "Request Throughput (per sec),1.98" in page
    assert not Measurement.objects.exists()


def test_a_file_over_the_limit_is_refused_unread(client: Client, owner: Any) -> None:
    v1 = ReportFactory(assessment=AssessmentFactory(membership=owner, submitted=True))
    upload = SimpleUploadedFile("big.json", b" " * (MAX_BYTES + 10))
    response = client.post(_url(v1), {"file": upload}, **ZH)
    assert response.status_code == 400
    assert "檔案超過 512 KB" in _page(response)


def test_other_organisations_get_404_and_never_use_the_measurement(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(v1), {"text": _half_of_the_estimate(v1)})
    assert Measurement.objects.count() == 1
    stranger = MembershipFactory()
    client.force_login(stranger.user)
    assert client.get(_url(v1)).status_code == 404
    assert client.post(_url(v1), {"text": _half_of_the_estimate(v1)}).status_code == 404
    assert Measurement.objects.count() == 1
    # The stranger's own measurement of the same card and stack, at the estimate: their re-plan
    # uses theirs alone, never the owner's half-speed run.
    theirs = _busy_report(stranger)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(theirs), {"text": _at_the_estimate(theirs)})
    mine = Report.objects.get(assessment=v1.assessment, number=2)
    their_v2 = Report.objects.get(assessment=theirs.assessment, number=2)
    estimated = first_serving_option(theirs.result) or {}
    measured = measured_option(their_v2.result) or {}
    assert measured["tokens_per_second_per_replica"] == estimated["tokens_per_second_per_replica"]
    assert measured["count"] == estimated["count"]
    assert mine.result is not None and their_v2.result is not None
    assert [r["source"] for r in their_v2.result["measurements"]] == ["pasted"]


def test_staff_see_ratios_per_card_without_customer_names(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(v1), {"text": _half_of_the_estimate(v1)})
    url = reverse("advisor:measurements_staff")
    assert client.get(url).status_code == 404  # a customer
    client.force_login(operator_member(Role.SALES_ENGINEER))
    page = client.get(url).content.decode()
    first = first_serving_option(v1.result) or {}
    assert first["accelerator_id"] in page and "0.50" in page
    assert owner.organization.name not in page and v1.assessment.title not in page


def _sglang_jsonl(report: Report, ratio: float) -> str:
    """The recorded SGLang file (two runs), its newest at the plan's concurrency and at `ratio`
    of the estimated throughput per replica."""
    first = first_serving_option(report.result)
    assert first is not None
    older, newest = (DATA / "sglang_bench_serving_h100.jsonl").read_text().splitlines()
    run = json.loads(newest) | {
        "max_concurrency": first["batch_per_replica"],
        "output_throughput": first["tokens_per_second_per_replica"] * ratio,
    }
    return f"{older}\n{json.dumps(run)}\n"


@pytest.mark.parametrize("headers", [{}, ZH], ids=["en", "zh-hant"])
def test_an_sglang_teams_bench_serving_jsonl_recalibrates_its_plan(
    client: Client, owner: Any, headers: dict[str, str], django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner, serving="sglang")
    assert v1.result is not None
    # The pilot asked for SGLang's own client, which writes this file.
    commands = [
        c
        for w in v1.result["workloads"]
        for run in (w.get("pilot") or {}).get("runs", ())
        for c in run["commands"]
    ]
    assert any(c.startswith("python -m sglang.bench_serving --backend sglang ") for c in commands)
    before = first_serving_option(v1.result)
    assert before is not None
    name = f"pilot-c{before['batch_per_replica']}.jsonl"
    upload = SimpleUploadedFile(name, _sglang_jsonl(v1, 0.5).encode())
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post(_url(v1), {"file": upload}, **headers)
    assert response.status_code == 302
    done = reports.report_generate(report_id=Report.objects.get(number=2).pk)
    assert done is not None and done.result is not None
    (run,) = done.result["measurements"]
    assert (run["source"], run["accelerator_id"]) == (name, before["accelerator_id"])
    after = first_serving_option(done.result)
    assert after is not None
    # Half the estimated throughput: more devices or another card for the same load.
    assert (after["accelerator_id"], after["count"]) != (before["accelerator_id"], before["count"])
    row = Measurement.objects.get()
    assert (row.serving, row.figures["tool"], row.concurrency) == (
        "sglang",
        "sglang",
        before["batch_per_replica"],
    )
    page = _unwrap_dates(
        html.unescape(client.get(_url(done, "report"), **headers).content.decode())
    )
    assert (
        "Re-planned with measured figures" in page and f"with SGLang on {row.measured_on}" in page
    )


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, "This run measured another serving stack's server (bench_serving --backend sglang)"),
        (ZH, "這次執行量測的是另一個服務堆疊的伺服器（bench_serving --backend sglang）"),
    ],
    ids=["en", "zh-hant"],
)
def test_an_sglang_servers_run_is_refused_for_a_vllm_plan_and_kept(
    client: Client, owner: Any, headers: dict[str, str], expected: str
) -> None:
    v1 = _busy_report(owner)
    assert (v1.answers["frameworks"]["serving"], v1.assessment.reports.count()) == ("vllm", 1)
    pasted = _sglang_jsonl(v1, 0.5)
    response = client.post(_url(v1), {"text": pasted}, **headers)
    assert response.status_code == 400
    page = _page(response)
    assert expected in page and '"backend": "sglang"' in page
    assert not Measurement.objects.exists() and v1.assessment.reports.count() == 1


@pytest.mark.parametrize(
    ("serving", "headers", "said"),
    [
        ("vllm", {}, "then paste or upload the file it saved at {c} concurrent requests"),
        ("sglang", ZH, "然後貼上或上傳它在同時 {c} 個請求時儲存的檔案"),
    ],
    ids=["vllm-en", "sglang-zh-hant"],
)
def test_the_measurements_page_names_the_file_the_pilot_saved(
    client: Client, owner: Any, serving: str, headers: dict[str, str], said: str
) -> None:
    v1 = _busy_report(owner, serving=serving)
    first = first_serving_option(v1.result) or {}
    c = first["batch_per_replica"]
    name = f"pilot-c{c}.jsonl" if serving == "sglang" else f"pilot-c{c}.json"
    # The name the pilot's own commands give the file at the plan's concurrency.
    assert v1.result is not None
    commands = [
        cmd
        for w in v1.result["workloads"]
        for run in (w.get("pilot") or {}).get("runs", ())
        for cmd in run["commands"]
    ]
    assert any(cmd.endswith(f" {name}") for cmd in commands)
    page = html.unescape(client.get(_url(v1), **headers).content.decode())
    assert said.format(c=c) in page and f"<code>{name}</code>" in page


@pytest.mark.parametrize(
    ("headers", "said", "same"),
    [
        (
            {},
            "v2 was re-planned with a measured run: {card} with vLLM, measured on 2026-12-01 "
            "(pasted, {c} concurrent requests). Output tokens per second per replica: "
            "estimated {est}, measured {got}.",
            "The answers were the same; the change comes from the measured run.",
        ),
        (
            ZH,
            "v2 已依一次實測重新規劃：於 2026-12-01 在 {card} 上以 vLLM 實測（貼上，同時 {c} "
            "個請求）。每副本每秒輸出 token 數：估計 {est}，實測 {got}。",
            "答案相同；改變來自這次實測。",
        ),
    ],
    ids=["en", "zh-hant"],
)
def test_compare_names_the_measured_run_that_moved_the_plan(
    client: Client,
    owner: Any,
    headers: dict[str, str],
    said: str,
    same: str,
    django_capture_on_commit_callbacks: Any,
) -> None:
    v1 = _busy_report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(v1), {"text": _half_of_the_estimate(v1)}, **headers)
    v2 = reports.report_generate(report_id=Report.objects.get(number=2).pk)
    assert v2 is not None and v2.status == Report.Status.DONE
    first = first_serving_option(v1.result) or {}
    est = first["tokens_per_second_per_replica"]
    assert est >= 1000  # so that the thousands separator shows
    url = reverse("advisor:compare", kwargs={"pk": v1.assessment_id})
    page = _unwrap_dates(html.unescape(client.get(f"{url}?a=1&b=2", **headers).content.decode()))
    expected = said.format(
        card=first["name"], c=first["batch_per_replica"], est=f"{est:,.1f}", got=f"{est / 2:,.1f}"
    )
    assert expected in page and same in page
    # Two estimated versions name no measured run.
    with django_capture_on_commit_callbacks(execute=False):
        client.post(
            reverse("advisor:report_request", kwargs={"pk": v1.assessment_id}),
            {"language": "en", "source": 1},
        )
    assert reports.report_generate(report_id=Report.objects.get(number=3).pk) is not None
    page = client.get(f"{url}?a=1&b=3", **headers).content.decode()
    assert 'id="compare-measured"' not in page and same not in html.unescape(page)


def test_the_measured_section_writes_figures_as_the_report_does(
    client: Client, owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    v1 = _busy_report(owner)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(_url(v1), {"text": _half_of_the_estimate(v1)})
    v2 = reports.report_generate(report_id=Report.objects.get(number=2).pk)
    assert v2 is not None
    est = (first_serving_option(v1.result) or {})["tokens_per_second_per_replica"]
    assert est >= 1000
    page = html.unescape(client.get(_url(v2, "report")).content.decode())
    section = page[page.index('id="measured"') : page.index('id="report-summary"')]
    # Thousands separators, as everywhere in the report (it printed "3257.7").
    assert f"estimated {est:,.1f}, measured {est / 2:,.1f}." in section
    assert not re.search(r"\d{4}\.\d", section)


def test_a_problem_sets_options_files_and_fields_as_code_and_escapes_the_rest() -> None:
    from advisor.templatetags.advisor_tags import code_words

    said = code_words("<b>run</b> with --max-concurrency; profile_export_genai_perf.csv, e.g.")
    assert said == (
        '&lt;b&gt;run&lt;/b&gt; with <code class="text-nowrap">--max-concurrency</code>; '
        '<code class="text-nowrap">profile_export_genai_perf.csv</code>, e.g.'
    )
    assert code_words(None) == ""
