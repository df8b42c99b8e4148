"""Scoring models and catalogs go through one admin (VersionedAdmin) and one service interface
(VersionedKind): the same walk through each kind's pages — clone, edit, export, compare, import,
publish, audit — as an admin clicks it, makes the same calls on the kind."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from advisor.reference.admin.versioned import VersionedAdmin
from advisor.reference.models import Catalog, ScoringModel
from advisor.reference.services.catalog import CATALOGS
from advisor.reference.services.scoring import SCORING_MODELS
from advisor.reference.services.versioned import VersionedKind
from tests.factories import operator_member, published_catalog

pytestmark = pytest.mark.django_db

KINDS = [
    pytest.param(ScoringModel, SCORING_MODELS, id="scoring-model"),
    pytest.param(Catalog, CATALOGS, id="catalog"),
]
CALLS = ("clone", "next_version", "problems", "export", "diff", "import_", "publish")
PAGES = ("clone_view", "publish_view", "export_view", "import_view", "diff_view", "audit_view")


@pytest.fixture
def editor(client: Client) -> Client:
    client.force_login(operator_member(Role.ADMIN))
    return client


def _spy(monkeypatch: pytest.MonkeyPatch, kind: VersionedKind[Any]) -> list[str]:
    """The calls the admin makes on `kind` (not those the kind makes on itself), in order."""
    calls: list[str] = []
    depth = [0]
    for name in CALLS:
        real = getattr(kind, name)

        def spy(*args: Any, _name: str = name, _real: Any = real, **kwargs: Any) -> Any:
            if not depth[0]:
                calls.append(_name)
            depth[0] += 1
            try:
                return _real(*args, **kwargs)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(kind, name, spy)
    return calls


@pytest.mark.parametrize(("model", "kind"), KINDS)
def test_each_kind_walks_the_same_pages_through_the_same_calls(
    editor: Client, monkeypatch: pytest.MonkeyPatch, model: Any, kind: VersionedKind[Any]
) -> None:
    published_catalog()
    registered: Any = admin.site._registry[model]
    assert registered.kind is kind
    # The pages are the base class's: a kind brings an adapter and words, not views.
    assert all(getattr(type(registered), p) is getattr(VersionedAdmin, p) for p in PAGES)
    calls = _spy(monkeypatch, kind)
    info = f"admin:reference_{model._meta.model_name}"
    active = model.objects.get(status=model.Status.PUBLISHED)

    assert editor.get(reverse(f"{info}_clone", args=[active.pk])).status_code == 200
    response = editor.post(reverse(f"{info}_clone", args=[active.pk]))
    draft = model.objects.filter(status=model.Status.DRAFT).latest("pk")
    assert response["Location"] == reverse(f"{info}_change", args=[draft.pk])
    assert editor.get(response["Location"]).status_code == 200

    exported = editor.get(reverse(f"{info}_export", args=[draft.pk]))
    assert exported["Content-Disposition"].startswith("attachment")
    document = json.loads(exported.content)
    diff = editor.get(reverse(f"{info}_diff", args=[draft.pk]))
    assert str(active) in diff.content.decode()

    # Scoring models keep the file's version; catalogs number an import themselves.
    document["version"] = draft.version + 1 if model is ScoringModel else "99"
    response = editor.post(reverse(f"{info}_import"), {"text": json.dumps(document)})
    imported = model.objects.filter(status=model.Status.DRAFT).latest("pk")
    assert imported.pk != draft.pk
    assert response["Location"] == reverse(f"{info}_change", args=[imported.pk])

    assert "retires" in editor.get(reverse(f"{info}_publish", args=[imported.pk])).content.decode()
    editor.post(reverse(f"{info}_publish", args=[imported.pk]))
    imported.refresh_from_db()
    active.refresh_from_db()
    assert (imported.status, active.status) == ("published", "retired")
    assert editor.get(reverse(f"{info}_audit", args=[imported.pk])).status_code == 200

    assert calls == [
        "next_version",  # the clone page names the new version
        "clone",
        "problems",  # the draft's page lists what stops a publish
        "export",
        "diff",
        "import_",
        "problems",  # the publish page checks first
        "publish",
    ]
