from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from advisor.engine.cli import main


def _published() -> tuple[Any, Any]:
    from advisor.decisions import live

    return live.active_both()


class Command(BaseCommand):
    help = (
        "Evaluate an answers document: assess FILE|- [--format json|text] [--lang en|zh-hant]; "
        "--schema prints the answers JSON Schema. Exit code 2 on invalid input. Uses the "
        "published catalog and scoring model, and today's date for stale prices."
    )

    def run_from_argv(self, argv: list[str]) -> None:
        # The engine's CLI owns argument parsing and exit codes (2 for bad input, no
        # traceback), so Django's parser is bypassed.
        code = main(
            argv[2:],
            sys.stdin,
            sys.stdout,
            sys.stderr,
            models=_published,
            today=timezone.localdate(),
        )
        sys.stdout.flush()
        raise SystemExit(code)

    def handle(self, *args: Any, **options: Any) -> None:  # pragma: no cover - see run_from_argv
        raise SystemExit(main(list(args), sys.stdin, sys.stdout, sys.stderr))
