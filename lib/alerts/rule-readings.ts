import "server-only";
import {
  getPriceSeries,
  mergeQuoteBars,
  onePriceOf,
  type MergedSeries,
  type OnePrice,
  type PriceSeries,
} from "@/lib/market";
import { dedupKey, type TResolvedSymbol } from "@/lib/market/symbols";
import { barsToRead, checkSymbolCondition, isSkipped } from "./conditions";
import { SYMBOL_ALERT_TYPES, type TParametersOf, type TSymbolAlertType } from "./parameters";
import type { TAlertRule } from "./schemas";
import { expandTargets } from "./targets";
import { withTimeBudget } from "@/lib/time-budget";

// The Alerts page shows, for each enabled stock rule, the value the evaluator would compare now and
// how far the price is from the trigger. One read per render: every stock of every rule is fetched once (the
// longest history any of its rules needs; each rule then sees exactly the bars the evaluator reads), each fetch
// with a time budget, so a slow provider leaves its targets without a value instead of holding the page.
// The docs/api.md §12.2 rule records are not touched: this is a page read beside them.

/** The longest one stock's market data may hold the page. */
export const READING_BUDGET_MS = 1500;

/** What a type compares: the one price, today's change, the close against an MA, an indicator. */
export type ReadingMeasure = "price" | "change_pct" | "close" | "volume_ratio" | "rsi" | "dif" | "k" | "cci";

const MEASURES: Record<TSymbolAlertType, ReadingMeasure> = {
  price_cross: "price",
  price_change_percent: "change_pct",
  ma_price_cross: "close",
  volume_spike: "volume_ratio",
  rsi_threshold: "rsi",
  macd_cross: "dif",
  kdj_cross: "k",
  cci_threshold: "cci",
};

/** Types whose trigger is a price level (or a daily change): the distance is the price move, in percent, that reaches it. */
const WITH_DISTANCE: readonly TSymbolAlertType[] = ["price_cross", "price_change_percent", "ma_price_cross"];

export interface TargetReading {
  /** The stock's display code. */
  target: string;
  /** The value the evaluator compares (price, change %, close, indicator); null when it could not be read. */
  current: number | null;
  /** What it is compared with: the rule's price, ±change %, the MA, the indicator level, DEA or D. */
  threshold: number | null;
  /**
   * The price move that reaches the trigger, in percent of the current price: (threshold − current) / current × 100
   * for a price or an MA; for a daily change the same move of the price, (t − c) / (100 + c) × 100. Null for
   * indicator types, where a distance has no meaning.
   */
  distancePct: number | null;
  /** The price is already on the trigger's side (price-level types only). */
  reached: boolean | null;
  /** quote: today's (or the last session's) quote; close: the last daily close. */
  basis: OnePrice["basis"] | null;
  /** The session the value belongs to. */
  date: string | null;
  /** Why there is no value (no answer within the budget, no data, too short a history). */
  error: string | null;
}

export interface RuleReading {
  ruleId: number;
  measure: ReadingMeasure;
  hasDistance: boolean;
  /** Price-level types: closest to the trigger first; others as the rule lists them. */
  targets: TargetReading[];
  /** Why a rule over a list has nothing to read (empty watchlist, no holdings). */
  empty: string | null;
}

function withBudget<T>(work: Promise<T>, ms: number): Promise<T> {
  return withTimeBudget(work, ms, (m) => `no answer within ${m / 1000} s`);
}

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;
const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

function isSymbolType(type: string): type is TSymbolAlertType {
  return (SYMBOL_ALERT_TYPES as readonly string[]).includes(type);
}

/** The series the evaluator reads for `days` bars, cut from a longer read of the same stock (same final bars, same quote). */
export function seriesFor(
  read: PriceSeries,
  days: number,
  market: TResolvedSymbol["market"],
): { series: MergedSeries; current: OnePrice | null } {
  const finals = read.merge === "appended" ? read.bars.slice(0, -1) : read.bars;
  const series = mergeQuoteBars(finals.slice(-days), read.quote, market);
  return { series, current: onePriceOf(series, read.quote) };
}

const priceMove = (from: number, to: number) => ((to - from) / from) * 100;

function empty(target: string, error: string | null): TargetReading {
  return { target, current: null, threshold: null, distancePct: null, reached: null, basis: null, date: null, error };
}

/** One target of one rule, from its stock's read. */
export function readTarget(
  type: TSymbolAlertType,
  parameters: Record<string, unknown>,
  target: string,
  read: PriceSeries,
  market: TResolvedSymbol["market"],
): TargetReading {
  const { series, current } = seriesFor(read, barsToRead(type, parameters), market);
  if (!current) return empty(target, "no market data");
  const base = { target, basis: current.basis, date: current.date, error: null };
  if (type === "price_cross") {
    const p = parameters as TParametersOf<"price_cross">;
    const price = round(current.price);
    return {
      ...base,
      current: price,
      threshold: p.price,
      distancePct: priceMove(price, p.price),
      reached: p.direction === "above" ? price > p.price : price < p.price,
    };
  }
  if (type === "price_change_percent") {
    const p = parameters as TParametersOf<"price_change_percent">;
    if (current.change_pct === null)
      return { ...empty(target, "no daily change (one bar only)"), basis: current.basis, date: current.date };
    const change = round(current.change_pct);
    const threshold = p.direction === "up" ? p.change_pct : -p.change_pct;
    return {
      ...base,
      current: change,
      threshold,
      distancePct: ((threshold - change) / (100 + change)) * 100,
      reached: p.direction === "up" ? change >= threshold : change <= threshold,
    };
  }
  // Indicator types: exactly the evaluator's condition, on the bars it reads.
  const check = checkSymbolCondition(type, parameters as never, {
    series,
    quote: read.quote,
    current,
    quoteFailure: read.quoteFailure,
  });
  if (isSkipped(check)) return { ...empty(target, check.skipped), basis: current.basis, date: current.date };
  if (type === "ma_price_cross" && check.observed !== null && check.threshold !== null) {
    const above = (parameters as TParametersOf<"ma_price_cross">).direction === "above";
    return {
      ...base,
      current: check.observed,
      threshold: check.threshold,
      distancePct: priceMove(check.observed, check.threshold),
      reached: above ? check.observed > check.threshold : check.observed < check.threshold,
    };
  }
  return { ...base, current: check.observed, threshold: check.threshold, distancePct: null, reached: null };
}

function byDistance(a: TargetReading, b: TargetReading): number {
  if (a.distancePct === null) return b.distancePct === null ? 0 : 1;
  if (b.distancePct === null) return -1;
  return Math.abs(a.distancePct) - Math.abs(b.distancePct);
}

/**
 * The readings of the page's rules, by rule id: enabled stock rules only (portfolio, market and signal rules have
 * no stock value). Each stock is read once, within `budgetMs`.
 */
export async function readRuleDistances(
  rules: readonly TAlertRule[],
  options: { budgetMs?: number } = {},
): Promise<Record<number, RuleReading>> {
  const budget = options.budgetMs ?? READING_BUDGET_MS;
  const stockRules = rules.filter((r) => r.enabled && isSymbolType(r.alert_type));
  const expansions = await Promise.all(
    stockRules.map((r) => expandTargets({ targetScope: r.target_scope, target: r.target }, "en")),
  );

  // The longest history each stock needs over all its rules.
  const wanted = new Map<string, { symbol: TResolvedSymbol; days: number }>();
  stockRules.forEach((rule, i) => {
    const days = barsToRead(rule.alert_type as TSymbolAlertType, rule.parameters as Record<string, unknown>);
    for (const t of expansions[i]!.targets) {
      if (t.kind !== "symbol") continue;
      const key = dedupKey(t.symbol);
      const seen = wanted.get(key);
      if (!seen || seen.days < days) wanted.set(key, { symbol: t.symbol, days });
    }
  });
  const reads = new Map<string, Promise<PriceSeries | { error: string }>>();
  for (const [key, { symbol, days }] of wanted) {
    reads.set(
      key,
      withBudget(getPriceSeries(symbol, days), budget).catch((error: unknown) => ({ error: message(error) })),
    );
  }

  const out: Record<number, RuleReading> = {};
  await Promise.all(
    stockRules.map(async (rule, i) => {
      const type = rule.alert_type as TSymbolAlertType;
      const parameters = rule.parameters as Record<string, unknown>;
      const targets = await Promise.all(
        expansions[i]!.targets.map(async (t): Promise<TargetReading> => {
          if (t.kind !== "symbol") return empty(t.target, t.kind === "invalid" ? t.reason : "not a stock");
          const read = await reads.get(dedupKey(t.symbol))!;
          if ("error" in read) return empty(t.target, read.error);
          try {
            return readTarget(type, parameters, t.target, read, t.symbol.market);
          } catch (error) {
            return empty(t.target, message(error));
          }
        }),
      );
      const hasDistance = WITH_DISTANCE.includes(type);
      out[rule.id] = {
        ruleId: rule.id,
        measure: MEASURES[type],
        hasDistance,
        targets: hasDistance ? [...targets].sort(byDistance) : targets,
        empty: expansions[i]!.empty,
      };
    }),
  );
  return out;
}
