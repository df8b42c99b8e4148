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

from advisor.engine.answers import fields
from advisor.engine.text import clouds


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
        "cpu": _l("CPU", "CPU"),
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
        # A catalog region group (Google Cloud's default us-central1), never an answer.
        "us_central": _l("US Central", "美國中部"),
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
        "sglang": _l("SGLang", "SGLang"),
        "tgi": _l("Text Generation Inference", "Text Generation Inference", "TGI", "TGI"),
        "tensorrt_llm": _l("TensorRT-LLM", "TensorRT-LLM"),
        "triton": _l("Triton Inference Server", "Triton Inference Server"),
        "tf_serving": _l("TensorFlow Serving", "TensorFlow Serving", "TF Serving", "TF Serving"),
        "torchserve": _l("TorchServe", "TorchServe"),
        "custom": _l("Our own server", "自建服務", "custom", "自行開發"),
        "none": _l("None yet", "尚未決定", "no serving stack", "未使用推論服務框架"),
        "other": _l("another serving stack", "其他推論服務框架"),
    },
    # CUDA architectures custom kernels are built for (answers.KERNEL_ARCHITECTURES).
    "kernel_arch": {
        "sm_70": _l("sm_70 (Volta: V100)", "sm_70（Volta：V100）"),
        "sm_75": _l("sm_75 (Turing: T4)", "sm_75（Turing：T4）"),
        "sm_80": _l("sm_80 (Ampere: A100)", "sm_80（Ampere：A100）"),
        "sm_86": _l("sm_86 (Ampere: A10, A10G)", "sm_86（Ampere：A10、A10G）"),
        "sm_89": _l("sm_89 (Ada: L4, L40S)", "sm_89（Ada：L4、L40S）"),
        "sm_90": _l("sm_90 (Hopper: H100, H200)", "sm_90（Hopper：H100、H200）"),
        "sm_100": _l("sm_100 (Blackwell: B200)", "sm_100（Blackwell：B200）"),
        "sm_120": _l("sm_120 (Blackwell: RTX PRO 6000)", "sm_120（Blackwell：RTX PRO 6000）"),
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
        **{c.key: _l(c.name, c.name_zh or c.name) for c in clouds.PUBLIC_CLOUDS},
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
        "monthly_fixed": _l("Fixed monthly", "固定月費", "fixed monthly"),
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
    # What the model works on, and the models sized in those units.
    "work_unit": {
        "images": _l("Images (vision)", "圖片（視覺）", "images", "圖片"),
        "audio_hours": _l(
            "Audio hours (speech recognition)", "音訊時數（語音辨識）", "audio hours", "小時音訊"
        ),
        "passages": _l("Passages (embedding)", "段落（嵌入向量）", "passages", "段落"),
        "pairs": _l(
            "Query-passage pairs (reranking)", "查詢與段落配對（重新排序）", "pairs", "配對"
        ),
    },
    "work_model": {
        "resnet-50": _l(
            "ResNet-50 (image classification)", "ResNet-50（圖片分類）", "ResNet-50", "ResNet-50"
        ),
        "whisper-large-v3-turbo": _l(
            "Whisper large-v3-turbo (speech recognition)",
            "Whisper large-v3-turbo（語音辨識）",
            "Whisper large-v3-turbo",
            "Whisper large-v3-turbo",
        ),
        "bge-large-en-v1.5": _l(
            "BGE large EN v1.5 (embedding)",
            "BGE large EN v1.5（嵌入向量）",
            "BGE large EN v1.5",
            "BGE large EN v1.5",
        ),
        "bge-reranker-large": _l(
            "BGE reranker large (reranking)",
            "BGE reranker large（重新排序）",
            "BGE reranker large",
            "BGE reranker large",
        ),
    },
    "latency_metric": {
        # The first words a person reads name what is measured in plain words.
        "whole_response": _l(
            "Whole answer on screen (default)",
            "完整回答顯示完畢（預設）",
            "whole response (first token + all output tokens)",
            "完整回應（首個 token + 所有輸出 token）",
        ),
        "ttft": _l(
            "First words on screen: time to first token (TTFT)",
            "第一個字出現：首個 token 時間（TTFT）",
            "time to first token",
            "首個 token 時間",
        ),
        "tpot": _l(
            "Per word: time per output token (TPOT)",
            "每個字：每個輸出 token 時間（TPOT）",
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
    # A batch job's window and what a real-time service must survive.
    "batch_window": {
        "hard": _l(
            "Hard: results after the window are no use",
            "硬性：時段結束後的結果已無用處",
            "hard",
            "硬性",
        ),
        "soft": _l(
            "Soft: finishing late is a nuisance, not a failure",
            "彈性：晚些完成只是不便，並非失敗",
            "soft",
            "彈性",
        ),
    },
    "availability": {
        "survive_one_failure": _l(
            "Production: survive one server failing (N+1, default)",
            "正式環境：一台伺服器故障仍能運作（N+1，預設）",
            "survive one server failing (N+1)",
            "可承受一台伺服器故障（N+1）",
        ),
        "best_effort": _l(
            "Best effort: an outage until a server is replaced is acceptable",
            "盡力而為：可接受更換伺服器前的停機",
            "best effort",
            "盡力而為",
        ),
        "dev_test": _l(
            "Development or test: no spare server",
            "開發或測試：不需備援伺服器",
            "development or test",
            "開發或測試",
        ),
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
    # The catalog's sourced figures by key, for the report's "Figures used" table and the notes
    # that cite them.
    "figure": {
        "qlora_speed_factor": _l("QLoRA speed factor", "QLoRA 速度係數"),
        "fp8_training_speedup": _l("FP8 training speed-up", "FP8 訓練加速倍數"),
        "tf32_share_of_bf16_peak": _l("TF32 share of BF16 peak", "TF32 相對 BF16 峰值的比例"),
        "decode_mbu": _l("Decode memory-bandwidth use", "解碼的記憶體頻寬使用率"),
        "decode_compute_mfu": _l("Decode compute efficiency", "解碼的運算效率"),
        "decode_overhead_us_per_sequence": _l(
            "Decode overhead per sequence and step", "每個序列每步解碼的額外開銷"
        ),
        "prefill_mfu": _l("Prefill compute efficiency", "預填的運算效率"),
        "decode_overhead_us_per_sequence_compiled": _l(
            "Decode overhead per sequence and step (compiled runtime)",
            "每個序列每步解碼的額外開銷（編譯式執行環境）",
        ),
        "chunked_prefill_overlap": _l(
            "Prefill hidden under decode (chunked prefill)", "分塊預填時藏在解碼中的預填比例"
        ),
        "fp8_prefill_gain": _l("FP8 prefill speed-up", "FP8 預填加速倍數"),
        "moe_prefill_efficiency": _l(
            "Mixture-of-experts prefill efficiency", "混合專家模型的預填效率"
        ),
        "moe_prefill_reference_tokens": _l(
            "Tokens per expert at the reference efficiency", "參考效率下每個專家的 token 數"
        ),
        "runtime_overhead_gib": _l("Runtime overhead per device", "每個裝置的執行環境開銷"),
        "reserve_fraction": _l("Memory reserve (share)", "記憶體保留比例"),
        "reserve_min_gib": _l("Smallest memory reserve", "最小記憶體保留量"),
        "optimizer_step_transient_bytes": _l(
            "Optimizer-step temporary memory", "優化器步驟的暫存記憶體"
        ),
        "logits_bytes_per_element": _l("Memory per logits element", "每個 logits 元素的記憶體"),
        "prefill_chunk_tokens": _l("Prefill tokens at once", "一次預填的 token 數"),
        "serving_prefill_chunk_tokens": _l(
            "Prefill tokens per step (chunked prefill)", "每步預填的 token 數（分塊預填）"
        ),
        "inference_rule_of_thumb": _l("Inference memory rule of thumb", "推論記憶體經驗法則"),
        "hours_per_month": _l("Hours in a month", "每月時數"),
        "eur_usd": _l("Euro exchange rate", "歐元匯率"),
        "host_ram_per_device_memory": _l("Host RAM for training servers", "訓練伺服器的主機記憶體"),
        "host_vcpu_per_device": _l("Host vCPU per device", "每個裝置的主機 vCPU"),
        "nvme_per_device_tb": _l("Local NVMe per device", "每個裝置的本機 NVMe"),
        "multi_node_network_gbps_per_device": _l(
            "Network between nodes per device", "每個裝置的節點間網路"
        ),
        "single_node_network_gbps": _l("Front-end network of one server", "單一伺服器的前端網路"),
        "tpu_dcn_gbps_per_chip": _l(
            "TPU data-centre network per chip", "每顆 TPU 晶片的資料中心網路"
        ),
        "dataset_bytes_per_token": _l("Dataset size per token", "每個 token 的資料集大小"),
        "run_provisioning_minutes": _l("Provisioning per run", "每次執行的佈建時間"),
        "run_container_start_minutes": _l("Container start per run", "每次執行的容器啟動時間"),
        "staging_gbytes_per_s": _l("Data staging bandwidth", "資料搬移頻寬"),
        "response_bytes_per_token": _l("Response size per token", "每個 token 的回應大小"),
        "checkpoints_kept": _l("Checkpoints kept", "保留的檢查點數"),
        "staff_hourly_wage_usd": _l("Staff hourly wage", "維運人員時薪"),
        "staff_loaded_multiplier": _l("Staff loaded-cost multiplier", "人力總成本倍數"),
        **{
            c.storage_figure: _l(f"{c.name} storage price", f"{c.name_zh or c.name} 儲存價格")
            for c in clouds.PUBLIC_CLOUDS
        },
        **{
            c.egress_figure: _l(f"{c.name} egress price", f"{c.name_zh or c.name} 對外流量價格")
            for c in clouds.PUBLIC_CLOUDS
        },
        "other_storage_usd_per_gb_month": _l("Storage price elsewhere", "其他供應商的儲存價格"),
        "gcp_egress_china_usd_per_gb": _l(
            "Google Cloud egress price to China", "Google Cloud 連往中國的對外流量價格"
        ),
        "aws_egress_usd_per_gb_tokyo": _l("AWS egress price in Tokyo", "AWS 東京的對外流量價格"),
        "aws_egress_usd_per_gb_hong_kong": _l(
            "AWS egress price in Hong Kong", "AWS 香港的對外流量價格"
        ),
        "other_egress_usd_per_gb": _l("Egress price elsewhere", "其他供應商的對外流量價格"),
        "dedicated_egress_usd_per_gb": _l(
            "Egress price of dedicated hosts", "專屬主機的對外流量價格"
        ),
        "attention_flops_per_token_factor": _l(
            "Attention compute per token", "每個 token 的注意力運算量"
        ),
        "commit_break_even_utilisation": _l(
            "Break-even utilisation of a commitment", "承諾用量的損益兩平使用率"
        ),
        "pcie_p2p_gbytes_per_s": _l("PCIe bandwidth between GPUs", "GPU 之間的 PCIe 頻寬"),
        "allreduce_latency_us": _l("All-reduce latency", "all-reduce 延遲"),
        "pipeline_hop_latency_us": _l(
            "Pipeline hop latency between servers", "伺服器間管線傳遞延遲"
        ),
        "tp_allreduces_per_layer": _l(
            "All-reduces per layer (tensor parallel)", "每層的 all-reduce 次數（張量平行）"
        ),
        "default_training_target_hours": _l(
            "Default time for a training run", "訓練一次的預設目標時間"
        ),
        "realtime_hours_per_month": _l("Hours a real-time service runs", "即時服務每月運行時數"),
        "unit_network_gbps_not_stated": _l(
            "Network between units when the provider does not state it",
            "供應商未列明時的單元間網路頻寬",
        ),
        "dataloader_vcpu_per_device": _l(
            "Data-loading vCPU per training device", "每個訓練裝置的資料載入 vCPU"
        ),
        "training_read_mb_per_s_per_device": _l(
            "Dataset read rate per training device", "每個訓練裝置的資料集讀取速率"
        ),
        "serving_host_ram_per_weight": _l("Host RAM for serving servers", "推論伺服器的主機記憶體"),
        "serving_host_ram_min_gib": _l("Smallest serving host RAM", "推論主機的最小記憶體"),
        "preprocess_tokens_per_vcpu_second": _l(
            "Tokenisation rate per vCPU", "每個 vCPU 的斷詞速率"
        ),
        "jpeg_decode_images_per_vcpu_second": _l(
            "JPEG decode rate per vCPU", "每個 vCPU 的 JPEG 解碼速率"
        ),
        "audio_features_seconds_per_vcpu_second": _l(
            "Audio feature extraction rate per vCPU", "每個 vCPU 的音訊特徵擷取速率"
        ),
        "card_confidence_full_gap": _l(
            "Cost gap for a sure card choice", "卡片選擇確定所需的成本差距"
        ),
        "serving_vcpu_per_device": _l("vCPU per serving device", "每個推論裝置的 vCPU"),
        "staff_hourly_wage_usd_hong_kong": _l("Staff hourly wage in Hong Kong", "香港維運人員時薪"),
        "staff_hourly_wage_usd_tokyo": _l("Staff hourly wage in Tokyo", "東京維運人員時薪"),
        "staff_hours_per_month": _l("Working hours per person a month", "每人每月工作時數"),
        # Owned hardware's total cost of ownership.
        "purchase_usd_nvidia_l40s": _l("NVIDIA L40S purchase price", "NVIDIA L40S 購置價格"),
        "purchase_usd_nvidia_a100_80gb": _l(
            "NVIDIA A100 80GB purchase price", "NVIDIA A100 80GB 購置價格"
        ),
        "purchase_usd_nvidia_h100_sxm": _l(
            "NVIDIA H100 SXM purchase price", "NVIDIA H100 SXM 購置價格"
        ),
        "purchase_usd_nvidia_h100_pcie": _l(
            "NVIDIA H100 PCIe purchase price", "NVIDIA H100 PCIe 購置價格"
        ),
        "purchase_usd_nvidia_h200": _l("NVIDIA H200 purchase price", "NVIDIA H200 購置價格"),
        "purchase_usd_nvidia_b200": _l("NVIDIA B200 purchase price", "NVIDIA B200 購置價格"),
        "purchase_usd_nvidia_rtx_6000_ada": _l(
            "NVIDIA RTX 6000 Ada purchase price", "NVIDIA RTX 6000 Ada 購置價格"
        ),
        "purchase_host_usd_hgx_8gpu": _l(
            "8-GPU HGX server without its cards", "8 卡 HGX 伺服器（不含 GPU）"
        ),
        "purchase_host_usd_pcie_server": _l(
            "PCIe GPU server without its cards", "PCIe GPU 伺服器（不含 GPU）"
        ),
        "server_overhead_kw_hgx": _l(
            "HGX server power besides its cards", "HGX 伺服器 GPU 以外的耗電"
        ),
        "server_overhead_kw_pcie": _l(
            "PCIe server power besides its cards", "PCIe 伺服器 GPU 以外的耗電"
        ),
        "datacenter_pue": _l("Data-centre PUE", "資料中心 PUE"),
        "electricity_usd_per_kwh_hong_kong": _l("Electricity in Hong Kong", "香港電價"),
        "electricity_usd_per_kwh_tokyo": _l("Electricity in Tokyo", "東京電價"),
        "electricity_usd_per_kwh_los_angeles": _l("Electricity in Los Angeles", "洛杉磯電價"),
        "colocation_usd_per_kw_month_hong_kong": _l("Colocation in Hong Kong", "香港機房託管"),
        "colocation_usd_per_kw_month_tokyo": _l("Colocation in Tokyo", "東京機房託管"),
        "colocation_usd_per_kw_month_los_angeles": _l(
            "Colocation in Los Angeles", "洛杉磯機房託管"
        ),
        "owned_support_share_per_year": _l("Hardware support a year", "每年硬體維護支援"),
        "cpu_server_usd_per_vcpu_hour": _l(
            "CPU server price per vCPU-hour", "CPU 伺服器每 vCPU 每小時價格"
        ),
        "cpu_server_hourly_region_multiplier": _l(
            "CPU server price outside the US", "美國以外的 CPU 伺服器價格倍數"
        ),
        "cpu_dedicated_server_usd_per_month": _l(
            "Dedicated CPU server a month", "專屬 CPU 伺服器每月價格"
        ),
        "cpu_dedicated_server_vcpu": _l(
            "vCPU per dedicated CPU server", "每台專屬 CPU 伺服器的 vCPU"
        ),
        "china_rtt_ms_internet_hong_kong": _l(
            "Round trip to mainland China from Hong Kong (internet)",
            "香港至中國大陸往返延遲（一般網路）",
        ),
        "china_rtt_ms_internet_tokyo": _l(
            "Round trip to mainland China from Tokyo (internet)",
            "東京至中國大陸往返延遲（一般網路）",
        ),
        "china_rtt_ms_internet_los_angeles": _l(
            "Round trip to mainland China from Los Angeles (internet)",
            "洛杉磯至中國大陸往返延遲（一般網路）",
        ),
        "china_loss_internet_peak": _l(
            "Packet loss into China at the evening peak", "晚間尖峰進入中國的封包遺失率"
        ),
        "china_rtt_ms_premium_hong_kong": _l(
            "Round trip to mainland China from Hong Kong (premium route)",
            "香港至中國大陸往返延遲（優質線路）",
        ),
        "china_rtt_ms_premium_tokyo": _l(
            "Round trip to mainland China from Tokyo (premium route)",
            "東京至中國大陸往返延遲（優質線路）",
        ),
        "china_rtt_ms_premium_los_angeles": _l(
            "Round trip to mainland China from Los Angeles (premium route)",
            "洛杉磯至中國大陸往返延遲（優質線路）",
        ),
        "china_loss_premium_peak": _l(
            "Packet loss into China on a premium route", "優質線路進入中國的封包遺失率"
        ),
        "tcp_rto_min_ms": _l("Shortest TCP retransmission timeout", "TCP 最短重傳逾時"),
        "default_amortisation_months": _l("Default term for owned hardware", "自有硬體預設攤提期"),
    },
    # Premium routes to mainland China a hosted server's offer may include (house offers).
    "china_route": {
        "cn2_gia": _l("CN2 GIA", "CN2 GIA"),
        "cmi": _l("CMI", "CMI"),
    },
    # Cost lines an option's monthly total adds up, where the report names them from the table.
    "cost_line": {
        "china_bandwidth": _l(
            "China bandwidth",
            "中國大陸頻寬",
            "premium bandwidth to mainland China",
            "中國大陸優質頻寬",
        ),
    },
    # The bundled model presets (data/presets.json) as people name them, not by their ids.
    "preset": {
        "llama-3.2-1b": _l("Llama 3.2 1B", "Llama 3.2 1B"),
        "llama-3-8b": _l("Llama 3 8B", "Llama 3 8B"),
        "llama-3-70b": _l("Llama 3 70B", "Llama 3 70B"),
        "mistral-7b": _l("Mistral 7B", "Mistral 7B"),
        "qwen2.5-7b": _l("Qwen2.5 7B", "Qwen2.5 7B"),
        "mixtral-8x7b": _l("Mixtral 8x7B (mixture of experts)", "Mixtral 8x7B（專家混合模型）"),
        "deepseek-v3": _l(
            "DeepSeek-V3 671B (mixture of experts)", "DeepSeek-V3 671B（專家混合模型）"
        ),
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
        "capacity_block": _l("capacity block", "容量區塊"),
        "flex_start": _l("flex-start (queued)", "彈性啟動（排隊）"),
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

# The units of the catalog's figures, keyed by their English text as gettext keys on a msgid: a
# unit an admin's own catalog adds shows as written.
UNITS: Final[dict[str, str]] = {
    "fraction of dense peak": "稠密運算峰值的比例",
    "multiplier on MFU": "MFU 的乘數",
    "multiplier over BF16 throughput": "相對 BF16 吞吐量的倍數",
    "fraction": "比例",
    "fraction of memory bandwidth": "記憶體頻寬的比例",
    "GiB per device": "GiB／每個裝置",
    "fraction of device memory": "裝置記憶體的比例",
    "GiB": "GiB",
    "bytes per trainable parameter (fp32 states; half for bf16 states)": (
        "位元組／每個可訓練參數（fp32 狀態；bf16 狀態減半）"
    ),
    "bytes per batch*sequence*vocab element": "位元組／每個 batch×序列×詞彙元素",
    "tokens": "個 token",
    "x weight memory": "倍權重記憶體",
    "hours": "小時",
    "USD per EUR": "美元／每歐元",
    "x total accelerator memory": "倍加速器總記憶體",
    "vCPU per device": "vCPU／每個裝置",
    "TB per device": "TB／每個裝置",
    "Gb/s per GPU": "Gb/s／每個 GPU",
    "Gb/s": "Gb/s",
    "Gb/s per chip": "Gb/s／每顆晶片",
    "bytes": "位元組",
    "checkpoints": "個檢查點",
    "USD per hour": "美元／每小時",
    "USD per card": "美元／每張卡",
    "USD per server": "美元／每台伺服器",
    "USD per server-month": "美元／每台伺服器每月",
    "vCPU (threads) per server": "vCPU（執行緒）／每台伺服器",
    "kW per server": "kW／每台伺服器",
    "facility kW per IT kW": "設施 kW／每 IT kW",
    "USD per kWh": "美元／每度電（kWh）",
    "USD per kW-month": "美元／每 kW 每月",
    "share of purchase price per year": "每年佔購置價格的比例",
    "months": "個月",
    "USD per vCPU-hour": "美元／每 vCPU 每小時",
    "ms round trip": "毫秒（往返）",
    "share of packets lost at the evening peak": "晚間尖峰時段的封包遺失比例",
    "x us-east-1 price": "倍 us-east-1 價格",
    "working hours per person per month": "每人每月工作時數",
    "x base wage": "倍基本薪資",
    "USD per GB-month": "美元／每 GB 每月",
    "USD per GiB-month": "美元／每 GiB 每月",
    "USD per GB": "美元／每 GB",
    "x layers*hidden*sequence": "倍 層數×隱藏維度×序列長度",
    "fraction of the month": "每月時間的比例",
    "GB/s per direction between GPUs over PCIe": "GB/s（GPU 之間經 PCIe，每個方向）",
    "microseconds per all-reduce (NVLink); twice over PCIe": (
        "微秒／每次 all-reduce（NVLink；PCIe 加倍）"
    ),
    "all-reduces per decoder layer per step": "次 all-reduce／每個解碼層每步",
    "microseconds per send of a pipeline stage's activations to the next server": (
        "微秒／每次將管線階段的啟動值傳送到下一台伺服器"
    ),
    "hours per device per month": "小時／每個裝置每月",
    "minutes per run": "分鐘／每次執行",
    "microseconds per sequence per decode step": "微秒／每個序列每解碼步",
    "microseconds per sequence per decode step (TensorRT-LLM's C++ executor, and Triton serving "
    "it)": "微秒／每個序列每解碼步（TensorRT-LLM 的 C++ 執行器，及以 Triton 提供服務時）",
    "share of the prompts' compute hidden under decode's memory reads": (
        "提示詞運算藏在解碼記憶體讀取中的比例"
    ),
    "prefill speed of 8-bit weights over 16-bit": "8 位元權重相對 16 位元的預填速度",
    "share of the dense prefill efficiency a mixture of experts' grouped GEMMs reach at the "
    "reference tokens per expert (scaled by the square root of tokens per expert, at most 1)": (
        "混合專家模型的分組 GEMM 在參考的每專家 token 數下達到的稠密預填效率比例（依每專家 token "
        "數的平方根縮放，最多為 1）"
    ),
    "prompt tokens routed to each expert": "分派到每個專家的提示詞 token 數",
    "sequences in flight per replica of an offline (batch) job": "個序列／每個離線（批次）副本",
    "GB/s from object storage to the training fleet": "GB/s（從物件儲存到訓練叢集）",
    "hours per unit as sold (instance or server) per month the unit exists": (
        "小時／每個銷售單位（執行個體或伺服器）每個存在的月份"
    ),
    "product line, generation, generation rank within the line, announcement date": (
        "產品線、世代、該產品線內的世代排序、發表日期"
    ),
    "vCPU per training device for data loading": "vCPU／每個訓練裝置（資料載入）",
    "MB/s of dataset read per training device": "MB/s 資料集讀取／每個訓練裝置",
    "x model weight bytes (host RAM for a serving box)": "倍模型權重大小（推論主機的記憶體）",
    "tokens per vCPU-second": "個 token／每 vCPU 每秒",
    "JPEG images decoded per vCPU-second": "張 JPEG 圖片解碼／每 vCPU 每秒",
    "audio seconds turned into log-mel features per vCPU-second": (
        "秒音訊轉為 log-mel 特徵／每 vCPU 每秒"
    ),
    "fraction of the first option's cost": "第一個方案成本的比例",
    "vCPU per serving device": "vCPU／每個推論裝置",
}

# The answer paths whose values each group names (`workloads[i].x` is read as `workloads[].x`):
# each field's `group` in the field registry.
GROUP_PATHS: Final[dict[str, tuple[str, ...]]] = fields.group_paths()
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


def unit(text: str, lang: str = "en") -> str:
    """A figure's unit as the catalog writes it, in `lang` where the table has it."""
    return UNITS.get(text, text) if lang == "zh-hant" else text
