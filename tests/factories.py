from __future__ import annotations

from typing import Any

import factory
from django.utils import timezone

from accounts.models import Membership, Organization, Role, User
from advisor.models import Assessment, Report
from advisor.reference.models import Catalog, ScoringModel

PASSWORD = "correct-horse-battery-9"


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"person{n}@example.com")
    full_name = factory.Faker("name")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj: User, create: bool, extracted: Any, **kwargs: Any) -> None:  # noqa: N805
        if create:
            obj.save()


class OrganizationFactory(factory.django.DjangoModelFactory[Organization]):
    class Meta:
        model = Organization

    name = factory.Sequence(lambda n: f"Org {n}")
    slug = factory.Sequence(lambda n: f"org-{n}")


class MembershipFactory(factory.django.DjangoModelFactory[Membership]):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    organization = factory.SubFactory(OrganizationFactory)
    role = Role.MEMBER


def operator_organization() -> Organization:
    """The operating organisation (the company running the site), made on first use."""
    return Organization.objects.filter(is_operator=True).first() or OrganizationFactory(
        name="Operator", is_operator=True
    )


def operator_member(role: str) -> User:
    """A person of the operating organisation with `role`, joined as the app joins people
    (its admins become staff)."""
    from accounts.services import membership_create

    user = UserFactory()
    membership_create(user=user, organization=operator_organization(), role=role)
    user.refresh_from_db()
    return user


def api_token_for(user: User, name: str = "CI") -> str:
    """A live API key for `user` (the raw key, as a client would hold it)."""
    from accounts.services import api_token_create

    _, key = api_token_create(user=user, name=name)
    return key


# --- assessments, reports, scoring models, catalogs --------------------------------------------

# The starter a submitted assessment answers with unless a test names another.
STARTER = "llm-fine-tuning-startup"


def _answers(starter: str | None, status: str) -> dict[str, Any]:
    """A starter's answers; a submitted assessment has complete ones, a draft only begins."""
    from advisor.starters import BY_SLUG

    if starter is None and status != Assessment.Status.SUBMITTED:
        return {"schema_version": 3}
    return BY_SLUG[starter or STARTER].document()


class AssessmentFactory(factory.django.DjangoModelFactory[Assessment]):
    """An assessment of `membership`'s organisation created by its user (or of a new
        organisation); `submitted=True` submits it with a starter's complete answers (`starter=`
    picks which)."""

    class Meta:
        model = Assessment

    class Params:
        membership: Membership | None = None
        starter: str | None = None
        submitted = factory.Trait(status=Assessment.Status.SUBMITTED)

    organization = factory.LazyAttribute(
        lambda o: o.membership.organization if o.membership else OrganizationFactory()
    )
    created_by = factory.LazyAttribute(lambda o: o.membership.user if o.membership else None)
    title = factory.Sequence(lambda n: f"Assessment {n}")
    status = Assessment.Status.DRAFT
    answers = factory.LazyAttribute(lambda o: _answers(o.starter, o.status))


def _evaluate(answers: dict[str, Any], language: str) -> dict[str, Any]:
    from advisor.decisions import evaluation

    return evaluation.evaluate(answers, language=language)


class ReportFactory(factory.django.DjangoModelFactory[Report]):
    """A finished report (number 1 unless told) of a submitted assessment: the result evaluated
    now with the versions it used, placeholder HTML and PDF. `queued=True` gives the row a
    request leaves for the worker (pending, nothing rendered)."""

    class Meta:
        model = Report

    class Params:
        queued = factory.Trait(
            status=Report.Status.PENDING,
            result=None,
            html="",
            finished_at=None,
            scoring_model="",
            pdf="",
        )

    assessment = factory.SubFactory(AssessmentFactory, submitted=True)
    number = 1
    language = "en"
    status = Report.Status.DONE
    answers = factory.LazyAttribute(lambda o: o.assessment.answers)
    result = factory.LazyAttribute(lambda o: _evaluate(o.answers, o.language))
    html = "<section><h2>Executive summary</h2><p>GPU on public cloud</p></section>"
    finished_at = factory.LazyFunction(timezone.now)
    engine_version = factory.LazyAttribute(
        lambda o: str((o.result or {}).get("versions", {}).get("engine", ""))
    )
    scoring_model = "default v1"
    catalog_version = factory.LazyAttribute(
        lambda o: str((o.result or {}).get("versions", {}).get("catalog", ""))
    )
    pdf = factory.django.FileField(data=b"%PDF-1.4 test", filename="report.pdf")


class ScoringModelFactory(factory.django.DjangoModelFactory[ScoringModel]):
    """A draft scoring model: the next version, cloned from the published one with its
    criteria and contributions, as an editor starts one. Keyword arguments set its fields."""

    class Meta:
        model = ScoringModel

    @classmethod
    def _create(cls, model_class: type[ScoringModel], *args: Any, **kwargs: Any) -> ScoringModel:
        from advisor.reference.services.scoring import scoring_model_clone

        published = ScoringModel.objects.get(status=ScoringModel.Status.PUBLISHED)
        user = kwargs.pop("created_by", None)
        draft = scoring_model_clone(model=published, user=user)
        return _with_fields(draft, kwargs)


def published_catalog() -> Catalog:
    """The published catalog; version 1 published from the bundled one when there is none
    (transactional tests flush the rows the migrations seeded)."""
    import dataclasses

    from advisor import engine
    from advisor.reference.services.catalog import catalog_from_document

    active = Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
    if active is None:
        bundled = engine.load_catalog()
        document = {
            **bundled.to_dict(),
            "model_presets": [dataclasses.asdict(p) for p in bundled.presets.values()],
        }
        active = catalog_from_document(
            document=document, user=None, version=1, status=Catalog.Status.PUBLISHED
        )
    return active


class CatalogFactory(factory.django.DjangoModelFactory[Catalog]):
    """A draft catalog: the next version, cloned from the published one with its accelerators,
    prices and presets, as an editor starts one. Keyword arguments set its fields."""

    class Meta:
        model = Catalog

    @classmethod
    def _create(cls, model_class: type[Catalog], *args: Any, **kwargs: Any) -> Catalog:
        from advisor.reference.services.catalog import catalog_clone

        user = kwargs.pop("created_by", None)
        draft = catalog_clone(catalog=published_catalog(), user=user)
        return _with_fields(draft, kwargs)


def _with_fields[M: (ScoringModel, Catalog)](obj: M, fields: dict[str, Any]) -> M:
    for name, value in fields.items():
        setattr(obj, name, value)
    if fields:
        obj.save(update_fields=list(fields))
    return obj
