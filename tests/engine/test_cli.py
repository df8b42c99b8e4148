from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from advisor.engine.cli import main
from tests.engine.conftest import SAMPLE, sample


def run(argv: list[str], stdin: str | bytes = "") -> tuple[int, str, str]:
    raw = stdin.encode() if isinstance(stdin, str) else stdin
    inp = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, inp, out, err)
    return code, out.getvalue(), err.getvalue()


def test_it_prints_the_result_as_json(sample_path: Path) -> None:
    code, out, err = run([str(sample_path)])
    assert code == 0 and err == ""
    assert json.loads(out)["recommendation"]["accelerator"] == "gpu"


def test_it_reads_stdin_and_prints_text_in_traditional_chinese() -> None:
    code, out, _ = run(["-", "--format", "text", "--lang", "zh-hant"], json.dumps(SAMPLE))
    assert code == 0 and "建議" in out and "記憶體" in out


def test_it_prints_the_schema() -> None:
    code, out, _ = run(["--schema"])
    assert code == 0 and json.loads(out)["$schema"].endswith("2020-12/schema")


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (
            json.dumps(sample(**{"cost.hours_per_day": "x"})),
            "cost.hours_per_day: Hours of use per day must be a number, not text",
        ),
        (
            json.dumps(sample(**{"cost.hours_per_day": 30})),
            "cost.hours_per_day: Hours of use per day must be at most 24 hours a day, not 30",
        ),
        (
            json.dumps(sample(**{"maturity.demand": "x"})),
            'maturity.demand: Demand cannot be "x"; choose from: unpredictable',
        ),
        (json.dumps(sample(**{"cost.tip": 1})), "cost.tip: unknown field"),
        (
            json.dumps(sample(**{"workloads.1.kind": "fine_tuning"})),
            "workloads[1].kind: Fine-tuning is already listed as workload 1",
        ),
        (json.dumps({"schema_version": 1}), "organization: Organisation is required"),
        ('{"schema_version": 1,\n  "cost": }', "invalid JSON at line 2, column 11"),
        (b'{"a": "\xff\xfe"}', "not valid UTF-8"),
        (b"[1, 2]", "must be a JSON object"),
        (b" " * 1_000_001, "larger than the 1 MB"),
        ('{"schema_version": NaN}', "NaN is not a number JSON allows"),
        ('{"schema_version": -Infinity}', "-Infinity is not a number JSON allows"),
        ('{"schema_version": 1e400}', "1e400 is not a finite number"),
        ('{"schema_version": 1' + "0" * 5000 + "}", "a number of 5001 digits is too long"),
    ],
)
def test_bad_input_exits_2_with_one_line_per_problem(payload: str | bytes, expected: str) -> None:
    code, out, err = run(["-"], payload)
    assert code == 2 and out == ""
    assert expected in err
    assert "Traceback" not in err


def test_a_10_mb_file_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b"{" + b" " * 10_000_000 + b"}")
    code, _, err = run([str(big)])
    assert code == 2 and "1 MB" in err


def test_a_missing_file_exits_2(tmp_path: Path) -> None:
    code, _, err = run([str(tmp_path / "nope.json"), "--lang", "zh-hant"])
    assert code == 2 and "找不到檔案" in err


def test_problems_are_printed_in_the_chosen_language() -> None:
    code, _, err = run(["-", "--lang", "zh-hant"], json.dumps(sample(**{"cost.hours_per_day": 30})))
    assert code == 2 and "cost.hours_per_day: 每日使用時數不得大於每天 24 小時（收到 30）" in err


def test_bad_arguments_exit_2_without_raising() -> None:
    code, _, err = run(["--format", "yaml", "x.json"])
    assert code == 2 and "invalid choice" in err


def _hostile(regions: int = 190_000, unknown_keys: int = 0) -> dict[str, object]:
    # The red team's body: a ~1 MB document whose regions hold 190,000 bad items, optionally
    # with many unknown keys in every section so that there are well over 50 problems.
    doc = sample()
    doc["organization"]["regions"] = ["x"] * regions
    for section in doc.values():
        if isinstance(section, dict):
            section.update({f"k{i}": 0 for i in range(unknown_keys)})
    return doc


def test_190000_bad_regions_are_one_problem_not_190000() -> None:
    payload = json.dumps(_hostile())
    assert len(payload) > 700_000
    code, out, err = run(["-"], payload)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert "organization.regions: Regions: at most 10 entries, not 190000" in lines
    assert len(lines) <= 12
    assert len(err) < 4_000


def test_more_than_50_problems_print_50_lines_and_how_many_more() -> None:
    payload = json.dumps(_hostile(regions=50_000, unknown_keys=2_000))
    code, _, err = run(["-", "--lang", "zh-hant"], payload)
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 51
    assert lines[-1].startswith("(document): ……另有 ") and lines[-1].endswith(" 個問題未列出")
    assert "另有 1990 個未知欄位" in err
    assert len(err) < 64_000
