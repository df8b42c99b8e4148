"""Forms more than one reference admin uses: one-line names, sourced and dated figures, and the
import and diff forms of the versioned pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.forms.models import BaseInlineFormSet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from advisor import jsonsafe
from advisor.reference.models import ScoringModel


class OneLineName:
    """Names reach headers, file names, charts and CSV cells: refuse line breaks and other
    control characters in them (the JSON import refuses the same)."""

    cleaned_data: dict[str, Any]

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        jsonsafe.refuse_control_characters(name)
        return name


class _ReadRow(forms.ModelChoiceField):  # type: ignore[type-arg]
    """A formset row's primary-key field, answered from the rows the formset has read."""

    def __init__(self, *args: Any, rows: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rows = rows

    def to_python(self, value: Any) -> Any:
        found = self.rows.get(str(value))
        return found if found is not None else super().to_python(value)


class ReadRowsFormSet[M: Model, P: Model, F: forms.ModelForm[Any]](BaseInlineFormSet[M, P, F]):
    """An inline formset whose posted rows are not read again one by one: Django's hidden id
    field is a ModelChoiceField that looks each row up (a query per row on every save), although
    the formset read them all at once. An id that is not among them is looked up as before."""

    _read_rows: dict[str, M] | None = None

    def add_fields(self, form: Any, index: Any) -> None:
        super().add_fields(form, index)
        name = form._meta.model._meta.pk.name
        field = form.fields.get(name)
        if form.is_bound and type(field) is forms.ModelChoiceField:
            if self._read_rows is None:
                self._read_rows = {str(row.pk): row for row in self.get_queryset()}
            rows = self._read_rows
            form.fields[name] = _ReadRow(
                field.queryset,
                rows=rows,
                initial=field.initial,
                required=False,
                widget=field.widget,
            )


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
