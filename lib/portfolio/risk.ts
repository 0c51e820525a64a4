import { quantile, sampleStandardDeviation } from "simple-statistics";
import { db } from "@/lib/db/client";
import type { TDailyBar } from "@/lib/market";
import { addDays } from "@/lib/time/zoned-time";
import { quantityAt } from "./lots";
import type { TPortfolioRisk, TRiskPosition } from "./risk-schema";
import type { TRiskQuery } from "./schemas";
import { valuePortfolio, type ValuedPosition } from "./valuation";

// Thresholds of the report (docs/api.md §6; the reference's PORTFOLIO_RISK_* defaults, with the 30 %
// single-position limit).
export const RISK_THRESHOLDS = {
  concentration_alert_pct: 30,
  drawdown_alert_pct: 15,
  stop_loss_alert_pct: 10,
  stop_loss_near_ratio: 0.8,
  lookback_days: 180,
} as const;
const MIN_RETURNS = 20;
const TOP_ROWS = 10;
export const RISKY_ACTIONS = ["sell", "reduce", "alert", "avoid"] as const;
const UNCLASSIFIED = "UNCLASSIFIED";

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

interface Held extends ValuedPosition {
  /** Multiply an amount in the position's currency by this to get the report currency. */
  toReport: number;
}

function closeOn(bars: readonly TDailyBar[], date: string): TDailyBar | null {
  let found: TDailyBar | null = null;
  for (const bar of bars) {
    if (bar.date > date) break;
    found = bar;
  }
  return found;
}

/** Daily returns of the held basket (yesterday's holdings × today's price moves), free of cash-flow jumps. */
function dailyReturns(holdings: readonly Held[], dates: readonly string[]) {
  const values: { date: string; value: number }[] = [];
  const returns: number[] = [];
  let curve = 1;
  const curvePoints: { date: string; index: number }[] = [];
  for (let i = 0; i < dates.length; i++) {
    const date = dates[i]!;
    let value = 0;
    let pnl = 0;
    let previousValue = 0;
    for (const h of holdings) {
      const bar = closeOn(h.bars, date);
      if (!bar) continue;
      value += quantityAt(h.trades, date, h.actions) * bar.close * h.toReport;
      if (i === 0) continue;
      const previous = closeOn(h.bars, dates[i - 1]!);
      if (!previous) continue;
      // A split between the two sessions changes the shares, not the value: yesterday's holding, split, at today's close.
      const held = quantityAt(h.trades, dates[i - 1]!, h.actions);
      const split = h.actions
        .filter(
          (a) =>
            a.type === "split_adjustment" && a.splitRatio && a.effectiveDate > dates[i - 1]! && a.effectiveDate <= date,
        )
        .reduce((factor, a) => factor * a.splitRatio!, 1);
      pnl += (held * split * bar.close - held * previous.close) * h.toReport;
      previousValue += held * previous.close * h.toReport;
    }
    values.push({ date, value });
    if (i > 0 && previousValue > 0) {
      const r = pnl / previousValue;
      returns.push(r);
      curve *= 1 + r;
    }
    curvePoints.push({ date, index: curve });
  }
  return { values, returns, curvePoints };
}

function drawdowns(curve: readonly { index: number }[]): { max: number; current: number } {
  let peak = -Infinity;
  let max = 0;
  let current = 0;
  for (const point of curve) {
    peak = Math.max(peak, point.index);
    current = peak > 0 ? (peak - point.index) / peak : 0;
    max = Math.max(max, current);
  }
  return { max: max * 100, current: current * 100 };
}

/** The latest active sell/reduce/alert/avoid signal of each held target, one item per account holding it. */
async function decisionSignalRisk(open: readonly Held[]): Promise<TPortfolioRisk["decision_signal_risk"]> {
  const actions: Record<string, number> = Object.fromEntries(RISKY_ACTIONS.map((a) => [a, 0]));
  const keys = [...new Set(open.map((h) => h.targetKey))];
  if (keys.length === 0) return { available: true, total: 0, actions, items: [] };
  const signals = await db().decisionSignal.findMany({
    where: { targetKey: { in: keys }, status: "active", action: { in: [...RISKY_ACTIONS] } },
    orderBy: { id: "desc" },
    select: { id: true, targetKey: true, stockCode: true, action: true, score: true, status: true, createdAt: true },
  });
  const latest = new Map<string, (typeof signals)[number]>();
  for (const s of signals) if (!latest.has(s.targetKey)) latest.set(s.targetKey, s);
  const items: TPortfolioRisk["decision_signal_risk"]["items"] = [];
  for (const h of open) {
    const s = latest.get(h.targetKey);
    if (!s) continue;
    actions[s.action] = (actions[s.action] ?? 0) + 1;
    items.push({
      account_id: h.accountId,
      symbol: h.symbol,
      market: h.market,
      signal: {
        id: s.id,
        stock_code: s.stockCode,
        action: s.action,
        score: s.score,
        status: s.status,
        created_at: s.createdAt.toISOString(),
      },
    });
  }
  return { available: true, total: items.length, actions, items };
}

// GET /api/v1/portfolio/risk – positions valued at as_of, concentration, exposure, drawdown, volatility, VaR.
export async function portfolioRisk(query: TRiskQuery): Promise<TPortfolioRisk> {
  const valuation = await valuePortfolio(query);
  const { asOf, fx } = valuation;
  const base = valuation.currency;
  const warnings: TPortfolioRisk["warnings"] = [];
  const held: Held[] = valuation.books.flatMap((book) =>
    book.holdings.filter((h) => h.quantity > 0).map((h) => ({ ...h, toReport: fx.convert(1, h.currency, base) })),
  );
  const fxStale = held.some((h) => fx.isStale(h.currency, base));

  const positions: TRiskPosition[] = held.map((h) => {
    const cost = h.quantity * h.costPerShare;
    if (h.priceSource === "missing") {
      warnings.push({
        code: "price_unavailable",
        message: `${h.symbol}: no market data (${h.priceError ?? "no bars"})`,
        symbol: h.symbol,
        value: null,
        limit: null,
        date: null,
      });
    } else if (h.priceStale) {
      warnings.push({
        code: "price_stale",
        message: `${h.symbol}: last price is from ${h.priceDate}`,
        symbol: h.symbol,
        value: null,
        limit: null,
        date: h.priceDate,
      });
    }
    const priced = h.lastPrice !== null;
    return {
      account_id: h.accountId,
      symbol: h.symbol,
      market: h.market,
      currency: h.currency,
      quantity: h.quantity,
      cost_per_share: round(h.costPerShare),
      last_price: h.lastPrice,
      price_date: h.priceDate,
      price_source: h.priceSource,
      market_value: round(h.marketValue, 2),
      market_value_base: round(h.marketValue * h.toReport, 2),
      unrealized_pnl: priced ? round(h.marketValue - cost, 2) : null,
      unrealized_pnl_pct: priced && cost > 0 ? round(((h.marketValue - cost) / cost) * 100, 2) : null,
      realized_pnl: round(h.realized + h.dividends, 2),
      weight_pct: 0,
    };
  });
  const total = positions.reduce((sum, p) => sum + p.market_value_base, 0);
  for (const p of positions) p.weight_pct = total > 0 ? round((p.market_value_base / total) * 100, 2) : 0;
  positions.sort((a, b) => b.market_value_base - a.market_value_base);

  // Concentration by security across accounts (the reference's top_positions), alert above the limit.
  const limit = RISK_THRESHOLDS.concentration_alert_pct;
  const bySymbol = new Map<string, { symbol: string; value: number; base: number }>();
  for (const p of positions) {
    const key = `${p.market}:${p.symbol}`;
    const row = bySymbol.get(key) ?? { symbol: p.symbol, value: 0, base: 0 };
    row.value += p.market_value;
    row.base += p.market_value_base;
    bySymbol.set(key, row);
  }
  const topPositions = [...bySymbol.values()]
    .sort((a, b) => b.base - a.base)
    .map((r) => {
      const weight = total > 0 ? round((r.base / total) * 100, 2) : 0;
      return {
        symbol: r.symbol,
        market_value: round(r.value, 2),
        market_value_base: round(r.base, 2),
        weight_pct: weight,
        is_alert: weight > limit,
      };
    });
  const topWeight = topPositions[0]?.weight_pct ?? 0;
  const hhi = topPositions.reduce((sum, p) => sum + (p.weight_pct / 100) ** 2, 0);
  for (const p of topPositions.filter((p) => p.is_alert)) {
    warnings.push({
      code: "concentration",
      message: `${p.symbol} is ${p.weight_pct}% of the portfolio (limit ${limit}%)`,
      symbol: p.symbol,
      value: p.weight_pct,
      limit,
      date: null,
    });
  }

  const exposure = (key: (p: TRiskPosition) => string) => {
    const sums = new Map<string, number>();
    for (const p of positions) sums.set(key(p), (sums.get(key(p)) ?? 0) + p.market_value_base);
    return [...sums].map(([k, value]) => ({
      key: k,
      market_value_base: round(value, 2),
      weight_pct: total > 0 ? round((value / total) * 100, 2) : 0,
    }));
  };

  const windowStart = addDays(asOf, -RISK_THRESHOLDS.lookback_days);
  const dates = [...new Set(held.flatMap((h) => h.bars.map((b) => b.date)))]
    .filter((d) => d >= windowStart && d <= asOf)
    .sort();
  const { returns, curvePoints, values } = dailyReturns(held, dates);
  const dd = drawdowns(curvePoints);
  const enough = returns.length >= MIN_RETURNS;
  const volatility = enough ? sampleStandardDeviation(returns) * Math.sqrt(252) * 100 : null;
  const var95 = enough ? Math.max(0, -quantile(returns, 0.05)) : null;
  if (!enough && held.length > 0) {
    warnings.push({
      code: "short_history",
      message: `Only ${returns.length} daily returns in the lookback: volatility and VaR need ${MIN_RETURNS}`,
      symbol: null,
      value: returns.length,
      limit: MIN_RETURNS,
      date: null,
    });
  }
  if (dd.max > RISK_THRESHOLDS.drawdown_alert_pct) {
    const value = round(dd.max, 2);
    warnings.push({
      code: "drawdown",
      message: `Maximum drawdown ${value}% over ${RISK_THRESHOLDS.lookback_days} days`,
      symbol: null,
      value,
      limit: RISK_THRESHOLDS.drawdown_alert_pct,
      date: null,
    });
  }

  const nearPct = RISK_THRESHOLDS.stop_loss_alert_pct * RISK_THRESHOLDS.stop_loss_near_ratio;
  const stopItems = positions
    .filter((p) => p.last_price !== null && p.cost_per_share > 0 && p.last_price < p.cost_per_share)
    .map((p) => {
      const lossPct = round(((p.cost_per_share - p.last_price!) / p.cost_per_share) * 100, 2);
      return {
        account_id: p.account_id,
        symbol: p.symbol,
        avg_cost: p.cost_per_share,
        last_price: p.last_price!,
        loss_pct: lossPct,
        near_threshold_pct: round(nearPct, 2),
        is_triggered: lossPct >= RISK_THRESHOLDS.stop_loss_alert_pct,
      };
    })
    .filter((i) => i.loss_pct >= nearPct)
    .sort((a, b) => b.loss_pct - a.loss_pct);
  for (const item of stopItems.filter((i) => i.is_triggered)) {
    warnings.push({
      code: "stop_loss",
      message: `${item.symbol} is ${item.loss_pct}% below its cost`,
      symbol: item.symbol,
      value: item.loss_pct,
      limit: RISK_THRESHOLDS.stop_loss_alert_pct,
      date: null,
    });
  }

  const signalRisk = await decisionSignalRisk(held);
  if (signalRisk.total > 0) {
    warnings.push({
      code: "decision_signals",
      message: `${signalRisk.total} active sell/reduce/alert/avoid signal(s) on held stocks`,
      symbol: null,
      value: signalRisk.total,
      limit: null,
      date: null,
    });
  }

  return {
    as_of: asOf,
    account_id: valuation.accountId,
    cost_method: valuation.costMethod,
    currency: base,
    thresholds: RISK_THRESHOLDS,
    fx: {
      rates_to_cny: fx.ratesToCny(),
      stale: fxStale,
      rates: [...fx.rates].map(([currency, r]) => ({
        currency,
        rate: r.rate,
        date: r.date,
        source: r.source,
        stale: r.stale,
      })),
    },
    positions,
    concentration: {
      total_market_value: round(total, 2),
      top_weight_pct: topWeight,
      hhi: round(hhi, 4),
      alert: topWeight > limit,
      top_positions: topPositions.slice(0, TOP_ROWS),
    },
    sector_concentration: sectorConcentration(positions.length === 0 ? 0 : total, bySymbol.size, limit),
    exposure: { by_market: exposure((p) => p.market), by_currency: exposure((p) => p.currency) },
    drawdown: {
      series_points: curvePoints.length,
      max_drawdown_pct: round(dd.max, 2),
      current_drawdown_pct: round(dd.current, 2),
      alert: dd.max > RISK_THRESHOLDS.drawdown_alert_pct,
      fx_stale: fxStale,
      series: values.map((v, i) => ({
        date: v.date,
        value: round(v.value, 2),
        index: round(curvePoints[i]!.index, 6),
      })),
    },
    volatility_pct: volatility === null ? null : round(volatility, 2),
    var_95_1d:
      var95 === null
        ? null
        : {
            pct: round(var95 * 100, 3),
            amount: round(var95 * total, 2),
            method: "historical",
            observations: returns.length,
          },
    stop_loss: {
      near_alert: stopItems.length > 0,
      triggered_count: stopItems.filter((i) => i.is_triggered).length,
      near_count: stopItems.length,
      items: stopItems,
    },
    decision_signal_risk: signalRisk,
    warnings,
  };
}

/**
 * Without a sector source every holding is UNCLASSIFIED: one row with the whole value. The headline (top weight,
 * alert) follows that row as it follows the first row of the security table, so a card never shows a 100 % pie
 * beside "top weight 0 %, no alert".
 */
function sectorConcentration(total: number, symbolCount: number, limit: number) {
  const weight = total > 0 ? 100 : 0;
  const alert = weight > limit;
  return {
    available: false,
    reason: "no sector classification source is configured",
    total_market_value: round(total, 2),
    top_weight_pct: weight,
    alert,
    top_sectors:
      symbolCount === 0
        ? []
        : [
            {
              sector: UNCLASSIFIED,
              market_value_base: round(total, 2),
              weight_pct: weight,
              symbol_count: symbolCount,
              is_alert: alert,
            },
          ],
    coverage: { classified_count: 0, unclassified_count: symbolCount, failed_count: 0 },
    errors: [],
  };
}
