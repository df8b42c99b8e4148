"""The one label table: every answer value and option as people read it, in English and
Traditional Chinese.

Each value has its label where a form, a table or a chart shows it on its own ("Public cloud") and,
where a sentence words it differently, its in-text form ("public cloud"). The engine writes its
explanations from the in-text forms (i18n.label, i18n.value_label); the Django side shows the
labels in the active language (advisor/labels.py: wizard choices, model choices, the report).
Adding an enum value to answers v1 means one entry here, in its group; tests/engine/test_labels.py
checks that none is missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final


@dataclass(frozen=True, slots=True)
class Label:
    en: str
    zh: str
    # Inside a sentence, where that differs from the label shown on its own.
    text_en: str | None = None
    text_zh: str | None = None

    def shown(self, lang: str) -> str:
        return self.zh if lang == "zh-hant" else self.en

    def in_text(self, lang: str) -> str:
        if lang == "zh-hant":
            return self.text_zh or self.zh
        return self.text_en or self.en


def _l(en: str, zh: str, text_en: str | None = None, text_zh: str | None = None) -> Label:
    return Label(en, zh, text_en, text_zh)


GROUPS: Final[dict[str, dict[str, Label]]] = {
    # Accelerator families: the first two options a criterion scores.
    "accelerator": {
        "gpu": _l("GPU", "GPU"),
        "tpu": _l("TPU", "TPU"),
    },
    "industry": {
        "ecommerce": _l("E-commerce", "電子商務", "e-commerce"),
        "media": _l("Media and entertainment", "媒體與娛樂", "media", "媒體"),
        "finance": _l("Finance", "金融", "finance"),
        "insurance": _l("Insurance", "保險", "insurance"),
        "healthcare": _l("Healthcare", "醫療", "healthcare"),
        "life_sciences": _l("Life sciences", "生命科學", "life sciences"),
        "research": _l("Research", "研究", "research"),
        "public_sector": _l("Public sector", "公部門", "public sector"),
        "other": _l("Other", "其他", "another industry", "其他產業"),
    },
    "region": {
        "hong_kong": _l("Hong Kong", "香港"),
        "tokyo": _l("Tokyo", "東京"),
        "singapore": _l("Singapore", "新加坡"),
        "taipei": _l("Taipei", "台北"),
        "los_angeles": _l("Los Angeles", "洛杉磯"),
        "us_east": _l("US East", "美國東部"),
        "us_west": _l("US West", "美國西部"),
        "europe": _l("Europe", "歐洲"),
        "mainland_china": _l("Mainland China", "中國大陸", "mainland China"),
        "japan": _l("Japan outside Tokyo", "日本（東京以外）"),
    },
    "kind": {
        "pretraining": _l("Pre-training", "預訓練", "pre-training"),
        "fine_tuning": _l(
            "Fine-tuning (incl. LoRA/QLoRA)", "微調（含 LoRA/QLoRA）", "fine-tuning", "微調"
        ),
        "batch_inference": _l("Batch inference", "批次推論", "batch inference"),
        "realtime_inference": _l("Real-time inference", "即時推論", "real-time inference"),
        "preprocessing": _l("Data preprocessing", "資料前處理", "preprocessing", "前處理"),
    },
    "schedule": {
        "continuous": _l("Continuously", "持續執行", "continuous"),
        "daily": _l("Daily", "每天", "daily", "每日"),
        "weekly": _l("Weekly", "每週", "weekly"),
        "project_cycles": _l("In project cycles", "依專案週期", "in project cycles"),
        "ad_hoc": _l("Ad hoc", "不定期", "ad hoc"),
    },
    "stack_changes": {
        "weekly": _l("Weekly", "每週", "weekly"),
        "monthly": _l("Monthly", "每月", "monthly"),
        "quarterly": _l("Quarterly", "每季", "quarterly"),
        "rarely": _l("Rarely", "很少", "rarely"),
    },
    "pipeline": {
        "exploratory": _l("Exploratory", "探索中", "exploratory", "探索階段"),
        "evolving": _l("Evolving", "持續演進", "evolving"),
        "standardized": _l("Standardised", "已標準化", "standardised"),
    },
    "demand": {
        "unpredictable": _l("Unpredictable", "難以預測", "unpredictable"),
        "seasonal": _l("Seasonal", "季節性", "seasonal"),
        "predictable": _l("Predictable", "可預測", "predictable"),
    },
    "framework": {
        "pytorch": _l("PyTorch", "PyTorch"),
        "tensorflow": _l("TensorFlow", "TensorFlow"),
        "jax": _l("JAX", "JAX"),
        "onnx": _l("ONNX", "ONNX"),
        "other": _l("Other", "其他", "another framework", "其他框架"),
    },
    "serving": {
        "vllm": _l("vLLM", "vLLM"),
        "tgi": _l("Text Generation Inference", "Text Generation Inference", "TGI", "TGI"),
        "tensorrt_llm": _l("TensorRT-LLM", "TensorRT-LLM"),
        "triton": _l("Triton Inference Server", "Triton Inference Server"),
        "tf_serving": _l("TensorFlow Serving", "TensorFlow Serving", "TF Serving", "TF Serving"),
        "torchserve": _l("TorchServe", "TorchServe"),
        "custom": _l("Our own server", "自建服務", "custom", "自行開發"),
        "none": _l("None yet", "尚未決定", "no serving stack", "未使用推論服務框架"),
        "other": _l("another serving stack", "其他推論服務框架"),
    },
    # Deployment modes in the engine's order (answers.MODES): with the families, the options a
    # criterion scores.
    "mode": {
        "public_cloud": _l("Public cloud", "公有雲", "public cloud"),
        "dedicated_hosting": _l(
            "Dedicated hosting", "專屬主機", "dedicated hosting", "專屬主機代管"
        ),
        "bare_metal": _l("Bare metal", "裸機", "bare metal"),
        "private_cloud": _l("Private cloud", "私有雲", "private cloud"),
        "on_premises": _l("On premises", "自有機房", "on premises"),
    },
    "cloud": {
        "gcp": _l("Google Cloud", "Google Cloud"),
        "aws": _l("AWS", "AWS"),
        "azure": _l("Azure", "Azure"),
        "other": _l("Other", "其他", "another cloud", "其他雲端"),
    },
    "portability": {
        "required": _l("Required", "必須", "required", "必要"),
        "preferred": _l("Preferred", "最好可以", "preferred", "偏好"),
        "not_needed": _l("Not needed", "不需要", "not needed"),
    },
    "residency": {
        "none": _l("No requirement", "沒有要求", "no residency rule", "無資料落地限制"),
        "in_region": _l(
            "Data must stay in its region", "資料必須留在所在地區", "in region", "留在區域內"
        ),
        "on_premises_only": _l(
            "Data must stay on our premises",
            "資料必須留在自有機房",
            "on premises only",
            "僅限自有機房",
        ),
    },
    "billing": {
        "pay_as_you_go": _l(
            "Pay as you go (hourly)", "隨用隨付（按小時）", "pay-as-you-go", "隨用隨付"
        ),
        "monthly_fixed": _l("Fixed monthly", "固定月費", "monthly fixed"),
        "committed": _l("Committed (1–3 years)", "承諾用量（1–3 年）", "committed use", "承諾用量"),
        "no_preference": _l("No preference", "沒有偏好", "no preference"),
    },
    "ops": {
        "none": _l("None", "沒有", "no operations staff", "沒有維運人力"),
        "part_time": _l("Part-time", "兼任", "part-time", "兼職人力"),
        "dedicated_team": _l("A dedicated team", "專職團隊", "a dedicated team"),
    },
    "method": {
        "full": _l("Full training", "完整訓練", "full training", "全參數訓練"),
        "lora": _l("LoRA", "LoRA"),
        "qlora": _l("QLoRA", "QLoRA"),
    },
    "training_precision": {
        "fp32": _l("FP32", "FP32"),
        "bf16_mixed": _l(
            "BF16 mixed (FP32 master weights)",
            "BF16 混合精度（FP32 主權重）",
            "BF16 mixed precision",
            "BF16 混合精度",
        ),
        "bf16": _l("Pure BF16", "純 BF16", "pure BF16"),
        "fp8_mixed": _l("FP8 mixed", "FP8 混合精度", "FP8 mixed precision"),
    },
    "optimizer": {
        "adamw": _l("AdamW", "AdamW"),
        "adamw_8bit": _l("AdamW 8-bit", "AdamW 8 位元", "8-bit AdamW", "8 位元 AdamW"),
        "sgd": _l("SGD", "SGD"),
        "adafactor": _l("Adafactor", "Adafactor"),
    },
    "optimizer_impl": {
        "fused": _l("Fused AdamW (default)", "融合 AdamW（fused，預設）", "fused", "fused（融合）"),
        "foreach": _l("foreach AdamW", "foreach AdamW", "foreach", "foreach（逐組）"),
    },
    "latency_metric": {
        "whole_response": _l(
            "Whole response (default)",
            "完整回應（預設）",
            "whole response (first token + all output tokens)",
            "完整回應（首個 token + 所有輸出 token）",
        ),
        "ttft": _l(
            "Time to first token (TTFT)",
            "首個 token 時間（TTFT）",
            "time to first token",
            "首個 token 時間",
        ),
        "tpot": _l(
            "Time per output token (TPOT)",
            "每個輸出 token 時間（TPOT）",
            "time per output token",
            "每個輸出 token 時間",
        ),
    },
    "inference_precision": {
        "bf16": _l("BF16", "BF16"),
        "fp16": _l("FP16", "FP16"),
        "fp8": _l("FP8", "FP8"),
        "int8": _l("INT8", "INT8"),
        "int4": _l("INT4", "INT4"),
    },
    "traffic": {
        "steady": _l("Steady", "平穩", "steady"),
        "daily_cycle": _l("Daily cycle", "每日週期", "a daily cycle"),
        "bursty": _l("Bursty", "突發", "bursty"),
        "seasonal_peaks": _l("Seasonal peaks", "季節性高峰", "seasonal peaks"),
    },
    # Memory parts of the sizing, for charts and tables.
    "memory": {
        "weights": _l("Weights", "權重"),
        "gradients": _l("Gradients", "梯度"),
        "optimizer": _l("Optimizer state", "優化器狀態"),
        "activations": _l("Activations", "激活值"),
        "kv_cache": _l("KV cache", "KV 快取"),
        "other": _l("Other (logits, runtime)", "其他（logits、執行環境）"),
        "total": _l("Total", "合計"),
    },
    # Short names of the engine's rules (recommendation.rules), for the report.
    "rule": {
        "stack_runs_as_is": _l("stack runs as it is", "技術堆疊照原樣可執行"),
        "rank_by_cost_to_result": _l("ranked by cost to the result", "依達成結果的成本排序"),
        "time_to_result": _l("time to result", "完成時間"),
        "billing_follows_utilisation": _l("billing follows utilisation", "計費方式依使用率"),
        "optimizer_implementation": _l("optimizer implementation", "優化器實作方式"),
        "serving_at_required_load": _l("serving at the required load", "依所需負載配置推論服務"),
        "available_where_customer_is": _l("available where you are", "在您所在地區可取得"),
        "mode_weighs_cost": _l("mode weighs cost", "部署方式考量成本"),
        "server_sized_for_workload": _l("server sized for the workload", "伺服器依工作負載配置"),
        "confidence_covers_recommendation": _l(
            "confidence covers family, mode and card", "信心涵蓋類別、部署方式與卡型"
        ),
        "real_levers": _l("real levers", "真正可調整的參數"),
    },
    "model_source": {
        "preset": _l("A published model", "公開發表的模型"),
        "architecture": _l("Our own architecture", "自有架構"),
    },
    # Derived answers the scoring model reads, where a value means something of its own.
    "tpu_region_coverage": {
        "none": _l("none of your regions lists TPUs", "您的區域都沒有提供 TPU"),
        "some": _l("only some of your regions list TPUs", "只有部分區域提供 TPU"),
        "all": _l("all your regions list TPUs", "您的所有區域都提供 TPU"),
    },
    "latency_class": {
        "none": _l("no latency target", "沒有延遲目標"),
    },
    # Every other value, and the plain word for values that mean different things in different
    # answers ("none", "other"): what a sentence says where no answer gives it a meaning.
    "any": {
        "other": _l("other", "其他"),
        "full": _l("full fine-tuning", "全參數訓練"),
        "bf16": _l("BF16", "BF16"),
        "small": _l("small", "小"),
        "medium": _l("medium", "中"),
        "large": _l("large", "大"),
        "unknown": _l("unknown", "未知"),
        "tight": _l("tight (under 1 s)", "嚴格（1 秒內）"),
        "moderate": _l("moderate (1–10 s)", "中等（1–10 秒）"),
        "relaxed": _l("relaxed (10 s or more)", "寬鬆（10 秒以上）"),
        "all": _l("all regions", "全部區域"),
        "some": _l("some regions", "部分區域"),
        "low": _l("low", "低"),
        "high": _l("high", "高"),
        "none": _l("none", "無"),
        "weights": _l("weights", "權重"),
        "gradients": _l("gradients", "梯度"),
        "optimizer": _l("optimizer state", "優化器狀態"),
        "activations": _l("activations", "激活值"),
        "kv_cache": _l("KV cache", "KV 快取"),
        "other_memory": _l("other", "其他"),
        "on_demand": _l("on-demand", "隨需計費"),
        "spot": _l("spot", "Spot"),
        "committed_1y": _l("1-year commitment", "一年期承諾用量"),
        "committed_3y": _l("3-year commitment", "三年期承諾用量"),
        "purchase": _l("purchase or lease", "購買或租賃"),
        "forward_backward": _l("start of backward", "反向傳播開始"),
        "optimizer_step": _l("optimizer step", "優化器步驟"),
        "true": _l("yes", "是"),
        "false": _l("no", "否"),
        "training": _l("training", "訓練"),
        "inference": _l("inference", "推論"),
    },
}

# The answer paths whose values each group names (`workloads[i].x` is read as `workloads[].x`).
GROUP_PATHS: Final[dict[str, tuple[str, ...]]] = {
    "industry": ("organization.industry",),
    "region": ("organization.regions",),
    "kind": ("workloads[].kind",),
    "schedule": ("workloads[].schedule",),
    "stack_changes": ("maturity.stack_changes",),
    "pipeline": ("maturity.pipeline",),
    "demand": ("maturity.demand",),
    "framework": (
        "frameworks.primary",
        "frameworks.others",
    ),
    "serving": ("frameworks.serving",),
    "mode": ("deployment.allowed_modes",),
    "cloud": ("deployment.clouds",),
    "portability": ("deployment.portability",),
    "residency": ("deployment.data_residency",),
    "billing": ("cost.billing",),
    "ops": ("cost.ops_capacity",),
    "method": ("training.method",),
    "training_precision": ("training.precision",),
    "optimizer": ("training.optimizer",),
    "optimizer_impl": ("training.optimizer_impl",),
    "latency_metric": ("inference.latency_metric",),
    "inference_precision": ("inference.precision",),
    "traffic": ("inference.traffic",),
    "tpu_region_coverage": ("derived.tpu_region_coverage",),
    "latency_class": ("derived.latency_class",),
}
PATH_GROUPS: Final[dict[str, str]] = {p: g for g, paths in GROUP_PATHS.items() for p in paths}

# Where a sentence finds a value's words when no answer path is known: the plain words first, then
# the groups that name answer values (they agree; tests/engine/test_labels.py checks it).
_IN_TEXT: Final[dict[str, Label]] = {}
for _group in ("any", "accelerator", *GROUP_PATHS):
    for _value, _label in GROUPS[_group].items():
        _IN_TEXT.setdefault(_value, _label)


def _key(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def shown(group: str, value: Any, lang: str = "en") -> str:
    """The label of `value` in `group` as shown on its own; the value itself when it has none."""
    label = GROUPS.get(group, {}).get(_key(value))
    return _key(value) if label is None else label.shown(lang)


def in_text(value: Any, lang: str = "en", *, path: str | None = None) -> str:
    """How a sentence names `value`: as the answer at `path` means it when given (a generic
    path, "workloads[].kind"), else in plain words; the value itself when it has none."""
    key = _key(value)
    group = GROUPS.get(PATH_GROUPS.get(path or "", ""), {})
    label = group.get(key) or _IN_TEXT.get(key)
    return key if label is None else label.in_text(lang)
