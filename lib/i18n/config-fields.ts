// Simplified Chinese titles and help texts of the settings in lib/config/schema.ts, for the Settings page
// when the UI language is zh-CN. The config API keeps the schema's English texts; only the web UI uses these.
// A plain data module (no imports), so client components may use it. config-fields.test.ts checks that it
// has exactly one entry per schema key and key pattern (LLM_<CHANNEL>_…).

export type ConfigFieldText = {
  title: string;
  description: string;
  /** Labels of select options, by option value (options not listed keep the schema's label). */
  options?: Readonly<Record<string, string>>;
};

export type ConfigFieldTexts = Readonly<Record<string, ConfigFieldText>>;

const SEVERITY_OPTIONS = { info: "提示", warning: "警告", error: "错误", critical: "严重" } as const;

const notificationChannels = (kind: string): string =>
  `${kind}发送到的渠道，以逗号分隔；留空时发送到所有已配置的渠道。`;

export const CONFIG_FIELD_TEXTS_ZH: ConfigFieldTexts = {
  // ---- base
  STOCK_LIST: {
    title: "自选股列表",
    description: "定时任务分析的股票代码或名称，以逗号分隔（粘贴进来的空格、换行和全角逗号会在保存时统一转换为逗号）。",
  },
  REPORT_LANGUAGE: {
    title: "报告语言",
    description: "报告的默认语言：zh 或 en。zh-CN、chinese、en-US 等别名会按 zh / en 识别；其他值一律按 zh 处理。",
  },
  REPORT_TYPE: {
    title: "定时报告类型",
    description: "定时报告的详细程度：simple、full 或 brief（detailed 按 full 处理）。",
    options: { simple: "简要", full: "完整", brief: "简报" },
  },

  // ---- ai_model
  LLM_CHANNELS: {
    title: "大模型渠道",
    description:
      "渠道名称，以逗号分隔。每个渠道通过 LLM_<NAME>_PROTOCOL、_BASE_URL、_API_KEY 和 _MODELS 配置。配置了渠道时，渠道优先于下方的单一服务商密钥。",
  },
  OPENAI_API_KEY: {
    title: "OpenAI 兼容 API 密钥",
    description: "OpenAI 兼容接口的 API 密钥（未配置任何渠道时使用）。",
  },
  OPENAI_BASE_URL: {
    title: "OpenAI 兼容接口地址",
    description: "OpenAI 兼容接口的基础地址（Base URL），例如 https://api.openai.com/v1。",
  },
  OPENAI_MODEL: {
    title: "OpenAI 兼容模型",
    description: "发送给 OpenAI 兼容接口的模型名称。",
  },
  DEEPSEEK_API_KEY: {
    title: "DeepSeek API 密钥",
    description: "DeepSeek 官方 API 密钥（未配置任何渠道时使用）。",
  },

  // ---- data_source
  MARKET_DATA_SOURCES: {
    title: "行情数据源",
    description: "获取 K 线和报价时依次尝试的数据源，以逗号分隔。",
  },
  MARKET_DATA_TIMEOUT_MS: {
    title: "单个数据源时限（毫秒）",
    description: "单个数据源处理一次 K 线或报价请求（含重试）可用的时间，超时后改用下一个数据源。",
  },
  SAMPLE_LATENCY_MS: {
    title: "示例数据源延迟（毫秒）",
    description: "离线示例数据源的人为延迟，用于演示和测试。",
  },
  CSV_DATA_DIR: {
    title: "CSV 数据目录",
    description: "csv 数据源读取的 <代码>.csv 日线文件所在目录（相对于工作目录）。",
  },
  TAVILY_API_KEYS: {
    title: "Tavily API 密钥",
    description: "以逗号分隔的 Tavily 密钥（轮换使用）。",
  },
  SERPAPI_API_KEYS: {
    title: "SerpAPI 密钥",
    description: "以逗号分隔的 SerpAPI 密钥（轮换使用）。",
  },
  BOCHA_API_KEYS: {
    title: "博查 API 密钥",
    description: "以逗号分隔的博查（Bocha）搜索密钥（轮换使用）。",
  },
  BRAVE_API_KEYS: {
    title: "Brave Search API 密钥",
    description: "以逗号分隔的 Brave Search 密钥（轮换使用）。",
  },

  // ---- notification
  PUBLIC_BASE_URL: {
    title: "公开访问地址",
    description:
      "用户打开网页界面所用的地址（例如 https://dsa.example.com）；通知中的链接指向 <base>/history/<id>。留空时为 http://localhost:<PORT>。",
  },
  WECHAT_WEBHOOK_URL: {
    title: "企业微信 Webhook 地址",
    description: "企业微信群机器人的 Webhook（地址中包含其 key）。",
  },
  FEISHU_WEBHOOK_URL: {
    title: "飞书 Webhook 地址",
    description: "飞书自定义机器人的 Webhook，用于发送群消息。",
  },
  FEISHU_WEBHOOK_SECRET: {
    title: "飞书 Webhook 签名密钥",
    description: "飞书自定义机器人的签名校验密钥（可选）。",
  },
  FEISHU_WEBHOOK_KEYWORD: {
    title: "飞书 Webhook 关键词",
    description: "飞书机器人要求的自定义关键词（可选），会加在每条消息的开头。",
  },
  FEISHU_APP_ID: {
    title: "飞书应用 App ID",
    description: "飞书应用机器人的 App ID（应用模式；不会启用 Webhook）。",
  },
  FEISHU_APP_SECRET: {
    title: "飞书应用 App Secret",
    description: "飞书应用机器人的 App Secret。",
  },
  FEISHU_CHAT_ID: {
    title: "飞书会话 ID",
    description: "飞书应用机器人的目标 chat_id（oc_…）或 open_id（ou_…）。",
  },
  DINGTALK_WEBHOOK_URL: {
    title: "钉钉 Webhook 地址",
    description: "钉钉群机器人的 Webhook（地址中包含其 access token）。",
  },
  DINGTALK_SECRET: {
    title: "钉钉加签密钥",
    description: "钉钉机器人的加签密钥；未开启加签时留空。",
  },
  TELEGRAM_BOT_TOKEN: {
    title: "Telegram 机器人 Token",
    description: "从 @BotFather 获取的机器人 Token。",
  },
  TELEGRAM_CHAT_ID: {
    title: "Telegram 会话 ID",
    description: "接收消息的会话或群组 ID。",
  },
  TELEGRAM_MESSAGE_THREAD_ID: {
    title: "Telegram 话题 ID",
    description: "论坛群组中的话题（thread）ID（可选）。",
  },
  TELEGRAM_API_BASE_URL: {
    title: "Telegram API 地址",
    description: "Bot API 服务器（自建的 Bot API 服务器或代理）；默认使用 Telegram 官方服务器。",
  },
  EMAIL_SENDER: {
    title: "发件人邮箱",
    description: "发件人地址；SMTP 服务器根据其域名推断。",
  },
  EMAIL_PASSWORD: {
    title: "邮箱密码",
    description: "SMTP 密码或应用专用授权码。",
  },
  EMAIL_SMTP_HOST: {
    title: "SMTP 服务器",
    description:
      "SMTP 主机名或 IP 地址（不含端口，端口见 EMAIL_SMTP_PORT）；留空时根据发件人的域名推断（smtp.<domain>）。设置了主机时，密码可以不填（开放中继）。",
  },
  EMAIL_SMTP_PORT: {
    title: "SMTP 端口",
    description: "SMTP 端口；465 从连接开始就使用 TLS，其他端口在服务器支持时使用 STARTTLS；0 表示自动推断（465）。",
  },
  EMAIL_RECEIVERS: {
    title: "收件人邮箱",
    description: "以逗号分隔的收件人；留空时发送给发件人自己。",
  },
  PUSHOVER_USER_KEY: {
    title: "Pushover 用户密钥",
    description: "Pushover 用户密钥（User Key）。",
  },
  PUSHOVER_API_TOKEN: {
    title: "Pushover API Token",
    description: "Pushover 应用的 Token。",
  },
  NTFY_URL: {
    title: "ntfy 地址",
    description: "包含主题（topic）的完整 ntfy 发布地址，例如 https://ntfy.sh/my-topic。",
  },
  NTFY_TOKEN: {
    title: "ntfy Token",
    description: "受保护主题使用的 Bearer Token（可选）。",
  },
  GOTIFY_URL: {
    title: "Gotify 地址",
    description: "Gotify 服务器的基础地址（不含 /message）。",
  },
  GOTIFY_TOKEN: {
    title: "Gotify Token",
    description: "Gotify 应用的 Token。",
  },
  PUSHPLUS_TOKEN: {
    title: "推送加（PushPlus）Token",
    description: "推送加（PushPlus）的 Token。",
  },
  PUSHPLUS_TOPIC: {
    title: "推送加（PushPlus）群组编码",
    description: "推送加群组的编码（topic），用于一对多推送。",
  },
  SERVERCHAN3_SENDKEY: {
    title: "Server酱³ SendKey",
    description: "Server酱³ 的 SendKey。",
  },
  CUSTOM_WEBHOOK_URLS: {
    title: "自定义 Webhook 地址",
    description:
      "以逗号分隔的 Webhook 地址（Bark、Discord、Slack、自建服务等）。这类地址通常内含密钥，因此会隐藏显示。",
  },
  CUSTOM_WEBHOOK_BEARER_TOKEN: {
    title: "自定义 Webhook Bearer Token",
    description: "发送给需要认证的自定义 Webhook 的 Bearer Token。",
  },
  CUSTOM_WEBHOOK_BODY_TEMPLATE: {
    title: "自定义 Webhook 请求体模板",
    description: "可选的 JSON 请求体模板；其中的 $content_json 和 $title_json 会被替换为 JSON 字符串。",
  },
  DISCORD_WEBHOOK_URL: {
    title: "Discord Webhook 地址",
    description: "Discord 频道的 Webhook。",
  },
  DISCORD_BOT_TOKEN: {
    title: "Discord 机器人 Token",
    description: "Discord 机器人 Token（机器人模式）。",
  },
  DISCORD_MAIN_CHANNEL_ID: {
    title: "Discord 频道 ID",
    description: "Discord 机器人发送消息的频道。",
  },
  SLACK_WEBHOOK_URL: {
    title: "Slack Webhook 地址",
    description: "Slack 的 Incoming Webhook（仅支持纯文本）。",
  },
  SLACK_BOT_TOKEN: {
    title: "Slack 机器人 Token",
    description: "Slack 机器人 Token（xoxb-…）；与 Webhook 同时设置时优先使用它。",
  },
  SLACK_CHANNEL_ID: {
    title: "Slack 频道 ID",
    description: "Slack 机器人发送消息的频道。",
  },
  ASTRBOT_URL: {
    title: "AstrBot 地址",
    description: "AstrBot 的 Webhook 接口地址。",
  },
  ASTRBOT_TOKEN: {
    title: "AstrBot Token",
    description: "AstrBot 的 Bearer Token（可选）。",
  },
  WEB_PUSH_VAPID_PUBLIC_KEY: {
    title: "Web Push 公钥",
    description:
      "浏览器推送渠道（webpush）的 VAPID 公钥。第一个浏览器订阅时与私钥一起生成；更换后所有浏览器需重新订阅。",
  },
  WEB_PUSH_VAPID_PRIVATE_KEY: {
    title: "Web Push 私钥",
    description: "为每条推送签名的 VAPID 私钥；与公钥一起生成。",
  },
  WEB_PUSH_SUBJECT: {
    title: "Web Push 联系方式",
    description:
      "浏览器推送服务可联系到你的 mailto: 地址或 https: 网址（VAPID sub）。留空时：PUBLIC_BASE_URL 为 https 时用它，否则用 mailto:admin@localhost。",
  },
  BOT_ALLOWLIST: {
    title: "机器人白名单",
    description:
      "谁可以向聊天机器人发命令：平台:ID（telegram:123456789、feishu:oc_…、dingtalk:cid…、wecom:zhangsan），每项是会话 ID 或用户 ID，逗号分隔。留空时机器人拒绝所有人（每个会话只提示一次）。",
  },
  BOT_RATE_LIMIT_PER_MINUTE: {
    title: "机器人每会话每分钟消息数",
    description: "一个会话每分钟最多可发的命令数；超出时机器人提示一次并等待。",
  },
  TELEGRAM_BOT_MODE: {
    title: "Telegram 机器人",
    description:
      "off 关闭；webhook（Telegram 推送到 /webhooks/telegram，需要公网地址）；polling（服务主动拉取新消息，无需公网地址）。使用 TELEGRAM_BOT_TOKEN。",
  },
  TELEGRAM_WEBHOOK_SECRET: {
    title: "Telegram Webhook 密钥",
    description:
      "setWebhook 时设置的 secret_token：Telegram 在 X-Telegram-Bot-Api-Secret-Token 中带上它，其他请求一律拒绝。webhook 模式必填。",
  },
  FEISHU_BOT_ENABLED: {
    title: "飞书机器人",
    description:
      "回复发给飞书应用的消息（事件订阅地址 /webhooks/feishu），用 FEISHU_APP_ID 和 FEISHU_APP_SECRET 回复。",
  },
  FEISHU_VERIFICATION_TOKEN: {
    title: "飞书 Verification Token",
    description: "事件订阅的 Verification Token；带其他 Token 的事件一律拒绝。",
  },
  FEISHU_ENCRYPT_KEY: {
    title: "飞书 Encrypt Key",
    description: "事件订阅的 Encrypt Key：用它解密事件并校验签名。未开启加密时留空。",
  },
  FEISHU_API_BASE_URL: {
    title: "飞书开放平台地址",
    description: "机器人回复所用的开放平台；Lark 用户填 https://open.larksuite.com。",
  },
  DINGTALK_BOT_ENABLED: {
    title: "钉钉机器人",
    description: "回复 @ 钉钉机器人的消息（地址 /webhooks/dingtalk），回复发到会话的 sessionWebhook。",
  },
  DINGTALK_APP_SECRET: {
    title: "钉钉机器人 AppSecret",
    description: "机器人的 AppSecret：用它校验每个请求的 timestamp 和 sign 请求头。",
  },
  WECOM_BOT_ENABLED: {
    title: "企业微信机器人",
    description: "回复发给企业微信自建应用的消息（回调地址 /webhooks/wecom）。",
  },
  WECOM_CORP_ID: {
    title: "企业微信 CorpID",
    description: "企业的 CorpID。",
  },
  WECOM_CORP_SECRET: {
    title: "企业微信应用 Secret",
    description: "自建应用的 Secret，用于获取发送回复的 access_token。",
  },
  WECOM_AGENT_ID: {
    title: "企业微信 AgentId",
    description: "自建应用的 AgentId。",
  },
  WECOM_TOKEN: {
    title: "企业微信回调 Token",
    description: "回调配置的 Token：用它校验每个请求的 msg_signature。",
  },
  WECOM_ENCODING_AES_KEY: {
    title: "企业微信 EncodingAESKey",
    description: "回调配置的 EncodingAESKey（43 个字符）：用它解密消息。",
  },
  WECOM_API_BASE_URL: {
    title: "企业微信 API 地址",
    description: "回复所经的企业微信 API 服务器；默认为企业微信官方服务器。",
  },
  NOTIFICATION_REPORT_CHANNELS: {
    title: "报告通知渠道",
    description: notificationChannels("报告消息"),
  },
  NOTIFICATION_ALERT_CHANNELS: {
    title: "提醒通知渠道",
    description: notificationChannels("提醒消息"),
  },
  NOTIFICATION_SYSTEM_ERROR_CHANNELS: {
    title: "系统错误通知渠道",
    description: notificationChannels("系统错误消息"),
  },
  NOTIFICATION_DEDUP_TTL_SECONDS: {
    title: "重复消息抑制（秒）",
    description: "在这么多秒内内容相同的通知只发送一次；0 表示关闭。",
  },
  NOTIFICATION_COOLDOWN_SECONDS: {
    title: "冷却时间（秒）",
    description: "同一渠道上，关于同一只股票、同一条提醒规则或同一个复盘市场的两条通知之间至少间隔的秒数；0 表示关闭。",
  },
  NOTIFICATION_QUIET_HOURS: {
    title: "免打扰时段",
    description:
      "不发送通知的时间段，格式为 HH:MM-HH:MM（可跨越午夜）；严重（critical）级别的提醒照常发送，其余通知记为已拦截，之后也不会补发。留空表示关闭。",
  },
  NOTIFICATION_TIMEZONE: {
    title: "通知时区",
    description: "免打扰时段使用的 IANA 时区，例如 Asia/Shanghai；留空时使用 SERVICE_TIMEZONE。",
  },
  NOTIFICATION_MIN_SEVERITY: {
    title: "最低通知级别",
    description: "低于此级别的通知不发送（报告为 info，提醒为其规则的级别，系统错误为 error）；留空表示全部发送。",
    options: SEVERITY_OPTIONS,
  },
  NOTIFICATION_RETRY_ATTEMPTS: {
    title: "发送尝试次数",
    description: "每个渠道最多尝试的次数，全部失败后该通知记为失败。",
  },
  NOTIFICATION_RETRY_BASE_DELAY_MS: {
    title: "重试基础延迟（毫秒）",
    description: "第二次尝试前的等待时间；之后每多一次尝试，等待时间翻倍。",
  },
  NOTIFICATION_TIMEOUT_MS: {
    title: "发送超时（毫秒）",
    description: "向一个渠道发送一次所允许的最长时间。",
  },
  SINGLE_STOCK_NOTIFY: {
    title: "逐只推送",
    description: "定时任务：每只股票的报告一生成就立即发送，而不是在整次运行结束后发送一份合并报告。",
  },
  REPORT_SUMMARY_ONLY: {
    title: "仅发送摘要",
    description: "定时任务的合并报告中每只股票只占一行，不含操作建议和走势。",
  },

  // ---- system
  SCREENING_ENABLED: {
    title: "选股",
    description:
      "提供选股功能（选股页面与 /api/v1/screening）。默认开启，设为 false 关闭；未设置时读取其旧名 ALPHASIFT_ENABLED。",
  },
  ALPHASIFT_ENABLED: {
    title: "选股（旧名）",
    description: "参考服务中 SCREENING_ENABLED 的旧名，仅在 SCREENING_ENABLED 未设置时读取。",
  },
  MCP_ENABLED: {
    title: "MCP 服务",
    description:
      "在 /mcp 提供 Model Context Protocol（Streamable HTTP），供 AI 助手和智能体调用。每个请求都需要 API 令牌；只读令牌只看到只读工具。",
  },
  SCREENING_SCHEDULE_STRATEGIES: {
    title: "定时选股",
    description:
      "每日定时任务在自选股之后还要运行的选股策略（编号，逗号分隔；留空则不运行）。GET /api/v1/screening/scheduled-latest 返回最新一次。",
  },
  SCREENING_SCHEDULE_MARKET: {
    title: "定时选股市场",
    description: "定时选股所筛选的市场：cn、hk 或 us。",
  },
  SCHEDULE_ENABLED: {
    title: "每日定时",
    description: "每天在定时时间运行自选股分析。",
  },
  SCHEDULE_TIME: {
    title: "定时时间",
    description: "每天的运行时间，格式为 HH:MM，按服务时区（SERVICE_TIMEZONE）计算。",
  },
  SCHEDULE_CATCH_UP_MINUTES: {
    title: "定时补跑时限（分钟）",
    description: "服务停机期间错过的定时任务，如果服务在该时间点之后这么多分钟内启动，仍会补跑；0 表示只按时运行。",
  },
  TRADING_DAY_CHECK_ENABLED: {
    title: "跳过休市市场",
    description: "定时任务跳过所属市场当地日期为周末的股票（不识别交易所节假日）。",
  },
  MARKET_REVIEW_ENABLED: {
    title: "每日运行附带大盘复盘",
    description: "每日定时任务同时把 MARKET_REVIEW_REGION 的大盘复盘加入队列。",
  },
  MARKET_REVIEW_REGION: {
    title: "大盘复盘市场",
    description: "大盘复盘的默认市场：cn、hk、us 或 both（cn + us）。",
    options: { cn: "A股", hk: "港股", us: "美股", both: "A股 + 美股" },
  },
  MAX_WORKERS: {
    title: "分析并发数",
    description: "同时分析的任务数；请保持较低的值，以免超出数据源的频率限制。",
  },
  SERVICE_TIMEZONE: {
    title: "服务时区",
    description: "服务日历使用的 IANA 时区：决定用量统计周期（今天、本月）和每个用量日从何时开始。",
  },
  ALERT_EVAL_SECONDS: {
    title: "提醒检查间隔（秒）",
    description: "两次检查已启用提醒规则之间相隔的秒数。",
  },
  ALERT_TRADING_HOURS_ONLY: {
    title: "仅在交易时段检查提醒",
    description:
      "个股与大盘提醒规则只在所属市场交易期间检查，持仓规则在持仓所在市场之一交易时检查（信号提醒始终检查）。",
  },
  PORTFOLIO_BASE_CURRENCY: {
    title: "持仓报告币种",
    description: "汇总全部账户的持仓风险报告所用的币种（单个账户的报告使用该账户的币种）。",
    options: { CNY: "人民币", HKD: "港币", USD: "美元" },
  },
  PORTFOLIO_FX_RATES: {
    title: "兑人民币汇率（手动覆盖）",
    description:
      "一单位各货币折合的人民币（CNY）金额，以逗号分隔（USD=7.1,HKD=0.91）；设置后覆盖持仓汇率刷新从行情数据源取得的汇率。留空则使用刷新得到的汇率。",
  },
  TASK_RETENTION_MINUTES: {
    title: "已完成任务保留时长（分钟）",
    description: "已完成的任务在任务列表中保留的分钟数；之后从历史记录读取其状态。",
  },
  TASK_MARKET_RATE_PER_MINUTE: {
    title: "每个市场每分钟启动任务数",
    description: "同一市场每分钟最多启动这么多个任务，以免超出数据源的频率限制。",
  },
  SIGNAL_CLOCK_OFFSET_SECONDS: {
    title: "信号时钟偏移（秒，测试用）",
    description: "测试辅助：加到决策信号时钟上的秒数（影响创建时间、默认过期时间和惰性过期）。生产环境请保持为 0。",
  },
  AGENT_MAX_STEPS: {
    title: "问股每轮工具步数",
    description: "问股对话回答一条消息时最多调用工具的步数。",
  },
  AGENT_TURN_TIMEOUT_SEC: {
    title: "问股单轮时限（秒）",
    description: "一次回答（含工具调用）最多用时；超时即停止并保留已写出的部分。",
  },
  AGENT_TOKEN_BUDGET: {
    title: "问股单轮 Token 预算",
    description: "一次回答所有步骤的输入加输出 Token 上限；超出后不再开始新的工具步骤。",
  },
  AGENT_MODEL: {
    title: "问股模型",
    description:
      "问股使用的渠道与模型，写作 渠道/模型 或已配置渠道中的模型名（可比报告用更便宜的模型）；留空则按报告渠道顺序。",
  },
  SKILLS_DIR: {
    title: "策略文件目录",
    description: "自定义问股策略（带 front matter 的 Markdown 文件）所在目录，与内置策略一并列出。",
  },
  SSE_HEARTBEAT_SECONDS: {
    title: "任务流心跳间隔（秒）",
    description: "任务事件流连续这么多秒没有事件时，发送一次心跳。",
  },
  SHARE_IMAGE_MAX_CHARS: {
    title: "分享图片长度上限",
    description: "能渲染为分享图片的最长报告（字符数）；更长的报告返回 413。",
  },
  MARKDOWN_TO_IMAGE_MAX_CHARS: {
    title: "分享图片长度上限（参考服务键名）",
    description: "参考服务中 SHARE_IMAGE_MAX_CHARS 的键名，仅在 SHARE_IMAGE_MAX_CHARS 未设置时读取。",
  },
  SHARE_IMAGE_PNG_ENABLED: {
    title: "分享图片 PNG 渲染",
    description:
      "将分享图片绘制为 PNG（satori + resvg，使用过一次后约占 300 MB 内存）。关闭时 share-image 返回 503，HTML 卡片仍可使用。",
  },
  SHARE_IMAGE_WARMUP: {
    title: "启动时预热分享图片",
    description:
      "每次启动后在后台用 PNG 渲染器绘制几张卡片（各核心占用数秒 CPU），使第一张分享图片与之后的一样快。关闭时启动占用更少 CPU，第一张分享图片约慢一秒。",
  },
  SHARE_IMAGE_PRERENDER: {
    title: "保存报告时绘制分享图片",
    description:
      "每份新报告保存时在后台绘制其分享图片（在渲染线程上占用数百毫秒 CPU），第一次请求即可直接读取。关闭时由第一次请求绘制。",
  },
  LOG_LEVEL: {
    title: "日志级别",
    description: "写入日志的最低级别。参考服务的 DEBUG/INFO/WARNING/ERROR/CRITICAL 会在保存时自动转换。",
    options: { fatal: "致命", error: "错误", warn: "警告", info: "信息", debug: "调试", trace: "跟踪", silent: "静默" },
  },
  ADMIN_AUTH_ENABLED: {
    title: "管理员认证",
    description:
      "除登录、认证状态、健康检查和文档外，所有 API 路由都需要管理员会话。请通过认证设置（会同时设置密码）开启或关闭，而不是在这里。",
  },
  ADMIN_SESSION_MAX_AGE_HOURS: {
    title: "会话有效期（小时）",
    description: "管理员登录一次的有效时长。",
  },
  API_TOKEN_RATE_PER_MINUTE: {
    title: "API 令牌限流（每分钟）",
    description: "每个 API 令牌每分钟最多可发出的请求数；超出后返回 429 并带 Retry-After。",
  },
  SESSION_SECRET: {
    title: "会话密钥",
    description:
      "用于加密会话 Cookie（至少 32 个字符）。未设置时会自动生成并保存在数据目录中。修改后所有会话都会退出登录。",
  },
  TRUST_X_FORWARDED_FOR: {
    title: "信任代理请求头",
    description: "部署在一个可信的反向代理之后时：从 X-Forwarded-* 请求头获取客户端地址和 https。",
  },
  ALLOWED_HOSTS: {
    title: "允许的主机名",
    description:
      "除 IP 地址、localhost、本机名称和公开访问地址的主机外，服务还接受的主机名，以逗号分隔（.example.com 包含其子域名，* 表示任意名称）。其他名称会被拒绝，以防御 DNS 重绑定。",
  },
  OUTBOUND_ALLOW_PRIVATE: {
    title: "允许访问内网地址",
    description:
      "允许通知 Webhook、LLM 与新闻接口地址指向本机或内网（回环、链路本地、私有网段）。关闭时这类地址（DNS 解析后检查）会被拒绝，以防服务端请求伪造。",
  },
  PORT: {
    title: "HTTP 端口",
    description: "服务器监听的端口（启动时设置）。",
  },
  HOSTNAME: {
    title: "监听地址",
    description: "服务器绑定的地址（启动时设置）。",
  },
  DATABASE_URL: {
    title: "数据库",
    description: 'SQLite 数据库，使用 "file:" URL（启动时设置）。',
  },
  REDIS_URL: {
    title: "Redis",
    description:
      "多个副本共用的 Redis，例如 redis://127.0.0.1:6379/0（启动时设置）：任务事件、限流、主节点锁与发送锁。留空时这些都只在本进程内。",
  },
  ENV_FILE: {
    title: "env 文件",
    description: "保存这些设置的 env 文件（启动时设置）。",
  },

  // ---- key patterns (one set per LLM channel)
  "LLM_<CHANNEL>_PROTOCOL": {
    title: "渠道协议",
    description: "渠道的 API 协议：openai（任意 OpenAI 兼容接口）、deepseek、gemini、anthropic 或 ollama。",
  },
  "LLM_<CHANNEL>_BASE_URL": {
    title: "渠道接口地址",
    description: "渠道 API 的基础地址（Base URL）。",
  },
  "LLM_<CHANNEL>_API_KEY": {
    title: "渠道 API 密钥",
    description: "渠道的 API 密钥。",
  },
  "LLM_<CHANNEL>_API_KEYS": {
    title: "渠道 API 密钥列表",
    description: "以逗号分隔的渠道 API 密钥（轮换使用）。",
  },
  "LLM_<CHANNEL>_MODELS": {
    title: "渠道模型",
    description: "渠道提供的模型，以逗号分隔；第一个为默认模型。",
  },
  "LLM_<CHANNEL>_ENABLED": {
    title: "启用渠道",
    description: "在不删除渠道的情况下将其停用。",
  },
};

/** zh help text of a key the schema does not know (the schema's inferField description). */
export const UNKNOWN_CONFIG_FIELD_DESCRIPTION_ZH = "本服务不认识的设置项；在 env 文件中原样保留。";

const CHANNEL_PLACEHOLDER = "<CHANNEL>";

function templatePattern(template: string): RegExp {
  const [head = "", tail = ""] = template.split(CHANNEL_PLACEHOLDER);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escape(head)}(.+?)${escape(tail)}$`);
}

/**
 * The texts of a key in `texts`: its own entry, else the entry of its key family (LLM_DEEPSEEK_MODELS →
 * LLM_<CHANNEL>_MODELS), matched the way the schema matches key patterns.
 */
export function configFieldText(texts: ConfigFieldTexts, key: string): ConfigFieldText | undefined {
  if (Object.hasOwn(texts, key)) return texts[key];
  for (const template of Object.keys(texts)) {
    if (template.includes(CHANNEL_PLACEHOLDER) && templatePattern(template).test(key)) return texts[template];
  }
  return undefined;
}
