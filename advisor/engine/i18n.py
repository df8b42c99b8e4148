"""Bilingual message table: every human sentence the engine produces, in English and Traditional
Chinese (written for Taiwan and Hong Kong readers). Templates use `{param}` formatting.
"""

from __future__ import annotations

import math
from typing import Any

LANGS = ("en", "zh-hant")


def _m(en: str, zh: str) -> dict[str, str]:
    return {"en": en, "zh-hant": zh}


MESSAGES: dict[str, dict[str, str]] = {
    # --- answer problems
    "problem.not_object": _m(
        "the answers document must be a JSON object, not {actual}",
        "答案文件必須是 JSON 物件，而不是 {actual}",
    ),
    "problem.unknown_key": _m(
        "unknown field '{key}' (allowed: {allowed})", "未知欄位「{key}」（允許：{allowed}）"
    ),
    "problem.required": _m("'{field}' is required", "必須填寫「{field}」"),
    "problem.type": _m("must be {expected}, not {actual}", "必須是 {expected}，而不是 {actual}"),
    "problem.enum": _m("{value} is not one of: {allowed}", "{value} 不是允許的值之一：{allowed}"),
    "problem.schema_version": _m(
        "schema_version must be {expected} (got {value})",
        "schema_version 必須是 {expected}（收到 {value}）",
    ),
    "problem.minimum": _m(
        "must be at least {limit} (got {value})", "不得小於 {limit}（收到 {value}）"
    ),
    "problem.maximum": _m(
        "must be at most {limit} (got {value})", "不得大於 {limit}（收到 {value}）"
    ),
    "problem.exclusive_minimum": _m(
        "must be greater than {limit} (got {value})", "必須大於 {limit}（收到 {value}）"
    ),
    "problem.exclusive_maximum": _m(
        "must be less than {limit} (got {value})", "必須小於 {limit}（收到 {value}）"
    ),
    "problem.min_items": _m(
        "needs at least {limit} item(s) (got {count})", "至少需要 {limit} 項（收到 {count} 項）"
    ),
    "problem.max_items": _m(
        "allows at most {limit} item(s) (got {count})", "最多允許 {limit} 項（收到 {count} 項）"
    ),
    "problem.unique_items": _m("items must not repeat", "項目不可重複"),
    "problem.model_one_of": _m(
        "give exactly one of 'preset' or 'architecture'", "「preset」與「architecture」必須擇一填寫"
    ),
    "problem.invalid": _m("invalid value ({detail})", "無效的值（{detail}）"),
    "problem.duplicate_workload": _m(
        "workload kind '{kind}' is already listed at {first}; kinds must be unique",
        "工作負載類型「{kind}」已在 {first} 列出；類型不可重複",
    ),
    "problem.section_required": _m(
        "the '{section}' section is required because workloads include: {kinds}",
        "因為工作負載包含 {kinds}，必須提供「{section}」區段",
    ),
    "problem.model_required": _m(
        "'model' is required when {sections} is given (sizing needs the model)",
        "提供 {sections} 時必須提供「model」（規模估算需要模型資訊）",
    ),
    "problem.lora_rank_required": _m(
        "lora_rank is required when method is {method}", "method 為 {method} 時必須提供 lora_rank"
    ),
    "problem.output_exceeds_context": _m(
        "output_tokens ({output}) cannot exceed context_tokens ({context}), which includes the "
        "output",
        "output_tokens（{output}）不得超過 context_tokens（{context}）；後者已包含輸出",
    ),
    "problem.kv_heads_divide": _m(
        "kv_heads ({kv_heads}) must divide attention_heads ({heads})",
        "kv_heads（{kv_heads}）必須能整除 attention_heads（{heads}）",
    ),
    "problem.heads_divide_hidden": _m(
        "hidden_size ({hidden}) must be a multiple of attention_heads ({heads}), or give head_dim",
        "hidden_size（{hidden}）必須是 attention_heads（{heads}）的倍數，或另行提供 head_dim",
    ),
    "problem.residency_needs_on_premises": _m(
        "on_premises_only needs on_premises or private_cloud among allowed_modes",
        "選擇 on_premises_only 時，allowed_modes 必須包含 on_premises 或 private_cloud",
    ),
    "problem.scoring_invalid": _m("invalid scoring model ({detail})", "評分模型無效（{detail}）"),
    "problem.scoring_duplicate_id": _m("criterion id '{id}' repeats", "評分準則 id「{id}」重複"),
    "problem.scoring_unknown_value": _m(
        "'{value}' is not a value of {answer} (allowed: {allowed})",
        "「{value}」不是 {answer} 的有效值（允許：{allowed}）",
    ),
    "problem.scoring_no_effect": _m(
        "criterion '{id}' has no non-zero contribution", "評分準則「{id}」沒有任何非零的貢獻值"
    ),
    "problem.catalog_invalid": _m("invalid catalog ({detail})", "目錄資料無效（{detail}）"),
    "problem.file_not_found": _m("file not found: {file}", "找不到檔案：{file}"),
    "problem.file_unreadable": _m("cannot read {file}: {detail}", "無法讀取 {file}：{detail}"),
    "problem.file_too_large": _m(
        "input is larger than the {limit} limit", "輸入超過 {limit} 的上限"
    ),
    "problem.invalid_utf8": _m(
        "input is not valid UTF-8 (byte {position})", "輸入不是有效的 UTF-8（第 {position} 位元組）"
    ),
    "problem.invalid_json": _m(
        "invalid JSON at line {line}, column {column}: {detail}",
        "JSON 格式錯誤，位於第 {line} 行第 {column} 欄：{detail}",
    ),
    "problem.usage": _m("{detail}", "{detail}"),
    # --- hard constraints
    "exclude.tpu_needs_public_cloud": _m(
        "TPUs exist only as a Google Cloud service, and public cloud is not among the allowed "
        "modes.",
        "TPU 僅以 Google Cloud 服務形式提供，而允許的部署模式不包含公有雲。",
    ),
    "exclude.tpu_needs_gcp": _m(
        "TPUs exist only on Google Cloud, which is not among the clouds you use or accept.",
        "TPU 只在 Google Cloud 提供，而 Google Cloud 不在您使用或接受的雲端之列。",
    ),
    "exclude.tpu_on_premises_only": _m(
        "Data must stay on premises, and TPUs cannot be installed on premises.",
        "資料必須留在自有機房，而 TPU 無法在自有機房部署。",
    ),
    "exclude.tpu_no_region": _m(
        "Data must stay in region, and Google Cloud lists no TPUs in {regions} "
        "(deployment_costs.md 5).",
        "資料必須留在區域內，而 Google Cloud 在 {regions} 沒有列出 TPU（deployment_costs.md 第 5 "
        "節）。",
    ),
    "exclude.tpu_custom_kernels": _m(
        "Custom CUDA/Triton kernels and CUDA-only libraries do not run on TPUs as they are.",
        "自訂的 CUDA/Triton 核心與僅支援 CUDA 的函式庫無法直接在 TPU 上執行。",
    ),
    "exclude.tpu_onnx": _m(
        "ONNX models are served with ONNX Runtime, which has no TPU execution provider.",
        "ONNX 模型以 ONNX Runtime 提供服務，而 ONNX Runtime 沒有 TPU 執行後端。",
    ),
    "exclude.tpu_serving": _m(
        "The {serving} serving stack runs on NVIDIA GPUs only.",
        "{serving} 推論服務堆疊只能在 NVIDIA GPU 上執行。",
    ),
    "exclude.mode_not_allowed": _m(
        "{mode} is not among the allowed deployment modes.", "{mode} 不在允許的部署模式之中。"
    ),
    "exclude.mode_on_premises_only": _m(
        "Data must stay on premises, which rules out {mode}.",
        "資料必須留在自有機房，因此排除 {mode}。",
    ),
    # --- reasons and explanations
    "reason.line": _m(
        "{label}: {value} (weight {weight}) → {effects}. {rationale}",
        "{label}：{value}（權重 {weight}）→ {effects}。{rationale}",
    ),
    "reason.no_effect": _m("no effect", "沒有影響"),
    "reason.points": _m("{option} {points}", "{option} {points}"),
    "effect.favours_gpu": _m("favours GPU", "偏向 GPU"),
    "effect.favours_tpu": _m("favours TPU", "偏向 TPU"),
    "effect.neutral": _m("neutral between GPU and TPU", "對 GPU 與 TPU 持平"),
    "would_change.line": _m(
        "If {changes}, the recommendation would become {accelerator} on {mode}.",
        "如果{changes}，建議將改為在{mode}上使用 {accelerator}。",
    ),
    "would_change.change": _m(
        "{path} were {value} instead of {current}", "{path} 為 {value}（而非 {current}）"
    ),
    "would_change.and": _m(" and ", "，且"),
    "would_change.none": _m(
        "No single or paired answer change flips the recommendation.",
        "沒有任何單一或成對的答案變更會改變建議。",
    ),
    "split.note": _m(
        "Training and inference are decided separately: {parts}.",
        "訓練與推論分開決定：{parts}。",
    ),
    "split.part": _m("{kind} → {accelerator} on {mode}", "{kind} → {mode}上的 {accelerator}"),
    "split.separator": _m("; ", "；"),
    # --- billing advice
    "billing.purchase": _m(
        "Owned capacity is bought or leased; no sourced purchase price is in the catalog, so its "
        "cost is reported as missing.",
        "自有容量需購買或租賃；目錄中沒有具來源的購置價格，因此成本列為缺漏。",
    ),
    "billing.hosted_monthly": _m(
        "Dedicated hosts and bare-metal servers are rented by the month.",
        "專屬主機與裸機伺服器按月租用。",
    ),
    "billing.cloud_monthly": _m(
        "You prefer fixed monthly bills and use the devices at least half the day: monthly cloud "
        "billing fits.",
        "您偏好固定月費，且設備每天使用至少一半時間：適合雲端月付方案。",
    ),
    "billing.commit_1y": _m(
        "Use above {break_even} of the month with predictable demand pays off a 1-year "
        "commitment (deployment_costs.md 1c).",
        "每月使用率高於 {break_even} 且需求可預測時，一年期承諾用量較划算（deployment_costs.md "
        "第 1c 節）。",
    ),
    "billing.commit_3y": _m(
        "Use above {break_even} of the month, predictable demand and a stable, standardised "
        "stack justify a 3-year commitment.",
        "每月使用率高於 {break_even}、需求可預測且技術堆疊穩定標準化，適合三年期承諾用量。",
    ),
    "billing.commit_not_worth": _m(
        "You prefer commitments, but at {utilisation} use or with unpredictable demand on-demand "
        "is cheaper than a commitment (break-even {break_even}).",
        "您偏好承諾用量，但在 {utilisation} "
        "的使用率或需求難以預測時，隨需計費比承諾用量便宜（損益平衡點 {break_even}）。",
    ),
    "billing.on_demand": _m(
        "At {utilisation} use, pay for the hours you use (on-demand; spot for interruptible "
        "training).",
        "在 {utilisation} 的使用率下，按實際使用時數付費（隨需計費；可中斷的訓練可用 Spot）。",
    ),
    # --- interconnect and peak notes
    "interconnect.none_fits": _m(
        "Does not fit even when sharded: activations alone exceed the device; enable gradient "
        "checkpointing or lower micro-batch or sequence length.",
        "即使分片也放不下：僅啟動值就超過裝置記憶體；請啟用梯度檢查點或降低 "
        "micro-batch／序列長度。",
    ),
    "interconnect.single": _m("Single device: no interconnect needed.", "單一裝置：不需要互連。"),
    "interconnect.tpu_ici": _m(
        "TPU slice: chips talk over ICI inside the slice.", "TPU 切片：晶片在切片內透過 ICI 互連。"
    ),
    "interconnect.nvlink": _m(
        "One node with NVLink/Infinity Fabric: sharding all-gathers weights every layer.",
        "單一節點，使用 NVLink／Infinity Fabric：分片訓練每層都需要 all-gather 權重。",
    ),
    "interconnect.pcie_only": _m(
        "One node over PCIe only (no NVLink): sharded or tensor-parallel work runs slower.",
        "單一節點僅有 PCIe（無 NVLink）：分片或張量平行會較慢。",
    ),
    "interconnect.multi_node_training": _m(
        "Several nodes: needs a ~400 Gb/s-per-GPU fabric (InfiniBand/RoCE) for sharded training.",
        "多個節點：分片訓練需要每顆 GPU 約 400 Gb/s 的網路（InfiniBand／RoCE）。",
    ),
    "interconnect.multi_node_inference": _m(
        "Several nodes: pipeline parallelism across nodes adds latency.",
        "多個節點：跨節點管線平行會增加延遲。",
    ),
    "peak.bf16": _m("BF16 dense peak", "BF16 密集峰值"),
    "peak.fp16_only": _m(
        "FP16 dense peak (no BF16 on this device)", "FP16 密集峰值（此裝置不支援 BF16）"
    ),
    "peak.tf32": _m("TF32 ≈ half the BF16 peak (EST)", "TF32 約為 BF16 峰值的一半（估計）"),
    "peak.fp8": _m(
        "BF16 peak × FP8 realised speed-up (EST)", "BF16 峰值 × FP8 實際加速倍率（估計）"
    ),
    "peak.no_fp8": _m(
        "No FP8 on this device: runs at BF16 speed", "此裝置不支援 FP8：以 BF16 速度執行"
    ),
    # --- sizing assumptions
    "assume.model": _m(
        "Model {name}: {parameters} parameters, {layers} layers, hidden {hidden}, {heads} heads "
        "/ {kv_heads} KV heads, vocabulary {vocab}.",
        "模型 {name}：{parameters} 個參數、{layers} 層、隱藏維度 {hidden}、{heads} "
        "個注意力頭／{kv_heads} 個 KV 頭、詞彙量 {vocab}。",
    ),
    "assume.gib": _m("Memory in GiB (2^30 bytes).", "記憶體單位為 GiB（2^30 位元組）。"),
    "assume.train_states": _m(
        "{precision} with {optimizer}: {bytes} bytes per trainable parameter for weights, "
        "gradients and optimizer state (mixed-precision AdamW = 16, Transformer Math 101).",
        "{precision} 搭配 {optimizer}：每個可訓練參數的權重、梯度與優化器狀態共 {bytes} "
        "位元組（混合精度 AdamW = 16，Transformer Math 101）。",
    ),
    "assume.lora": _m(
        "{method} rank {rank} on all 7 projections of every layer: {trainable} trainable "
        "parameters; the frozen base is {base}.",
        "{method} 秩 {rank}，套用於每層全部 7 個投影：可訓練參數 {trainable} "
        "個；凍結的基礎模型為 {base}。",
    ),
    "assume.activations": _m(
        "Activations with SDPA/flash attention (no seq² term): {per_token} bytes per token per "
        "layer{ckpt}; micro-batch {batch} × {seq} tokens.",
        "啟動值採 SDPA／flash attention（無 seq² 項）：每層每 token {per_token} "
        "位元組{ckpt}；micro-batch {batch} × {seq} 個 token。",
    ),
    "assume.ckpt": _m(
        ", with checkpointing only layer inputs are kept", "，啟用檢查點時只保留每層輸入"
    ),
    "assume.logits": _m(
        "Logits and loss over the {vocab}-token vocabulary: {bytes} bytes per element (bf16 "
        "logits, fp32 log-softmax, two fp32 gradient buffers).",
        "詞彙量 {vocab} 的 logits 與 loss：每個元素 {bytes} 位元組（bf16 logits、fp32 "
        "log-softmax、兩個 fp32 梯度緩衝）。",
    ),
    "assume.peak_phase": _m(
        "Peak is the {phase} phase ({fb} GiB at the start of backward, {step} GiB in the "
        "optimizer step); no gradient accumulation.",
        "峰值出現在 {phase} 階段（反向傳播開始時 {fb} GiB，優化器步驟時 {step} "
        "GiB）；未使用梯度累積。",
    ),
    "assume.transient": _m(
        "Optimizer step temporary: {bytes} bytes per trainable parameter (foreach AdamW "
        "allocates 4, fused 0).",
        "優化器步驟暫存：每個可訓練參數 {bytes} 位元組（foreach AdamW 為 4，fused 為 0）。",
    ),
    "assume.runtime": _m(
        "Runtime overhead {gib} GiB per device (CUDA context, cuBLAS/NCCL workspaces, EST).",
        "每個裝置的執行環境開銷 {gib} GiB（CUDA context、cuBLAS／NCCL 工作區，估計）。",
    ),
    "assume.reserve": _m(
        "Usable memory = device memory − max({min_gib} GiB, {fraction} of memory) kept free for "
        "allocator fragmentation (EST).",
        "可用記憶體 = 裝置記憶體 − max({min_gib} GiB, 記憶體的 "
        "{fraction})，保留給配置器碎片（估計）。",
    ),
    "assume.sharding": _m(
        "More than one device: ZeRO-3/FSDP shards weights, gradients and optimizer state; each "
        "device keeps its own micro-batch activations and two gathered layers.",
        "多於一個裝置時：以 ZeRO-3／FSDP 分片權重、梯度與優化器狀態；每個裝置保留自己的 "
        "micro-batch 啟動值與兩層已收集的權重。",
    ),
    "assume.seq_over_max": _m(
        "sequence length {seq} exceeds the model's {max} positions (needs RoPE scaling).",
        "序列長度 {seq} 超過模型的 {max} 個位置（需要 RoPE 縮放）。",
    ),
    "assume.train_time": _m(
        "Training FLOPs = {factor}·N·D + attention (PaLM 12·L·h·s): {flops} FLOPs over {tokens} "
        "tokens; hours = FLOPs ÷ (devices × peak × MFU {mfu}).",
        "訓練 FLOPs = {factor}·N·D + 注意力項（PaLM 12·L·h·s）：{tokens} 個 token 共 {flops} "
        "FLOPs；時數 = FLOPs ÷（裝置數 × 峰值 × MFU {mfu}）。",
    ),
    "assume.inf_weights": _m(
        "Weights at {precision}; embeddings and output head stay 16-bit; int4 adds a 16-bit "
        "scale and zero per 128 weights.",
        "權重精度 {precision}；嵌入層與輸出頭維持 16 位元；int4 每 128 個權重另加 16 位元的 "
        "scale 與 zero。",
    ),
    "assume.kv": _m(
        "KV cache = 2 · {layers} layers · {kv_heads} KV heads · {head_dim} head dim · 2 bytes = "
        "{per_token} KiB per token, × {context} tokens × {concurrent} sequences (16-bit cache).",
        "KV 快取 = 2 · {layers} 層 · {kv_heads} 個 KV 頭 · {head_dim} 頭維度 · 2 位元組 = 每 "
        "token {per_token} KiB，× {context} 個 token × {concurrent} 個序列（16 位元快取）。",
    ),
    "assume.prefill": _m(
        "Prefill workspace for up to {chunk} tokens at a time (chunked prefill), plus fp32 "
        "logits for each sequence's last token.",
        "預填工作區一次最多 {chunk} 個 token（分塊預填），另加每個序列最後一個 token 的 fp32 "
        "logits。",
    ),
    "assume.serving": _m(
        "Decode speed = min(bandwidth bound × {mbu}, compute bound × {mfu}) (sizing.md B4, B8); "
        "tensor parallel beyond the KV-head count replicates the cache.",
        "解碼速度 = min(頻寬上限 × {mbu}, 運算上限 × {mfu})（sizing.md B4、B8）；張量平行超過 KV "
        "頭數時快取需複製。",
    ),
    "assume.vllm": _m(
        "Figures are what the model needs; engines such as vLLM pre-allocate a fixed share of "
        "memory regardless.",
        "數字為模型實際所需；vLLM 等引擎會不論需求預先配置固定比例的記憶體。",
    ),
    # --- server
    "server.ram": _m(
        "RAM ≥ {ratio}× the accelerator memory ({source}).",
        "RAM ≥ 加速器記憶體的 {ratio} 倍（{source}）。",
    ),
    "server.cpu": _m("{per} vCPU per device ({source}).", "每個裝置 {per} 個 vCPU（{source}）。"),
    "server.nvme": _m(
        "NVMe for dataset, {ckpt} checkpoints and the model, at least {per} TB per device "
        "({source}).",
        "NVMe 容納資料集、{ckpt} 個檢查點與模型，每個裝置至少 {per} TB（{source}）。",
    ),
    "server.network_multi": _m(
        "Multi-node: {gbps} Gb/s per device between nodes (EST).",
        "多節點：節點間每個裝置 {gbps} Gb/s（估計）。",
    ),
    "server.network_single": _m(
        "Single node: {gbps} Gb/s front-end network (EST).",
        "單一節點：{gbps} Gb/s 前端網路（估計）。",
    ),
    "server.tpu": _m(
        "TPU hosts are supplied by Google Cloud with the slice (e.g. v5p: 208 vCPU, 448 GB per 4 "
        "chips).",
        "TPU 主機由 Google Cloud 隨切片提供（例如 v5p：每 4 顆晶片 208 vCPU、448 GB）。",
    ),
    # --- cost notes
    "cost.missing_price": _m(
        "No sourced {slot} price for {accelerator} in {mode}; admins can add one.",
        "目錄中沒有 {accelerator} 在{mode}的 {slot} 價格來源；管理員可自行補充。",
    ),
    "cost.no_option": _m(
        "No priced option for {kind} on {accelerator} in {mode}.",
        "{kind} 在{mode}使用 {accelerator} 沒有具價格的選項。",
    ),
    "cost.over_budget": _m(
        "Estimated {cost} USD/month is over the {budget} USD budget.",
        "估計每月 {cost} 美元，超出 {budget} 美元的預算。",
    ),
    "cost.stale": _m(
        "{count} price(s) used are older than {days} days or undated: check them before quoting.",
        "使用的價格中有 {count} 筆超過 {days} 天或未標日期：報價前請再次確認。",
    ),
    # --- preview
    "preview.no_model": _m(
        "Add a model to see memory figures.", "加入模型資訊即可看到記憶體估算。"
    ),
    "preview.partial": _m(
        "Leaning based on the answers so far; unanswered questions count as neutral.",
        "依目前已回答的內容推估；未回答的問題視為中立。",
    ),
    "preview.forced": _m("{reason}", "{reason}"),
    # --- CLI text summary
    "summary.title": _m("Recommendation", "建議"),
    "summary.headline": _m(
        "{accelerator} on {mode}, billing: {billing} (confidence {confidence})",
        "在{mode}使用 {accelerator}，計費：{billing}（信心 {confidence}）",
    ),
    "summary.scores": _m("Scores: GPU {gpu}, TPU {tpu}", "分數：GPU {gpu}，TPU {tpu}"),
    "summary.excluded": _m("Excluded", "排除"),
    "summary.reasons": _m("Reasons", "理由"),
    "summary.would_change": _m("Would change if", "在以下情況會改變"),
    "summary.workloads": _m("Workloads", "工作負載"),
    "summary.workload": _m("{kind}: {accelerator} on {mode}", "{kind}：在{mode}使用 {accelerator}"),
    "summary.option": _m(
        "{count} × {name}: {hours} h, {cost}", "{count} × {name}：{hours} 小時，{cost}"
    ),
    "summary.option_cost_month": _m("{usd} USD/month", "每月 {usd} 美元"),
    "summary.option_cost_missing": _m("price missing", "缺少價格"),
    "summary.sizing": _m("Memory", "記憶體"),
    "summary.memory": _m(
        "{phase}: total {total} GiB (weights {weights}, {extra})",
        "{phase}：合計 {total} GiB（權重 {weights}，{extra}）",
    ),
    "summary.fits": _m("Fits one device: {ids}", "單一裝置可容納：{ids}"),
    "summary.server": _m(
        "Server: {cpu} vCPU, {ram} GiB RAM, {nvme} TB NVMe, {net} Gb/s",
        "伺服器：{cpu} vCPU、{ram} GiB RAM、{nvme} TB NVMe、{net} Gb/s",
    ),
    "summary.assumptions": _m("Assumptions", "假設"),
    "summary.none": _m("none", "無"),
}

VALUE_LABELS: dict[str, dict[str, str]] = {
    "gpu": _m("GPU", "GPU"),
    "tpu": _m("TPU", "TPU"),
    "public_cloud": _m("public cloud", "公有雲"),
    "dedicated_hosting": _m("dedicated hosting", "專屬主機代管"),
    "bare_metal": _m("bare metal", "裸機"),
    "private_cloud": _m("private cloud", "私有雲"),
    "on_premises": _m("on premises", "自有機房"),
    "pretraining": _m("pre-training", "預訓練"),
    "fine_tuning": _m("fine-tuning", "微調"),
    "batch_inference": _m("batch inference", "批次推論"),
    "realtime_inference": _m("real-time inference", "即時推論"),
    "preprocessing": _m("preprocessing", "前處理"),
    "on_demand": _m("on-demand", "隨需計費"),
    "spot": _m("spot", "Spot"),
    "committed_1y": _m("1-year commitment", "一年期承諾用量"),
    "committed_3y": _m("3-year commitment", "三年期承諾用量"),
    "monthly_fixed": _m("monthly fixed", "固定月費"),
    "purchase": _m("purchase or lease", "購買或租賃"),
    "forward_backward": _m("start of backward", "反向傳播開始"),
    "optimizer_step": _m("optimizer step", "優化器步驟"),
    "true": _m("yes", "是"),
    "false": _m("no", "否"),
    "training": _m("training", "訓練"),
    "inference": _m("inference", "推論"),
}


class _SafeDict(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def message(code: str, lang: str = "en", /, **params: Any) -> str:
    """The message for `code` in `lang` (falls back to English, then to the code itself)."""
    entry = MESSAGES.get(code)
    if entry is None:
        return code
    template = entry.get(lang) or entry["en"]
    return template.format_map(_SafeDict(params))


def label(value: Any, lang: str = "en") -> str:
    """Display label for an enum value (the value itself when there is none)."""
    key = ("true" if value else "false") if isinstance(value, bool) else str(value)
    entry = VALUE_LABELS.get(key)
    if entry is None:
        return key
    return entry.get(lang) or entry["en"]


def fmt_number(value: float | int) -> str:
    """Readable numbers: 10000000000000 -> '10,000,000,000,000 (1e13)'; floats trimmed."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4g}"
    n = int(value)
    text = f"{n:,}"
    if abs(n) >= 10**7:
        text += f" ({n:.0e})".replace("e+", "e")
    return text


def percent(value: float) -> str:
    """0.63 -> '63%'."""
    return f"{value * 100:.0f}%"
