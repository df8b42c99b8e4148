"""Scoring models and the catalog move here from the advisor app, with every row.

Only Django's picture of the models moves (state_operations): the tables keep their names
(Meta.db_table, HistoricalRecords(table_name=...)), so the database is not touched. The content
types follow, so admin log entries and permissions keep pointing at the same models.
advisor 0012 removes the models from the advisor app's state.
"""

import advisor.reference.models
import django.core.validators
import django.db.models.deletion
import simple_history.models
from decimal import Decimal
from django.conf import settings
from django.db import migrations, models

MOVED = (
    "scoringmodel",
    "criterion",
    "contribution",
    "impactpreview",
    "catalog",
    "catalogaccelerator",
    "catalogprice",
    "catalogpreset",
    "pricerefresh",
    "historicalscoringmodel",
    "historicalcriterion",
    "historicalcontribution",
    "historicalcatalog",
    "historicalcatalogaccelerator",
    "historicalcatalogprice",
    "historicalcatalogpreset",
)


def _relabel(apps, old, new):
    content_type = apps.get_model("contenttypes", "ContentType")
    for model in MOVED:
        existing = content_type.objects.filter(app_label=old, model=model).first()
        if existing is None:
            continue
        # A partial migrate may already have created the new label's type (post_migrate): it
        # holds nothing yet but its default permissions, so the old one, with the log, wins.
        content_type.objects.filter(app_label=new, model=model).delete()
        existing.app_label = new
        existing.save(update_fields=["app_label"])


def content_types_forward(apps, schema_editor):
    _relabel(apps, "advisor", "reference")


def content_types_backward(apps, schema_editor):
    _relabel(apps, "reference", "advisor")



class Migration(migrations.Migration):

    initial = True

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("advisor", "0012_catalog_regional_offers"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Criterion',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('key', models.CharField(max_length=50, validators=[django.core.validators.RegexValidator('^[a-z][a-z0-9_]*$', 'Use lower-case letters, digits and underscores, starting with a letter.')], verbose_name='key')),
                        ('answer', models.CharField(choices=[('cost.billing', 'cost.billing'), ('cost.ops_capacity', 'cost.ops_capacity'), ('deployment.allowed_modes', 'deployment.allowed_modes'), ('deployment.china_connectivity', 'deployment.china_connectivity'), ('deployment.clouds', 'deployment.clouds'), ('deployment.data_residency', 'deployment.data_residency'), ('deployment.portability', 'deployment.portability'), ('derived.latency_class', 'derived.latency_class'), ('derived.tpu_region_coverage', 'derived.tpu_region_coverage'), ('derived.training_scale', 'derived.training_scale'), ('derived.utilisation', 'derived.utilisation'), ('frameworks.custom_kernels', 'frameworks.custom_kernels'), ('frameworks.others', 'frameworks.others'), ('frameworks.primary', 'frameworks.primary'), ('frameworks.serving', 'frameworks.serving'), ('inference.traffic', 'inference.traffic'), ('maturity.demand', 'maturity.demand'), ('maturity.pipeline', 'maturity.pipeline'), ('maturity.stack_changes', 'maturity.stack_changes'), ('organization.industry', 'organization.industry'), ('organization.regions', 'organization.regions'), ('workload.kind', 'workload.kind'), ('workload.schedule', 'workload.schedule')], max_length=50, verbose_name='answer')),
                        ('weight', models.DecimalField(decimal_places=2, max_digits=5, validators=[advisor.reference.models.validate_weight], verbose_name='weight')),
                        ('applies_to', models.JSONField(default=advisor.reference.models.all_phases, verbose_name='applies to')),
                        ('combine', models.CharField(blank=True, choices=[('sum', 'Sum over values')], max_length=10, verbose_name='combine')),
                        ('label_en', models.CharField(max_length=200, verbose_name='label (English)')),
                        ('label_zh', models.CharField(max_length=200, verbose_name='label (Traditional Chinese)')),
                        ('rationale_en', models.TextField(blank=True, verbose_name='rationale (English)')),
                        ('rationale_zh', models.TextField(blank=True, verbose_name='rationale (Traditional Chinese)')),
                        ('order', models.PositiveSmallIntegerField(default=0, verbose_name='order')),
                    ],
                    options={
                        'verbose_name': 'criterion',
                        'verbose_name_plural': 'criteria',
                        'db_table': 'advisor_criterion',
                        'ordering': ['order', 'pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Catalog',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('retired', 'Retired')], default='draft', max_length=10, verbose_name='status')),
                        ('description', models.TextField(blank=True, verbose_name='description')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('published_at', models.DateTimeField(blank=True, null=True, verbose_name='published')),
                        ('retired_at', models.DateTimeField(blank=True, null=True, verbose_name='retired')),
                        ('version', models.PositiveIntegerField(unique=True, validators=[django.core.validators.MinValueValidator(1)], verbose_name='version')),
                        ('data', models.JSONField(blank=True, default=dict, verbose_name='figures, rules and regions')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                        ('published_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='published by')),
                    ],
                    options={
                        'verbose_name': 'catalog',
                        'verbose_name_plural': 'catalogs',
                        'db_table': 'advisor_catalog',
                        'ordering': ['-version'],
                    },
                ),
                migrations.CreateModel(
                    name='CatalogAccelerator',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.TextField(help_text='Where the figures come from: a URL, a document, a file.', verbose_name='source')),
                        ('as_of', models.DateField(blank=True, help_text='The date the figures were read from their source.', null=True, verbose_name='as of')),
                        ('extra', models.JSONField(blank=True, default=dict, verbose_name='other data')),
                        ('key', models.CharField(max_length=50, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9._-]*$', 'Use lower-case letters, digits, dots, dashes and underscores.')], verbose_name='id')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('vendor', models.CharField(blank=True, max_length=50, verbose_name='vendor')),
                        ('kind', models.CharField(choices=[('gpu', 'GPU'), ('tpu', 'TPU')], max_length=3, verbose_name='type')),
                        ('memory_gb', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(4423.68)], verbose_name='memory (GB, as marketed)')),
                        ('memory_gib', models.FloatField(validators=[django.core.validators.MinValueValidator(0.5), django.core.validators.MaxValueValidator(4096)], verbose_name='usable memory (GiB)')),
                        ('memory_bw_tbps', models.FloatField(validators=[django.core.validators.MinValueValidator(0.01), django.core.validators.MaxValueValidator(100)], verbose_name='memory bandwidth (TB/s)')),
                        ('bf16_dense_tflops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='BF16 dense TFLOPS')),
                        ('fp16_dense_tflops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='FP16 dense TFLOPS')),
                        ('fp8_dense_tflops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='FP8 dense TFLOPS')),
                        ('int8_dense_tops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='INT8 dense TOPS')),
                        ('interconnect', models.CharField(blank=True, max_length=200, verbose_name='interconnect')),
                        ('fast_interconnect', models.BooleanField(default=False, verbose_name='fast interconnect (NVLink, ICI)')),
                        ('max_devices_per_node', models.PositiveSmallIntegerField(default=8, validators=[django.core.validators.MinValueValidator(1)], verbose_name='devices per server')),
                        ('max_devices_per_group', models.PositiveIntegerField(default=4096, validators=[django.core.validators.MinValueValidator(1)], verbose_name='devices per group (pod, cluster)')),
                        ('slice_sizes', models.JSONField(blank=True, help_text='The device counts a TPU slice comes in, e.g. [1, 4, 8, 16]; empty for GPUs.', null=True, verbose_name='slice sizes (TPU)')),
                        ('catalog', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='accelerators', to='reference.catalog', verbose_name='catalog')),
                    ],
                    options={
                        'verbose_name': 'accelerator',
                        'verbose_name_plural': 'accelerators',
                        'db_table': 'advisor_catalogaccelerator',
                        'ordering': ['pk'],
                    },
                ),
                migrations.CreateModel(
                    name='CatalogPreset',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.TextField(help_text='Where the figures come from: a URL, a document, a file.', verbose_name='source')),
                        ('as_of', models.DateField(blank=True, help_text='The date the figures were read from their source.', null=True, verbose_name='as of')),
                        ('extra', models.JSONField(blank=True, default=dict, verbose_name='other data')),
                        ('key', models.CharField(max_length=50, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9._-]*$', 'Use lower-case letters, digits, dots, dashes and underscores.')], verbose_name='id')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('parameters', models.PositiveBigIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='parameters')),
                        ('layers', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='layers')),
                        ('hidden_size', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='hidden size')),
                        ('intermediate_size', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='intermediate size')),
                        ('attention_heads', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='attention heads')),
                        ('kv_heads', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='KV heads')),
                        ('head_dim', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='head dimension')),
                        ('vocab_size', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='vocabulary size')),
                        ('tied_embeddings', models.BooleanField(default=False, verbose_name='tied embeddings')),
                        ('max_position_embeddings', models.PositiveIntegerField(blank=True, null=True, verbose_name='context length')),
                        ('catalog', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presets', to='reference.catalog', verbose_name='catalog')),
                    ],
                    options={
                        'verbose_name': 'model preset',
                        'verbose_name_plural': 'model presets',
                        'db_table': 'advisor_catalogpreset',
                        'ordering': ['pk'],
                    },
                ),
                migrations.CreateModel(
                    name='CatalogPrice',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.TextField(help_text='Where the figures come from: a URL, a document, a file.', verbose_name='source')),
                        ('as_of', models.DateField(blank=True, help_text='The date the figures were read from their source.', null=True, verbose_name='as of')),
                        ('extra', models.JSONField(blank=True, default=dict, verbose_name='other data')),
                        ('key', models.CharField(max_length=40, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9._-]*$', 'Use lower-case letters, digits, dots, dashes and underscores.')], verbose_name='id')),
                        ('provider', models.CharField(max_length=100, verbose_name='provider')),
                        ('cloud', models.CharField(choices=[('gcp', 'Google Cloud'), ('aws', 'AWS'), ('azure', 'Azure'), ('other', 'Other provider')], max_length=10, verbose_name='cloud')),
                        ('modes', models.JSONField(default=list, verbose_name='deployment modes')),
                        ('billing', models.CharField(choices=[('on_demand', 'On demand (hourly)'), ('spot', 'Spot / preemptible'), ('flex_start', 'Flex start'), ('reserved_block', 'Reserved block'), ('commit_1y', '1-year commitment'), ('commit_3y', '3-year commitment'), ('monthly', 'Monthly')], max_length=20, verbose_name='billing')),
                        ('usd_per_device_hour', models.DecimalField(blank=True, decimal_places=6, max_digits=12, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(Decimal('500'))], verbose_name='USD per device-hour')),
                        ('usd_per_device_month', models.DecimalField(blank=True, decimal_places=4, max_digits=14, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(Decimal('250000'))], verbose_name='USD per device-month')),
                        ('region', models.CharField(blank=True, max_length=200, verbose_name='region')),
                        ('region_key', models.CharField(blank=True, max_length=40, verbose_name='region group')),
                        ('estimated', models.BooleanField(default=False, verbose_name='estimated')),
                        ('derived', models.BooleanField(default=False, help_text='Converted or computed from a sourced figure.', verbose_name='derived')),
                        ('note', models.TextField(blank=True, verbose_name='note')),
                        ('setup_fee_usd', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(Decimal('250000'))], verbose_name='setup fee (USD)')),
                        ('min_term_months', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='minimum term (months)')),
                        ('accelerator', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='prices', to='reference.catalogaccelerator', verbose_name='accelerator')),
                        ('catalog', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='prices', to='reference.catalog', verbose_name='catalog')),
                    ],
                    options={
                        'verbose_name': 'price',
                        'verbose_name_plural': 'prices',
                        'db_table': 'advisor_catalogprice',
                        'ordering': ['key'],
                    },
                ),
                migrations.CreateModel(
                    name='Contribution',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('value', models.CharField(max_length=50, verbose_name='answer value')),
                        ('option', models.CharField(blank=True, choices=[('gpu', 'GPU'), ('tpu', 'TPU'), ('public_cloud', 'Public cloud'), ('dedicated_hosting', 'Dedicated hosting'), ('bare_metal', 'Bare metal'), ('private_cloud', 'Private cloud'), ('on_premises', 'On premises')], max_length=20, verbose_name='option')),
                        ('points', models.DecimalField(decimal_places=3, default=0, max_digits=5, validators=[advisor.reference.models.validate_points], verbose_name='points')),
                        ('criterion', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='contributions', to='reference.criterion', verbose_name='criterion')),
                    ],
                    options={
                        'verbose_name': 'contribution',
                        'verbose_name_plural': 'contributions',
                        'db_table': 'advisor_contribution',
                        'ordering': ['pk'],
                    },
                ),
                migrations.CreateModel(
                    name='HistoricalCatalog',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('retired', 'Retired')], default='draft', max_length=10, verbose_name='status')),
                        ('description', models.TextField(blank=True, verbose_name='description')),
                        ('created_at', models.DateTimeField(blank=True, editable=False, verbose_name='created')),
                        ('published_at', models.DateTimeField(blank=True, null=True, verbose_name='published')),
                        ('retired_at', models.DateTimeField(blank=True, null=True, verbose_name='retired')),
                        ('version', models.PositiveIntegerField(db_index=True, validators=[django.core.validators.MinValueValidator(1)], verbose_name='version')),
                        ('data', models.JSONField(blank=True, default=dict, verbose_name='figures, rules and regions')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('created_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('published_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='published by')),
                    ],
                    options={
                        'verbose_name': 'historical catalog',
                        'verbose_name_plural': 'historical catalogs',
                        'db_table': 'advisor_historicalcatalog',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name='HistoricalCatalogAccelerator',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('source', models.TextField(help_text='Where the figures come from: a URL, a document, a file.', verbose_name='source')),
                        ('as_of', models.DateField(blank=True, help_text='The date the figures were read from their source.', null=True, verbose_name='as of')),
                        ('extra', models.JSONField(blank=True, default=dict, verbose_name='other data')),
                        ('key', models.CharField(max_length=50, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9._-]*$', 'Use lower-case letters, digits, dots, dashes and underscores.')], verbose_name='id')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('vendor', models.CharField(blank=True, max_length=50, verbose_name='vendor')),
                        ('kind', models.CharField(choices=[('gpu', 'GPU'), ('tpu', 'TPU')], max_length=3, verbose_name='type')),
                        ('memory_gb', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(4423.68)], verbose_name='memory (GB, as marketed)')),
                        ('memory_gib', models.FloatField(validators=[django.core.validators.MinValueValidator(0.5), django.core.validators.MaxValueValidator(4096)], verbose_name='usable memory (GiB)')),
                        ('memory_bw_tbps', models.FloatField(validators=[django.core.validators.MinValueValidator(0.01), django.core.validators.MaxValueValidator(100)], verbose_name='memory bandwidth (TB/s)')),
                        ('bf16_dense_tflops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='BF16 dense TFLOPS')),
                        ('fp16_dense_tflops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='FP16 dense TFLOPS')),
                        ('fp8_dense_tflops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='FP8 dense TFLOPS')),
                        ('int8_dense_tops', models.FloatField(blank=True, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(100000)], verbose_name='INT8 dense TOPS')),
                        ('interconnect', models.CharField(blank=True, max_length=200, verbose_name='interconnect')),
                        ('fast_interconnect', models.BooleanField(default=False, verbose_name='fast interconnect (NVLink, ICI)')),
                        ('max_devices_per_node', models.PositiveSmallIntegerField(default=8, validators=[django.core.validators.MinValueValidator(1)], verbose_name='devices per server')),
                        ('max_devices_per_group', models.PositiveIntegerField(default=4096, validators=[django.core.validators.MinValueValidator(1)], verbose_name='devices per group (pod, cluster)')),
                        ('slice_sizes', models.JSONField(blank=True, help_text='The device counts a TPU slice comes in, e.g. [1, 4, 8, 16]; empty for GPUs.', null=True, verbose_name='slice sizes (TPU)')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('catalog', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='reference.catalog', verbose_name='catalog')),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'historical accelerator',
                        'verbose_name_plural': 'historical accelerators',
                        'db_table': 'advisor_historicalcatalogaccelerator',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name='HistoricalCatalogPreset',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('source', models.TextField(help_text='Where the figures come from: a URL, a document, a file.', verbose_name='source')),
                        ('as_of', models.DateField(blank=True, help_text='The date the figures were read from their source.', null=True, verbose_name='as of')),
                        ('extra', models.JSONField(blank=True, default=dict, verbose_name='other data')),
                        ('key', models.CharField(max_length=50, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9._-]*$', 'Use lower-case letters, digits, dots, dashes and underscores.')], verbose_name='id')),
                        ('name', models.CharField(max_length=100, verbose_name='name')),
                        ('parameters', models.PositiveBigIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='parameters')),
                        ('layers', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='layers')),
                        ('hidden_size', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='hidden size')),
                        ('intermediate_size', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='intermediate size')),
                        ('attention_heads', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='attention heads')),
                        ('kv_heads', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='KV heads')),
                        ('head_dim', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='head dimension')),
                        ('vocab_size', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='vocabulary size')),
                        ('tied_embeddings', models.BooleanField(default=False, verbose_name='tied embeddings')),
                        ('max_position_embeddings', models.PositiveIntegerField(blank=True, null=True, verbose_name='context length')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('catalog', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='reference.catalog', verbose_name='catalog')),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'historical model preset',
                        'verbose_name_plural': 'historical model presets',
                        'db_table': 'advisor_historicalcatalogpreset',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name='HistoricalCatalogPrice',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('source', models.TextField(help_text='Where the figures come from: a URL, a document, a file.', verbose_name='source')),
                        ('as_of', models.DateField(blank=True, help_text='The date the figures were read from their source.', null=True, verbose_name='as of')),
                        ('extra', models.JSONField(blank=True, default=dict, verbose_name='other data')),
                        ('key', models.CharField(max_length=40, validators=[django.core.validators.RegexValidator('^[a-z0-9][a-z0-9._-]*$', 'Use lower-case letters, digits, dots, dashes and underscores.')], verbose_name='id')),
                        ('provider', models.CharField(max_length=100, verbose_name='provider')),
                        ('cloud', models.CharField(choices=[('gcp', 'Google Cloud'), ('aws', 'AWS'), ('azure', 'Azure'), ('other', 'Other provider')], max_length=10, verbose_name='cloud')),
                        ('modes', models.JSONField(default=list, verbose_name='deployment modes')),
                        ('billing', models.CharField(choices=[('on_demand', 'On demand (hourly)'), ('spot', 'Spot / preemptible'), ('flex_start', 'Flex start'), ('reserved_block', 'Reserved block'), ('commit_1y', '1-year commitment'), ('commit_3y', '3-year commitment'), ('monthly', 'Monthly')], max_length=20, verbose_name='billing')),
                        ('usd_per_device_hour', models.DecimalField(blank=True, decimal_places=6, max_digits=12, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(Decimal('500'))], verbose_name='USD per device-hour')),
                        ('usd_per_device_month', models.DecimalField(blank=True, decimal_places=4, max_digits=14, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(Decimal('250000'))], verbose_name='USD per device-month')),
                        ('region', models.CharField(blank=True, max_length=200, verbose_name='region')),
                        ('region_key', models.CharField(blank=True, max_length=40, verbose_name='region group')),
                        ('estimated', models.BooleanField(default=False, verbose_name='estimated')),
                        ('derived', models.BooleanField(default=False, help_text='Converted or computed from a sourced figure.', verbose_name='derived')),
                        ('note', models.TextField(blank=True, verbose_name='note')),
                        ('setup_fee_usd', models.DecimalField(blank=True, decimal_places=2, max_digits=10, null=True, validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(Decimal('250000'))], verbose_name='setup fee (USD)')),
                        ('min_term_months', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='minimum term (months)')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('accelerator', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='reference.catalogaccelerator', verbose_name='accelerator')),
                        ('catalog', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='reference.catalog', verbose_name='catalog')),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'historical price',
                        'verbose_name_plural': 'historical prices',
                        'db_table': 'advisor_historicalcatalogprice',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name='HistoricalContribution',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('value', models.CharField(max_length=50, verbose_name='answer value')),
                        ('option', models.CharField(blank=True, choices=[('gpu', 'GPU'), ('tpu', 'TPU'), ('public_cloud', 'Public cloud'), ('dedicated_hosting', 'Dedicated hosting'), ('bare_metal', 'Bare metal'), ('private_cloud', 'Private cloud'), ('on_premises', 'On premises')], max_length=20, verbose_name='option')),
                        ('points', models.DecimalField(decimal_places=3, default=0, max_digits=5, validators=[advisor.reference.models.validate_points], verbose_name='points')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('criterion', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='reference.criterion', verbose_name='criterion')),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'historical contribution',
                        'verbose_name_plural': 'historical contributions',
                        'db_table': 'advisor_historicalcontribution',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name='HistoricalScoringModel',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('retired', 'Retired')], default='draft', max_length=10, verbose_name='status')),
                        ('description', models.TextField(blank=True, verbose_name='description')),
                        ('created_at', models.DateTimeField(blank=True, editable=False, verbose_name='created')),
                        ('published_at', models.DateTimeField(blank=True, null=True, verbose_name='published')),
                        ('retired_at', models.DateTimeField(blank=True, null=True, verbose_name='retired')),
                        ('name', models.CharField(max_length=100, validators=[django.core.validators.RegexValidator('^\\S(.*\\S)?$', 'Enter a name without outer spaces.')], verbose_name='name')),
                        ('version', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='version')),
                        ('data', models.JSONField(blank=True, default=dict, verbose_name='settings')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('created_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('published_by', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='published by')),
                    ],
                    options={
                        'verbose_name': 'historical scoring model',
                        'verbose_name_plural': 'historical scoring models',
                        'db_table': 'advisor_historicalscoringmodel',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.CreateModel(
                    name='PriceRefresh',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('source', models.CharField(choices=[('azure', 'Azure Retail Prices API'), ('aws', 'AWS Price List'), ('gcp', 'Google Cloud Billing Catalog')], max_length=10, verbose_name='source')),
                        ('status', models.CharField(choices=[('running', 'Running'), ('done', 'Done'), ('failed', 'Failed'), ('skipped', 'Skipped')], default='running', max_length=10, verbose_name='status')),
                        ('started_at', models.DateTimeField(verbose_name='started')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                        ('message', models.TextField(blank=True, verbose_name='message')),
                        ('prices_changed', models.PositiveIntegerField(default=0, verbose_name='prices changed')),
                        ('draft', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='price_refreshes', to='reference.catalog', verbose_name='draft catalog')),
                    ],
                    options={
                        'verbose_name': 'price refresh',
                        'verbose_name_plural': 'price refreshes',
                        'db_table': 'advisor_pricerefresh',
                        'ordering': ['-started_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='ScoringModel',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('draft', 'Draft'), ('published', 'Published'), ('retired', 'Retired')], default='draft', max_length=10, verbose_name='status')),
                        ('description', models.TextField(blank=True, verbose_name='description')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('published_at', models.DateTimeField(blank=True, null=True, verbose_name='published')),
                        ('retired_at', models.DateTimeField(blank=True, null=True, verbose_name='retired')),
                        ('name', models.CharField(max_length=100, validators=[django.core.validators.RegexValidator('^\\S(.*\\S)?$', 'Enter a name without outer spaces.')], verbose_name='name')),
                        ('version', models.PositiveIntegerField(validators=[django.core.validators.MinValueValidator(1)], verbose_name='version')),
                        ('data', models.JSONField(blank=True, default=dict, verbose_name='settings')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                        ('published_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='published by')),
                    ],
                    options={
                        'verbose_name': 'scoring model',
                        'verbose_name_plural': 'scoring models',
                        'db_table': 'advisor_scoringmodel',
                        'ordering': ['name', '-version'],
                    },
                ),
                migrations.CreateModel(
                    name='ImpactPreview',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('status', models.CharField(choices=[('pending', 'Waiting for a worker'), ('running', 'Running'), ('done', 'Ready'), ('failed', 'Failed')], default='pending', max_length=10, verbose_name='status')),
                        ('progress', models.FloatField(default=0.0, verbose_name='progress')),
                        ('total', models.PositiveIntegerField(default=0, verbose_name='assessments')),
                        ('result', models.JSONField(blank=True, null=True, verbose_name='result')),
                        ('error', models.TextField(blank=True, verbose_name='error')),
                        ('requested_at', models.DateTimeField(auto_now_add=True, verbose_name='requested')),
                        ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started')),
                        ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished')),
                        ('catalog', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='previews', to='reference.catalog')),
                        ('requested_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('scoring_model', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='previews', to='reference.scoringmodel')),
                    ],
                    options={
                        'verbose_name': 'impact preview',
                        'verbose_name_plural': 'impact previews',
                        'db_table': 'advisor_impactpreview',
                        'ordering': ['-requested_at'],
                    },
                ),
                migrations.CreateModel(
                    name='HistoricalCriterion',
                    fields=[
                        ('id', models.BigIntegerField(auto_created=True, blank=True, db_index=True, verbose_name='ID')),
                        ('key', models.CharField(max_length=50, validators=[django.core.validators.RegexValidator('^[a-z][a-z0-9_]*$', 'Use lower-case letters, digits and underscores, starting with a letter.')], verbose_name='key')),
                        ('answer', models.CharField(choices=[('cost.billing', 'cost.billing'), ('cost.ops_capacity', 'cost.ops_capacity'), ('deployment.allowed_modes', 'deployment.allowed_modes'), ('deployment.china_connectivity', 'deployment.china_connectivity'), ('deployment.clouds', 'deployment.clouds'), ('deployment.data_residency', 'deployment.data_residency'), ('deployment.portability', 'deployment.portability'), ('derived.latency_class', 'derived.latency_class'), ('derived.tpu_region_coverage', 'derived.tpu_region_coverage'), ('derived.training_scale', 'derived.training_scale'), ('derived.utilisation', 'derived.utilisation'), ('frameworks.custom_kernels', 'frameworks.custom_kernels'), ('frameworks.others', 'frameworks.others'), ('frameworks.primary', 'frameworks.primary'), ('frameworks.serving', 'frameworks.serving'), ('inference.traffic', 'inference.traffic'), ('maturity.demand', 'maturity.demand'), ('maturity.pipeline', 'maturity.pipeline'), ('maturity.stack_changes', 'maturity.stack_changes'), ('organization.industry', 'organization.industry'), ('organization.regions', 'organization.regions'), ('workload.kind', 'workload.kind'), ('workload.schedule', 'workload.schedule')], max_length=50, verbose_name='answer')),
                        ('weight', models.DecimalField(decimal_places=2, max_digits=5, validators=[advisor.reference.models.validate_weight], verbose_name='weight')),
                        ('applies_to', models.JSONField(default=advisor.reference.models.all_phases, verbose_name='applies to')),
                        ('combine', models.CharField(blank=True, choices=[('sum', 'Sum over values')], max_length=10, verbose_name='combine')),
                        ('label_en', models.CharField(max_length=200, verbose_name='label (English)')),
                        ('label_zh', models.CharField(max_length=200, verbose_name='label (Traditional Chinese)')),
                        ('rationale_en', models.TextField(blank=True, verbose_name='rationale (English)')),
                        ('rationale_zh', models.TextField(blank=True, verbose_name='rationale (Traditional Chinese)')),
                        ('order', models.PositiveSmallIntegerField(default=0, verbose_name='order')),
                        ('history_id', models.AutoField(primary_key=True, serialize=False)),
                        ('history_date', models.DateTimeField(db_index=True)),
                        ('history_change_reason', models.CharField(max_length=100, null=True)),
                        ('history_type', models.CharField(choices=[('+', 'Created'), ('~', 'Changed'), ('-', 'Deleted')], max_length=1)),
                        ('history_user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('scoring_model', models.ForeignKey(blank=True, db_constraint=False, null=True, on_delete=django.db.models.deletion.DO_NOTHING, related_name='+', to='reference.scoringmodel', verbose_name='scoring model')),
                    ],
                    options={
                        'verbose_name': 'historical criterion',
                        'verbose_name_plural': 'historical criteria',
                        'db_table': 'advisor_historicalcriterion',
                        'ordering': ('-history_date', '-history_id'),
                        'get_latest_by': ('history_date', 'history_id'),
                    },
                    bases=(simple_history.models.HistoricalChanges, models.Model),
                ),
                migrations.AddField(
                    model_name='criterion',
                    name='scoring_model',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='criteria', to='reference.scoringmodel', verbose_name='scoring model'),
                ),
                migrations.AddConstraint(
                    model_name='catalog',
                    constraint=models.UniqueConstraint(condition=models.Q(('status', 'published')), fields=('status',), name='one_published_catalog'),
                ),
                migrations.AddConstraint(
                    model_name='catalogaccelerator',
                    constraint=models.UniqueConstraint(fields=('catalog', 'key'), name='one_accelerator_key', violation_error_message='This catalog already has an accelerator with this id.'),
                ),
                migrations.AddConstraint(
                    model_name='catalogpreset',
                    constraint=models.UniqueConstraint(fields=('catalog', 'key'), name='one_preset_key', violation_error_message='This catalog already has a preset with this id.'),
                ),
                migrations.AddConstraint(
                    model_name='catalogprice',
                    constraint=models.UniqueConstraint(fields=('catalog', 'key'), name='one_price_key', violation_error_message='This catalog already has a price with this id.'),
                ),
                migrations.AddConstraint(
                    model_name='contribution',
                    constraint=models.UniqueConstraint(fields=('criterion', 'value', 'option'), name='one_contribution_per_option'),
                ),
                migrations.AddIndex(
                    model_name='pricerefresh',
                    index=models.Index(fields=['source', 'status', '-started_at'], name='advisor_pri_source_630aa5_idx'),
                ),
                migrations.AddConstraint(
                    model_name='scoringmodel',
                    constraint=models.UniqueConstraint(fields=('name', 'version'), name='one_scoring_model_version', violation_error_message='This version of this model already exists; use the next version number.'),
                ),
                migrations.AddConstraint(
                    model_name='scoringmodel',
                    constraint=models.UniqueConstraint(condition=models.Q(('status', 'published')), fields=('status',), name='one_published_scoring_model'),
                ),
                migrations.AddConstraint(
                    model_name='impactpreview',
                    constraint=models.CheckConstraint(condition=models.Q(('scoring_model__isnull', True), ('catalog__isnull', True), _connector='XOR'), name='preview_of_a_model_or_a_catalog'),
                ),
                migrations.AddConstraint(
                    model_name='criterion',
                    constraint=models.UniqueConstraint(fields=('scoring_model', 'key'), name='one_criterion_key'),
                ),
            ],
        ),
        migrations.RunPython(content_types_forward, content_types_backward),
    ]
