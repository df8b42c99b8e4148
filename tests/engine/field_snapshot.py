"""What the answer field registry feeds, recorded as it was before the registry existed: the
published JSON Schemas (versions 1..3 and their drafts), the field labels and questions in both
languages, the bound units and the English plurals. tests/engine/test_field_registry.py compares
the product with it (parsed JSON: key order is free).

    DEBUG=true python -m tests.engine.field_snapshot          # check
    DEBUG=true python -m tests.engine.field_snapshot --write  # record, when meant to move
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from advisor.engine.answers import fields
from advisor.engine.answers.schema import answers_draft_schema, answers_schema
from advisor.engine.text import labels

PATH = Path(__file__).parent / "data" / "answer_fields.json"


def current() -> dict[str, Any]:
    return {
        "schemas": {str(v): answers_schema(v) for v in (1, 2, 3)},
        "draft_schemas": {str(v): answers_draft_schema(v) for v in (1, 2, 3)},
        "field_labels": fields.labels(),
        "field_questions": fields.questions(),
        "bound_units": fields.bound_units(),
        "plural_en": sorted(fields.plural_en()),
        "group_paths": {g: list(p) for g, p in labels.GROUP_PATHS.items()},
    }


def recorded() -> dict[str, Any]:
    return json.loads(PATH.read_text("utf-8"))


def main() -> int:
    if "--write" in sys.argv:
        PATH.write_text(
            json.dumps(current(), ensure_ascii=False, indent=1, sort_keys=True) + "\n", "utf-8"
        )
        return 0
    same = json.loads(json.dumps(current())) == recorded()
    print("same" if same else "DIFFERENT")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
