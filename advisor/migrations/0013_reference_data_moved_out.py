"""Scoring models and the catalog now live in the reference app (reference 0001).

Only Django's picture changes: the report's catalog key points at reference.Catalog and the
advisor app forgets the models. No table, row or constraint in the database is touched.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("advisor", "0012_catalog_regional_offers"),
        ("reference", "0001_moved_from_advisor"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="report",
                    name="catalog",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="reports",
                        to="reference.catalog",
                    ),
                ),
                # Histories first, then the rows that point at others, then what they point at.
                migrations.DeleteModel(name="HistoricalCatalog"),
                migrations.DeleteModel(name="HistoricalCatalogAccelerator"),
                migrations.DeleteModel(name="HistoricalCatalogPreset"),
                migrations.DeleteModel(name="HistoricalCatalogPrice"),
                migrations.DeleteModel(name="HistoricalContribution"),
                migrations.DeleteModel(name="HistoricalCriterion"),
                migrations.DeleteModel(name="HistoricalScoringModel"),
                migrations.DeleteModel(name="CatalogPrice"),
                migrations.DeleteModel(name="CatalogPreset"),
                migrations.DeleteModel(name="CatalogAccelerator"),
                migrations.DeleteModel(name="Contribution"),
                migrations.DeleteModel(name="Criterion"),
                migrations.DeleteModel(name="ImpactPreview"),
                migrations.DeleteModel(name="PriceRefresh"),
                migrations.DeleteModel(name="Catalog"),
                migrations.DeleteModel(name="ScoringModel"),
            ],
        ),
    ]
