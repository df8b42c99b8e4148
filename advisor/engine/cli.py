"""`assess FILE|- [--format json|text] [--lang en|zh-hant] [--schema]` as a plain function.

`main` never raises for bad input: it prints one `path: message` line per problem to stderr (the
first 50, then how many more) and returns 2. Django's `manage.py assess` is a thin wrapper.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import Any, NoReturn, TextIO

from advisor.engine.answers.parse import parse_answers
from advisor.engine.answers.problems import AnswersError, Problem, first_problems
from advisor.engine.answers.schema import answers_schema
from advisor.engine.catalog import Catalog, load_catalog
from advisor.engine.explain.summary import text_summary
from advisor.engine.ranking.scoring import ScoringModel, load_scoring_model
from advisor.engine.result.evaluate import evaluate
from advisor.engine.text import i18n

MAX_BYTES = 1_000_000  # 1 MB: an answers document is a few KB; anything larger is a mistake


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    # argparse exits the process on errors; raise instead so main() can return 2 cleanly.
    def error(self, message: str) -> NoReturn:
        raise _UsageError(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _UsageError(message or "")


def _parser() -> _Parser:
    p = _Parser(prog="assess", description="Assess an answers document (JSON).", add_help=False)
    p.add_argument("file", nargs="?", help="answers JSON file, or - for stdin")
    p.add_argument("--format", choices=("json", "text"), default="json")
    p.add_argument("--lang", choices=i18n.LANGS, default="en")
    p.add_argument("--schema", action="store_true", help="print the answers JSON Schema")
    p.add_argument("--today", help="date for flagging stale prices (YYYY-MM-DD)")
    p.add_argument("-h", "--help", action="store_true")
    return p


def _read(file: str, stdin: TextIO) -> bytes:
    if file == "-":
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            data: bytes = buffer.read(MAX_BYTES + 1)
            return data
        return stdin.read(MAX_BYTES + 1).encode("utf-8", "surrogatepass")
    path = Path(file)
    if not path.is_file():
        raise _InputProblem(Problem("", "file_not_found", {"file": file}))
    try:
        with path.open("rb") as fh:
            return fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise _InputProblem(
            Problem("", "file_unreadable", {"file": file, "detail": exc.strerror})
        ) from exc


class _InputProblem(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


# No answer needs a number this long; Python refuses ints over 4,300 digits with a ValueError.
MAX_NUMBER_CHARS = 40


class _NumberProblem(ValueError):
    """A number JSON allows in Python but no answers document can hold."""


def _refuse_constant(name: str) -> Any:
    raise _NumberProblem(f"{name} is not a number JSON allows")


def _bounded_int(text: str) -> int:
    if len(text) > MAX_NUMBER_CHARS:
        raise _NumberProblem(f"a number of {len(text)} digits is too long")
    return int(text)


def _finite_float(text: str) -> float:
    value = float(text) if len(text) <= MAX_NUMBER_CHARS else float("inf")
    if value != value or value in (float("inf"), float("-inf")):
        raise _NumberProblem(f"{text[:20]} is not a finite number")
    return value


def _decode(raw: bytes) -> Any:
    if len(raw) > MAX_BYTES:
        raise _InputProblem(Problem("", "file_too_large", {"limit": "1 MB (1,000,000 bytes)"}))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _InputProblem(Problem("", "invalid_utf8", {"position": exc.start})) from exc
    try:
        return json.loads(
            text.removeprefix("\ufeff"),
            parse_constant=_refuse_constant,
            parse_int=_bounded_int,
            parse_float=_finite_float,
        )
    except _NumberProblem as exc:
        raise _InputProblem(
            Problem("", "invalid_json", {"line": 1, "column": 1, "detail": str(exc)})
        ) from exc
    except json.JSONDecodeError as exc:
        raise _InputProblem(
            Problem(
                "", "invalid_json", {"line": exc.lineno, "column": exc.colno, "detail": exc.msg}
            )
        ) from exc
    except RecursionError as exc:
        raise _InputProblem(
            Problem("", "invalid_json", {"line": 1, "column": 1, "detail": "nested too deeply"})
        ) from exc


def _print_problems(problems: Sequence[Problem], lang: str, stderr: TextIO) -> None:
    shown, more = first_problems(problems)
    for p in shown:
        stderr.write(f"{p.path or '(document)'}: {p.message(lang)}\n")
    if more:
        stderr.write(f"(document): {i18n.message('problem.more', lang, count=more)}\n")


def main(
    argv: Sequence[str],
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    models: Callable[[], tuple[Catalog, ScoringModel]] | None = None,
    today: date | None = None,
) -> int:
    """Run the assess command; returns the exit code (0 ok, 2 bad input or usage).

    `models` supplies the catalog and scoring model (default: the bundled ones), `today` the
    date prices are judged stale against when --today is not given (default: the catalog's
    newest price date, so that the output is reproducible)."""
    parser = _parser()
    lang = "zh-hant" if "zh-hant" in argv else "en"
    try:
        args = parser.parse_args(list(argv))
    except _UsageError as exc:
        stderr.write(parser.format_usage())
        message = str(exc).strip()
        if message:
            stderr.write(f"(arguments): {i18n.message('problem.usage', lang, detail=message)}\n")
        return 2
    lang = args.lang
    if args.help:
        stdout.write(parser.format_help())
        return 0
    if args.schema:
        stdout.write(json.dumps(answers_schema(), indent=2, ensure_ascii=False) + "\n")
        return 0
    if args.file is None:
        stderr.write(parser.format_usage())
        stderr.write(
            "(arguments): "
            + i18n.message("problem.usage", lang, detail="FILE or - is required")
            + "\n"
        )
        return 2
    try:
        doc = _decode(_read(args.file, stdin))
        answers = parse_answers(doc) if isinstance(doc, dict) else _not_object(doc)
    except _InputProblem as exc:
        _print_problems([exc.problem], lang, stderr)
        return 2
    except AnswersError as exc:
        _print_problems(exc.problems, lang, stderr)
        return 2
    try:
        catalog, scoring = models() if models else (load_catalog(), load_scoring_model())
        result = evaluate(answers, catalog, scoring, lang=lang, today=args.today or today)
    except ValueError as exc:  # only a malformed --today reaches here
        stderr.write(f"--today: {exc}\n")
        return 2
    if args.format == "text":
        stdout.write(text_summary(result, lang))
    else:
        stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return 0


def _not_object(doc: Any) -> NoReturn:
    from advisor.engine.answers.problems import check_partial

    raise AnswersError(check_partial(doc))
