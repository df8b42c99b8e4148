"""Admin for scoring models: criteria and contributions as tables, clone → preview → publish.

Only the admin role edits (see scoring_views.can_edit_scoring_models). Published and retired
models open read-only; every change is recorded by django-simple-history (the audit trail).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.admin import SimpleHistoryAdmin

from accounts.models import User
from advisor import services
from advisor.models import (
    ANSWER_VALUES,
    PHASE_CHOICES,
    Contribution,
    Criterion,
    ImpactPreview,
    ScoringModel,
)
from advisor.scoring_views import (
    can_edit_scoring_models,
    latest_preview,
    preview_context,
)


def _locked_message(model: ScoringModel) -> str:
    return str(services.ScoringModelLocked(model))


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


# --- Scoring model --------------------------------------------------------------------------


class ScoringModelForm(forms.ModelForm[ScoringModel]):
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
        url = reverse("admin:advisor_criterion_change", args=[obj.pk])
        return format_html(
            '<a href="{}">{}</a>', url, _("%(count)s contributions") % {"count": count}
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
    file = forms.FileField(label=gettext_lazy("JSON file"), required=False)
    text = forms.CharField(
        label=gettext_lazy("or paste the JSON"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "cols": 100}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        if upload is not None:
            if upload.size > 1_000_000:
                raise ValidationError(_("The file is larger than 1 MB; a scoring model is not."))
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
        label=gettext_lazy("Compare with"), queryset=ScoringModel.objects.all()
    )


@admin.register(ScoringModel)
class ScoringModelAdmin(NoBulkDelete, EditorsOnly, SimpleHistoryAdmin):  # type: ignore[misc]
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

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

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
        import json

        return format_html("<pre>{}</pre>", json.dumps(obj.data, indent=2, ensure_ascii=False))

    def get_changeform_initial_data(self, request: HttpRequest) -> dict[str, Any]:
        initial = super().get_changeform_initial_data(request)
        name = str(initial.get("name") or "default")
        return {"name": name, "version": services.scoring_model_next_version(name=name), **initial}

    def save_model(self, request: HttpRequest, obj: ScoringModel, form: Any, change: bool) -> None:
        if change:
            services.scoring_model_ensure_editable(model=obj)
        else:
            obj.created_by = request.user  # type: ignore[assignment]
            obj.status = ScoringModel.Status.DRAFT
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        services.scoring_model_ensure_editable(model=form.instance)
        super().save_formset(request, form, formset, change)

    def delete_model(self, request: HttpRequest, obj: ScoringModel) -> None:
        services.scoring_model_ensure_editable(model=obj)
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
        if obj is not None:
            extra["scoring_model"] = obj
            if obj.is_editable:
                extra["problems"] = services.scoring_document_problems(obj.to_document())
        response: HttpResponse = super().change_view(request, object_id, form_url, extra)
        return response

    # Actions on the list.

    @admin.action(description=gettext_lazy("Clone into a new draft"))
    def clone_action(self, request: HttpRequest, queryset: QuerySet[ScoringModel]) -> None:
        for model in queryset:
            draft = services.scoring_model_clone(model=model, user=self._user(request))
            self.message_user(
                request,
                _("%(draft)s is a new draft cloned from %(model)s.")
                % {"draft": draft, "model": model},
                messages.SUCCESS,
            )

    @admin.action(description=gettext_lazy("Publish (one draft)"))
    def publish_action(self, request: HttpRequest, queryset: QuerySet[ScoringModel]) -> None:
        if queryset.count() != 1:
            self.message_user(request, _("Select exactly one draft to publish."), messages.ERROR)
            return
        self._publish(request, queryset.get())

    # Pages of their own.

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        info = "advisor_scoringmodel"
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

    def _model(self, request: HttpRequest, pk: int) -> ScoringModel:
        if not can_edit_scoring_models(request.user):
            raise PermissionDenied
        return get_object_or_404(ScoringModel, pk=pk)

    def _context(self, request: HttpRequest, model: ScoringModel | None, **extra: Any) -> Any:
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": model,
            "scoring_model": model,
            **extra,
        }

    def _change_url(self, model: ScoringModel) -> str:
        return reverse("admin:advisor_scoringmodel_change", args=[model.pk])

    def _publish(self, request: HttpRequest, model: ScoringModel) -> bool:
        try:
            services.scoring_model_publish(model=model, user=self._user(request))
        except services.ScoringModelLocked as error:
            self.message_user(request, str(error), messages.ERROR)
            return False
        except services.ScoringModelInvalid as error:
            self.message_user(
                request,
                _("%(model)s was not published; fix these first:") % {"model": model},
                messages.ERROR,
            )
            for problem in error.problems:
                self.message_user(request, problem, messages.ERROR)
            return False
        self.message_user(
            request,
            _("%(model)s is published: new assessments and reports use it from now on.")
            % {"model": model},
            messages.SUCCESS,
        )
        return True

    def clone_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        model = self._model(request, pk)
        if request.method == "POST":
            draft = services.scoring_model_clone(model=model, user=self._user(request))
            self.message_user(
                request,
                _("%(draft)s is a new draft cloned from %(model)s.")
                % {"draft": draft, "model": model},
                messages.SUCCESS,
            )
            return redirect(self._change_url(draft))
        context = self._context(
            request,
            model,
            title=_("Clone %(model)s") % {"model": model},
            action="clone",
            next_version=services.scoring_model_next_version(name=model.name),
        )
        return TemplateResponse(request, "admin/advisor/scoringmodel/confirm.html", context)

    def publish_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        model = self._model(request, pk)
        if request.method == "POST":
            self._publish(request, model)
            return redirect(self._change_url(model))
        context = self._context(
            request,
            model,
            title=_("Publish %(model)s") % {"model": model},
            action="publish",
            problems=services.scoring_document_problems(model.to_document())
            if model.is_editable
            else [],
            active=ScoringModel.objects.filter(status=ScoringModel.Status.PUBLISHED).first(),
            preview=latest_preview(model, finished=True),
        )
        return TemplateResponse(request, "admin/advisor/scoringmodel/confirm.html", context)

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        model = self._model(request, pk)
        response = HttpResponse(
            services.scoring_model_export(model=model), content_type="application/json"
        )
        filename = f"scoring-{model.name}-v{model.version}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not can_edit_scoring_models(request.user):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        problems: list[str] = []
        if request.method == "POST" and form.is_valid():
            try:
                model = services.scoring_model_import(
                    json_text=form.cleaned_data["json_text"], user=self._user(request)
                )
            except services.ScoringModelInvalid as error:
                problems = error.problems
            else:
                self.message_user(
                    request,
                    _("%(model)s was imported as a draft.") % {"model": model},
                    messages.SUCCESS,
                )
                return redirect(self._change_url(model))
        context = self._context(
            request, None, title=_("Import a scoring model"), form=form, problems=problems
        )
        return TemplateResponse(request, "admin/advisor/scoringmodel/import.html", context)

    def diff_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        model = self._model(request, pk)
        others = ScoringModel.objects.exclude(pk=model.pk)
        form = DiffForm(request.GET or None)
        form.fields["against"].queryset = others  # type: ignore[attr-defined]
        against = None
        if form.is_bound and form.is_valid():
            against = form.cleaned_data["against"]
        elif not form.is_bound:
            against = (
                others.filter(status=ScoringModel.Status.PUBLISHED).first()
                or others.filter(name=model.name, version__lt=model.version).first()
            )
            form = DiffForm(initial={"against": against})
            form.fields["against"].queryset = others  # type: ignore[attr-defined]
        diff = services.scoring_model_diff(old=against, new=model) if against else None
        context = self._context(
            request,
            model,
            title=_("Changes in %(model)s") % {"model": model},
            form=form,
            against=against,
            diff=diff,
        )
        return TemplateResponse(request, "admin/advisor/scoringmodel/diff.html", context)

    def preview_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        model = self._model(request, pk)
        if request.method == "POST":
            try:
                services.impact_preview_request(draft=model, user=self._user(request))
            except services.ScoringModelInvalid as error:
                for problem in error.problems:
                    self.message_user(request, problem, messages.ERROR)
            return redirect(reverse("admin:advisor_scoringmodel_preview", args=[model.pk]))
        preview = latest_preview(model)
        context = self._context(
            request,
            model,
            title=_("Impact preview of %(model)s") % {"model": model},
            poll=preview is not None and not preview.is_finished,
            **preview_context(preview),
        )
        return TemplateResponse(request, "admin/advisor/scoringmodel/preview.html", context)

    def audit_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        model = self._model(request, pk)
        context = self._context(
            request,
            model,
            title=_("Changes to %(model)s, by whom") % {"model": model},
            entries=audit_entries(model),
        )
        return TemplateResponse(request, "admin/advisor/scoringmodel/audit.html", context)


def audit_entries(model: ScoringModel, limit: int = 500) -> list[dict[str, Any]]:
    """Who changed which criterion or contribution of `model`, when, from what to what."""
    criterion_history = Criterion.history.filter(scoring_model_id=model.pk)
    criterion_ids = set(criterion_history.values_list("id", flat=True))
    records: list[Any] = [
        *criterion_history.select_related("history_user"),
        *Contribution.history.filter(criterion_id__in=criterion_ids).select_related("history_user"),
        *model.history.select_related("history_user"),
    ]
    records.sort(key=lambda r: (r.history_date, r.history_id), reverse=True)
    entries = []
    for record in records[:limit]:
        changes: list[tuple[str, Any, Any]] = []
        previous = record.prev_record if record.history_type == "~" else None
        if previous is not None:
            delta = record.diff_against(previous)
            changes = [(c.field, c.old, c.new) for c in delta.changes]
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
class CriterionAdmin(NoBulkDelete, EditorsOnly, SimpleHistoryAdmin):  # type: ignore[misc]
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
        services.scoring_model_ensure_editable(model=obj.scoring_model)
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        services.scoring_model_ensure_editable(model=form.instance.scoring_model)
        super().save_formset(request, form, formset, change)

    def delete_model(self, request: HttpRequest, obj: Criterion) -> None:
        services.scoring_model_ensure_editable(model=obj.scoring_model)
        super().delete_model(request, obj)

    def _back(self, obj: Criterion) -> HttpResponseRedirect:
        return HttpResponseRedirect(
            reverse("admin:advisor_scoringmodel_change", args=[obj.scoring_model_id])
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
            reverse("admin:advisor_scoringmodel_change", args=[scoring_model_id])
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
    list_display = ("scoring_model", "status", "progress", "total", "requested_by", "requested_at")
    list_filter = ("status",)
    readonly_fields = (
        "scoring_model",
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
