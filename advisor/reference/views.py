"""Scoring models and the price catalog for the operator's sales engineers: read-only pages.

Admins edit in the Django admin (reference/admin/); both ask advisor.permissions who may do
what, and it asks accounts.selectors (the operating organisation's staff).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from advisor.labels import OPTION_CHOICES
from advisor.permissions import can_read_reference, request_can_edit_reference
from advisor.reference import selectors
from advisor.reference.models import (
    Catalog,
    Contribution,
    ScoringModel,
)
from advisor.reference.services.scoring import scoring_model_diff


def criteria_table(model: ScoringModel) -> list[dict[str, Any]]:
    """Criteria with their contributions as one row per answer value, points per option."""
    options = [o for o, _label in OPTION_CHOICES]
    rows = []
    for c in model.criteria.prefetch_related(
        Prefetch("contributions", queryset=Contribution.objects.order_by("pk"))
    ):
        values: dict[str, dict[str, Any]] = {}
        for row in c.contributions.all():
            cells = values.setdefault(row.value, dict.fromkeys(options))
            if row.option:
                cells[row.option] = row.points
        rows.append(
            {
                "criterion": c,
                "values": [
                    {"value": v, "cells": [cells[o] for o in options]}
                    for v, cells in values.items()
                ],
            }
        )
    return rows


def _model_for_viewer(request: HttpRequest, pk: int) -> ScoringModel:
    if not can_read_reference(request.user):
        raise Http404
    return get_object_or_404(ScoringModel, pk=pk)


@login_required
@require_GET
def scoring_models(request: HttpRequest) -> HttpResponse:
    if not can_read_reference(request.user):
        raise Http404
    models = ScoringModel.objects.annotate(criteria_count=Count("criteria")).select_related(
        "published_by"
    )
    context = {"models": models, "can_edit": request_can_edit_reference(request)}
    return render(request, "reference/scoring_models.html", context)


@login_required
@require_GET
def scoring_model(request: HttpRequest, pk: int) -> HttpResponse:
    model = _model_for_viewer(request, pk)
    active = ScoringModel.objects.filter(status=ScoringModel.Status.PUBLISHED).first()
    context = {
        "model": model,
        "options": OPTION_CHOICES,
        "criteria": criteria_table(model),
        "active": active,
        "diff": scoring_model_diff(old=active, new=model)
        if active is not None and active.pk != model.pk
        else None,
        "preview": selectors.latest_preview(model, finished=True),
        "can_edit": request_can_edit_reference(request),
    }
    return render(request, "reference/scoring_model.html", context)


@login_required
@require_GET
def scoring_preview(request: HttpRequest, pk: int) -> HttpResponse:
    model = _model_for_viewer(request, pk)
    preview = selectors.latest_preview(model)
    context = {"model": model, **selectors.preview_context(preview, user=request.user)}
    return render(request, "reference/scoring_preview.html", context)


@login_required
@require_GET
def catalog(request: HttpRequest) -> HttpResponse:
    """The published catalog: every price with its source, date and a stale flag."""
    if not can_read_reference(request.user):
        raise Http404
    active = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    prices: list[dict[str, Any]] = []
    accelerators: list[Any] = []
    if active is not None:
        accelerators = list(active.accelerators.all())
        for price in active.prices.select_related("accelerator").order_by(
            "accelerator_id", "provider", "billing", "key"
        ):
            state = selectors.freshness(price, active.stale_after_days)
            prices.append({"price": price, "stale": state != "current"})
    context = {
        "catalog": active,
        "accelerators": accelerators,
        "prices": prices,
        "stale_count": sum(1 for p in prices if p["stale"]),
        "availability": selectors.catalog_availability(active) if active is not None else [],
        "can_edit": request_can_edit_reference(request),
    }
    return render(request, "reference/catalog.html", context)
