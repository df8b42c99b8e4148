"""Seeds version 1 of the scoring model, published, from the engine's bundled document."""

from __future__ import annotations

import json
from decimal import Decimal
from importlib import resources

from django.db import migrations
from django.utils import timezone


def seed(apps, schema_editor):
    ScoringModel = apps.get_model("advisor", "ScoringModel")
    Criterion = apps.get_model("advisor", "Criterion")
    Contribution = apps.get_model("advisor", "Contribution")
    if ScoringModel.objects.exists():
        return
    doc = json.loads(
        resources.files("advisor.engine").joinpath("data/scoring_v1.json").read_text("utf-8")
    )
    model = ScoringModel.objects.create(
        name=doc["name"],
        version=doc["version"],
        status="published",
        description=doc.get("description", ""),
        data={
            k: v for k, v in doc.items() if k not in {"name", "version", "description", "criteria"}
        },
        published_at=timezone.now(),
    )
    for order, c in enumerate(doc["criteria"]):
        criterion = Criterion.objects.create(
            scoring_model=model,
            key=c["id"],
            answer=c["answer"],
            weight=Decimal(str(c["weight"])),
            applies_to=list(c["applies_to"]),
            combine=c.get("combine", ""),
            label_en=c["label"]["en"],
            label_zh=c["label"]["zh-hant"],
            rationale_en=c.get("rationale", {}).get("en", ""),
            rationale_zh=c.get("rationale", {}).get("zh-hant", ""),
            order=order,
        )
        rows = []
        for value, points in c["contributions"].items():
            if not points:
                rows.append(Contribution(criterion=criterion, value=value, option="", points=0))
            for option, p in points.items():
                rows.append(
                    Contribution(
                        criterion=criterion, value=value, option=option, points=Decimal(str(p))
                    )
                )
        Contribution.objects.bulk_create(rows)


def unseed(apps, schema_editor):
    apps.get_model("advisor", "ScoringModel").objects.filter(version=1, name="default").delete()


class Migration(migrations.Migration):
    dependencies = [("advisor", "0004_scoring_models")]

    operations = [migrations.RunPython(seed, unseed)]
