from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from advisor.reference.models import Catalog
from advisor.reference.services.catalog import catalog_import, catalog_publish

pytestmark = pytest.mark.django_db

RECORDED = Path(__file__).resolve().parents[2] / "fixtures" / "pricing"
TODAY = "2026-12-01"
SUMMARY = re.compile(
    r"(\d+) prices used, (\d+) stale, (\d+) undated, (\d+) of (\d+) \(([\d.]+)%\) stale or undated"
)


def _publish(dates: dict[str, str | None], default: str | None) -> Catalog:
    """The seeded catalog published again with every price dated `default`, except `dates`."""
    document = Catalog.objects.get(status=Catalog.Status.PUBLISHED).to_document()
    for price in document["prices"]:
        price["as_of"] = dates.get(price["id"], default)
    catalog = catalog_import(json_text=json.dumps(document), user=None)
    return catalog_publish(catalog=catalog, user=None)


def _run(*args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("price_freshness", "--today", TODAY, *args, stdout=out, stderr=StringIO())
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue()
    return 0, out.getvalue()


def _listed(output: str) -> dict[str, str]:
    return dict(re.findall(r"^  (\S+) (stale|undated) ", output, re.M))


def test_a_catalog_dated_this_month_has_no_stale_price_and_meets_the_goal() -> None:
    _publish({}, "2026-11-20")
    code, output = _run()
    used, stale, undated, old, total, share = SUMMARY.search(output).groups()  # type: ignore[union-attr]
    assert int(used) > 10 and (stale, undated, old, share) == ("0", "0", "0", "0.0")
    assert code == 0
    assert "6 sample teams" in output and "llm-fine-tuning-startup: 0 of" in output


def test_a_stale_row_counts_as_stale_and_an_undated_row_as_undated() -> None:
    _publish({}, None)
    code, output = _run("--list")
    every = _listed(output)
    assert code == 1 and set(every.values()) == {"undated"}
    old_row, undated_row = sorted(every)[:2]
    # 200 days before TODAY: older than the catalog's 180-day rule.
    _publish({old_row: "2026-05-15", undated_row: None}, "2026-11-20")
    code, output = _run("--list")
    assert _listed(output) == {old_row: "stale", undated_row: "undated"}
    used, stale, undated, old, total, _ = SUMMARY.search(output).groups()  # type: ignore[union-attr]
    assert (stale, undated, old, total) == ("1", "1", "2", used)
    assert code == (1 if 2 / int(used) > 0.10 else 0)


def test_a_row_dated_on_the_last_fresh_day_is_fresh() -> None:
    _publish({}, None)
    first = sorted(_listed(_run("--list")[1]))[0]
    _publish({first: "2026-06-04"}, "2026-11-20")  # exactly 180 days before TODAY
    assert first not in _listed(_run("--list")[1])


def test_after_refresh_measures_the_draft_the_recorded_price_lists_write() -> None:
    published = Catalog.objects.get(status=Catalog.Status.PUBLISHED)
    _code, output = _run("--after-refresh", "--recorded", str(RECORDED))
    before, after = SUMMARY.findall(output)
    assert output.startswith(f"Before refresh: {published} on {TODAY}")
    assert "After refresh: catalog v" in output and "refresh azure: done" in output
    assert "refresh aws: done" in output  # every region the catalog's AWS rows are in
    # The refresh re-dates the AWS and Azure rows; a seller the recorded lists do not cover
    # (RunPod's RTX 6000 Ada rows, dated 2026-01-01) stays stale, and is counted so.
    assert int(after[1]) < int(before[1])
    # The refreshed rows are dated the day of the refresh, which reports judge them on.
    assert float(after[5]) < float(before[5])
    draft = Catalog.objects.get(status=Catalog.Status.DRAFT)
    assert f"After refresh: {draft} on" in output
    assert Catalog.objects.get(status=Catalog.Status.PUBLISHED) == published


def test_bad_arguments_exit_2(tmp_path: Path) -> None:
    code, _ = _run("--after-refresh", "--recorded", str(tmp_path))
    assert code == 2
    with pytest.raises(CommandError, match="is not a date"):
        call_command("price_freshness", "--today", "2026-13-01", stderr=StringIO())
