"""Admin for scoring models and catalogs: rows as tables, clone → preview → publish.

Both kinds' own pages come from one VersionedAdmin. Only the admin role edits (see
advisor.permissions.can_edit_reference). Published and retired versions open read-only; every
change is recorded by django-simple-history (the audit trail).
"""

from __future__ import annotations

import json
import threading
from datetime import date, timedelta
from decimal import Decimal
from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Model, QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import DeletedObject, ModelChange
from simple_history.template_utils import HistoricalRecordContextHelper

from accounts.models import User
from advisor import jsonsafe
from advisor.engine import load_catalog
from advisor.engine.answers import ARCHITECTURE_FIELDS, preset_ids
from advisor.labels import label_for
from advisor.permissions import can_edit_reference as can_edit_scoring_models
from advisor.reference import selectors
from advisor.reference.models import (
    ANSWER_VALUES,
    MODE_CHOICES,
    PHASE_CHOICES,
    Catalog,
    CatalogAccelerator,
    CatalogPreset,
    CatalogPrice,
    Contribution,
    Criterion,
    HouseOffer,
    ImpactPreview,
    PriceRefresh,
    ScoringModel,
)
from advisor.reference.selectors import latest_preview, preview_context
from advisor.reference.services.catalog import (
    CATALOG_IMPORT_MAX_BYTES,
    CatalogInvalid,
    CatalogLocked,
    catalog_clone,
    catalog_diff,
    catalog_document_problems,
    catalog_draft_for_edit,
    catalog_ensure_editable,
    catalog_export,
    catalog_import,
    catalog_next_version,
    catalog_publish,
    house_provider_name,
)
from advisor.reference.services.impact import impact_preview_request
from advisor.reference.services.scoring import (
    ScoringModelInvalid,
    ScoringModelLocked,
    scoring_document_problems,
    scoring_model_clone,
    scoring_model_diff,
    scoring_model_ensure_editable,
    scoring_model_export,
    scoring_model_import,
    scoring_model_next_version,
    scoring_model_publish,
)


def _locked_message(model: ScoringModel) -> str:
    return str(ScoringModelLocked(model))


def _stored_status(model: ScoringModel | None) -> str | None:
    if model is None or model.pk is None:
        return None
    return ScoringModel.objects.filter(pk=model.pk).values_list("status", flat=True).first()


class EditorsOnly:
    """Admin permissions by role rather than by Django model permissions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return can_edit_scoring_models(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user)


class NoBulkDelete:
    def get_actions(
        self,
        request: HttpRequest,
        action_location: admin.ActionLocation = admin.ActionLocation.CHANGE_LIST,
    ) -> dict[str, Any]:
        # The bulk delete checks no object, so it would delete published models too; drafts
        # are deleted one at a time from their own page.
        actions: dict[str, Any] = super().get_actions(  # type: ignore[misc]
            request, action_location
        )
        actions.pop("delete_selected", None)
        return actions


def _related_label(model: Any, name: str, value: Any, seen: dict[tuple[Any, Any], str]) -> Any:
    """A history value as people read it: a foreign key names its row (a user by email
    address), not its id. `seen` keeps the rows already looked up for one page."""
    field = model._meta.get_field(name)
    if not (field.is_relation and field.many_to_one):
        return value
    if isinstance(value, DeletedObject):  # simple-history's history pages pass rows, not ids
        value = value.pk
    elif isinstance(value, Model):
        return str(value)
    if value is None:
        return None
    key = (field.related_model, value)
    if key not in seen:
        row = field.related_model._default_manager.filter(pk=value).first()
        seen[key] = str(row) if row is not None else f"#{value}"
    return seen[key]


class _NamedHistoryHelper(HistoricalRecordContextHelper):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seen: dict[tuple[Any, Any], str] = {}

    def prepare_delta_change_value(self, change: ModelChange, value: Any) -> Any:
        value = super().prepare_delta_change_value(change, value)
        label = _related_label(self.model, change.field, value, self.seen)
        return "—" if label is None else label


class NamedHistory:
    """django-simple-history's own history pages name related rows instead of their ids."""

    model: Any

    def get_historical_record_context_helper(
        self, request: HttpRequest, historical_record: Any
    ) -> HistoricalRecordContextHelper:
        return _NamedHistoryHelper(self.model, historical_record)


class VersionedAdmin(NoBulkDelete, EditorsOnly, NamedHistory, SimpleHistoryAdmin):  # type: ignore[misc]
    """One implementation of the pages scoring models and catalogs share: draft editing,
    clone, publish, export, import, diff, impact preview and audit.

    A subclass names its services (the hooks below) and its words: `noun` is the placeholder
    its messages call the version by, `texts` those messages (each kind keeps its own wording
    and translations). Drafts are deleted like edited."""

    noun: ClassVar[str]
    texts: ClassVar[dict[str, Any]]
    locked_error: ClassVar[type[Exception]]
    invalid_error: ClassVar[type[Any]]
    confirm_template: ClassVar[str]
    diff_template: ClassVar[str]
    import_max_bytes: ClassVar[int] = jsonsafe.MAX_BYTES
    # Words only one kind's pages carry, e.g. a catalog import's introduction.
    import_words: ClassVar[dict[str, Any]] = {}
    preview_words: ClassVar[dict[str, Any]] = {}

    # The kind's services.

    def clone(self, obj: Any, user: User) -> Any:
        raise NotImplementedError

    def publish(self, obj: Any, user: User) -> Any:
        raise NotImplementedError

    def next_version(self, obj: Any) -> int:
        raise NotImplementedError

    def export(self, obj: Any) -> str:
        raise NotImplementedError

    def export_filename(self, obj: Any) -> str:
        raise NotImplementedError

    def import_json(self, json_text: str, user: User) -> Any:
        raise NotImplementedError

    def diff(self, old: Any, new: Any) -> dict[str, Any]:
        raise NotImplementedError

    def document_problems(self, obj: Any) -> list[str]:
        raise NotImplementedError

    def ensure_editable(self, obj: Any) -> None:
        raise NotImplementedError

    def request_preview(self, obj: Any, user: User) -> None:
        raise NotImplementedError

    def default_against(self, others: QuerySet[Any], obj: Any) -> Any:
        """The version a diff compares with when none is chosen: the published one."""
        return others.filter(status=self.model.Status.PUBLISHED).first()

    def audit_histories(self, obj: Any) -> list[Any]:
        raise NotImplementedError

    def publish_context(self, obj: Any) -> dict[str, Any]:
        return {}

    # What the pages share.

    def _say(self, key: str, obj: Any, **more: Any) -> str:
        return str(self.texts[key]) % {self.noun: obj, **more}

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        allowed: bool = self.has_change_permission(request, obj)
        return allowed

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        info = f"{self.opts.app_label}_{self.opts.model_name}"
        return [
            path("import/", view(self.import_view), name=f"{info}_import"),
            path("<int:pk>/clone/", view(self.clone_view), name=f"{info}_clone"),
            path("<int:pk>/publish/", view(self.publish_view), name=f"{info}_publish"),
            path("<int:pk>/export/", view(self.export_view), name=f"{info}_export"),
            path("<int:pk>/diff/", view(self.diff_view), name=f"{info}_diff"),
            path("<int:pk>/preview/", view(self.preview_view), name=f"{info}_preview"),
            path("<int:pk>/audit/", view(self.audit_view), name=f"{info}_audit"),
            *super().get_urls(),
        ]

    def _user(self, request: HttpRequest) -> User:
        assert isinstance(request.user, User)  # noqa: S101 - admin views need a login
        return request.user

    def _get(self, request: HttpRequest, pk: int) -> Any:
        """The version `pk`, for the admin role only (a 403 for other staff)."""
        if not can_edit_scoring_models(request.user):
            raise PermissionDenied
        return get_object_or_404(self.model, pk=pk)

    def _context(self, request: HttpRequest, obj: Any, **extra: Any) -> Any:
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": obj,
            **extra,
        }

    def _change_url(self, obj: Any) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])

    def _page_url(self, page: str, obj: Any) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_{page}", args=[obj.pk])

    # Drafts change; published and retired versions refuse, whichever way a save arrives.

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            self.ensure_editable(obj)
        else:
            obj.created_by = request.user
            obj.status = self.model.Status.DRAFT
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        self.ensure_editable(form.instance)
        super().save_formset(request, form, formset, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.ensure_editable(obj)
        super().delete_model(request, obj)

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        obj = self.get_object(request, object_id)
        extra = dict(extra_context or {})
        if obj is not None and obj.is_editable:
            extra["problems"] = self.document_problems(obj)
        response: HttpResponse = super().change_view(request, object_id, form_url, extra)
        return response

    # Actions on the list.

    @admin.action(description=gettext_lazy("Clone into a new draft"))
    def clone_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            draft = self.clone(obj, self._user(request))
            self.message_user(request, self._say("cloned", obj, draft=draft), messages.SUCCESS)

    @admin.action(description=gettext_lazy("Publish (one draft)"))
    def publish_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        if queryset.count() != 1:
            self.message_user(request, _("Select exactly one draft to publish."), messages.ERROR)
            return
        self._publish(request, queryset.get())

    # Pages of their own.

    def _publish(self, request: HttpRequest, obj: Any) -> bool:
        try:
            self.publish(obj, self._user(request))
        except self.locked_error as error:
            self.message_user(request, str(error), messages.ERROR)
            return False
        except self.invalid_error as error:
            self.message_user(request, self._say("not_published", obj), messages.ERROR)
            for problem in error.problems:
                self.message_user(request, problem, messages.ERROR)
            return False
        self.message_user(request, self._say("published", obj), messages.SUCCESS)
        return True

    def clone_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        if request.method == "POST":
            draft = self.clone(obj, self._user(request))
            self.message_user(request, self._say("cloned", obj, draft=draft), messages.SUCCESS)
            return redirect(self._change_url(draft))
        context = self._context(
            request,
            obj,
            title=self._say("clone_title", obj),
            action="clone",
            next_version=self.next_version(obj),
        )
        return TemplateResponse(request, self.confirm_template, context)

    def publish_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        if request.method == "POST":
            self._publish(request, obj)
            return redirect(self._change_url(obj))
        context = self._context(
            request,
            obj,
            title=self._say("publish_title", obj),
            action="publish",
            problems=self.document_problems(obj) if obj.is_editable else [],
            active=self.model.objects.filter(status=self.model.Status.PUBLISHED).first(),
            preview=latest_preview(obj, finished=True),
            **self.publish_context(obj),
        )
        return TemplateResponse(request, self.confirm_template, context)

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        response = HttpResponse(self.export(obj), content_type="application/json")
        response["Content-Disposition"] = content_disposition_header(
            True, self.export_filename(obj)
        )
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not can_edit_scoring_models(request.user):
            raise PermissionDenied
        form = ImportForm(
            request.POST or None, request.FILES or None, max_bytes=self.import_max_bytes
        )
        problems: list[str] = []
        if request.method == "POST" and form.is_valid():
            try:
                obj = self.import_json(form.cleaned_data["json_text"], self._user(request))
            except self.invalid_error as error:
                problems = error.problems
            else:
                self.message_user(request, self._say("imported", obj), messages.SUCCESS)
                return redirect(self._change_url(obj))
        context = self._context(
            request,
            None,
            title=str(self.texts["import_title"]),
            form=form,
            problems=problems,
            **self.import_words,
        )
        return TemplateResponse(request, "admin/reference/scoringmodel/import.html", context)

    def diff_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        others = self.model.objects.exclude(pk=obj.pk)
        form = DiffForm(request.GET or None, others=others)
        against = None
        if form.is_bound and form.is_valid():
            against = form.cleaned_data["against"]
        elif not form.is_bound:
            against = self.default_against(others, obj)
            form = DiffForm(initial={"against": against}, others=others)
        context = self._context(
            request,
            obj,
            title=self._say("diff_title", obj),
            form=form,
            against=against,
            diff=self.diff(against, obj) if against else None,
        )
        return TemplateResponse(request, self.diff_template, context)

    def preview_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        if request.method == "POST":
            try:
                self.request_preview(obj, self._user(request))
            except ScoringModelInvalid as error:
                for problem in error.problems:
                    self.message_user(request, problem, messages.ERROR)
            return redirect(self._page_url("preview", obj))
        preview = latest_preview(obj)
        context = self._context(
            request,
            obj,
            title=self._say("preview_title", obj),
            poll=preview is not None and not preview.is_finished,
            **self.preview_words,
            **preview_context(preview, user=request.user),
        )
        return TemplateResponse(request, "admin/reference/scoringmodel/preview.html", context)

    def audit_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        context = self._context(
            request,
            obj,
            title=self._say("audit_title", obj),
            entries=history_entries(self.audit_histories(obj)),
        )
        return TemplateResponse(request, "admin/reference/scoringmodel/audit.html", context)


# --- Scoring model --------------------------------------------------------------------------


class OneLineName:
    """Names reach headers, file names, charts and CSV cells: refuse line breaks and other
    control characters in them (the JSON import refuses the same)."""

    cleaned_data: dict[str, Any]

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        jsonsafe.refuse_control_characters(name)
        return name


class ScoringModelForm(OneLineName, forms.ModelForm[ScoringModel]):
    class Meta:
        model = ScoringModel
        fields = ("name", "version", "description")
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 3, "cols": 80})}

    def clean(self) -> dict[str, Any]:
        status = _stored_status(self.instance)
        if status is not None and status != ScoringModel.Status.DRAFT:
            raise ValidationError(_locked_message(self.instance), code="locked")
        return super().clean() or {}


class CriterionFormSet(BaseInlineFormSet[Criterion, ScoringModel, forms.ModelForm[Criterion]]):
    def clean(self) -> None:
        super().clean()
        kept = 0
        for form in self.forms:
            data = getattr(form, "cleaned_data", None) or {}
            if not data.get("DELETE") and (form.instance.pk or form.has_changed()):
                kept += 1
        if not kept:
            raise ValidationError(
                _("A scoring model needs at least one criterion."), code="no_criteria"
            )


class CriterionInlineForm(forms.ModelForm[Criterion]):
    class Meta:
        model = Criterion
        fields = ("order", "key", "answer", "weight", "label_en")
        # Narrow inputs keep the weights table within a laptop screen.
        widgets: ClassVar = {
            "order": forms.NumberInput(attrs={"size": 3, "class": "vIntegerField"}),
            "key": forms.TextInput(attrs={"size": 18}),
            "weight": forms.TextInput(attrs={"size": 5, "inputmode": "decimal"}),
            "label_en": forms.TextInput(attrs={"size": 22}),
        }

    def clean_answer(self) -> str:
        answer: str = self.cleaned_data["answer"]
        if self.instance.pk and "answer" in self.changed_data:
            allowed = ANSWER_VALUES.get(answer, ())
            stray = sorted(
                {
                    v
                    for v in self.instance.contributions.values_list("value", flat=True)
                    if v not in allowed
                }
            )
            if stray:
                raise ValidationError(
                    _(
                        "%(answer)s cannot be %(values)s, which this criterion has "
                        "contributions for; change or delete those contributions first."
                    ),
                    code="stray_values",
                    params={"answer": answer, "values": ", ".join(stray)},
                )
        return answer


class CriterionForm(CriterionInlineForm):
    applies_to = forms.MultipleChoiceField(
        label=gettext_lazy("Applies to"),
        choices=PHASE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Pick at least one phase.")},
    )

    class Meta:
        model = Criterion
        fields = (
            "order",
            "key",
            "answer",
            "weight",
            "applies_to",
            "combine",
            "label_en",
            "label_zh",
            "rationale_en",
            "rationale_zh",
        )


class CriterionInline(admin.TabularInline[Criterion, ScoringModel]):
    model = Criterion
    form = CriterionInlineForm
    formset = CriterionFormSet
    # Phases and texts are edited on the criterion's own page, so that the weights stay one
    # compact table; a new criterion applies to every phase until changed there.
    fields = (
        "order",
        "key",
        "answer",
        "weight",
        "label_en",
        "phases",
        "contributions_link",
    )
    readonly_fields = ("phases", "contributions_link")
    extra = 0
    show_change_link = False

    @admin.display(description=gettext_lazy("applies to"))
    def phases(self, obj: Criterion) -> str:
        labels = dict(PHASE_CHOICES)
        return ", ".join(str(labels.get(p, p)) for p in obj.applies_to)

    @admin.display(description=gettext_lazy("contributions"))
    def contributions_link(self, obj: Criterion) -> str:
        if obj.pk is None:
            return _("Save first, then edit its contributions.")
        count = obj.contributions.exclude(option="").count()
        url = reverse("admin:reference_criterion_change", args=[obj.pk])
        return format_html(
            '<a href="{}">{}</a>',
            url,
            ngettext("%(count)s contribution", "%(count)s contributions", count) % {"count": count},
        )

    def get_extra(self, request: HttpRequest, obj: ScoringModel | None = None, **kw: Any) -> int:
        return 1 if obj is None else 0

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user) and (obj is None or obj.is_editable)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user) and (obj is None or obj.is_editable)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user)


class ImportForm(forms.Form):
    """A JSON file of up to `max_bytes`, or pasted JSON of up to 1 MB: pasted text travels in
    the request body, which Django caps at 2.5 MB, so a larger document is uploaded."""

    file = forms.FileField(label=gettext_lazy("JSON file"), required=False)

    def __init__(self, *args: Any, max_bytes: int = jsonsafe.MAX_BYTES, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_bytes = max_bytes

    text = forms.CharField(
        label=gettext_lazy("or paste the JSON"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "cols": 100}),
    )

    def clean_text(self) -> str:
        text: str = self.cleaned_data.get("text", "")
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > jsonsafe.MAX_BYTES:
            message = _(
                "The pasted JSON is %(size)s bytes, more than the %(limit)s bytes (1 MB) a "
                "paste takes."
            ) % {"size": f"{size:,}", "limit": f"{jsonsafe.MAX_BYTES:,}"}
            if self.max_bytes > jsonsafe.MAX_BYTES:
                message += " " + _("Upload it as a file (up to %(size)s MB) instead.") % {
                    "size": self.max_bytes // 1_000_000
                }
            raise ValidationError(message, code="too_large")
        return text

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if "text" in self.errors:
            return data
        if upload is not None:
            if upload.size > self.max_bytes:
                raise ValidationError(
                    _("The file is larger than %(size)s MB, more than this import takes.")
                    % {"size": self.max_bytes // 1_000_000}
                )
            try:
                data["json_text"] = upload.read().decode("utf-8")
            except UnicodeDecodeError as error:
                raise ValidationError(_("The file is not UTF-8 text.")) from error
        elif data.get("text", "").strip():
            data["json_text"] = data["text"]
        else:
            raise ValidationError(_("Choose a file or paste the JSON."))
        return data


class DiffForm(forms.Form):
    against = forms.ModelChoiceField(
        label=gettext_lazy("Compare with"), queryset=ScoringModel.objects.none()
    )

    def __init__(self, *args: Any, others: QuerySet[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["against"].queryset = others  # type: ignore[attr-defined]


@admin.register(ScoringModel)
class ScoringModelAdmin(VersionedAdmin):
    form = ScoringModelForm
    inlines = (CriterionInline,)
    list_display = (
        "name",
        "version",
        "status",
        "criteria_count",
        "created_by",
        "created_at",
        "published_at",
    )
    list_filter = ("status", "name")
    search_fields = ("name", "description")
    ordering = ("name", "-version")
    readonly_fields = ("status", "settings_display", "created_by", "published_by", "published_at")
    fieldsets = (
        (None, {"fields": ("name", "version", "status", "description")}),
        (
            gettext_lazy("Confidence and derived answers"),
            {
                "fields": ("settings_display",),
                "classes": ("collapse",),
                "description": gettext_lazy(
                    "Thresholds the engine derives answers from; change them through a JSON import."
                ),
            },
        ),
        (
            gettext_lazy("Record"),
            {"fields": ("created_by", "published_by", "published_at"), "classes": ("collapse",)},
        ),
    )
    actions = ("clone_action", "publish_action")
    history_list_display: ClassVar = ["status"]

    # Permissions: drafts are edited; published and retired models only viewed.

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_edit_scoring_models(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user) and (obj is None or obj.is_editable)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        status = _stored_status(obj)
        return status is not None and status != ScoringModel.Status.DRAFT

    def get_queryset(self, request: HttpRequest) -> QuerySet[ScoringModel]:
        from django.db.models import Count

        queryset: QuerySet[ScoringModel] = super().get_queryset(request)
        return queryset.annotate(criteria_total=Count("criteria"))

    @admin.display(description=gettext_lazy("criteria"), ordering="criteria_total")
    def criteria_count(self, obj: ScoringModel) -> int:
        return int(getattr(obj, "criteria_total", 0))

    @admin.display(description=gettext_lazy("settings"))
    def settings_display(self, obj: ScoringModel) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.data, indent=2, ensure_ascii=False))

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        name = str(initial.get("name") or "default")
        return {"name": name, "version": scoring_model_next_version(name=name), **initial}

    noun = "model"
    texts: ClassVar = {
        "cloned": gettext_lazy("%(draft)s is a new draft cloned from %(model)s."),
        "clone_title": gettext_lazy("Clone %(model)s"),
        "publish_title": gettext_lazy("Publish %(model)s"),
        "not_published": gettext_lazy("%(model)s was not published; fix these first:"),
        "published": gettext_lazy(
            "%(model)s is published: new assessments and reports use it from now on."
        ),
        "imported": gettext_lazy("%(model)s was imported as a draft."),
        "import_title": gettext_lazy("Import a scoring model"),
        "diff_title": gettext_lazy("Changes in %(model)s"),
        "preview_title": gettext_lazy("Impact preview of %(model)s"),
        "audit_title": gettext_lazy("Changes to %(model)s, by whom"),
    }
    locked_error = ScoringModelLocked
    invalid_error = ScoringModelInvalid
    confirm_template = "admin/reference/scoringmodel/confirm.html"
    diff_template = "admin/reference/scoringmodel/diff.html"

    def clone(self, obj: ScoringModel, user: User) -> ScoringModel:
        return scoring_model_clone(model=obj, user=user)

    def publish(self, obj: ScoringModel, user: User) -> ScoringModel:
        return scoring_model_publish(model=obj, user=user)

    def next_version(self, obj: ScoringModel) -> int:
        return scoring_model_next_version(name=obj.name)

    def export(self, obj: ScoringModel) -> str:
        return scoring_model_export(model=obj)

    def export_filename(self, obj: ScoringModel) -> str:
        # The name is free text; a slug keeps the header valid whatever it holds.
        return f"scoring-{slugify(obj.name, allow_unicode=True) or 'model'}-v{obj.version}.json"

    def import_json(self, json_text: str, user: User) -> ScoringModel:
        return scoring_model_import(json_text=json_text, user=user)

    def diff(self, old: ScoringModel, new: ScoringModel) -> dict[str, Any]:
        return scoring_model_diff(old=old, new=new)

    def document_problems(self, obj: ScoringModel) -> list[str]:
        return scoring_document_problems(obj.to_document())

    def ensure_editable(self, obj: ScoringModel) -> None:
        scoring_model_ensure_editable(model=obj)

    def request_preview(self, obj: ScoringModel, user: User) -> None:
        impact_preview_request(draft=obj, user=user)

    def default_against(self, others: QuerySet[Any], obj: ScoringModel) -> Any:
        return (
            super().default_against(others, obj)
            or others.filter(name=obj.name, version__lt=obj.version).first()
        )

    def audit_histories(self, obj: ScoringModel) -> list[Any]:
        return audit_histories(obj)


def audit_histories(model: ScoringModel) -> list[Any]:
    """The records of `model`, its criteria and their contributions, for the audit page."""
    criterion_history = Criterion.history.filter(scoring_model_id=model.pk)
    criterion_ids = set(criterion_history.values_list("id", flat=True))
    return [
        criterion_history,
        Contribution.history.filter(criterion_id__in=criterion_ids),
        model.history.all(),
    ]


def history_entries(histories: list[Any], limit: int = 500) -> list[dict[str, Any]]:
    """django-simple-history records, newest first, each with its changed fields."""
    records: list[Any] = [r for h in histories for r in h.select_related("history_user")]
    records.sort(key=lambda r: (r.history_date, r.history_id), reverse=True)
    entries = []
    seen: dict[tuple[Any, Any], str] = {}
    for record in records[:limit]:
        changes: list[tuple[str, Any, Any]] = []
        previous = record.prev_record if record.history_type == "~" else None
        if previous is not None:
            delta = record.diff_against(previous)
            model = record.instance_type
            changes = [
                (
                    c.field,
                    _related_label(model, c.field, c.old, seen),
                    _related_label(model, c.field, c.new, seen),
                )
                for c in delta.changes
            ]
        entries.append(
            {
                "date": record.history_date,
                "user": record.history_user,
                "kind": record.history_type,
                "what": record._meta.verbose_name,
                "object": str(record.instance),
                "changes": changes,
            }
        )
    return entries


# --- Criterion with its contributions ------------------------------------------------------


class ContributionFormSet(
    BaseInlineFormSet[Contribution, Criterion, forms.ModelForm[Contribution]]
):
    def clean(self) -> None:
        super().clean()
        criterion = self.instance
        allowed = ANSWER_VALUES.get(criterion.answer, ())
        moves = False
        for form in self.forms:
            data = form.cleaned_data
            if not data or data.get("DELETE"):
                continue
            if data.get("value") not in allowed:
                form.add_error(
                    "value",
                    _("%(value)s is not a value of %(answer)s (it can be %(allowed)s).")
                    % {
                        "value": data.get("value"),
                        "answer": criterion.answer,
                        "allowed": ", ".join(allowed),
                    },
                )
            if not data.get("option") and data.get("points"):
                form.add_error("option", _("Choose the option these points go to."))
            if data.get("option") and data.get("points"):
                moves = True
        if not moves:
            raise ValidationError(
                _(
                    "This criterion gives no points to any option: add a contribution with "
                    "points, or delete the criterion."
                ),
                code="no_effect",
            )


class ContributionInline(admin.TabularInline[Contribution, Criterion]):
    model = Contribution
    formset = ContributionFormSet
    fields = ("value", "option", "points")
    extra = 1

    def get_formset(self, request: HttpRequest, obj: Criterion | None = None, **kw: Any) -> Any:
        formset = super().get_formset(request, obj, **kw)
        values = ANSWER_VALUES.get(obj.answer, ()) if obj is not None else ()
        if values:
            # A blank first choice, so that an untouched extra row stays empty (and unsaved).
            formset.form.base_fields["value"] = forms.ChoiceField(
                label=gettext_lazy("answer value"),
                choices=[("", "---------"), *((v, v) for v in values)],
            )
        return formset

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _criterion_editable(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _criterion_editable(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _criterion_editable(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user)


def _criterion_editable(request: HttpRequest, criterion: Criterion | None) -> bool:
    return can_edit_scoring_models(request.user) and (
        criterion is None or criterion.scoring_model.is_editable
    )


@admin.register(Criterion)
class CriterionAdmin(NoBulkDelete, EditorsOnly, NamedHistory, SimpleHistoryAdmin):  # type: ignore[misc]
    form = CriterionForm
    inlines = (ContributionInline,)
    list_display = ("key", "scoring_model", "answer", "weight")
    list_filter = ("scoring_model",)
    readonly_fields = ("scoring_model",)
    fields = (
        "scoring_model",
        "key",
        "answer",
        "weight",
        "applies_to",
        "combine",
        "label_en",
        "label_zh",
        "rationale_en",
        "rationale_zh",
        "order",
    )

    def has_module_permission(self, request: HttpRequest) -> bool:
        return False  # reached from its scoring model's page

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # criteria are added on their scoring model's page

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _criterion_editable(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _criterion_editable(request, obj)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or not obj.scoring_model.is_editable

    def save_model(self, request: HttpRequest, obj: Criterion, form: Any, change: bool) -> None:
        scoring_model_ensure_editable(model=obj.scoring_model)
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        scoring_model_ensure_editable(model=form.instance.scoring_model)
        super().save_formset(request, form, formset, change)

    def delete_model(self, request: HttpRequest, obj: Criterion) -> None:
        scoring_model_ensure_editable(model=obj.scoring_model)
        super().delete_model(request, obj)

    def _back(self, obj: Criterion) -> HttpResponseRedirect:
        return HttpResponseRedirect(
            reverse("admin:reference_scoringmodel_change", args=[obj.scoring_model_id])
        )

    def response_change(self, request: HttpRequest, obj: Criterion) -> HttpResponse:
        response: HttpResponse = super().response_change(request, obj)
        if "_continue" in request.POST or "_addanother" in request.POST:
            return response
        return self._back(obj)

    def response_delete(self, request: HttpRequest, obj_display: str, obj_id: Any) -> HttpResponse:
        scoring_model_id = getattr(request, "_scoring_model_id", None)
        if scoring_model_id is None:
            response: HttpResponse = super().response_delete(request, obj_display, obj_id)
            return response
        self.message_user(request, _("The criterion %(key)s was deleted.") % {"key": obj_display})
        return HttpResponseRedirect(
            reverse("admin:reference_scoringmodel_change", args=[scoring_model_id])
        )

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        obj = self.get_object(request, object_id)
        if obj is None:
            raise Http404
        request._scoring_model_id = obj.scoring_model_id  # type: ignore[attr-defined]
        response: HttpResponse = super().delete_view(request, object_id, extra_context)
        return response


@admin.register(ImpactPreview)
class ImpactPreviewAdmin(EditorsOnly, admin.ModelAdmin[ImpactPreview]):
    list_display = (
        "__str__",
        "status",
        "progress",
        "total",
        "requested_by",
        "requested_at",
    )
    list_filter = ("status",)
    readonly_fields = (
        "scoring_model",
        "catalog",
        "status",
        "progress",
        "total",
        "error",
        "requested_by",
        "requested_at",
        "started_at",
        "finished_at",
    )
    exclude = ("result",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user)


@admin.register(PriceRefresh)
class PriceRefreshAdmin(EditorsOnly, admin.ModelAdmin[PriceRefresh]):
    list_display = ("source", "status", "started_at", "finished_at", "prices_changed", "draft")
    list_filter = ("source", "status")
    readonly_fields = (
        "source",
        "status",
        "started_at",
        "finished_at",
        "message",
        "prices_changed",
        "draft",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


# --- Catalog: accelerators, prices, model presets --------------------------------------------


def _catalog_status(catalog_id: int | None) -> str | None:
    if catalog_id is None:
        return None
    return Catalog.objects.filter(pk=catalog_id).values_list("status", flat=True).first()


def _catalog_editable(request: HttpRequest, catalog_id: int | None) -> bool:
    """Admins edit drafts; a row of a published or retired catalog is only viewed."""
    status = _catalog_status(catalog_id)
    return can_edit_scoring_models(request.user) and status in (None, Catalog.Status.DRAFT)


def stale_cutoff(catalog: Catalog) -> date:
    return timezone.localdate() - timedelta(days=catalog.stale_after_days)


def _prices_label(count: int) -> str:
    return ngettext("%(count)s price", "%(count)s prices", count) % {"count": count}


def _presets_label(count: int) -> str:
    return ngettext("%(count)s model preset", "%(count)s model presets", count) % {"count": count}


def _freshness_html(row: Any, days: int) -> str:
    state = selectors.freshness(row, days)
    if state == "current":
        return _("current")
    label = _("undated") if state == "undated" else _("stale")
    return format_html(
        '<strong class="stale-flag" title="{}">⚠ {}</strong>',
        _("Older than %(days)s days, or undated: check it at its source.") % {"days": days},
        label,
    )


class CatalogForm(forms.ModelForm[Catalog]):
    class Meta:
        model = Catalog
        fields = ("description",)
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 3, "cols": 80})}

    def clean(self) -> dict[str, Any]:
        if self.instance.pk and _catalog_status(self.instance.pk) != Catalog.Status.DRAFT:
            raise ValidationError(str(CatalogLocked(self.instance)), code="locked")
        return super().clean() or {}


class SourcedForm(forms.ModelForm[Any]):
    """Every new or changed figure needs its source, and a date that is not in the future."""

    dated_fields: tuple[str, ...] = ()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        as_of = data.get("as_of")
        if as_of and as_of > timezone.localdate():
            self.add_error("as_of", _("This date is in the future."))
        touched = not self.instance.pk or any(f in self.changed_data for f in self.dated_fields)
        if self.dated_fields and touched and not as_of and "as_of" not in self.errors:
            self.add_error(
                "as_of",
                _("Give the date these figures were read at their source (YYYY-MM-DD)."),
            )
        return data


class PriceForm(SourcedForm):
    dated_fields = ("usd_per_device_hour", "usd_per_device_month", "source")
    modes = forms.MultipleChoiceField(
        label=gettext_lazy("Deployment modes"),
        choices=MODE_CHOICES,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Pick at least one deployment mode.")},
    )

    class Meta:
        model = CatalogPrice
        fields: tuple[str, ...] = (
            "catalog",
            "accelerator",
            "key",
            "provider",
            "cloud",
            "modes",
            "billing",
            "usd_per_device_hour",
            "usd_per_device_month",
            "setup_fee_usd",
            "min_term_months",
            "region",
            "region_key",
            "source",
            "as_of",
            "estimated",
            "derived",
            "note",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "source": forms.Textarea(attrs={"rows": 2, "cols": 80}),
            "note": forms.Textarea(attrs={"rows": 2, "cols": 80}),
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        fields = ("usd_per_device_hour", "usd_per_device_month")
        # A house offer sold on request has no figure (HouseOfferForm edits it).
        on_request = bool((self.instance.extra or {}).get("price_on_request"))
        unpriced = all(data.get(f) is None for f in fields)
        if all(f in self.fields for f in fields) and unpriced and not on_request:
            self.add_error(
                "usd_per_device_hour",
                _("Give a price per device-hour or per device-month (or both)."),
            )
        catalog, accelerator = data.get("catalog"), data.get("accelerator")
        if catalog and accelerator and accelerator.catalog_id != catalog.pk:
            self.add_error(
                "accelerator",
                _("%(accelerator)s belongs to %(other)s, not to %(catalog)s.")
                % {"accelerator": accelerator, "other": accelerator.catalog, "catalog": catalog},
            )
        return data


class PriceListForm(PriceForm):
    """A row of the prices table (the admin leaves rows of published catalogs read-only)."""

    class Meta(PriceForm.Meta):
        fields = ("usd_per_device_hour", "usd_per_device_month", "as_of")
        # Narrow inputs keep the price table within a laptop screen.
        widgets: ClassVar[dict[str, Any]] = {
            "usd_per_device_hour": forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
            "usd_per_device_month": forms.TextInput(attrs={"size": 8, "inputmode": "decimal"}),
            "as_of": forms.DateInput(attrs={"size": 10}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        del self.fields["modes"]


class CatalogRowAdmin(NoBulkDelete, EditorsOnly, NamedHistory, SimpleHistoryAdmin):  # type: ignore[misc]
    """Shared by accelerators, prices and presets: drafts only, the catalog fixed once set."""

    class Media:
        css: ClassVar = {"all": ["advisor/admin.css"]}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return can_edit_scoring_models(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _catalog_editable(request, obj.catalog_id if obj is not None else None)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or _catalog_status(obj.catalog_id) != Catalog.Status.DRAFT

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = tuple(super().get_readonly_fields(request, obj))
        return (*fields, "catalog") if obj is not None else fields

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kw: Any) -> Any:
        if db_field.name == "catalog":
            kw["queryset"] = Catalog.objects.filter(status=Catalog.Status.DRAFT)
        if db_field.name == "accelerator":
            kw["queryset"] = CatalogAccelerator.objects.filter(
                catalog__status=Catalog.Status.DRAFT
            ).select_related("catalog")
        field = super().formfield_for_foreignkey(db_field, request, **kw)
        if db_field.name == "accelerator":
            field.label_from_instance = lambda a: f"{a.name} ({a.catalog})"
        return field

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial: dict[str, Any] = super().get_changeform_initial_data(request)
        if "catalog" not in initial:
            draft = Catalog.objects.filter(status=Catalog.Status.DRAFT).first()
            if draft is not None:
                initial["catalog"] = draft.pk
        return initial

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        catalog_ensure_editable(catalog=obj.catalog)
        super().save_model(request, obj, form, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        catalog_ensure_editable(catalog=obj.catalog)
        super().delete_model(request, obj)

    @admin.display(description=gettext_lazy("other data"))
    def extra_display(self, obj: Any) -> str:
        return format_html(
            "<pre>{}</pre>", json.dumps(obj.extra or {}, indent=2, ensure_ascii=False)
        )


class CatalogFreshnessFilter(admin.SimpleListFilter):
    title = gettext_lazy("freshness")
    parameter_name = "freshness"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [
            ("stale", gettext_lazy("Older than the catalog's limit (180 days)")),
            ("undated", gettext_lazy("Undated")),
            ("current", gettext_lazy("Current")),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        # The limit is the catalog's stale_after_days rule; 180 days in every catalog so far.
        cutoff = timezone.localdate() - timedelta(days=180)
        if self.value() == "stale":
            return queryset.filter(as_of__lt=cutoff)
        if self.value() == "undated":
            return queryset.filter(as_of__isnull=True)
        if self.value() == "current":
            return queryset.filter(as_of__gte=cutoff)
        return queryset


@admin.register(CatalogPrice)
class CatalogPriceAdmin(CatalogRowAdmin):
    form = PriceForm
    # One catalog at a time (see changelist_view), so no catalog column.
    # Sized for a 1366 px laptop (tests/e2e/test_catalog_browser.py): provider and region
    # share a column, headers wrap, and the page gives the app menu's width to the table.
    list_display = (
        "key",
        "accelerator_key",
        "where",
        "billing",
        "usd_per_device_hour",
        "usd_per_device_month",
        "as_of",
        "freshness_flag",
    )
    list_display_links = ("key",)
    list_editable = ("usd_per_device_hour", "usd_per_device_month", "as_of")
    list_filter = (
        "catalog",
        CatalogFreshnessFilter,
        "cloud",
        "billing",
        "provider",
        "accelerator__key",
    )
    list_select_related = ("catalog", "accelerator")
    search_fields = ("key", "provider", "region", "source", "accelerator__name")
    readonly_fields = ("extra_display",)
    list_per_page = 50

    def get_changelist_form(self, request: HttpRequest, **kwargs: Any) -> Any:
        return PriceListForm

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # Every catalog has the same price ids; without a choice, show the newest draft (the
        # one being edited), else the published catalog.
        if "catalog__id__exact" not in request.GET and request.method == "GET":
            catalog = (
                Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
                or Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
            )
            if catalog is not None:
                query = request.GET.copy()
                query["catalog__id__exact"] = str(catalog.pk)
                return HttpResponseRedirect(f"{request.path}?{query.urlencode()}")
        extra_context = {**(extra_context or {}), "is_nav_sidebar_enabled": False}
        response: HttpResponse = super().changelist_view(request, extra_context)
        return response

    @admin.display(description=gettext_lazy("accelerator"), ordering="accelerator__key")
    def accelerator_key(self, obj: CatalogPrice) -> str:
        return obj.accelerator.key

    @admin.display(description=gettext_lazy("provider and region"), ordering="provider")
    def where(self, obj: CatalogPrice) -> str:
        if not obj.region:
            return obj.provider
        return format_html('{}<br><span class="price-region">{}</span>', obj.provider, obj.region)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kw: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kw)
        if obj is not None and "accelerator" in form.base_fields:
            form.base_fields["accelerator"].queryset = CatalogAccelerator.objects.filter(
                catalog_id=obj.catalog_id
            )
        return form

    def save_form(self, request: HttpRequest, form: Any, change: bool) -> Any:
        obj = super().save_form(request, form, change)
        if obj.catalog_id is None and obj.pk:
            obj.catalog = CatalogPrice.objects.get(pk=obj.pk).catalog
        return obj

    @admin.display(description=gettext_lazy("freshness"))
    def freshness_flag(self, obj: CatalogPrice) -> str:
        return _freshness_html(obj, obj.catalog.stale_after_days)


class AcceleratorForm(OneLineName, SourcedForm):
    class Meta:
        model = CatalogAccelerator
        fields: tuple[str, ...] = (
            "catalog",
            "key",
            "name",
            "vendor",
            "kind",
            "memory_gb",
            "memory_gib",
            "memory_bw_tbps",
            "bf16_dense_tflops",
            "fp16_dense_tflops",
            "fp8_dense_tflops",
            "int8_dense_tops",
            "interconnect",
            "fast_interconnect",
            "max_devices_per_node",
            "max_devices_per_group",
            "slice_sizes",
            "source",
            "as_of",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "source": forms.Textarea(attrs={"rows": 2, "cols": 80})
        }
        field_classes: ClassVar[dict[str, Any]] = {"slice_sizes": jsonsafe.BoundedJSONField}

    def clean_slice_sizes(self) -> Any:
        sizes = self.cleaned_data.get("slice_sizes")
        if sizes in (None, "", []):
            return None
        if not isinstance(sizes, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in sizes
        ):
            raise ValidationError(_("Enter a list of whole device counts, e.g. [1, 4, 8, 16]."))
        return sorted(set(sizes))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("kind") == "tpu" and not data.get("slice_sizes") and "kind" in self.fields:
            self.add_error("slice_sizes", _("A TPU needs the slice sizes it is sold in."))
        peak = [data.get(f) for f in ("bf16_dense_tflops", "fp16_dense_tflops")]
        if "kind" in self.fields and all(v is None for v in peak):
            self.add_error(
                "bf16_dense_tflops",
                _("Give the BF16 or the FP16 dense TFLOPS: the engine sizes compute from it."),
            )
        return data


class AcceleratorInlineForm(AcceleratorForm):
    class Meta(AcceleratorForm.Meta):
        fields = (
            "key",
            "name",
            "kind",
            "memory_gib",
            "memory_bw_tbps",
            "bf16_dense_tflops",
            "fp8_dense_tflops",
        )
        widgets: ClassVar[dict[str, Any]] = {
            "key": forms.TextInput(attrs={"size": 16}),
            "name": forms.TextInput(attrs={"size": 24}),
            **{
                name: forms.TextInput(attrs={"size": 6, "inputmode": "decimal"})
                for name in (
                    "memory_gib",
                    "memory_bw_tbps",
                    "bf16_dense_tflops",
                    "fp8_dense_tflops",
                )
            },
        }


@admin.register(CatalogAccelerator)
class CatalogAcceleratorAdmin(CatalogRowAdmin):
    form = AcceleratorForm
    list_display = ("name", "key", "catalog", "kind", "memory_gib", "memory_bw_tbps", "as_of")
    list_filter = ("catalog", "kind", "vendor")
    search_fields = ("key", "name", "vendor")
    readonly_fields = ("extra_display",)


class PresetForm(OneLineName, SourcedForm):
    class Meta:
        model = CatalogPreset
        fields = (
            "catalog",
            "key",
            "name",
            *ARCHITECTURE_FIELDS,
            "max_position_embeddings",
            "source",
            "as_of",
        )
        widgets: ClassVar = {"source": forms.Textarea(attrs={"rows": 2, "cols": 80})}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        heads, kv = data.get("attention_heads"), data.get("kv_heads")
        if heads and kv and heads % kv:
            self.add_error(
                "kv_heads",
                _("The attention heads (%(heads)s) must be a multiple of the KV heads.")
                % {"heads": heads},
            )
        key = data.get("key")
        if key and key not in preset_ids():
            self.add_error(
                "key",
                _(
                    "The wizard offers only these presets: %(ids)s. Edit their figures here; "
                    "people can describe any other model by its architecture."
                )
                % {"ids": ", ".join(preset_ids())},
            )
        return data


@admin.register(CatalogPreset)
class CatalogPresetAdmin(CatalogRowAdmin):
    form = PresetForm
    list_display = ("name", "key", "catalog", "parameters", "layers", "hidden_size", "as_of")
    list_filter = ("catalog",)
    search_fields = ("key", "name")
    readonly_fields = ("extra_display",)


class AcceleratorInline(admin.TabularInline[CatalogAccelerator, Catalog]):
    model = CatalogAccelerator
    form = AcceleratorInlineForm
    fields = (
        "key",
        "name",
        "kind",
        "memory_gib",
        "memory_bw_tbps",
        "bf16_dense_tflops",
        "fp8_dense_tflops",
    )
    extra = 0
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # A new accelerator needs its source and date: it is added on its own page.
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _catalog_editable(request, obj.pk if obj is not None else None)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_edit_scoring_models(request.user)


@admin.register(Catalog)
class CatalogAdmin(VersionedAdmin):
    form = CatalogForm
    inlines = (AcceleratorInline,)

    class Media:
        css: ClassVar = {"all": ["advisor/admin.css"]}

    list_display = (
        "__str__",
        "status",
        "price_count",
        "stale_count",
        "created_by",
        "created_at",
        "published_at",
    )
    list_filter = ("status",)
    readonly_fields = (
        "version",
        "status",
        "rows_summary",
        "data_display",
        "created_by",
        "published_by",
        "published_at",
    )
    fieldsets = (
        (None, {"fields": ("version", "status", "description", "rows_summary")}),
        (
            gettext_lazy("Figures, rules and regions"),
            {
                "fields": ("data_display",),
                "classes": ("collapse",),
                "description": gettext_lazy(
                    "Efficiency figures and product rules, each with its source; change them "
                    "through a JSON import."
                ),
            },
        ),
        (
            gettext_lazy("Record"),
            {"fields": ("created_by", "published_by", "published_at"), "classes": ("collapse",)},
        ),
    )
    actions = ("clone_action",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a catalog starts as a clone or an import: it needs accelerators and prices

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _catalog_editable(request, obj.pk if obj is not None else None)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        return obj is None or _catalog_status(obj.pk) != Catalog.Status.DRAFT

    def get_queryset(self, request: HttpRequest) -> QuerySet[Catalog]:
        from django.db.models import Count, Q

        queryset: QuerySet[Catalog] = super().get_queryset(request)
        cutoff = timezone.localdate() - timedelta(days=180)
        return queryset.annotate(
            prices_total=Count("prices", distinct=True),
            stale_total=Count(
                "prices",
                filter=Q(prices__as_of__lt=cutoff) | Q(prices__as_of__isnull=True),
                distinct=True,
            ),
        )

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        # Each public price list's newest run and newest success, so a failed refresh shows
        # here next to the catalogs it did not touch.
        extra = {**(extra_context or {}), "price_refreshes": selectors.price_refresh_summary()}
        response: HttpResponse = super().changelist_view(request, extra)
        return response

    @admin.display(description=gettext_lazy("prices"), ordering="prices_total")
    def price_count(self, obj: Catalog) -> int:
        return int(getattr(obj, "prices_total", 0))

    @admin.display(description=gettext_lazy("stale or undated prices"), ordering="stale_total")
    def stale_count(self, obj: Catalog) -> str:
        count = int(getattr(obj, "stale_total", 0))
        return format_html("<strong>⚠ {}</strong>", count) if count else "0"

    @admin.display(description=gettext_lazy("contents"))
    def rows_summary(self, obj: Catalog) -> str:
        if obj.pk is None:
            return "—"
        prices = reverse("admin:reference_catalogprice_changelist")
        presets = reverse("admin:reference_catalogpreset_changelist")
        cutoff = stale_cutoff(obj)
        stale = obj.prices.filter(as_of__lt=cutoff).count()
        undated = obj.prices.filter(as_of__isnull=True).count()
        return format_html(
            '<a href="{}?catalog__id__exact={}">{}</a> · <a href="{}?catalog__id__exact={}'
            '&amp;freshness=stale">{}</a> · <a href="{}?catalog__id__exact={}&amp;freshness='
            'undated">{}</a> · <a href="{}?catalog__id__exact={}">{}</a>',
            prices,
            obj.pk,
            _prices_label(obj.prices.count()),
            prices,
            obj.pk,
            _("%(count)s older than %(days)s days")
            % {"count": stale, "days": obj.stale_after_days},
            prices,
            obj.pk,
            _("%(count)s undated") % {"count": undated},
            presets,
            obj.pk,
            _presets_label(obj.presets.count()),
        )

    @admin.display(description=gettext_lazy("figures, rules and regions"))
    def data_display(self, obj: Catalog) -> str:
        return format_html("<pre>{}</pre>", json.dumps(obj.data, indent=2, ensure_ascii=False))

    noun = "catalog"
    texts: ClassVar = {
        "cloned": gettext_lazy("%(draft)s is a new draft cloned from %(catalog)s."),
        "clone_title": gettext_lazy("Clone %(catalog)s"),
        "publish_title": gettext_lazy("Publish %(catalog)s"),
        "not_published": gettext_lazy("%(catalog)s was not published; fix these first:"),
        "published": gettext_lazy(
            "%(catalog)s is published: new reports are priced with it from now on."
        ),
        "imported": gettext_lazy("%(catalog)s was imported as a draft."),
        "import_title": gettext_lazy("Import a catalog"),
        "diff_title": gettext_lazy("Changes in %(catalog)s"),
        "preview_title": gettext_lazy("Impact preview of %(catalog)s"),
        "audit_title": gettext_lazy("Changes to %(catalog)s, by whom"),
    }
    locked_error = CatalogLocked
    invalid_error = CatalogInvalid
    confirm_template = "admin/reference/catalog/confirm.html"
    diff_template = "admin/reference/catalog/diff.html"
    import_max_bytes = CATALOG_IMPORT_MAX_BYTES
    import_words: ClassVar = {
        "intro": gettext_lazy(
            "Upload a catalog exported from this or another installation (the engine's "
            "catalog JSON: accelerators, prices, figures, model presets). It arrives as a "
            "draft with the next version number; nothing changes for customers until it is "
            "published."
        ),
        "refused": gettext_lazy("The catalog was not imported:"),
    }
    preview_words: ClassVar = {
        "intro": gettext_lazy(
            "Re-scores every submitted assessment with this catalog and with the active one "
            "(same scoring model) and shows which recommendations would change: specs decide "
            "what fits, prices decide how to pay. Nothing is published."
        ),
    }

    def clone(self, obj: Catalog, user: User) -> Catalog:
        return catalog_clone(catalog=obj, user=user)

    def publish(self, obj: Catalog, user: User) -> Catalog:
        return catalog_publish(catalog=obj, user=user)

    def next_version(self, obj: Catalog) -> int:
        return catalog_next_version()

    def export(self, obj: Catalog) -> str:
        return catalog_export(catalog=obj)

    def export_filename(self, obj: Catalog) -> str:
        return f"catalog-v{obj.version}.json"

    def import_json(self, json_text: str, user: User) -> Catalog:
        return catalog_import(json_text=json_text, user=user)

    def diff(self, old: Catalog, new: Catalog) -> dict[str, Any]:
        return catalog_diff(old=old, new=new)

    def document_problems(self, obj: Catalog) -> list[str]:
        return catalog_document_problems(obj.to_document())

    def ensure_editable(self, obj: Catalog) -> None:
        catalog_ensure_editable(catalog=obj)

    def request_preview(self, obj: Catalog, user: User) -> None:
        impact_preview_request(catalog=obj, user=user)

    def default_against(self, others: QuerySet[Any], obj: Catalog) -> Any:
        return (
            super().default_against(others, obj) or others.filter(version__lt=obj.version).first()
        )

    def audit_histories(self, obj: Catalog) -> list[Any]:
        return [
            obj.history.all(),
            CatalogAccelerator.history.filter(catalog_id=obj.pk),
            CatalogPrice.history.filter(catalog_id=obj.pk),
            CatalogPreset.history.filter(catalog_id=obj.pk),
        ]

    def publish_context(self, obj: Catalog) -> dict[str, Any]:
        cutoff = stale_cutoff(obj)
        return {
            "stale": obj.prices.filter(as_of__lt=cutoff).count(),
            "undated": obj.prices.filter(as_of__isnull=True).count(),
        }


# --- House offers: the operating organisation's own servers ---------------------------------------

HOUSE_MODES = [(m, label) for m, label in MODE_CHOICES if m in ("dedicated_hosting", "bare_metal")]
CHINA_ROUTES = [
    ("", gettext_lazy("None")),
    ("cn2_gia", "CN2 GIA"),
    ("cmi", "CMI"),
]
# The server fields kept in the price row's `extra.server` (the engine hands them to reports).
SERVER_FIELDS = (
    "cpu",
    "ram_gb",
    "nvme_tb",
    "network_gbps",
    "china_bandwidth_mbps",
    "china_bandwidth_type",
    "china_bandwidth_usd_per_mbps_month",
)
# The most an extra Mbps-month of premium China bandwidth may cost: CN2 GIA is "$100+/Mbps in
# some cases" (deployment_costs.md 4); a larger figure is a price per server or a typo.
CHINA_MBPS_PRICE_MAX = Decimal(10_000)


def _region_choices() -> list[tuple[str, Any]]:
    return [("", "—")] + [(key, label_for("region", key)) for key in load_catalog().regions]


class HouseOfferForm(SourcedForm):
    """A server as the sales team describes it; saved as a monthly catalog price per card."""

    dated_fields = ("source",)
    modes = forms.MultipleChoiceField(
        label=gettext_lazy("Deployment modes"),
        choices=HOUSE_MODES,
        initial=["dedicated_hosting", "bare_metal"],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Pick at least one deployment mode.")},
    )
    region_key = forms.ChoiceField(label=gettext_lazy("Region"), choices=_region_choices)
    server_name = forms.CharField(
        label=gettext_lazy("Server name"),
        max_length=100,
        help_text=gettext_lazy("As the offer is sold, e.g. “HK-H100-8”."),
    )
    gpu_count = forms.IntegerField(
        label=gettext_lazy("GPUs per server"), min_value=1, max_value=16, initial=8
    )
    cpu = forms.CharField(
        label=gettext_lazy("CPU"),
        max_length=100,
        help_text=gettext_lazy("e.g. “2 × AMD EPYC 9354 (64 cores)”."),
    )
    ram_gb = forms.IntegerField(label=gettext_lazy("RAM (GB)"), min_value=1, max_value=16_384)
    nvme_tb = forms.DecimalField(
        label=gettext_lazy("NVMe (TB)"), min_value=0, max_value=1000, decimal_places=2
    )
    network_gbps = forms.DecimalField(
        label=gettext_lazy("Network (Gbps)"), min_value=0, max_value=3200, decimal_places=1
    )
    china_bandwidth_mbps = forms.IntegerField(
        label=gettext_lazy("Premium bandwidth to mainland China (Mbps)"),
        min_value=0,
        max_value=100_000,
        required=False,
    )
    china_bandwidth_type = forms.ChoiceField(
        label=gettext_lazy("China route"), choices=CHINA_ROUTES, required=False
    )
    china_bandwidth_usd_per_mbps_month = forms.DecimalField(
        label=gettext_lazy("Extra China bandwidth price (USD per Mbps-month)"),
        help_text=gettext_lazy(
            "What each Mbps beyond the included bandwidth costs a month on this route. Leave it "
            "empty when there is no published price: the report then asks for a quote."
        ),
        min_value=Decimal("0.01"),
        max_value=CHINA_MBPS_PRICE_MAX,
        decimal_places=2,
        required=False,
        error_messages={
            "min_value": gettext_lazy(
                "A price per Mbps-month is more than zero; leave the field empty when there is "
                "none."
            ),
            "max_value": gettext_lazy(
                "At most %(limit_value)s USD per Mbps-month: is this the price of the server, not "
                "of one Mbps?"
            ),
            "invalid": gettext_lazy("Give the price as a number of US dollars, e.g. 45.50."),
            "max_decimal_places": gettext_lazy("Give the price to the cent (2 decimal places)."),
        },
    )
    usd_per_server_month = forms.DecimalField(
        label=gettext_lazy("Monthly price per server (USD)"),
        min_value=Decimal("0.01"),
        max_value=Decimal(2_000_000),
        decimal_places=2,
        required=False,
    )
    price_on_request = forms.BooleanField(
        label=gettext_lazy("Price on request"),
        required=False,
        help_text=gettext_lazy(
            "No published price: the offer is listed, unpriced (it never ranks above a priced "
            "option), and the report offers a quote request."
        ),
    )

    class Meta:
        model = HouseOffer
        fields: tuple[str, ...] = (
            "catalog",
            "accelerator",
            "key",
            "region",
            "setup_fee_usd",
            "min_term_months",
            "source",
            "as_of",
            "note",
        )
        labels: ClassVar = {"region": gettext_lazy("Location")}
        help_texts: ClassVar = {
            "region": gettext_lazy("The data centre, e.g. “Hong Kong (Tseung Kwan O)”.")
        }
        widgets: ClassVar[dict[str, Any]] = {
            "source": forms.Textarea(attrs={"rows": 2, "cols": 80}),
            "note": forms.Textarea(attrs={"rows": 2, "cols": 80}),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        obj = self.instance
        if obj.pk:
            extra = obj.extra or {}
            server = extra.get("server") or {}
            count = int(extra.get("gpus_per_unit") or 1)
            self.initial.update({k: server.get(k) for k in SERVER_FIELDS})
            self.initial.update(
                modes=obj.modes,
                region_key=obj.region_key,
                server_name=extra.get("unit") or "",
                gpu_count=count,
                price_on_request=bool(extra.get("price_on_request")),
                usd_per_server_month=(
                    None
                    if obj.usd_per_device_month is None
                    else (obj.usd_per_device_month * count).quantize(Decimal("0.01"))
                ),
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        price, on_request = data.get("usd_per_server_month"), data.get("price_on_request")
        if price is None and not on_request and "usd_per_server_month" not in self.errors:
            self.add_error(
                "usd_per_server_month", _("Give the monthly price, or tick “Price on request”.")
            )
        if price is not None and on_request:
            self.add_error(
                "price_on_request", _("An offer has a monthly price or is on request, not both.")
            )
        mbps, route = data.get("china_bandwidth_mbps"), data.get("china_bandwidth_type")
        if mbps and not route:
            self.add_error("china_bandwidth_type", _("Choose the route for the China bandwidth."))
        if route and not mbps:
            self.add_error("china_bandwidth_mbps", _("Give the bandwidth for this route."))
        if data.get("china_bandwidth_usd_per_mbps_month") is not None and not route:
            self.add_error(
                "china_bandwidth_usd_per_mbps_month",
                _("A price per Mbps-month needs the China route it is for."),
            )
        accelerator, count = data.get("accelerator"), data.get("gpu_count")
        if accelerator and count and count > accelerator.max_devices_per_node:
            self.add_error(
                "gpu_count",
                _("A server holds at most %(n)s %(card)s cards.")
                % {"n": accelerator.max_devices_per_node, "card": accelerator.name},
            )
        catalog = data.get("catalog") or (
            self.instance.catalog if self.instance.catalog_id else None
        )
        published = accelerator is not None and (
            accelerator.catalog.status == Catalog.Status.PUBLISHED
        )
        if catalog is None:
            # Written to the newest draft, else to a new clone of the published catalog: the
            # id must be free there (the database would refuse it after the form).
            target = (
                Catalog.objects.filter(status=Catalog.Status.DRAFT).order_by("-version").first()
                or Catalog.objects.filter(status=Catalog.Status.PUBLISHED).first()
            )
            key = data.get("key")
            if target is not None and key and target.prices.filter(key=key).exists():
                self.add_error("key", _("This catalog already has a price with this id."))
        if catalog is None and accelerator is not None and not published:
            self.add_error(
                "catalog",
                _("Choose the draft %(catalog)s that %(accelerator)s belongs to.")
                % {"catalog": accelerator.catalog, "accelerator": accelerator},
            )
        if (
            catalog
            and accelerator
            and accelerator.catalog_id != catalog.pk
            and not (published and catalog.accelerators.filter(key=accelerator.key).exists())
        ):
            self.add_error(
                "accelerator",
                _("%(accelerator)s belongs to %(other)s, not to %(catalog)s.")
                % {"accelerator": accelerator, "other": accelerator.catalog, "catalog": catalog},
            )
        return data

    def save(self, commit: bool = True) -> Any:
        obj = super().save(commit=False)
        data = self.cleaned_data
        count = int(data["gpu_count"])
        price = data.get("usd_per_server_month")
        server: dict[str, Any] = {k: data.get(k) for k in SERVER_FIELDS}
        for k in ("nvme_tb", "network_gbps", "china_bandwidth_usd_per_mbps_month"):
            value = server[k]
            server[k] = None if value is None else float(value)
        server["china_bandwidth_mbps"] = server["china_bandwidth_mbps"] or 0
        server["name"] = data["server_name"]
        server["gpus"] = count
        if obj.setup_fee_usd is not None:
            server["setup_fee_usd"] = float(obj.setup_fee_usd)
        if obj.min_term_months is not None:
            server["min_term_months"] = obj.min_term_months
        obj.provider = house_provider_name()
        obj.cloud = "other"
        obj.billing = "monthly"
        obj.modes = list(data["modes"])
        obj.region_key = data["region_key"]
        obj.usd_per_device_hour = None
        obj.usd_per_device_month = (
            None if price is None else (price / count).quantize(Decimal("0.0001"))
        )
        obj.estimated = False
        # A per-card figure of a server sold whole is derived (price / cards).
        obj.derived = count > 1
        obj.extra = {
            **(obj.extra or {}),
            "house": True,
            "gpus_per_unit": count,
            "unit": data["server_name"],
            "server": server,
            "price_on_request": bool(data.get("price_on_request")),
        }
        if commit:
            obj.save()
        return obj


@admin.register(HouseOffer)
class HouseOfferAdmin(CatalogRowAdmin):
    form = HouseOfferForm
    list_display = (
        "key",
        "server",
        "accelerator_key",
        "region",
        "monthly",
        "demand",
        "as_of",
        "catalog",
    )
    list_filter = ("catalog", "region_key")
    list_select_related = ("catalog", "accelerator")
    search_fields = ("key", "region", "accelerator__name")
    fieldsets = (
        (None, {"fields": ("catalog", "key", "accelerator", "gpu_count", "server_name")}),
        (
            gettext_lazy("Server"),
            {
                "fields": (
                    "cpu",
                    "ram_gb",
                    "nvme_tb",
                    "network_gbps",
                    "china_bandwidth_mbps",
                    "china_bandwidth_type",
                    "china_bandwidth_usd_per_mbps_month",
                )
            },
        ),
        (gettext_lazy("Where"), {"fields": ("region", "region_key", "modes")}),
        (
            gettext_lazy("Price"),
            {
                "fields": (
                    "usd_per_server_month",
                    "price_on_request",
                    "setup_fee_usd",
                    "min_term_months",
                    "source",
                    "as_of",
                    "note",
                )
            },
        ),
    )

    @admin.display(description=gettext_lazy("server"))
    def server(self, obj: HouseOffer) -> str:
        extra = obj.extra or {}
        count = extra.get("gpus_per_unit") or 1
        return f"{extra.get('unit') or '—'} ({count} × {obj.accelerator.name})"

    @admin.display(description=gettext_lazy("accelerator"), ordering="accelerator__key")
    def accelerator_key(self, obj: HouseOffer) -> str:
        return obj.accelerator.key

    @admin.display(description=gettext_lazy("per server-month"))
    def monthly(self, obj: HouseOffer) -> str:
        extra = obj.extra or {}
        if extra.get("price_on_request") or obj.usd_per_device_month is None:
            return _("price on request")
        total = obj.usd_per_device_month * int(extra.get("gpus_per_unit") or 1)
        return f"${total:,.0f}"

    @admin.display(description=gettext_lazy("recent demand (fitted / won)"))
    def demand(self, obj: HouseOffer) -> str:
        rows = getattr(_DEMAND, "rows", {})
        fitted, won, read = rows.get(obj.key, (0, 0, getattr(_DEMAND, "read", 0)))
        return _("%(fitted)s / %(won)s of %(read)s") % {"fitted": fitted, "won": won, "read": read}

    def changelist_view(self, request: HttpRequest, extra_context: Any = None) -> Any:
        # Issue 22 item 2: how many recent assessments each offer would have fitted and won,
        # from the stored results of the newest finished reports (one query per page).
        # Kept for this thread until its next changelist: the page renders after the return.
        _DEMAND.rows = selectors.house_offer_demand()
        _DEMAND.read = next(iter(_DEMAND.rows.values()), (0, 0, 0))[2]
        return super().changelist_view(request, extra_context)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kw: Any) -> Any:
        field = super().formfield_for_foreignkey(db_field, request, **kw)
        if db_field.name == "accelerator":
            # A draft's cards, or the published catalog's when there is no draft yet (the
            # offer is then written to a new draft with the same cards).
            field.queryset = CatalogAccelerator.objects.filter(
                catalog__status__in=[Catalog.Status.DRAFT, Catalog.Status.PUBLISHED]
            ).select_related("catalog")
        if db_field.name == "catalog":
            draft = field.queryset.order_by("-version").first()
            field.required = False
            field.empty_label = (
                _("A new draft of the published catalog, created when you save")
                if draft is None
                else _("The newest draft (%(draft)s)") % {"draft": draft}
            )
            field.help_text = _(
                "The draft catalog the offer is written to; publish it to put the offer in reports."
            )
        return field

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if obj.catalog_id is None:
            draft, created = catalog_draft_for_edit(user=request.user)  # type: ignore[arg-type]
            obj.catalog = draft
            self.message_user(
                request,
                (
                    _("The offer was written to a new draft catalog, %(draft)s.")
                    if created
                    else _("The offer was written to the draft catalog %(draft)s.")
                )
                % {"draft": draft},
            )
        if obj.accelerator.catalog_id != obj.catalog_id:
            # A card picked from the published catalog: the draft's card of the same id.
            obj.accelerator = CatalogAccelerator.objects.get(
                catalog=obj.catalog, key=obj.accelerator.key
            )
        super().save_model(request, obj, form, change)

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kw: Any
    ) -> Any:
        form = super().get_form(request, obj, change, **kw)
        if obj is not None and "accelerator" in form.base_fields:
            form.base_fields["accelerator"].queryset = CatalogAccelerator.objects.filter(
                catalog_id=obj.catalog_id
            )
        return form


# The demand column's figures for the changelist being drawn (per thread: admin instances are
# shared between requests).
_DEMAND = threading.local()
