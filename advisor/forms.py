"""Wizard step forms.

Each form turns one section of the answers document into HTML inputs and back. The forms only
convert types (text to numbers, "yes" to true); every rule about values — enums, bounds, what a
workload requires — is the engine's, and its problems are mapped back onto these fields by path.
All fields are optional here for the same reason: the engine decides what is missing.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.translation import gettext_lazy as _

from accounts.validators import validate_plain_name
from advisor.engine import answers as A
from advisor.labels import choices, label_for
from advisor.models import Assessment, Lead

YES_NO = [("yes", _("Yes")), ("no", _("No"))]


def _select(group: str, values: tuple[str, ...], **kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[("", "—"), *choices(group, values)],
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
        **kwargs,
    )


def _radio(group: str, values: tuple[str, ...], **kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=choices(group, values), required=False, widget=forms.RadioSelect, **kwargs
    )


def _checkboxes(group: str, values: tuple[str, ...], **kwargs: Any) -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        choices=choices(group, values),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        **kwargs,
    )


def _yes_no(**kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(choices=YES_NO, required=False, widget=forms.RadioSelect, **kwargs)


# "8,000", "8 000" and "8 000" (no-break or narrow no-break space) are eight thousand: groups of
# exactly three digits after the first. "8,5" is not a grouping and is refused as before rather
# than guessed at (it is 8.5 in much of Europe).
_GROUPED = re.compile(r"^\s*([+-]?)(\d{1,3}(?:[,\u00a0\u202f ]\d{3})+)(\.\d+)?\s*$")


def _ungroup(value: Any) -> Any:
    if isinstance(value, str) and (match := _GROUPED.match(value)):
        sign, digits, fraction = match.groups()
        return sign + re.sub(r"\D", "", digits) + (fraction or "")
    return value


class GroupedIntegerField(forms.IntegerField):
    """An integer that may be typed with thousands separators."""

    def to_python(self, value: Any) -> int | None:
        return super().to_python(_ungroup(value))


class GroupedFloatField(forms.FloatField):
    """A number that may be typed with thousands separators."""

    def to_python(self, value: Any) -> float | None:  # type: ignore[override]  # as FloatField
        return super().to_python(_ungroup(value))


def _integer(**kwargs: Any) -> forms.IntegerField:
    return GroupedIntegerField(
        required=False,
        # Text, not type=number: browsers silently drop what a number input cannot parse, and
        # we want to show people exactly what they typed next to the reason it was refused.
        widget=forms.TextInput(attrs={"class": "form-control", "inputmode": "numeric"}),
        **kwargs,
    )


def _number(**kwargs: Any) -> forms.FloatField:
    return GroupedFloatField(
        required=False,
        widget=forms.TextInput(attrs={"class": "form-control", "inputmode": "decimal"}),
        **kwargs,
    )


def _html_text(value: Any) -> str:
    # What `{{ value }}` prints in a template: localised, then escaped unless already safe.
    return str(conditional_escape(localize(value)))


def _html_attrs(attrs: dict[str, Any]) -> str:
    # django/forms/widgets/attrs.html
    return "".join(
        f" {_html_text(name)}" + ("" if value is True else f'="{_html_text(str(value))}"')
        for name, value in attrs.items()
        if value is not False
    )


def _html_input(widget: dict[str, Any]) -> str:
    # django/forms/widgets/input.html, included from text.html and hidden.html (stripped, as
    # Django's renderers strip what the templates give)
    value = "" if widget["value"] is None else f' value="{_html_text(str(widget["value"]))}"'
    return (
        f'<input type="{_html_text(widget["type"])}" name="{_html_text(widget["name"])}"{value}'
        f"{_html_attrs(widget['attrs'])}>"
    )


SELECT_OPTION = "django/forms/widgets/select_option.html"


def _html_select(widget: dict[str, Any]) -> str | None:
    # django/forms/widgets/select.html with select_option.html
    out = [f'<select name="{_html_text(widget["name"])}"{_html_attrs(widget["attrs"])}>']
    for group_name, group_choices, _index in widget["optgroups"]:
        if group_name:
            out.append(f'\n  <optgroup label="{_html_text(group_name)}">')
        for option in group_choices:
            if option["template_name"] != SELECT_OPTION:
                return None
            value, attrs = _html_text(str(option["value"])), _html_attrs(option["attrs"])
            out.append(
                f'\n  <option value="{value}"{attrs}>{_html_text(option["label"])}</option>\n'
            )
        if group_name:
            out.append("\n  </optgroup>")
    out.append("\n</select>")
    return "".join(out)


class WizardRenderer(DjangoTemplates):
    """Django's form renderer, with the step forms' text inputs, hidden inputs and selects
    built in Python: a step page has up to a dozen, and each costs two to eleven template
    renders (0.2-0.5 ms). The markup is Django's own, byte for byte: tests/advisor/
    test_step_form_markup.py compares every step form with what Django's templates give."""

    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        html: str | None = None
        if template_name in ("django/forms/widgets/text.html", "django/forms/widgets/hidden.html"):
            html = _html_input(context["widget"])
        elif template_name == "django/forms/widgets/select.html":
            html = _html_select(context["widget"])
        if html is None:
            return super().render(template_name, context, request)
        return html


WIZARD_RENDERER = WizardRenderer()


class StepForm(forms.Form):
    """One wizard step; `section` is the top-level key of the answers document it edits."""

    default_renderer = WIZARD_RENDERER
    section: ClassVar[str]
    # Fields whose empty value means JSON null rather than "not answered".
    nullable: ClassVar[frozenset[str]] = frozenset()

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            if isinstance(field.widget, forms.HiddenInput):
                continue
            described_by = f"errors-{name}"
            if field.help_text:
                described_by = f"id_{name}_helptext {described_by}"
            field.widget.attrs.setdefault("aria-describedby", described_by)

    # --- answers <-> fields -------------------------------------------------------------
    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        section = answers.get(self.section)
        if not isinstance(section, dict):
            return {}
        return {name: _to_field(value) for name, value in section.items() if name in self.fields}

    def section_value(self) -> Any:
        """The section built from the fields that converted; blank fields are left out."""
        out: dict[str, Any] = {}
        for name in self.fields:
            if name == "version" or name not in self.cleaned_data:
                continue
            value = _from_field(self.cleaned_data[name])
            if value is None:
                if name in self.nullable and self._was_given(name):
                    out[name] = None
                continue
            out[name] = value
        return out

    def _was_given(self, name: str) -> bool:
        # A blank optional number the person saw and left empty means "no target" (null).
        return self.is_bound and name in self.data

    def field_for(self, path: str) -> str | None:
        """The form field an engine problem path points at, if any."""
        prefix = self.section + "."
        if path.startswith(prefix):
            name = path[len(prefix) :].split(".")[0].split("[")[0]
            return name if name in self.fields else None
        return None

    def owns(self, path: str) -> bool:
        return path == self.section or path.startswith((self.section + ".", self.section + "["))


def _to_field(value: Any) -> Any:
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return value


def _from_field(value: Any) -> Any:
    if value in ("", None, []):
        return None
    if value == "yes":
        return True
    if value == "no":
        return False
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        # 24.0 hours is 24 in the document; keeps the JSON tidy and types stable.
        return int(value)
    return value


class OrganizationStepForm(StepForm):
    section = "organization"
    industry = _select(
        "industry",
        A.INDUSTRIES,
        label=_("Industry"),
        help_text=_(
            "Regulated industries often need private cloud, on-premises or in-region data."
        ),
    )
    regions = _checkboxes(
        "region",
        A.REGIONS,
        label=_("Where your users and data are"),
        help_text=_(
            "Decides which providers and accelerators are available and the latency to your users. "
            "Tick Mainland China if users or data there must be reached; it is not asked again. "
            "Japan outside Tokyo takes servers anywhere in Japan, Tokyo included; with data kept "
            "in region, Tokyo also takes servers elsewhere in Japan (same country, farther away). "
            "Choose at least one."
        ),
    )


class WorkloadsStepForm(StepForm):
    """One checkbox and one schedule per workload kind; becomes the `workloads` list."""

    section = "workloads"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for kind in A.WORKLOAD_KINDS:
            self.fields[kind] = forms.BooleanField(label=label_for("kind", kind), required=False)
            self.fields[f"{kind}_schedule"] = _select("schedule", A.SCHEDULES, label=_("How often"))
            self.fields[kind].widget.attrs["aria-describedby"] = f"errors-{kind}"
            self.fields[f"{kind}_schedule"].widget.attrs["aria-describedby"] = (
                f"errors-{kind}_schedule"
            )

    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {}
        for item in answers.get("workloads") or []:
            if isinstance(item, dict) and item.get("kind") in A.WORKLOAD_KINDS:
                initial[item["kind"]] = True
                if "schedule" in item:
                    initial[f"{item['kind']}_schedule"] = item["schedule"]
        return initial

    def section_value(self) -> Any:
        items = []
        for kind in A.WORKLOAD_KINDS:
            if self.cleaned_data.get(kind):
                item = {"kind": kind}
                schedule = self.cleaned_data.get(f"{kind}_schedule")
                if schedule:
                    item["schedule"] = schedule
                items.append(item)
        return items

    def field_for(self, path: str) -> str | None:
        # "workloads[1].schedule" names the second ticked kind.
        if not path.startswith("workloads["):
            return None
        try:
            index = int(path[len("workloads[") : path.index("]")])
        except ValueError:
            return None
        ticked = [k for k in A.WORKLOAD_KINDS if self.cleaned_data.get(k)]
        if index >= len(ticked):
            return None
        return f"{ticked[index]}_schedule" if path.endswith(".schedule") else ticked[index]

    def kind_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[kind], self[f"{kind}_schedule"]) for kind in A.WORKLOAD_KINDS]


ARCHITECTURE_FIELDS = (
    "parameters",
    "layers",
    "hidden_size",
    "intermediate_size",
    "attention_heads",
    "kv_heads",
    "head_dim",
    "vocab_size",
    "tied_embeddings",
)
# Mixture of experts: optional answers of the wizard (catalog presets keep theirs in `extra`).
MOE_FIELDS = ("experts", "experts_per_token", "active_parameters")


class ModelStepForm(StepForm):
    section = "model"
    source = _radio(
        "model_source",
        ("preset", "architecture"),
        label=_("Which model"),
        help_text=_(
            "Memory is sized first: the model's shape decides weights, gradients, optimizer "
            "state, activations and KV cache."
        ),
    )
    preset = forms.ChoiceField(
        label=_("Published model"),
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    parameters = _integer(label=_("Parameters"), help_text=_("Total count, e.g. 8030000000."))
    layers = _integer(label=_("Layers"))
    hidden_size = _integer(label=_("Hidden size"))
    intermediate_size = _integer(label=_("MLP intermediate size"))
    attention_heads = _integer(label=_("Attention heads"))
    kv_heads = _integer(
        label=_("Key/value heads"), help_text=_("Fewer than attention heads with GQA.")
    )
    head_dim = _integer(label=_("Head dimension (optional)"))
    vocab_size = _integer(label=_("Vocabulary size"))
    tied_embeddings = _yes_no(label=_("Input and output embeddings shared"))
    experts = _integer(
        label=_("Experts per layer (mixture of experts, optional)"),
        help_text=_(
            "Leave empty for a dense model. For a mixture of experts, the MLP size above is one "
            "expert's."
        ),
    )
    experts_per_token = _integer(
        label=_("Experts used per token"), help_text=_("e.g. 2 of 8 for Mixtral-8x7B.")
    )
    active_parameters = _integer(
        label=_("Active parameters per token (optional)"),
        help_text=_(
            "Memory holds every expert; compute uses the active ones. Derived from the shape "
            "when left empty."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)  # noqa: S101 - narrows the type
        preset.choices = [("", "—"), *choices("preset", A.preset_ids())]

    def architecture_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in (*ARCHITECTURE_FIELDS, *MOE_FIELDS)]

    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        model = answers.get("model")
        if not isinstance(model, dict):
            return {}
        if "preset" in model:
            return {"source": "preset", "preset": model["preset"]}
        arch = model.get("architecture")
        if isinstance(arch, dict):
            return {"source": "architecture", **{k: _to_field(v) for k, v in arch.items()}}
        return {}

    def section_value(self) -> Any:
        source = self.cleaned_data.get("source")
        if not source and self.cleaned_data.get("preset"):
            source = "preset"  # choosing a published model says which source it is
        if source == "preset" and self.cleaned_data.get("preset"):
            return {"preset": self.cleaned_data["preset"]}
        if source == "architecture":
            arch = {
                name: _from_field(self.cleaned_data.get(name))
                for name in (*ARCHITECTURE_FIELDS, *MOE_FIELDS)
                if _from_field(self.cleaned_data.get(name)) is not None
            }
            return {"architecture": arch}
        return None

    def field_for(self, path: str) -> str | None:
        if path.startswith("model.architecture."):
            name = path.split(".")[2]
            return name if name in self.fields else None
        if path.startswith("model.preset"):
            return "preset"
        if path == "model":
            return "source"
        return None


class TrainingStepForm(StepForm):
    section = "training"
    nullable = frozenset({"deadline_hours"})
    method = _radio(
        "method",
        A.TRAINING_METHODS,
        label=_("Training method"),
        help_text=_(
            "LoRA and QLoRA train small adapters: far less memory for gradients and optimizer "
            "state, often a single card instead of a cluster."
        ),
    )
    lora_rank = _integer(label=_("LoRA rank"), help_text=_("For LoRA and QLoRA, e.g. 16."))
    precision = _select(
        "training_precision",
        A.TRAINING_PRECISIONS,
        label=_("Precision"),
        help_text=_("Sets bytes per parameter for weights, gradients and optimizer state."),
    )
    optimizer = _select(
        "optimizer",
        A.OPTIMIZERS,
        label=_("Optimizer"),
        help_text=_("AdamW keeps two states per parameter; 8-bit AdamW and Adafactor keep less."),
    )
    optimizer_impl = _select(
        "optimizer_impl",
        A.OPTIMIZER_IMPLS,
        label=_("AdamW implementation (optional)"),
        help_text=_(
            "Fused AdamW (fused=True, or Hugging Face's adamw_torch_fused) needs no extra memory "
            "for its step; foreach needs a temporary the size of the parameters."
        ),
    )
    micro_batch_size = _integer(
        label=_("Micro-batch size"), help_text=_("Sequences per device per step.")
    )
    sequence_length = _integer(label=_("Sequence length (tokens)"))
    gradient_checkpointing = _yes_no(
        label=_("Gradient checkpointing"),
        help_text=_("Saves activation memory at the cost of about a third more compute."),
    )
    dataset_tokens = _integer(
        label=_("Dataset size (tokens per epoch)"),
        help_text=_("With the model size this gives the compute: about 6 × parameters × tokens."),
    )
    epochs = _number(label=_("Epochs"), help_text=_("Default 1."))
    deadline_hours = _number(
        label=_("Deadline (hours, optional)"),
        help_text=_(
            "Time-to-result matters: a dearer card that finishes in 8 hours can beat a cheap one "
            "that takes 3 days. Leave empty for no deadline."
        ),
    )


class InferenceStepForm(StepForm):
    section = "inference"
    nullable = frozenset({"p95_latency_ms"})
    precision = _select(
        "inference_precision",
        A.INFERENCE_PRECISIONS,
        label=_("Serving precision"),
        help_text=_("Quantised weights (INT8/INT4) need less memory and bandwidth per token."),
    )
    context_tokens = _integer(
        label=_("Context per sequence (tokens)"),
        help_text=_("Prompt plus output; with concurrency this sizes the KV cache."),
    )
    output_tokens = _integer(label=_("Output tokens per sequence"))
    concurrent_sequences = _integer(
        label=_("Concurrent sequences"), help_text=_("Requests in flight at the busiest time.")
    )
    p95_latency_ms = _number(
        label=_("p95 latency target (ms, optional)"),
        help_text=_("Leave empty for batch work with no latency target."),
    )
    latency_metric = _select(
        "latency_metric",
        A.LATENCY_METRICS,
        label=_("What the latency target measures (optional)"),
        help_text=_(
            "First words on screen: a chat reply starts within 500 ms (time to first token). "
            "Whole answer: a 300-word summary is complete within 10,000 ms. Per word: each "
            "further word arrives within 50 ms, faster than people read (time per output "
            "token). More servers let more people ask at once; they do not make one answer "
            "faster. Leave empty for the whole answer."
        ),
    )
    tokens_per_day = _integer(
        label=_("Output tokens per day"), help_text=_("Decides how many devices you need.")
    )
    traffic = _radio(
        "traffic",
        A.TRAFFIC,
        label=_("Traffic shape"),
        help_text=_("Bursty or seasonal traffic favours elastic capacity over fixed servers."),
    )
    peak_to_average = _number(
        label=_("Peak-to-average traffic (optional)"),
        help_text=_(
            "How many times the day's average token rate your busiest hour reaches: about 2 for a "
            "daily cycle, 10 for launches or campaigns (1 to 100). Real-time serving is sized for "
            "it. Leave empty to use the traffic shape."
        ),
    )
    availability = _radio(
        "availability",
        A.AVAILABILITY,
        label=_("What must a real-time service survive? (optional)"),
        help_text=_(
            "A production service plans one spare server, so that a failed server still leaves "
            "capacity for the peak. Leave empty for production."
        ),
    )
    batch_window_hours = _number(
        label=_("Batch window in hours (optional)"),
        help_text=_(
            "For a daily batch job: the hours each run must finish in, e.g. 4 for 01:00 to "
            "05:00. The run, with its start-up, is checked against it like a deadline."
        ),
    )
    batch_window_start_hour = _integer(
        label=_("Batch window opens at (hour, optional)"),
        help_text=_("Local hour, 0 to 23: 1 means 01:00."),
    )
    batch_window_firmness = _radio(
        "batch_window",
        A.BATCH_WINDOW_FIRMNESS,
        label=_("Is the batch window hard or soft? (optional)"),
        help_text=_("A hard window ranks a plan that overruns it after every plan that fits."),
    )


class WorkStepForm(StepForm):
    """Issue 21 item 7: what the served model works on. Text tokens (the default) leave the
    section out; images, audio, passages or pairs are sized in their own unit."""

    section = "work"
    nullable = frozenset({"p95_latency_ms"})
    TOKENS = "tokens"
    unit = forms.ChoiceField(
        choices=[
            (TOKENS, _("Text tokens: a language model (the default)")),
            *choices("work_unit", A.WORK_UNITS),
        ],
        required=False,
        widget=forms.RadioSelect,
        label=_("What your model works on"),
        help_text=_(
            "A vision model is sized in images, speech recognition in hours of audio, embedding "
            "in passages and a reranker in query-passage pairs, each from published throughput "
            "per card."
        ),
    )
    model = _select(
        "work_model",
        A.WORK_MODELS,
        label=_("Model (for images, audio, passages or pairs)"),
        help_text=_("The published model closest to yours; its size and throughput are sourced."),
    )
    per_day = _number(
        label=_("Volume a day"),
        help_text=_(
            "Images a day, hours of audio a day, passages a day or query-passage pairs a day."
        ),
    )
    p95_latency_ms = _number(
        label=_("p95 latency per image or request (ms, optional)"),
        help_text=_("For real-time serving: e.g. 100 ms per image. Leave empty for batch work."),
    )
    peak_to_average = _number(
        label=_("Peak-to-average load (optional)"),
        help_text=_(
            "How many times the day's average your busiest hour reaches (1 to 100). Leave "
            "empty for a daily cycle."
        ),
    )

    def initial_from(self, answers: dict[str, Any]) -> dict[str, Any]:
        initial = super().initial_from(answers)
        initial.setdefault("unit", self.TOKENS)
        return initial

    def section_value(self) -> Any:
        if self.cleaned_data.get("unit") in (None, "", self.TOKENS):
            return {}  # text tokens: no work section, the model and inference steps size it
        return super().section_value()


class MaturityStepForm(StepForm):
    section = "maturity"
    stack_changes = _radio(
        "stack_changes",
        A.STACK_CHANGES,
        label=_("How often does your ML stack change?"),
        help_text=_(
            "GPUs are the safe default for a changing stack; TPUs pay off when it is stable."
        ),
    )
    pipeline = _radio(
        "pipeline",
        A.PIPELINES,
        label=_("How mature is your pipeline?"),
        help_text=_("Standardised, repeatable jobs can use specialised hardware well."),
    )
    demand = _radio(
        "demand",
        A.DEMANDS,
        label=_("How predictable is demand?"),
        help_text=_(
            "Predictable demand makes monthly servers and commitments cheaper than hourly."
        ),
    )


class FrameworksStepForm(StepForm):
    section = "frameworks"
    primary = _radio(
        "framework",
        A.FRAMEWORKS,
        label=_("Main framework"),
        help_text=_(
            "JAX and TensorFlow run best on TPUs; PyTorch runs everywhere, on TPUs via XLA."
        ),
    )
    others = _checkboxes("framework", A.FRAMEWORKS, label=_("Other frameworks in use"))
    custom_kernels = _yes_no(
        label=_("Custom CUDA or Triton kernels, or CUDA-only libraries?"),
        help_text=_("These do not run on TPUs as they are."),
    )
    serving = _select(
        "serving",
        A.SERVING,
        label=_("Serving stack"),
        help_text=_("Some serving stacks (e.g. TensorRT-LLM, ONNX) need GPUs."),
    )
    kernel_architectures = _checkboxes(
        "kernel_arch",
        A.KERNEL_ARCHITECTURES,
        label=_("CUDA architectures your kernels are built for (optional)"),
        help_text=_(
            "As in TORCH_CUDA_ARCH_LIST or nvcc -gencode. A newer card needs the kernels rebuilt; "
            "an older one cannot run them."
        ),
    )


class DeploymentStepForm(StepForm):
    section = "deployment"
    allowed_modes = _checkboxes(
        "mode",
        A.MODES,
        label=_("Where may you deploy?"),
        help_text=_(
            "TPUs exist only as a Google Cloud service; GPUs are available in every mode. "
            "Choose at least one."
        ),
    )
    clouds = _checkboxes(
        "cloud",
        A.CLOUDS,
        label=_("Clouds in use or acceptable"),
        help_text=_("Leave all unticked if any cloud is acceptable."),
    )
    portability = _radio(
        "portability",
        A.PORTABILITY,
        label=_("Must you be able to move between providers?"),
        help_text=_("Portability favours GPUs and standard stacks."),
    )
    # China reach is not asked here: step 1's regions say it (mainland China among them), and
    # the engine derives deployment.china_connectivity from them when a document leaves it out.
    data_residency = _radio(
        "residency",
        A.RESIDENCY,
        label=_("Data residency"),
        help_text=_("On-premises-only data rules out public clouds and so TPUs."),
    )


class CostStepForm(StepForm):
    section = "cost"
    nullable = frozenset({"monthly_budget_usd", "capex_budget_usd"})
    billing = _radio(
        "billing",
        A.BILLING,
        label=_("How do you prefer to pay?"),
        help_text=_(
            "Cost is more than the hourly price: idle time, contracts and staff count too."
        ),
    )
    monthly_budget_usd = _number(
        label=_("Monthly budget in USD (optional)"),
        help_text=_("Leave empty if you have not set one."),
    )
    hours_per_day = _number(
        label=_("Hours per day the accelerators are busy"),
        help_text=_("0 to 24. Below the break-even hours, hourly billing beats a monthly server."),
    )
    ops_capacity = _radio(
        "ops",
        A.OPS_CAPACITY,
        label=_("Operations staff"),
        help_text=_(
            "Bare metal and private cloud need people to run them; managed cloud needs fewer."
        ),
    )
    ops_headcount = _integer(
        label=_("Operations headcount (optional)"),
        help_text=_(
            "People who run the servers. Their working hours are priced at their regional wage; "
            "hours beyond what they can do are bought in at a premium."
        ),
    )
    ops_region = _select(
        "region",
        A.REGIONS,
        label=_("Where the operations staff work (optional)"),
        help_text=_(
            "Sets their wage: sourced for Hong Kong, Tokyo and the US; elsewhere the US figure is "
            "used. Leave empty for your first region."
        ),
    )
    amortisation_months = _integer(
        label=_("Months to pay off owned hardware (optional)"),
        help_text=_(
            "Private cloud and on-premises servers are priced as their purchase spread over this "
            "many months, plus power, colocation, support and staff. Leave empty for 36 months."
        ),
    )
    capex_budget_usd = _number(
        label=_("Hardware purchase budget in USD (optional)"),
        help_text=_("For owned hardware: the report says when the purchase is over it."),
    )


class NewAssessmentForm(forms.Form):
    title = forms.CharField(
        label=_("Title"),
        max_length=Assessment._meta.get_field("title").max_length,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    starter = forms.ChoiceField(label=_("Start from"), required=False)

    def __init__(self, *args: Any, starters: list[tuple[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        starter = self.fields["starter"]
        assert isinstance(starter, forms.ChoiceField)  # noqa: S101 - narrows the type
        starter.choices = [("", _("A blank assessment")), *starters]
        starter.widget.attrs["class"] = "form-select"


class ReportRequestForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Report language"),
        choices=[("en", "English"), ("zh-hant", "繁體中文")],
        widget=forms.Select(attrs={"class": "form-select form-select-sm w-auto"}),
    )
    # The version the page showed: its answers are the ones regenerated (services.report_request).
    source = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)


class ShareLinkForm(forms.Form):
    label = forms.CharField(
        label=_("Label (who it is for)"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"class": "form-control form-control-sm"}),
    )
    expires_in_days = forms.IntegerField(
        label=_("Expires after (days)"),
        min_value=1,
        max_value=365,
        required=False,
        help_text=_("Leave empty for a link that works until you revoke it."),
        widget=forms.TextInput(
            attrs={"class": "form-control form-control-sm", "inputmode": "numeric"}
        ),
    )


class ProspectForm(forms.Form):
    organization_name = forms.CharField(
        label=_("Customer organisation"),
        max_length=120,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    title = forms.CharField(
        label=_("Assessment title"),
        max_length=Assessment._meta.get_field("title").max_length,
        validators=[validate_plain_name],
        widget=forms.TextInput(attrs={"class": "form-control"}),
    )
    contact_email = forms.EmailField(
        label=_("Customer contact's email (optional)"),
        required=False,
        help_text=_("They get a link that lets them join and fill in the steps themselves."),
        widget=forms.EmailInput(attrs={"class": "form-control"}),
    )


class CustomerInviteForm(forms.Form):
    email = forms.EmailField(
        label=_("Customer contact's email"),
        widget=forms.EmailInput(attrs={"class": "form-control form-control-sm"}),
    )


# The answers a what-if may change: field -> (section, key) of the answers document.
WHAT_IF_FIELDS: dict[str, tuple[str, str]] = {
    "hours_per_day": ("cost", "hours_per_day"),
    "tokens_per_day": ("inference", "tokens_per_day"),
    "p95_latency_ms": ("inference", "p95_latency_ms"),
    "deadline_hours": ("training", "deadline_hours"),
    "allowed_modes": ("deployment", "allowed_modes"),
    # The answers that exclude options (issue 24 item 5): where the users and data are decides
    # the providers, regions and cards on offer; data residency rules out whole modes.
    "regions": ("organization", "regions"),
    "data_residency": ("deployment", "data_residency"),
}
# The what-if's multiple-choice answers, shown as groups of checkboxes.
WHAT_IF_LISTS = frozenset({"allowed_modes", "regions"})


class WhatIfForm(forms.Form):
    """The answers a report's what-if may change, pre-filled from the report's answers.

    Only the fields whose section the answers hold are offered (no latency target without an
    inference workload). Like the step forms it only converts types; the engine judges values.
    """

    default_renderer = WIZARD_RENDERER
    # Blank means "no target" (null) for these; for the others the engine says it is required.
    nullable: ClassVar[frozenset[str]] = frozenset({"p95_latency_ms", "deadline_hours"})

    hours_per_day = _number(
        label=_("Hours per day the accelerators are busy"), help_text=_("0 to 24.")
    )
    tokens_per_day = _integer(label=_("Output tokens per day"))
    p95_latency_ms = _number(
        label=_("p95 latency target (ms)"), help_text=_("Leave empty for no latency target.")
    )
    deadline_hours = _number(
        label=_("Training deadline (hours)"), help_text=_("Leave empty for no deadline.")
    )
    allowed_modes = _checkboxes("mode", A.MODES, label=_("Where you may deploy"))
    regions = _checkboxes("region", A.REGIONS, label=_("Where your users and data are"))
    data_residency = forms.ChoiceField(
        label=_("Data residency"),
        choices=choices("residency", A.RESIDENCY),
        required=False,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )

    def __init__(self, data: Any = None, *, answers: dict[str, Any]) -> None:
        self.paths = {f"{section}.{key}": name for name, (section, key) in WHAT_IF_FIELDS.items()}
        initial = {}
        for name, (section, key) in WHAT_IF_FIELDS.items():
            held = answers.get(section)
            if isinstance(held, dict):
                initial[name] = held.get(key)
        super().__init__(data, initial=initial, auto_id="id_whatif_%s")
        for name in list(self.fields):
            if name not in initial:
                del self.fields[name]
            else:
                self.fields[name].widget.attrs["aria-describedby"] = f"errors-whatif-{name}"
        for name in WHAT_IF_LISTS & set(self.fields):
            self.fields[name].widget.attrs["class"] = "form-check-input"

    def changes(self) -> tuple[dict[str, Any], list[str]]:
        """The fields that converted, as answers values by path, and the paths of required
        numbers left blank (services.what_if_answers removes them: the engine says so)."""
        values: dict[str, Any] = {}
        removed: list[str] = []
        for name in self.fields:
            if name not in self.cleaned_data:
                continue
            path = "{}.{}".format(*WHAT_IF_FIELDS[name])
            value = self.cleaned_data[name]
            if name in WHAT_IF_LISTS:
                values[path] = list(value or [])
            elif value in (None, "") and name not in self.nullable:
                removed.append(path)
            else:
                values[path] = _from_field(value)
        return values, removed

    def attach(self, problems: list[Any], language: str) -> None:
        """The engine's problems at the fields they name (others for the whole form)."""
        for problem in problems:
            # A problem with one item of a list ("organization.regions[2]") belongs to the list.
            name = self.paths.get(problem.path.split("[", 1)[0])
            if name is None and problem.path.startswith("deployment."):
                name = "allowed_modes"  # data residency rules speak of the allowed modes
            if name is not None and name not in self.fields:
                name = None
            if name is not None and name in self.errors:
                continue  # a conversion error already says what is wrong with it
            self.add_error(name, problem.message(language))


TERM_CHOICES = [(m, m) for m in (1, 3, 6, 12, 24, 36)]


class QuoteRequestForm(forms.Form):
    """What a quote request adds to the sized server the report already holds: the term, the
    bandwidth to mainland China and a note (nothing of the server is typed again)."""

    term_months = forms.TypedChoiceField(
        label=_("Term (months)"),
        choices=TERM_CHOICES,
        coerce=int,
        initial=12,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    china_bandwidth_mbps = forms.IntegerField(
        label=_("Bandwidth to mainland China (Mbps)"),
        min_value=0,
        max_value=100_000,
        required=False,
        help_text=_("Premium routes (CN2 GIA, CMI); leave empty for none."),
        widget=forms.TextInput(
            attrs={"class": "form-control form-control-sm", "inputmode": "numeric"}
        ),
    )
    china_bandwidth_type = forms.ChoiceField(
        label=_("China route"),
        choices=Lead.ChinaBandwidth.choices,
        required=False,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )
    note = forms.CharField(
        label=_("Note for the sales engineers"),
        max_length=1000,
        required=False,
        widget=forms.Textarea(attrs={"class": "form-control form-control-sm", "rows": 2}),
    )
    # The house offer asked about, when the report lists several (empty: the first option's).
    offer = forms.CharField(max_length=100, required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("china_bandwidth_mbps") and not data.get("china_bandwidth_type"):
            self.add_error("china_bandwidth_type", _("Choose the route for the China bandwidth."))
        if data.get("china_bandwidth_type") and not data.get("china_bandwidth_mbps"):
            self.add_error("china_bandwidth_mbps", _("Give the bandwidth for this route."))
        return data


class LeadStatusForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Status"),
        choices=Lead.Status.choices,
        widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
    )


class MeasurementForm(forms.Form):
    """A serving benchmark's own result, pasted or uploaded (issue 24 item 4); parsed by the
    engine (engine/measured.py), which names every problem."""

    text = forms.CharField(
        label=_("Paste the benchmark's result file"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "class": "form-control font-monospace small"}),
    )
    file = forms.FileField(
        label=_("or upload it"),
        required=False,
        widget=forms.ClearableFileInput(
            attrs={"class": "form-control", "accept": ".json,.jsonl,.csv,.txt"}
        ),
    )
    concurrency = forms.IntegerField(
        label=_("Concurrency of the run (only for genai-perf's CSV, which does not record it)"),
        required=False,
        min_value=1,
        max_value=100_000,
        widget=forms.NumberInput(attrs={"class": "form-control", "inputmode": "numeric"}),
    )
