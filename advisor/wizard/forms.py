"""The wizard's step forms, one per section of the answers document.

Each form turns one section of the answers document into HTML inputs and back. The forms only
convert types (text to numbers, "yes" to true); every rule about values — enums, bounds, what a
workload requires — is the engine's, and its problems are mapped back onto these fields by path.
All fields are optional here for the same reason: the engine decides what is missing.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from advisor.engine import answers as A
from advisor.engine.answers import ARCHITECTURE_ANSWERS, MOE_ANSWERS
from advisor.forms.base import (
    StepForm,
    _checkboxes,
    _from_field,
    _integer,
    _number,
    _radio,
    _select,
    _to_field,
    _yes_no,
)
from advisor.labels import choices, label_for, question_for


class OrganizationStepForm(StepForm):
    section = "organization"
    industry = _select(
        "industry",
        A.INDUSTRIES,
        label=question_for("organization.industry"),
        help_text=_(
            "Regulated industries often need private cloud, on-premises or in-region data."
        ),
    )
    regions = _checkboxes(
        "region",
        A.REGIONS,
        label=question_for("organization.regions"),
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
        label=question_for("model.preset"),
        required=False,
        widget=forms.Select(attrs={"class": "form-select"}),
    )
    parameters = _integer(
        label=question_for("model.architecture.parameters"),
        help_text=_("Total count, e.g. 8030000000."),
    )
    layers = _integer(label=question_for("model.architecture.layers"))
    hidden_size = _integer(label=question_for("model.architecture.hidden_size"))
    intermediate_size = _integer(label=question_for("model.architecture.intermediate_size"))
    kv_heads = _integer(
        label=question_for("model.architecture.kv_heads"),
        help_text=_("num_key_value_heads in config.json, e.g. 8 for Llama-3-70B."),
    )
    kv_group_size = _integer(
        label=question_for("model.architecture.kv_group_size"),
        help_text=_(
            "The attention heads are the key/value heads times this: 8 for Llama-3-70B "
            "(64 heads over 8), 1 when every head has its own."
        ),
    )
    head_dim = _integer(
        label=question_for("model.architecture.head_dim"),
        help_text=_("head_dim in config.json; else the hidden size over the attention heads."),
    )
    vocab_size = _integer(label=question_for("model.architecture.vocab_size"))
    tied_embeddings = _yes_no(label=question_for("model.architecture.tied_embeddings"))
    experts_per_token = _integer(
        label=question_for("model.architecture.experts_per_token"),
        help_text=_(
            "Leave empty for a dense model. For a mixture of experts, e.g. 2 for Mixtral-8x7B; "
            "the MLP size above is then one expert's."
        ),
    )
    inactive_experts = _integer(
        label=question_for("model.architecture.inactive_experts"),
        help_text=_("The experts per layer less those used: 6 for Mixtral-8x7B (8 less 2)."),
    )
    active_parameter_share = _number(
        label=question_for("model.architecture.active_parameter_share"),
        help_text=_(
            "Above 0, at most 1: e.g. 0.056 for DeepSeek-V3 (37.6 of 671 billion). Memory "
            "holds every expert; compute uses this share. Derived from the shape when left "
            "empty."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)  # noqa: S101 - narrows the type
        preset.choices = [("", "—"), *choices("preset", A.preset_ids())]

    def architecture_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in (*ARCHITECTURE_ANSWERS, *MOE_ANSWERS)]

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
                for name in (*ARCHITECTURE_ANSWERS, *MOE_ANSWERS)
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
    method = _radio(
        "method",
        A.TRAINING_METHODS,
        label=question_for("training.method"),
        help_text=_(
            "LoRA and QLoRA train small adapters: far less memory for gradients and optimizer "
            "state, often a single card instead of a cluster."
        ),
    )
    lora_rank = _integer(
        label=question_for("training.lora_rank"), help_text=_("For LoRA and QLoRA, e.g. 16.")
    )
    precision = _select(
        "training_precision",
        A.TRAINING_PRECISIONS,
        label=question_for("training.precision"),
        help_text=_("Sets bytes per parameter for weights, gradients and optimizer state."),
    )
    optimizer = _select(
        "optimizer",
        A.OPTIMIZERS,
        label=question_for("training.optimizer"),
        help_text=_("AdamW keeps two states per parameter; 8-bit AdamW and Adafactor keep less."),
    )
    optimizer_impl = _select(
        "optimizer_impl",
        A.OPTIMIZER_IMPLS,
        label=question_for("training.optimizer_impl"),
        help_text=_(
            "Fused AdamW (fused=True, or Hugging Face's adamw_torch_fused) needs no extra memory "
            "for its step; foreach needs a temporary the size of the parameters."
        ),
    )
    micro_batch_size = _integer(
        label=question_for("training.micro_batch_size"),
        help_text=_("Sequences per device per step."),
    )
    sequence_length = _integer(label=question_for("training.sequence_length"))
    gradient_checkpointing = _yes_no(
        label=question_for("training.gradient_checkpointing"),
        help_text=_("Saves activation memory at the cost of about a third more compute."),
    )
    dataset_tokens = _integer(
        label=question_for("training.dataset_tokens"),
        help_text=_("With the model size this gives the compute: about 6 × parameters × tokens."),
    )
    epochs = _number(label=question_for("training.epochs"), help_text=_("Default 1."))
    deadline_hours = _number(
        label=question_for("training.deadline_hours"),
        help_text=_(
            "Time-to-result matters: a dearer card that finishes in 8 hours can beat a cheap one "
            "that takes 3 days. Leave empty for no deadline."
        ),
    )


class InferenceStepForm(StepForm):
    section = "inference"
    precision = _select(
        "inference_precision",
        A.INFERENCE_PRECISIONS,
        label=question_for("inference.precision"),
        help_text=_("Quantised weights (INT8/INT4) need less memory and bandwidth per token."),
    )
    prompt_tokens = _integer(
        label=question_for("inference.prompt_tokens"),
        help_text=_(
            "The instructions, documents and conversation sent with each request, in tokens "
            "(0 if none)."
        ),
    )
    output_tokens = _integer(
        label=question_for("inference.output_tokens"),
        help_text=_(
            "The answer generated for each request. Prompt plus answer is the context each "
            "sequence holds; with concurrency it sizes the KV cache."
        ),
    )
    concurrent_sequences = _integer(
        label=question_for("inference.concurrent_sequences"),
        help_text=_("Requests in flight at the busiest time."),
    )
    p95_latency_ms = _number(
        label=question_for("inference.p95_latency_ms"),
        help_text=_("Leave empty for batch work with no latency target."),
    )
    latency_metric = _select(
        "latency_metric",
        A.LATENCY_METRICS,
        label=question_for("inference.latency_metric"),
        help_text=_(
            "First words on screen: a chat reply starts within 500 ms (time to first token). "
            "Whole answer: a 300-word summary is complete within 10,000 ms. Per word: each "
            "further word arrives within 50 ms, faster than people read (time per output "
            "token). More servers let more people ask at once; they do not make one answer "
            "faster. Leave empty for the whole answer."
        ),
    )
    tokens_per_day = _integer(
        label=question_for("inference.tokens_per_day"),
        help_text=_("Decides how many devices you need."),
    )
    traffic = _radio(
        "traffic",
        A.TRAFFIC,
        label=question_for("inference.traffic"),
        help_text=_("Bursty or seasonal traffic favours elastic capacity over fixed servers."),
    )
    peak_to_average = _number(
        label=question_for("inference.peak_to_average"),
        help_text=_(
            "How many times the day's average token rate your busiest hour reaches: about 2 for a "
            "daily cycle, 10 for launches or campaigns (1 to 100). Real-time serving is sized for "
            "it. Leave empty to use the traffic shape."
        ),
    )
    availability = _radio(
        "availability",
        A.AVAILABILITY,
        label=question_for("inference.availability"),
        help_text=_(
            "A production service plans one spare server, so that a failed server still leaves "
            "capacity for the peak. Leave empty for production."
        ),
    )
    batch_window_hours = _number(
        label=question_for("inference.batch_window_hours"),
        help_text=_(
            "For a daily batch job: the hours each run must finish in, e.g. 4 for 01:00 to "
            "05:00. The run, with its start-up, is checked against it like a deadline."
        ),
    )
    batch_window_start_hour = _integer(
        label=question_for("inference.batch_window_start_hour"),
        help_text=_("Local hour, 0 to 23: 1 means 01:00."),
    )
    batch_window_firmness = _radio(
        "batch_window",
        A.BATCH_WINDOW_FIRMNESS,
        label=question_for("inference.batch_window_firmness"),
        help_text=_("A hard window ranks a plan that overruns it after every plan that fits."),
    )


class WorkStepForm(StepForm):
    """What the served model works on. Text tokens (the default) leave the
    section out; images, audio, passages or pairs are sized in their own unit."""

    section = "work"
    TOKENS = "tokens"
    unit = forms.ChoiceField(
        choices=[
            (TOKENS, _("Text tokens: a language model (the default)")),
            *choices("work_unit", A.WORK_UNITS),
        ],
        required=False,
        widget=forms.RadioSelect,
        label=question_for("work.unit"),
        help_text=_(
            "A vision model is sized in images, speech recognition in hours of audio, embedding "
            "in passages and a reranker in query-passage pairs, each from published throughput "
            "per card."
        ),
    )
    model = _select(
        "work_model",
        A.WORK_MODELS,
        label=question_for("work.model"),
        help_text=_("The published model closest to yours; its size and throughput are sourced."),
    )
    per_day = _number(
        label=question_for("work.per_day"),
        help_text=_(
            "Images a day, hours of audio a day, passages a day or query-passage pairs a day."
        ),
    )
    p95_latency_ms = _number(
        label=question_for("work.p95_latency_ms"),
        help_text=_("For real-time serving: e.g. 100 ms per image. Leave empty for batch work."),
    )
    peak_to_average = _number(
        label=question_for("work.peak_to_average"),
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
        label=question_for("maturity.stack_changes"),
        help_text=_(
            "GPUs are the safe default for a changing stack; TPUs pay off when it is stable."
        ),
    )
    pipeline = _radio(
        "pipeline",
        A.PIPELINES,
        label=question_for("maturity.pipeline"),
        help_text=_("Standardised, repeatable jobs can use specialised hardware well."),
    )
    demand = _radio(
        "demand",
        A.DEMANDS,
        label=question_for("maturity.demand"),
        help_text=_(
            "Predictable demand makes monthly servers and commitments cheaper than hourly."
        ),
    )


class FrameworksStepForm(StepForm):
    section = "frameworks"
    primary = _radio(
        "framework",
        A.FRAMEWORKS,
        label=question_for("frameworks.primary"),
        help_text=_(
            "JAX and TensorFlow run best on TPUs; PyTorch runs everywhere, on TPUs via XLA."
        ),
    )
    others = _checkboxes("framework", A.FRAMEWORKS, label=question_for("frameworks.others"))
    custom_kernels = _yes_no(
        label=question_for("frameworks.custom_kernels"),
        help_text=_("These do not run on TPUs as they are."),
    )
    serving = _select(
        "serving",
        A.SERVING,
        label=question_for("frameworks.serving"),
        help_text=_("Some serving stacks (e.g. TensorRT-LLM, ONNX) need GPUs."),
    )
    kernel_architectures = _checkboxes(
        "kernel_arch",
        A.KERNEL_ARCHITECTURES,
        label=question_for("frameworks.kernel_architectures"),
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
        label=question_for("deployment.allowed_modes"),
        help_text=_(
            "TPUs exist only as a Google Cloud service; GPUs are available in every mode. "
            "Choose at least one."
        ),
    )
    clouds = _checkboxes(
        "cloud",
        A.CLOUDS,
        label=question_for("deployment.clouds"),
        help_text=_("Leave all unticked if any cloud is acceptable."),
    )
    portability = _radio(
        "portability",
        A.PORTABILITY,
        label=question_for("deployment.portability"),
        help_text=_("Portability favours GPUs and standard stacks."),
    )
    # China reach is not asked here: step 1's regions say it (mainland China among them), and
    # the engine derives deployment.china_connectivity from them when a document leaves it out.
    data_residency = _radio(
        "residency",
        A.RESIDENCY,
        label=question_for("deployment.data_residency"),
        help_text=_("On-premises-only data rules out public clouds and so TPUs."),
    )


class CostStepForm(StepForm):
    section = "cost"
    billing = _radio(
        "billing",
        A.BILLING,
        label=question_for("cost.billing"),
        help_text=_(
            "Cost is more than the hourly price: idle time, contracts and staff count too."
        ),
    )
    monthly_budget_usd = _number(
        label=question_for("cost.monthly_budget_usd"),
        help_text=_("Leave empty if you have not set one."),
    )
    hours_per_day = _number(
        label=question_for("cost.hours_per_day"),
        help_text=_("0 to 24. Below the break-even hours, hourly billing beats a monthly server."),
    )
    ops_capacity = _radio(
        "ops",
        A.OPS_CAPACITY,
        label=question_for("cost.ops_capacity"),
        help_text=_(
            "Bare metal and private cloud need people to run them; managed cloud needs fewer."
        ),
    )
    ops_headcount = _integer(
        label=question_for("cost.ops_headcount"),
        help_text=_(
            "People who run the servers. Their working hours are priced at their regional wage; "
            "hours beyond what they can do are bought in at a premium."
        ),
    )
    ops_region = _select(
        "region",
        A.REGIONS,
        label=question_for("cost.ops_region"),
        help_text=_(
            "Sets their wage: sourced for Hong Kong, Tokyo and the US; elsewhere the US figure is "
            "used. Leave empty for your first region."
        ),
    )
    amortisation_months = _integer(
        label=question_for("cost.amortisation_months"),
        help_text=_(
            "Private cloud and on-premises servers are priced as their purchase spread over this "
            "many months, plus power, colocation, support and staff. Leave empty for 36 months."
        ),
    )
    capex_budget_usd = _number(
        label=question_for("cost.capex_budget_usd"),
        help_text=_("For owned hardware: the report says when the purchase is over it."),
    )
