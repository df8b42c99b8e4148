from __future__ import annotations

from typing import Any

import factory

from accounts.models import Membership, Organization, Role, User

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
