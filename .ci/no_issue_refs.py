"""Comments explain the code, not its history: fail on a comment or docstring that cites a
tracker's issue by number, a numbered part of a series ("[n/m]") or an item of a list by number
("item n of ..."). The commit message is where history lives.

Python files are read through their comments and docstrings; templates through their Django and
HTML comments; JavaScript and CSS through their comments; shell scripts and the Makefile through
their `#` comments. Prints `file:line: text` for each and exits 1 when any is found.

    python .ci/no_issue_refs.py [PATH ...]    (default: the product's code, tests and scripts)
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PATHS = ("advisor", "accounts", "templates", "static", "tests", "loadtest", ".ci")
DEFAULT_FILES = ("Makefile", "manage.py")
# Third-party code kept as shipped, and what is built or installed here.
SKIPPED_DIRS = {"vendor", "node_modules", ".venv", "var", "__pycache__", "locale"}

REFERENCE = re.compile(
    r"\bissues?\s+#?\d+"  # the word, an optional hash, the number; any case, singular or plural
    r"|\[\d+/\d+\]"  # a part of a series, in brackets
    r"|\bitems?\s+\d+(?:\s*-\s*\d+)?\s+of\b",  # an item, or a range of items, of a list
    re.IGNORECASE,
)

# (line, text) pieces of a file that are comments or docstrings.
Pieces = Iterator[tuple[int, str]]


def _lines(start: int, text: str) -> Pieces:
    for offset, line in enumerate(text.split("\n")):
        yield start + offset, line


def python_pieces(source: str) -> Pieces:
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
    for node in ast.walk(ast.parse(source)):
        # A docstring, or any other string standing alone as a statement.
        if (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            yield from _lines(node.lineno, node.value.value)


def _block_pieces(source: str, pattern: re.Pattern[str]) -> Pieces:
    for match in pattern.finditer(source):
        yield from _lines(source.count("\n", 0, match.start()) + 1, match.group(0))


TEMPLATE_COMMENTS = re.compile(
    r"\{#.*?#\}|\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}|<!--.*?-->|/\*.*?\*/", re.DOTALL
)
CSS_COMMENTS = re.compile(r"/\*.*?\*/", re.DOTALL)
# A // comment not inside a URL ("https://"): the slashes follow the start or a space.
JS_COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=\s))//[^\n]*", re.DOTALL | re.MULTILINE)
HASH_COMMENTS = re.compile(r"(?:^|(?<=\s))#[^\n]*", re.MULTILINE)


def pieces(path: Path) -> Pieces:
    source = path.read_text(encoding="utf-8")
    suffix = path.suffix
    if suffix == ".py":
        return python_pieces(source)
    if suffix in (".html", ".txt"):
        return _block_pieces(source, TEMPLATE_COMMENTS)
    if suffix == ".css":
        return _block_pieces(source, CSS_COMMENTS)
    if suffix in (".js", ".mjs"):
        return _block_pieces(source, JS_COMMENTS)
    if suffix == ".sh" or path.name == "Makefile":
        return _block_pieces(source, HASH_COMMENTS)
    return iter(())


def files(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_file():
            yield path
            continue
        for found in sorted(path.rglob("*")):
            if found.is_file() and not SKIPPED_DIRS.intersection(found.relative_to(path).parts):
                if found.name.endswith(".min.js") or found.name.endswith(".min.css"):
                    continue
                yield found


def references(paths: Iterable[Path]) -> list[str]:
    """`file:line: text` for every comment or docstring line under `paths` that cites one."""
    found = []
    for path in files(paths):
        for line, text in pieces(path):
            if REFERENCE.search(text):
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                found.append(f"{shown}:{line}: {text.strip()}")
    return found


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or [
        ROOT / p for p in (*DEFAULT_PATHS, *DEFAULT_FILES) if (ROOT / p).exists()
    ]
    found = references(paths)
    for line in found:
        print(line)
    if found:
        print(
            f"{len(found)} comment line(s) cite an issue or item number: say what the code does "
            "and why; the history goes in the commit message.",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
