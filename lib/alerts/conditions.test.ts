import { describe, expect, it } from "vitest";
import { cciSeries, computeIndicators, kdjSeries, macdSeries, rsiSeries, smaSeries } from "@/lib/analysis/engine";
import { barsFromCloses } from "@/tests/kits/test-bars";
import { onePriceOf, type TDailyBar, type TQuote } from "@/lib/market";
import type { TPortfolioRisk } from "@/lib/portfolio/risk-schema";
import {
  checkMarketCondition,
  checkPortfolioCondition,
  checkSymbolCondition,
  isSkipped,
  type Check,
  type ConditionResult,
  type SymbolInput,
} from "./conditions";
import { normalizeParameters, PARAMETER_SCHEMAS, type TParametersOf, type TSymbolAlertType } from "./parameters";

// Each alert type's condition on crafted bars. Indicator values are cross-checked against the analysis
// engine (its headline figures for MA20, RSI12 and MACD(12,26,9)) and, for KDJ and CCI, against their textbook
// formulas; indicator types fire on the crossing of the latest bar only.

const params = <T extends TSymbolAlertType>(type: T, raw: Record<string, unknown>) =>
  PARAMETER_SCHEMAS[type].parse(raw) as TParametersOf<T>;

function input(bars: TDailyBar[], quote: TQuote | null = null): SymbolInput {
  const series = { bars, merge: quote ? ("replaced" as const) : ("none" as const) };
  return { series, quote, current: onePriceOf(series, quote)!, quoteFailure: quote ? null : "no provider quoted it" };
}

function met(check: Check): ConditionResult {
  if (isSkipped(check)) throw new Error(`skipped: ${check.skipped}`);
  return check;
}

function quoteOf(bar: TDailyBar, fields: Partial<TQuote> = {}): TQuote {
  return {
    price: bar.close,
    change: 0,
    change_pct: 0,
    volume: bar.volume,
    amount: null,
    volume_ratio: null,
    turnover_rate: null,
    high: bar.high,
    low: bar.low,
    open: bar.open,
    prev_close: null,
    time: `${bar.date}T10:00:00+08:00`,
    source: "sample",
    ...fields,
  };
}

// A wave with a slow drift: every oscillator crosses up and down several times.
const wave = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => Math.round((100 + 8 * Math.sin(i / 4) + 3 * Math.sin(i / 1.7) + i * 0.05) * 100) / 100,
  );

/** The last index from `from` whose bar makes `crossed(prev, now)` true. */
function lastCross<T>(values: readonly (T | null)[], from: number, crossed: (prev: T, now: T) => boolean): number {
  for (let i = values.length - 1; i > from; i--) {
    const prev = values[i - 1];
    const now = values[i];
    if (prev !== null && prev !== undefined && now !== null && now !== undefined && crossed(prev, now)) return i;
  }
  throw new Error("no crossing in the crafted series");
}

describe("realtime types read the one price", () => {
  const bars = barsFromCloses([10, 10.2, 10.1, 10.4, 10.3, 10.5, 11]);

  it("price_cross: above and below are strict; the price is the quote's", () => {
    const now = input(bars, quoteOf(bars.at(-1)!, { price: 11 }));
    expect(
      met(checkSymbolCondition("price_cross", params("price_cross", { direction: "above", price: 10.99 }), now)),
    ).toMatchObject({ met: true, observed: 11, threshold: 10.99 });
    expect(
      met(checkSymbolCondition("price_cross", params("price_cross", { direction: "above", price: 11 }), now)).met,
    ).toBe(false);
    expect(
      met(checkSymbolCondition("price_cross", params("price_cross", { direction: "below", price: 11.01 }), now)).met,
    ).toBe(true);
    expect(
      met(checkSymbolCondition("price_cross", params("price_cross", { direction: "below", price: 11 }), now)).met,
    ).toBe(false);
  });

  it("realtime types need a quote: without one the check is skipped, naming why", () => {
    const check = checkSymbolCondition(
      "price_cross",
      params("price_cross", { direction: "above", price: 1 }),
      input(bars),
    );
    expect(check).toEqual({ skipped: "no quote: no provider quoted it" });
  });

  it("price_change_percent: up fires at ≥ +x, down at ≤ −x (the threshold is signed)", () => {
    const down = input(bars, quoteOf(bars.at(-1)!, { change_pct: -3.2 }));
    expect(
      met(
        checkSymbolCondition(
          "price_change_percent",
          params("price_change_percent", { direction: "down", change_pct: 3 }),
          down,
        ),
      ),
    ).toMatchObject({ met: true, observed: -3.2, threshold: -3 });
    expect(
      met(
        checkSymbolCondition(
          "price_change_percent",
          params("price_change_percent", { direction: "up", change_pct: 3 }),
          down,
        ),
      ).met,
    ).toBe(false);
    const up = input(bars, quoteOf(bars.at(-1)!, { change_pct: 3 }));
    expect(
      met(
        checkSymbolCondition(
          "price_change_percent",
          params("price_change_percent", { direction: "up", change_pct: 3 }),
          up,
        ),
      ).met,
    ).toBe(true);
  });

  it("volume_spike: the engine's volume ratio (the quote's own, else today's volume over the five days before)", () => {
    const withVolumes = barsFromCloses([10, 10, 10, 10, 10, 10], { volumes: [100, 100, 100, 100, 100, 300] });
    const engine = computeIndicators({ bars: withVolumes, quote: quoteOf(withVolumes.at(-1)!), market: "cn" });
    const check = met(
      checkSymbolCondition(
        "volume_spike",
        params("volume_spike", { multiplier: 3 }),
        input(withVolumes, quoteOf(withVolumes.at(-1)!)),
      ),
    );
    expect(check).toMatchObject({ met: true, observed: engine.volume.ratio, threshold: 3 });
    expect(engine.volume.ratio).toBe(3);
    const quoted = met(
      checkSymbolCondition(
        "volume_spike",
        params("volume_spike", { multiplier: 3 }),
        input(withVolumes, quoteOf(withVolumes.at(-1)!, { volume_ratio: 2.5 })),
      ),
    );
    expect(quoted).toMatchObject({ met: false, observed: 2.5 });
  });
});

describe("indicator types fire on the latest bar's crossing, with the engine's values", () => {
  it("ma_price_cross: the close crosses MA(window); the MA is the engine's MA20", () => {
    const closes = [...Array(20).fill(10), 9.8, 10.5];
    const bars = barsFromCloses(closes);
    const check = met(
      checkSymbolCondition("ma_price_cross", params("ma_price_cross", { direction: "above" }), input(bars)),
    );
    const engine = computeIndicators({ bars, market: "cn" });
    expect(check).toMatchObject({ met: true, observed: 10.5, threshold: engine.ma.ma20! });
    expect(check.threshold).toBeCloseTo(10.015, 10);
    expect(check.limitations).toEqual(["no quote: the latest bar is the last close"]);
    // The bar before: below its MA, no crossing up; the crossing down happened there.
    const before = barsFromCloses(closes.slice(0, -1));
    expect(
      met(checkSymbolCondition("ma_price_cross", params("ma_price_cross", { direction: "above" }), input(before))).met,
    ).toBe(false);
    expect(
      met(checkSymbolCondition("ma_price_cross", params("ma_price_cross", { direction: "below" }), input(before))).met,
    ).toBe(true);
    // One more bar still above the MA: no new crossing.
    const after = barsFromCloses([...closes, 10.6]);
    expect(
      met(checkSymbolCondition("ma_price_cross", params("ma_price_cross", { direction: "above" }), input(after))).met,
    ).toBe(false);
    expect(
      checkSymbolCondition("ma_price_cross", params("ma_price_cross", { direction: "above", window: 30 }), input(bars)),
    ).toMatchObject({ skipped: "MA30 needs 31 daily bars, 22 available" });
  });

  it("rsi_threshold: RSI(period) crosses the threshold; RSI12 is the engine's", () => {
    const closes = wave(120);
    const rsi = rsiSeries(closes, 12);
    const at = lastCross(rsi, 30, (p, n) => p <= 55 && n > 55);
    const bars = barsFromCloses(closes.slice(0, at + 1));
    const engine = computeIndicators({ bars, market: "cn" });
    const check = met(
      checkSymbolCondition(
        "rsi_threshold",
        params("rsi_threshold", { direction: "above", threshold: 55 }),
        input(bars),
      ),
    );
    expect(check.met).toBe(true);
    expect(check.observed).toBeCloseTo(engine.rsi.rsi12!, 4);
    expect(check.observed).toBeCloseTo(rsi[at]!, 4);
    expect(
      met(
        checkSymbolCondition(
          "rsi_threshold",
          params("rsi_threshold", { direction: "below", threshold: 55 }),
          input(bars),
        ),
      ).met,
    ).toBe(false);
    const next = barsFromCloses(closes.slice(0, at + 2));
    expect(
      met(
        checkSymbolCondition(
          "rsi_threshold",
          params("rsi_threshold", { direction: "above", threshold: 55 }),
          input(next),
        ),
      ).met,
    ).toBe(false);
  });

  it("macd_cross: DIF crosses DEA; DIF and DEA are the engine's MACD(12,26,9)", () => {
    const closes = wave(160);
    const macd = macdSeries(closes, 12, 26, 9);
    const bull = lastCross(macd, 40, (p, n) => p.dif <= p.dea && n.dif > n.dea);
    const bars = barsFromCloses(closes.slice(0, bull + 1));
    const engine = computeIndicators({ bars, market: "cn" });
    const check = met(
      checkSymbolCondition("macd_cross", params("macd_cross", { direction: "bullish_cross" }), input(bars)),
    );
    expect(check).toMatchObject({ met: true });
    expect(check.observed).toBeCloseTo(engine.macd!.dif, 4);
    expect(check.threshold).toBeCloseTo(engine.macd!.dea, 4);
    expect(engine.macd!.cross).toBe("golden");
    expect(engine.macd!.cross_bars_ago).toBe(0);
    expect(
      met(checkSymbolCondition("macd_cross", params("macd_cross", { direction: "bearish_cross" }), input(bars))).met,
    ).toBe(false);
    const bear = lastCross(macd, 40, (p, n) => p.dif >= p.dea && n.dif < n.dea);
    expect(
      met(
        checkSymbolCondition(
          "macd_cross",
          params("macd_cross", { direction: "bearish_cross" }),
          input(barsFromCloses(closes.slice(0, bear + 1))),
        ),
      ).met,
    ).toBe(true);
    expect(
      checkSymbolCondition(
        "macd_cross",
        params("macd_cross", { direction: "bullish_cross" }),
        input(barsFromCloses(closes.slice(0, 20))),
      ),
    ).toMatchObject({ skipped: "MACD needs 36 daily bars, 20 available" });
  });

  it("kdj_cross: K crosses D; K is the 3-bar mean of RSV(9), D the 3-bar mean of K, J = 3K − 2D", () => {
    const closes = wave(80);
    const bars = barsFromCloses(closes);
    const kdj = kdjSeries(bars, 9, 3, 3);
    const at = lastCross(kdj, 20, (p, n) => p.k <= p.d && n.k > n.d);
    const slice = bars.slice(0, at + 1);
    const check = met(
      checkSymbolCondition("kdj_cross", params("kdj_cross", { direction: "bullish_cross" }), input(slice)),
    );
    // Textbook: RSV = (C − L9) / (H9 − L9) × 100.
    const rsv = (end: number) => {
      const w = slice.slice(end - 8, end + 1);
      const lo = Math.min(...w.map((b) => b.low));
      const hi = Math.max(...w.map((b) => b.high));
      return ((slice[end]!.close - lo) / (hi - lo)) * 100;
    };
    const k = (end: number) => (rsv(end) + rsv(end - 1) + rsv(end - 2)) / 3;
    const d = (k(at) + k(at - 1) + k(at - 2)) / 3;
    expect(check.met).toBe(true);
    expect(check.observed).toBeCloseTo(k(at), 3);
    expect(check.threshold).toBeCloseTo(d, 3);
    expect(check.details.j).toBeCloseTo(3 * k(at) - 2 * d, 3);
    expect(
      met(checkSymbolCondition("kdj_cross", params("kdj_cross", { direction: "bearish_cross" }), input(slice))).met,
    ).toBe(false);
  });

  it("cci_threshold: CCI(period) crosses the threshold; CCI = (TP − SMA(TP)) / (0.015 × mean deviation)", () => {
    const closes = wave(80);
    const bars = barsFromCloses(closes);
    const cci = cciSeries(bars, 14);
    const at = lastCross(cci, 20, (p, n) => p >= -100 && n < -100);
    const slice = bars.slice(0, at + 1);
    const check = met(
      checkSymbolCondition(
        "cci_threshold",
        params("cci_threshold", { direction: "below", threshold: -100 }),
        input(slice),
      ),
    );
    const tp = slice.slice(-14).map((b) => (b.high + b.low + b.close) / 3);
    const mean = tp.reduce((s, v) => s + v, 0) / 14;
    const deviation = tp.reduce((s, v) => s + Math.abs(v - mean), 0) / 14;
    expect(check.met).toBe(true);
    expect(check.observed).toBeCloseTo((tp.at(-1)! - mean) / (0.015 * deviation), 3);
    expect(check.threshold).toBe(-100);
    expect(
      met(
        checkSymbolCondition(
          "cci_threshold",
          params("cci_threshold", { direction: "above", threshold: -100 }),
          input(slice),
        ),
      ).met,
    ).toBe(false);
  });

  it("a flat MA series (sma of equal closes) never crosses", () => {
    const flat = barsFromCloses(Array(40).fill(10));
    expect(
      smaSeries(
        flat.map((b) => b.close),
        20,
      ).at(-1),
    ).toBe(10);
    expect(
      met(checkSymbolCondition("ma_price_cross", params("ma_price_cross", { direction: "above" }), input(flat))).met,
    ).toBe(false);
  });
});

function risk(overrides: Partial<TPortfolioRisk>): TPortfolioRisk {
  const base = {
    as_of: "2026-11-19",
    account_id: 1,
    cost_method: "fifo",
    currency: "CNY",
    thresholds: {
      concentration_alert_pct: 30,
      drawdown_alert_pct: 15,
      stop_loss_alert_pct: 10,
      stop_loss_near_ratio: 0.8,
      lookback_days: 180,
    },
    fx: { source: "settings", rates_to_cny: {} },
    positions: [{ account_id: 1, stock_code: "600519" }],
    concentration: {
      total_market_value: 100,
      top_weight_pct: 40,
      hhi: 0.4,
      alert: true,
      top_positions: [{ symbol: "600519", market_value: 100, weight_pct: 40, is_alert: true }],
    },
    sector_concentration: { available: false, reason: null, classified_count: 0, unclassified_count: 1 },
    exposure: { by_market: [], by_currency: [] },
    drawdown: { series_points: 10, max_drawdown_pct: 12, current_drawdown_pct: 3, alert: false, series: [] },
    volatility_pct: null,
    var_95_1d: null,
    stop_loss: {
      near_alert: true,
      triggered_count: 0,
      near_count: 1,
      items: [
        {
          account_id: 1,
          symbol: "600519",
          avg_cost: 100,
          last_price: 91,
          loss_pct: 9,
          near_threshold_pct: 8,
          is_triggered: false,
        },
      ],
    },
    decision_signal_risk: { available: true, total: 0, actions: {}, items: [] },
    warnings: [],
  };
  return { ...base, ...overrides } as unknown as TPortfolioRisk;
}

describe("portfolio types read the risk report", () => {
  it("stop loss: near fires on a holding in the near band, breach only past the stop", () => {
    expect(met(checkPortfolioCondition("portfolio_stop_loss", { mode: "near" }, risk({})))).toMatchObject({
      met: true,
      observed: 9,
      threshold: 8,
    });
    expect(met(checkPortfolioCondition("portfolio_stop_loss", { mode: "breach" }, risk({})))).toMatchObject({
      met: false,
      observed: 9,
      threshold: 10,
    });
  });

  it("concentration and drawdown follow the report's alerts; stale prices count the holdings without a current price", () => {
    expect(met(checkPortfolioCondition("portfolio_concentration", {}, risk({})))).toMatchObject({
      met: true,
      observed: 40,
      threshold: 30,
    });
    expect(met(checkPortfolioCondition("portfolio_drawdown", {}, risk({})))).toMatchObject({
      met: false,
      observed: 12,
      threshold: 15,
    });
    const stale = risk({
      warnings: [
        {
          code: "price_stale",
          message: "600519: last price is from 2026-11-02",
          symbol: "600519",
          value: null,
          limit: null,
          date: "2026-11-02",
        },
      ],
    });
    expect(met(checkPortfolioCondition("portfolio_price_stale", {}, stale))).toMatchObject({
      met: true,
      observed: 1,
      threshold: null,
    });
    // The other types still fire on such a report, and say what they could not see.
    expect(met(checkPortfolioCondition("portfolio_concentration", {}, stale)).limitations).toEqual([
      "600519: last price is from 2026-11-02",
    ]);
    expect(checkPortfolioCondition("portfolio_drawdown", {}, risk({ positions: [] }))).toEqual({
      skipped: "no holdings",
    });
  });
});

describe("market light types", () => {
  const reading = { region: "cn", date: "2026-11-19", score: 35, light: "red" as const, missing: ["limit"] };

  it("status: fires when the light is one of the statuses", () => {
    expect(
      met(checkMarketCondition("market_light_status", { statuses: ["red", "yellow"] }, reading, null)),
    ).toMatchObject({ met: true, observed: 35, threshold: null, limitations: ["market light without its limit part"] });
    expect(met(checkMarketCondition("market_light_status", { statuses: ["yellow"] }, reading, null)).met).toBe(false);
    expect(
      checkMarketCondition(
        "market_light_status",
        { statuses: ["red"] },
        { ...reading, score: null, light: null },
        null,
      ),
    ).toMatchObject({ skipped: expect.stringContaining("unavailable") });
  });

  it("score drop: compares with the previous trading day's score; none to compare with is skipped", () => {
    const previous = { date: "2026-11-18", score: 50, source: "alert_check" };
    expect(met(checkMarketCondition("market_light_score_drop", { min_drop: 10 }, reading, previous))).toMatchObject({
      met: true,
      observed: 35,
      threshold: 10,
      details: { drop: 15, prev_score: 50 },
    });
    expect(met(checkMarketCondition("market_light_score_drop", { min_drop: 20 }, reading, previous)).met).toBe(false);
    expect(checkMarketCondition("market_light_score_drop", { min_drop: 10 }, reading, null)).toMatchObject({
      skipped: expect.stringContaining("earlier trading day"),
    });
  });
});

describe("parameters of §12.2.1", () => {
  it("defaults fill in; constraints of the form hold; a key the type does not read is refused", () => {
    expect(normalizeParameters("macd_cross", { direction: "bullish_cross" })).toEqual({
      ok: true,
      parameters: { direction: "bullish_cross", fast_period: 12, slow_period: 26, signal_period: 9 },
    });
    expect(normalizeParameters("kdj_cross", { direction: "bearish_cross" })).toMatchObject({
      ok: true,
      parameters: { period: 9, k_period: 3, d_period: 3 },
    });
    expect(normalizeParameters("rsi_threshold", { direction: "above", threshold: 70 })).toMatchObject({
      ok: true,
      parameters: { period: 12 },
    });
    expect(normalizeParameters("cci_threshold", { direction: "below", threshold: -100 })).toMatchObject({
      ok: true,
      parameters: { period: 14 },
    });
    expect(normalizeParameters("ma_price_cross", { direction: "above" })).toMatchObject({
      ok: true,
      parameters: { window: 20 },
    });
    expect(normalizeParameters("market_light_status", {})).toEqual({
      ok: true,
      parameters: { statuses: ["red", "yellow"] },
    });
    expect(normalizeParameters("market_light_status", { statuses: ["red", "red"] })).toEqual({
      ok: true,
      parameters: { statuses: ["red"] },
    });
    expect(normalizeParameters("market_light_score_drop", {})).toEqual({ ok: true, parameters: { min_drop: 10 } });
    expect(normalizeParameters("portfolio_concentration", {})).toEqual({ ok: true, parameters: {} });
    for (const [type, raw] of [
      ["macd_cross", { direction: "bullish_cross", fast_period: 26, slow_period: 12 }],
      ["macd_cross", { direction: "bullish_cross", slow_period: 250, signal_period: 200 }],
      ["kdj_cross", { direction: "bullish_cross", period: 200, k_period: 100, d_period: 100 }],
      ["rsi_threshold", { direction: "above", threshold: 101 }],
      ["ma_price_cross", { direction: "above", window: 1 }],
      ["price_cross", { direction: "above", price: 0 }],
      ["price_cross", { direction: "sideways", price: 1 }],
      ["price_change_percent", { direction: "up", change_pct: -1 }],
      ["volume_spike", { multiplier: 2, ratio: 2 }],
      ["market_light_status", { statuses: [] }],
      ["market_light_status", { statuses: ["green"] }],
      ["portfolio_stop_loss", { mode: "soon" }],
    ] as const) {
      expect(normalizeParameters(type, raw), `${type} ${JSON.stringify(raw)}`).toMatchObject({ ok: false });
    }
  });
});
