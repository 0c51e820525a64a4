import type { AnalysisHistory } from "@/generated/prisma/client";
import { priceAsOf, priceAsOfSuffix } from "@/lib/history/price-as-of";
import { getSettings } from "@/lib/settings/settings";
import type { TAnalysisReport } from "@/lib/history/schemas";
import { reviewMarkets } from "@/lib/market-review/rules";
import type { TMarketReviewPayload } from "@/lib/market-review/schemas";
import { asSeverity } from "./noise";
import type { NotificationMessage } from "./types";

type Lang = "zh" | "en";

type LabelKey =
  | "action"
  | "score"
  | "trend"
  | "price"
  | "summary"
  | "advice"
  | "report"
  | "sample"
  | "temperature"
  | "outlook"
  | "review"
  | "observed"
  | "threshold"
  | "alert";

const LABELS: Record<Lang, Record<LabelKey, string>> = {
  zh: {
    action: "建议",
    score: "评分",
    trend: "趋势",
    price: "现价",
    summary: "结论",
    advice: "操作",
    report: "查看完整报告",
    sample: "样例数据",
    temperature: "市场温度",
    outlook: "策略",
    review: "查看复盘",
    observed: "观测值",
    threshold: "阈值",
    alert: "提醒",
  },
  en: {
    action: "Action",
    score: "Score",
    trend: "Trend",
    price: "Price",
    summary: "Summary",
    advice: "Advice",
    report: "Open the full report",
    sample: "sample data",
    temperature: "Market temperature",
    outlook: "Stance",
    review: "Open the review",
    observed: "Observed",
    threshold: "Threshold",
    alert: "Alert",
  },
};

/** Where users open the web UI: PUBLIC_BASE_URL, else this server on localhost. */
export function publicBaseUrl(): string {
  const settings = getSettings();
  return settings.PUBLIC_BASE_URL !== "" ? settings.PUBLIC_BASE_URL : `http://localhost:${settings.PORT}`;
}

export function historyLink(recordId: number): string {
  return `${publicBaseUrl()}/history/${recordId}`;
}

/** The summary of a finished analysis: code, name, action, score, price and change, conclusion, link. */
export function analysisMessage(record: AnalysisHistory, report: TAnalysisReport): NotificationMessage {
  const lang: Lang = report.meta.report_language === "en" ? "en" : "zh";
  const t = LABELS[lang];
  const { summary, meta } = report;
  const name = meta.stock_name ? `${meta.stock_name} (${meta.stock_code})` : meta.stock_code;
  const action = summary.action_label ?? summary.action;
  const titleParts = [
    name,
    action,
    summary.sentiment_score !== null ? `${summary.sentiment_score}${lang === "zh" ? "分" : ""}` : null,
  ];
  const lines = [
    action || summary.sentiment_score !== null
      ? `- **${t.action}**: ${action ?? "-"}${summary.sentiment_score !== null ? ` · ${t.score} ${summary.sentiment_score}` : ""}${summary.sentiment_label ? ` (${summary.sentiment_label})` : ""}`
      : null,
    meta.current_price !== null
      ? `- **${t.price}**: ${formatNumber(meta.current_price)}${meta.change_pct !== null ? ` (${signed(meta.change_pct)}%)` : ""}${priceAsOfSuffix(priceAsOf(report, record.dataSource), lang)}`
      : null,
    summary.trend_prediction ? `- **${t.trend}**: ${oneLine(summary.trend_prediction)}` : null,
    summary.analysis_summary ? `- **${t.summary}**: ${oneLine(summary.analysis_summary)}` : null,
    summary.operation_advice ? `- **${t.advice}**: ${oneLine(summary.operation_advice)}` : null,
    record.dataSource?.includes("sample") ? `- ${t.sample}` : null,
  ];
  return {
    kind: "report",
    title: titleParts.filter(Boolean).join(" · "),
    body: lines.filter((l): l is string => l !== null).join("\n"),
    link: { url: historyLink(record.id), label: t.report },
    related: { kind: "analysis", id: record.queryId },
    severity: "info",
    subject: record.targetKey,
  };
}

/** The summary of a market review: temperature, stance, main indices, the review's summary, link. */
export function marketReviewMessage(record: AnalysisHistory, payload: TMarketReviewPayload): NotificationMessage {
  const lang: Lang = payload.language;
  const t = LABELS[lang];
  const light = payload.market_light;
  const temperature = light.score !== null ? `${light.score}${light.label ? ` ${light.label}` : ""}` : null;
  const indices = reviewMarkets(payload).flatMap((market) =>
    market.indices
      .filter((index) => index.current !== null)
      .slice(0, 4)
      .map(
        (index) =>
          `- ${index.name}: ${formatNumber(index.current!)}${index.change_pct !== null ? ` (${signed(index.change_pct)}%)` : ""}`,
      ),
  );
  const lines = [
    temperature ? `**${t.temperature}**: ${temperature}` : null,
    payload.outlook.label ? `**${t.outlook}**: ${payload.outlook.label}` : null,
    indices.length > 0 ? indices.join("\n") : null,
    payload.summary.trim() !== "" ? payload.summary.trim() : null,
    payload.sample_notice,
  ];
  return {
    kind: "report",
    title: payload.title,
    body: lines.filter((l): l is string => Boolean(l)).join("\n\n"),
    link: { url: historyLink(record.id), label: t.review },
    related: { kind: "market_review", id: record.queryId },
    severity: "info",
    subject: `market_review:${payload.region}`,
  };
}

export interface AlertTriggerNotice {
  triggerId: number | string;
  ruleName: string;
  target: string;
  /** What happened, in words (the trigger's message). */
  message: string;
  observedValue?: number | null;
  threshold?: number | null;
  severity?: string | null;
  /** The rule, so NOTIFICATION_COOLDOWN_SECONDS spaces out one rule's firings for one target. */
  ruleId?: number | null;
  language?: Lang;
  /** A page to open (e.g. the alerts page); default none. */
  link?: { url: string; label: string } | null;
}

export function alertMessage(notice: AlertTriggerNotice): NotificationMessage {
  const t = LABELS[notice.language ?? "zh"];
  const lines = [
    oneLine(notice.message),
    notice.observedValue !== null && notice.observedValue !== undefined
      ? `- **${t.observed}**: ${formatNumber(notice.observedValue)}`
      : null,
    notice.threshold !== null && notice.threshold !== undefined
      ? `- **${t.threshold}**: ${formatNumber(notice.threshold)}`
      : null,
  ];
  return {
    kind: "alert",
    title: `${t.alert}${notice.severity ? ` [${notice.severity}]` : ""} · ${notice.ruleName} · ${notice.target}`,
    body: lines.filter((l): l is string => l !== null).join("\n"),
    link: notice.link ?? null,
    related: { kind: "alert", id: notice.triggerId },
    severity: asSeverity(notice.severity) ?? "warning",
    subject:
      notice.ruleId !== null && notice.ruleId !== undefined
        ? `alert-rule:${notice.ruleId}:${notice.target}`
        : `alert:${notice.target}`,
  };
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

// Prices as quotes show them: two decimals, three below 100 when the third one is used (ETFs, funds).
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(2);
  const three = value.toFixed(3);
  return three.endsWith("0") ? three.slice(0, -1) : three;
}

export function signed(value: number): string {
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
}
