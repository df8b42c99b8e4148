from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Role
from advisor.celery import app as celery_app
from advisor.reference.management.commands.refresh_prices import Command
from advisor.reference.models import Catalog, ImpactPreview, PriceRefresh
from advisor.reference.prices.azure import azure_url
from advisor.reference.prices.base import RecordedTransport, RecordingTransport
from advisor.reference.services.catalog import catalog_diff, catalog_import, catalog_publish
from advisor.reference.services.prices import price_refresh
from tests.reference.scoring.conftest import member_with_role

pytestmark = pytest.mark.django_db

RECORDED = Path(__file__).resolve().parents[2] / "fixtures" / "pricing"
# The catalog's cloud rows the tests refresh, with their figures before: (id, accelerator,
# cloud, billing, region, USD per device-hour).
ROWS = [
    ("t-aws-t4", "nvidia-t4", "aws", "on_demand", "us-east-1", 0.526),
    ("t-aws-h100", "nvidia-h100-sxm", "aws", "on_demand", "us-east-1", 6.88),
    ("t-aws-l4-1y", "nvidia-l4", "aws", "commit_1y", "us-east-1", 0.52392),
    ("t-aws-h100-block", "nvidia-h100-sxm", "aws", "reserved_block", "us-east-1", 4.916),
    ("t-az-h100", "nvidia-h100-sxm", "azure", "on_demand", "", 12.29),
    ("t-az-a100-1y", "nvidia-a100-80gb", "azure", "commit_1y", "", 3.53),
    ("t-gcp-h100-hk", "nvidia-h100-sxm", "gcp", "on_demand", "asia-east2 (Hong Kong)", 15.44901),
    ("t-gcp-v6e-spot", "tpu-v6e", "gcp", "spot", "us-central1", 0.648),
    ("t-gcp-v4-3y", "tpu-v4", "gcp", "commit_3y", "us-central2", 1.45),
]
# The AWS rows' instances, as catalog units (what the AWS source prices them by) and GPUs in each.
AWS_UNITS = {
    "t-aws-t4": ("aws:g4dn.xlarge", 1),
    "t-aws-h100": ("aws:p5.48xlarge", 8),
    "t-aws-l4-1y": ("aws:g6.xlarge", 1),
    "t-aws-h100-block": ("aws:p5.48xlarge", 8),
}


@pytest.fixture
def published(db: None) -> Catalog:
    """The published catalog with known cloud rows (undated, from a research note) and its
    other providers' rows as they are."""
    seeded = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    document = seeded.to_document()
    prices = [p for p in document["prices"] if p["cloud"] == "other"]
    template = prices[0]
    for key, accelerator, cloud, billing, region, usd in ROWS:
        prices.append(
            {
                **template,
                "id": key,
                "accelerator_id": accelerator,
                "provider": {"aws": "AWS", "azure": "Azure", "gcp": "Google Cloud"}[cloud],
                "cloud": cloud,
                "billing": billing,
                "usd_per_device_hour": usd,
                "usd_per_device_month": None,
                "region": region or None,
                "region_key": None,
                "source": "a research note",
                "as_of": None,
                "derived": False,
                "estimated": False,
                "note": None,
                "setup_fee_usd": None,
                "min_term_months": None,
                "unit": None,
                "unit_id": AWS_UNITS.get(key, (None, 1))[0],
                "gpus_per_unit": AWS_UNITS.get(key, (None, 1))[1],
            }
        )
    document["prices"] = prices
    catalog = catalog_import(json_text=json.dumps(document), user=None)
    return catalog_publish(catalog=catalog, user=None)


@pytest.fixture
def google_key(settings: Any) -> None:
    settings.GCP_BILLING_API_KEY = "recorded-key"


def _refresh(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """manage.py refresh_prices ARGS as the command line runs it (argparse's exit 2 included),
    without run_from_argv closing the test's database connection."""
    command = Command()
    command._called_from_command_line = True
    code: int | str | None = 0
    try:
        options = vars(command.create_parser("manage.py", "refresh_prices").parse_args(args))
        command.execute(*options.pop("args", ()), **options)
    except SystemExit as exit_code:
        code = exit_code.code
    captured = capsys.readouterr()
    assert isinstance(code, int)
    return code, captured.out, captured.err


def _recorded(tmp_path: Path, **overrides: Any) -> Path:
    """A copy of the recorded responses with some answers replaced (file contents or
    {"error": ...} for a failure the recording stands for)."""
    manifest = json.loads((RECORDED / "manifest.json").read_text())
    manifest = {url: str(RECORDED / name) for url, name in manifest.items()}
    for name, replacement in overrides.items():
        url = next(u for u, f in manifest.items() if f.endswith(name))
        if isinstance(replacement, str):
            (tmp_path / name).write_text(replacement)
            manifest[url] = str(tmp_path / name)
        else:
            manifest[url] = replacement
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    return tmp_path


def _prices(catalog: Catalog) -> dict[str, Any]:
    return {p.key: p for p in catalog.prices.all()}


def _admin(client: Client) -> Client:
    client.force_login(member_with_role(Role.ADMIN))
    return client


def test_a_refresh_from_recorded_responses_writes_a_draft_with_new_prices_and_sources(
    published: Catalog, google_key: None, capsys: pytest.CaptureFixture[str]
) -> None:
    before = published.to_document()
    code, out, _ = _refresh(capsys, "--recorded", str(RECORDED))
    assert code == 0, out
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    today = timezone.localdate()
    prices = _prices(draft)
    # p5.48xlarge at $55.04 an hour for 8 GPUs; L4 1-year no-upfront reserved at $0.5069.
    assert prices["t-aws-h100"].usd_per_device_hour == Decimal("6.88")
    assert prices["t-aws-l4-1y"].usd_per_device_hour == Decimal("0.5069")
    assert "AWS EC2 price list" in prices["t-aws-h100"].source
    assert "p5.48xlarge" in prices["t-aws-h100"].source
    # Azure's reservation is priced for its whole term: $20,191 a year.
    assert prices["t-az-a100-1y"].usd_per_device_hour == Decimal("2.304909")
    assert prices["t-az-a100-1y"].region == "eastus"
    assert "Azure Retail Prices API" in prices["t-az-a100-1y"].source
    assert prices["t-gcp-v4-3y"].usd_per_device_hour == Decimal("1.449")
    assert "a3-highgpu-8g asia-east2" in prices["t-gcp-h100-hk"].source
    for key, *_ in ROWS:
        if key != "t-aws-h100-block":  # Capacity Blocks are not in the price list
            assert prices[key].as_of == today, key
    assert prices["t-aws-h100-block"].as_of is None
    assert prices["t-aws-h100-block"].source == "a research note"
    # The published catalog is as it was, and the draft waits for an admin.
    published.refresh_from_db()
    assert published.status == Catalog.Status.PUBLISHED
    assert published.to_document() == before
    runs = {r.source: r for r in PriceRefresh.objects.all()}
    assert {r.status for r in runs.values()} == {PriceRefresh.Status.DONE}
    assert {r.draft for r in runs.values()} == {draft}
    assert runs["azure"].prices_changed == 1
    assert ImpactPreview.objects.filter(catalog=draft).exists()
    assert f"draft {draft}" in out


def test_the_admin_sees_the_refresh_draft_its_diff_and_the_last_success(
    published: Catalog, google_key: None, client: Client, capsys: pytest.CaptureFixture[str]
) -> None:
    _refresh(capsys, "--recorded", str(RECORDED))
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    admin = _admin(client)
    page = admin.get(reverse("admin:reference_catalog_changelist")).content.decode()
    assert 'id="price-refreshes"' in page
    # One link per source that wrote the draft: Azure, AWS, Google Cloud and SkyPilot (Nebius).
    assert page.count(reverse("admin:reference_catalog_diff", args=[draft.pk])) == 4
    diff = admin.get(reverse("admin:reference_catalog_diff", args=[draft.pk])).content.decode()
    assert "t-az-a100-1y" in diff and "2.304909" in diff


@pytest.mark.parametrize(
    ("source", "overrides", "expected"),
    [
        (
            "azure",
            {"azure_Standard_NC24ads_A100_v4_eastus.json": (RECORDED / "azure_malformed.json")},
            "Items[0].retailPrice is missing or not a number",
        ),
        ("aws", {"aws_region_index.json": {"error": "no answer in 60 s"}}, "no answer in 60 s"),
        ("aws", {"aws_ec2_us-east-1.csv": "cut"}, "line 41 has 9 fields, not 78"),
        ("gcp", {"gcp_compute_page1.json": "last page"}, "(partial answer?)"),
        ("gcp", {"gcp_compute_page2.json": "not json"}, "not JSON"),
    ],
)
def test_a_failed_source_writes_no_draft_and_shows_with_the_last_success(
    published: Catalog,
    google_key: None,
    client: Client,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    source: str,
    overrides: dict[str, Any],
    expected: str,
) -> None:
    code, _, _ = _refresh(capsys, "--recorded", str(RECORDED), "--source", source)
    assert code == 0
    first = Catalog.objects.get(status=Catalog.Status.DRAFT)
    before = published.to_document()
    for name, value in list(overrides.items()):
        if isinstance(value, Path):
            overrides[name] = value.read_text()
        elif value == "cut":  # the file broke off in the middle of a line
            lines = (RECORDED / name).read_text().splitlines(keepends=True)
            overrides[name] = "".join(lines[:40]) + lines[40][:120]
        elif value == "last page":  # a first page that claims to be the only one
            page = json.loads((RECORDED / name).read_text())
            overrides[name] = json.dumps({**page, "nextPageToken": ""})
    code, out, _ = _refresh(
        capsys, "--recorded", str(_recorded(tmp_path, **overrides)), "--source", source
    )
    assert code == 1
    assert expected in out
    assert list(Catalog.objects.filter(status=Catalog.Status.DRAFT)) == [first]
    published.refresh_from_db()
    assert published.to_document() == before
    page = _admin(client).get(reverse("admin:reference_catalog_changelist")).content.decode()
    table = page.split('id="price-refreshes"', 1)[1]
    assert "Failed" in table and expected.replace('"', "&quot;") in table
    success = PriceRefresh.objects.get(source=source, status=PriceRefresh.Status.DONE)
    assert f"{success.finished_at:%Y-%m-%d %H:%M}" in table
    assert reverse("admin:reference_catalog_diff", args=[first.pk]) in table


def test_an_implausible_price_is_refused_with_the_row_named(
    published: Catalog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = (RECORDED / "aws_ec2_us-east-1.csv").read_text()
    tenfold = recorded.replace('"55.04"', '"550.40"')
    assert tenfold != recorded
    code, out, _ = _refresh(
        capsys,
        "--recorded",
        str(_recorded(tmp_path, **{"aws_ec2_us-east-1.csv": tenfold})),
        "--source",
        "aws",
    )
    assert code == 1
    assert "Price t-aws-h100" in out and "more than a 5x change" in out
    assert not Catalog.objects.filter(status=Catalog.Status.DRAFT).exists()


def test_google_cloud_without_a_key_is_skipped_with_a_clear_status(
    published: Catalog, settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.GCP_BILLING_API_KEY = ""
    code, out, _ = _refresh(capsys, "--recorded", str(RECORDED), "--source", "gcp")
    assert code == 0
    assert "gcp: skipped" in out and "GCP_BILLING_API_KEY" in out
    assert not Catalog.objects.filter(status=Catalog.Status.DRAFT).exists()
    run = PriceRefresh.objects.get()
    assert run.status == PriceRefresh.Status.SKIPPED and run.draft is None


def test_the_beat_schedule_names_the_refresh_task() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["refresh-public-prices"]
    assert entry["task"] == "advisor.refresh_prices"
    assert entry["schedule"] == 24 * 3600
    celery_app.loader.import_default_modules()
    assert "advisor.refresh_prices" in celery_app.tasks


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--source", "oracle"], "invalid choice: 'oracle'"),
        (["--timeout", "0"], "must be 1 to 600 seconds"),
        (["--timeout", "soon"], "'soon' is not a whole number of seconds"),
        (["--recorded", "{empty}"], "holds no manifest.json"),
        (["--recorded", "{recorded}", "--record", "{empty}"], "cannot be used together"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_error(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.format(empty=tmp_path, recorded=RECORDED) for a in args]
    code, out, err = _refresh(capsys, *args)
    assert code == 2
    assert message in err
    assert not PriceRefresh.objects.exists()


def test_the_refresh_table_and_its_messages_read_in_traditional_chinese(
    published: Catalog, settings: Any, client: Client
) -> None:
    settings.GCP_BILLING_API_KEY = ""
    malformed = {
        azure_url("Standard_NC24ads_A100_v4", "eastus"): str(RECORDED / "azure_malformed.json")
    }
    with translation.override("zh-hant"):
        price_refresh(sources=["gcp", "azure"], transport=RecordedTransport(RECORDED, malformed))
    page = (
        _admin(client)
        .get(reverse("admin:reference_catalog_changelist"), HTTP_ACCEPT_LANGUAGE="zh-TW")
        .content.decode()
    )
    table = page.split('id="price-refreshes"', 1)[1]
    assert "公開價目表" in page and "最近一次成功更新" in table and "已略過" in table
    assert "未擷取 Google Cloud 價格" in table
    assert "Items[0].retailPrice 缺少或不是數字" in table


def test_one_failed_source_leaves_its_rows_and_the_others_still_make_the_draft(
    published: Catalog, google_key: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    malformed = (RECORDED / "azure_malformed.json").read_text()
    recorded = _recorded(tmp_path, **{"azure_Standard_ND96isr_H100_v5_eastus.json": malformed})
    code, out, _ = _refresh(capsys, "--recorded", str(recorded))
    assert code == 1
    assert "azure: failed" in out and "aws: done" in out and "gcp: done" in out
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    prices = _prices(draft)
    assert prices["t-az-a100-1y"].usd_per_device_hour == Decimal("3.53")
    assert prices["t-az-a100-1y"].as_of is None
    assert prices["t-aws-l4-1y"].as_of == timezone.localdate()
    assert PriceRefresh.objects.get(source="azure").draft is None
    assert "Azure" not in draft.description and "AWS Price List" in draft.description


def test_a_recording_replays_to_the_same_draft_and_keeps_no_api_key(
    published: Catalog, tmp_path: Path
) -> None:
    recording = RecordingTransport(RecordedTransport(RECORDED), tmp_path / "new")
    price_refresh(sources=["azure", "aws", "gcp"], transport=recording, api_key="secret-key-123")
    first = Catalog.objects.get(status=Catalog.Status.DRAFT)
    files = list((tmp_path / "new").iterdir())
    # Every answer the refresh read (the H200 size is not in this catalog), and its manifest.
    assert len(files) == len(json.loads((tmp_path / "new" / "manifest.json").read_text())) + 1 == 9
    assert not any("secret-key-123" in f.read_text() for f in files)
    price_refresh(
        sources=["azure", "aws", "gcp"],
        transport=RecordedTransport(tmp_path / "new"),
        api_key="another-key",
    )
    second = Catalog.objects.filter(status=Catalog.Status.DRAFT).exclude(pk=first.pk).get()
    rows = catalog_diff(old=first, new=second)["rows"]
    assert [r for r in rows if r["section"] != "catalog"] == []
    dated_before = published.prices.filter(as_of=timezone.localdate()).values("key")
    refreshed = second.prices.filter(as_of=timezone.localdate()).exclude(key__in=dated_before)
    assert refreshed.count() == 8


def test_regional_aws_rows_are_priced_from_their_region_their_instance_and_their_local_zone(
    google_key: None, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _refresh(capsys, "--recorded", str(RECORDED))
    assert code == 0, out
    prices = _prices(Catalog.objects.get(status=Catalog.Status.DRAFT))
    # Hong Kong's g5.12xlarge (4 × A10G), 1-year no-upfront reserved: $5.5014 an hour a server,
    # where the catalog had it per month.
    hk = prices["rg17"]
    assert hk.usd_per_device_hour == Decimal("1.37535") and hk.usd_per_device_month is None
    assert "ap-east-1 offer" in hk.source and "g5.12xlarge" in hk.source
    assert hk.as_of == timezone.localdate()
    # Tokyo's 1-GPU p5.4xlarge is its own instance, not an eighth of a p5.48xlarge.
    assert "p5.4xlarge" in prices["rg02"].source and "÷" not in prices["rg02"].source
    # The Los Angeles Local Zone's g5.4xlarge is in us-west-2's file under its own Region Code,
    # beside Oregon's cheaper one.
    la = prices["rg22"]
    assert la.usd_per_device_hour == Decimal("2.231")
    assert "us-west-2 offer" in la.source and "in us-west-2-lax-1" in la.source
    assert la.region.startswith("us-west-2-lax-1")
