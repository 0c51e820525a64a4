import {
  formatPct,
  formatPrice,
  LEVEL_BASIS_LABELS,
  PHASE_LABELS,
  SAMPLE_DATA_NOTICE,
  TREND_STATE_LABELS,
} from "@/lib/analysis/engine/language";
import { HISTORY_TIME_ZONE } from "./dates";
import { priceAsOf } from "./price-as-of";
import { at, dict, numAt, strAt } from "./stored-json";
import type { TAnalysisReport } from "./schemas";

// The Markdown report of a stored record, in the record's language. Pure: the same record
// gives the same text (the share image is built from it and must be deterministic). Every part is read
// defensively from the stored JSON, so an older or partial record still yields a report.

export interface MarkdownNewsItem {
  title: string;
  snippet: string;
  url: string;
  source?: string | null;
  publishedAt?: string | null;
}

export interface MarkdownReportInput {
  report: TAnalysisReport;
  news: readonly MarkdownNewsItem[];
  dataSource?: string | null;
  region?: string | null;
  volumeRatio?: number | null;
  turnoverRate?: number | null;
}

type Lang = "zh" | "en";

/** The report's labels per language; the share card reads them to find the Markdown's sections. */
export const MARKDOWN_TEXT = {
  zh: {
    reportTitle: (name: string) => `${name} 分析报告`,
    reviewTitle: (region: string) => `大盘复盘${region ? `（${region}）` : ""}`,
    generated: "生成时间",
    reportType: "报告类型",
    phase: "市场阶段",
    conclusion: "核心结论",
    action: "操作建议",
    score: "评分",
    sentiment: "情绪",
    trend: "趋势预测",
    advice: "操作说明",
    noPosition: "空仓者",
    hasPosition: "持仓者",
    quote: "行情",
    price: "现价",
    change: "涨跌幅",
    volumeRatio: "量比",
    turnover: "换手率",
    summary: "摘要",
    strategy: "策略点位",
    idealBuy: "理想买点",
    secondaryBuy: "次优买点",
    stopLoss: "止损位",
    takeProfit: "目标位",
    suggestedPosition: "建议仓位",
    entryPlan: "建仓计划",
    riskControl: "风控",
    indicators: "技术指标",
    indicator: "指标",
    value: "数值",
    noIndicators: "本记录未保存指标数据。",
    bias: (ma: string) => `乖离率（${ma}）`,
    rsi: "RSI（6/12/24）",
    macd: "MACD（DIF/DEA/柱）",
    golden: "金叉",
    death: "死叉",
    barsAgo: (n: number) => `${n} 根K线前`,
    high20: "20日最高",
    low20: "20日最低",
    trendState: "均线形态",
    support: "支撑位",
    resistance: "压力位",
    lastBar: "最新K线",
    checklist: "操作检查清单",
    intelligence: "消息面",
    catalysts: "利好因素",
    news: "相关新闻",
    noNews: "未检索到相关新闻证据：本报告仅基于行情与技术指标。",
    risks: "风险提示",
    noRisks: "未发现需要特别提示的风险。",
    sources: "数据来源与模型",
    evidence: "规则引擎的历史记录",
    dataQuality: "数据质量",
    qualityLevels: { good: "良好", degraded: "降级", insufficient: "不足" } as Record<string, string>,
    barsTo: (n: number, last: string) => `${n} 根日K线，截至 ${last}`,
    priceAsOf: (source: string, date: string, live: boolean) =>
      `价格来源：${source} · ${date}${live ? " 实时" : " 收盘"}`,
    dataSource: "行情数据",
    sampleData: "样本数据，非真实行情",
    model: "分析模型",
    rulesOnly: "规则引擎（未使用大模型）",
    record: "记录",
    reviewBody: "复盘内容",
    marketStructure: "市场结构",
    disclaimer: "免责声明：本报告由程序根据行情数据自动生成，仅供参考，不构成任何投资建议。股市有风险，投资需谨慎。",
    reportTypes: { simple: "简要", brief: "简要", detailed: "详细", full: "完整", market_review: "大盘复盘" } as Record<
      string,
      string
    >,
    colon: "：",
  },
  en: {
    reportTitle: (name: string) => `${name} analysis report`,
    reviewTitle: (region: string) => `Market review${region ? ` (${region})` : ""}`,
    generated: "Generated",
    reportType: "Report type",
    phase: "Market phase",
    conclusion: "Conclusion",
    action: "Action",
    score: "Score",
    sentiment: "sentiment",
    trend: "Trend outlook",
    advice: "Advice",
    noPosition: "Without a position",
    hasPosition: "Holding a position",
    quote: "Price",
    price: "Price",
    change: "Change",
    volumeRatio: "Volume ratio",
    turnover: "Turnover",
    summary: "Summary",
    strategy: "Strategy levels",
    idealBuy: "Ideal buy",
    secondaryBuy: "Secondary buy",
    stopLoss: "Stop loss",
    takeProfit: "Take profit",
    suggestedPosition: "Suggested position",
    entryPlan: "Entry plan",
    riskControl: "Risk control",
    indicators: "Indicators",
    indicator: "Indicator",
    value: "Value",
    noIndicators: "No indicator data was stored with this record.",
    bias: (ma: string) => `Bias vs ${ma}`,
    rsi: "RSI (6/12/24)",
    macd: "MACD (DIF/DEA/hist)",
    golden: "golden cross",
    death: "death cross",
    barsAgo: (n: number) => `${n} bar${n === 1 ? "" : "s"} ago`,
    high20: "20-day high",
    low20: "20-day low",
    trendState: "MA alignment",
    support: "Support",
    resistance: "Resistance",
    lastBar: "Latest bar",
    checklist: "Checklist",
    intelligence: "News sentiment",
    catalysts: "Positive catalysts",
    news: "News",
    noNews: "No news evidence was found: this report rests on prices and technical indicators only.",
    risks: "Risks",
    noRisks: "No specific risks were flagged.",
    sources: "Data source and model",
    evidence: "The engine's record",
    dataQuality: "Data quality",
    qualityLevels: { good: "good", degraded: "degraded", insufficient: "insufficient" } as Record<string, string>,
    barsTo: (n: number, last: string) => `${n} daily bars to ${last}`,
    priceAsOf: (source: string, date: string, live: boolean) =>
      `Price: ${source} · ${date}${live ? " live" : " close"}`,
    dataSource: "Market data",
    sampleData: "sample data, not real market prices",
    model: "Model",
    rulesOnly: "rule engine (no LLM)",
    record: "Record",
    reviewBody: "Review",
    marketStructure: "Market structure",
    disclaimer:
      "Disclaimer: this report was generated automatically from market data for information only. It is not investment advice; markets carry risk.",
    reportTypes: {
      simple: "Brief",
      brief: "Brief",
      detailed: "Detailed",
      full: "Full",
      market_review: "Market review",
    } as Record<string, string>,
    colon: ": ",
  },
} as const;

const TEXT = MARKDOWN_TEXT;

type Text = (typeof TEXT)[Lang];

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
}

// ---- Markdown escaping ----

/** One table cell: no line breaks, pipes escaped. */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

/** A single line (headings, list items). */
function line(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

function linkText(text: string): string {
  return line(text).replace(/([\\[\]])/g, "\\$1");
}

/** Only http(s) links are written as links; parentheses and spaces are encoded so the link cannot break. */
function safeUrl(url: string): string | null {
  const trimmed = url.trim();
  if (!/^https?:\/\//i.test(trimmed)) return null;
  return trimmed
    .replace(/ /g, "%20")
    .replace(/\(/g, "%28")
    .replace(/\)/g, "%29")
    .replace(/</g, "%3C")
    .replace(/>/g, "%3E");
}

function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.map(cell).join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ];
}

// ---- number formatting ----

const DASH = "—";

function price(value: number | null): string {
  return value === null ? DASH : formatPrice(value);
}

function pct(value: number | null, signed = true): string {
  return value === null ? DASH : formatPct(value, signed);
}

function plain(value: number | null, decimals = 2): string {
  return value === null ? DASH : value.toFixed(decimals);
}

/** "2024-05-01 15:30 (Asia/Shanghai)": the record's wall clock in the market's zone. */
function formatTime(iso: string, zone: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(date);
  } catch {
    return formatTime(iso, HISTORY_TIME_ZONE);
  }
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")} ${get("hour")}:${get("minute")} (${zone})`;
}

// ---- sections ----

function title(report: TAnalysisReport, t: Text): string {
  const { stock_name: name, stock_code: code } = report.meta;
  const who = name ? `${name} (${code})` : code;
  return `# ${line(t.reportTitle(who))}`;
}

function metaLine(report: TAnalysisReport, t: Text, lang: Lang): string {
  const phaseSummary = report.meta.market_phase_summary;
  const zone = strAt(phaseSummary, "time_zone") ?? HISTORY_TIME_ZONE;
  const parts = [`${t.generated}${t.colon}${formatTime(report.meta.created_at, zone)}`];
  parts.push(`${t.reportType}${t.colon}${t.reportTypes[report.meta.report_type] ?? report.meta.report_type}`);
  const phase = strAt(phaseSummary, "phase");
  if (phase && phase in PHASE_LABELS)
    parts.push(`${t.phase}${t.colon}${PHASE_LABELS[phase as keyof typeof PHASE_LABELS][lang]}`);
  return `> ${parts.join(" · ")}`;
}

function conclusionSection(report: TAnalysisReport, dashboard: unknown, t: Text): string[] {
  const s = report.summary;
  const out = [`## ${t.conclusion}`, ""];
  const action = s.action_label ?? s.action;
  out.push(`- **${t.action}**${t.colon}${action ? line(action) : DASH}`);
  const sentiment = s.sentiment_label ? ` (${t.sentiment}${t.colon}${line(s.sentiment_label)})` : "";
  out.push(`- **${t.score}**${t.colon}${s.sentiment_score === null ? DASH : `${s.sentiment_score} / 100`}${sentiment}`);
  out.push(`- **${t.trend}**${t.colon}${s.trend_prediction ? line(s.trend_prediction) : DASH}`);
  if (s.operation_advice) out.push(`- **${t.advice}**${t.colon}${line(s.operation_advice)}`);
  const noPosition = strAt(dashboard, "core_conclusion", "position_advice", "no_position");
  const hasPosition = strAt(dashboard, "core_conclusion", "position_advice", "has_position");
  if (noPosition) out.push(`- **${t.noPosition}**${t.colon}${line(noPosition)}`);
  if (hasPosition) out.push(`- **${t.hasPosition}**${t.colon}${line(hasPosition)}`);
  return out;
}

function quoteSection(input: MarkdownReportInput, indicators: unknown, t: Text): string[] {
  const { meta } = input.report;
  const volumeRatio = input.volumeRatio ?? numAt(indicators, "volume", "ratio");
  const turnover = input.turnoverRate ?? numAt(indicators, "turnover_rate");
  // Every price with its source and its session (a quote is live only on its own session's day).
  const asOf = priceAsOf(input.report, input.dataSource ?? null);
  return [
    `## ${t.quote}`,
    "",
    ...table(
      [t.price, t.change, t.volumeRatio, t.turnover],
      [[price(meta.current_price), pct(meta.change_pct), plain(volumeRatio), pct(turnover, false)]],
    ),
    ...(asOf ? ["", t.priceAsOf(asOf.source, asOf.date, asOf.live)] : []),
  ];
}

function summarySection(report: TAnalysisReport, t: Text): string[] {
  const text = report.summary.analysis_summary?.trim();
  return text ? [`## ${t.summary}`, "", text] : [];
}

function strategySection(report: TAnalysisReport, llm: unknown, dashboard: unknown, t: Text): string[] {
  const st = report.strategy;
  const out = [
    `## ${t.strategy}`,
    "",
    ...table(
      [t.idealBuy, t.secondaryBuy, t.stopLoss, t.takeProfit],
      [[st.ideal_buy ?? DASH, st.secondary_buy ?? DASH, st.stop_loss ?? DASH, st.take_profit ?? DASH]],
    ),
  ];
  const plan =
    dict(at(llm, "battle_plan", "position_strategy")) ?? dict(at(dashboard, "battle_plan", "position_strategy"));
  const rows: [string, string | null][] = [
    [t.suggestedPosition, strAt(plan, "suggested_position")],
    [t.entryPlan, strAt(plan, "entry_plan")],
    [t.riskControl, strAt(plan, "risk_control")],
  ];
  const present = rows.filter((r): r is [string, string] => r[1] !== null);
  if (present.length > 0) out.push("", ...present.map(([label, text]) => `- **${label}**${t.colon}${line(text)}`));
  return out;
}

function levelCell(levels: unknown, lang: Lang): string | null {
  if (!Array.isArray(levels) || levels.length === 0) return null;
  const first = levels[0];
  const value = numAt(first, "price");
  if (value === null) return null;
  const basis = strAt(first, "basis");
  const label =
    basis && basis in LEVEL_BASIS_LABELS ? LEVEL_BASIS_LABELS[basis as keyof typeof LEVEL_BASIS_LABELS][lang] : basis;
  return label ? `${formatPrice(value)} (${label})` : formatPrice(value);
}

function indicatorSection(indicators: unknown, dashboard: unknown, t: Text, lang: Lang): string[] {
  const pos = at(dashboard, "data_perspective", "price_position");
  const rows: [string, string | null][] = [];
  const add = (label: string, value: string | null) => rows.push([label, value]);
  const n = (path: string[], fallback: string[] = []) =>
    numAt(indicators, ...path) ?? (fallback.length ? numAt(pos, ...fallback) : null);
  const some = (value: number | null, fmt: (v: number) => string) => (value === null ? null : fmt(value));

  for (const ma of ["ma5", "ma10", "ma20", "ma60"]) add(ma.toUpperCase(), some(n(["ma", ma], [ma]), formatPrice));
  add(
    t.bias("MA5"),
    some(n(["bias", "ma5"], ["bias_ma5"]), (v) => formatPct(v)),
  );
  add(
    t.bias("MA20"),
    some(n(["bias", "ma20"], ["bias_ma20"]), (v) => formatPct(v)),
  );
  const macd = dict(at(indicators, "macd"));
  if (macd) {
    const values = [numAt(macd, "dif"), numAt(macd, "dea"), numAt(macd, "histogram")]
      .map((v) => (v === null ? DASH : v.toFixed(3)))
      .join(" / ");
    const cross = strAt(macd, "cross");
    const ago = numAt(macd, "cross_bars_ago");
    const crossText =
      cross === "golden" || cross === "death"
        ? `, ${cross === "golden" ? t.golden : t.death}${ago === null ? "" : ` (${t.barsAgo(ago)})`}`
        : "";
    add(t.macd, values + crossText);
  }
  const rsi = [numAt(indicators, "rsi", "rsi6"), numAt(indicators, "rsi", "rsi12"), numAt(indicators, "rsi", "rsi24")];
  add(t.rsi, rsi.every((v) => v === null) ? null : rsi.map((v) => plain(v, 1)).join(" / "));
  add(
    t.volumeRatio,
    some(n(["volume", "ratio"]), (v) => v.toFixed(2)),
  );
  add(
    t.turnover,
    some(n(["turnover_rate"]), (v) => formatPct(v, false)),
  );
  add(t.high20, some(n(["high_20"]), formatPrice));
  add(t.low20, some(n(["low_20"]), formatPrice));
  const state = strAt(indicators, "trend", "state");
  add(
    t.trendState,
    state && state in TREND_STATE_LABELS ? TREND_STATE_LABELS[state as keyof typeof TREND_STATE_LABELS][lang] : state,
  );
  add(t.support, levelCell(at(indicators, "support"), lang) ?? some(numAt(pos, "support_level"), formatPrice));
  add(t.resistance, levelCell(at(indicators, "resistance"), lang) ?? some(numAt(pos, "resistance_level"), formatPrice));
  add(t.lastBar, strAt(indicators, "last_bar_date"));

  const present = rows.filter((r): r is [string, string] => r[1] !== null);
  const out = [`## ${t.indicators}`, ""];
  if (present.length === 0) return [...out, t.noIndicators];
  return [...out, ...table([t.indicator, t.value], present)];
}

const CHECK_ICONS: Record<string, string> = { pass: "✅", warn: "⚠️", fail: "❌" };

function checklistSection(llm: unknown, dashboard: unknown, t: Text): string[] {
  const llmItems = at(llm, "checklist");
  const items: string[] = [];
  if (Array.isArray(llmItems)) {
    for (const item of llmItems) {
      const label = strAt(item, "item");
      if (!label) continue;
      const detail = strAt(item, "detail");
      items.push(
        `- ${CHECK_ICONS[strAt(item, "status") ?? ""] ?? "❔"} ${line(label)}${detail ? `${t.colon}${line(detail)}` : ""}`,
      );
    }
  }
  if (items.length === 0) {
    const ruleItems = at(dashboard, "battle_plan", "action_checklist");
    if (Array.isArray(ruleItems)) {
      for (const item of ruleItems) {
        const text = strAt(item, "text");
        if (text) items.push(`- ${CHECK_ICONS[strAt(item, "status") ?? ""] ?? "❔"} ${line(text)}`);
      }
    }
  }
  return items.length > 0 ? [`## ${t.checklist}`, "", ...items] : [];
}

function intelligenceSection(llm: unknown, t: Text): string[] {
  const sentiment = strAt(llm, "intelligence", "sentiment_summary");
  const catalysts = strings(at(llm, "intelligence", "positive_catalysts"));
  if (!sentiment && catalysts.length === 0) return [];
  const out = [`## ${t.intelligence}`, ""];
  if (sentiment) out.push(line(sentiment));
  if (catalysts.length > 0) out.push("", `**${t.catalysts}**`, "", ...catalysts.map((c) => `- ${line(c)}`));
  return out;
}

function newsSection(input: MarkdownReportInput, t: Text): string[] {
  const out = [`## ${t.news}`, ""];
  if (input.news.length === 0) return [...out, `> ${line(input.report.details.empty_news_disclosure ?? t.noNews)}`];
  for (const item of input.news) {
    const url = safeUrl(item.url);
    const head = url ? `[${linkText(item.title)}](${url})` : linkText(item.title);
    const extra = [item.source, item.publishedAt].filter((v): v is string => Boolean(v && v.trim())).map(line);
    const snippet = item.snippet.trim() ? ` — ${line(item.snippet)}` : "";
    out.push(`- ${head}${snippet}${extra.length > 0 ? ` (${extra.join(" · ")})` : ""}`);
  }
  return out;
}

function riskSection(rawResult: unknown, llm: unknown, dashboard: unknown, t: Text): string[] {
  const guardrails = Array.isArray(at(rawResult, "guardrail_reasons"))
    ? (at(rawResult, "guardrail_reasons") as unknown[])
        .map((g) => strAt(g, "message"))
        .filter((m): m is string => m !== null)
    : [];
  const risks = [
    ...strings(at(llm, "risk_warnings")),
    ...strings(at(llm, "intelligence", "risk_alerts")),
    ...strings(at(dashboard, "risk_warnings")),
    ...guardrails,
  ];
  const unique = [...new Set(risks.map(line))];
  return [`## ${t.risks}`, "", ...(unique.length > 0 ? unique.map((r) => `- ${r}`) : [t.noRisks])];
}

function sourcesSection(input: MarkdownReportInput, t: Text): string[] {
  const { report } = input;
  const snapshot = report.details.context_snapshot;
  const overview = report.details.analysis_context_pack_overview;
  const source = input.dataSource ?? strAt(snapshot, "data_source") ?? strAt(overview, "data_source");
  const isSample =
    at(snapshot, "is_sample_data") === true || at(overview, "is_sample_data") === true || source === "sample";
  const out = [`## ${t.sources}`, ""];
  if (source) out.push(`- **${t.dataSource}**${t.colon}${line(source)}${isSample ? ` (${t.sampleData})` : ""}`);
  out.push(`- **${t.model}**${t.colon}${report.meta.model_used ? line(report.meta.model_used) : t.rulesOnly}`);
  const id = report.meta.id === null ? "" : `#${report.meta.id} · `;
  out.push(`- **${t.record}**${t.colon}${id}${report.meta.query_id}`);
  return out;
}

function sampleNotice(input: MarkdownReportInput, lang: Lang): string[] {
  const snapshot = input.report.details.context_snapshot;
  const isSample = at(snapshot, "is_sample_data") === true || input.dataSource === "sample";
  const summary = input.report.summary.analysis_summary ?? "";
  // The summary already carries the notice on sample runs; a report without it gets it up front.
  if (!isSample || summary.includes(SAMPLE_DATA_NOTICE[lang])) return [];
  return [`> ${SAMPLE_DATA_NOTICE[lang]}`];
}

/** docs/api.md §13: what the engine's own record says about this call, in the report's language. */
function evidenceNotice(report: TAnalysisReport, t: Text): string[] {
  const evidence = report.details.evidence;
  return evidence ? [`> **${t.evidence}**${t.colon}${line(evidence.statement)}`] : [];
}

/** docs/api.md §13: how far the data carry the call: level, source, bars and date, and every reason. */
function dataQualityNotice(report: TAnalysisReport, t: Text): string[] {
  const quality = report.details.data_quality;
  if (!quality) return [];
  const head = [
    `**${t.dataQuality}${t.colon}${t.qualityLevels[quality.level] ?? quality.level}**`,
    quality.source,
    quality.last_bar_date ? t.barsTo(quality.bars, quality.last_bar_date) : null,
  ].filter(Boolean);
  const reasons = quality.reasons.map((r) => line(r.message));
  return [`> ${[...head, ...reasons].join(" · ")}`];
}

function footer(t: Text): string[] {
  return ["---", "", `*${t.disclaimer}*`];
}

/** Joins sections with one blank line between them; empty sections vanish. */
function assemble(sections: string[][]): string {
  return `${sections
    .filter((s) => s.length > 0)
    .map((s) => s.join("\n"))
    .join("\n\n")}\n`;
}

function stockReport(input: MarkdownReportInput, t: Text, lang: Lang): string {
  const { report } = input;
  const rawResult = report.details.raw_result;
  const dashboard = at(rawResult, "dashboard");
  const llm = at(rawResult, "llm_report");
  const indicators = at(report.details.context_snapshot, "indicators");
  return assemble([
    [title(report, t), "", metaLine(report, t, lang)],
    sampleNotice(input, lang),
    evidenceNotice(report, t),
    dataQualityNotice(report, t),
    conclusionSection(report, dashboard, t),
    quoteSection(input, indicators, t),
    summarySection(report, t),
    strategySection(report, llm, dashboard, t),
    indicatorSection(indicators, dashboard, t, lang),
    checklistSection(llm, dashboard, t),
    intelligenceSection(llm, t),
    newsSection(input, t),
    riskSection(rawResult, llm, dashboard, t),
    sourcesSection(input, t),
    footer(t),
  ]);
}

function scalarRows(value: unknown): [string, string][] {
  const node = dict(value);
  if (!node) return [];
  return Object.entries(node).flatMap(([key, v]): [string, string][] => {
    if (typeof v === "number" && Number.isFinite(v)) return [[key, String(v)]];
    if (typeof v === "string" && v.trim()) return [[key, v]];
    if (typeof v === "boolean") return [[key, String(v)]];
    return [];
  });
}

const REGION_LABELS: Record<string, Record<Lang, string>> = {
  cn: { zh: "A股", en: "China A-shares" },
  hk: { zh: "港股", en: "Hong Kong" },
  us: { zh: "美股", en: "US" },
};

function regionLabel(region: string | null | undefined, lang: Lang): string {
  if (!region) return "";
  return region
    .split(/[,+\s]+/)
    .filter(Boolean)
    .map((r) => REGION_LABELS[r.toLowerCase()]?.[lang] ?? r)
    .join(" + ");
}

/** Market reviews (report_type market_review) have no stock, action or levels: their own layout. */
function marketReviewReport(input: MarkdownReportInput, t: Text, lang: Lang): string {
  const { report } = input;
  const raw = report.details.raw_result;
  const body = strAt(raw, "markdown") ?? strAt(raw, "report") ?? strAt(raw, "content");
  const structure = scalarRows(report.details.market_structure);
  return assemble([
    [`# ${line(t.reviewTitle(regionLabel(input.region, lang)))}`, "", metaLine(report, t, lang)],
    summarySection(report, t),
    body ? [`## ${t.reviewBody}`, "", body] : [],
    structure.length > 0 ? [`## ${t.marketStructure}`, "", ...table([t.indicator, t.value], structure)] : [],
    newsSection(input, t),
    sourcesSection(input, t),
    footer(t),
  ]);
}

/** The Markdown report of one stored record (spec 4.3 markdown), in the record's report language. */
export function buildMarkdownReport(input: MarkdownReportInput): string {
  const lang: Lang = input.report.meta.report_language === "en" ? "en" : "zh";
  const t = TEXT[lang];
  if (input.report.meta.report_type === "market_review") return marketReviewReport(input, t, lang);
  return stockReport(input, t, lang);
}
