from __future__ import annotations

from typing import ClassVar

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import ApiToken, Invitation, Membership, Organization, User
from accounts.services import api_token_revoke


class MembershipInline(admin.TabularInline[Membership, User]):
    model = Membership
    extra = 0
    autocomplete_fields: ClassVar = ["organization"]


@admin.register(User)
class UserAdmin(BaseUserAdmin[User]):
    ordering = ("email",)
    list_display = ("email", "full_name", "is_staff", "is_active", "date_joined")
    search_fields = ("email", "full_name")
    fieldsets = (
        (None, {"fields": ("email", "password")}),
        (_("Personal info"), {"fields": ("full_name",)}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Important dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)
    inlines = (MembershipInline,)


@admin.register(Organization)
class OrganizationAdmin(admin.ModelAdmin[Organization]):
    list_display = ("name", "slug", "is_operator", "created_at")
    list_filter = ("is_operator",)
    search_fields = ("name", "slug")
    fields = ("name", "slug", "is_operator")
    prepopulated_fields: ClassVar = {"slug": ("name",)}


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = ("email", "organization", "role", "created_at", "expires_at", "accepted_at")
    list_filter = ("role",)
    readonly_fields = ("token_hash", "accepted_at", "accepted_by", "invited_by")


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin[ApiToken]):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__email")
    readonly_fields = ("prefix", "key_hash", "created_at", "last_used_at", "revoked_at")
    autocomplete_fields: ClassVar = ["user"]
    actions = ("revoke",)

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke(self, request: HttpRequest, queryset: QuerySet[ApiToken]) -> None:
        for token in queryset:
            api_token_revoke(token=token)

    def has_add_permission(self, request: HttpRequest) -> bool:
        # A key made here could never be shown to anyone; people create their own.
        return False
