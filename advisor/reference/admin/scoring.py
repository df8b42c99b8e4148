"""Admin for scoring models: the model with its criteria as a table, each criterion's
contributions on its own page, and the impact previews."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from simple_history.admin import SimpleHistoryAdmin

from accounts.models import User
from advisor.permissions import request_can_edit_reference
from advisor.reference.admin.forms import OneLineName, ReadRowsFormSet
from advisor.reference.admin.versioned import (
    EditorsOnly,
    NamedHistory,
    NoBulkDelete,
    VersionedAdmin,
)
from advisor.reference.models import (
    Contribution,
    Criterion,
    ImpactPreview,
    ScoringModel,
)
from advisor.reference.models.scoring import ANSWER_VALUES, PHASE_CHOICES
from advisor.reference.services.impact import impact_preview_request
from advisor.reference.services.scoring import (
    SCORING_MODELS,
    ScoringModelLocked,
    scoring_model_ensure_editable,
    scoring_model_next_version,
)
from advisor.renderers import FAST_RENDERER


def _locked_message(model: ScoringModel) -> str:
    return str(ScoringModelLocked(model))


def _stored_status(model: ScoringModel | None) -> str | None:
    if model is None or model.pk is None:
        return None
    return ScoringModel.objects.filter(pk=model.pk).values_list("status", flat=True).first()


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


class CriterionFormSet(ReadRowsFormSet[Criterion, ScoringModel, forms.ModelForm[Criterion]]):
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
    # Inputs and selects built in Python, as Django's templates give them: the criteria table
    # has a select of every answer on each row (most of the page's time before).
    default_renderer = FAST_RENDERER

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

    def validate_constraints(self) -> None:
        # A row the form leaves as stored already holds to the table's constraints; a changed
        # or new row is checked against the stored ones (a query per row, so only for those),
        # and the formset checks the rows among themselves.
        if self.instance._state.adding or self.has_changed():
            super().validate_constraints()

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

    def get_queryset(self, request: HttpRequest) -> QuerySet[Criterion]:
        queryset: QuerySet[Criterion] = super().get_queryset(request)
        # The contributions column counts each row's with the rows (a query per row before).
        return queryset.annotate(
            contribution_total=Count("contributions", filter=~Q(contributions__option=""))
        )

    @admin.display(description=gettext_lazy("contributions"))
    def contributions_link(self, obj: Criterion) -> str:
        if obj.pk is None:
            return _("Save first, then edit its contributions.")
        count = getattr(obj, "contribution_total", None)
        if count is None:
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
        return request_can_edit_reference(request) and (obj is None or obj.is_editable)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request_can_edit_reference(request) and (obj is None or obj.is_editable)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return self.has_change_permission(request, obj)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request_can_edit_reference(request)


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
        return request_can_edit_reference(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request_can_edit_reference(request) and (obj is None or obj.is_editable)

    def revert_disabled(self, request: HttpRequest, obj: Any = None) -> bool:
        status = _stored_status(obj)
        return status is not None and status != ScoringModel.Status.DRAFT

    def get_queryset(self, request: HttpRequest) -> QuerySet[ScoringModel]:
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
    import_words: ClassVar = {
        "intro": gettext_lazy(
            "Upload a scoring model exported from this or another installation. It arrives as a "
            "draft; nothing changes for customers until it is published."
        ),
        "refused": gettext_lazy("The model was not imported:"),
    }
    preview_words: ClassVar = {
        "intro": gettext_lazy(
            "Re-scores every submitted assessment with this draft and with the active model and "
            "shows what would change. Nothing is published."
        ),
    }
    kind = SCORING_MODELS
    previews = True
    document_prefetch = ("criteria__contributions",)

    def request_preview(self, obj: ScoringModel, user: User) -> None:
        impact_preview_request(draft=obj, user=user)

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


class ContributionFormSet(ReadRowsFormSet[Contribution, Criterion, forms.ModelForm[Contribution]]):
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
        return request_can_edit_reference(request)


def _criterion_editable(request: HttpRequest, criterion: Criterion | None) -> bool:
    return request_can_edit_reference(request) and (
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
        return request_can_edit_reference(request)
