"""No dead ends: when a workload's allowed modes x regions x data residency x
stack leave no runnable, priced option, the result says which answers rule every option out
(counted from the exclusions the options already record) and the smallest relaxations that
bring one back, each re-planned by building the workload's options again with that answer
relaxed. Where the operator sells (a house offer in the catalog, priced or on request) the
answer is also the sized unit as a quote.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from advisor.engine import answers as A
from advisor.engine import billing as BL
from advisor.engine import decide as DC
from advisor.engine import explain as X
from advisor.engine import i18n
from advisor.engine import mode_choice as MC
from advisor.engine import options as O
from advisor.engine import scoring as SC
from advisor.engine.catalog import Catalog, Price

# The sizing and cost inputs of a set of answers (result.py builds them; passed in so that this
# module does not import result.py, which calls it).
Plan = Callable[[A.Answers], tuple[O.Sized, BL.CostInputs]]

HOSTED = ("public_cloud", "dedicated_hosting", "bare_metal")
# How much a team gives up with each kind of relaxation, smallest first: the list is ordered by
# it, then by the cost to the result of the option the relaxation brings back.
_WEIGHT = {
    "family": 0,
    "serving": 1,
    "clouds": 1,
    "precision": 1,
    "kernels": 2,
    "checkpointing": 1,
    "micro_batch": 1,
    "region_same_country": 1,
    "mode": 2,
    "region": 3,
    "residency": 3,
}
# Regions in one country, for what a team keeps when a neighbouring region is added (data in the
# US stays in the US). Wider than billing.COUNTRY, which decides residency for prices, on purpose:
# this only words the trade-off and never admits a price.
_COUNTRY = {
    "los_angeles": "us",
    "us_west": "us",
    "us_east": "us",
    "us_central": "us",
    "tokyo": "jp",
    "japan": "jp",
}
# Mainland China has no measured round trip in the catalog; its neighbour for hosting is Hong
# Kong, where the China routes (CN2 GIA, CMI) the catalog prices land.
_FIXED_NEIGHBOURS = BL.NEIGHBOURS
_MAX_SINGLE = 4
# The stack change a flip is stated with when it alone leads nowhere: the team's numeric format
# first (it keeps its stack), then the serving stack, then custom kernels.
_ORDER = ("precision", "serving", "kernels")
_MAX_PAIRS = 3


@dataclasses.dataclass(frozen=True, slots=True)
class _Relax:
    kind: str  # a key of _WEIGHT
    path: str  # the answer path it changes
    old: Any
    new: Any
    answers: A.Answers
    region: str | None = None  # the region a region relaxation adds


def is_dead_end(options: Sequence[Mapping[str, Any]]) -> bool:
    """No option of the workload runs the stack as it is and has a price."""
    return not O.has_plan(options)


def dead_end(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    mode: str,
    options: Sequence[Mapping[str, Any]],
    excluded: Sequence[Mapping[str, Any]],
    plan: Plan,
    lang: str,
) -> dict[str, Any] | None:
    """The dead-end block of one workload (None when it has a runnable, priced option): what rules
    every option out, the smallest relaxations that bring one back (each re-planned) and, where
    a house offer fits, the sized unit to quote."""
    if SC.PHASE_OF[kind] == "preprocessing" or not is_dead_end(options):
        return None
    blocking = _blocking(answers, kind, mode, options, excluded, lang)
    singles = _candidates(catalog, answers, kind, excluded, options)
    found: list[tuple[tuple[int, float], list[_Relax], dict[str, Any]]] = []
    # The scores chose a family (or mode) that has nothing here while another the answers allow
    # does: that is the first way out, and it changes no answer.
    same = _first_option(catalog, answers, kind, schedule, plan, lang)
    if same is not None:
        keep = _Relax("family", "", None, None, answers)
        found.append((_order([keep], same), [keep], same))
    for r in singles:
        first = _first_option(catalog, r.answers, kind, schedule, plan, lang, only=_added_mode(r))
        if first is not None:
            found.append((_order([r], first), [r], first))
    if len(found) == (same is not None):
        for a, b in itertools.combinations(singles, 2):  # no single one works: two at once
            if a.path == b.path and a.kind not in ("region", "region_same_country"):
                continue
            both = _combine(a, b)
            if both is None:
                continue
            first = _first_option(catalog, both, kind, schedule, plan, lang)
            if first is not None:
                found.append((_order([a, b], first), [a, b], first))
    found.sort(key=lambda f: f[0])
    limit = _MAX_SINGLE if found and len(found[0][1]) == 1 else _MAX_PAIRS
    relaxations = [
        _relaxation_doc(catalog, answers, kind, rs, first, lang) for _, rs, first in found[:limit]
    ]
    blocking = _binding(blocking, relaxations, lang)
    # The sized server to quote: on the answers as they are, else on the first relaxation under
    # which the operator's server holds the work (a run that needs gradient checkpointing).
    ways: list[tuple[A.Answers, list[str]]] = [(answers, [])]
    for _, rs, _first in found[:limit]:
        relaxed = rs[0].answers if len(rs) == 1 else _combine(rs[0], rs[1])
        if relaxed is not None:
            ways.append((relaxed, [r.path for r in rs if r.path]))
    if answers.frameworks.custom_kernels:
        # The operator's cards run the team's work on the framework's own kernels.
        ways += [
            (_with(way, "frameworks.custom_kernels", False), [*paths, "frameworks.custom_kernels"])
            for way, paths in list(ways)
        ]
    if SC.PHASE_OF[kind] == "training":
        # A run that fits the operator's server only with activations recomputed, or one
        # sequence per micro-batch, or both.
        ways += [
            (
                _with(way, "training.gradient_checkpointing", True),
                [*paths, "training.gradient_checkpointing"],
            )
            for way, paths in list(ways)
            if way.training is not None and not way.training.gradient_checkpointing
        ]
        ways += [
            (_with(way, "training.micro_batch_size", 1), [*paths, "training.micro_batch_size"])
            for way, paths in list(ways)
            if way.training is not None and way.training.micro_batch_size > 1
        ]
    quote = None
    for way, paths in ways:
        quote = _quote(catalog, way, kind, schedule, mode, plan, lang, paths)
        if quote is not None:
            break
    status = "no_option" if not options else "nothing_priced"
    statement = i18n.message(
        f"dead_end.{status}",
        lang,
        kind=i18n.label(kind, lang),
        reasons=i18n.message("dead_end.reasons_separator", lang).join(b["text"] for b in blocking),
    )
    return {
        "status": status,
        "statement": statement,
        "blocking": blocking,
        "relaxations": relaxations,
        "quote": quote,
        "next": i18n.message(
            "dead_end.next_quote"
            if quote
            else "dead_end.next_relax"
            if relaxations
            else "dead_end.next_none",
            lang,
            kind=i18n.label(kind, lang),
        ),
    }


# --------------------------------------------------------------------------- what rules out


def _regions_text(regions: Sequence[str], lang: str) -> str:
    return i18n.value_label("organization.regions", list(regions), lang)


def _modes_text(modes: Sequence[str], lang: str) -> str:
    return i18n.value_label("deployment.allowed_modes", list(modes), lang)


def _blocking(
    answers: A.Answers,
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
    regions, modes = _regions_text(org.regions, lang), _modes_text(dep.allowed_modes, lang)
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


def _binding(
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


# --------------------------------------------------------------------------- relaxations


def _with(answers: A.Answers, path: str, value: Any) -> A.Answers:
    section, field = path.split(".")
    return dataclasses.replace(
        answers, **{section: dataclasses.replace(getattr(answers, section), **{field: value})}
    )


def neighbours(catalog: Catalog, regions: Sequence[str]) -> list[str]:
    """Regions next to the team's, nearest first: a fixed neighbour where the catalog measures no
    round trip (mainland China: Hong Kong), else the catalog's round-trip table."""
    out: list[str] = []
    for r in regions:
        out += [n for n in _FIXED_NEIGHBOURS.get(r, ()) if n not in regions]
    timed: list[tuple[float, str]] = []
    for n in catalog.regions:
        if n in regions or n in out or n == "japan":
            continue
        rtts = [O.round_trip_ms(catalog, r, n) for r in regions]
        known = [t for t in rtts if t is not None]
        if known:
            timed.append((min(known), n))
    out += [n for _, n in sorted(timed)]
    return [n for n in out if n in A.REGIONS][:2]


def _candidates(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    excluded: Sequence[Mapping[str, Any]],
    options: Sequence[Mapping[str, Any]],
) -> list[_Relax]:
    """Every one-answer relaxation worth re-planning for this workload."""
    dep, org = answers.deployment, answers.organization
    out: list[_Relax] = []
    for n in neighbours(catalog, org.regions):
        same = any(_COUNTRY.get(n) and _COUNTRY.get(n) == _COUNTRY.get(r) for r in org.regions)
        regions = (*org.regions, n)
        out.append(
            _Relax(
                "region_same_country" if same else "region",
                "organization.regions",
                list(org.regions),
                list(regions),
                _with(answers, "organization.regions", regions),
                region=n,
            )
        )
    for m in HOSTED:
        if m not in dep.allowed_modes:
            modes = (*dep.allowed_modes, m)
            out.append(
                _Relax(
                    "mode",
                    "deployment.allowed_modes",
                    list(dep.allowed_modes),
                    list(modes),
                    _with(answers, "deployment.allowed_modes", modes),
                )
            )
    if dep.data_residency == "in_region":
        out.append(
            _Relax(
                "residency",
                "deployment.data_residency",
                "in_region",
                "none",
                _with(answers, "deployment.data_residency", "none"),
            )
        )
    if dep.clouds and "public_cloud" in dep.allowed_modes:
        out.append(
            _Relax(
                "clouds",
                "deployment.clouds",
                list(dep.clouds),
                [],
                _with(answers, "deployment.clouds", ()),
            )
        )
    stack_blocked = any(e["code"] == "unsupported_stack" for e in excluded) or (
        bool(options) and not any(o["stack"]["runnable"] for o in options)
    )
    if stack_blocked:
        out += _stack_relaxations(answers, kind)
    out += _memory_relaxations(answers, kind, options)
    return out


def _memory_relaxations(
    answers: A.Answers, kind: str, options: Sequence[Mapping[str, Any]]
) -> list[_Relax]:
    """Where no card holds a training run at all (its activations alone exceed every device),
    the answers that shrink them: gradient checkpointing on, one sequence per micro-batch."""
    t = answers.training
    if SC.PHASE_OF[kind] != "training" or t is None or options:
        return []
    out: list[_Relax] = []
    if not t.gradient_checkpointing:
        out.append(
            _Relax(
                "checkpointing",
                "training.gradient_checkpointing",
                False,
                True,
                _with(answers, "training.gradient_checkpointing", True),
            )
        )
    if t.micro_batch_size > 1:
        out.append(
            _Relax(
                "micro_batch",
                "training.micro_batch_size",
                t.micro_batch_size,
                1,
                _with(answers, "training.micro_batch_size", 1),
            )
        )
    return out


def _stack_relaxations(answers: A.Answers, kind: str) -> list[_Relax]:
    """The changes that let more cards run the workload's stack: the serving stack to vLLM,
    custom kernels off, the numeric format to the plain one."""
    fw = answers.frameworks
    out: list[_Relax] = []
    phase = SC.PHASE_OF[kind]
    if phase == "inference" and fw.serving not in ("vllm", "none", "custom"):
        out.append(
            _Relax(
                "serving",
                "frameworks.serving",
                fw.serving,
                "vllm",
                _with(answers, "frameworks.serving", "vllm"),
            )
        )
    if fw.custom_kernels:
        out.append(
            _Relax(
                "kernels",
                "frameworks.custom_kernels",
                True,
                False,
                _with(answers, "frameworks.custom_kernels", False),
            )
        )
    precise = answers.inference if phase == "inference" else answers.training
    plain = "bf16" if phase == "inference" else "bf16_mixed"
    if precise is not None and precise.precision not in (plain, "fp16", "fp32"):
        section = "inference" if phase == "inference" else "training"
        out.append(
            _Relax(
                "precision",
                f"{section}.precision",
                precise.precision,
                plain,
                _with(answers, f"{section}.precision", plain),
            )
        )
    return out


def _combine(a: _Relax, b: _Relax) -> A.Answers | None:
    """Both relaxations at once (two neighbouring regions add up; two changes of one other
    answer do not)."""
    if a.path == b.path:
        if a.region is None or b.region is None:
            return None
        regions = tuple(dict.fromkeys((*a.new, *b.new)))
        return _with(a.answers, "organization.regions", regions)
    section, field = b.path.split(".")
    value = getattr(getattr(b.answers, section), field)
    return _with(a.answers, b.path, value)


def _added_mode(r: _Relax) -> str | None:
    """The mode a mode relaxation adds: its option must be in that mode, not one allowed before."""
    return next((m for m in r.new if m not in r.old), None) if r.kind == "mode" else None


def _first_option(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    plan: Plan,
    lang: str,
    *,
    only: str | None = None,
) -> dict[str, Any] | None:
    """The first runnable, priced option of the workload under `answers`: its options built again
    in every allowed rented mode (or `only` that one; GPU, and TPU on public cloud), best standing
    first (options.standing: available where the team is, then cost to the result)."""
    sized, ci = plan(answers)
    best: tuple[tuple[int, int, int, int, float], dict[str, Any]] | None = None
    for mode in answers.deployment.allowed_modes:
        if mode not in HOSTED or (only is not None and mode != only):
            continue
        for family in ("gpu", "tpu"):
            if family == "tpu" and mode != "public_cloud":
                continue
            built = O.build(catalog, answers, kind, schedule, family, mode, sized, ci, lang)
            runnable = [
                o
                for o in built.options
                if o["stack"]["runnable"] and o["cost_to_result"]["usd"] is not None
            ]
            if not runnable:
                continue
            standing = MC.standing(runnable)
            if best is None or standing < best[0]:
                best = (standing, {**runnable[0], "deployment_mode": mode})
    return None if best is None else best[1]


def _order(rs: Sequence[_Relax], first: Mapping[str, Any]) -> tuple[int, float]:
    return (sum(_WEIGHT[r.kind] for r in rs), float(first["cost_to_result"]["usd"]))


def option_summary(first: Mapping[str, Any]) -> dict[str, Any]:
    """What a relaxation brings back: the first option, its offer and what it costs."""
    used = first.get("billing_used")
    price = (first.get("prices") or {}).get(used) or {} if used else {}
    return {
        "accelerator_id": first["accelerator_id"],
        "name": first["name"],
        "type": first["type"],
        "count": first["count"],
        "deployment_mode": first["deployment_mode"],
        "provider": price.get("provider"),
        "region": price.get("region"),
        "price_id": price.get("price_id"),
        "house": bool(price.get("house")),
        "billing": first.get("billing"),
        "monthly_cost_usd": first["monthly_cost_usd"],
        "cost_to_result": dict(first["cost_to_result"]),
        "available": bool(first["availability"]["available"]),
    }


def _gives_up(
    r: _Relax, answers: A.Answers, catalog: Catalog, lang: str, first: Mapping[str, Any]
) -> str:
    if r.kind == "family":
        return i18n.message(
            "dead_end.gives_up.family",
            lang,
            family=i18n.label("tpu" if first["type"] == "gpu" else "gpu", lang),
        )
    if r.kind in ("region", "region_same_country"):
        region = str(r.region)
        known = [
            t
            for t in (O.round_trip_ms(catalog, x, region) for x in answers.organization.regions)
            if t is not None
        ]
        code = (
            "dead_end.gives_up.region_same_country"
            if r.kind == "region_same_country"
            else "dead_end.gives_up.region_residency"
            if answers.deployment.data_residency == "in_region"
            else "dead_end.gives_up.region"
        )
        return i18n.message(
            code,
            lang,
            region=i18n.value_label("organization.regions", region, lang),
            regions=_regions_text(answers.organization.regions, lang),
            rtt=i18n.message(
                "dead_end.rtt_unmeasured"
                if not known
                else "dead_end.rtt"
                if min(known) >= 1
                else "dead_end.rtt_zero",
                lang,
                ms=f"{min(known):,.0f}" if known else "",
                regions=_regions_text(answers.organization.regions, lang),
            ),
        )
    if r.kind == "mode":
        added = next(m for m in r.new if m not in r.old)
        return i18n.message(f"dead_end.gives_up.mode.{added}", lang)
    return i18n.message(
        f"dead_end.gives_up.{r.kind}",
        lang,
        serving=i18n.value_label("frameworks.serving", r.old, lang),
        precision=i18n.label(r.old, lang),
        clouds=i18n.value_label("deployment.clouds", r.old, lang),
    )


def _change_text(r: _Relax, lang: str) -> str:
    return i18n.message(
        "dead_end.change",
        lang,
        field=i18n.field_label(r.path, lang),
        value=i18n.value_label(r.path, r.new, lang)
        if r.new != []
        else i18n.message("dead_end.any_cloud", lang),
        current=i18n.value_label(r.path, r.old, lang),
    )


def _relaxation_doc(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    rs: Sequence[_Relax],
    first: Mapping[str, Any],
    lang: str,
) -> dict[str, Any]:
    option = option_summary(first)
    cost = option["cost_to_result"]
    gives_up = [_gives_up(r, answers, catalog, lang, first) for r in rs]
    explanation = i18n.message(
        "dead_end.as_answered" if rs[0].kind == "family" else "dead_end.relaxation",
        lang,
        changes=i18n.message("dead_end.and", lang).join(_change_text(r, lang) for r in rs),
        family=i18n.label(option["type"], lang),
        kind=i18n.label(kind, lang),
        card=option["name"],
        count=option["count"],
        mode=i18n.label(option["deployment_mode"], lang),
        provider=i18n.catalog_text(option["provider"] or "—", lang),
        region=i18n.region_text(option["region"] or "", lang)
        or i18n.message("option.region_not_stated", lang),
        monthly=f"{option['monthly_cost_usd']:,.0f}",
        per_result=""
        if cost["per"] == "month"
        else i18n.message(
            "dead_end.per_result",
            lang,
            cost=f"{cost['usd']:,.2f}",
            per=i18n.message(f"per.{cost['per']}", lang),
        ),
        gives_up=" ".join(g[:1].upper() + g[1:] for g in gives_up),
    )
    return {
        "kind": "relaxation",
        "workload": kind,
        "changes": [
            {"answer_path": r.path, "from": r.old, "to": r.new} for r in rs if r.kind != "family"
        ],
        "option": option,
        "gives_up": gives_up,
        "explanation": explanation,
    }


# --------------------------------------------------------------------------- the quote


def _house_offers(catalog: Catalog) -> list[Price]:
    return [p for p in catalog.prices if p.house and p.region_key]


def _quote(
    catalog: Catalog,
    answers: A.Answers,
    kind: str,
    schedule: str,
    mode: str,
    plan: Plan,
    lang: str,
    relaxed: Sequence[str] = (),
) -> dict[str, Any] | None:
    """The operator's server for this workload, sized (on answers `relaxed` at those paths where
    it holds the work only so): a house offer (priced or on request) in the
    team's regions or a neighbouring one, in an allowed mode or another hosted one, whose card
    runs the stack. The fewest relaxations first, then a priced offer, then the fewest servers."""
    regions = answers.organization.regions
    near = neighbours(catalog, regions)
    best: tuple[tuple[int, int, int, str], dict[str, Any]] | None = None
    for p in _house_offers(catalog):
        key = str(p.region_key)
        here = key in regions or BL.in_country(key, regions)
        if not here and key not in near:
            continue
        modes = [m for m in p.modes if m in answers.deployment.allowed_modes]
        use_mode = modes[0] if modes else next((m for m in p.modes if m in HOSTED), None)
        if use_mode is None:
            continue
        trial = answers
        changed: list[str] = list(relaxed)
        if not here:
            trial = _with(trial, "organization.regions", (*regions, key))
            changed.append("organization.regions")
        if not modes:
            trial = _with(
                trial, "deployment.allowed_modes", (*answers.deployment.allowed_modes, use_mode)
            )
            changed.append("deployment.allowed_modes")
        sized, ci = plan(trial)
        family = catalog.by_id[p.accelerator_id].type
        built = O.build(catalog, trial, kind, schedule, family, use_mode, sized, ci, lang)
        option = next((o for o in built.options if o["accelerator_id"] == p.accelerator_id), None)
        if option is None or not option["stack"]["runnable"]:
            continue
        priced = _priced_by(option, p.id)
        rank = (len(changed), 0 if priced else 1, _servers(option, p), p.id)
        if best is None or rank < best[0]:
            best = (rank, _quote_doc(p, option, use_mode, priced, changed, kind, lang))
    return None if best is None else best[1]


def _priced_by(option: Mapping[str, Any], price_id: str) -> bool:
    """Whether the house offer prices the option on a firm figure (an indicative one is a
    quote to ask for)."""
    price = O.billed_price(option) or {}
    return price.get("price_id") == price_id and not price.get("indicative")


def _servers(option: Mapping[str, Any], p: Price) -> int:
    return max(1, math.ceil(int(option["count"]) / max(1, p.gpus_per_unit)))


def _quote_doc(
    p: Price,
    option: Mapping[str, Any],
    mode: str,
    priced: bool,
    changed: list[str],
    kind: str,
    lang: str,
) -> dict[str, Any]:
    server = dict(p.server or {})
    servers = _servers(option, p)
    route = server.get("china_bandwidth_type")
    term = BL.SLOT_TO_BILLING.get(p.billing, p.billing)
    monthly = option["monthly_cost_usd"] if priced else None
    words = {
        "kind": i18n.label(kind, lang),
        "provider": p.provider,
        "unit": p.unit or p.accelerator_id,
        "count": option["count"],
        "card": option["name"],
        "servers": servers,
        "per_server": p.gpus_per_unit,
        "region": i18n.region_text(p.region, lang) if p.region else "—",
        "mode": i18n.label(mode, lang),
        "term": i18n.label(term, lang),
    }
    statement = i18n.message("dead_end.quote", lang, **words)
    if changed:
        statement += " " + i18n.message(
            "dead_end.quote_needs",
            lang,
            answers=i18n.list_separator(lang).join(i18n.field_label(c, lang) for c in changed),
        )
    statement += " " + (
        i18n.message("dead_end.quote_priced", lang, monthly=f"{monthly:,.0f}")
        if monthly is not None
        else i18n.message("dead_end.quote_on_request", lang)
    )
    return {
        "price_id": p.id,
        "provider": p.provider,
        "region": p.region,
        "region_key": p.region_key,
        "deployment_mode": mode,
        "accelerator_id": option["accelerator_id"],
        "name": option["name"],
        "count": option["count"],
        "per_server": p.gpus_per_unit,
        "servers": servers,
        # A training run sizes its host for data loading, a service for the model it holds.
        "training": option.get("target_hours") is not None,
        "unit": p.unit,
        "server": {
            "cpu": server.get("cpu"),
            "ram_gb": server.get("ram_gb"),
            "nvme_tb": server.get("nvme_tb"),
            "network_gbps": server.get("network_gbps"),
            "china_route": route,
            "china_bandwidth_mbps": server.get("china_bandwidth_mbps"),
        },
        "term": term,
        "priced": monthly is not None,
        "monthly_cost_usd": monthly,
        "needs": changed,
        "source": p.source,
        "as_of": p.as_of,
        "statement": statement,
    }


# --------------------------------------------------------------------------- honest flips


def _answer_with(answers: A.Answers, path: str, value: Any) -> A.Answers:
    """`answers` with one `would_change_if` change applied (a facts path, lists as given)."""
    if path.startswith("workloads["):
        i = int(path[len("workloads[") : path.index("]")])
        workloads = tuple(
            dataclasses.replace(w, schedule=value) if j == i else w
            for j, w in enumerate(answers.workloads)
        )
        return dataclasses.replace(answers, workloads=workloads)
    return _with(answers, path, tuple(value) if isinstance(value, list) else value)


def _opens(
    catalog: Catalog,
    answers: A.Answers,
    target: SC.Decision,
    base: SC.Decision,
    dead: frozenset[str],
    plan: Plan,
    lang: str,
) -> list[str] | None:
    """None when every workload the change moves (and every one that runs now) has a runnable
    option where the scores' `target` decision, weighed by cost, puts it under `answers`; else
    the kinds that would have none. `base`: the plan's decision now (weighed by cost)."""
    sized, ci = plan(answers)
    # Each workload's mode weighed by cost, as the plan would (decide.cost_aware).
    decided, built, _ = DC.cost_aware(answers, catalog, target, sized, ci, lang)
    stuck = []
    for wd, was, aimed in zip(decided.workloads, base.workloads, target.workloads, strict=True):
        moved = (wd.accelerator, wd.mode) != (was.accelerator, was.mode)
        if SC.PHASE_OF[wd.kind] == "preprocessing" or (not moved and wd.kind in dead):
            continue
        if wd.accelerator != aimed.accelerator:
            # Planned on the other family: the flip would not land where it says.
            stuck.append(wd.kind)
            continue
        # A card that runs the stack as it is where the team may deploy (priced or on request).
        if not any(
            o["stack"]["runnable"] for o in built[(wd.kind, wd.accelerator, wd.mode)].options
        ):
            stuck.append(wd.kind)
    return stuck or None


def open_changes(
    changes: Sequence[dict[str, Any]],
    catalog: Catalog,
    answers: A.Answers,
    base: SC.Decision,
    model: SC.ScoringModel,
    ctx: SC.Context,
    dead: frozenset[str],
    plan: Plan,
    lang: str,
) -> list[dict[str, Any]]:
    """`would_change_if` flips checked against the per-card rules the plan applies: the
    scores know the team's answers, not which card runs which stack in which
    numeric format, so "would become TPU" could lead where no TPU runs the team's stack. Each
    flip is decided again with its changes; where a workload it moves would have no runnable
    option, the flip is stated with the stack change that brings one back (the numeric format
    first, then the serving stack, then custom kernels) if the decision still flips with it,
    and dropped otherwise. `dead`: the workloads with no runnable option now (not the flip's
    doing)."""
    out = []
    for change in changes:
        target = (change["accelerator"], change["deployment_mode"])
        trial = answers
        for c in change["changes"]:
            trial = _answer_with(trial, c["answer_path"], c["to"])
        decided = SC.decide(SC.answers_facts(trial), model, ctx)
        stuck = _opens(catalog, trial, decided, base, dead, plan, lang)
        if stuck is None:
            out.append(change)
            continue
        said = {c["answer_path"] for c in change["changes"]}
        extras = {
            r.path: r
            for kind in stuck
            for r in _stack_relaxations(trial, kind)
            if r.path not in said
        }
        for r in sorted(extras.values(), key=lambda r: _ORDER.index(r.kind)):
            decided = SC.decide(SC.answers_facts(r.answers), model, ctx)
            if (decided.accelerator, decided.mode) != target:
                continue
            if _opens(catalog, r.answers, decided, base, dead, plan, lang) is None:
                steps = [(c["answer_path"], c["from"], c["to"]) for c in change["changes"]]
                out.append(X.flip_doc([*steps, (r.path, r.old, r.new)], *target, lang))
                break
    return out
