"""Re-run the independent serving model over every case and store its figures
(`python -m advisor.calibration.refresh`, with aiconfigurator installed beside the product in its
own environment; the product never imports it). Cases it cannot estimate are printed and left
out."""

from __future__ import annotations

import datetime
import json
import logging
import sys
from importlib.metadata import version
from typing import Any

from advisor.calibration import serving


def main() -> int:  # pragma: no cover - needs aiconfigurator
    logging.disable(logging.WARNING)
    cases: dict[str, dict[str, float]] = {}
    out: dict[str, Any] = {
        "source": f"aiconfigurator {version('aiconfigurator')} (github ai-dynamo/aiconfigurator, "
        "Apache-2.0), SILICON database, vLLM backend at its default database version",
        "as_of": datetime.date.today().isoformat(),
        "cases": cases,
    }
    for case in serving.CASES:
        try:
            cases[case.key] = serving.oracle(case)
        except Exception as exc:  # noqa: BLE001 - a case it cannot run is reported, not fatal
            print("left out", case.key, repr(exc)[:200], file=sys.stderr)
            continue
        print(case.key, cases[case.key], flush=True)
    serving.ORACLE.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
