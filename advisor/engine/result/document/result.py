"""The result document as a whole, and `normalise`, which brings a stored schema-1 document
up to it."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from advisor.engine.result.document.recommendation import Recommendation, Versions
from advisor.engine.result.document.totals import Cost, Server, Sizing
from advisor.engine.result.document.workload import Workload


class ResultDocument(TypedDict):
    """What `evaluate` returns and every stored result is (after `normalise`)."""

    schema_version: int
    versions: Versions
    lang: str
    recommendation: Recommendation
    workloads: list[Workload]
    sizing: Sizing
    server: Server | None
    servers: list[Server]
    cost: Cost
    # Benchmark runs whose figures replaced the estimates (engine/sizing/measured/), when any.
    measurements: NotRequired[list[dict[str, Any]]]
    # Engine 2.6: workloads on the same servers, shared in time or separate
    # (engine/planning/fleet.py), when two or more could share.
    fleet: NotRequired[dict[str, Any]]


def normalise(doc: Mapping[str, Any]) -> ResultDocument:
    """A stored result as schema 2 reads it. A schema-1 document (engine 1.x) gets the fields
    schema 2 added, empty: no rules, no excluded cards, no mode decision or confidence parts,
    and its one server as the list of servers. A schema-2 document comes back as it is."""
    if doc.get("schema_version", 1) >= 2:
        return cast(ResultDocument, doc)
    out: dict[str, Any] = copy.deepcopy(dict(doc))
    out["recommendation"].setdefault("rules", [])
    for w in out["workloads"]:
        w.setdefault("confidence_parts", None)
        w.setdefault("excluded_options", [])
        w.setdefault("mode_decision", None)
        w.setdefault("rules", [])
    out.setdefault("servers", [out["server"]] if out.get("server") else [])
    return cast(ResultDocument, out)
