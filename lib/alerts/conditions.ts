import { cciSeries, computeVolume, kdjSeries, macdSeries, rsiSeries, smaSeries } from "@/lib/analysis/engine";
import type { MergedSeries, OnePrice, TQuote } from "@/lib/market";
import type { TPortfolioRisk } from "@/lib/portfolio/risk-schema";
import type { TMarketAlertType, TParametersOf, TPortfolioAlertType, TSymbolAlertType } from "./parameters";

// The condition of each alert type, as pure functions of the data the evaluator read: the one-price series of a
// stock (lib/market/current-price.ts: final daily bars, today's bar from the quote), a portfolio risk report, a
// market light reading. Indicator types use the analysis engine's series (lib/analysis/engine/series.ts) and
// fire on the crossing of the latest bar: the previous bar on one side, the latest on the other.

export interface ConditionResult {
  met: boolean;
  observed: number | null;
  threshold: number | null;
  /** English; the page words triggered records in its own language from observed and threshold. */
  reason: string;
  /** What the check could not see (no quote: the last close; a holding without a price). */
  limitations: string[];
  details: Record<string, unknown>;
}

/** The data is not there to decide (too short a history, no quote for a realtime type, no holdings). */
export interface Skipped {
  skipped: string;
  details?: Record<string, unknown>;
}

export type Check = ConditionResult | Skipped;

export function isSkipped(check: Check): check is Skipped {
  return "skipped" in check;
}

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

function result(
  met: boolean,
  observed: number | null,
  threshold: number | null,
  reason: string,
  extra: Partial<Pick<ConditionResult, "limitations" | "details">> = {},
): ConditionResult {
  return {
    met,
    observed: observed === null ? null : round(observed),
    threshold: threshold === null ? null : round(threshold),
    reason,
    limitations: extra.limitations ?? [],
    details: extra.details ?? {},
  };
}

// ---- stocks -----------------------------------------------------------------------------------------

export interface SymbolInput {
  series: MergedSeries;
  quote: TQuote | null;
  /** The price every feature shows for this moment (onePriceOf the series). */
  current: OnePrice;
  /** Why there is no quote, when there is none. */
  quoteFailure: string | null;
}

const REALTIME: readonly TSymbolAlertType[] = ["price_cross", "price_change_percent", "volume_spike"];

/** Daily bars the type needs: the evaluator reads a longer history so EMA and Wilder seeds settle. */
export function barsNeeded(type: TSymbolAlertType, p: Record<string, unknown>): number {
  const n = (key: string) => Number(p[key] ?? 0);
  switch (type) {
    case "price_cross":
    case "price_change_percent":
      return 2;
    case "volume_spike":
      return 6;
    case "ma_price_cross":
      return n("window") + 1;
    case "rsi_threshold":
      return n("period") + 2;
    case "macd_cross":
      return n("slow_period") + n("signal_period") + 1;
    case "kdj_cross":
      return n("period") + n("k_period") + n("d_period") + 1;
    case "cci_threshold":
      return n("period") + 1;
  }
}

/** Bars to read for a type: enough for the warm-up of the recursive averages (EMA, Wilder), at least a year. */
export function barsToRead(type: TSymbolAlertType, p: Record<string, unknown>): number {
  return REALTIME.includes(type) ? barsNeeded(type, p) : Math.max(250, barsNeeded(type, p) * 2);
}

function lastTwo<T>(values: readonly (T | null)[]): [T, T] | null {
  const a = values.at(-2);
  const b = values.at(-1);
  return a === null || a === undefined || b === null || b === undefined ? null : [a, b];
}

/** The latest bar crossed: a was at or below b before and is above it now (up), or the mirror (down). */
function crossed(direction: "up" | "down", before: [number, number], now: [number, number]): boolean {
  return direction === "up" ? before[0] <= before[1] && now[0] > now[1] : before[0] >= before[1] && now[0] < now[1];
}

const verb = (direction: "up" | "down", met: boolean) =>
  met
    ? direction === "up"
      ? "crossed above"
      : "crossed below"
    : direction === "up"
      ? "did not cross above"
      : "did not cross below";

export function checkSymbolCondition<T extends TSymbolAlertType>(
  type: T,
  parameters: TParametersOf<T>,
  input: SymbolInput,
): Check {
  const { series, quote, current } = input;
  if (REALTIME.includes(type) && quote === null) return { skipped: `no quote: ${input.quoteFailure ?? "none"}` };
  const bars = series.bars;
  const closes = bars.map((b) => b.close);
  const limitations = quote === null ? ["no quote: the latest bar is the last close"] : [];
  const needed = barsNeeded(type, parameters as Record<string, unknown>);
  const short = (what: string): Skipped => ({
    skipped: `${what} needs ${needed} daily bars, ${bars.length} available`,
    details: { bars: bars.length, needed },
  });

  switch (type) {
    case "price_cross": {
      const p = parameters as TParametersOf<"price_cross">;
      const met = p.direction === "above" ? current.price > p.price : current.price < p.price;
      const sign = p.direction === "above" ? (met ? ">" : "<=") : met ? "<" : ">=";
      return result(met, current.price, p.price, `price ${current.price} ${sign} ${p.price}`, {
        details: { basis: current.basis },
      });
    }
    case "price_change_percent": {
      const p = parameters as TParametersOf<"price_change_percent">;
      if (current.change_pct === null) return { skipped: "no daily change (one bar only)" };
      const change = round(current.change_pct);
      const threshold = p.direction === "up" ? p.change_pct : -p.change_pct;
      const met = p.direction === "up" ? change >= threshold : change <= threshold;
      return result(
        met,
        change,
        threshold,
        `daily change ${change}% ${met ? (p.direction === "up" ? ">=" : "<=") : p.direction === "up" ? "<" : ">"} ${threshold}%`,
      );
    }
    case "volume_spike": {
      const p = parameters as TParametersOf<"volume_spike">;
      const volume = computeVolume(bars, quote, series.merge);
      if (volume.ratio === null)
        return { skipped: "no volume ratio (the quote has none and the bars lack five earlier days)" };
      const met = volume.ratio >= p.multiplier;
      return result(
        met,
        volume.ratio,
        p.multiplier,
        `volume ratio ${round(volume.ratio)} ${met ? ">=" : "<"} ${p.multiplier}`,
        { details: { ratio_source: volume.ratio_source, volume: volume.today, avg5: volume.avg5 } },
      );
    }
    case "ma_price_cross": {
      const p = parameters as TParametersOf<"ma_price_cross">;
      const ma = lastTwo(smaSeries(closes, p.window));
      const close = lastTwo(closes);
      if (!ma || !close) return short(`MA${p.window}`);
      const direction = p.direction === "above" ? "up" : "down";
      const met = crossed(direction, [close[0], ma[0]], [close[1], ma[1]]);
      return result(
        met,
        close[1],
        ma[1],
        `close ${round(close[1])} ${verb(direction, met)} MA${p.window} ${round(ma[1])}`,
        { limitations, details: { previous_close: close[0], previous_ma: round(ma[0]) } },
      );
    }
    case "rsi_threshold": {
      const p = parameters as TParametersOf<"rsi_threshold">;
      const rsi = lastTwo(rsiSeries(closes, p.period));
      if (!rsi) return short(`RSI${p.period}`);
      const direction = p.direction === "above" ? "up" : "down";
      const met = crossed(direction, [rsi[0], p.threshold], [rsi[1], p.threshold]);
      return result(
        met,
        rsi[1],
        p.threshold,
        `RSI${p.period} ${round(rsi[1], 2)} ${verb(direction, met)} ${p.threshold}`,
        { limitations, details: { previous: round(rsi[0]) } },
      );
    }
    case "macd_cross": {
      const p = parameters as TParametersOf<"macd_cross">;
      const macd = lastTwo(macdSeries(closes, p.fast_period, p.slow_period, p.signal_period));
      if (!macd) return short("MACD");
      const direction = p.direction === "bullish_cross" ? "up" : "down";
      const met = crossed(direction, [macd[0].dif, macd[0].dea], [macd[1].dif, macd[1].dea]);
      return result(
        met,
        macd[1].dif,
        macd[1].dea,
        `MACD DIF ${round(macd[1].dif)} ${verb(direction, met)} DEA ${round(macd[1].dea)}`,
        {
          limitations,
          details: {
            histogram: round(macd[1].histogram),
            previous_dif: round(macd[0].dif),
            previous_dea: round(macd[0].dea),
          },
        },
      );
    }
    case "kdj_cross": {
      const p = parameters as TParametersOf<"kdj_cross">;
      const kdj = lastTwo(kdjSeries(bars, p.period, p.k_period, p.d_period));
      if (!kdj) return short("KDJ");
      const direction = p.direction === "bullish_cross" ? "up" : "down";
      const met = crossed(direction, [kdj[0].k, kdj[0].d], [kdj[1].k, kdj[1].d]);
      return result(
        met,
        kdj[1].k,
        kdj[1].d,
        `KDJ K ${round(kdj[1].k, 2)} ${verb(direction, met)} D ${round(kdj[1].d, 2)}`,
        {
          limitations,
          details: { j: round(kdj[1].j), previous_k: round(kdj[0].k), previous_d: round(kdj[0].d) },
        },
      );
    }
    case "cci_threshold": {
      const p = parameters as TParametersOf<"cci_threshold">;
      const cci = lastTwo(cciSeries(bars, p.period));
      if (!cci) return short(`CCI${p.period}`);
      const direction = p.direction === "above" ? "up" : "down";
      const met = crossed(direction, [cci[0], p.threshold], [cci[1], p.threshold]);
      return result(
        met,
        cci[1],
        p.threshold,
        `CCI${p.period} ${round(cci[1], 2)} ${verb(direction, met)} ${p.threshold}`,
        { limitations, details: { previous: round(cci[0]) } },
      );
    }
  }
  return { skipped: `unknown type ${type}` };
}

// ---- portfolio accounts -----------------------------------------------------------------------------

function priceLimitations(risk: TPortfolioRisk): string[] {
  return risk.warnings.filter((w) => w.code === "price_stale" || w.code === "price_unavailable").map((w) => w.message);
}

export function checkPortfolioCondition<T extends TPortfolioAlertType>(
  type: T,
  parameters: TParametersOf<T>,
  risk: TPortfolioRisk,
): Check {
  if (risk.positions.length === 0) return { skipped: "no holdings" };
  const limitations = type === "portfolio_price_stale" ? [] : priceLimitations(risk);
  switch (type) {
    case "portfolio_stop_loss": {
      const p = parameters as TParametersOf<"portfolio_stop_loss">;
      const items = p.mode === "breach" ? risk.stop_loss.items.filter((i) => i.is_triggered) : risk.stop_loss.items;
      const worst = items.reduce<(typeof items)[number] | null>(
        (w, i) => (w === null || i.loss_pct > w.loss_pct ? i : w),
        null,
      );
      const threshold =
        p.mode === "breach"
          ? risk.thresholds.stop_loss_alert_pct
          : risk.thresholds.stop_loss_alert_pct * risk.thresholds.stop_loss_near_ratio;
      const maxLoss = risk.stop_loss.items.reduce((m, i) => Math.max(m, i.loss_pct), 0);
      const reason = worst
        ? `${items.length} holding(s) ${p.mode === "breach" ? "past" : "near"} the stop loss; ${worst.symbol} is ${worst.loss_pct}% below its cost (limit ${round(threshold, 2)}%)`
        : `no holding ${p.mode === "breach" ? "past" : "near"} the stop loss (${round(threshold, 2)}% below cost)`;
      return result(worst !== null, worst?.loss_pct ?? maxLoss, threshold, reason, {
        limitations,
        details: { mode: p.mode, symbols: items.map((i) => i.symbol) },
      });
    }
    case "portfolio_concentration": {
      const limit = risk.thresholds.concentration_alert_pct;
      const top = risk.concentration.top_positions[0];
      const met = risk.concentration.alert;
      return result(
        met,
        risk.concentration.top_weight_pct,
        limit,
        `largest holding ${top?.symbol ?? "-"} is ${risk.concentration.top_weight_pct}% of the portfolio (limit ${limit}%)`,
        {
          limitations,
          details: { symbol: top?.symbol ?? null },
        },
      );
    }
    case "portfolio_drawdown": {
      const limit = risk.thresholds.drawdown_alert_pct;
      const met = risk.drawdown.alert;
      return result(
        met,
        risk.drawdown.max_drawdown_pct,
        limit,
        `maximum drawdown ${risk.drawdown.max_drawdown_pct}% over ${risk.thresholds.lookback_days} days (limit ${limit}%)`,
        {
          limitations,
          details: { current_drawdown_pct: risk.drawdown.current_drawdown_pct },
        },
      );
    }
    case "portfolio_price_stale": {
      const stale = risk.warnings.filter((w) => w.code === "price_stale" || w.code === "price_unavailable");
      return result(
        stale.length > 0,
        stale.length,
        null,
        stale.length > 0
          ? `${stale.length} holding(s) without a current price: ${stale.map((w) => w.symbol).join(", ")}`
          : "every holding has a current price",
        {
          details: { symbols: stale.map((w) => w.symbol) },
        },
      );
    }
  }
  return { skipped: `unknown type ${type}` };
}

// ---- market light -----------------------------------------------------------------------------------

export interface MarketLightReading {
  region: string;
  /** The trading day of the index quotes the light was computed from. */
  date: string | null;
  score: number | null;
  light: "green" | "yellow" | "red" | null;
  /** Parts of the score that could not be measured (index, breadth, limit). */
  missing: string[];
}

export interface PreviousLight {
  date: string;
  score: number;
  source: string;
}

export function checkMarketCondition<T extends TMarketAlertType>(
  type: T,
  parameters: TParametersOf<T>,
  reading: MarketLightReading,
  previous: PreviousLight | null,
): Check {
  if (reading.score === null || reading.light === null)
    return { skipped: "market light unavailable (no index quote and no breadth)" };
  const limitations = reading.missing.map((m) => `market light without its ${m} part`);
  const details = {
    region: reading.region,
    trade_date: reading.date,
    light: reading.light,
    missing_dimensions: reading.missing,
  };
  if (type === "market_light_status") {
    const p = parameters as TParametersOf<"market_light_status">;
    const met = (p.statuses as readonly string[]).includes(reading.light);
    return result(
      met,
      reading.score,
      null,
      `market light ${reading.light} (score ${reading.score}) ${met ? "matches" : "does not match"} ${p.statuses.join("/")}`,
      { limitations, details },
    );
  }
  const p = parameters as TParametersOf<"market_light_score_drop">;
  if (!previous) return { skipped: "no market light of an earlier trading day to compare with", details };
  const drop = round(previous.score - reading.score, 2);
  const met = drop >= p.min_drop;
  return result(
    met,
    reading.score,
    p.min_drop,
    `market light score ${previous.score} (${previous.date}) → ${reading.score}: drop ${drop} ${met ? ">=" : "<"} ${p.min_drop}`,
    {
      limitations,
      details: {
        ...details,
        prev_trade_date: previous.date,
        prev_score: previous.score,
        prev_source: previous.source,
        drop,
      },
    },
  );
}
