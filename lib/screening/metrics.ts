import { rsiSeries, smaSeries } from "@/lib/analysis/engine/series";
import type { TDailyBar } from "@/lib/market";
import type { TMetric } from "./strategy-schema";

// The figures a strategy filters on, each computed from a stock's final daily bars (oldest first) and rounded as
// shown. A figure the history is too short for is null, and a filter on it fails: never a stand-in value.

export type Metrics = Record<TMetric, number | null>;

const YEAR_BARS = 250;
const CROSS_LOOKBACK = 60;
/** Bars a screening run reads per stock: the 52-week high needs 250 before the last bar. */
export const METRIC_BARS = YEAR_BARS + 1;

const round = (value: number | null, digits = 2): number | null =>
  value === null || !Number.isFinite(value) ? null : Math.round(value * 10 ** digits) / 10 ** digits;

const pct = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a == null || b == null || b === 0 ? null : (a / b - 1) * 100;

function retPct(closes: readonly number[], sessions: number): number | null {
  if (closes.length <= sessions) return null;
  return pct(closes.at(-1), closes.at(-1 - sessions));
}

/** Sessions since MA5 last crossed above MA20 (0: on the last bar); null when MA5 is not above MA20 now. */
function crossDays(ma5: readonly (number | null)[], ma20: readonly (number | null)[]): number | null {
  const n = ma5.length;
  const above = (i: number) => ma5[i] != null && ma20[i] != null && ma5[i]! > ma20[i]!;
  if (n === 0 || !above(n - 1)) return null;
  for (let back = 0; back < CROSS_LOOKBACK && n - 2 - back >= 0; back += 1) {
    const i = n - 1 - back;
    if (ma5[i - 1] == null || ma20[i - 1] == null) return null;
    if (!above(i - 1)) return back;
  }
  return null;
}

function stdDev(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
}

export function computeMetrics(bars: readonly TDailyBar[], benchmark: readonly TDailyBar[] | null): Metrics {
  const closes = bars.map((b) => b.close);
  const last = bars.at(-1);
  const ma5s = smaSeries(closes, 5);
  const ma20s = smaSeries(closes, 20);
  const ma60s = smaSeries(closes, 60);
  const ma5 = ma5s.at(-1) ?? null;
  const ma20 = ma20s.at(-1) ?? null;
  const ma60 = ma60s.at(-1) ?? null;
  const close = last?.close ?? null;
  const priorVolumes = bars.slice(-6, -1).map((b) => b.volume);
  const avgVolume = priorVolumes.length === 5 ? priorVolumes.reduce((s, v) => s + v, 0) / 5 : null;
  const returns = closes.slice(-21).flatMap((c, i, all) => (i === 0 ? [] : [(c / all[i - 1]! - 1) * 100]));
  const prior20 = bars.slice(-21, -1);
  const priorYear = bars.slice(-1 - YEAR_BARS, -1);
  const high52 = priorYear.length === YEAR_BARS ? Math.max(...priorYear.map((b) => b.high)) : null;
  const ret60 = retPct(closes, 60);
  const benchRet60 = benchmark
    ? retPct(
        benchmark.map((b) => b.close),
        60,
      )
    : null;
  return {
    close: round(close, 4),
    change_pct: round(retPct(closes, 1)),
    ret_5d_pct: round(retPct(closes, 5)),
    ret_20d_pct: round(retPct(closes, 20)),
    ret_60d_pct: round(ret60),
    ma5: round(ma5, 4),
    ma20: round(ma20, 4),
    ma60: round(ma60, 4),
    close_vs_ma20_pct: round(pct(close, ma20)),
    close_vs_ma60_pct: round(pct(close, ma60)),
    ma20_vs_ma60_pct: round(pct(ma20, ma60)),
    ma20_slope_pct: round(pct(ma20, ma20s.at(-6))),
    volume_ratio: avgVolume && last ? round(last.volume / avgVolume) : null,
    amount: last?.amount ?? null,
    rsi14: round(rsiSeries(closes, 14).at(-1) ?? null),
    volatility_20d_pct: returns.length === 20 ? round(stdDev(returns)) : null,
    high_52w: high52,
    close_vs_high_52w_pct: round(pct(close, high52)),
    breakout_20d_pct: prior20.length === 20 ? round(pct(close, Math.max(...prior20.map((b) => b.high)))) : null,
    ma5_cross_ma20_days: crossDays(ma5s, ma20s),
    excess_ret_60d_pct: ret60 === null || benchRet60 === null ? null : round(ret60 - benchRet60),
  };
}

/** How each metric reads in a reason: its label and unit. */
export const METRIC_TEXT: Record<TMetric, { zh: string; en: string; unit: "" | "%" | "days" }> = {
  close: { zh: "收盘价", en: "Close", unit: "" },
  change_pct: { zh: "当日涨跌幅", en: "Day change", unit: "%" },
  ret_5d_pct: { zh: "5 日涨幅", en: "5-session return", unit: "%" },
  ret_20d_pct: { zh: "20 日涨幅", en: "20-session return", unit: "%" },
  ret_60d_pct: { zh: "60 日涨幅", en: "60-session return", unit: "%" },
  ma5: { zh: "MA5", en: "MA5", unit: "" },
  ma20: { zh: "MA20", en: "MA20", unit: "" },
  ma60: { zh: "MA60", en: "MA60", unit: "" },
  close_vs_ma20_pct: { zh: "收盘价相对 MA20", en: "Close vs MA20", unit: "%" },
  close_vs_ma60_pct: { zh: "收盘价相对 MA60", en: "Close vs MA60", unit: "%" },
  ma20_vs_ma60_pct: { zh: "MA20 相对 MA60", en: "MA20 vs MA60", unit: "%" },
  ma20_slope_pct: { zh: "MA20 五日变化", en: "MA20 change over 5 sessions", unit: "%" },
  volume_ratio: { zh: "量比（对前 5 日均量）", en: "Volume vs 5-day average", unit: "" },
  amount: { zh: "成交额", en: "Turnover amount", unit: "" },
  rsi14: { zh: "RSI(14)", en: "RSI(14)", unit: "" },
  volatility_20d_pct: { zh: "20 日波动率", en: "20-day volatility", unit: "%" },
  high_52w: { zh: "52 周最高价", en: "52-week high", unit: "" },
  close_vs_high_52w_pct: { zh: "收盘价相对 52 周最高价", en: "Close vs 52-week high", unit: "%" },
  breakout_20d_pct: { zh: "收盘价相对前 20 日最高价", en: "Close vs prior 20-session high", unit: "%" },
  ma5_cross_ma20_days: { zh: "MA5 上穿 MA20 后的交易日数", en: "Sessions since MA5 crossed above MA20", unit: "days" },
  excess_ret_60d_pct: { zh: "60 日超额收益（对基准指数）", en: "60-session return above the benchmark", unit: "%" },
};
