"""Every module of advisor/ and accounts/ sits in a layer of the import-linter contract
(pyproject.toml), so that lint-imports judges all of it: a module outside every layer may import
anything, and anything may import it. The forbidden contracts count indirect imports too."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("advisor", "accounts")


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _layered() -> set[str]:
    return {
        name.strip()
        for contract in _contracts()
        if contract["type"] == "layers"
        for layer in contract["layers"]
        for name in re.split(r"[|:]", layer)
        if name.strip()
    }


def _modules() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_every_module_of_advisor_and_accounts_is_in_a_layer() -> None:
    layered = _layered()

    def placed(module: str) -> bool:
        return any(module == name or module.startswith(name + ".") for name in layered)

    def container(module: str) -> bool:
        # A package whose modules sit in layers of their own (advisor.reference), or a root.
        return module in PACKAGES or any(name.startswith(module + ".") for name in layered)

    outside = [m for m in _modules() if not placed(m) and not container(m)]
    assert outside == [], f"modules in no layer of pyproject.toml's layers contract: {outside}"


def test_a_layer_names_only_modules_that_exist() -> None:
    modules = set(_modules())
    assert sorted(_layered() - modules) == []


# A rule about direct imports only: the pages call services, and the services reach the engine.
DIRECT_ONLY = ("Only services reach the engine's computing modules",)


def test_the_forbidden_contracts_count_indirect_imports() -> None:
    forbidden = [c for c in _contracts() if c["type"] == "forbidden"]
    assert forbidden
    uncounted = [c["name"] for c in forbidden if c.get("allow_indirect_imports", True)]
    assert [name for name in uncounted if not name.startswith(DIRECT_ONLY)] == []
