import { CCI, EMA, MACD, RSI, SMA, StochasticOscillator } from "trading-signals";

// Indicator series of the analysis engine, one value per input bar (oldest first; null while an indicator warms up
// or when its value is not finite), computed with trading-signals. The engine's headline figures (indicators.ts)
// take the last value of these; alert rules (lib/alerts) compare the last two. One implementation for both.

export type NumberSeries = (number | null)[];

export interface Candle {
  high: number;
  low: number;
  close: number;
}

export interface MacdPoint {
  dif: number;
  dea: number;
  /** 2 × (DIF − DEA): the bar of the Chinese MACD chart. */
  histogram: number;
}

export interface KdjPoint {
  k: number;
  d: number;
  j: number;
}

const finite = (value: number | null | undefined): number | null =>
  value !== null && value !== undefined && Number.isFinite(value) ? value : null;

/** Simple moving average of `period` values. */
export function smaSeries(values: readonly number[], period: number): NumberSeries {
  const sma = new SMA(period);
  return values.map((v) => finite(sma.add(v)));
}

/** Wilder's RSI of `period` closes (first value after period + 1 closes). */
export function rsiSeries(closes: readonly number[], period: number): NumberSeries {
  const rsi = new RSI(period);
  return closes.map((c) => finite(rsi.add(c)));
}

/** MACD: DIF = EMA(fast) − EMA(slow), DEA = EMA(signal) of DIF. */
export function macdSeries(
  closes: readonly number[],
  fast: number,
  slow: number,
  signal: number,
): (MacdPoint | null)[] {
  const macd = new MACD(new EMA(fast), new EMA(slow), new EMA(signal));
  return closes.map((c) => {
    const r = macd.add(c);
    if (!r || finite(r.macd) === null || finite(r.signal) === null) return null;
    return { dif: r.macd, dea: r.signal, histogram: 2 * r.histogram };
  });
}

/**
 * KDJ as trading-signals' stochastic oscillator computes it: RSV over `period` bars, K its simple average over
 * `kPeriod`, D the simple average of K over `dPeriod`, J = 3K − 2D.
 */
export function kdjSeries(
  candles: readonly Candle[],
  period: number,
  kPeriod: number,
  dPeriod: number,
): (KdjPoint | null)[] {
  const stoch = new StochasticOscillator({ kPeriod: period, kSlowingPeriod: kPeriod, dPeriod });
  return candles.map((c) => {
    const r = stoch.add({ high: c.high, low: c.low, close: c.close });
    if (!r || finite(r.stochK) === null || finite(r.stochD) === null) return null;
    return { k: r.stochK, d: r.stochD, j: r.stochJ };
  });
}

/** Commodity Channel Index over `period` bars (typical price, 0.015 × mean deviation); null when the range is flat. */
export function cciSeries(candles: readonly Candle[], period: number): NumberSeries {
  const cci = new CCI(period);
  return candles.map((c) => finite(cci.add({ high: c.high, low: c.low, close: c.close })));
}
