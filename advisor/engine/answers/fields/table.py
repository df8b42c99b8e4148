"""The answer field table: every answer of the answers document, version 3, declared once, in
the order the wizard asks them (advisor/engine/answers/fields/__init__.py says what each column
feeds).
A new question is one entry here; docs/architecture.md has the recipe.
"""

from __future__ import annotations

from advisor.engine.answers import vocabulary
from advisor.engine.answers.fields import Field

FIELDS: tuple[Field, ...] = (
    Field(
        path="schema_version",
        type="document",
        label=("schema version", "結構描述版本"),
    ),
    # -------------------- organization
    Field(
        path="organization",
        type="section",
        label=("organisation", "組織"),
    ),
    Field(
        path="organization.industry",
        type="enum",
        label=("industry", "產業"),
        description="Industry.",
        question=("Industry", "產業"),
        help=(
            "Regulated industries often need private cloud, on-premises or in-region data.",
            "受監管產業常需要私有雲、自有機房或資料留在當地。",
        ),
        values=vocabulary.INDUSTRIES,
        group="industry",
        required=True,
        step="organization",
        widget="select",
    ),
    Field(
        path="organization.regions",
        type="enum_list",
        label=("regions", "所在區域"),
        description="Where users and data are (>= 1).",
        question=("Where your users and data are", "您的使用者與資料所在地"),
        help=(
            (
                "Decides which providers and accelerators are available and the latency to your "
                "users. Tick Mainland China if users or data there must be reached; it is not "
                "asked again. Japan outside Tokyo takes servers anywhere in Japan, Tokyo included; "
                "with data kept in region, Tokyo also takes servers elsewhere in Japan (same "
                "country, farther away). Choose at least one."
            ),
            (
                "決定可用的供應商與加速器，以及與使用者之間的延遲。若必須連到中國大陸的使用者或資料"
                "，請勾選「中國大陸」；之後不會再問一次。選「日本（東京以外）」也接受日本任何地方的"
                "伺服器（包括東京）；若資料須留在區域內，選「東京」也接受日本其他地方的伺服器（同一"
                "國家，但距離較遠）。請至少選擇一項。"
            ),
        ),
        values=vocabulary.REGIONS,
        group="region",
        min_items=1,
        required=True,
        plural_en=True,
        step="organization",
        what_if=6,
    ),
    # -------------------- workloads
    Field(
        path="workloads",
        type="section",
        label=("workloads", "工作負載"),
        plural_en=True,
    ),
    Field(
        path="workloads[].kind",
        type="enum",
        label=("kind", "類型"),
        description="Workload kind.",
        values=vocabulary.WORKLOAD_KINDS,
        group="kind",
        required=True,
        step="workloads",
    ),
    Field(
        path="workloads[].schedule",
        type="enum",
        label=("schedule", "排程"),
        description="How often it runs.",
        values=vocabulary.SCHEDULES,
        group="schedule",
        required=True,
        step="workloads",
    ),
    # -------------------- maturity
    Field(
        path="maturity",
        type="section",
        label=("maturity", "成熟度"),
    ),
    Field(
        path="maturity.stack_changes",
        type="enum",
        label=("stack changes", "技術堆疊變動頻率"),
        description="How often the ML stack changes.",
        question=("How often does your ML stack change?", "您的機器學習技術堆疊多久變動一次？"),
        help=(
            "GPUs are the safe default for a changing stack; TPUs pay off when it is stable.",
            "技術堆疊常變動時 GPU 是穩妥的預設；穩定時 TPU 才划算。",
        ),
        values=vocabulary.STACK_CHANGES,
        group="stack_changes",
        required=True,
        plural_en=True,
        step="maturity",
        widget="radio",
    ),
    Field(
        path="maturity.pipeline",
        type="enum",
        label=("pipeline maturity", "流程成熟度"),
        description="Pipeline maturity.",
        question=("How mature is your pipeline?", "您的流程成熟度如何？"),
        help=(
            "Standardised, repeatable jobs can use specialised hardware well.",
            "標準化、可重複的工作能善用專用硬體。",
        ),
        values=vocabulary.PIPELINES,
        group="pipeline",
        required=True,
        step="maturity",
        widget="radio",
    ),
    Field(
        path="maturity.demand",
        type="enum",
        label=("demand", "需求型態"),
        description="Predictability of demand.",
        question=("How predictable is demand?", "需求可預測程度如何？"),
        help=(
            "Predictable demand makes monthly servers and commitments cheaper than hourly.",
            "需求可預測時，月租伺服器與承諾用量比按小時計費便宜。",
        ),
        values=vocabulary.DEMANDS,
        group="demand",
        required=True,
        step="maturity",
        widget="radio",
    ),
    # -------------------- frameworks
    Field(
        path="frameworks",
        type="section",
        label=("frameworks", "框架"),
        plural_en=True,
    ),
    Field(
        path="frameworks.primary",
        type="enum",
        label=("primary framework", "主要框架"),
        description="Main framework.",
        question=("Main framework", "主要框架"),
        help=(
            "JAX and TensorFlow run best on TPUs; PyTorch runs everywhere, on TPUs via XLA.",
            "JAX 與 TensorFlow 在 TPU 上表現最好；PyTorch 到處都能跑，在 TPU 上要透過 XLA。",
        ),
        values=vocabulary.FRAMEWORKS,
        group="framework",
        required=True,
        step="frameworks",
        widget="radio",
    ),
    Field(
        path="frameworks.others",
        type="enum_list",
        label=("other frameworks", "其他框架"),
        description="Other frameworks in use; default [].",
        question=("Other frameworks in use", "其他使用中的框架"),
        values=vocabulary.FRAMEWORKS,
        group="framework",
        default=[],
        plural_en=True,
        step="frameworks",
    ),
    Field(
        path="frameworks.custom_kernels",
        type="boolean",
        label=("custom kernels", "自訂核心"),
        description="Custom CUDA/Triton ops or CUDA-only libraries.",
        question=(
            "Custom CUDA or Triton kernels, or CUDA-only libraries?",
            "是否有自訂 CUDA 或 Triton 核心，或只支援 CUDA 的函式庫？",
        ),
        help=("These do not run on TPUs as they are.", "這些無法直接在 TPU 上執行。"),
        required=True,
        plural_en=True,
        step="frameworks",
    ),
    Field(
        path="frameworks.serving",
        type="enum",
        label=("serving stack", "推論服務框架"),
        description="Serving stack.",
        question=("Serving stack", "服務框架"),
        help=(
            "Some serving stacks (e.g. TensorRT-LLM, ONNX) need GPUs.",
            "部分服務框架（例如 TensorRT-LLM、ONNX）需要 GPU。",
        ),
        values=vocabulary.SERVING,
        group="serving",
        required=True,
        step="frameworks",
        widget="select",
    ),
    Field(
        path="frameworks.kernel_architectures",
        type="enum_list",
        label=("kernel architectures", "核心目標架構"),
        description=(
            "Optional, added in v1: CUDA architectures the custom kernels are built for (sm_80 = "
            "A100, sm_90 = H100/H200, ...). A card of a newer architecture needs a rebuild; an "
            "older one cannot run them. Default [] (not stated). Read only when custom_kernels is "
            "true."
        ),
        question=(
            "CUDA architectures your kernels are built for (optional)",
            "自訂核心編譯的目標 CUDA 架構（選填）",
        ),
        help=(
            (
                "As in TORCH_CUDA_ARCH_LIST or nvcc -gencode. A newer card needs the kernels "
                "rebuilt; an older one cannot run them."
            ),
            (
                "即 TORCH_CUDA_ARCH_LIST 或 nvcc -gencode "
                "所列架構。較新的卡片須重新編譯核心；較舊的卡片無法執行。"
            ),
        ),
        values=vocabulary.KERNEL_ARCHITECTURES,
        group="kernel_arch",
        default=[],
        plural_en=True,
        step="frameworks",
    ),
    # -------------------- deployment
    Field(
        path="deployment",
        type="section",
        label=("deployment", "部署"),
    ),
    Field(
        path="deployment.allowed_modes",
        type="enum_list",
        label=("allowed deployment modes", "允許的部署模式"),
        description="Deployment modes allowed (>= 1).",
        question=("Where may you deploy?", "可以部署在哪裡？"),
        help=(
            (
                "TPUs exist only as a Google Cloud service; GPUs are available in every mode. "
                "Choose at least one."
            ),
            "TPU 只以 Google Cloud 服務形式提供；GPU 在各種部署方式都有。請至少選擇一項。",
        ),
        values=vocabulary.MODES,
        group="mode",
        min_items=1,
        required=True,
        plural_en=True,
        step="deployment",
        what_if=5,
    ),
    Field(
        path="deployment.clouds",
        type="enum_list",
        label=("clouds in use", "使用的雲端"),
        description="Clouds in use or acceptable; empty = any; default [].",
        question=("Clouds in use or acceptable", "使用中或可接受的雲端"),
        help=("Leave all unticked if any cloud is acceptable.", "任何雲端都可以的話請全部不勾。"),
        values=vocabulary.CLOUDS,
        group="cloud",
        default=[],
        plural_en=True,
        step="deployment",
    ),
    Field(
        path="deployment.portability",
        type="enum",
        label=("portability", "可攜性"),
        description="Need to move between providers.",
        question=("Must you be able to move between providers?", "是否必須能在供應商之間轉移？"),
        help=(
            "Portability favours GPUs and standard stacks.",
            "可攜性需求有利於 GPU 與標準技術堆疊。",
        ),
        values=vocabulary.PORTABILITY,
        group="portability",
        required=True,
        step="deployment",
        widget="radio",
    ),
    Field(
        path="deployment.data_residency",
        type="enum",
        label=("data residency", "資料落地"),
        description="Where data may live.",
        question=("Data residency", "資料落地要求"),
        help=(
            "On-premises-only data rules out public clouds and so TPUs.",
            "資料只能留在自有機房時，排除公有雲，也就排除了 TPU。",
        ),
        values=vocabulary.RESIDENCY,
        group="residency",
        required=True,
        step="deployment",
        widget="radio",
        what_if=7,
    ),
    Field(
        path="deployment.china_connectivity",
        type="boolean",
        label=("China connectivity", "中國大陸連線"),
        description=(
            "Optional since v1 (was required): users or data in mainland China must be reached. "
            "Default: whether organization.regions includes mainland_china, so the question is "
            "asked once."
        ),
    ),
    # -------------------- cost
    Field(
        path="cost",
        type="section",
        label=("cost", "成本"),
    ),
    Field(
        path="cost.billing",
        type="enum",
        label=("billing preference", "計費偏好"),
        description="Billing preference.",
        question=("How do you prefer to pay?", "您偏好的付費方式？"),
        help=(
            "Cost is more than the hourly price: idle time, contracts and staff count too.",
            "成本不只是時租價格：閒置時間、合約與人力都要算。",
        ),
        values=vocabulary.BILLING,
        group="billing",
        required=True,
        step="cost",
        widget="radio",
    ),
    Field(
        path="cost.monthly_budget_usd",
        type="number",
        label=("monthly budget (USD)", "每月預算（美元）"),
        description="Monthly budget in USD; null = not stated.",
        question=("Monthly budget in USD (optional)", "每月預算（美元，選填）"),
        help=("Leave empty if you have not set one.", "尚未設定請留空。"),
        minimum=0,
        maximum=10000000000.0,
        nullable=True,
        default=None,
        unit=("US${n} a month", "每月 {n} 美元"),
        step="cost",
    ),
    Field(
        path="cost.hours_per_day",
        type="number",
        label=("hours of use per day", "每日使用時數"),
        description="Hours per day the accelerators are busy (0..24).",
        question=("Hours per day the accelerators are busy", "加速器每天忙碌的小時數"),
        help=(
            "0 to 24. Below the break-even hours, hourly billing beats a monthly server.",
            "0 到 24。低於損益平衡時數時，按小時計費比月租伺服器划算。",
        ),
        minimum=0,
        maximum=24,
        required=True,
        unit=("{n} hours a day", "每天 {n} 小時"),
        plural_en=True,
        step="cost",
        what_if=1,
        what_if_help=("0 to 24.", "0 至 24。"),
    ),
    Field(
        path="cost.ops_capacity",
        type="enum",
        label=("operations capacity", "維運人力"),
        description="Operations staff available.",
        question=("Operations staff", "維運人力"),
        help=(
            "Bare metal and private cloud need people to run them; managed cloud needs fewer.",
            "裸機與私有雲需要人力維運；託管雲端需要的較少。",
        ),
        values=vocabulary.OPS_CAPACITY,
        group="ops",
        required=True,
        step="cost",
        widget="radio",
    ),
    Field(
        path="cost.ops_headcount",
        type="integer",
        label=("operations headcount", "維運人數"),
        description=(
            "Optional, added in v1: people who operate the infrastructure. When given, the staff "
            "cost prices the operations hours at the team's regional rate up to what this many "
            "people work in a month, and buys the rest in (the ops_capacity none premium); without "
            "it, ops_capacity decides."
        ),
        question=("Operations headcount (optional)", "維運人數（選填）"),
        help=(
            (
                "People who run the servers. Their working hours are priced at their regional "
                "wage; hours beyond what they can do are bought in at a premium."
            ),
            (
                "負責維運伺服器的人數。其工時以所在地區的薪資計算；超出其能力的工時以較高的外包費率"
                "計算。"
            ),
        ),
        minimum=0,
        maximum=vocabulary.MAX_OPS_HEADCOUNT,
        unit=("{n} people", "{n} 人"),
        step="cost",
    ),
    Field(
        path="cost.ops_region",
        type="enum",
        label=("where the operations staff work", "維運人員所在地"),
        description=(
            "Optional, added in v1: where the operations staff work, for their wage. Default: the "
            "first of organization.regions."
        ),
        question=("Where the operations staff work (optional)", "維運人員所在地（選填）"),
        help=(
            (
                "Sets their wage: sourced for Hong Kong, Tokyo and the US; elsewhere the US figure "
                "is used. Leave empty for your first region."
            ),
            (
                "決定其薪資：香港、東京與美國有公開來源；其他地區採用美國的數字。留空則採用您所選的"
                "第一個區域。"
            ),
        ),
        values=vocabulary.REGIONS,
        group="region",
        step="cost",
        widget="select",
    ),
    Field(
        path="cost.amortisation_months",
        type="integer",
        label=("months to pay off owned hardware", "自有硬體的攤提月數"),
        description=(
            "Optional, added in v1: months over which owned hardware (private cloud, on premises) "
            "is paid off in its monthly cost. Default: the catalog's default_amortisation_months "
            "(36)."
        ),
        question=("Months to pay off owned hardware (optional)", "自有硬體的攤提月數（選填）"),
        help=(
            (
                "Private cloud and on-premises servers are priced as their purchase spread over "
                "this many months, plus power, colocation, support and staff. Leave empty for 36 "
                "months."
            ),
            (
                "私有雲與地端伺服器以購置價分攤到這些月份計價，再加上電力、機房託管、維護支援與人力"
                "。留空則為 36 個月。"
            ),
        ),
        minimum=vocabulary.MIN_AMORTISATION_MONTHS,
        maximum=vocabulary.MAX_AMORTISATION_MONTHS,
        step="cost",
    ),
    Field(
        path="cost.capex_budget_usd",
        type="number",
        label=("hardware purchase budget", "硬體購置預算"),
        description=(
            "Optional, added in v1: the most the team may spend buying owned hardware, in USD; an "
            "owned option whose purchase exceeds it says so. null = not stated."
        ),
        question=("Hardware purchase budget in USD (optional)", "硬體購置預算（美元，選填）"),
        help=(
            "For owned hardware: the report says when the purchase is over it.",
            "適用於自有硬體：購置費用超出時，報告會註明。",
        ),
        minimum=0,
        maximum=100000000000.0,
        nullable=True,
        default=None,
        step="cost",
    ),
    # -------------------- model
    Field(
        path="model",
        type="section",
        label=("model", "模型"),
    ),
    Field(
        path="model.preset",
        type="enum",
        label=("model preset", "預設模型"),
        description="A bundled model preset (published config.json).",
        question=("Published model", "公開模型"),
        values=vocabulary.preset_ids,
        group="preset",
        step="model",
        widget="select",
    ),
    Field(
        path="model.architecture",
        type="section",
        label=("model architecture", "模型架構"),
    ),
    Field(
        path="model.architecture.parameters",
        type="integer",
        label=("parameters", "參數量"),
        description="Total parameter count (10^6 .. 10^13).",
        question=("Parameters", "參數量"),
        help=("Total count, e.g. 8030000000.", "總數，例如 8030000000。"),
        minimum=1000000,
        maximum=vocabulary.MAX_PARAMETERS,
        required=True,
        unit=("{n} parameters", "{n} 個參數"),
        plural_en=True,
        step="model",
    ),
    Field(
        path="model.architecture.layers",
        type="integer",
        label=("layers", "層數"),
        description="Decoder layers.",
        question=("Layers", "層數"),
        minimum=1,
        maximum=1000,
        required=True,
        unit=("{n} layers", "{n} 層"),
        plural_en=True,
        step="model",
    ),
    Field(
        path="model.architecture.hidden_size",
        type="integer",
        label=("hidden size", "隱藏維度"),
        description=(
            "Model width (the residual stream). Independent of the heads: the attention projects "
            "it to kv_heads x kv_group_size x head_dim, which need not equal it (Gemma 7B: 3,072 "
            "wide, 16 x 256 = 4,096)."
        ),
        question=("Hidden size", "隱藏維度"),
        minimum=64,
        maximum=131072,
        required=True,
        step="model",
    ),
    Field(
        path="model.architecture.intermediate_size",
        type="integer",
        label=("intermediate size", "中間層維度"),
        description="MLP width (per projection).",
        question=("MLP intermediate size", "MLP 中間維度"),
        minimum=64,
        maximum=1048576,
        required=True,
        step="model",
    ),
    Field(
        path="model.architecture.kv_heads",
        type="integer",
        label=("KV heads", "KV 頭數"),
        description="Key/value heads (GQA; 1 = multi-query, as many as heads = MHA).",
        question=("Key/value heads", "Key/Value 頭數"),
        help=(
            "num_key_value_heads in config.json, e.g. 8 for Llama-3-70B.",
            "即 config.json 的 num_key_value_heads，例如 Llama-3-70B 為 8。",
        ),
        minimum=1,
        maximum=vocabulary.MAX_HEADS,
        required=True,
        unit=("{n} heads", "{n} 個頭"),
        plural_en=True,
        step="model",
    ),
    Field(
        path="model.architecture.kv_group_size",
        type="integer",
        label=("query heads per KV head", "每個 KV 頭的查詢頭數"),
        description=(
            "Added in v3 (with kv_heads, replaces v2's attention_heads): query heads that share "
            "one key/value head. The attention heads are kv_heads x kv_group_size (Llama-3-70B: 8 "
            "x 8 = 64; 1 = multi-head attention)."
        ),
        question=("Query heads per key/value head", "每個 Key/Value 頭對應的查詢頭數"),
        help=(
            (
                "The attention heads are the key/value heads times this: 8 for Llama-3-70B (64 "
                "heads over 8), 1 when every head has its own."
            ),
            (
                "注意力頭數 = Key/Value 頭數 × 此數：Llama-3-70B 為 8（64 個頭除以 "
                "8）；每個頭各有自己的 Key/Value 時為 1。"
            ),
        ),
        minimum=1,
        maximum=vocabulary.MAX_HEADS,
        required=True,
        unit=("{n} heads", "{n} 個頭"),
        plural_en=True,
        step="model",
    ),
    Field(
        path="model.architecture.head_dim",
        type="integer",
        label=("head dimension", "頭維度"),
        description=(
            "Required since v3 (v2 derived it from hidden_size / attention_heads): the size of one "
            "attention head (64, 128, 256 in published models)."
        ),
        question=("Head dimension", "每頭維度"),
        help=(
            "head_dim in config.json; else the hidden size over the attention heads.",
            "即 config.json 的 head_dim；若無，則為隱藏維度除以注意力頭數。",
        ),
        minimum=vocabulary.MIN_HEAD_DIM,
        maximum=vocabulary.MAX_HEAD_DIM,
        required=True,
        step="model",
    ),
    Field(
        path="model.architecture.vocab_size",
        type="integer",
        label=("vocabulary size", "詞彙量"),
        description="Vocabulary size.",
        question=("Vocabulary size", "詞彙表大小"),
        minimum=1,
        maximum=2000000,
        required=True,
        step="model",
    ),
    Field(
        path="model.architecture.tied_embeddings",
        type="boolean",
        label=("tied embeddings", "共用嵌入層"),
        description="Input embedding and output head share weights.",
        question=("Input and output embeddings shared", "輸入與輸出嵌入共用權重"),
        required=True,
        plural_en=True,
        step="model",
    ),
    Field(
        path="model.architecture.experts_per_token",
        type="integer",
        label=("experts per token", "每個 token 使用的專家數"),
        description=(
            "Optional, mixture of experts (with inactive_experts): routed experts each token is "
            "sent to (top-k); intermediate_size is then one expert's MLP width. Default: a dense "
            "model."
        ),
        question=(
            "Experts used per token (mixture of experts, optional)",
            "每個 token 使用的專家數（專家混合模型，選填）",
        ),
        help=(
            (
                "Leave empty for a dense model. For a mixture of experts, e.g. 2 for Mixtral-8x7B; "
                "the MLP size above is then one expert's."
            ),
            (
                "密集模型請留空。專家混合模型例如 Mixtral-8x7B 為 2；此時上方的 MLP "
                "維度為單一專家的維度。"
            ),
        ),
        minimum=1,
        maximum=vocabulary.MAX_EXPERTS,
        unit=("{n} experts", "{n} 個專家"),
        step="model",
    ),
    Field(
        path="model.architecture.inactive_experts",
        type="integer",
        label=("experts a token is not routed to", "token 不會路由到的專家數"),
        description=(
            "Added in v3 (with experts_per_token, replaces v2's experts): routed experts per MoE "
            "layer that a token is not sent to. The experts per layer are experts_per_token + "
            "inactive_experts (Mixtral-8x7B: 2 + 6 = 8; DeepSeek-V3: 8 + 248 = 256)."
        ),
        question=("Experts per layer a token is not routed to", "每層中 token 不會路由到的專家數"),
        help=(
            "The experts per layer less those used: 6 for Mixtral-8x7B (8 less 2).",
            "每層專家數減去使用的專家數：Mixtral-8x7B 為 6（8 減 2）。",
        ),
        minimum=0,
        maximum=vocabulary.MAX_EXPERTS - 1,
        unit=("{n} experts", "{n} 個專家"),
        plural_en=True,
        step="model",
    ),
    Field(
        path="model.architecture.active_parameter_share",
        type="number",
        label=("share of parameters used per token", "每個 token 使用的參數比例"),
        description=(
            "Added in v3 (replaces v2's active_parameters): the share of the parameters a token "
            "uses, in (0, 1]; the active parameters are parameters x this share, rounded, at least "
            f"{vocabulary.MIN_ACTIVE_PARAMETERS:,} (DeepSeek-V3: 37.6 of 671 billion = 0.056). "
            "Default for a mixture of experts: parameters less the experts a token does not use, "
            "in every layer."
        ),
        question=(
            "Share of parameters used per token (optional)",
            "每個 token 使用的參數比例（選填）",
        ),
        help=(
            (
                "Above 0, at most 1: e.g. 0.056 for DeepSeek-V3 (37.6 of 671 billion). Memory "
                "holds every expert; compute uses this share. Derived from the shape when left "
                "empty."
            ),
            (
                "大於 0、至多 1：例如 DeepSeek-V3 為 0.056（6,710 億中的 376 "
                "億）。記憶體須容納所有專家；運算量只按此比例計算。留空時由模型形狀推算。"
            ),
        ),
        minimum=0,
        exclusive_minimum=True,
        maximum=1,
        step="model",
    ),
    Field(
        path="model.architecture.attention_heads",
        type="legacy",
        label=("attention heads", "注意力頭數"),
        unit=("{n} heads", "{n} 個頭"),
        plural_en=True,
    ),
    Field(
        path="model.architecture.experts",
        type="legacy",
        label=("experts", "專家數"),
        unit=("{n} experts", "{n} 個專家"),
        plural_en=True,
    ),
    Field(
        path="model.architecture.active_parameters",
        type="legacy",
        label=("active parameters", "啟用參數量"),
        unit=("{n} parameters", "{n} 個參數"),
        plural_en=True,
    ),
    # -------------------- training
    Field(
        path="training",
        type="section",
        label=("training", "訓練"),
    ),
    Field(
        path="training.method",
        type="enum",
        label=("training method", "訓練方法"),
        description="full fine-tune / pre-train, LoRA or QLoRA.",
        question=("Training method", "訓練方法"),
        help=(
            (
                "LoRA and QLoRA train small adapters: far less memory for gradients and optimizer "
                "state, often a single card instead of a cluster."
            ),
            (
                "LoRA 與 QLoRA "
                "只訓練小型轉接層：梯度與優化器狀態所需記憶體少得多，常常一張卡就夠，不必用叢集。"
            ),
        ),
        values=vocabulary.TRAINING_METHODS,
        group="method",
        required=True,
        step="training",
        widget="radio",
    ),
    Field(
        path="training.lora_rank",
        type="integer",
        label=("LoRA rank", "LoRA 秩"),
        description="LoRA rank; required for lora and qlora.",
        question=("LoRA rank", "LoRA 秩"),
        help=("For LoRA and QLoRA, e.g. 16.", "用於 LoRA 與 QLoRA，例如 16。"),
        minimum=1,
        maximum=4096,
        step="training",
    ),
    Field(
        path="training.precision",
        type="enum",
        label=("training precision", "訓練精度"),
        description=(
            "fp32 | bf16_mixed (fp32 master weights, bf16 compute) | bf16 (params, grads and "
            "optimizer state all bf16) | fp8_mixed."
        ),
        question=("Precision", "精度"),
        help=(
            "Sets bytes per parameter for weights, gradients and optimizer state.",
            "決定權重、梯度與優化器狀態每個參數佔用的位元組數。",
        ),
        values=vocabulary.TRAINING_PRECISIONS,
        group="training_precision",
        required=True,
        step="training",
        widget="select",
    ),
    Field(
        path="training.optimizer",
        type="enum",
        label=("optimizer", "優化器"),
        description="Optimizer.",
        question=("Optimizer", "優化器"),
        help=(
            "AdamW keeps two states per parameter; 8-bit AdamW and Adafactor keep less.",
            "AdamW 每個參數保存兩個狀態；8 位元 AdamW 與 Adafactor 保存較少。",
        ),
        values=vocabulary.OPTIMIZERS,
        group="optimizer",
        required=True,
        step="training",
        widget="select",
    ),
    Field(
        path="training.optimizer_impl",
        type="enum",
        label=("AdamW implementation", "AdamW 實作方式"),
        description=(
            "Optional, added in v1: how AdamW runs its step. fused (default) allocates no step "
            "scratch; foreach allocates a parameter-sized temporary."
        ),
        question=("AdamW implementation (optional)", "AdamW 實作方式（選填）"),
        help=(
            (
                "Fused AdamW (fused=True, or Hugging Face's adamw_torch_fused) needs no extra "
                "memory for its step; foreach needs a temporary the size of the parameters."
            ),
            (
                "融合 AdamW（fused=True，或 Hugging Face 的 "
                "adamw_torch_fused）更新步驟不需額外記憶體；foreach "
                "需要一塊與參數同大小的暫存空間。"
            ),
        ),
        values=vocabulary.OPTIMIZER_IMPLS,
        group="optimizer_impl",
        default="fused",
        step="training",
        widget="select",
    ),
    Field(
        path="training.micro_batch_size",
        type="integer",
        label=("micro-batch size", "micro-batch 大小"),
        description="Sequences per device per step.",
        question=("Micro-batch size", "微批次大小"),
        help=("Sequences per device per step.", "每個裝置每步處理的序列數。"),
        minimum=1,
        maximum=4096,
        required=True,
        unit=("{n} sequences", "{n} 個序列"),
        step="training",
    ),
    Field(
        path="training.sequence_length",
        type="integer",
        label=("sequence length", "序列長度"),
        description="Tokens per training sequence.",
        question=("Sequence length (tokens)", "序列長度（token）"),
        minimum=1,
        maximum=vocabulary.MAX_SEQUENCE_LENGTH,
        required=True,
        unit=("{n} tokens", "{n} 個 token"),
        step="training",
    ),
    Field(
        path="training.gradient_checkpointing",
        type="boolean",
        label=("gradient checkpointing", "梯度檢查點"),
        description="Activation checkpointing per decoder layer.",
        question=("Gradient checkpointing", "梯度檢查點"),
        help=(
            "Saves activation memory at the cost of about a third more compute.",
            "節省激活值記憶體，代價是約多三分之一的運算量。",
        ),
        required=True,
        step="training",
    ),
    Field(
        path="training.dataset_tokens",
        type="integer",
        label=("dataset tokens", "資料集 token 數"),
        description="Tokens per epoch (1 .. 10^15).",
        question=("Dataset size (tokens per epoch)", "資料集大小（每個 epoch 的 token 數）"),
        help=(
            "With the model size this gives the compute: about 6 × parameters × tokens.",
            "與模型大小一起決定運算量：約 6 × 參數量 × token 數。",
        ),
        minimum=1,
        maximum=vocabulary.MAX_DATASET_TOKENS,
        required=True,
        unit=("{n} tokens", "{n} 個 token"),
        plural_en=True,
        step="training",
    ),
    Field(
        path="training.epochs",
        type="number",
        label=("epochs", "訓練輪數"),
        description="Passes over the dataset; default 1.",
        question=("Epochs", "Epoch 數"),
        help=("Default 1.", "預設為 1。"),
        minimum=0,
        exclusive_minimum=True,
        maximum=1000,
        default=1,
        plural_en=True,
        step="training",
    ),
    Field(
        path="training.deadline_hours",
        type="number",
        label=("deadline (hours)", "期限（小時）"),
        description="Wall-clock hours the run must finish in; null = no deadline.",
        question=("Deadline (hours, optional)", "期限（小時，選填）"),
        help=(
            (
                "Time-to-result matters: a dearer card that finishes in 8 hours can beat a cheap "
                "one that takes 3 days. Leave empty for no deadline."
            ),
            "產出時間很重要：8 小時跑完的昂貴卡，可能勝過要跑 3 天的便宜卡。沒有期限請留空。",
        ),
        minimum=0,
        exclusive_minimum=True,
        maximum=100000,
        nullable=True,
        default=None,
        unit=("{n} hours", "{n} 小時"),
        step="training",
        what_if=4,
        what_if_help=("Leave empty for no deadline.", "留空表示沒有期限。"),
    ),
    # -------------------- inference
    Field(
        path="inference",
        type="section",
        label=("inference", "推論"),
    ),
    Field(
        path="inference.precision",
        type="enum",
        label=("inference precision", "推論精度"),
        description="Weight precision when serving.",
        question=("Serving precision", "服務精度"),
        help=(
            "Quantised weights (INT8/INT4) need less memory and bandwidth per token.",
            "量化權重（INT8/INT4）每個 token 需要的記憶體與頻寬較少。",
        ),
        values=vocabulary.INFERENCE_PRECISIONS,
        group="inference_precision",
        required=True,
        step="inference",
        widget="select",
    ),
    Field(
        path="inference.prompt_tokens",
        type="integer",
        label=("prompt tokens", "提示 token 數"),
        description=(
            "Added in v2 (replaces v1's context_tokens): prompt tokens per sequence, the input "
            "before the answer. The context a sequence holds is prompt_tokens + output_tokens "
            "(v1's context_tokens)."
        ),
        question=("Prompt tokens per sequence (the input)", "每個序列的提示 token 數（輸入）"),
        help=(
            (
                "The instructions, documents and conversation sent with each request, in tokens (0 "
                "if none)."
            ),
            "每次請求送出的指示、文件與對話內容，以 token 計（沒有則填 0）。",
        ),
        minimum=0,
        maximum=vocabulary.MAX_CONTEXT_TOKENS,
        required=True,
        unit=("{n} tokens", "{n} 個 token"),
        plural_en=True,
        step="inference",
    ),
    Field(
        path="inference.output_tokens",
        type="integer",
        label=("output tokens", "輸出 token 數"),
        description="Generated (answer) tokens per sequence.",
        question=("Answer tokens per sequence (the output)", "每個序列的回答 token 數（輸出）"),
        help=(
            (
                "The answer generated for each request. Prompt plus answer is the context each "
                "sequence holds; with concurrency it sizes the KV cache."
            ),
            (
                "每次請求所生成的回答。提示加上回答即每個序列所占的上下文；再乘上併發量就決定 KV "
                "快取大小。"
            ),
        ),
        minimum=1,
        maximum=vocabulary.MAX_CONTEXT_TOKENS,
        required=True,
        unit=("{n} tokens", "{n} 個 token"),
        plural_en=True,
        step="inference",
    ),
    Field(
        path="inference.concurrent_sequences",
        type="integer",
        label=("concurrent sequences", "並行序列數"),
        description="Sequences in flight at once.",
        question=("Concurrent sequences", "併發序列數"),
        help=("Requests in flight at the busiest time.", "最忙時同時處理中的請求數。"),
        minimum=1,
        maximum=100000,
        required=True,
        unit=("{n} sequences", "{n} 個序列"),
        plural_en=True,
        step="inference",
    ),
    Field(
        path="inference.p95_latency_ms",
        type="number",
        label=("p95 latency target (ms)", "p95 延遲目標（毫秒）"),
        description=(
            "p95 latency target in ms, measured as latency_metric says (default: the whole "
            "response, first token + all output tokens); null = no target."
        ),
        question=("p95 latency target (ms, optional)", "p95 延遲目標（毫秒，選填）"),
        help=(
            "Leave empty for batch work with no latency target.",
            "沒有延遲目標的批次工作請留空。",
        ),
        minimum=0,
        exclusive_minimum=True,
        maximum=600000,
        nullable=True,
        default=None,
        unit=("{n} ms", "{n} 毫秒"),
        step="inference",
        what_if=3,
        what_if_help=("Leave empty for no latency target.", "留空表示沒有延遲目標。"),
    ),
    Field(
        path="inference.latency_metric",
        type="enum",
        label=("what the latency target measures", "延遲目標所量測的對象"),
        description=(
            "Optional, added in v1: what p95_latency_ms measures. whole_response (default): time "
            "to the last output token; ttft: time to first token; tpot: time per output token "
            "after the first."
        ),
        question=("What the latency target measures (optional)", "延遲目標量測的是什麼（選填）"),
        help=(
            (
                "First words on screen: a chat reply starts within 500 ms (time to first token). "
                "Whole answer: a 300-word summary is complete within 10,000 ms. Per word: each "
                "further word arrives within 50 ms, faster than people read (time per output "
                "token). More servers let more people ask at once; they do not make one answer "
                "faster. Leave empty for the whole answer."
            ),
            (
                "第一個字出現：對話回覆在 500 毫秒內開始出現（首個 token 時間）。完整回答：一份 "
                "300 字的摘要在 10,000 毫秒內完整顯示。每個字：之後每個字在 50 "
                "毫秒內出現，比人閱讀的速度快（每個輸出 token "
                "時間）。增加伺服器能讓更多人同時提問，但不會讓單一回答變快。留空即為完整回答。"
            ),
        ),
        values=vocabulary.LATENCY_METRICS,
        group="latency_metric",
        default="whole_response",
        step="inference",
        widget="select",
    ),
    Field(
        path="inference.tokens_per_day",
        type="integer",
        label=("tokens per day", "每日 token 數"),
        description="Output tokens generated per day.",
        question=("Output tokens per day", "每日輸出 token 數"),
        help=("Decides how many devices you need.", "決定需要多少裝置。"),
        minimum=0,
        maximum=vocabulary.MAX_TOKENS_PER_DAY,
        required=True,
        unit=("{n} tokens a day", "每天 {n} 個 token"),
        plural_en=True,
        step="inference",
        what_if=2,
    ),
    Field(
        path="inference.traffic",
        type="enum",
        label=("traffic shape", "流量型態"),
        description="Shape of the request load.",
        question=("Traffic shape", "流量型態"),
        help=(
            "Bursty or seasonal traffic favours elastic capacity over fixed servers.",
            "突發或季節性流量較適合彈性容量，而非固定伺服器。",
        ),
        values=vocabulary.TRAFFIC,
        group="traffic",
        required=True,
        step="inference",
        widget="radio",
    ),
    Field(
        path="inference.peak_to_average",
        type="number",
        label=("peak-to-average traffic", "尖峰與平均流量比"),
        description=(
            "Optional, added in v1: busiest-hour token rate over the day's average (10 = peaks at "
            "ten times the average). Real-time serving is sized for the peak. Default: the "
            "catalog's figure for `traffic`."
        ),
        question=("Peak-to-average traffic (optional)", "尖峰與平均流量比（選填）"),
        help=(
            (
                "How many times the day's average token rate your busiest hour reaches: about 2 "
                "for a daily cycle, 10 for launches or campaigns (1 to 100). Real-time serving is "
                "sized for it. Leave empty to use the traffic shape."
            ),
            (
                "最忙的一小時達到全天平均 token 速率的幾倍：每日週期約 2，產品發表或行銷活動約 "
                "10（1 到 100）。即時推論依此配置容量。留空則依流量型態推估。"
            ),
        ),
        minimum=1,
        maximum=100,
        unit=("{n} times the average", "平均的 {n} 倍"),
        step="inference",
    ),
    Field(
        path="inference.availability",
        type="enum",
        label=("what the service must survive", "服務須承受的故障"),
        description=(
            "Optional, added in v1: what a realtime_inference service must survive. "
            "survive_one_failure (default): one spare server (N+1) so a failed server still leaves "
            "capacity for the peak; best_effort: no spare, an outage is accepted; dev_test: "
            "development or test, no spare."
        ),
        question=(
            "What must a real-time service survive? (optional)",
            "即時服務須承受哪些故障？（選填）",
        ),
        help=(
            (
                "A production service plans one spare server, so that a failed server still leaves "
                "capacity for the peak. Leave empty for production."
            ),
            (
                "正式環境的服務會多規劃一台備援伺服器，使一台伺服器故障時仍有足夠容量應付尖峰。留空"
                "即視為正式環境。"
            ),
        ),
        values=vocabulary.AVAILABILITY,
        group="availability",
        default="survive_one_failure",
        step="inference",
        widget="radio",
    ),
    Field(
        path="inference.batch_window_hours",
        type="number",
        label=("batch window (hours)", "批次時段（小時）"),
        description=(
            "Optional, added in v1: hours a batch_inference run must finish in each day, from "
            "batch_window_start_hour; its run time (with provisioning, container start and loading "
            "the weights) is checked against it as a deadline is. Default: none (the run spreads "
            "over cost.hours_per_day)."
        ),
        question=("Batch window in hours (optional)", "批次時段長度（小時，選填）"),
        help=(
            (
                "For a daily batch job: the hours each run must finish in, e.g. 4 for 01:00 to "
                "05:00. The run, with its start-up, is checked against it like a deadline."
            ),
            (
                "適用於每日批次工作：每次執行必須完成的時數，例如 01:00 到 05:00 為 "
                "4。執行時間（含啟動）會像截止期限一樣與之比對。"
            ),
        ),
        minimum=0,
        exclusive_minimum=True,
        maximum=24,
        unit=("{n} hours", "{n} 小時"),
        step="inference",
    ),
    Field(
        path="inference.batch_window_start_hour",
        type="integer",
        label=("batch window start (hour)", "批次時段開始（時）"),
        description=(
            "Optional, added in v1: local hour the batch window opens (1 = 01:00); needs "
            "batch_window_hours. Default: not stated."
        ),
        question=("Batch window opens at (hour, optional)", "批次時段開始時間（時，選填）"),
        help=("Local hour, 0 to 23: 1 means 01:00.", "當地時間 0 到 23 時：1 代表 01:00。"),
        minimum=0,
        maximum=23,
        unit=("{n}:00", "{n}:00"),
        step="inference",
    ),
    Field(
        path="inference.batch_window_firmness",
        type="enum",
        label=("hard or soft batch window", "批次時段為硬性或彈性"),
        description=(
            "Optional, added in v1: hard = a run past the window is a missed deadline (ranks after "
            "every option that meets it); soft = it is flagged. Needs batch_window_hours."
        ),
        question=(
            "Is the batch window hard or soft? (optional)",
            "批次時段為硬性還是彈性？（選填）",
        ),
        help=(
            "A hard window ranks a plan that overruns it after every plan that fits.",
            "硬性時段會把超出時段的方案排在所有能在時段內完成的方案之後。",
        ),
        values=vocabulary.BATCH_WINDOW_FIRMNESS,
        group="batch_window",
        default="hard",
        step="inference",
        widget="radio",
    ),
    Field(
        path="inference.context_tokens",
        type="legacy",
        label=("context tokens", "上下文 token 數"),
        question=(
            "Context per sequence (prompt + answer tokens)",
            "每個序列的上下文（提示 + 回答 token）",
        ),
        unit=("{n} tokens", "{n} 個 token"),
        plural_en=True,
    ),
    # -------------------- work
    Field(
        path="work",
        type="section",
        label=("work in its own unit", "以自身單位計量的工作"),
    ),
    Field(
        path="work.unit",
        type="enum",
        label=("unit of work", "工作計量單位"),
        description=(
            "What the model works on: images (vision), audio_hours (speech recognition), passages "
            "(embedding) or pairs (query-passage reranking)."
        ),
        question=("What your model works on", "您的模型處理什麼"),
        help=(
            (
                "A vision model is sized in images, speech recognition in hours of audio, "
                "embedding in passages and a reranker in query-passage pairs, each from published "
                "throughput per card."
            ),
            (
                "視覺模型以圖片估算，語音辨識以音訊時數估算，嵌入向量以段落估算，重新排序模型以查詢"
                "與段落配對估算，皆依每張卡的公開處理量。"
            ),
        ),
        values=vocabulary.WORK_UNITS,
        group="work_unit",
        required=True,
        step="work",
        widget="radio",
    ),
    Field(
        path="work.model",
        type="enum",
        label=("model for the unit", "該單位的模型"),
        description=(
            "The model, from the catalog's unit_workloads (each works in one unit: resnet-50 "
            "images, whisper-large-v3-turbo audio_hours, bge-large-en-v1.5 passages, "
            "bge-reranker-large pairs)."
        ),
        question=(
            "Model (for images, audio, passages or pairs)",
            "模型（用於圖片、音訊、段落或配對）",
        ),
        help=(
            "The published model closest to yours; its size and throughput are sourced.",
            "與您的模型最接近的公開模型；其大小與處理量皆有來源。",
        ),
        values=vocabulary.WORK_MODELS,
        group="work_model",
        required=True,
        step="work",
        widget="select",
    ),
    Field(
        path="work.per_day",
        type="number",
        label=("volume a day", "每日工作量"),
        description=(
            f"Volume a day in the unit (at least {vocabulary.MIN_WORK_PER_DAY}): images, hours of "
            "audio, passages or pairs."
        ),
        question=("Volume a day", "每日工作量"),
        help=(
            "Images a day, hours of audio a day, passages a day or query-passage pairs a day.",
            "每天的圖片數、音訊時數、段落數，或查詢與段落配對數。",
        ),
        minimum=vocabulary.MIN_WORK_PER_DAY,
        maximum=vocabulary.MAX_WORK_PER_DAY,
        required=True,
        step="work",
    ),
    Field(
        path="work.p95_latency_ms",
        type="number",
        label=("p95 latency per image or request", "每張圖片或每次請求的 p95 延遲"),
        description="p95 latency target per image or per request in ms; null = none.",
        question=(
            "p95 latency per image or request (ms, optional)",
            "每張圖片或每次請求的 p95 延遲（毫秒，選填）",
        ),
        help=(
            "For real-time serving: e.g. 100 ms per image. Leave empty for batch work.",
            "用於即時服務：例如每張圖片 100 毫秒。批次工作請留空。",
        ),
        minimum=0,
        exclusive_minimum=True,
        maximum=600000,
        nullable=True,
        default=None,
        step="work",
    ),
    Field(
        path="work.peak_to_average",
        type="number",
        label=("peak-to-average load", "尖峰與平均負載比"),
        description=(
            "Busiest hour over the day's average for real-time serving. Default: the catalog's "
            "figure for a daily cycle."
        ),
        question=("Peak-to-average load (optional)", "尖峰與平均負載比（選填）"),
        help=(
            (
                "How many times the day's average your busiest hour reaches (1 to 100). Leave "
                "empty for a daily cycle."
            ),
            "最忙碌的一小時是全日平均的幾倍（1 至 100）。每日循環請留空。",
        ),
        minimum=1,
        maximum=100,
        step="work",
    ),
    # -------------------- derived
    Field(
        path="derived.utilisation",
        type="derived",
        label=("daily utilisation", "每日使用率"),
    ),
    Field(
        path="derived.latency_class",
        type="derived",
        label=("latency class", "延遲等級"),
        group="latency_class",
    ),
    Field(
        path="derived.tpu_region_coverage",
        type="derived",
        label=("TPU region coverage", "TPU 區域覆蓋"),
        group="tpu_region_coverage",
    ),
    Field(
        path="derived.training_scale",
        type="derived",
        label=("training compute scale", "訓練運算規模"),
    ),
)
