"""What rules every option of a dead-end workload out, in words, and which of it binds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from advisor.engine.answers import vocabulary
from advisor.engine.planning.relax.common import modes_text, regions_text
from advisor.engine.text import i18n


def blocking(
    answers: vocabulary.Answers,
    kind: str,
    mode: str,
    options: Sequence[Mapping[str, Any]],
    excluded: Sequence[Mapping[str, Any]],
    lang: str,
) -> list[dict[str, Any]]:
    """The answers that rule the options out, each with how many cards it rules out, in words."""
    dep, org = answers.deployment, answers.organization
    codes = Counter(str(e["code"]) for e in excluded)
    out: list[dict[str, Any]] = []
    regions, modes = regions_text(org.regions, lang), modes_text(dep.allowed_modes, lang)
    if codes["not_offered_in_region"]:
        out.append(
            {
                "answers": ["deployment.data_residency", "organization.regions"],
                "count": codes["not_offered_in_region"],
                "text": i18n.message(
                    "dead_end.by_residency",
                    lang,
                    count=codes["not_offered_in_region"],
                    regions=regions,
                    mode=i18n.label(mode, lang),
                ),
            }
        )
    if codes["unsupported_stack"]:
        items = sorted(
            {
                str(c["item"])
                for e in excluded
                if e["code"] == "unsupported_stack"
                for c in (e.get("stack") or {}).get("checks", ())
                if c["status"] == "unsupported"
            }
        )
        out.append(
            {
                # The stack as answered: frameworks, serving stack, kernels, numeric format.
                "answers": ["frameworks", "inference.precision", "training.precision"],
                "count": codes["unsupported_stack"],
                "text": i18n.message(
                    "dead_end.by_stack",
                    lang,
                    count=codes["unsupported_stack"],
                    items=i18n.list_separator(lang).join(_stack_item(i, lang) for i in items)
                    or i18n.message("dead_end.numeric_format", lang),
                ),
            }
        )
    if codes["pcie_multi_node_training"]:
        out.append(
            {
                "answers": ["model", "training"],
                "count": codes["pcie_multi_node_training"],
                "text": i18n.message(
                    "dead_end.by_size", lang, count=codes["pcie_multi_node_training"]
                ),
            }
        )
    unpriced = [o for o in options if (o.get("cost_to_result") or {}).get("usd") is None]
    if unpriced:
        out.append(
            {
                "answers": ["deployment.allowed_modes", "organization.regions"],
                "count": len(unpriced),
                "text": i18n.message(
                    "dead_end.by_price",
                    lang,
                    count=len(unpriced),
                    mode=i18n.label(mode, lang),
                    regions=regions,
                ),
            }
        )
    porting = [o for o in options if not o["stack"]["runnable"]]
    if porting and len(porting) == len(options):
        out.append(
            {
                "answers": ["frameworks"],
                "count": len(porting),
                "text": i18n.message("dead_end.by_porting", lang, count=len(porting)),
            }
        )
    # The answers every option above was built under: the allowed modes, and a cloud pin.
    out.append(
        {
            "answers": ["deployment.allowed_modes"],
            "count": None,
            "text": i18n.message("dead_end.by_modes", lang, modes=modes),
        }
    )
    if dep.clouds and mode == "public_cloud":
        out.append(
            {
                "answers": ["deployment.clouds"],
                "count": None,
                "text": i18n.message(
                    "dead_end.by_clouds",
                    lang,
                    clouds=i18n.value_label("deployment.clouds", list(dep.clouds), lang),
                ),
            }
        )
    return out


def binding(
    blocking: list[dict[str, Any]], relaxations: Sequence[Mapping[str, Any]], lang: str
) -> list[dict[str, Any]]:
    """Of what rules the options out, the answers whose relaxation brings one back (an answer
    every option was merely built under is not named as binding), and each answer a listed
    relaxation changes that nothing above names. With no relaxation found, all that is known."""
    changed = [
        (str(c["answer_path"]), c["from"]) for r in relaxations for c in r.get("changes") or []
    ]
    if not changed:
        return blocking

    def covers(answer: str, path: str) -> bool:
        return path == answer or path.startswith(answer + ".")

    binding = [
        b for b in blocking if any(covers(a, p) for a in b["answers"] for p, _old in changed)
    ]
    named = {p for b in binding for p, _old in changed if any(covers(a, p) for a in b["answers"])}
    for path, old in changed:
        if path in named:
            continue
        named.add(path)
        binding.append(
            {
                "answers": [path],
                "count": None,
                "text": i18n.message(
                    "dead_end.by_answer",
                    lang,
                    field=i18n.field_label(path, lang),
                    value=i18n.value_label(path, old, lang),
                ),
            }
        )
    return binding


def _stack_item(item: str, lang: str) -> str:
    group, _, value = item.partition(".")
    return i18n.message(f"stack_item.{group}", lang, value=i18n.label(value, lang))
