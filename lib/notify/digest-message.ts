import type { TAnalysisReport } from "@/lib/history/schemas";
import { priceAsOf, priceAsOfSuffix } from "@/lib/history/price-as-of";
import { formatNumber, historyLink, oneLine, publicBaseUrl, signed } from "./messages";
import type { NotificationMessage } from "./types";

// The merged report of a scheduled run: one entry per watchlist stock, in watchlist order, each with a link to its
// report. Channels cut a long digest at their limit; the summary-only form keeps each stock to one line so a
// whole watchlist fits the tighter channels.

export type DigestEntry =
  | { kind: "report"; recordId: number; report: TAnalysisReport; sample: boolean }
  | { kind: "failed"; stockCode: string; stockName: string | null; reason: string };

export interface DigestInput {
  /** The run's local date in the service time zone (YYYY-MM-DD). */
  date: string;
  language: "zh" | "en";
  summaryOnly: boolean;
  entries: DigestEntry[];
}

const TEXT = {
  zh: {
    title: "自选股日报",
    stocks: "只",
    failed: "分析失败",
    advice: "操作",
    trend: "趋势",
    open: "打开历史记录",
    sample: "含样例数据",
    score: "分",
  },
  en: {
    title: "Watchlist report",
    stocks: "stocks",
    failed: "analysis failed",
    advice: "Advice",
    trend: "Trend",
    open: "Open the history",
    sample: "includes sample data",
    score: "",
  },
} as const;

function reportLines(entry: Extract<DigestEntry, { kind: "report" }>, input: DigestInput): string[] {
  const t = TEXT[input.language];
  const { meta, summary } = entry.report;
  const name = meta.stock_name ? `${meta.stock_name} (${meta.stock_code})` : meta.stock_code;
  const action = summary.action_label ?? summary.action;
  const score = summary.sentiment_score !== null ? `${summary.sentiment_score}${t.score}` : null;
  const price =
    meta.current_price !== null
      ? `${formatNumber(meta.current_price)}${meta.change_pct !== null ? ` (${signed(meta.change_pct)}%)` : ""}${priceAsOfSuffix(priceAsOf(entry.report), input.language)}`
      : null;
  const head = [action, score, price].filter(Boolean).join(" · ");
  const conclusion = summary.analysis_summary ? ` — ${oneLine(summary.analysis_summary)}` : "";
  const lines = [`- **[${name}](${historyLink(entry.recordId)})** ${head}${conclusion}`];
  if (!input.summaryOnly) {
    if (summary.operation_advice) lines.push(`  - ${t.advice}: ${oneLine(summary.operation_advice)}`);
    if (summary.trend_prediction) lines.push(`  - ${t.trend}: ${oneLine(summary.trend_prediction)}`);
  }
  return lines;
}

export function digestMessage(input: DigestInput): NotificationMessage {
  const t = TEXT[input.language];
  const lines = input.entries.flatMap((entry) =>
    entry.kind === "report"
      ? reportLines(entry, input)
      : [
          `- **${entry.stockName ? `${entry.stockName} (${entry.stockCode})` : entry.stockCode}** ${t.failed}: ${oneLine(entry.reason)}`,
        ],
  );
  if (input.entries.some((e) => e.kind === "report" && e.sample)) lines.push(`\n${t.sample}`);
  return {
    kind: "report",
    title: `${t.title} ${input.date} · ${input.entries.length} ${t.stocks}`,
    body: lines.join("\n"),
    link: { url: `${publicBaseUrl()}/history`, label: t.open },
    severity: "info",
    subject: null,
  };
}
