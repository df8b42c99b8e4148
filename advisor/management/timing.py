"""What the benchmark commands share: counting a request's SQL queries, timing it and
profiling it in this process."""

from __future__ import annotations

import cProfile
import io
import pstats
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection


@contextmanager
def counting() -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements run inside the block, each with its parameters."""
    statements: list[tuple[str, Any]] = []

    def record(execute: Any, sql: str, params: Any, *args: Any) -> Any:
        statements.append((sql, params))
        return execute(sql, params, *args)

    with connection.execute_wrapper(record):
        yield statements


def repeats(statements: list[tuple[str, Any]]) -> dict[str, int]:
    """What a page runs more than once: `duplicates`, the same statement with the same
    parameters again, and `most_alike`, the largest number of one statement with any
    parameters (an N+1 shows as a statement run once per row)."""
    exact = Counter((sql, repr(params)) for sql, params in statements)
    alike = Counter(sql for sql, _params in statements)
    return {
        "duplicates": sum(n - 1 for n in exact.values()),
        "most_alike": max(alike.values(), default=0),
    }


def repeated(statements: list[tuple[str, Any]]) -> list[tuple[int, str]]:
    """The statements run more than once (with any parameters), most often first."""
    alike = Counter(sql for sql, _params in statements)
    return [(n, sql) for sql, n in alike.most_common() if n > 1]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def timed(
    request: Callable[[], Any],
    n: int,
    *,
    before: Callable[[], Any] | None = None,
    after: Callable[[], Any] | None = None,
) -> dict[str, float]:
    """Median and p95 wall milliseconds, median CPU milliseconds of `request` over n calls,
    one at a time in this process (`before` and `after` run untimed around each)."""
    wall, cpu = [], []
    for _ in range(n):
        if before is not None:
            before()
        w, c = time.perf_counter(), time.process_time()
        request()
        wall.append(time.perf_counter() - w)
        cpu.append(time.process_time() - c)
        if after is not None:
            after()
    return {
        "ms": statistics.median(wall) * 1000,
        "p95_ms": percentile(wall, 0.95) * 1000,
        "cpu_ms": statistics.median(cpu) * 1000,
    }


def profiled(
    request: Callable[[], Any],
    n: int,
    *,
    before: Callable[[], Any] | None = None,
    after: Callable[[], Any] | None = None,
    top: int = 25,
) -> str:
    """cProfile of n calls of `request`: the functions with the most time of their own, then
    the calls of this project's code with the most cumulative time."""
    profile = cProfile.Profile()
    for _ in range(n):
        if before is not None:
            before()
        profile.enable()
        request()
        profile.disable()
        if after is not None:
            after()
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(r"/(advisor|accounts|templates)/", top)
    return out.getvalue()
