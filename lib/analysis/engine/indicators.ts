import { ADX, ATR } from "trading-signals";
import type { TDailyBar, TQuote } from "@/lib/market";
import { mergeQuoteBars, seriesChangePct, type MergedSeries } from "@/lib/market/one-price";
import type { TMarket } from "@/lib/market/symbols";
import type { TIndicators, TPriceLevel, TTrendState } from "./schemas";
import { macdSeries, rsiSeries, smaSeries } from "./series";

// Technical indicators, computed with trading-signals. Anything the history is too short
// for is null and listed in `missing` — never a stand-in value (reference §12: default-50 fallbacks).

const MACD_FAST = 12;
const MACD_SLOW = 26;
const MACD_SIGNAL = 9;
// DEA needs MACD_SIGNAL DIF values, and DIF starts at the MACD_SLOW-th close.
export const MACD_MIN_BARS = MACD_SLOW + MACD_SIGNAL - 1;
// A cross older than this is history, not a signal.
const CROSS_LOOKBACK = 5;
// Swing points: a bar whose low (high) is the extreme of SWING_WING bars on each side.
const SWING_WING = 2;
const SWING_LOOKBACK = 60;
// reference §3: strong trend when the MA5–MA20 spread is wider than 5 % and widening.
const STRONG_SPREAD_PCT = 5;
// Wilder's standard period for ATR and ADX: two trading weeks plus, the length the measures were defined with.
const VOLATILITY_PERIOD = 14;
// MA60's slope over two trading weeks: long enough that one day's close cannot flip the regime.
export const REGIME_SLOPE_BARS = 10;

interface SeriesPoint {
  date: string;
  close: number;
  high: number;
  low: number;
  volume: number;
}

export interface IndicatorInput {
  bars: readonly TDailyBar[]; // oldest first
  quote?: TQuote | null;
  market: TMarket;
}

export function computeIndicators({ bars, quote, market }: IndicatorInput): TIndicators {
  const { points, merge } = mergeQuote(bars, quote ?? null, market);
  const closes = points.map((p) => p.close);
  const last = points.at(-1) ?? null;
  const missing: string[] = [];

  const price = last?.close ?? null;
  const ma = {
    ma5: lastSma(closes, 5, missing),
    ma10: lastSma(closes, 10, missing),
    ma20: lastSma(closes, 20, missing),
    ma60: lastSma(closes, 60, missing),
  };
  const bias = { ma5: biasPct(price, ma.ma5), ma20: biasPct(price, ma.ma20) };
  const macd = computeMacd(closes, missing);
  const rsi = {
    rsi6: lastRsi(closes, 6, missing),
    rsi12: lastRsi(closes, 12, missing),
    rsi24: lastRsi(closes, 24, missing),
  };
  const volume = computeVolume(points, quote ?? null, merge);
  // The 20 sessions before the latest: today's own high is not resistance to today's close, and a close
  // above the prior 20-day high is a breakout with no such level left above it.
  const prior20 = points.slice(-21, -1);
  const high20 = prior20.length === 20 ? Math.max(...prior20.map((p) => p.high)) : null;
  const low20 = prior20.length === 20 ? Math.min(...prior20.map((p) => p.low)) : null;
  const trend = computeTrend(closes, missing);
  const atr14 = lastVolatility(points, new ATR(VOLATILITY_PERIOD), "atr14", missing);
  const adx14 = lastVolatility(points, new ADX(VOLATILITY_PERIOD), "adx14", missing);
  const ma60Before = smaAt(closes, 60, closes.length - REGIME_SLOPE_BARS);
  const ma60SlopePct = ma.ma60 !== null && ma60Before !== null ? ((ma.ma60 - ma60Before) / ma60Before) * 100 : null;
  const extensionAtr =
    price !== null && ma.ma10 !== null && atr14 !== null && atr14 > 0 ? (price - ma.ma10) / atr14 : null;

  return {
    bars_used: points.length,
    last_bar_date: bars.at(-1)?.date ?? null,
    price,
    price_source: price === null ? null : merge === "appended" || merge === "replaced" ? "quote" : "bar",
    quote_merge: merge,
    change_pct: seriesChangePct(points, quote ?? null, merge),
    ma,
    bias,
    macd,
    rsi,
    volume,
    turnover_rate: quote?.turnover_rate ?? (merge === "appended" ? null : (bars.at(-1)?.turnover_rate ?? null)),
    high_20: high20,
    low_20: low20,
    support: price === null ? [] : supportLevels(points, price, ma, low20),
    resistance: price === null ? [] : resistanceLevels(points, price, ma, high20),
    trend,
    atr14,
    adx14,
    ma60_slope_pct: ma60SlopePct,
    extension_atr: extensionAtr,
    regime: regimeOf(price, ma.ma20, ma.ma60, ma60SlopePct),
    missing,
  };
}

/**
 * rules-v2 structure. Up: MA20 above MA60, MA60 rising and the price above it (the 3-month trend and the
 * 1-month trend agree and the price has not broken it); down is the mirror; anything else is flat (a range, or a
 * trend changing hands). Null without MA60 and its slope (under 70 bars: a newly listed stock, or one back
 * from a long suspension, has no 3-month structure yet, and its first weeks say little about the next ones).
 */
export function regimeOf(
  price: number | null,
  ma20: number | null,
  ma60: number | null,
  ma60SlopePct: number | null,
): TIndicators["regime"] {
  if (price === null || ma20 === null || ma60 === null || ma60SlopePct === null) return null;
  if (ma20 > ma60 && ma60SlopePct > 0 && price > ma60) return "up";
  if (ma20 < ma60 && ma60SlopePct < 0 && price < ma60) return "down";
  return "flat";
}

function lastVolatility(
  points: readonly SeriesPoint[],
  indicator: ATR | ADX,
  name: string,
  missing: string[],
): number | null {
  let value: number | null = null;
  for (const p of points)
    value = (indicator.add({ high: p.high, low: p.low, close: p.close }) as number | null) ?? value;
  if (value === null) missing.push(`${name} (needs ${indicator.getRequiredInputs()} bars)`);
  return value;
}

type Merge = TIndicators["quote_merge"];

// The merge of quote and bars lives in lib/market/one-price.ts: portfolio valuation and alert
// checks read the same series, so every feature shows the same price for the same moment.
export { mergeQuoteBars, type MergedSeries };

function mergeQuote(
  bars: readonly TDailyBar[],
  quote: TQuote | null,
  market: TMarket,
): { points: SeriesPoint[]; merge: Merge } {
  const merged = mergeQuoteBars(bars, quote, market);
  return {
    points: merged.bars.map((b) => ({ date: b.date, close: b.close, high: b.high, low: b.low, volume: b.volume })),
    merge: merged.merge,
  };
}

function lastSma(closes: readonly number[], period: number, missing: string[]): number | null {
  if (closes.length < period) {
    missing.push(`ma${period} (needs ${period} bars)`);
    return null;
  }
  return smaSeries(closes.slice(-period), period).at(-1) ?? null;
}

function biasPct(price: number | null, ma: number | null): number | null {
  if (price === null || ma === null || ma === 0) return null;
  return ((price - ma) / ma) * 100;
}

function lastRsi(closes: readonly number[], period: number, missing: string[]): number | null {
  const value = rsiSeries(closes, period).at(-1) ?? null;
  if (value === null) missing.push(`rsi${period} (needs ${period + 1} bars)`);
  return value;
}

function computeMacd(closes: readonly number[], missing: string[]): TIndicators["macd"] {
  if (closes.length < MACD_MIN_BARS) {
    missing.push(`macd (needs ${MACD_MIN_BARS} bars)`);
    return null;
  }
  const points = macdSeries(closes, MACD_FAST, MACD_SLOW, MACD_SIGNAL).filter((p) => p !== null);
  const result = points.at(-1);
  if (!result) return null;
  const diffs = points.map((p) => p.dif - p.dea); // DIF − DEA per bar, to find the latest cross and the histogram's direction
  const cross = latestCross(diffs);
  const before = points.length >= 2 ? points[points.length - 2]!.histogram : null;
  return {
    dif: result.dif,
    dea: result.dea,
    histogram: result.histogram,
    cross: cross?.kind ?? null,
    cross_bars_ago: cross?.barsAgo ?? null,
    histogram_prev: before,
  };
}

function latestCross(diffs: readonly number[]): { kind: "golden" | "death"; barsAgo: number } | null {
  const start = Math.max(1, diffs.length - CROSS_LOOKBACK);
  for (let i = diffs.length - 1; i >= start; i -= 1) {
    const before = diffs[i - 1]!;
    const after = diffs[i]!;
    if (before <= 0 && after > 0) return { kind: "golden", barsAgo: diffs.length - 1 - i };
    if (before >= 0 && after < 0) return { kind: "death", barsAgo: diffs.length - 1 - i };
  }
  return null;
}

/** Today's volume over the previous five days' mean; the quote's own ratio is preferred (it is time-of-day aware). */
export function computeVolume(
  points: readonly Pick<SeriesPoint, "volume">[],
  quote: TQuote | null,
  merge: Merge,
): TIndicators["volume"] {
  const today = points.at(-1)?.volume;
  const previous = points.slice(-6, -1).map((p) => p.volume);
  const avg5 =
    previous.length === 5 && previous.every(Number.isFinite) ? previous.reduce((s, v) => s + v, 0) / 5 : null;
  const todayVolume = today !== undefined && Number.isFinite(today) ? today : null;
  if (quote?.volume_ratio !== null && quote?.volume_ratio !== undefined && merge !== "ignored_stale") {
    return { today: todayVolume, avg5, ratio: quote.volume_ratio, ratio_source: "quote" };
  }
  const ratio = todayVolume !== null && avg5 !== null && avg5 > 0 ? todayVolume / avg5 : null;
  return { today: todayVolume, avg5, ratio, ratio_source: ratio === null ? null : "bars" };
}

function smaAt(closes: readonly number[], period: number, endExclusive: number): number | null {
  if (endExclusive < period) return null;
  let sum = 0;
  for (let i = endExclusive - period; i < endExclusive; i += 1) sum += closes[i]!;
  return sum / period;
}

/**
 * reference §3: MA5 > MA10 > MA20 is a bullish alignment (strong when the MA5–MA20 spread is > 5 % and
 * widening over five bars), the mirror is bearish; MA5 > MA10 alone is weak bullish, and so on.
 */
function computeTrend(closes: readonly number[], missing: string[]): TIndicators["trend"] {
  const n = closes.length;
  const ma5 = smaAt(closes, 5, n);
  const ma10 = smaAt(closes, 10, n);
  const ma20 = smaAt(closes, 20, n);
  if (ma5 === null || ma10 === null || ma20 === null) {
    missing.push("trend (needs 20 bars)");
    return null;
  }
  const spread = ((ma5 - ma20) / ma20) * 100;
  const ma5Before = smaAt(closes, 5, n - 5);
  const ma20Before = smaAt(closes, 20, n - 5);
  const spreadBefore = ma5Before !== null && ma20Before !== null ? ((ma5Before - ma20Before) / ma20Before) * 100 : null;
  const widening =
    spreadBefore === null
      ? null
      : Math.abs(spread) > Math.abs(spreadBefore) && Math.sign(spread) === Math.sign(spreadBefore);
  return {
    state: trendState(ma5, ma10, ma20, spread, widening),
    ma5_ma20_spread_pct: spread,
    spread_widening: widening,
  };
}

function trendState(ma5: number, ma10: number, ma20: number, spread: number, widening: boolean | null): TTrendState {
  if (ma5 > ma10 && ma10 > ma20) return widening && spread > STRONG_SPREAD_PCT ? "strong_bullish" : "bullish";
  if (ma5 < ma10 && ma10 < ma20) return widening && spread < -STRONG_SPREAD_PCT ? "strong_bearish" : "bearish";
  if (ma5 > ma10 && ma5 > ma20) return "weak_bullish";
  if (ma5 < ma10 && ma5 < ma20) return "weak_bearish";
  return "consolidation";
}

function swingPoints(points: readonly SeriesPoint[], side: "low" | "high"): { price: number; date: string }[] {
  const out: { price: number; date: string }[] = [];
  const from = Math.max(SWING_WING, points.length - SWING_LOOKBACK);
  // The last SWING_WING bars cannot be confirmed yet, so they are not swing points.
  for (let i = from; i < points.length - SWING_WING; i += 1) {
    const v = points[i]![side];
    let extreme = true;
    for (let k = i - SWING_WING; k <= i + SWING_WING && extreme; k += 1) {
      if (k === i) continue;
      const other = points[k]![side];
      extreme = side === "low" ? v <= other : v >= other;
    }
    if (extreme) out.push({ price: v, date: points[i]!.date });
  }
  return out;
}

type MaLevels = TIndicators["ma"];

function maLevels(ma: MaLevels): TPriceLevel[] {
  const out: TPriceLevel[] = [];
  for (const basis of ["ma5", "ma10", "ma20", "ma60"] as const) {
    const v = ma[basis];
    if (v !== null) out.push({ price: v, basis });
  }
  return out;
}

// Levels closer than 0.3 % to one already kept add nothing for a trader.
function dedupLevels(levels: TPriceLevel[]): TPriceLevel[] {
  const kept: TPriceLevel[] = [];
  for (const l of levels) if (!kept.some((k) => Math.abs(k.price - l.price) / k.price < 0.003)) kept.push(l);
  return kept;
}

function supportLevels(
  points: readonly SeriesPoint[],
  price: number,
  ma: MaLevels,
  low20: number | null,
): TPriceLevel[] {
  const candidates: TPriceLevel[] = [
    ...maLevels(ma),
    ...swingPoints(points, "low").map((p) => ({ price: p.price, basis: "swing_low" as const, date: p.date })),
  ];
  if (low20 !== null) candidates.push({ price: low20, basis: "low_20" });
  const below = candidates.filter((l) => l.price < price).sort((a, b) => b.price - a.price);
  return dedupLevels(below).slice(0, 5);
}

function resistanceLevels(
  points: readonly SeriesPoint[],
  price: number,
  ma: MaLevels,
  high20: number | null,
): TPriceLevel[] {
  const candidates: TPriceLevel[] = [
    ...maLevels(ma),
    ...swingPoints(points, "high").map((p) => ({ price: p.price, basis: "swing_high" as const, date: p.date })),
  ];
  if (high20 !== null) candidates.push({ price: high20, basis: "high_20" });
  const above = candidates.filter((l) => l.price > price).sort((a, b) => a.price - b.price);
  return dedupLevels(above).slice(0, 5);
}
