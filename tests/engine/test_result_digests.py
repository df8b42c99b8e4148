"""Speed work never changes a result: evaluate's document for every starter, every expert case and
the benchmark's sample, in both languages, hashes to the pinned digest."""

from __future__ import annotations

import json

from advisor.engine import Catalog, ScoringModel
from tests.engine.result_digests import FIXTURE, digests


def test_every_result_document_matches_its_pinned_digest(
    catalog: Catalog, scoring: ScoringModel
) -> None:
    pinned = json.loads(FIXTURE.read_text(encoding="utf-8"))
    found = digests(catalog, scoring)
    assert found.keys() == pinned.keys()
    changed = sorted(k for k in found if found[k] != pinned[k])
    assert changed == []
