"""The check `make lint` and `make test` run (.ci/no_issue_refs.py): a comment or docstring that
cites an issue or item number is found, in every kind of file it reads, with its line; code,
user-facing strings and colours are not; and the tree as committed has none."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def _checker() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "no_issue_refs", ROOT / ".ci" / "no_issue_refs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKER = _checker()
# The phrases are built here so that this file's own comments cite nothing.
ISSUE, ITEM, PART = "issue " + "24", "item " + "3 of", "[" + "2/5]"

SAMPLES = {
    "module.py": (
        f'"""Module docstring.\n\nSee {ISSUE} for more."""\n'
        f"x = 1  # set as in Issue #{14}\n"
        f'label = "{ISSUE} is a string, not a comment"\n'
        "def f():\n"
        f'    """{PART} the step."""\n'
    ),
    "page.html": (
        f"<p>{ISSUE} shown to users is text</p>\n"
        f"{{# {ITEM} the list #}}\n<!-- fine -->\n{{% comment %}}\n{ISSUE}\n{{% endcomment %}}\n"
    ),
    "app.js": f'const url = "https://example.com/issues/12";\n// {ISSUE}: why\n',
    "app.css": f".a {{ color: #666; }}\n/* the colon\n   ({ISSUE}) */\n",
    "run.sh": f'echo "#{1}"\n# {ISSUE} for history\n',
    "Makefile": f"bench:  ## The pages of {ISSUE}\n\t@true\n",
}
EXPECTED = {
    "module.py:3",
    "module.py:4",
    "module.py:7",
    "page.html:2",
    "page.html:5",
    "app.js:2",
    "app.css:3",
    "run.sh:2",
    "Makefile:1",
}


def test_each_reference_in_a_comment_or_docstring_is_found_with_its_line(tmp_path: Path) -> None:
    for name, text in SAMPLES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    found = CHECKER.references([tmp_path])
    assert {Path(line.split(": ", 1)[0]).name for line in found} == EXPECTED


def test_a_file_without_references_passes(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text(
        '"""Sizes a fleet: one server per 8 cards."""\n# Round up: a part server is a server.\n',
        encoding="utf-8",
    )
    assert CHECKER.main([str(tmp_path)]) == 0


def test_the_tree_cites_no_issue_numbers_in_comments() -> None:
    assert CHECKER.main([]) == 0
