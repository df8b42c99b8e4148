"""The engine's bilingual tables, data only: every sentence the engine produces (MESSAGES) and the
catalog's own notes (CATALOG_TEXT), in English and Traditional Chinese (written for Taiwan and
Hong Kong readers). `advisor.engine.text.i18n` looks them up and formats them; templates use
`{param}` formatting.
"""

from __future__ import annotations


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
    # Problems name their field in words ({field_label}, its label in advisor/engine/fields,
    # capitalised where a sentence starts with it) and bounds with the unit declared there.
    "problem.required": _m("{field_label} is required", "必須填寫{field_label}"),
    "problem.required.plural": _m("{field_label} are required", "必須填寫{field_label}"),
    "problem.type": _m(
        "{field_label} must be {expected_words}, not {actual_words}",
        "{field_label}必須是{expected_words}，而不是{actual_words}",
    ),
    "problem.enum": _m(
        "{field_label} cannot be {value}; choose from: {allowed_label}",
        "{field_label}不能是 {value}；請從以下選擇：{allowed_label}",
    ),
    "problem.schema_version": _m(
        "The schema version must be {expected} (or {older}, still accepted and read as "
        "{expected}), not {value}",
        "結構描述版本必須是 {expected}（仍接受 {older}，並當作 {expected} 讀取），而不是 {value}",
    ),
    "problem.minimum": _m(
        "{field_label} must be at least {limit}, not {value}",
        "{field_label}不得小於{limit}（收到 {value}）",
    ),
    "problem.maximum": _m(
        "{field_label} must be at most {limit}, not {value}",
        "{field_label}不得大於{limit}（收到 {value}）",
    ),
    "problem.exclusive_minimum": _m(
        "{field_label} must be more than {limit}, not {value}",
        "{field_label}必須大於{limit}（收到 {value}）",
    ),
    "problem.exclusive_maximum": _m(
        "{field_label} must be less than {limit}, not {value}",
        "{field_label}必須小於{limit}（收到 {value}）",
    ),
    "problem.min_items": _m(
        "{field_label}: choose at least {limit}, not {count}",
        "{field_label}：至少需選擇 {limit} 項（收到 {count} 項）",
    ),
    "problem.min_items.one": _m(
        "{field_label}: choose at least one", "{field_label}：至少需選擇一項"
    ),
    "problem.max_items": _m(
        "{field_label}: at most {limit} entries, not {count}",
        "{field_label}：最多 {limit} 項（收到 {count} 項）",
    ),
    "problem.max_length": _m(
        "{field_label} can be at most {limit} characters long, not {count}",
        "{field_label}最多 {limit} 個字元（收到 {count} 個）",
    ),
    "problem.unknown_keys": _m(
        "{count} more unknown field(s) (allowed: {allowed})",
        "另有 {count} 個未知欄位（允許：{allowed}）",
    ),
    "problem.more": _m(
        "... and {count} more problem(s), not listed",
        "……另有 {count} 個問題未列出",
    ),
    "problem.unique_items": _m(
        "{field_label}: each choice may appear only once", "{field_label}：每個選項只能出現一次"
    ),
    "problem.model_one_of": _m(
        "Choose either a published model or your own architecture (one of the two)",
        "請選擇公開發表的模型或自有架構（兩者擇一）",
    ),
    "problem.invalid": _m("invalid value ({detail})", "無效的值（{detail}）"),
    "problem.duplicate_workload": _m(
        "{kind_label_start} is already listed as {first_label}; each kind of work is listed once",
        "工作負載類型「{kind_label}」已在{first_label}列出；類型不可重複",
    ),
    "problem.section_required": _m(
        "{section_label_start} is required because the workloads include {kinds_label}",
        "因為工作負載包含{kinds_label}，必須提供「{section_label}」區段（{section}）",
    ),
    "problem.model_required": _m(
        "The model is required when {sections_label} is given: sizing needs it",
        "提供{sections_label}時必須提供「模型」（model；規模估算需要模型資訊）",
    ),
    "problem.lora_rank_required": _m(
        "The LoRA rank is required for {method_label}",
        "訓練方法為{method_label}時必須提供 LoRA 秩（lora_rank）",
    ),
    "problem.output_exceeds_context": _m(
        "The output tokens ({output}) cannot be more than the context tokens ({context}), which "
        "include the output (schema version 1; version 2 asks the prompt tokens and the output "
        "tokens instead)",
        "輸出 token 數（{output}）不得超過上下文 token 數（{context}）；後者已包含輸出"
        "（結構描述版本 1；版本 2 改為分別提供提示 token 數與輸出 token 數）",
    ),
    "problem.batch_window_hours_required": _m(
        "Give the batch window's length in hours (e.g. 4): a start hour or hard/soft alone is "
        "no window",
        "請提供批次時段的長度（小時，例如 4）：只有開始時間或硬性／彈性並不構成時段",
    ),
    "problem.kv_heads_divide": _m(
        "The KV heads ({kv_heads}) must divide the attention heads ({heads}) evenly",
        "KV 頭數（{kv_heads}）必須能整除注意力頭數（{heads}）",
    ),
    "problem.experts_per_token_exceed": _m(
        "The experts per token ({k}) cannot be more than the experts ({experts})",
        "每個 token 使用的專家數（{k}）不得超過專家總數（{experts}）",
    ),
    "problem.work_model_unit": _m(
        "{work_model_label} does not work on {work_unit_label}: choose a model for "
        "{work_unit_label}, or the unit it works on",
        "{work_model_label} 不處理{work_unit_label}：請選擇處理{work_unit_label}的模型，"
        "或改選它所處理的單位",
    ),
    "problem.work_with_training": _m(
        "Work in images, audio, passages or pairs is sized for inference only; training "
        "({kinds_label}) is sized in tokens. Remove the training workload or the unit",
        "以圖片、音訊、段落或配對計量的工作只估算推論；訓練（{kinds_label}）以 token "
        "估算。請移除訓練工作負載，或移除此計量單位",
    ),
    "problem.experts_k_required": _m(
        "Give the experts per token of a mixture of experts (e.g. 2 of 8)",
        "專家混合（MoE）模型須提供每個 token 使用的專家數（例如 8 個中的 2 個）",
    ),
    "problem.active_exceeds_total": _m(
        "The active parameters ({active}) cannot be more than the parameters ({total})",
        "啟用參數量（{active}）不得超過總參數量（{total}）",
    ),
    "problem.heads_divide_hidden": _m(
        "The hidden size ({hidden}) must be a multiple of the attention heads ({heads}), or give "
        "the head dimension",
        "隱藏維度（{hidden}）必須是注意力頭數（{heads}）的倍數，或另行提供頭維度（head_dim）",
    ),
    "problem.head_dim_out_of_range": _m(
        "The hidden size ({hidden}) over the attention heads ({heads}) makes a head dimension of "
        "{head_dim}, outside {low}..{high}: give the head dimension (schema version 3 asks it "
        "instead)",
        "隱藏維度（{hidden}）除以注意力頭數（{heads}）得出的頭維度為 {head_dim}，超出 "
        "{low}..{high}：請提供頭維度（head_dim；結構描述版本 3 改為直接詢問此值）",
    ),
    "problem.inactive_experts_required": _m(
        "Give the experts a token is not routed to, with the experts per token (e.g. 6 with 2 "
        "for Mixtral-8x7B's 8)",
        "請連同每個 token 使用的專家數，提供 token 不會路由到的專家數"
        "（例如 Mixtral-8x7B 共 8 個：使用 2 個、其餘 6 個）",
    ),
    "problem.residency_needs_on_premises": _m(
        "Data that must stay on your premises needs on premises or private cloud among the "
        "allowed deployment modes",
        "資料落地為「僅限自有機房」時，允許的部署模式必須包含「自有機房」或「私有雲」",
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
    "problem.offer_invalid": _m("invalid offer ({detail})", "報價資料無效（{detail}）"),
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
        "Data must stay in region, and Google Cloud lists no TPUs in {regions}.",
        "資料必須留在區域內，而 Google Cloud 在 {regions} 沒有列出 TPU。",
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
        "{path} were {value} instead of {current}", "{path}為「{value}」（而非「{current}」）"
    ),
    "field.workload_n": _m("the {field} of workload {n}", "第 {n} 項工作負載的{field}"),
    "list.separator": _m(", ", "、"),
    "list.clause_separator": _m("; ", "；"),
    # The modes a house server is sold in: "dedicated hosting or bare metal".
    "house.deployment": _m("{modes} or {last}", "{modes}或{last}"),
    "field.workload_index": _m("workload {n}", "第 {n} 項工作負載"),
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
        "Owned capacity is bought: its monthly cost is the purchase paid off over the term, plus "
        "electricity, colocation, support and staff (a total cost of ownership).",
        "自有容量需自行購置：每月成本為購置價於攤提期內分攤，加上電力、機房託管、維護支援與人力"
        "（總持有成本）。",
    ),
    "billing.hosted_monthly": _m(
        "Dedicated hosts and bare-metal servers are rented by the month.",
        "專屬主機與裸機伺服器按月租用。",
    ),
    "billing.hosted_term": _m(
        "Dedicated hosts and bare-metal servers are rented by the month or on a term. {billing} "
        "costs the least of the terms your answers allow.",
        "專屬主機與裸機伺服器可按月或按合約期租用。在您的回答允許的方案中，{billing}最便宜。",
    ),
    "billing.cloud_monthly": _m(
        "You prefer fixed monthly bills and use the devices at least half the day: monthly cloud "
        "billing fits.",
        "您偏好固定月費，且設備每天使用至少一半時間：適合雲端月付方案。",
    ),
    "billing.commit_1y": _m(
        "Use above {break_even} of the month with predictable demand pays off a 1-year commitment.",
        "每月使用率高於 {break_even} 且需求可預測時，一年期承諾用量較划算。",
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
        "即使分片也放不下：僅激活值就超過裝置記憶體；請啟用梯度檢查點或降低 "
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
    "peak.tf32": _m("TF32 ≈ half the BF16 peak (an estimate)", "TF32 約為 BF16 峰值的一半（估計）"),
    "peak.fp8": _m(
        "BF16 peak × FP8 realised speed-up (an estimate)", "BF16 峰值 × FP8 實際加速倍率（估計）"
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
    # --- Mixture of experts
    "assume.moe": _m(
        "Mixture of experts: {experts} experts per layer, {k} used per token (plus {shared} "
        "shared). Memory holds all {parameters} parameters; compute (training FLOPs, prefill and "
        "decode) uses the {active} active ones, {ratio}× fewer; a decode step reads the experts "
        "its batch routes to (with even routing, all of them at large batches).",
        "專家混合（MoE）：每層 {experts} 個專家，每個 token 使用 {k} 個"
        "（另加 {shared} 個共用專家）。"
        "記憶體須容納全部 {parameters} 個參數；運算量（訓練 FLOPs、預填與解碼）只按 {active} "
        "個啟用參數計算，少 {ratio} 倍；每一步解碼讀取該批次所路由到的專家權重（路由平均時，"
        "大批次會讀到全部專家）。",
    ),
    # --- Work in its own unit (images, audio hours, passages, pairs)
    "work.sized": _m(
        "{kind} is sized in {unit}, not tokens: {model} ({parameters} parameters, {weights} GiB "
        "of 16-bit weights, which one card holds) for {per_day} {unit} a day, {demand} {samples} "
        "a second to serve. {card} does {per_card} a second per card on {benchmark} ({basis}; "
        "{source}, {as_of}), so {count} × {card} at ${cost} {per} all in (compute, staff, "
        "storage).",
        "{kind}以{unit}而非 token 計量：{model}（{parameters} 個參數，16 位元權重 {weights} GiB，"
        "一張卡即可容納），每天 {per_day} {unit}，每秒須處理 {demand} {samples}。{card} 在 "
        "{benchmark} 上每張卡每秒處理 {per_card} 個（{basis}；{source}，{as_of}），"
        "因此需 {count} 張 {card}，含運算、人力與儲存每{per} ${cost}。",
    ),
    "work.samples.images": _m("images", "張圖片"),
    "work.samples.audio_hours": _m("audio seconds", "秒音訊"),
    "work.samples.passages": _m("passages", "個段落"),
    "work.samples.pairs": _m("pairs", "組配對"),
    "work.basis_published": _m("published for this card", "此卡的公開數據"),
    "work.basis_derived": _m(
        "worked out from a published multi-GPU result, per GPU",
        "由公開的多 GPU 結果換算為每張 GPU",
    ),
    "work.basis_estimated": _m(
        "no figure for this card: estimated from the {card}'s published one x {ratio}, the "
        "ratio of dense FP16 peaks",
        "此卡沒有公開數據：以 {card} 的公開數據乘以密集 FP16 峰值比例 {ratio} 推估",
    ),
    "work.stack_factor": _m(
        "The published rate, {published} a second, is measured on {measured}; a team serving on "
        "{stack} gets {factor} of it ({note}), so {per_card} a second is used.",
        "公開速率每秒 {published} 是在 {measured} 上量得；以 {stack} 提供服務的團隊可得其 "
        "{factor}（{note}），因此採用每秒 {per_card}。",
    ),
    "work.stack.tensorrt": _m("TensorRT (INT8)", "TensorRT（INT8）"),
    "work.stack.pytorch": _m("PyTorch", "PyTorch"),
    "work.stack.tensorflow": _m("TensorFlow", "TensorFlow"),
    "work.host_starved": _m(
        "The card's host ({shape}) has {vcpu} vCPUs per card, which prepare about {host} "
        "{samples} a second at {per_vcpu} per vCPU ({figure}): less than the {demand} a second "
        "the cards must take, so the cards would starve. {extra} more vCPUs feed them, "
        "${usd} a month at the on-demand vCPU hour, counted in the cost.",
        "該卡的主機（{shape}）每張卡有 {vcpu} 個 vCPU，以每個 vCPU 每秒 {per_vcpu}（{figure}）"
        "計，每秒約可準備 {host} {samples}，少於這些卡每秒須處理的 {demand}，卡會因餵料不足而閒置。"
        "另加 {extra} 個 vCPU 供料，以隨需 vCPU 時價計每月 ${usd}，已計入成本。",
    ),
    "work.host_separate": _m(
        "The preprocessing server prepares the {samples} the cards take; their hosts are not "
        "counted on for it.",
        "由前處理伺服器準備這些卡所需的{samples}；不依賴卡的主機處理。",
    ),
    "work.undated": _m("undated page", "頁面未註明日期"),
    "work.serving_share": _m(
        "Real-time serving is sized at {share} of the offline rate, the share the benchmark's "
        "server scenario holds with p99 latency under its {bound} ms bound ({source}).",
        "即時服務以離線速率的 {share} 估算：此為基準測試伺服器情境在 p99 延遲低於 {bound} 毫秒"
        "上限時可維持的比例（{source}）。",
    ),
    "work.latency_unchecked": _m(
        "No latency under load is published for this model: the latency target is not checked.",
        "此模型沒有公開的負載下延遲數據：未檢查延遲目標。",
    ),
    "work.latency_missed": _m(
        "The target of {target} ms is tighter than the {bound} ms bound the published rate "
        "holds: no card is shown to meet it. A target of {bound} ms or more, or a smaller "
        "model measured at the tighter bound, would be.",
        "{target} 毫秒的目標比公開速率所維持的 {bound} 毫秒上限更嚴格：沒有任何卡被證明能達成。"
        "將目標放寬至 {bound} 毫秒以上，或改用在更嚴格上限下有實測數據的較小模型，即可達成。",
    ),
    "work.unsized": _m(
        "No published throughput of {model} ({benchmark}) on the {card}, nor a card of the same "
        "vendor to scale from: not sized.",
        "{card} 沒有 {model}（{benchmark}）的公開處理量，也沒有同廠牌的卡可據以推估：未估算。",
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
        "激活值採 SDPA／flash attention（無 seq² 項）：每層每 token {per_token} "
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
        "AdamW implementation: {impl}. Optimizer step temporary: {bytes} bytes per trainable "
        "parameter (foreach AdamW allocates one parameter-sized temporary, fused none; fused "
        "is assumed unless answered).",
        "AdamW 實作：{impl}。優化器步驟暫存：每個可訓練參數 {bytes} 位元組（foreach AdamW "
        "配置一份與參數同大小的暫存，fused 則無；未作答時假設為 fused）。",
    ),
    "assume.runtime": _m(
        "Runtime overhead {gib} GiB per device (CUDA context, cuBLAS/NCCL workspaces; "
        "an estimate).",
        "每個裝置的執行環境開銷 {gib} GiB（CUDA context、cuBLAS／NCCL 工作區，估計）。",
    ),
    "assume.reserve": _m(
        "Usable memory = device memory − max({min_gib} GiB, {fraction} of memory) kept free for "
        "allocator fragmentation (an estimate).",
        "可用記憶體 = 裝置記憶體 − max({min_gib} GiB, 記憶體的 "
        "{fraction})，保留給配置器碎片（估計）。",
    ),
    "assume.sharding": _m(
        "More than one device: ZeRO-3/FSDP shards weights, gradients and optimizer state; each "
        "device keeps its own micro-batch activations and two gathered layers.",
        "多於一個裝置時：以 ZeRO-3／FSDP 分片權重、梯度與優化器狀態；每個裝置保留自己的 "
        "micro-batch 激活值與兩層已收集的權重。",
    ),
    "assume.seq_over_max": _m(
        "sequence length {seq} exceeds the model's {max} positions (needs RoPE scaling).",
        "序列長度 {seq} 超過模型的 {max} 個位置（需要 RoPE 縮放）。",
    ),
    "assume.train_time": _m(
        "Training FLOPs = {factor}·N·D + attention (PaLM 12·L·h·s): {flops} FLOPs over {tokens} "
        "tokens; hours = FLOPs ÷ (devices × peak × MFU). The MFU follows the run's regime (card, "
        "{micro} tokens per micro-step, sequence length, parallelism), fitted on published runs "
        "(LLM Foundry, torchtitan, NeMo, Qwen, Llama 3.1); each option states its own. "
        "Checkpointing recomputation is inside published MFU, so it is not counted again.",
        "訓練 FLOPs = {factor}·N·D + 注意力項（PaLM 12·L·h·s）：{tokens} 個 token 共 {flops} "
        "FLOPs；時數 = FLOPs ÷（裝置數 × 峰值 × MFU）。MFU 依訓練情境而定（加速卡、每個微批次 "
        "{micro} 個 token、序列長度、平行方式），以公開的訓練數據擬合（LLM Foundry、torchtitan、"
        "NeMo、Qwen、Llama 3.1）；各選項列出自己的 MFU。梯度檢查點的重算已包含在公開的 MFU 中，"
        "不再重複計算。",
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
        "Serving stack: {serving}, which prefills every sequence's prompt at once as Hugging "
        "Face generate() does: workspace for {tokens} tokens (capped at {chunk}), plus fp32 "
        "logits for each sequence's last token.",
        "推論服務框架：{serving}；與 Hugging Face generate() 相同，一次預填所有序列的提示："
        "工作區容納 {tokens} 個 token（上限 {chunk}），另加每個序列最後一個 token 的 fp32 "
        "logits。",
    ),
    "assume.prefill_chunked": _m(
        "Serving stack: {serving}, which prefills in chunks (chunked prefill): workspace for "
        "{tokens} tokens per step, at most {chunk} (the largest of vLLM's default token "
        "limits per step), plus fp32 logits for each sequence's last token.",
        "推論服務框架：{serving}；以分塊方式預填（chunked prefill）：每一步的工作區容納 "
        "{tokens} 個 token，最多 {chunk} 個（vLLM 預設每步 token 上限中的最大值），另加每個"
        "序列最後一個 token 的 fp32 logits。",
    ),
    "assume.serving": _m(
        "Decode speed = min(bandwidth bound × {mbu}, compute bound × {mfu}); "
        "tensor parallel beyond the KV-head count replicates the cache.",
        "解碼速度 = min(頻寬上限 × {mbu}, 運算上限 × {mfu})；張量平行超過 KV 頭數時快取需複製。",
    ),
    "assume.vllm": _m(
        "Figures are what the model needs; engines such as vLLM pre-allocate a fixed share of "
        "memory regardless.",
        "數字為模型實際所需；vLLM 等引擎會不論需求預先配置固定比例的記憶體。",
    ),
    # --- server
    "server.ram": _m(
        "RAM ≥ {ratio}× the accelerator memory ({figure}, under Figures used).",
        "RAM ≥ 加速器記憶體的 {ratio} 倍（見「使用的數據」：{figure}）。",
    ),
    "server.cpu": _m("{per} vCPU per device ({source}).", "每個裝置 {per} 個 vCPU（{source}）。"),
    "server.cpu_training": _m(
        "{per} vCPU per device for data loading ({figure}, under Figures used).",
        "每個裝置 {per} 個 vCPU 用於資料載入（見「使用的數據」：{figure}）。",
    ),
    "server.cpu_serving": _m(
        "{per} vCPU per device for tokenisation and the HTTP front end ({figure}, under Figures "
        "used).",
        "每個裝置 {per} 個 vCPU 用於斷詞與 HTTP 前端（見「使用的數據」：{figure}）。",
    ),
    "server.ram_serving": _m(
        "RAM for the model, not the GPUs: {ratio}× the {weights} GiB of weights, at least "
        "{min} GiB (an estimate).",
        "RAM 依模型而非 GPU 配置：權重 {weights} GiB 的 {ratio} 倍，至少 {min} GiB（估計）。",
    ),
    "server.read": _m(
        "Storage must stream about {mbps} MB/s of training data to the node (an estimate).",
        "儲存需向節點持續提供約 {mbps} MB/s 的訓練資料（估計）。",
    ),
    "server.preprocessing": _m(
        "Preprocessing: {tokens} tokens a day at {rate} tokens per vCPU-second within {hours} h "
        "({figure}, under Figures used).",
        "前處理：每日 {tokens} 個 token，每 vCPU 每秒 {rate} 個 token，"
        "於 {hours} 小時內完成（見「使用的數據」：{figure}）。",
    ),
    "server.preprocessing_work": _m(
        "Preprocessing: {per_day} {samples} a day at {rate} per vCPU-second ({figure}, under "
        "Figures used) within {hours} h: {vcpu} vCPUs.",
        "前處理：每天 {per_day} {samples}，每個 vCPU 每秒 {rate}（見「使用的數據」：{figure}），"
        "於 {hours} 小時內完成：{vcpu} 個 vCPU。",
    ),
    "server.preprocessing_priced": _m(
        "This CPU server ({vcpu} vCPU, on demand, released between runs) costs about ${usd} a "
        "month: {hours} hours at ${rate} per vCPU-hour ({figure}, under Figures used). It is "
        "not in the monthly total above, which counts the accelerators.",
        "此 CPU 伺服器（{vcpu} vCPU，隨需計費，兩次執行之間釋放）每月約 ${usd}：{hours} 小時，"
        "每 vCPU 每小時 ${rate}（見「使用的數據」：{figure}）。此金額不含在上方以加速器計算的"
        "每月合計之內。",
    ),
    "server.preprocessing_dedicated": _m(
        "This CPU work runs on {servers} dedicated CPU server(s) of {per} vCPU ({vcpu} vCPU "
        "needed), rented by the month at about ${month} each ({figure}, a Los Angeles price of "
        "low confidence, under Figures used): about ${usd} a month. It is not in the monthly "
        "total above, which counts the accelerators.",
        "此 CPU 工作在 {servers} 台各 {per} vCPU 的專屬 CPU 伺服器上執行（需要 {vcpu} vCPU），"
        "按月租用，每台每月約 ${month}（見「使用的數據」：{figure}，洛杉磯價格，可信度低）："
        "每月約 ${usd}。此金額不含在上方以加速器計算的每月合計之內。",
    ),
    "server.nvme": _m(
        "NVMe for dataset, {ckpt} checkpoints and the model, at least {per} TB per device "
        "({figure}, under Figures used).",
        "NVMe 容納資料集、{ckpt} 個檢查點與模型，每個裝置至少 {per} TB"
        "（見「使用的數據」：{figure}）。",
    ),
    "server.network_multi": _m(
        "Multi-node: {gbps} Gb/s per device between nodes (an estimate).",
        "多節點：節點間每個裝置 {gbps} Gb/s（估計）。",
    ),
    "server.network_single": _m(
        "Single node: {gbps} Gb/s front-end network (an estimate).",
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
    # The pilot that proves the plan.
    "pilot.summary.one": _m(
        "Before buying, rent the first option for a few hours and run this benchmark: each "
        "measured figure must clear its pass line (the plan's figure with a {safety} safety "
        "share, or the latency target); a figure on the wrong side of its line means the plan "
        "must be re-sized.",
        "採購前，先短期租用第一個方案數小時並執行以下基準測試：每項實測數字都必須通過其合格線"
        "（規劃數字保留 {safety} 安全餘裕，或延遲目標本身）；"
        "任何一項未達合格線，即表示規劃需要重新估算。",
    ),
    "pilot.summary.two": _m(
        "The runner-up's cost to result is within {tolerance} of the first option's, so pilot "
        "both the same way and keep the one that clears its pass lines at the lower cost; each "
        "line is the plan's figure with a {safety} safety share, or the latency target.",
        "次佳方案的每單位成果成本與第一個方案相差不到 {tolerance}，請以相同方式試行兩者，"
        "保留通過合格線且成本較低者；每條合格線為規劃數字保留 {safety} 安全餘裕，或延遲目標本身。",
    ),
    "pilot.hours.serving": _m(
        "About 4 hours (estimate): set-up and model download, loading and warm-up, then three "
        "concurrency levels.",
        "約 4 小時（估計）：環境建置與下載模型、載入與暖機，再測三種並行數。",
    ),
    "pilot.hours.training": _m(
        "About 2 hours (estimate): set-up and loading, then a short run of {steps} steps "
        "(about one hour at the plan's throughput).",
        "約 2 小時（估計）：環境建置與載入，再以規劃的吞吐量短跑 {steps} 步（約一小時）。",
    ),
    "pilot.basis.at_least": _m(
        "At least the plan's figure less {safety}.",
        "不低於規劃數字減 {safety}。",
    ),
    "pilot.basis.at_most": _m(
        "At most the plan's figure plus {safety}.",
        "不高於規劃數字加 {safety}。",
    ),
    "pilot.basis.latency_target": _m(
        "At most the latency target ({target} ms).",
        "不高於延遲目標（{target} 毫秒）。",
    ),
    "pilot.basis.at_most_on_server": _m(
        "At most the plan's figure plus {safety}, on the server: the plan's {rtt} ms of "
        "network time to the users is not in what the benchmark measures, and is checked apart.",
        "不高於規劃數字加 {safety}，於伺服器上量測：規劃中到使用者的 {rtt} 毫秒網路時間不在"
        "基準測試量到的範圍內，另行檢查。",
    ),
    "pilot.basis.latency_target_on_server": _m(
        "At most the latency target ({target} ms) less the plan's {rtt} ms of network time to "
        "the users, which the benchmark on the server never sees.",
        "不高於延遲目標（{target} 毫秒）減去規劃中到使用者的 {rtt} 毫秒網路時間（伺服器上的"
        "基準測試看不到這段時間）。",
    ),
    "pilot.basis.round_trip": _m(
        "Measured apart, from where the users are (for example ping or mtr from a user's city "
        "to the server at the evening peak): at most what the plan counted for the round trip "
        "and lost packets.",
        "另行從使用者所在地量測（例如晚間尖峰時在使用者所在城市以 ping 或 mtr 量到伺服器）："
        "不高於規劃為往返時間與封包遺失計入的時間。",
    ),
    "pilot.figure.network_round_trip_ms": _m(
        "Network time to the users (measured apart)", "到使用者的網路時間（另行量測）"
    ),
    "pilot.figure.tokens_per_second_per_replica": _m(
        "Output tokens per second per replica", "每個副本每秒輸出 token 數"
    ),
    "pilot.figure.ttft_ms": _m("Time to first token", "首個 token 時間"),
    "pilot.figure.tpot_ms": _m("Time per output token", "每個輸出 token 時間"),
    "pilot.figure.latency.whole_response": _m(
        "p95 latency of a whole response", "完整回應的 p95 延遲"
    ),
    "pilot.figure.latency.ttft": _m(
        "p95 time to first token (target)", "p95 首個 token 時間（目標）"
    ),
    "pilot.figure.latency.tpot": _m(
        "p95 time per output token (target)", "p95 每個輸出 token 時間（目標）"
    ),
    "pilot.figure.tokens_per_second_per_device": _m(
        "Training tokens per second per device", "每個裝置每秒訓練 token 數"
    ),
    "pilot.figure.peak_memory_gib_per_device": _m("Peak memory per device", "每個裝置的記憶體峰值"),
    "cost.no_option": _m(
        "No priced option for {kind} on {accelerator} in {mode}.",
        "{kind} 在{mode}使用 {accelerator} 沒有具價格的選項。",
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
    # --- the wizard's preview, field words in problems, staff by region
    "preview.memory_assumed": _m(
        "Memory assumes typical settings (full training in BF16 mixed precision, serving in BF16 "
        "with 4,096 tokens of context) until the training and inference steps are answered.",
        "在回答訓練與推論步驟之前，記憶體以常見設定估算（BF16 混合精度完整訓練；以 BF16 推論、"
        "上下文 4,096 個 token）。",
    ),
    "cost.staff_us_wage": _m(
        "No sourced wage was found for operations staff in {region}: the staff cost uses the US "
        "figure.",
        "找不到{region}維運人員薪資的公開來源：人力成本採用美國的數字。",
    ),
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
    "summary.headline_dead_end": _m(
        "No option meets all your answers yet: each workload below names the answers that rule "
        "its options out and the smallest changes that bring them back.",
        "目前沒有方案能符合您的所有答案：以下每個工作負載都列出排除其方案的答案，以及能恢復方案的"
        "最小調整。",
    ),
    "summary.option_cost_missing": _m(
        "no sourced price in this mode: ask for a quote", "此部署模式下沒有有來源的價格：請索取報價"
    ),
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
    # --- Rules stated in the result
    "rule.stack_runs_as_is": _m(
        "Every option is checked against the team's frameworks, serving stack and custom CUDA "
        "kernels (catalog compatibility, with sources): runnable options first, cards that need "
        "porting after them with what porting means, unsupported cards excluded with the reason.",
        "每個方案都依團隊的框架、服務堆疊與自訂 CUDA 核心檢查相容性（目錄資料，附來源）：可直接執行"
        "的方案優先，需移植的卡片列於其後並說明移植內容，不支援的卡片排除並說明原因。",
    ),
    "rule.rank_by_cost_to_result": _m(
        "Options that meet their target (deadline, schedule or latency, each with its margin "
        "stated; under a 10% margin is a risk) rank before those that miss it, which are marked "
        "as missing; then by the cost to the result (per training run, per million tokens for "
        "batch work, per month for always-on serving); an unpriced option never outranks a "
        "priced one. Priced in your region and a firm price (dated, not estimated, against "
        "undated, estimated or 'from' prices) only break ties between costs within 25% of each "
        "other, never above an option several times cheaper; an option no better than another "
        "on cost, time, region, price firmness and devices is left out and counted; "
        "ties: fewer devices, fewer hours, a fresh price, catalog order - never the card's name. "
        "Owned hardware (private cloud, on premises) is priced by its total cost of ownership - "
        "purchase over the term, electricity, colocation, support and staff - and ranks like "
        "any priced option. Unpriced options (a card with no sourced price) rank by the "
        "smallest hardware that meets the target: least memory (nominal GB) × count, then least "
        "compute × count, then fewer hours, then catalog order - never the fastest card by "
        "default.",
        "達到目標（期限、排程或延遲，各列出餘裕；餘裕不足 10% 視為風險）的方案排在未達標方案之前，"
        "未達標者另行標示；其次依達成結果的成本排序（每次訓練、批次工作每百萬 token、"
        "常駐服務每月）；"
        "未定價的方案永不排在已定價方案之前。在您所在區域定價與確定價格（有日期、非估計，相對於"
        "無日期、估計或「起價」的參考價格）僅在成本相差 25% 以內時作為平手判斷，絕不排在便宜數倍的"
        "方案之前；在成本、時間、區域、價格確定性與裝置數量上都不優於另一方案者會被略去並計數；"
        "平手時依裝置較少、時數較短、價格較新、目錄順序決定，絕不依卡片名稱。"
        "未定價的方案（沒有具來源價格的卡片）依能達成目標的最小硬體排序："
        "記憶體（標稱 GB）× 數量最少，其次運算量 × 數量最少，再其次時數最短，最後依目錄順序——"
        "預設絕不選最快的卡片。自有硬體（私有雲、地端）以總持有成本計價——購置分攤、電力、"
        "機房託管、維護支援與人力——並與其他已定價方案一同排序。",
    ),
    "rule.time_to_result": _m(
        "Each training run has a target: the deadline, else its schedule (daily 24 h, weekly "
        "168 h), else 30 days; the device count grows over valid counts until the target is met, "
        "or the option says it cannot be met. Hours = model FLOPs (6·N·D + attention) ÷ published "
        "MFU.",
        "每次訓練都有目標：截止時間，否則依排程（每日 24 小時、每週 168 小時），否則 30 天；裝置數"
        "依有效數量遞增直到達標，否則標示無法達成。"
        "時數 = 模型 FLOPs（6·N·D + 注意力項）÷ 公開 MFU。",
    ),
    "rule.billing_follows_utilisation": _m(
        "Each option's utilisation comes from its workload (run hours × runs, serving hours); a "
        "commitment or monthly price is used only when that utilisation clears its break-even; "
        "the headline billing is the billing of the shown price.",
        "每個方案的使用率依其工作負載計算（單次時數 × 次數、服務時數）；只有使用率超過損益平衡點時"
        "才採用承諾或月付價格；標題的計費方式即所顯示價格的計費方式。",
    ),
    "rule.optimizer_implementation": _m(
        "Optimizer memory follows the AdamW implementation answered (fused by default: no step "
        "scratch; foreach: one parameter-sized temporary).",
        "優化器記憶體依所答的 AdamW 實作計算"
        "（預設 fused：步驟無暫存；foreach：一份與參數同大小的暫存）。",
    ),
    "rule.serving_at_required_load": _m(
        "Serving is sized for the required load: replicas share the concurrency (each bounded by "
        "memory and the latency target), real-time services run all month, tensor parallelism "
        "pays its communication cost; the latency metric is stated.",
        "服務依所需負載規劃：各副本分擔並行量（各受記憶體與延遲目標限制），即時服務整月運行，張量"
        "平行計入通訊成本；並說明延遲指標。",
    ),
    "rule.available_where_customer_is": _m(
        "Each card is checked against where it is actually offered (cloud region or host "
        "location); with data residency unavailable cards are excluded, otherwise they rank below "
        "available ones and cross-region serving adds the round trip to latency.",
        "每張卡片都依實際供應地點（雲端區域或主機所在地）檢查；有資料落地要求時排除無法供應者，"
        "否則排在可供應者之後，跨區服務的延遲另加往返時間。",
    ),
    "rule.mode_weighs_cost": _m(
        "The deployment mode is chosen from the scores and the cost of the best runnable option "
        "in each allowed mode.",
        "部署模式依評分與各允許模式中最佳可執行方案的成本決定。",
    ),
    "rule.server_sized_for_workload": _m(
        "Host CPU, RAM, NVMe and network follow the workload (data loading for training, model "
        "size for serving hosts).",
        "主機 CPU、記憶體、NVMe 與網路依工作負載配置（訓練看資料載入，服務主機看模型大小）。",
    ),
    "rule.confidence_covers_recommendation": _m(
        "Confidence is the lowest of the family, deployment mode and card confidences.",
        "信心度取加速器類型、部署模式與卡片三者信心度的最低值。",
    ),
    "rule.real_levers": _m(
        "'Would change if' lists only answer changes that give a different recommendation.",
        "「以下變更會改變建議」只列出會產生不同建議的答案變更。",
    ),
    # --- options: stack, availability
    "option.unsupported_stack": _m(
        "does not run {items} (unsupported on this card)",
        "無法執行 {items}（此卡片不支援）",
    ),
    "option.not_in_region": _m(
        "not offered in {regions}, and data must stay in region",
        "{regions} 未供應此卡片，且資料必須留在區域內",
    ),
    "stack_item.frameworks": _m("the {value} framework", "{value} 框架"),
    "stack_item.serving": _m("the {value} serving stack", "{value} 服務堆疊"),
    "stack_item.custom_cuda_kernels": _m("the team's custom CUDA kernels", "團隊的自訂 CUDA 核心"),
    # A card's own checks in a dead end's list (engine/planning/relax/): its numeric formats and
    # the architectures the team's kernels are built for.
    "stack_item.precision": _m("{value} arithmetic", "{value} 運算"),
    "stack_item.kernel_architectures": _m(
        "the team's custom CUDA kernels as they are built", "團隊目前所編譯的自訂 CUDA 核心"
    ),
    "stack_item.serving_format": _m(
        "{value} serving with your serving stack", "以您的推論服務框架進行的 {value} 服務"
    ),
    "porting.hipify": _m(
        "port the custom CUDA kernels to HIP (HIPIFY) and re-validate them on ROCm",
        "將自訂 CUDA 核心移植為 HIP（HIPIFY）並在 ROCm 上重新驗證",
    ),
    "porting.pallas": _m(
        "rewrite the custom CUDA kernels in Pallas/XLA for TPU",
        "以 Pallas／XLA 為 TPU 重寫自訂 CUDA 核心",
    ),
    "porting.rocm_build": _m(
        "move to the ROCm build of the framework and re-test",
        "改用該框架的 ROCm 版本並重新測試",
    ),
    "porting.xla": _m(
        "move the model to JAX or PyTorch/XLA (this TPU does not document the framework) and "
        "re-test",
        "將模型移至 JAX 或 PyTorch/XLA（此 TPU 未記載支援該框架）並重新測試",
    ),
    "porting.switch_serving": _m(
        "move serving to a stack this card runs (e.g. vLLM) and re-test latency",
        "將服務移至此卡片可執行的堆疊（例如 vLLM）並重新測試延遲",
    ),
    "porting.trtllm_untested": _m(
        "TensorRT-LLM is not developed or tested on this architecture: use an older release or "
        "move serving to vLLM",
        "TensorRT-LLM 未在此架構上開發或測試：改用較舊版本或將服務移至 vLLM",
    ),
    "porting.verify": _m(
        "the catalog has no compatibility data for this card: verify the stack first",
        "目錄中沒有此卡片的相容性資料：請先驗證技術堆疊",
    ),
    # --- Numeric formats and kernel architectures a card runs
    "porting.fp16_training": _m(
        "no bf16 on this card: re-planned in fp16 mixed precision at its fp16 peak. Switch the "
        "autocast dtype to float16 and add dynamic loss scaling (GradScaler); fp16 has 5 "
        "exponent bits against bf16's 8, so gradients underflow without it and activations may "
        "overflow: check the loss curve before relying on it",
        "此卡片不支援 bf16：改以 fp16 混合精度規劃，按其 fp16 峰值計算。須將 autocast 型別改為 "
        "float16 並加入動態損失縮放（GradScaler）；fp16 只有 5 個指數位元（bf16 為 8 個），"
        "沒有損失縮放梯度會下溢、激活值可能溢位：上線前請先確認損失曲線",
    ),
    "porting.fp16_serving": _m(
        "no bf16 on this card: served in fp16 (--dtype half) at its fp16 peak; a bf16-trained "
        "model can overflow fp16's range (inf/NaN outputs), so validate its outputs first",
        "此卡片不支援 bf16：改以 fp16（--dtype half）服務，按其 fp16 峰值計算；以 bf16 訓練的模型"
        "可能超出 fp16 的數值範圍（輸出 inf／NaN），請先驗證輸出",
    ),
    "porting.kernel_rebuild": _m(
        "rebuild the custom CUDA kernels for {card} (they are built for {targets}; add {card} to "
        "TORCH_CUDA_ARCH_LIST / -gencode) and re-test and re-tune them on this card",
        "須為 {card} 重新編譯自訂 CUDA 核心（目前為 {targets} 編譯；將 {card} 加入 "
        "TORCH_CUDA_ARCH_LIST／-gencode），並在此卡片上重新測試與調校",
    ),
    "card_cannot.no_bf16_pure": _m(
        "no bf16 on this card, and pure bf16 training (no fp32 master weights) has no fp16 "
        "equivalent: updates vanish below fp16's resolution",
        "此卡片不支援 bf16，而純 bf16 訓練（無 fp32 主權重）沒有對應的 fp16 作法："
        "參數更新會低於 fp16 的解析度而消失",
    ),
    "card_cannot.no_16bit": _m(
        "this card has neither bf16 nor fp16 arithmetic", "此卡片既無 bf16 也無 fp16 運算"
    ),
    "card_cannot.no_fp8": _m(
        "no fp8 units on this card: fp8 serving needs Ada, Hopper, Blackwell or MI300-class "
        "cards (answer int8 or bf16 to size it on this one)",
        "此卡片沒有 fp8 運算單元：fp8 服務需要 Ada、Hopper、Blackwell 或 MI300 級卡片"
        "（若要在此卡片上估算，請改答 int8 或 bf16）",
    ),
    "card_cannot.no_int8": _m("no int8 serving path on this card", "此卡片沒有 int8 服務路徑"),
    "card_cannot.no_int4": _m(
        "no int4 (AWQ/GPTQ) serving path on this card", "此卡片沒有 int4（AWQ／GPTQ）服務路徑"
    ),
    "card_cannot.stack_format": _m(
        "{stack} does not serve {format} on this card (its back end for the card has no "
        "quantised path yet; answer bf16 to size it on this one)",
        "{stack} 在此卡片上無法以 {format} 服務（其此卡片後端尚無量化路徑；"
        "若要在此卡片上估算，請改答 bf16）",
    ),
    "card_cannot.kernel_too_new": _m(
        "the custom CUDA kernels are built for {targets}, newer than this card ({card}): it "
        "lacks their instructions",
        "自訂 CUDA 核心為 {targets} 編譯，比此卡片（{card}）新：此卡片缺少其所需指令",
    ),
    "porting.generic": _m(
        "port and re-test the stack on this card", "在此卡片上移植並重新測試技術堆疊"
    ),
    # The billing reasons name the way of paying in words ("Paid by the
    # hour", "A fixed monthly price"), never a raw label ("on-demand: …", "monthly fixed: …").
    "billing.on_demand_as_asked": _m(
        "Paid by the hour, as you asked: {kind} keeps its devices busy {utilisation} of the "
        "month, enough for a commitment or a monthly price to cost less; if paying by the hour "
        "is not a must, a commitment would save money.",
        "依您的要求按小時付費：{kind}的裝置每月使用率為 {utilisation}，已足以讓承諾用量或月付價格"
        "更便宜；若不一定要按小時付費，承諾用量可以省錢。",
    ),
    "billing.on_demand_unpredictable": _m(
        "Paid by the hour: {kind} keeps its devices busy {utilisation} of the month, enough for "
        "a commitment or a monthly price to cost less if it stays so, but your demand is "
        "unpredictable and a commitment is paid whether used or not.",
        "按小時付費：{kind}的裝置每月使用率為 {utilisation}，"
        "若維持如此，承諾用量或月付價格會更便宜；但您的需求難以預測，而承諾用量無論是否使用都要付費。",
    ),
    "billing.follows_utilisation": _m(
        "Paid by the hour: {kind} keeps its devices busy {utilisation} of the month, too little "
        "for any commitment or monthly price to cost less than paying for the hours it uses.",
        "按小時付費：{kind}的裝置每月使用率為 {utilisation}，使用率太低，任何承諾用量或月付價格"
        "都不會比按實際使用時數付費便宜。",
    ),
    "mode.switched_unpriced": _m(
        "{kind}: the scores prefer {preferred}, but no runnable option there is priced and "
        "offered where you are; {alternative} is, at ${cost} {per}.",
        "{kind}：評分偏好{preferred}，但該模式沒有在您所在地供應且已定價的可執行方案；"
        "{alternative}則有，每{per} ${cost}。",
    ),
    "mode.switched_target": _m(
        "{kind}: the scores prefer {preferred}, but no option there meets your target; "
        "{alternative} does, at ${cost} {per}.",
        "{kind}：評分偏好{preferred}，但該模式沒有達到您目標的方案；{alternative}則可達到，"
        "每{per} ${cost}。",
    ),
    "mode.switched_cheaper": _m(
        "{kind}: the scores prefer {preferred}, but {alternative} reaches the same result for "
        "${gap} less {per} (${cost}).",
        "{kind}：評分偏好{preferred}，但{alternative}達成相同結果每{per}便宜 ${gap}（${cost}）。",
    ),
    "mode.owned_unpriced": _m(
        "{kind}: {preferred} is bought, and no card that fits has a sourced purchase price; the "
        "priced alternative is {alternative} at ${cost} {per}.",
        "{kind}：{preferred}需自行購置，合用的卡片都沒有具來源的購置價格；已定價的替代方案為"
        "{alternative}，每{per} ${cost}。",
    ),
    "option.unpriced_first": _m(
        "{kind}: no option is priced for {mode} ({why}), so options are ranked by the smallest "
        "hardware that meets the target (least memory × count, then least compute, then fewer "
        "hours), not by cost: {count} × {card}, {memory} GB in all.",
        "{kind}：{mode}中沒有已定價的方案（{why}），因此方案不依成本排序，而依能達成目標的最小硬體"
        "排序（記憶體 × 數量最少，其次運算量最少，再其次時數最短）："
        "{count} 張 {card}，共 {memory} GB。",
    ),
    "option.unpriced.no_purchase_price": _m(
        "owned hardware: no sourced purchase price for these cards",
        "自有硬體：這些卡片沒有具來源的購置價格",
    ),
    "option.unpriced.no_price_in_mode": _m(
        "the catalog has no price for these cards in this mode",
        "目錄中沒有這些卡片在此部署方式的價格",
    ),
    "option.tco": _m(
        "{kind}: owned {count} × {card} in {servers} server(s), priced as a total cost of "
        "ownership: purchase ${capex} ({count} × ${card_usd} a card, {servers} × ${server_usd} a "
        "server) over {months} months ({term}) = ${hardware} a month; electricity {kw} kW × PUE "
        "{pue} × ${kwh}/kWh = ${power} a month; colocation {kw} kW × ${colo_rate}/kW-month = "
        "${colo} a month ({region}); support ${support} a month; staff ${staff} a month. Total "
        "${total} a month.",
        "{kind}：自有 {count} 張 {card}，共 {servers} 台伺服器，以總持有成本計價：購置 ${capex}"
        "（{count} × 每張 ${card_usd}，{servers} × 每台伺服器 ${server_usd}），分 {months} 個月"
        "攤提（{term}）＝每月 ${hardware}；電力 {kw} kW × PUE {pue} × 每度 ${kwh} ＝每月 ${power}；"
        "機房託管 {kw} kW × 每 kW 每月 ${colo_rate} ＝每月 ${colo}（{region}）；維護支援每月 "
        "${support}；人力每月 ${staff}。合計每月 ${total}。",
    ),
    "option.tco.term_answer": _m("your answer", "依您的回答"),
    "option.tco.term_default": _m("the default term", "預設攤提期"),
    "option.tco.stand_in": _m(
        "no electricity or colocation price is sourced for your regions, so {region}'s (the "
        "dearest sourced) stands in",
        "您所在區域沒有具來源的電價或機房託管價，因此以 {region}（已知最貴者）代替",
    ),
    "option.tco.break_even": _m(
        "Against renting the same cards at the cheapest sourced rental (${rent} a month, "
        "{provider}, {region}, as of {as_of}), owning pays back in month {month}{after}; staff "
        "are left out of both sides.",
        "相較以目錄中最便宜的租用價格租用相同卡片（每月 ${rent}，{provider}，{region}，資料日期 "
        "{as_of}），自有硬體於第 {month} 個月回本{after}；兩邊皆不計人力。",
    ),
    "option.tco.after_term": _m(
        ", after the {months}-month term: renting is cheaper over the term",
        "，晚於 {months} 個月的攤提期：在攤提期內租用較便宜",
    ),
    "option.tco.never": _m(
        "Renting the same cards at the cheapest sourced rental (${rent} a month, {provider}, "
        "{region}) costs no more than running them owned (electricity, colocation and support), "
        "so owning never pays back its purchase.",
        "以目錄中最便宜的租用價格租用相同卡片（每月 ${rent}，{provider}，{region}）不高於自有的"
        "運轉成本（電力、機房託管與維護支援），因此自有硬體永遠無法回收購置成本。",
    ),
    "option.tco.no_rental": _m(
        "No rental of {card} is sourced, so no break-even month is given.",
        "目錄中沒有 {card} 的租用價格，因此不提供回本月份。",
    ),
    "option.tco.over_capex": _m(
        "{kind}: the purchase, ${capex}, is over your hardware budget of ${budget}.",
        "{kind}：購置費用 ${capex} 超出您的硬體預算 ${budget}。",
    ),
    "option.tco.within_capex": _m(
        "{kind}: the purchase, ${capex}, is within your hardware budget of ${budget}.",
        "{kind}：購置費用 ${capex} 在您的硬體預算 ${budget} 之內。",
    ),
    "option.undated": _m("undated", "未註明日期"),
    "option.priced_elsewhere": _m(
        "{kind}: the price of {card} is read from {region} ({provider}), outside your region "
        "group ({regions}); {offered} A price where you are may differ: check it before quoting.",
        "{kind}：{card} 的價格取自 {region}（{provider}），不在您所在的區域群組（{regions}）內；"
        "{offered}您所在地的價格可能不同，報價前請先確認。",
    ),
    "option.priced_nearby_not_here": _m(
        "{kind}: {card} is not offered where you are ({regions}); its price is read from "
        "{region} ({provider}), nearby in your region group, where the work would run.",
        "{kind}：{card} 在您所在地（{regions}）沒有供應；其價格取自同一區域群組內鄰近的 {region}"
        "（{provider}），工作將在該地執行。",
    ),
    "china.covered": _m(
        "{kind}: about {needed} Mbps to mainland China ({basis}); the {provider} server(s) include "
        "{included} Mbps of {route}, which covers it.",
        "{kind}：連往中國大陸約需 {needed} Mbps（{basis}）；{provider} 的伺服器已含 "
        "{included} Mbps {route}，足以涵蓋。",
    ),
    "china.priced": _m(
        "{kind}: about {needed} Mbps to mainland China ({basis}); the {provider} server(s) include "
        "{included} Mbps of {route}, and the {extra} Mbps more cost ${per_mbps} per Mbps-month "
        "({provider}, {as_of}): ${usd} a month, in the total.",
        "{kind}：連往中國大陸約需 {needed} Mbps（{basis}）；{provider} 的伺服器已含 "
        "{included} Mbps {route}，另需的 {extra} Mbps 每 Mbps 每月 ${per_mbps}"
        "（{provider}，{as_of}）：每月 ${usd}，已計入總額。",
    ),
    "china.not_priced": _m(
        "{kind}: about {needed} Mbps to mainland China ({basis}); the {provider} server(s) include "
        "{included} Mbps of {route} and the offer has no price for the {extra} Mbps more: ask the "
        "provider for a CN2 GIA/CMI price per Mbps-month. The cost shown leaves it out.",
        "{kind}：連往中國大陸約需 {needed} Mbps（{basis}）；{provider} 的伺服器已含 "
        "{included} Mbps {route}，但方案未列出另需 {extra} Mbps 的價格："
        "請向供應商索取 CN2 GIA／CMI 每 Mbps 每月的報價。所示成本未含此項。",
    ),
    "china.no_route": _m(
        "{kind}: about {needed} Mbps to mainland China ({basis}), and the {provider} offer has no "
        "premium China route (CN2 GIA/CMI): ask the provider for a CN2 GIA/CMI price per "
        "Mbps-month. The cost shown leaves it out.",
        "{kind}：連往中國大陸約需 {needed} Mbps（{basis}），而 {provider} 的方案沒有中國大陸"
        "優質線路（CN2 GIA／CMI）：請向供應商索取 CN2 GIA／CMI 每 Mbps 每月的報價。"
        "所示成本未含此項。",
    ),
    "china.basis.peak": _m("at peak", "尖峰時"),
    "china.basis.daily_mean": _m("results shipped over the day", "結果於一天內分送"),
    "china.basis.run_rate": _m("while the batch runs", "批次執行期間"),
    "china.egress_china_rate": _m(
        "{kind}: {provider} publishes an egress price to China (${rate}/GB), used for the "
        "service's traffic.",
        "{kind}：{provider} 公布了連往中國的對外流量價格（每 GB ${rate}），服務流量以此計價。",
    ),
    "china.egress_no_china_rate": _m(
        "{kind}: {provider} publishes no egress price to mainland China; its internet egress "
        "price is used for the service's traffic ({figure}, ${rate}/GB).",
        "{kind}：{provider} 未公布連往中國大陸的對外流量價格；服務流量以其網際網路對外流量價格"
        "計價（{figure}，每 GB ${rate}）。",
    ),
    "china.reach_loss": _m(
        "{kind}, for users in mainland China: the time to first token counts a {rtt} ms round "
        "trip from {region} over {route} ({figure}, {basis}) and {retransmit} ms for a packet "
        "lost at the evening peak ({loss}% loss, {loss_figure}, {loss_basis}: one retransmission "
        "timeout of the round trip plus {rto} ms at the 95th percentile), {added} ms in all; "
        "{verdict}",
        "{kind}（中國大陸用戶）：首個詞元時間計入自 {region} 經{route}的 {rtt} 毫秒往返"
        "（{figure}，{basis}），以及晚間尖峰封包遺失的 {retransmit} 毫秒（遺失率 {loss}%，"
        "{loss_figure}，{loss_basis}：第 95 百分位數計一次重傳逾時，即往返時間加 {rto} 毫秒），"
        "合計 {added} 毫秒；{verdict}",
    ),
    "china.reach_no_loss": _m(
        "{kind}, for users in mainland China: the time to first token counts a {rtt} ms round "
        "trip from {region} over {route} ({figure}, {basis}), with no loss counted at the 95th "
        "percentile ({loss_figure}, {loss_basis}); {verdict}",
        "{kind}（中國大陸用戶）：首個詞元時間計入自 {region} 經{route}的 {rtt} 毫秒往返"
        "（{figure}，{basis}），第 95 百分位數不計封包遺失（{loss_figure}，{loss_basis}）；"
        "{verdict}",
    ),
    "china.reach_route_internet": _m("the ordinary internet", "一般網際網路"),
    "china.reach_basis_estimated": _m("estimated", "估計"),
    "china.reach_basis_measured": _m("measured, {as_of}", "實測，{as_of}"),
    "china.reach_meets": _m(
        "its time to first token, {ttft} ms, meets the {target} ms target.",
        "其首個詞元時間 {ttft} 毫秒，達到 {target} 毫秒的目標。",
    ),
    "china.reach_misses": _m(
        "its time to first token, {ttft} ms, misses the {target} ms target.",
        "其首個詞元時間 {ttft} 毫秒，未達 {target} 毫秒的目標。",
    ),
    "china.reach_request_meets": _m(
        "its latency per request, {ms} ms, meets the {target} ms target.",
        "其每次請求延遲 {ms} 毫秒，達到 {target} 毫秒的目標。",
    ),
    "china.reach_request_misses": _m(
        "its latency per request, {ms} ms, misses the {target} ms target.",
        "其每次請求延遲 {ms} 毫秒，未達 {target} 毫秒的目標。",
    ),
    "china.reach_request_no_target": _m(
        "its latency per request is {ms} ms.",
        "其每次請求延遲為 {ms} 毫秒。",
    ),
    "china.reach_request_unknown": _m(
        "the benchmark it is sized from states no latency per request.",
        "其所依據的基準未列出每次請求的延遲。",
    ),
    "china.reach_no_target": _m(
        "its time to first token is {ttft} ms.",
        "其首個詞元時間為 {ttft} 毫秒。",
    ),
    "china.public_path": _m(
        "Its path to mainland users is the ordinary internet: no premium route (CN2 GIA, CMI), "
        "about {rtt} ms round trip from {region} (estimated) and about {loss}% packet loss at "
        "the evening peak (measured); a Hong Kong server on a premium route avoids both.",
        "其連往中國大陸用戶的路徑為一般網際網路：沒有優質線路（CN2 GIA、CMI），自 {region} "
        "往返約 {rtt} 毫秒（估計），晚間尖峰時段封包遺失率約 {loss}%（實測）；使用優質線路的"
        "香港伺服器可避免這兩項問題。",
    ),
    "china.icp": _m(
        "A service hosted in mainland China for mainland users needs an ICP filing (備案, or an "
        "ICP licence for commercial content) before it may serve on a domain; a foreign company "
        "files through a local entity or partner.",
        "在中國大陸託管、服務大陸用戶的服務，須先完成 ICP 備案（商業內容須取得 ICP 許可證）"
        "方可以網域提供服務；外國公司須透過本地實體或合作夥伴辦理。",
    ),
    "option.priced_in_country": _m(
        "{kind}: {card} is served by {provider} from {region}, in the same country as {regions} "
        "(data stays in the country) but not in the same city: the round trip to your users is "
        "longer than from a data centre there; check it for latency-sensitive serving.",
        "{kind}：{card} 由 {provider} 在 {region} 提供，與 {regions} 同一國家（資料留在國內），"
        "但不在同一城市：與您使用者之間的往返延遲比當地資料中心長，延遲敏感的服務請先確認。",
    ),
    "option.offered_here": _m("the card is offered where you are.", "該卡片在您所在地有供應。"),
    "option.not_here": _m("the card is not offered where you are.", "該卡片在您所在地沒有供應。"),
    "option.region_not_stated": _m("a region the source does not state", "來源未註明的區域"),
    "per.run": _m("per run", "次訓練"),
    "lever.line": _m(
        "If {field} were {value} instead of {current}, {kind} would run on {count} × {card} "
        "instead of {old_count}.",
        "若{field}為 {value} 而非 {current}，{kind}將改用 {count} 張 {card}，而非 {old_count} 張。",
    ),
    "lever.smaller_hardware": _m(
        "If {field} were {value} instead of {current}, {kind} would run on {count} × {card} "
        "({memory} GB) instead of {old_count} × {old_card} ({old_memory} GB): less hardware to "
        "buy.",
        "若{field}為 {value} 而非 {current}，{kind}將改用 {count} 張 {card}（{memory} GB），"
        "而非 {old_count} 張 {old_card}（{old_memory} GB）：需購置的硬體較少。",
    ),
    "per.month": _m("per month", "月"),
    "per.million_tokens": _m("per million tokens", "百萬 token"),
    "per.thousand_images": _m("per 1,000 images", "千張圖片"),
    "per.audio_hour": _m("per audio hour", "小時音訊"),
    "per.million_passages": _m("per million passages", "百萬段落"),
    "per.million_pairs": _m("per million pairs", "百萬配對"),
    "billing.only_on_demand": _m(
        "Paid by the hour: the offer shown has no commitment or monthly price; {kind} keeps its "
        "devices busy {utilisation} of the month.",
        "按小時付費：所顯示的方案沒有承諾用量或月付價格；{kind}的裝置每月使用率為 {utilisation}。",
    ),
    "billing.clears_break_even": _m(
        "{billing} costs less here: {kind} keeps its devices busy {utilisation} of the month, "
        "more than the {break_even} above which this price beats paying by the hour.",
        "{billing}在此較便宜：{kind}的裝置每月使用率為 {utilisation}，"
        "高於此價格比按小時付費便宜的門檻 {break_even}。",
    ),
    "billing.plan.monthly_fixed": _m("A fixed monthly price", "固定月費"),
    "billing.plan.capacity_block": _m("A capacity block", "容量區塊"),
    "billing.plan.flex_start": _m("A flex-start (queued) price", "彈性啟動（排隊）價格"),
    "billing.on_block": _m(
        "{billing}: {kind} needs more cards than the provider rents on demand, so it is priced "
        "on capacity reserved for fixed dates rather than on the on-demand rate.",
        "{billing}：{kind}需要的卡數超過供應商隨需出租的上限，因此以預留固定日期的容量計價，"
        "而非隨需費率。",
    ),
    "billing.plan.committed_1y": _m("A 1-year commitment", "一年期承諾用量"),
    "billing.plan.committed_3y": _m("A 3-year commitment", "三年期承諾用量"),
    "billing.asked.monthly_fixed": _m("a fixed monthly price", "固定月費"),
    "billing.asked.committed_1y": _m("a 1-year commitment", "一年期承諾用量"),
    "billing.asked.committed_3y": _m("a 3-year commitment", "三年期承諾用量"),
    "billing.asked.committed": _m("a commitment", "承諾用量"),
    # --- What the team asked (billing, budget, lock-in, run overhead, peaks)
    "asked.billing": _m(
        "For {kind}, {reason} It is shown at {shown} USD a month.",
        "就{kind}而言，{reason}目前顯示為每月 {shown} 美元。",
    ),
    "asked.no_price": _m(
        "you asked for {asked}, but the catalog has no such price for the offer of {card}, so it "
        "is priced at its {used} rate.",
        "您要求{asked}，但目錄中 {card} 的方案沒有這種價格，因此以其{used}價格計價。",
    ),
    "asked.fixed_cheaper": _m(
        "you asked for {asked}; {card} is priced {used} instead, which costs less than its {slot} "
        "price ({cost} USD a month) and binds you for a shorter term.",
        "您要求{asked}；{card} 改以{used}計價，比其{slot}價格（每月 {cost} 美元）便宜，"
        "且綁約期較短。",
    ),
    "asked.unpredictable": _m(
        "you asked for {asked}; with unpredictable demand {card} is priced {used}: its {slot} "
        "price would cost {cost} USD a month, paid whether it is used or not.",
        "您要求{asked}；由於需求難以預測，{card} 以{used}計價：其{slot}價格每月 {cost} 美元，"
        "無論是否使用都要付費。",
    ),
    "asked.below_break_even": _m(
        "you asked for {asked}; {card} is busy {utilisation} of the month, under the "
        "{break_even} break-even of its {slot} price, which would cost {cost} USD a month "
        "instead.",
        "您要求{asked}；{card} 每月使用率為 {utilisation}，低於其{slot}價格的損益平衡點 "
        "{break_even}，若改用該價格每月需 {cost} 美元。",
    ),
    "asked.never_breaks_even": _m(
        "you asked for {asked}; the {slot} price of {card} costs more than paying by the hour "
        "for every hour of the month (it would break even only at {break_even} use), so it "
        "never pays off: {cost} USD a month instead.",
        "您要求{asked}；{card} 的{slot}價格比整個月每小時按時付費還貴（使用率須達 "
        "{break_even} 才能打平），因此永遠不划算：若改用該價格每月需 {cost} 美元。",
    ),
    "asked.alternative": _m(
        "The cheapest option priced as asked is {card}, {slot} at {cost} USD a month.",
        "依您要求計價的最便宜選項是 {card}，{slot}每月 {cost} 美元。",
    ),
    "asked.over_budget": _m(
        "Compute and hosting, estimated at {cost} USD a month, are over the {budget} USD budget "
        "by {gap} USD ({share} over).",
        "運算與託管估計每月 {cost} 美元，超出 {budget} 美元的預算 {gap} 美元（超出 {share}）。",
    ),
    "asked.within_budget": _m(
        "Compute and hosting, estimated at {cost} USD a month, are within the {budget} USD budget.",
        "運算與託管估計每月 {cost} 美元，在 {budget} 美元的預算之內。",
    ),
    "asked.budget_staff": _m(
        "Your own operations staff's time, {usd} USD a month, is counted apart from it.",
        "您自己的維運人員時間每月 {usd} 美元，另行計算，不計入預算比較。",
    ),
    "asked.budget_bought_in": _m(
        "Operations bought in (a managed service or a contractor), {usd} USD a month, are "
        "counted apart from it.",
        "向外採購的維運（託管服務或外包）每月 {usd} 美元，另行計算，不計入預算比較。",
    ),
    "asked.lock_in": _m(
        "A {term} on {card} ({generation}, launched {released}) runs to {ends}, when the card "
        "will be about {age} years old; it is already {behind} generation(s) behind ({newer}). "
        "The commitment is paid even when newer cards do the same work for less: a 1-year "
        "term, on-demand, or a newer card keeps that choice open.",
        "{card}（{generation}，{released} 發表）的{term}將持續到 {ends}，屆時此卡約已 {age} "
        "年；它目前已落後 {behind} 個世代（{newer}）。即使較新的卡片能以更低成本完成相同工作，"
        "承諾費用仍須支付：一年期、隨需計費或較新的卡片能保留選擇彈性。",
    ),
    "assume.run_overhead": _m(
        "Each training run also spends {provisioning} min provisioning its fleet, {container} "
        "min starting its container (image pull) and stages its dataset and the model's weights "
        "at {bandwidth} GB/s before its first step; these are in its hours and cost.",
        "每次訓練執行在第一步之前，另需 {provisioning} 分鐘佈建叢集、{container} "
        "分鐘啟動容器（拉取映像），並以 {bandwidth} GB/s 搬移資料集與模型權重；"
        "這些時間已計入其時數與成本。",
    ),
    "assume.calibrated_serving": _m(
        "Serving throughput is calibrated on published results (MLPerf Inference Llama 2 70B "
        "offline, TensorRT-LLM and vLLM benchmarks): each decode step also costs {overhead} us "
        "per sequence; chunked-prefill stacks (vLLM, TGI, TensorRT-LLM, Triton) overlap prefill "
        "with decode; a batch job keeps up to {large} sequences in flight per replica on cards "
        "with 70 GiB or more ({other} otherwise, vLLM's default) as memory allows.",
        "推論吞吐量已依公開結果校準（MLPerf 推論基準的 Llama 2 70B 離線結果、TensorRT-LLM 與 "
        "vLLM 基準）：每個解碼步驟每個序列另需 {overhead} 微秒；分塊預填的堆疊（vLLM、TGI、"
        "TensorRT-LLM、Triton）讓預填與解碼重疊；批次工作在 70 GiB 以上的卡片上每個副本最多同時"
        "處理 {large} 個序列（其他卡片 {other} 個，vLLM 的預設值），視記憶體而定。",
    ),
    "asked.peak_autoscale": _m(
        "{kind}: sized for its peak at {peak} times the average traffic: {replicas} replicas at "
        "the peak, {base} at the average. On public cloud, autoscale between {base} and "
        "{replicas} replicas (commit to the base, rent the rest by the hour): holding the peak "
        "all month costs about {idle} USD a month more than the average needs.",
        "{kind}：依尖峰（平均流量的 {peak} 倍）配置：尖峰時 {replicas} 個副本，平均時 {base} "
        "個。在公有雲上可於 {base} 到 {replicas} 個副本之間自動擴縮（基本量承諾用量，其餘按小時"
        "租用）：整月維持尖峰容量每月約多花 {idle} 美元。",
    ),
    "asked.peak_held": _m(
        "{kind}: sized for its peak at {peak} times the average traffic: {replicas} replicas at "
        "the peak, {base} at the average. {mode} servers are not rented by the hour, so holding "
        "the peak costs about {idle} USD a month beyond what the average needs.",
        "{kind}：依尖峰（平均流量的 {peak} 倍）配置：尖峰時 {replicas} 個副本，平均時 {base} "
        "個。{mode}的伺服器無法按小時租用，因此維持尖峰容量每月比平均所需多花約 {idle} 美元。",
    ),
    "asked.spare_server": _m(
        "{kind}: +1 server for redundancy ({gpus} × {card}): a failed server still leaves "
        "capacity for peak{cost}.",
        "{kind}：多配置 1 台備援伺服器（{gpus} × {card}）：一台伺服器故障時仍有足夠容量應付尖峰"
        "{cost}。",
    ),
    "asked.spare_cost": _m("; it adds about {usd} USD a month", "；每月約多 {usd} 美元"),
    "asked.no_spare_best_effort": _m(
        "{kind}: no spare server, as you answered best effort: a failed server takes its share of "
        "the capacity away until it is replaced.",
        "{kind}：依您「盡力而為」的回答不配置備援伺服器：一台伺服器故障時，其容量在更換前即告減少。",
    ),
    "asked.no_spare_dev_test": _m(
        "{kind}: no spare server for development or test; a production service would add one "
        "server (N+1) so that a failed server still leaves capacity for peak.",
        "{kind}：開發或測試環境不配置備援伺服器；正式環境的服務會多配置 1 台（N+1），使一台伺服器"
        "故障時仍有足夠容量應付尖峰。",
    ),
    "asked.window_from": _m(" from {hour}", "（{hour} 起）"),
    "asked.window_met": _m(
        "{kind}: {card} finishes in {run} h of your {window} h window{start}, {margin} to spare "
        "(provisioning, container start and loading the weights included).",
        "{kind}：{card} 在您 {window} 小時的時段{start}內 {run} 小時完成，尚餘 {margin}（已含佈建、"
        "容器啟動與載入權重）。",
    ),
    "asked.window_at_risk": _m(
        "{kind}: {card} finishes in {run} h of your {window} h window{start}, only {margin} to "
        "spare: under the {safety} safety share, inside the estimate's own error.",
        "{kind}：{card} 在您 {window} 小時的時段{start}內 {run} 小時完成，僅餘 {margin}：低於 "
        "{safety} 的安全餘裕，落在估算本身的誤差之內。",
    ),
    "asked.window_missed_hard": _m(
        "{kind}: {card} takes {run} h a run, {over} h past your hard {window} h window{start}: "
        "a plan that overruns a hard window ranks after every plan that fits it.",
        "{kind}：{card} 每次執行需 {run} 小時，超出您 {window} 小時的硬性時段{start} {over} 小時："
        "超出硬性時段的方案排在所有能在時段內完成的方案之後。",
    ),
    "asked.window_missed_soft": _m(
        "{kind}: {card} takes {run} h a run, {over} h past your soft {window} h window{start}: "
        "flagged, since finishing late is a nuisance rather than a failure.",
        "{kind}：{card} 每次執行需 {run} 小時，超出您 {window} 小時的彈性時段{start} {over} 小時："
        "僅作提醒，因為晚些完成只是不便而非失敗。",
    ),
    "asked.run_overhead": _m(
        "{kind}: each run spends about {minutes} min before it computes (provisioning "
        "{provisioning} min, container start {container} min, staging {gb} GB of data and "
        "weights {staging} min), {share} of its hours: counted in its time and cost.",
        "{kind}：每次執行在開始運算前約需 {minutes} 分鐘（佈建 {provisioning} 分鐘、啟動容器 "
        "{container} 分鐘、搬移 {gb} GB 資料與權重 {staging} 分鐘），占執行時數的 {share}："
        "已計入其時間與成本。",
    ),
    # ---- Offers are units as sold; sharding; what can be rented.
    "exclude.pcie_multi_node_training": _m(
        "the run needs at least {count} of these cards, more than one node of {node}, and the "
        "card has no NVLink: large training is not built across PCIe-only nodes",
        "此訓練至少需要 {count} 張此卡片，超過單一節點的 {node} 張，且此卡片沒有 NVLink："
        "不在僅有 PCIe 的多個節點上進行大型訓練",
    ),
    "server.as_sold": _m(
        "Bought as {units} x {unit} ({gpus} GPU(s) each; inside a unit: {link}; between "
        "units: {network}); the figures are the unit's own, as its provider sells it.",
        "以 {units} 台 {unit} 購買（每台 {gpus} 顆 GPU；單元內：{link}；單元之間：{network}）；"
        "數值為供應商所售單元本身的規格。",
    ),
    "server.not_stated": _m(
        "The provider's source does not state: {fields}; the figure shown there is sized for "
        "the workload (ask the provider).",
        "供應商資料未列明：{fields}；該處顯示的數值依工作負載估算（請向供應商確認）。",
    ),
    "unit.field.vcpu": _m("vCPU", "vCPU"),
    "unit.field.ram_gb": _m("RAM", "記憶體"),
    "unit.field.nvme_gb": _m("local NVMe", "本機 NVMe"),
    "unit.field.network_gbps": _m("network bandwidth", "網路頻寬"),
    "unit.link.nvswitch": _m("NVLink through NVSwitch", "經 NVSwitch 的 NVLink"),
    "unit.link.nvlink": _m("NVLink", "NVLink"),
    "unit.link.pcie": _m("PCIe only", "僅 PCIe"),
    "unit.link.none": _m("one GPU", "單一 GPU"),
    "unit.network.infiniband": _m("InfiniBand", "InfiniBand"),
    "unit.network.efa": _m("AWS EFA", "AWS EFA"),
    "unit.network.roce": _m("RoCE (RDMA over Ethernet)", "RoCE（乙太網路上的 RDMA）"),
    "unit.network.gpudirect_tcpx": _m("GPUDirect-TCPX", "GPUDirect-TCPX"),
    "unit.network.ethernet": _m("Ethernet, no RDMA fabric", "乙太網路，無 RDMA 互連"),
    "unit.network.unknown": _m("not stated by the provider", "供應商未列明"),
    "option.sold_as": _m(
        "{kind}: {card} is bought as {units} x {unit} ({gpus} GPU(s) each){tp}.",
        "{kind}：{card} 以 {units} 台 {unit} 購買（每台 {gpus} 顆 GPU）{tp}。",
    ),
    "option.whole_server": _m(
        "{kind}: {card} is sold only as servers of {gpus}; the workload needs {needed}, so "
        "{servers} server(s) are bought and {idle} card(s) stand idle (${idle_usd} a month).",
        "{kind}：{card} 僅以每台 {gpus} 顆的伺服器出售；工作負載只需 {needed} 顆，因此購買 "
        "{servers} 台，{idle} 顆閒置（每月 ${idle_usd}）。",
    ),
    "option.whole_server_smaller": _m(
        "Compared with the cheapest smaller priced option: {card} x {count} at ${usd} a month.",
        "對比最便宜的較小定價選項：{card} x {count}，每月 ${usd}。",
    ),
    "option.whole_server_budget": _m(
        "At ${usd} a month of compute and hosting it is over the budget of ${budget}.",
        "運算與託管每月 ${usd}，超出 ${budget} 的預算。",
    ),
    "option.tp_inside": _m(
        "; each {tp}-way tensor-parallel group sits inside one unit",
        "；每個 {tp} 路張量平行組都在同一單元內",
    ),
    "option.no_fabric": _m(
        "{kind}: {card} trains across {units} units over {network} at {gbps:g} Gb/s: large "
        "multi-unit training needs an RDMA fabric (InfiniBand, EFA, RoCE); the network adds "
        "time (x{factor:g}) to the run.",
        "{kind}：{card} 跨 {units} 個單元，經 {network}（{gbps:g} Gb/s）訓練：大型多單元訓練需要 "
        "RDMA 互連（InfiniBand、EFA、RoCE）；網路使訓練時間增加（x{factor:g}）。",
    ),
    "option.network_time": _m(
        "{kind}: {card} spans {units} units; syncing {gb:g} GB per step over {gbps:g} Gb/s "
        "takes longer than the step's compute, so the run takes x{factor:g} the hours.",
        "{kind}：{card} 跨 {units} 個單元；每步經 {gbps:g} Gb/s 同步 {gb:g} GB，比該步運算更久，"
        "因此訓練時數為 x{factor:g}。",
    ),
    "option.beyond_on_demand": _m(
        "{kind}: {count} x {card} is more than {provider} realistically rents on demand "
        "(about {ceiling}, an estimate): it needs {needs}.",
        "{kind}：{count} 顆 {card} 超過 {provider} 實際可按需租用的數量（約 {ceiling} 顆，"
        "估計）：需要{needs}。",
    ),
    "option.needs_block": _m(
        "a capacity block ({provider}, ${usd:,.2f} per GPU-hour; {terms})",
        "容量區塊（{provider}，每 GPU 小時 ${usd:,.2f}；{terms}）",
    ),
    "option.needs_block_priced": _m(
        "a capacity block, on which the option is priced ({provider}, ${usd:,.2f} per GPU-hour; "
        "{terms})",
        "容量區塊，此方案即以其計價（{provider}，每 GPU 小時 ${usd:,.2f}；{terms}）",
    ),
    "option.needs_reservation": _m(
        "a reservation negotiated with the provider (no price in the catalog)",
        "與供應商協商的預留容量（目錄中無價格）",
    ),
    # --- Ranking on the target, its margin, and latency nothing can reach
    "rank.latency_unreachable": _m(
        "{kind}: no option meets the {metric} target of {target} ms. The best reachable is "
        "{best} ms ({card}, one sequence at a time on its fastest tensor-parallel size). More "
        "replicas serve more users at once but never make one answer faster, so none are added "
        "to chase the target: the plan is sized for your load and marked as missing it. {levers} "
        "Confidence is lowered.",
        "{kind}：沒有方案能達到 {metric} {target} 毫秒的目標。可達到的最佳值為 {best} 毫秒"
        "（{card}，在其最快的張量平行規模上一次處理一個序列）。增加副本只能同時服務更多使用者，"
        "不會讓單一回答變快，因此不會為了追趕目標而增加副本：方案依您的負載配置，並標示為未達標。"
        "{levers}信心度已調降。",
    ),
    "rank.levers.whole_response": _m(
        "To meet it: stream the answer (on the first option its first words show after {ttft} "
        "ms), ask for shorter answers ({tokens} output tokens now), or serve a quantised "
        "(FP8/INT4) or smaller model.",
        "可行做法：以串流方式輸出回答（第一個方案在 {ttft} 毫秒後即顯示最初的字），要求較短的"
        "回答（目前輸出 {tokens} 個 token），或改用量化（FP8/INT4）或較小的模型。",
    ),
    "rank.levers.tpot": _m(
        "To meet it: serve a quantised (FP8/INT4) or smaller model; a time per word this short is "
        "set by one replica's memory bandwidth, which more replicas do not add to.",
        "可行做法：改用量化（FP8/INT4）或較小的模型；這麼短的每字時間取決於單一副本的記憶體頻寬，"
        "增加副本並不會提高它。",
    ),
    "rank.levers.ttft": _m(
        "To meet it: send shorter prompts ({prompt} prompt tokens now) or serve a quantised "
        "(FP8/INT4) or smaller model.",
        "可行做法：縮短提示（目前提示 {prompt} 個 token），或改用量化（FP8/INT4）或較小的模型。",
    ),
    "family.fallback": _m(
        "{kind}: the scores prefer {preferred}, but no {preferred} option runs your stack as it "
        "is and has a price under your answers{why}, so it is planned on {family}.",
        "{kind}：評分偏好 {preferred}，但在您的答案下沒有可直接執行您的技術堆疊且已定價的 "
        "{preferred} 方案{why}，因此改以 {family} 規劃。",
    ),
    "rank.met_lower": _m(
        "{kind}: the first option, {first}, misses the target; {card} meets it but ranks lower "
        "because {why}.",
        "{kind}：第一個方案 {first} 未達目標；{card} 可達標，但因為{why}而排名較後。",
    ),
    "rank.held_back.stack": _m(
        "it does not run your stack as it is (it needs porting)",
        "它無法直接執行您目前的技術堆疊（需要移植）",
    ),
    "rank.held_back.away": _m("it is not offered in your regions", "您的區域沒有提供它"),
    "rank.held_back.unpriced": _m(
        "the catalog holds no price for it in this deployment mode",
        "目錄中沒有它在此部署模式下的價格",
    ),
    "rank.deadline_unreachable": _m(
        "{kind}: no option meets the target of {target} h; the fastest, {card} × {count}, takes "
        "{best} h. It is marked as missing; a later deadline, a smaller run or a larger "
        "reservation would meet it. Confidence is lowered.",
        "{kind}：沒有方案能達到 {target} 小時的目標；最快的 {card} × {count} 需要 {best} 小時。"
        "該方案已標示為未達標；放寬期限、縮小訓練規模或預留更多容量才能達到。信心度已調降。",
    ),
    "rank.some_missed": _m(
        "{kind}: {count} of {total} options miss the target ({names}); they are marked as "
        "missing and ranked after every option that meets it.",
        "{kind}：{total} 個方案中有 {count} 個未達目標（{names}）；已標示為未達標，排在所有達標"
        "方案之後。",
    ),
    "rank.thin_margin_after": _m(
        "{kind}: {card} × {count} would cost less ({cost} USD {per}) but leaves only {margin} of "
        "the target, under the {safety} safety margin; it is ranked after {first} ({first_cost} "
        "USD {per}), which meets the target with room to spare.",
        "{kind}：{card} × {count} 較便宜（每{per} {cost} 美元），但只剩目標的 {margin} 餘裕，低於 "
        "{safety} 的安全餘裕；因此排在 {first}（每{per} {first_cost} 美元）之後，後者能留有餘裕"
        "地達到目標。",
    ),
    "rank.at_risk": _m(
        "{kind}: {card} × {count} meets the target with only {margin} of it to spare ({achieved} "
        "against {target}), under the {safety} safety margin: a risk, not met comfortably. The "
        "estimate's own error is about that large; confirm it with a pilot or plan on more "
        "headroom.",
        "{kind}：{card} × {count} 雖達到目標，但只剩 {margin} 的餘裕（{achieved}，目標 {target}），"
        "低於 {safety} 的安全餘裕：這是風險，並非輕鬆達標。估算本身的誤差約在此範圍內；請以試行"
        "驗證，或預留更多餘裕。",
    ),
    "fleet.shared": _m(
        "{kinds} share one fleet of {units} × {server} ({card}): {schedule}. That is {units} "
        "server(s) instead of {separate} as separate fleets, {saves} USD a month less in compute "
        "(separate fleets are the alternative; each workload keeps the plan it was sized for).",
        "{kinds}共用一組 {units} 台 {server}（{card}）：{schedule}。共 {units} 台伺服器，"
        "分開建置則需 {separate} 台，運算每月少 {saves} 美元（分開建置是替代方案；"
        "每項工作負載維持原本的規劃）。",
    ),
    "fleet.together": _m(
        "{kinds} fit side by side on {units} × {server} ({card}): {cards}. That is {units} "
        "server(s) instead of {separate} as separate fleets, {saves} USD a month less in compute "
        "(separate fleets are the alternative; a training run on fewer cards takes the hours "
        "shown, inside its target; a service's spare server stays spare).",
        "{kinds}可並排放在 {units} 台 {server}（{card}）上：{cards}。共 {units} 台伺服器，"
        "分開建置則需 {separate} 台，運算每月少 {saves} 美元（分開建置是替代方案；使用較少卡的訓練"
        "需時如上，仍在目標之內；服務的備援伺服器仍保留備援）。",
    ),
    "fleet.run.cards": _m("{kind} on {cards} card(s)", "{kind}使用 {cards} 張卡"),
    "fleet.run.cards_hours": _m(
        "{kind} on {cards} card(s), {hours} h a run", "{kind}使用 {cards} 張卡，每次 {hours} 小時"
    ),
    "fleet.separate": _m(
        "{kinds} run on the same server, {server} ({card}), but cannot share servers in time: "
        "together they need all {separate} at the same hours, so they are planned as separate "
        "fleets.",
        "{kinds}使用相同的伺服器 {server}（{card}），但無法分時共用：它們在同一時段需要全部 "
        "{separate} 台，因此分開建置。",
    ),
    "fleet.run.always": _m(
        "{kind} holds {servers} server(s) around the clock",
        "{kind}全天佔用 {servers} 台伺服器",
    ),
    "fleet.run.cycle": _m(
        "{kind} holds {high} server(s) at its evening peak and {low} in the quiet hours (a daily "
        "cycle between its peak and its mean load)",
        "{kind}在晚間尖峰佔用 {high} 台、離峰時段佔用 {low} 台（每日在尖峰與平均負載之間循環）",
    ),
    "fleet.run.spare": _m(
        ", with {spare} spare server(s) standing by for a failed one (the other runs may use "
        "them and yield when a server fails)",
        "，另有 {spare} 台備援伺服器待命（其他工作可暫用，伺服器故障時讓出）",
    ),
    "fleet.run.daily": _m(
        "{kind} runs daily from {start} for {hours} h on {servers} server(s)",
        "{kind}每天 {start} 起在 {servers} 台伺服器上執行 {hours} 小時",
    ),
    "fleet.run.weekly": _m(
        "{kind} runs weekly from {day} {start} for {hours} h on {servers} server(s)",
        "{kind}每週{day} {start} 起在 {servers} 台伺服器上執行 {hours} 小時",
    ),
    "fleet.day.0": _m("Monday", "一"),
    "fleet.day.1": _m("Tuesday", "二"),
    "fleet.day.2": _m("Wednesday", "三"),
    "fleet.day.3": _m("Thursday", "四"),
    "fleet.day.4": _m("Friday", "五"),
    "fleet.day.5": _m("Saturday", "六"),
    "fleet.day.6": _m("Sunday", "日"),
    "rank.house_first_same_card": _m(
        "{kind}: the operator's own server, {units} × {server}, comes first; the same card from "
        "{provider} ({region}) would cost {usd} USD a month less ({share}).",
        "{kind}：營運商自有伺服器 {units} × {server} 排在第一；同一張卡改由 {provider}（{region}）"
        "提供，每月可省 {usd} 美元（{share}）。",
    ),
    "rank.house_first_other_card": _m(
        "{kind}: the operator's own server, {server}, comes first among the plans that meet "
        "your target; {card} × {count} from {provider} costs {share} less {per}.",
        "{kind}：在符合目標的方案中，營運商自有伺服器 {server} 排在第一；{card} × {count}"
        "（{provider}）{per}便宜 {share}。",
    ),
    "rank.indicative_first": _m(
        "{kind}: the first option, {card} × {count} from {provider} at {cost} USD {per}, is on an "
        "indicative price (undated, estimated or a 'from' price): it ranks first because the "
        "first firm price, {firm_card} × {firm_count} at {firm_cost} USD {per}, costs over 25% "
        "more. Get a quote from {provider} before signing.",
        "{kind}：第一個方案 {card} × {count}（{provider}，{per} {cost} 美元）採用的是參考價格"
        "（無日期、估計或「起價」）：它排第一是因為第一個確定價格 {firm_card} × {firm_count}"
        "（{per} {firm_cost} 美元）貴了超過 25%。簽約前請向 {provider} 索取報價。",
    ),
    "rank.indicative_first_close": _m(
        "{kind}: the first option, {card} × {count} from {provider} at {cost} USD {per}, is on an "
        "indicative price (undated, estimated or a 'from' price); the first firm price, "
        "{firm_card} × {firm_count} at {firm_cost} USD {per}, is within 25% of it and ranks "
        "after it on the tie-breakers (priced in your region, fewer devices, fewer hours). Get a "
        "quote from {provider} before signing, and weigh the firm price beside it.",
        "{kind}：第一個方案 {card} × {count}（{provider}，{per} {cost} 美元）採用的是參考價格"
        "（無日期、估計或「起價」）；第一個確定價格 {firm_card} × {firm_count}（{per} "
        "{firm_cost} 美元）與其相差不到 25%，因同分排序條件（在您所在地區定價、裝置較少、時數較少）"
        "排在其後。簽約前請向 {provider} 索取報價，並一併考慮該確定價格。",
    ),
    "rank.lead_passed_over": _m(
        "{kind}: {card} × {count} from {provider} would cost {cost} USD {per}, but that offer "
        "names no region and no price date, so nobody can sign it as it stands: it ranks after "
        "the offers that do. Ask {provider} for a dated quote where you are.",
        "{kind}：{card} × {count}（{provider}）{per}只需 {cost} 美元，但該報價既未註明區域，也"
        "沒有價格日期，現況下無法據此簽約：因此排在註明兩者的報價之後。請向 {provider} 索取"
        "註明日期、位於您所在地的報價。",
    ),
    "rank.unlocated_passed_over": _m(
        "{kind}: {card} × {count} from {provider} would cost {cost} USD {per}, but that offer "
        "does not say where it runs ({region}), so nobody can say it is sold where you are, nor "
        "check "
        "latency, data residency or egress against it: it ranks after the offers that name "
        "their region. Ask {provider} where it would run and for a quote there.",
        "{kind}：{card} × {count}（{provider}）{per}只需 {cost} 美元，但該報價未註明區域"
        "（{region}），無法確認在您所在地有供應，也無法據此核對延遲、資料留存或出站流量：因此排在"
        "註明區域的報價之後。請向 {provider} 確認其執行地點，並索取該地的報價。",
    ),
    "rank.first_here": _m(
        "{kind}: {first_card} ranks first on cost, but it is not offered and priced where you "
        "are ({regions}). The first option that is: {card} × {count} from {provider} "
        "({region}) at {cost} USD {per}, ranked {rank}.",
        "{kind}：{first_card} 因成本排第一，但並非在您所在地（{regions}）供應並計價。第一個在"
        "您所在地供應並計價的方案是：{card} × {count}（{provider}，{region}），{per} {cost} "
        "美元，排第 {rank}。",
    ),
    "rank.dominated": _m(
        "{kind}: {count} option(s) left out ({names}): another option is as good or better on "
        "cost, time, region, price firmness and device count.",
        "{kind}：已略去 {count} 個方案（{names}）：另有方案在成本、時間、區域、價格確定性與裝置"
        "數量上都相同或更好。",
    ),
    # --- measured benchmark results (engine/sizing/measured/)
    "measured.too_large": _m(
        "The file is larger than {limit} KB; save the result without --save-detailed.",
        "檔案超過 {limit} KB；儲存結果時請勿加上 --save-detailed。",
    ),
    "measured.empty": _m(
        "Nothing was pasted or uploaded.",
        "沒有貼上或上傳任何內容。",
    ),
    "measured.not_json": _m(
        "This is neither JSON nor CSV: paste the file the benchmark saved (vllm bench serve "
        "--save-result, sglang.bench_serving --output-file, trtllm-bench --report_json, "
        "genai-perf's CSV), not the printed summary.",
        "這不是 JSON 或 CSV：請貼上基準測試儲存的檔案（vllm bench serve --save-result、"
        "sglang.bench_serving --output-file、trtllm-bench --report_json、genai-perf 的 CSV），"
        "而非畫面上列印的摘要。",
    ),
    "measured.not_vllm": _m(
        "This JSON is not a vLLM serving benchmark result (no request_throughput, "
        "output_throughput, mean_ttft_ms or model_id).",
        "此 JSON 不是 vLLM 服務基準測試結果（沒有 request_throughput、output_throughput、"
        "mean_ttft_ms 或 model_id）。",
    ),
    "measured.unknown_format": _m(
        "This is not a serving benchmark result this page reads: vllm bench serve or TensorRT-LLM "
        "benchmark_serving (--save-result JSON), sglang.bench_serving (JSONL), trtllm-bench "
        "(--report_json) or genai-perf (CSV).",
        "這不是本頁可讀取的服務基準測試結果：vllm bench serve 或 TensorRT-LLM benchmark_serving"
        "（--save-result JSON）、sglang.bench_serving（JSONL）、trtllm-bench（--report_json）或 "
        "genai-perf（CSV）。",
    ),
    "measured.bad_line": _m(
        "Line {field} of this JSONL file is not JSON.",
        "此 JSONL 檔案的第 {field} 行不是 JSON。",
    ),
    "measured.no_streaming": _m(
        "The trtllm-bench report has no streaming_metrics: run it with --streaming so time to "
        "first token and time per output token are measured.",
        "trtllm-bench 報告中沒有 streaming_metrics：請加上 --streaming 執行，才會量測首個 token "
        "時間與每個輸出 token 時間。",
    ),
    "measured.csv_concurrency": _m(
        "genai-perf's CSV does not record the concurrency: enter the --concurrency the run used.",
        "genai-perf 的 CSV 不會記錄並行數：請填入這次執行所用的 --concurrency。",
    ),
    "measured.tool.vllm": _m(
        "vLLM-style serving benchmark (JSON)", "vLLM 格式的服務基準測試（JSON）"
    ),
    "measured.tool.sglang": _m("SGLang bench_serving (JSONL)", "SGLang bench_serving（JSONL）"),
    "measured.tool.trtllm_bench": _m("trtllm-bench (JSON)", "trtllm-bench（JSON）"),
    "measured.tool.genai_perf_csv": _m("GenAI-Perf (CSV)", "GenAI-Perf（CSV）"),
    "measured.missing": _m("The result has no {field}.", "結果中缺少 {field}。"),
    "measured.not_number": _m(
        "{field} must be a number of zero or more.", "{field} 必須是零或以上的數字。"
    ),
    "measured.no_concurrency": _m(
        "max_concurrency is missing: run the benchmark with --max-concurrency set to the plan's "
        "sequences per replica.",
        "缺少 max_concurrency：請以 --max-concurrency 設為方案中每個副本的序列數來執行基準測試。",
    ),
    "measured.nothing_completed": _m(
        "No request completed in this run.", "這次執行沒有任何請求完成。"
    ),
    "measured.other_server": _m(
        "This run measured another serving stack's server (bench_serving --backend {field}), "
        "not the one this report plans for: run the pilot's commands against your own stack.",
        "這次執行量測的是另一個服務堆疊的伺服器（bench_serving --backend {field}），"
        "而非本報告規劃的堆疊：請以試行方案的指令對您自己的堆疊執行。",
    ),
    "measured.too_deep": _m(
        "The file nests lists and objects more than {limit} levels deep (line {field}); a "
        "benchmark's result nests a few.",
        "檔案中的清單與物件巢狀超過 {limit} 層（第 {field} 行）；基準測試結果只有幾層。",
    ),
    "measured.number_too_long": _m(
        "The number {number} has {length} characters; numbers may have at most {limit}.",
        "數字 {number} 有 {length} 個字元；數字最多 {limit} 個字元。",
    ),
    "measured.bad_number": _m(
        "{value} is not a number a benchmark's result holds (no NaN, Infinity or number beyond "
        "a float).",
        "{value} 不是基準測試結果會有的數字（不接受 NaN、Infinity 或超出浮點數範圍的數字）。",
    ),
    "measured.nul": _m(
        "The file holds a NUL character (\\u0000), which cannot be stored.",
        "檔案含有 NUL 字元（\\u0000），無法儲存。",
    ),
    "measured.too_many_lines": _m(
        "The file has more than {limit} lines; paste the benchmark's result, not its log.",
        "檔案超過 {limit} 行；請貼上基準測試的結果，而非其紀錄。",
    ),
    "measured.csv_field_too_long": _m(
        "A field of this CSV is longer than {limit} characters; genai-perf's CSV holds metric "
        "names and numbers.",
        "此 CSV 有欄位超過 {limit} 個字元；genai-perf 的 CSV 只有指標名稱與數字。",
    ),
    "measured.bad_date": _m(
        "date {value} is not a date and time written as vLLM writes it (YYYYMMDD-HHMMSS).",
        "date {value} 不是 vLLM 寫法的日期與時間（YYYYMMDD-HHMMSS）。",
    ),
    "measured.future_date": _m(
        "date {value} is after today ({today}): a run is measured before it is pasted.",
        "date {value} 晚於今天（{today}）：執行必定在貼上之前量測。",
    ),
    "measured.not_positive": _m(
        "{field} is zero: the run measured no throughput.",
        "{field} 為零：這次執行沒有量到任何吞吐量。",
    ),
    "measured.too_many": _m(
        "{field} {value} is more than {limit}.",
        "{field} {value} 超過 {limit}。",
    ),
    "measured.beyond_memory": _m(
        "{field} {value} is more than {factor} times the {bound} sequences one replica of "
        "{card} holds in memory for this model and context.",
        "{field} {value} 超過 {card} 單一副本記憶體可容納的 {bound} 個序列（以此模型與上下文"
        "計）的 {factor} 倍。",
    ),
    "measured.above_roofline": _m(
        "{field} {value} tokens/s is more than {factor} times what one replica of {card} can "
        "reach for this model ({bound} tokens/s from its memory bandwidth and compute): not a "
        "run of this card and model.",
        "{field} {value} tokens/s 超過 {card} 單一副本在此模型上可達上限（依記憶體頻寬與運算"
        "能力為 {bound} tokens/s）的 {factor} 倍：不是這張卡與此模型的執行結果。",
    ),
    "measured.below_floor": _m(
        "{field} {value} tokens/s is below {bound} tokens/s, a thousandth of what one replica "
        "of {card} reaches for this model: the run was throttled or broken.",
        "{field} {value} tokens/s 低於 {bound} tokens/s，即 {card} 單一副本在此模型上可達值"
        "的千分之一：這次執行受到限制或發生故障。",
    ),
    "measured.requests_above_tokens": _m(
        "{field} {value} requests/s is more than the output throughput ({bound} tokens/s): "
        "every request outputs at least one token.",
        "{field} {value} 個請求/秒 超過輸出吞吐量（{bound} tokens/s）：每個請求至少輸出一個 "
        "token。",
    ),
    "measured.latency_too_long": _m(
        "{field} {value} ms is longer than an hour ({bound} ms).",
        "{field} {value} 毫秒 超過一小時（{bound} 毫秒）。",
    ),
    "measured.below_physics": _m(
        "{field} {value} ms is less than 1/{factor} of the {bound} ms one replica of {card} "
        "needs at least for this model (its prefill and weight reads at peak): not a run of "
        "this card and model.",
        "{field} {value} 毫秒 不到 {card} 單一副本在此模型上至少所需 {bound} 毫秒（以峰值"
        "計算預填與權重讀取）的 {factor} 分之一：不是這張卡與此模型的執行結果。",
    ),
    # --- no dead ends (advisor/engine/planning/relax/)
    "dead_end.no_option": _m(
        "{kind}: no option meets every answer. {reasons}.",
        "{kind}：沒有任何方案能同時符合您的所有答案。{reasons}。",
    ),
    "dead_end.nothing_priced": _m(
        "{kind}: no option that runs your stack has a price under your answers. {reasons}.",
        "{kind}：在您的答案下，能執行您技術堆疊的方案都沒有價格。{reasons}。",
    ),
    "dead_end.by_residency": _m(
        "{count} card(s) are not offered in {regions} on {mode}, and your data must stay in the "
        "region (data residency)",
        "{count} 種卡片在{regions}的{mode}沒有供應，而您的資料必須留在區域內（資料落地）",
    ),
    "dead_end.by_stack": _m(
        "{count} card(s) cannot run {items} (your frameworks, kernels or numeric format)",
        "{count} 種卡片無法執行{items}（您的框架、核心或數值格式）",
    ),
    "dead_end.numeric_format": _m("the numeric format you chose", "您選擇的數值格式"),
    "dead_end.by_size": _m(
        "{count} card(s) would need more PCIe servers than one training job can span",
        "{count} 種卡片需要的 PCIe 伺服器數量超過單一訓練工作可跨越的範圍",
    ),
    "dead_end.by_price": _m(
        "{count} card(s) could run it on {mode}, but the catalog holds no price for any of them "
        "that {regions} may buy",
        "{count} 種卡片可在{mode}執行，但目錄中沒有任何一種是{regions}可購買的價格",
    ),
    "dead_end.by_porting": _m(
        "the {count} card(s) left all need porting of your stack",
        "剩下的 {count} 種卡片都需要移植您的技術堆疊",
    ),
    "dead_end.by_modes": _m(
        "you allow only {modes}",
        "您只允許{modes}",
    ),
    "dead_end.by_clouds": _m(
        "on public cloud you allow only {clouds}",
        "公有雲方面您只允許 {clouds}",
    ),
    "dead_end.change": _m(
        "{field} were {value} instead of {current}",
        "{field}改為「{value}」（目前為「{current}」）",
    ),
    "dead_end.and": _m(" and ", "，並且"),
    "dead_end.any_cloud": _m("any cloud", "任何雲端"),
    "dead_end.relaxation": _m(
        "If {changes}, {kind} would get {card} × {count} on {mode} from {provider} ({region}) at "
        "{monthly} USD a month{per_result}. You give up: {gives_up}",
        "若{changes}，{kind}可採用 {card} × {count}（{mode}，{provider}，{region}），每月 "
        "{monthly} 美元{per_result}。代價：{gives_up}",
    ),
    "dead_end.as_answered": _m(
        "With your answers as they are, {kind} runs on {family} instead: {card} × {count} on "
        "{mode} from {provider} ({region}) at {monthly} USD a month{per_result}. You give up: "
        "{gives_up}",
        "在您現有的答案下，{kind}可改用 {family}：{card} × {count}（{mode}，{provider}，"
        "{region}），每月 {monthly} 美元{per_result}。代價：{gives_up}",
    ),
    "dead_end.gives_up.family": _m(
        "the {family} the scores preferred for your stack and workload.",
        "評分原本依您的技術堆疊與工作負載偏好的 {family}。",
    ),
    "dead_end.per_result": _m(" ({cost} USD {per})", "（{per} {cost} 美元）"),
    "dead_end.reasons_separator": _m("; ", "；"),
    "dead_end.rtt_zero": _m(
        "the catalog counts no round trip from {regions}",
        "目錄將其與{regions}的來回延遲計為零",
    ),
    "dead_end.rtt": _m("about {ms} ms round trip from {regions}", "距{regions}來回約 {ms} 毫秒"),
    "dead_end.rtt_unmeasured": _m(
        "a round trip from {regions} the catalog has not measured",
        "目錄尚未量測其與{regions}的來回延遲",
    ),
    "dead_end.gives_up.region_same_country": _m(
        "the servers run in {region} ({rtt}); data stays in the same country.",
        "伺服器位於{region}（{rtt}）；資料仍留在同一國家。",
    ),
    "dead_end.gives_up.region_residency": _m(
        "the servers and your data live in {region} ({rtt}): your data leaves the country you "
        "required it to stay in.",
        "伺服器與您的資料將位於{region}（{rtt}）：資料會離開您要求留存的國家。",
    ),
    "dead_end.gives_up.region": _m(
        "the servers run in {region} ({rtt}).",
        "伺服器位於{region}（{rtt}）。",
    ),
    "dead_end.gives_up.residency": _m(
        "your data may be stored and processed outside your regions.",
        "您的資料可能在所在區域以外儲存與處理。",
    ),
    "dead_end.gives_up.clouds": _m(
        "a cloud account beyond {clouds}, with its own contract, tools and egress.",
        "需在 {clouds} 以外另開雲端帳戶，另有合約、工具與資料傳出費用。",
    ),
    "dead_end.gives_up.serving": _m(
        "{serving}: the model is served with vLLM instead, and the serving setup is re-tested.",
        "{serving}：改用 vLLM 提供推論服務，並須重新測試服務設定。",
    ),
    "dead_end.gives_up.kernels": _m(
        "the custom kernels: the workload runs on the framework's own kernels, which may be "
        "slower.",
        "自訂核心：工作負載改用框架內建核心，速度可能較慢。",
    ),
    "dead_end.by_answer": _m("{field} is {value}", "{field}為{value}"),
    "dead_end.gives_up.checkpointing": _m(
        "about a third more compute per step: activations are recomputed in the backward pass",
        "每步約多三分之一的運算量：反向傳播時重新計算激活值",
    ),
    "dead_end.gives_up.micro_batch": _m(
        "one sequence per micro-batch: more steps, or gradient accumulation to keep the batch",
        "每個 micro-batch 只有一個序列：步數增加，或以梯度累積維持批次大小",
    ),
    "dead_end.gives_up.precision": _m(
        "{precision}: the model runs in 16-bit, which needs more memory.",
        "{precision}：模型改以 16 位元執行，需要更多記憶體。",
    ),
    "dead_end.gives_up.mode.public_cloud": _m(
        "single-tenant servers: the work runs on a shared public cloud.",
        "獨享伺服器：工作改在共用的公有雲上執行。",
    ),
    "dead_end.gives_up.mode.dedicated_hosting": _m(
        "pay-as-you-go: dedicated servers are rented by the month.",
        "隨用隨付：專屬主機以月租計。",
    ),
    "dead_end.gives_up.mode.bare_metal": _m(
        "a managed layer: bare metal is rented by the month and your team runs the whole "
        "software stack.",
        "代管層：裸機以月租計，整套軟體由您的團隊自行維運。",
    ),
    "dead_end.quote": _m(
        "Our server for {kind}: {servers} × {unit} from {provider} in {region} on {mode} "
        "({per_server} × {card} per server, {count} cards in all), {term}.",
        "{kind}可用我們的伺服器：{provider}位於{region}的 {unit} × {servers}（{mode}，每台 "
        "{per_server} 張 {card}，共 {count} 張），{term}。",
    ),
    "dead_end.quote_needs": _m(
        "It needs a change to: {answers}.",
        "這需要調整：{answers}。",
    ),
    "dead_end.quote_priced": _m(
        "About {monthly} USD a month; request a quote to confirm it.",
        "每月約 {monthly} 美元；請索取報價確認。",
    ),
    "dead_end.quote_on_request": _m(
        "Priced on request: request a quote.",
        "價格需洽詢：請索取報價。",
    ),
    "dead_end.next_quote": _m(
        "{kind}: request a quote for the server below, or change one of the answers listed.",
        "{kind}：請為下列伺服器索取報價，或調整所列的其中一項答案。",
    ),
    "dead_end.next_relax": _m(
        "{kind}: change one of the answers listed to bring options back, then regenerate.",
        "{kind}：調整所列的其中一項答案以恢復可選方案，然後重新產生報告。",
    ),
    "dead_end.next_none": _m(
        "{kind}: no change of one or two answers brings an option back; talk to us about a "
        "custom build.",
        "{kind}：調整一至兩項答案都無法恢復可選方案；請與我們洽談客製方案。",
    ),
}

# The bundled catalog's own sentences (its known gaps), keyed by their English text as gettext
# keys on a msgid: a sentence an admin's own catalog adds shows as written.
CATALOG_TEXT: dict[str, dict[str, str]] = {
    "AWS/Azure reserved GPU prices (except AWS g6/g6e 'reserved')": _m(
        "AWS/Azure reserved GPU prices (except AWS g6/g6e 'reserved')",
        "AWS／Azure 的 GPU 預留執行個體價格（AWS g6／g6e 的「reserved」除外）",
    ),
    "1-year TPU commitments; v5e/v5p CUD prices": _m(
        "1-year TPU commitments; v5e/v5p CUD prices",
        "TPU 一年期承諾用量；v5e／v5p 的承諾使用折扣（CUD）價格",
    ),
    "purchase prices of T4, L4, A10G, A100 40GB, GH200 and MI300X cards; a current TEPCO "
    "high-voltage electricity average; a Hong Kong colocation price per kW-month": _m(
        "purchase prices of T4, L4, A10G, A100 40GB, GH200 and MI300X cards; a current TEPCO "
        "high-voltage electricity average; a Hong Kong colocation price per kW-month",
        "T4、L4、A10G、A100 40GB、GH200 與 MI300X 卡片的購置價格；東京電力目前的高壓電價平均；"
        "香港每 kW 每月的機房託管價格",
    ),
    "L40S price at GCP; TPU v5p spot": _m(
        "L40S price at GCP; TPU v5p spot",
        "Google Cloud 的 L40S 價格；TPU v5p 的 Spot 價格",
    ),
    "measured Hong Kong <-> mainland China round-trip times": _m(
        "measured Hong Kong <-> mainland China round-trip times",
        "香港與中國大陸之間實測的往返時間",
    ),
    "published monthly prices of Hong Kong / Tokyo / Los Angeles dedicated GPU hosts (sold on "
    "request)": _m(
        "published monthly prices of Hong Kong / Tokyo / Los Angeles dedicated GPU hosts (sold on "
        "request)",
        "香港／東京／洛杉磯專屬 GPU 主機的公開月費（須洽詢報價）",
    ),
    "any H100-class offer physically in Hong Kong": _m(
        "any H100-class offer physically in Hong Kong",
        "實體位於香港的 H100 等級方案",
    ),
    "Azure GPU prices in Asia": _m("Azure GPU prices in Asia", "Azure 在亞洲的 GPU 價格"),
    "CN2 GIA per-Mbps list prices": _m("CN2 GIA per-Mbps list prices", "CN2 GIA 每 Mbps 的牌價"),
    "NVIDIA V100 and GeForce RTX 4090 offers (offers_hk_tokyo_la.json rows 30 and 38) are held "
    "back: the catalog has no such accelerator": _m(
        "NVIDIA V100 and GeForce RTX 4090 offers (offers_hk_tokyo_la.json rows 30 and 38) are "
        "held back: the catalog has no such accelerator",
        "NVIDIA V100 與 GeForce RTX 4090 的方案暫未收錄：目錄中沒有這兩種加速器",
    ),
}

# The catalog's notes on where a card is and is not offered (catalog.json `regions` and
# `availability`, shown on /catalog/), keyed by their English text like the gaps above.
CATALOG_TEXT.update(
    {
        # Benchmarks the catalog's unit workloads are sized from, and the capacity-block terms.
        "MLPerf Inference BERT-99 (BERT-large, sequences of up to 384 tokens)": _m(
            "MLPerf Inference BERT-99 (BERT-large, sequences of up to 384 tokens)",
            "MLPerf Inference BERT-99（BERT-large，序列最長 384 個 token）",
        ),
        "Whisper large-v3-turbo transcription at batch 32": _m(
            "Whisper large-v3-turbo transcription at batch 32",
            "Whisper large-v3-turbo 語音轉寫（批次 32）",
        ),
        "1 to 64 instances (8 to 512 GPUs) for 1 to 182 days, booked up to 8 weeks ahead": _m(
            "1 to 64 instances (8 to 512 GPUs) for 1 to 182 days, booked up to 8 weeks ahead",
            "1 至 64 個執行個體（8 至 512 個 GPU），租期 1 至 182 天，最早可提前 8 週預訂",
        ),
        "Japan is not always Tokyo: these offers are in Japan, but not in Tokyo": _m(
            "Japan is not always Tokyo: these offers are in Japan, but not in Tokyo",
            "日本不一定是東京：這些方案位於日本，但不在東京",
        ),
        "N. California (us-west1) has p5/p5en; counted under us_west": _m(
            "N. California (us-west1) has p5/p5en; counted under us_west",
            "北加州（us-west1）有 p5／p5en；計入美國西部",
        ),
        "No H100-class card (A100/H100/H200/B200/L40S/L4) from any major cloud in Hong Kong; no "
        "H100, H200, B200 or L40S offer physically in Hong Kong was found from any provider "
        "(offers_hk_tokyo_la.md 5)": _m(
            "No H100-class card (A100/H100/H200/B200/L40S/L4) from any major cloud in Hong Kong; "
            "no H100, H200, B200 or L40S offer physically in Hong Kong was found from any provider "
            "(offers_hk_tokyo_la.md 5)",
            "香港沒有任何主要雲端提供 H100 等級的卡（A100／H100／H200／B200／L40S／L4）；"
            "也找不到任何供應商在香港實體提供 H100、H200、B200 或 L40S（offers_hk_tokyo_la.md 5）",
        ),
        "EST: Google Cloud has no region in mainland China": _m(
            "EST: Google Cloud has no region in mainland China",
            "估計：Google Cloud 在中國大陸沒有區域",
        ),
        "Japan outside Tokyo (Sakura Ishikari is1a/is1b, HIGHRESO Kagawa/Ishikawa, RunPod "
        "AP-JP-1, city not stated): shared/reference/offers_hk_tokyo_la.md 1 'Japan is not "
        "always Tokyo'": _m(
            "Japan outside Tokyo (Sakura Ishikari is1a/is1b, HIGHRESO Kagawa/Ishikawa, RunPod "
            "AP-JP-1, city not stated): shared/reference/offers_hk_tokyo_la.md 1 'Japan is not "
            "always Tokyo'",
            "東京以外的日本（Sakura 石狩 is1a／is1b、HIGHRESO 香川／石川、RunPod AP-JP-1，"
            "未註明城市）：shared/reference/offers_hk_tokyo_la.md 1「Japan is not always Tokyo」",
        ),
        "no accelerator rows in the SkyPilot GCP catalog for asia-east2": _m(
            "no accelerator rows in the SkyPilot GCP catalog for asia-east2",
            "SkyPilot 的 Google Cloud 目錄在 asia-east2 沒有任何加速器",
        ),
        "only B200 rows in us-west2": _m("only B200 rows in us-west2", "us-west2 只有 B200"),
        "v6e zone listed, price unknown": _m(
            "v6e zone listed, price unknown", "列有 v6e 的可用區，價格不明"
        ),
        "Function Compute marks GPU instances as unsupported in China (Hong Kong); no ECS GPU "
        "availability or price found": _m(
            "Function Compute marks GPU instances as unsupported in China (Hong Kong); no ECS "
            "GPU availability or price found",
            "Function Compute 標示中國（香港）不支援 GPU 執行個體；找不到 ECS GPU 的供應或價格",
        ),
        "Google Cloud has no region in mainland China": _m(
            "Google Cloud has no region in mainland China", "Google Cloud 在中國大陸沒有區域"
        ),
        "Google's price list has A2 machine types in asia-east1 (catalog prices p078-p080), but "
        "the region lists no A100 zone": _m(
            "Google's price list has A2 machine types in asia-east1 (catalog prices p078-p080), "
            "but the region lists no A100 zone",
            "Google 的價目表在 asia-east1 有 A2 機型（目錄價格 p078-p080），但該區域沒有列出任何"
            " A100 可用區",
        ),
        "Google's price list has A2, A3 and G2 machine types in asia-east2 (catalog prices "
        "p081-p083, p105-p107, p129-p131), but the region lists no zone for any of these cards: "
        "a price-list row is not availability": _m(
            "Google's price list has A2, A3 and G2 machine types in asia-east2 (catalog prices "
            "p081-p083, p105-p107, p129-p131), but the region lists no zone for any of these "
            "cards: a price-list row is not availability",
            "Google 的價目表在 asia-east2 有 A2、A3 與 G2 機型（目錄價格 p081-p083、p105-p107、"
            "p129-p131），但該區域沒有列出這些卡的任何可用區：價目表上有價格不代表有供應",
        ),
        "Google's price list has A2, A3 and G2 machine types in us-west2 (catalog prices "
        "p075-p077, p099-p101, p123-p125), but the region lists no zone for these cards": _m(
            "Google's price list has A2, A3 and G2 machine types in us-west2 (catalog prices "
            "p075-p077, p099-p101, p123-p125), but the region lists no zone for these cards",
            "Google 的價目表在 us-west2 有 A2、A3 與 G2 機型（目錄價格 p075-p077、p099-p101、"
            "p123-p125），但該區域沒有列出這些卡的可用區",
        ),
        "No AWS or Azure GPU offer found there": _m(
            "No AWS or Azure GPU offer found there", "當地找不到 AWS 或 Azure 的 GPU 方案"
        ),
        "No OCI region in Hong Kong": _m(
            "No OCI region in Hong Kong", "Oracle Cloud（OCI）在香港沒有區域"
        ),
        "No p4/p5/p5en/p6 and no g6/g6e price in ap-east-1": _m(
            "No p4/p5/p5en/p6 and no g6/g6e price in ap-east-1",
            "ap-east-1 沒有 p4／p5／p5en／p6 的價格，也沒有 g6／g6e 的價格",
        ),
        "p6-b200/b300 priced only in us-east-1/us-west-2": _m(
            "p6-b200/b300 priced only in us-east-1/us-west-2",
            "p6-b200／b300 只在 us-east-1／us-west-2 有價格",
        ),
        # Providers whose catalog name carries words, not only a brand.
        "Excess Supply (via Shadeform marketplace)": _m(
            "Excess Supply (via Shadeform marketplace)", "Excess Supply（經由 Shadeform 市集）"
        ),
        "Vast.ai (marketplace)": _m("Vast.ai (marketplace)", "Vast.ai（市集）"),
    }
)

# Where an offer is, as the catalog, the reference offer files and the demo servers write it.
# "<provider's code> (<place>)" keeps the code and names the place in the reader's language
# (REGION_PLACES: "ap-southeast-1 (Singapore)" -> "ap-southeast-1（新加坡）"); a text of another
# shape is translated whole (REGION_TEXT); a bare code, or an operator's own words, shows as
# written.
REGION_PLACES: dict[str, dict[str, str]] = {
    "Singapore": _m("Singapore", "新加坡"),
    "Tokyo": _m("Tokyo", "東京"),
    "Hong Kong": _m("Hong Kong", "香港"),
    "Taiwan": _m("Taiwan", "台灣"),
    "Los Angeles": _m("Los Angeles", "洛杉磯"),
    "Netherlands": _m("Netherlands", "荷蘭"),
    "Paris": _m("Paris", "巴黎"),
    "Helsinki": _m("Helsinki", "赫爾辛基"),
    "Germany": _m("Germany", "德國"),
    "Germany/Finland": _m("Germany/Finland", "德國／芬蘭"),
    "Iowa (US)": _m("Iowa (US)", "美國愛荷華州"),
    "Finland": _m("Finland", "芬蘭"),
    "Kansas City": _m("Kansas City", "美國堪薩斯城"),
    "Ohio": _m("Ohio", "美國俄亥俄州"),
    "N. Virginia": _m("N. Virginia", "美國北維吉尼亞州"),
    "Oregon": _m("Oregon", "美國俄勒岡州"),
    "N. Virginia (US East)": _m("N. Virginia (US East)", "美國東部，北維吉尼亞州"),
    "Los Angeles Local Zone": _m("Los Angeles Local Zone", "洛杉磯本地區域"),
    "Local Zone": _m("Local Zone", "本地區域"),
    "N. California; San Francisco Bay Area, not Los Angeles": _m(
        "N. California; San Francisco Bay Area, not Los Angeles", "北加州舊金山灣區，不是洛杉磯"
    ),
    "N. California, not Los Angeles": _m("N. California, not Los Angeles", "北加州，不是洛杉磯"),
    "Ishikari, Hokkaido, Japan": _m("Ishikari, Hokkaido, Japan", "日本北海道石狩"),
    "Japan; city not stated in sources": _m(
        "Japan; city not stated in sources", "日本；來源未註明城市"
    ),
}
# The region a TPU v6e 3-year row names: where the launch announcement offered the chip.
_TPU_V6E_3Y = (
    "US (announcement: US East, Europe West, Asia Northeast; "
    "region of the 3-year figure not stated)"
)

REGION_TEXT: dict[str, dict[str, str]] = {
    "Japan (JP)": _m("Japan (JP)", "日本（JP）"),
    "Hong Kong (HK)": _m("Hong Kong (HK)", "香港（HK）"),
    "Japan (HIGHRESO data centre; site not stated in source)": _m(
        "Japan (HIGHRESO data centre; site not stated in source)",
        "日本（HIGHRESO 資料中心；來源未註明地點）",
    ),
    "Japan (HIGHRESO data centres in Kagawa/Takamatsu and Ishikawa per secondary sources) - "
    "not Tokyo": _m(
        "Japan (HIGHRESO data centres in Kagawa/Takamatsu and Ishikawa per secondary sources) - "
        "not Tokyo",
        "日本（據二手資料，HIGHRESO 資料中心位於香川縣高松與石川縣），不在東京",
    ),
    "Japan (Sakura data centre; site not stated in source)": _m(
        "Japan (Sakura data centre; site not stated in source)",
        "日本（Sakura 資料中心；來源未註明地點）",
    ),
    "Tokyo (Lambda region asia-northeast-1; listed as tokyo-japan-1 by Shadeform)": _m(
        "Tokyo (Lambda region asia-northeast-1; listed as tokyo-japan-1 by Shadeform)",
        "東京（Lambda 區域 asia-northeast-1；Shadeform 列為 tokyo-japan-1）",
    ),
    "Tokyo (tokyo-japan-5)": _m("Tokyo (tokyo-japan-5)", "東京（tokyo-japan-5）"),
    "is1a / is1b (Ishikari, Hokkaido, Japan) - not Tokyo": _m(
        "is1a / is1b (Ishikari, Hokkaido, Japan) - not Tokyo",
        "is1a / is1b（日本北海道石狩），不在東京",
    ),
    "EU": _m("EU", "歐盟"),
    "eu-north1 (Finland), eu-west1": _m(
        "eu-north1 (Finland), eu-west1", "eu-north1（芬蘭）、eu-west1"
    ),
    "eu-north1 (Finland); also eu-west1, us-central1": _m(
        "eu-north1 (Finland); also eu-west1, us-central1",
        "eu-north1（芬蘭）；另有 eu-west1、us-central1",
    ),
    "EU (IE subsidiary catalog; zone not fixed)": _m(
        "EU (IE subsidiary catalog; zone not fixed)", "歐盟（愛爾蘭子公司的價目表；未指定可用區）"
    ),
    "EU (not stated)": _m("EU (not stated)", "歐盟（未註明地點）"),
    "Germany": _m("Germany", "德國"),
    "Germany (Nuremberg, Falkenstein)": _m(
        "Germany (Nuremberg, Falkenstein)", "德國（紐倫堡、法爾肯施泰因）"
    ),
    "Germany/Finland (auction stock)": _m(
        "Germany/Finland (auction stock)", "德國／芬蘭（拍賣庫存）"
    ),
    "North America": _m("North America", "北美"),
    "US (Lambda regions)": _m("US (Lambda regions)", "美國（Lambda 的區域）"),
    "US (region not stated)": _m("US (region not stated)", "美國（未註明區域）"),
    _TPU_V6E_3Y: _m(
        _TPU_V6E_3Y, "美國（公告列出美國東部、歐洲西部、亞洲東北部；未註明三年期價格的區域）"
    ),
    # Shown inside brackets by rank.unlocated_passed_over: no brackets of its own.
    "global (not stated)": _m("global (not stated)", "全球，未註明地點"),
    # The demo operator's own servers (advisor/demo_offers.py).
    "Hong Kong (Tseung Kwan O)": _m("Hong Kong (Tseung Kwan O)", "香港（將軍澳）"),
    "Los Angeles (One Wilshire)": _m("Los Angeles (One Wilshire)", "洛杉磯（One Wilshire）"),
    "Tokyo (Otemachi)": _m("Tokyo (Otemachi)", "東京（大手町）"),
}
