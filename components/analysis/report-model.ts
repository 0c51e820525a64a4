import type { TAnalysisResultResponse } from "@/lib/analysis/schemas";
import type {
  TDashboard,
  TIndicators,
  TMarketPhaseSummary,
  TScoreFactor,
  TStructureCell,
} from "@/lib/analysis/engine/schemas";
import type { TLlmReport } from "@/lib/analysis/llm/report-schema";
import type { TDataQuality, TEvidence } from "@/lib/evidence/schemas";

// What the Analyze page reads out of an AnalysisResultResponse. details.context_snapshot and
// details.raw_result are open JSON objects in the API schema; their shapes come from lib/analysis
// (pipeline.ts reportDetails), and every read here tolerates a missing or older part.

export type Market = "cn" | "hk" | "us";

export interface ChartBar {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface ChecklistRow {
  status: "pass" | "warn" | "fail" | "unknown";
  text: string;
}

export interface ReportView {
  result: TAnalysisResultResponse;
  market: Market | null;
  isSample: boolean;
  dataSource: string | null;
  indicators: TIndicators | null;
  bars: ChartBar[];
  /** The moment of the headline price (pipeline.ts asOf); null on records stored before it was kept. */
  asOf: { date: string; basis: "quote" | "close"; provisionalBar: boolean; live: boolean } | null;
  phase: TMarketPhaseSummary | null;
  dashboard: TDashboard | null;
  llm: TLlmReport | null;
  checklist: ChecklistRow[] | null;
  risks: string[] | null;
  newsItems: NewsLine[];
  /** docs/api.md §13; null on records stored before they were kept. */
  evidence: TEvidence | null;
  dataQuality: TDataQuality | null;
  /** The rules-table cell that set the score; null on records stored before it was kept. */
  structure: TStructureCell | null;
  scoreFactors: TScoreFactor[] | null;
}

export interface NewsLine {
  title: string;
  url: string | null;
  snippet: string | null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function readBars(value: unknown): ChartBar[] {
  if (!Array.isArray(value)) return [];
  const bars: ChartBar[] = [];
  for (const raw of value) {
    if (!isObject(raw) || typeof raw.date !== "string") continue;
    const { open, high, low, close, volume } = raw;
    if (!isFiniteNumber(open) || !isFiniteNumber(high) || !isFiniteNumber(low) || !isFiniteNumber(close)) continue;
    bars.push({ date: raw.date.slice(0, 10), open, high, low, close, volume: isFiniteNumber(volume) ? volume : 0 });
  }
  // The chart needs strictly ascending, unique dates.
  bars.sort((a, b) => a.date.localeCompare(b.date));
  return bars.filter((bar, i) => i === 0 || bar.date !== bars[i - 1]!.date);
}

/** The compact table of every bar the indicators used (pipeline.ts compactBars) as chart bars. */
function readCompactBars(value: unknown): ChartBar[] {
  if (!isObject(value) || !Array.isArray(value.columns) || !Array.isArray(value.rows)) return [];
  const columns = value.columns as unknown[];
  return readBars(
    (value.rows as unknown[]).map((row) =>
      Array.isArray(row) ? Object.fromEntries(columns.map((name, i) => [String(name), row[i]])) : null,
    ),
  );
}

// Plain readers, not the zod schemas: zod probes for eval in the browser, which the pages' CSP reports.
const STRUCTURE_VALUES = {
  table: ["default", "a_share"],
  band: ["below", "at", "above", "stretched"],
  regime: ["up", "flat", "down"],
} as const;

function readStructure(value: unknown): TStructureCell | null {
  if (!isObject(value) || !isFiniteNumber(value.extension_atr)) return null;
  for (const [key, allowed] of Object.entries(STRUCTURE_VALUES))
    if (!(allowed as readonly unknown[]).includes(value[key])) return null;
  return value as unknown as TStructureCell;
}

const FACTORS = ["trend", "bias", "volume", "support", "macd", "rsi"];

function readFactors(value: unknown): TScoreFactor[] | null {
  if (!Array.isArray(value)) return null;
  const factors = value.filter(
    (f): f is TScoreFactor =>
      isObject(f) &&
      FACTORS.includes(f.factor as string) &&
      isFiniteNumber(f.max) &&
      (f.points === null || isFiniteNumber(f.points)),
  );
  return factors.length > 0 ? factors : null;
}

function readAsOf(value: unknown): ReportView["asOf"] {
  if (!isObject(value) || typeof value.date !== "string" || (value.basis !== "quote" && value.basis !== "close"))
    return null;
  // Records stored before `live` was kept read a quote as live, as they were shown then.
  const live = typeof value.live === "boolean" ? value.live : value.basis === "quote";
  return { date: value.date, basis: value.basis, provisionalBar: value.provisional_bar === true, live };
}

/** news_content is Markdown list lines `- [title](url) — snippet` (pipeline.ts); other text is shown as is. */
export function parseNews(content: string | null | undefined): NewsLine[] {
  if (!content) return [];
  return content
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const match = /^[-*]\s*\[(.+?)\]\((\S+?)\)(?:\s*[—-]\s*(.*))?$/.exec(line);
      if (!match) return { title: line.replace(/^[-*]\s*/, ""), url: null, snippet: null };
      const url = /^https?:\/\//i.test(match[2]!) ? match[2]! : null;
      return { title: match[1]!, url, snippet: match[3]?.trim() || null };
    });
}

export function toReportView(result: TAnalysisResultResponse): ReportView {
  const { details } = result.report;
  const snapshot = isObject(details.context_snapshot) ? details.context_snapshot : {};
  const raw = isObject(details.raw_result) ? details.raw_result : {};
  const phase = isObject(snapshot.market_phase) ? (snapshot.market_phase as unknown as TMarketPhaseSummary) : null;
  const market = phase && ["cn", "hk", "us"].includes(phase.market) ? phase.market : null;
  const dashboard = isObject(raw.dashboard) ? (raw.dashboard as unknown as TDashboard) : null;
  const llm = isObject(raw.llm_report) ? (raw.llm_report as unknown as TLlmReport) : null;

  // The model's checklist and warnings when it answered; otherwise the rule engine's (null for brief reports).
  let checklist: ChecklistRow[] | null =
    dashboard?.battle_plan?.action_checklist?.map((c) => ({ status: c.status, text: c.text })) ?? null;
  if (llm && Array.isArray(llm.checklist) && llm.checklist.length > 0) {
    checklist = llm.checklist.map((c) => ({ status: c.status, text: c.detail ? `${c.item}: ${c.detail}` : c.item }));
  }
  let risks: string[] | null = dashboard?.risk_warnings ?? null;
  if (llm && Array.isArray(llm.risk_warnings) && llm.risk_warnings.length > 0) {
    risks = [...new Set([...llm.risk_warnings, ...(risks ?? [])])];
  }

  return {
    result,
    market,
    isSample: snapshot.is_sample_data === true,
    dataSource: typeof snapshot.data_source === "string" ? snapshot.data_source : null,
    indicators: isObject(snapshot.indicators) ? (snapshot.indicators as unknown as TIndicators) : null,
    // Every bar the analysis used when the record kept them (the chart's range switch), else the last 30.
    bars: (() => {
      const all = readCompactBars(snapshot.indicator_bars);
      return all.length > 0 ? all : readBars(snapshot.recent_bars);
    })(),
    asOf: readAsOf(snapshot.as_of),
    phase,
    dashboard,
    llm,
    structure: readStructure(raw.structure),
    scoreFactors: readFactors(raw.score_breakdown),
    checklist,
    risks,
    newsItems: parseNews(details.news_content),
    evidence: details.evidence ?? null,
    dataQuality: details.data_quality ?? null,
  };
}

/** Simple moving average of closes; null until `period` bars exist. */
export function movingAverage(bars: readonly ChartBar[], period: number): (number | null)[] {
  let sum = 0;
  return bars.map((bar, i) => {
    sum += bar.close;
    if (i >= period) sum -= bars[i - period]!.close;
    return i >= period - 1 ? sum / period : null;
  });
}

/** Sign of a change for the up/down colour; 0 and unknown are neutral. */
export function direction(value: number | null | undefined): "up" | "down" | "flat" {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return "flat";
  return value > 0 ? "up" : "down";
}
