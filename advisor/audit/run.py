"""`make audit`: generated teams through the engine and the report, every invariant counted.

    AUDIT_TEAMS=2000 AUDIT_SEED=12345 python -m advisor.audit.run

Prints one row per invariant (violations, teams, one shrunk example team as JSON), writes
docs/audit.md and ends with exactly `audit: N teams, V violations`; the exit code is 1 when V > 0.
AUDIT_JOBS sets the worker processes (default: the CPU count), AUDIT_SHRINK_SECONDS the time
Hypothesis may spend shrinking one invariant's example (default 30), AUDIT_SAVE=1 saves each
shrunk example under tests/audit/cases/ as a regression case.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings

from advisor.audit import invariants
from advisor.audit.teams import teams

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "tests" / "audit" / "cases"
OPERATOR = "Harbour GPU Cloud"  # the seed's operator (management/commands/seed.py)
HISTORY = "## History"


# ---------------------------------------------------------------------------- one team's case


class _Text(HTMLParser):
    """The visible text of a report's HTML, one block element a line."""

    BLOCKS = frozenset({"p", "li", "div", "dt", "dd", "h1", "h2", "h3", "tr", "section", "br"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "svg"):
            self._skip += 1
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "svg") and self._skip:
            self._skip -= 1
        if tag in ("dt", "th", "td"):
            self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    lines = (" ".join(line.split()) for line in "".join(parser.parts).splitlines())
    return "\n".join(line for line in lines if line)


def page_one(body_html: str) -> str:
    """The executive summary (the report's page one) as text."""
    start = body_html.find('id="report-summary"')
    end = body_html.find("</section>", start)
    return html_text(body_html[start:end]) if start >= 0 else ""


_STATE: dict[str, Any] = {}


def setup() -> None:
    """Django (for the report's templates and translations) and the catalog as the site runs
    it: the bundled one with the operator's demo servers, as `manage.py seed` publishes it."""
    if _STATE:
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "advisor.settings")
    os.environ.setdefault("DEBUG", "true")
    import django

    django.setup()
    from advisor.demo_offers import house_offers
    from advisor.engine import load_catalog, load_scoring_model

    document = load_catalog().to_dict()
    document["prices"] += house_offers(OPERATOR)
    _STATE["catalog"] = load_catalog(document)
    _STATE["scoring"] = load_scoring_model()


def build_case(doc: dict[str, Any]) -> invariants.Case:
    """The team's report in both languages: result documents, page one and the text summary."""
    setup()
    from advisor.engine import evaluate, parse_answers
    from advisor.engine.explain.summary import text_summary
    from advisor.reporting.render import render_report_html

    answers = parse_answers(doc)
    results, pages, summaries, bodies = {}, {}, {}, {}
    for lang in invariants.LANGS:
        result = evaluate(answers, _STATE["catalog"], _STATE["scoring"], lang=lang)
        body, _document = render_report_html(
            result=result,
            title="Audit",
            organization="",
            language=lang,
            generated_at=datetime(2026, 12, 1, tzinfo=UTC),
        )
        results[lang] = result
        pages[lang] = page_one(body)
        summaries[lang] = text_summary(result, lang)
        bodies[lang] = html_text(body)
    return invariants.Case(doc, results, pages, summaries, bodies)


def violations(doc: dict[str, Any]) -> list[invariants.Violation]:
    return invariants.check(build_case(doc))


# --------------------------------------------------------------------------------- the run


@dataclass
class Tally:
    violations: Counter[str] = field(default_factory=Counter)
    teams: Counter[str] = field(default_factory=Counter)
    first: dict[str, tuple[int, invariants.Violation]] = field(default_factory=dict)


def generate(n: int, audit_seed: int) -> list[dict[str, Any]]:
    """The first n teams Hypothesis draws under the seed (the same n under the same seed)."""
    drawn: list[dict[str, Any]] = []

    @seed(audit_seed)
    @_settings(n, [Phase.generate])
    @given(teams())
    def collect(doc: dict[str, Any]) -> None:
        drawn.append(doc)

    collect()
    return drawn[:n]


def _settings(n: int, phases: Sequence[Phase]) -> Callable[[Any], Any]:
    return settings(
        max_examples=n,
        phases=phases,
        database=None,
        deadline=None,
        derandomize=False,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )


def _check_chunk(
    chunk: list[tuple[int, dict[str, Any]]],
) -> list[tuple[int, list[invariants.Violation]]]:
    return [(i, violations(doc)) for i, doc in chunk]


def tally(docs: list[dict[str, Any]], jobs: int) -> Tally:
    out = Tally()
    indexed = list(enumerate(docs))
    size = max(1, min(50, len(indexed) // (jobs * 4) or 1))
    chunks = [indexed[i : i + size] for i in range(0, len(indexed), size)]
    for chunk_result in _map(_check_chunk, chunks, jobs):
        for i, found in chunk_result:
            for inv in sorted({v.invariant for v in found}):
                out.teams[inv] += 1
            for v in found:
                out.violations[v.invariant] += 1
                if v.invariant not in out.first or i < out.first[v.invariant][0]:
                    out.first[v.invariant] = (i, v)
    return out


def _map(fn: Callable[[Any], Any], items: list[Any], jobs: int) -> list[Any]:
    if jobs <= 1 or len(items) <= 1:
        return [fn(item) for item in items]
    setup()  # once here, inherited by the forked workers
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        return list(pool.map(fn, items))


class _Found(Exception):
    pass


def _size(doc: dict[str, Any]) -> int:
    return len(json.dumps(doc, sort_keys=True))


def shrink(task: tuple[str, int, int, int, dict[str, Any], float]) -> dict[str, Any]:
    """The smallest team Hypothesis's shrinker finds that still breaks the invariant, starting
    from the run's first failing team (the index-th draw under the seed); within the budget."""
    invariant, audit_seed, n, index, first_doc, budget = task
    best: dict[str, Any] = {"doc": first_doc, "size": _size(first_doc)}
    calls: dict[str, Any] = {"n": 0, "start": None, "same": True}

    @seed(audit_seed)
    @_settings(n, [Phase.generate, Phase.shrink])
    @given(teams())
    def probe(doc: dict[str, Any]) -> None:
        i = calls["n"]
        calls["n"] = i + 1
        if calls["start"] is None:
            if i < index:
                return  # the run found these teams keep the invariant
            calls["start"] = time.monotonic()
            if doc != first_doc:
                calls["same"] = False
        if not calls["same"] or time.monotonic() - calls["start"] > budget:
            return
        if any(v.invariant == invariant for v in violations(doc)):
            if _size(doc) < best["size"]:
                best.update(doc=doc, size=_size(doc))
            raise _Found

    # Hypothesis ends by raising: the failure found, or a flaky one once the budget is spent.
    with contextlib.suppress(Exception):
        probe()
    found: dict[str, Any] = best["doc"]
    return found


def _shrink_all(
    tally_: Tally, docs: list[dict[str, Any]], audit_seed: int, jobs: int, budget: float
) -> dict[str, dict[str, Any]]:
    tasks = [
        (inv, audit_seed, len(docs), i, docs[i], budget)
        for inv, (i, _v) in sorted(tally_.first.items())
    ]
    shrunk = _map(shrink, tasks, jobs) if budget > 0 else [t[4] for t in tasks]
    return {t[0]: doc for t, doc in zip(tasks, shrunk, strict=True)}


def _example_violation(invariant: str, doc: dict[str, Any]) -> str:
    found = [v for v in violations(doc) if v.invariant == invariant]
    return found[0].sentence if found else "(no longer reproduces)"


def report(
    n: int, audit_seed: int, tally_: Tally, examples: dict[str, dict[str, Any]], seconds: float
) -> tuple[str, int]:
    """The printed table and docs/audit.md's text; the total of violations."""
    total = sum(tally_.violations.values())
    lines = [
        "# Architect's audit",
        "",
        f"`AUDIT_TEAMS={n} AUDIT_SEED={audit_seed} make audit` on "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {seconds:,.0f} s. Generated teams "
        "(advisor/audit/teams.py) through the engine and the report in English and Traditional "
        "Chinese; invariants in advisor/audit/invariants/. Owner: `planner` marks the "
        "invariants that depend on how plans are built in units as sold.",
        "",
        "| Invariant | Title | Owner | Violations | Teams |",
        "|---|---|---|---:|---:|",
    ]
    for inv, title in invariants.TITLES.items():
        owner = "planner" if inv in invariants.PLANNER_OWNED else "audit"
        lines.append(
            f"| {inv} | {title} | {owner} | {tally_.violations[inv]:,} | {tally_.teams[inv]:,} |"
        )
    lines += ["", "## Smallest failing team per invariant", ""]
    for inv, doc in sorted(examples.items()):
        lines += [
            f"### {inv}: {invariants.TITLES[inv]}",
            "",
            f"{_example_violation(inv, doc)}",
            "",
            "```json",
            json.dumps(doc, ensure_ascii=False, sort_keys=True),
            "```",
            "",
        ]
    return "\n".join(lines) + "\n", total


def save_cases(examples: dict[str, dict[str, Any]]) -> None:
    CASES_DIR.mkdir(parents=True, exist_ok=True)
    for inv, doc in examples.items():
        text = json.dumps(doc, ensure_ascii=False, sort_keys=True, indent=1)
        digest = hashlib.sha256(text.encode()).hexdigest()[:10]
        (CASES_DIR / f"{inv}-{digest}.json").write_text(text + "\n", encoding="utf-8")


def main() -> int:
    n = int(os.environ.get("AUDIT_TEAMS") or 2000)
    raw_seed = os.environ.get("AUDIT_SEED")
    audit_seed = int(raw_seed) if raw_seed else random.SystemRandom().randrange(2**32)
    jobs = int(os.environ.get("AUDIT_JOBS") or os.cpu_count() or 1)
    budget = float(os.environ.get("AUDIT_SHRINK_SECONDS") or 30)
    print(f"audit: {n} teams, seed {audit_seed}, {jobs} job(s)", flush=True)
    started = time.monotonic()
    docs = generate(n, audit_seed)
    tally_ = tally(docs, jobs)
    examples = _shrink_all(tally_, docs, audit_seed, jobs, budget)
    text, total = report(len(docs), audit_seed, tally_, examples, time.monotonic() - started)
    for inv, title in invariants.TITLES.items():
        example = json.dumps(examples[inv], sort_keys=True) if inv in examples else ""
        print(
            f"{inv:<4} {title[:44]:<44} {tally_.violations[inv]:>7,} violations "
            f"{tally_.teams[inv]:>6,} teams  {example}"
        )
    target = ROOT / "docs" / "audit.md"
    # The history below the marker (runs before and after changes, written by hand) is kept.
    kept = target.read_text(encoding="utf-8") if target.exists() else ""
    history = kept[kept.index(HISTORY) :] if HISTORY in kept else ""
    target.write_text(text + ("\n" + history if history else ""), encoding="utf-8")
    if os.environ.get("AUDIT_SAVE") == "1":
        save_cases(examples)
    print(f"audit: {len(docs)} teams, {total} violations")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
