"""Benchmark: the impact preview over (at least) 10,000 submitted assessments.

Fills the database it runs against up to --count submitted assessments (bulk_create, answers
from the starters with random valid variations), then times `impact_preview` of a draft that
is a clone of the active model with a few weights changed. Target: under 30 s.
With --catalog, also times the impact preview of a draft catalog (a clone of the published one
with the MI300X prices cut), which compares full results (cards and monthly cost) as well.
"""

from __future__ import annotations

import copy
import random
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts import services as account_services
from accounts.models import Organization
from advisor.decisions import live
from advisor.engine import AnswersError, parse_answers
from advisor.engine.answers import vocabulary
from advisor.models import Assessment
from advisor.reference.models import Catalog, Criterion, ScoringModel
from advisor.reference.services.catalog import catalog_clone
from advisor.reference.services.impact import impact_preview
from advisor.reference.services.scoring import scoring_model_clone, scoring_model_from_document
from advisor.starters import STARTERS

# (section, key, values) that a variation may change; the engine's own value lists.
VARIATIONS: tuple[tuple[str, str, tuple[Any, ...]], ...] = (
    ("organization", "industry", vocabulary.INDUSTRIES),
    ("maturity", "stack_changes", vocabulary.STACK_CHANGES),
    ("maturity", "pipeline", vocabulary.PIPELINES),
    ("maturity", "demand", vocabulary.DEMANDS),
    ("frameworks", "primary", vocabulary.FRAMEWORKS),
    ("frameworks", "custom_kernels", (True, False)),
    ("deployment", "portability", vocabulary.PORTABILITY),
    ("deployment", "china_connectivity", (True, False)),
    ("deployment", "data_residency", vocabulary.RESIDENCY),
    ("cost", "billing", vocabulary.BILLING),
    ("cost", "ops_capacity", vocabulary.OPS_CAPACITY),
    ("cost", "hours_per_day", (2, 6, 10, 14, 20, 24)),
)


def varied_answers(rng: random.Random) -> dict[str, Any]:
    """A starter's answers with random changes, each kept only if the engine accepts it."""
    doc = copy.deepcopy(rng.choice(STARTERS).answers)
    for section, key, values in VARIATIONS:
        if not isinstance(doc.get(section), dict) or rng.random() < 0.5:
            continue
        trial = copy.deepcopy(doc)
        trial[section][key] = rng.choice(values)
        try:
            parse_answers(trial)
        except AnswersError:
            continue
        doc = trial
    return doc


class Command(BaseCommand):
    help = (
        "Create submitted assessments up to --count if fewer exist, then time an impact "
        "preview (re-scoring all of them with a draft and the active model)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--count", type=int, default=10_000)
        parser.add_argument("--seed", type=int, default=6)
        parser.add_argument(
            "--catalog", action="store_true", help="also time a draft catalog's preview"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        count = options["count"]
        if count < 1:
            raise CommandError("--count must be at least 1")
        missing = count - Assessment.objects.filter(status=Assessment.Status.SUBMITTED).count()
        if missing > 0:
            self._fill(missing, random.Random(options["seed"]))  # noqa: S311 - test data
        draft = self._draft()
        started = time.perf_counter()
        result = impact_preview(draft=draft)
        seconds = time.perf_counter() - started
        flips = result["flips"]
        self.stdout.write(
            f"impact preview: {result['scored']} assessments re-scored "
            f"({result['skipped']} skipped) with {result['candidate']['name']} "
            f"v{result['candidate']['version']} against v{result['baseline']['version']} "
            f"in {seconds:.2f} s (target < 30 s); flips: accelerator {flips['accelerator']}, "
            f"deployment mode {flips['deployment_mode']}, billing {flips['billing']}"
        )
        if options["catalog"]:
            catalog = self._catalog_draft()
            started = time.perf_counter()
            result = impact_preview(catalog_draft=catalog)
            seconds = time.perf_counter() - started
            self.stdout.write(
                f"catalog impact preview: {result['scored']} assessments re-scored and re-priced "
                f"with catalog v{catalog.version} in {seconds:.2f} s; cards changed "
                f"{result['flips']['card']}, monthly cost change mean {result['shift']['mean']}%"
            )

    def _catalog_draft(self) -> Catalog:
        draft = Catalog.objects.filter(
            status=Catalog.Status.DRAFT, description__startswith="bench"
        ).first()
        if draft is not None:
            return draft
        active = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
        if active is None:
            raise CommandError("no published catalog: run the migrations first")
        draft = catalog_clone(catalog=active, user=None)
        draft.description = "bench: MI300X prices at half"
        draft.save(update_fields=["description"])
        for price in draft.prices.filter(accelerator__key="amd-mi300x"):
            if price.usd_per_device_hour is not None:
                price.usd_per_device_hour /= 2
                price.save(update_fields=["usd_per_device_hour"])
        return draft

    def _fill(self, missing: int, rng: random.Random) -> None:
        organization = Organization.objects.filter(name="Benchmark").first()
        if organization is None:
            organization = account_services.organization_create(name="Benchmark")
        started = time.perf_counter()
        with transaction.atomic():
            Assessment.objects.bulk_create(
                (
                    Assessment(
                        organization=organization,
                        title=f"bench rescore {i}",
                        status=Assessment.Status.SUBMITTED,
                        answers=varied_answers(rng),
                    )
                    for i in range(missing)
                ),
                batch_size=1_000,
            )
        self.stdout.write(f"created {missing} assessments in {time.perf_counter() - started:.1f} s")

    def _draft(self) -> ScoringModel:
        """The benchmark's draft: reused if there is one, else a clone of the active model."""
        draft = ScoringModel.objects.filter(
            status=ScoringModel.Status.DRAFT, description__startswith="bench"
        ).first()
        if draft is not None:
            return draft
        active = ScoringModel.objects.filter(status=ScoringModel.Status.PUBLISHED).first()
        if active is None:
            document = live.active_scoring_model().to_dict()
            document["version"] = 1
            active = scoring_model_from_document(document=document, user=None)
        draft = scoring_model_clone(model=active, user=None)
        draft.description = "bench: framework fit and ops capacity weigh more"
        draft.save(update_fields=["description"])
        Criterion.objects.filter(scoring_model=draft, key="framework_fit").update(weight=6)
        Criterion.objects.filter(scoring_model=draft, key="ops_capacity").update(weight=4)
        return draft
