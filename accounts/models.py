from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_plain_name


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        if not email:
            raise ValueError("Users need an email address")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def get_by_natural_key(self, username: str | None) -> User:
        # Addresses are stored in lower case, but people type them as they like.
        return self.get(email__iexact=str(username or "").strip())

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    """A person; logs in with their email address."""

    email = models.EmailField(_("email address"), unique=True)
    full_name = models.CharField(
        _("full name"), max_length=150, blank=True, validators=[validate_plain_name]
    )
    is_active = models.BooleanField(_("active"), default=True)
    is_staff = models.BooleanField(_("staff status"), default=False)
    date_joined = models.DateTimeField(_("date joined"), default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints: ClassVar = [
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.email

    def get_full_name(self) -> str:
        return self.full_name or self.email

    def get_short_name(self) -> str:
        return self.full_name.split(" ")[0] if self.full_name else self.email


class Organization(models.Model):
    name = models.CharField(_("name"), max_length=120, validators=[validate_plain_name])
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # The company that runs the site. Its sales engineers and admins are the site's staff, with
    # powers over global data (scoring models, the catalog, impact previews); the same roles in
    # any other organisation (a customer, a prospect) reach only that organisation's own data.
    is_operator = models.BooleanField(
        _("operating organisation"),
        default=False,
        help_text=_(
            "The company running this site. Its sales engineers and admins read and edit the "
            "scoring models and the price catalog. At most one organisation."
        ),
    )

    class Meta:
        verbose_name = _("organisation")
        verbose_name_plural = _("organisations")
        ordering: ClassVar = ["name"]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["is_operator"],
                condition=models.Q(is_operator=True),
                name="one_operator_organization",
                violation_error_message=_("Another organisation already runs this site."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    # Lowest to highest: an invitation never moves anyone down this list.
    # Fills in assessments for their own organisation.
    MEMBER = "member", _("Member")
    # Prepares assessments for customer organisations and shares reports; in the operating
    # organisation also reads the scoring models, the catalog and impact previews.
    SALES_ENGINEER = "sales_engineer", _("Sales engineer")
    # Invites colleagues with any role; in the operating organisation also edits scoring
    # weights and the catalog in the Django admin.
    ADMIN = "admin", _("Admin")


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["user", "organization"], name="one_membership_per_org"),
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.organization} ({self.role})"


class Invitation(models.Model):
    """An email link that lets someone join an organisation; usable once, until it expires."""

    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="invitations"
    )
    email = models.EmailField(_("email address"))
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.MEMBER)
    # Only the SHA-256 of the token is stored, so a database leak does not leak live links.
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"))
    accepted_at = models.DateTimeField(_("accepted"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    # Where the invited person lands after joining, e.g. the assessment they are asked to fill.
    next_path = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering: ClassVar = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.email} → {self.organization}"

    @property
    def is_usable(self) -> bool:
        return self.accepted_at is None and self.expires_at > timezone.now()


class ApiToken(models.Model):
    """A personal key for the JSON API, sent as `Authorization: Bearer <key>`.

    Only the SHA-256 of the key is stored: it is shown once, when created, and a database leak
    does not leak working keys. The prefix stays so people can tell their keys apart.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=8, editable=False)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True, editable=False)
    # Empty: works until revoked (or until its owner's password changes).
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering: ClassVar = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and not self.is_expired
