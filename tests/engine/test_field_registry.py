"""The answer field registry (advisor/engine/answers/fields/) is where each answer is declared
once; what is built from it must be what the product published before it existed."""

from __future__ import annotations

import json

from tests.engine import field_snapshot


def test_schemas_labels_units_and_plurals_are_as_recorded() -> None:
    now = json.loads(json.dumps(field_snapshot.current()))
    was = field_snapshot.recorded()
    for part in was:
        assert now[part] == was[part], part
