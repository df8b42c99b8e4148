"""What every versioned kind's admin shares: role-based permissions, no bulk delete, history
pages that name related rows, and VersionedAdmin — draft editing, clone, publish, export, import,
diff, impact preview and audit pages, written once."""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from simple_history.admin import SimpleHistoryAdmin
from simple_history.models import DeletedObject, ModelChange
from simple_history.template_utils import HistoricalRecordContextHelper

from accounts.models import User
from advisor.permissions import request_can_edit_reference
from advisor.reference.admin.forms import DiffForm, ImportForm
from advisor.reference.selectors import latest_preview, preview_context
from advisor.reference.services.scoring import ScoringModelInvalid
from advisor.reference.services.versioned import VersionedKind


class EditorsOnly:
    """Admin permissions by role rather than by Django model permissions."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request_can_edit_reference(request)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request_can_edit_reference(request)


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
    """One implementation of the pages every versioned kind shares: draft editing, clone,
    publish, export, import, diff, impact preview and audit.

    A subclass is declarative: `kind` is the kind's services (a VersionedKind: clone, publish,
    import, export, diff, checks), `noun` the placeholder its messages call the version by and
    `texts` those messages (each kind keeps its own wording and translations). Its pages use
    `admin/<app>/<model>/<page>.html` when that exists, else the shared
    `admin/reference/versioned/<page>.html`. Drafts are deleted like edited."""

    kind: ClassVar[VersionedKind[Any]]
    noun: ClassVar[str]
    texts: ClassVar[dict[str, Any]]
    # Words only one kind's pages carry, e.g. a catalog import's introduction.
    import_words: ClassVar[dict[str, Any]] = {}
    preview_words: ClassVar[dict[str, Any]] = {}
    # Whether the kind has an impact preview (request_preview re-scores the assessments).
    previews: ClassVar[bool] = False
    # The related rows a version's document reads (prefetched for the checks on its page).
    document_prefetch: ClassVar[tuple[str, ...]] = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.change_form_template = self._templates("change_form.html")
        self.change_list_template = self._templates("change_list.html")

    def request_preview(self, obj: Any, user: User) -> None:
        raise NotImplementedError

    def audit_histories(self, obj: Any) -> list[Any]:
        """The history records the audit page lists: the version's own, by default."""
        return [obj.history.all()]

    def publish_context(self, obj: Any) -> dict[str, Any]:
        return {}

    # What the pages share.

    def _templates(self, page: str) -> list[str]:
        return [
            f"admin/{self.opts.app_label}/{self.opts.model_name}/{page}",
            f"admin/reference/versioned/{page}",
        ]

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
            *(
                [path("<int:pk>/preview/", view(self.preview_view), name=f"{info}_preview")]
                if self.previews
                else []
            ),
            path("<int:pk>/audit/", view(self.audit_view), name=f"{info}_audit"),
            *super().get_urls(),
        ]

    def _user(self, request: HttpRequest) -> User:
        assert isinstance(request.user, User)  # noqa: S101 - admin views need a login
        return request.user

    def _get(self, request: HttpRequest, pk: int) -> Any:
        """The version `pk`, for the admin role only (a 403 for other staff)."""
        if not request_can_edit_reference(request):
            raise PermissionDenied
        return get_object_or_404(self.model, pk=pk)

    def _context(self, request: HttpRequest, obj: Any, **extra: Any) -> Any:
        return {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "original": obj,
            "previews": self.previews,
            **extra,
        }

    def _change_url(self, obj: Any) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_change", args=[obj.pk])

    def _page_url(self, page: str, obj: Any) -> str:
        return reverse(f"admin:{self.opts.app_label}_{self.opts.model_name}_{page}", args=[obj.pk])

    # Drafts change; published and retired versions refuse, whichever way a save arrives.

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if change:
            self.kind.ensure_editable(obj)
        else:
            obj.created_by = request.user
            obj.status = self.model.Status.DRAFT
        super().save_model(request, obj, form, change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        self.kind.ensure_editable(form.instance)
        super().save_formset(request, form, formset, change)

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        self.kind.ensure_editable(obj)
        super().delete_model(request, obj)

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Any = None,
    ) -> HttpResponse:
        # The checks read the whole version and compile it: only for a page that is shown (not
        # for a save, which redirects), from the stored rows (not the form's unsaved values),
        # with its related rows read together.
        if obj is not None and obj.is_editable:
            stored = self.model.objects.prefetch_related(*self.document_prefetch).get(pk=obj.pk)
            context["problems"] = self.kind.problems(stored)
        context["previews"] = self.previews
        response: HttpResponse = super().render_change_form(
            request, context, add, change, form_url, obj
        )
        return response

    # Actions on the list.

    @admin.action(description=gettext_lazy("Clone into a new draft"))
    def clone_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for obj in queryset:
            draft = self.kind.clone(obj, user=self._user(request))
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
            self.kind.publish(obj, user=self._user(request))
        except self.kind.locked as error:
            self.message_user(request, str(error), messages.ERROR)
            return False
        except self.kind.invalid as error:
            self.message_user(request, self._say("not_published", obj), messages.ERROR)
            for problem in error.problems:
                self.message_user(request, problem, messages.ERROR)
            return False
        self.message_user(request, self._say("published", obj), messages.SUCCESS)
        return True

    def clone_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        if request.method == "POST":
            draft = self.kind.clone(obj, user=self._user(request))
            self.message_user(request, self._say("cloned", obj, draft=draft), messages.SUCCESS)
            return redirect(self._change_url(draft))
        context = self._context(
            request,
            obj,
            title=self._say("clone_title", obj),
            action="clone",
            next_version=self.kind.next_version(obj),
        )
        return TemplateResponse(request, self._templates("confirm.html"), context)

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
            problems=self.kind.problems(obj) if obj.is_editable else [],
            active=self.model.objects.filter(status=self.model.Status.PUBLISHED).first(),
            preview=latest_preview(obj, finished=True),
            **self.publish_context(obj),
        )
        return TemplateResponse(request, self._templates("confirm.html"), context)

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        response = HttpResponse(self.kind.export(obj), content_type="application/json")
        response["Content-Disposition"] = content_disposition_header(
            True, self.kind.export_filename(obj)
        )
        return response

    def import_view(self, request: HttpRequest) -> HttpResponse:
        if not request_can_edit_reference(request):
            raise PermissionDenied
        form = ImportForm(
            request.POST or None, request.FILES or None, max_bytes=self.kind.import_max_bytes
        )
        problems: list[str] = []
        if request.method == "POST" and form.is_valid():
            try:
                obj = self.kind.import_(form.cleaned_data["json_text"], user=self._user(request))
            except self.kind.invalid as error:
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
        return TemplateResponse(request, self._templates("import.html"), context)

    def diff_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        others = self.model.objects.exclude(pk=obj.pk)
        form = DiffForm(request.GET or None, others=others)
        against = None
        if form.is_bound and form.is_valid():
            against = form.cleaned_data["against"]
        elif not form.is_bound:
            against = self.kind.diff_default(obj, others)
            form = DiffForm(initial={"against": against}, others=others)
        context = self._context(
            request,
            obj,
            title=self._say("diff_title", obj),
            form=form,
            against=against,
            diff=self.kind.diff(against, obj) if against else None,
        )
        return TemplateResponse(request, self._templates("diff.html"), context)

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
        return TemplateResponse(request, self._templates("preview.html"), context)

    def audit_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        obj = self._get(request, pk)
        context = self._context(
            request,
            obj,
            title=self._say("audit_title", obj),
            entries=history_entries(self.audit_histories(obj)),
        )
        return TemplateResponse(request, self._templates("audit.html"), context)


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
