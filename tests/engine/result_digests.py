"""Digests of evaluate's result document for every starter, every expert case and the bench sample.

The fixture `tests/engine/data/result_digests.json` pins the engine's output so that speed work
cannot change a result: `test_result_digests.py` recomputes every digest and compares.

Regenerate it (only when a result is meant to change) with
`python -m tests.engine.result_digests --write`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from advisor.engine import Catalog, ScoringModel, evaluate, load_catalog, load_scoring_model
from advisor.engine.bench import variants
from advisor.engine.text.i18n import LANGS
from advisor.starters import STARTERS
from tests.engine.conftest import JAX_PRETRAIN, SAMPLE
from tests.engine.test_expert_cases import CASES

FIXTURE = Path(__file__).parent / "data" / "result_digests.json"
BENCH_SAMPLE = 40  # the first answers of the benchmark's own sample


def documents() -> Iterator[tuple[str, dict[str, Any]]]:
    """(name, answers document) for every input the fixture covers."""
    for starter in STARTERS:
        yield f"starter:{starter.slug}", starter.document()
    for name, doc, _check in CASES:
        yield f"expert:{name}", doc
    yield "sample", SAMPLE
    yield "jax_pretrain", JAX_PRETRAIN
    for i, answers in enumerate(variants(BENCH_SAMPLE)):
        yield f"bench:{i}", answers.to_dict()


def digest(result: dict[str, Any]) -> str:
    text = json.dumps(result, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def digests(catalog: Catalog, scoring: ScoringModel) -> dict[str, str]:
    out = {}
    for name, doc in documents():
        for lang in LANGS:
            out[f"{name}|{lang}"] = digest(evaluate(doc, catalog, scoring, lang=lang))
    return out


def main(argv: list[str]) -> None:
    found = digests(load_catalog(), load_scoring_model())
    if "--write" in argv:
        FIXTURE.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(found)} digests to {FIXTURE}")
    else:
        pinned = json.loads(FIXTURE.read_text(encoding="utf-8"))
        changed = sorted(k for k in found.keys() | pinned.keys() if found.get(k) != pinned.get(k))
        print("\n".join(changed) or f"all {len(found)} digests match")


if __name__ == "__main__":
    main(sys.argv[1:])
