import type { TMarket } from "@/lib/market/symbols";
import { METRIC_TEXT, type Metrics } from "./metrics";
import type { TCandidate } from "./schemas";
import type { TFilter, TMetric, TStrategy } from "./strategy-schema";

// A strategy applied to the figures of each stock: every filter must pass (a missing figure fails), the passers
// are ordered by the ranking metric (ties by code, so a run is deterministic), and each candidate carries one
// reason per filter naming the figure that passed it.

export interface Screened {
  code: string;
  name: string | null;
  market: TMarket;
  metrics: Metrics;
  lastBarDate: string;
  barsSource: string;
  stale: boolean;
  closes: number[];
}

function passes(filter: TFilter, value: number | null): boolean {
  if (value === null) return false;
  return filter.op === "gte" ? value >= filter.value : value <= filter.value;
}

function figure(metric: TMetric, value: number, language: "zh" | "en"): string {
  const unit = METRIC_TEXT[metric].unit;
  if (unit === "%") return `${value.toFixed(2)}%`;
  if (unit === "days") return language === "zh" ? `${value} 天` : `${value} ${value === 1 ? "session" : "sessions"}`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function reasonText(filter: TFilter, value: number, language: "zh" | "en"): string {
  const label = METRIC_TEXT[filter.metric][language];
  const sign = filter.op === "gte" ? "≥" : "≤";
  return `${label} ${figure(filter.metric, value, language)} ${sign} ${figure(filter.metric, filter.value, language)}`;
}

export function applyStrategy(
  strategy: TStrategy,
  stocks: readonly Screened[],
  maxResults: number,
  language: "zh" | "en",
): { afterFilter: number; candidates: TCandidate[] } {
  const passed = stocks.filter((s) => strategy.filters.every((f) => passes(f, s.metrics[f.metric])));
  const { metric, order } = strategy.rank;
  const direction = order === "desc" ? -1 : 1;
  const sorted = [...passed].sort((a, b) => {
    const x = a.metrics[metric];
    const y = b.metrics[metric];
    if (x === null || y === null) return x === y ? a.code.localeCompare(b.code) : x === null ? 1 : -1;
    return x === y ? a.code.localeCompare(b.code) : (x - y) * direction;
  });
  const candidates = sorted.slice(0, maxResults).map((s, i): TCandidate => {
    const reasons = strategy.filters.map((f) => reasonText(f, s.metrics[f.metric]!, language));
    return {
      code: s.code,
      name: s.name,
      market: s.market,
      rank: i + 1,
      score: s.metrics[metric],
      score_metric: metric,
      reasons,
      reason: reasons.join(language === "zh" ? "；" : "; "),
      price: s.metrics.close,
      change_pct: s.metrics.change_pct,
      amount: s.metrics.amount,
      metrics: s.metrics,
      last_bar_date: s.lastBarDate,
      stale: s.stale,
      closes: s.closes,
      bars_source: s.barsSource,
      is_sample_data: s.barsSource === "sample",
    };
  });
  return { afterFilter: passed.length, candidates };
}
