"""`python -m advisor.calibration` prints the engine's speed against independent figures and
writes docs/calibration.md (`--check` only prints)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor.calibration import report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m advisor.calibration", description=__doc__)
    parser.add_argument("--check", action="store_true", help="print only; write nothing")
    parser.add_argument(
        "--out", type=Path, default=Path("docs/calibration.md"), help="where to write the page"
    )
    args = parser.parse_args(argv)
    text = report.markdown()
    sys.stdout.write(text)
    if not args.check:
        args.out.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
