import { quantile, sampleStandardDeviation } from "simple-statistics";
import type { PortfolioTrade } from "@/generated/prisma/client";
import { now } from "@/lib/clock";
import { getSettings } from "@/lib/config/settings";
import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/api-error";
import { getPriceSeries, type OnePrice, type TDailyBar } from "@/lib/market";
import { addDays, localDay, serviceTimeZone } from "@/lib/usage/time-zone";
import { foldTrades, quantityAt, type LotTrade } from "./lots";
import { fxRates, toBase } from "./fx";
import type { TRiskQuery } from "./schemas";
import { getAccountOrThrow, resolveTradeSymbol } from "./store";
import type { TPortfolioRisk, TRiskPosition } from "./risk-schema";

// Thresholds of the report (CONTRACT.md §6; the reference's PORTFOLIO_RISK_* defaults, with the 30 %
// single-position limit).
export const RISK_THRESHOLDS = {
  concentration_alert_pct: 30,
  drawdown_alert_pct: 15,
  stop_loss_alert_pct: 10,
  stop_loss_near_ratio: 0.8,
  lookback_days: 180,
} as const;
const BARS = 250;
const MIN_RETURNS = 20;
const STALE_DAYS = 7;
const RISKY_ACTIONS = ["sell", "reduce", "alert", "avoid"];
const CURRENCY_OF: Record<string, string> = { cn: "CNY", hk: "HKD", us: "USD" };

const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;

interface Holding {
  accountId: number;
  targetKey: string;
  stockCode: string;
  market: string;
  trades: LotTrade[];
  quantity: number;
  costPerShare: number | null;
  realized: number;
  /** The one-price series (issue 17 item 3): final bars plus today's bar from the quote, up to as_of. */
  bars: TDailyBar[];
  /** The series' current price and its moment, when as_of reaches it. */
  current: OnePrice | null;
}

function closeOn(bars: readonly TDailyBar[], date: string): TDailyBar | null {
  let found: TDailyBar | null = null;
  for (const bar of bars) {
    if (bar.date > date) break;
    found = bar;
  }
  return found;
}

function costMethodOf(value: string | undefined): "fifo" | "avg" {
  const method = (value ?? "fifo").trim().toLowerCase();
  if (method !== "fifo" && method !== "avg") throw ApiError.of("validation_error", `cost_method must be fifo or avg (got ${value})`);
  return method;
}

/** Daily returns of the held basket (yesterday's holdings × today's price moves), free of cash-flow jumps. */
function dailyReturns(holdings: readonly Holding[], dates: readonly string[], base: string, rates: Record<string, number>) {
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
      const fx = toBase(1, CURRENCY_OF[h.market]!, base, rates);
      value += quantityAt(h.trades, date) * bar.close * fx;
      if (i === 0) continue;
      const previous = closeOn(h.bars, dates[i - 1]!);
      if (!previous) continue;
      const held = quantityAt(h.trades, dates[i - 1]!);
      pnl += held * (bar.close - previous.close) * fx;
      previousValue += held * previous.close * fx;
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

// GET /api/v1/portfolio/risk – positions valued at as_of, concentration, exposure, drawdown, volatility, VaR.
export async function portfolioRisk(query: TRiskQuery): Promise<TPortfolioRisk> {
  const costMethod = costMethodOf(query.cost_method);
  const asOf = query.as_of ?? localDay(now(), serviceTimeZone());
  const account = query.account_id !== undefined ? await getAccountOrThrow(query.account_id) : null;
  const base = account?.currency ?? getSettings().PORTFOLIO_BASE_CURRENCY;
  const rates = fxRates();
  const accounts = account ? [account.id] : (await db().portfolioAccount.findMany({ where: { active: true }, select: { id: true } })).map((a) => a.id);
  const trades = await db().portfolioTrade.findMany({
    where: { accountId: { in: accounts }, tradeDate: { lte: asOf } },
    orderBy: [{ tradeDate: "asc" }, { id: "asc" }],
  });

  const groups = new Map<string, PortfolioTrade[]>();
  for (const t of trades) groups.set(`${t.accountId}|${t.targetKey}`, [...(groups.get(`${t.accountId}|${t.targetKey}`) ?? []), t]);
  const barCache = new Map<string, { bars: TDailyBar[]; current: OnePrice | null }>();
  const warnings: TPortfolioRisk["warnings"] = [];
  const holdings: Holding[] = [];
  for (const rows of groups.values()) {
    const lots = rows.map((r) => ({ ...r, side: r.side as LotTrade["side"] }));
    const state = foldTrades(lots);
    const first = rows[0]!;
    if (!barCache.has(first.targetKey)) {
      try {
        const symbol = resolveTradeSymbol(first.stockCode);
        // Valued at the price the analysis would show for the same moment: the quote when it is newer than the last
        // bar, else the last close (issue 17 item 3); a past as_of cuts the series there.
        const series = await getPriceSeries(symbol, BARS);
        barCache.set(first.targetKey, { bars: series.bars.filter((b) => b.date <= asOf), current: series.current });
      } catch (error) {
        barCache.set(first.targetKey, { bars: [], current: null });
        warnings.push({ code: "price_unavailable", message: `${first.stockCode}: no market data (${(error as Error).message})`, stock_code: first.stockCode, value: null, limit: null, date: null });
      }
    }
    holdings.push({
      accountId: first.accountId,
      targetKey: first.targetKey,
      stockCode: first.stockCode,
      market: first.market,
      trades: lots,
      quantity: state.quantity,
      costPerShare: costMethod === "fifo" ? state.fifoCost : state.avgCost,
      realized: costMethod === "fifo" ? state.realizedFifo : state.realizedAvg,
      ...barCache.get(first.targetKey)!,
    });
  }

  const open = holdings.filter((h) => h.quantity > 0);
  const positions: TRiskPosition[] = open.map((h) => {
    const bar = closeOn(h.bars, asOf);
    const currency = CURRENCY_OF[h.market]!;
    const marketValue = bar ? h.quantity * bar.close : null;
    const cost = h.costPerShare === null ? null : h.quantity * h.costPerShare;
    if (bar && addDays(bar.date, STALE_DAYS) < asOf) {
      warnings.push({ code: "price_stale", message: `${h.stockCode}: last price is from ${bar.date}`, stock_code: h.stockCode, value: null, limit: null, date: bar.date });
    }
    return {
      account_id: h.accountId,
      stock_code: h.stockCode,
      market: h.market,
      currency,
      quantity: h.quantity,
      cost_per_share: h.costPerShare === null ? null : round(h.costPerShare),
      last_price: bar?.close ?? null,
      price_date: bar?.date ?? null,
      price_basis: bar === null ? null : h.current?.date === bar.date ? h.current.basis : "close",
      market_value: marketValue === null ? null : round(marketValue, 2),
      market_value_base: marketValue === null ? null : round(toBase(marketValue, currency, base, rates), 2),
      unrealized_pnl: marketValue === null || cost === null ? null : round(marketValue - cost, 2),
      unrealized_pnl_pct: marketValue === null || !cost ? null : round(((marketValue - cost) / cost) * 100, 2),
      realized_pnl: round(h.realized, 2),
      weight_pct: 0,
    };
  });
  const total = positions.reduce((sum, p) => sum + (p.market_value_base ?? 0), 0);
  for (const p of positions) p.weight_pct = total > 0 && p.market_value_base !== null ? round((p.market_value_base / total) * 100, 2) : 0;
  positions.sort((a, b) => (b.market_value_base ?? 0) - (a.market_value_base ?? 0));

  const limit = RISK_THRESHOLDS.concentration_alert_pct;
  const topWeight = positions[0]?.weight_pct ?? 0;
  const hhi = positions.reduce((sum, p) => sum + (p.weight_pct / 100) ** 2, 0);
  for (const p of positions.filter((p) => p.weight_pct > limit)) {
    warnings.push({ code: "concentration", message: `${p.stock_code} is ${p.weight_pct}% of the portfolio (limit ${limit}%)`, stock_code: p.stock_code, value: p.weight_pct, limit, date: null });
  }

  const exposure = (key: (p: TRiskPosition) => string) => {
    const sums = new Map<string, number>();
    for (const p of positions) sums.set(key(p), (sums.get(key(p)) ?? 0) + (p.market_value_base ?? 0));
    return [...sums].map(([k, value]) => ({ key: k, market_value_base: round(value, 2), weight_pct: total > 0 ? round((value / total) * 100, 2) : 0 }));
  };

  const windowStart = addDays(asOf, -RISK_THRESHOLDS.lookback_days);
  const dates = [...new Set(open.flatMap((h) => h.bars.map((b) => b.date)))].filter((d) => d >= windowStart && d <= asOf).sort();
  const { returns, curvePoints, values } = dailyReturns(open, dates, base, rates);
  const dd = drawdowns(curvePoints);
  const enough = returns.length >= MIN_RETURNS;
  const volatility = enough ? sampleStandardDeviation(returns) * Math.sqrt(252) * 100 : null;
  const var95 = enough ? Math.max(0, -quantile(returns, 0.05)) : null;
  if (!enough && open.length > 0) {
    warnings.push({ code: "short_history", message: `Only ${returns.length} daily returns in the lookback: volatility and VaR need ${MIN_RETURNS}`, stock_code: null, value: returns.length, limit: MIN_RETURNS, date: null });
  }
  if (dd.max > RISK_THRESHOLDS.drawdown_alert_pct) {
    const value = round(dd.max, 2);
    warnings.push({ code: "drawdown", message: `Maximum drawdown ${value}% over ${RISK_THRESHOLDS.lookback_days} days`, stock_code: null, value, limit: RISK_THRESHOLDS.drawdown_alert_pct, date: null });
  }

  const nearPct = RISK_THRESHOLDS.stop_loss_alert_pct * RISK_THRESHOLDS.stop_loss_near_ratio;
  const stopItems = positions
    .filter((p) => p.cost_per_share !== null && p.last_price !== null && p.last_price < p.cost_per_share)
    .map((p) => {
      const lossPct = round(((p.cost_per_share! - p.last_price!) / p.cost_per_share!) * 100, 2);
      return { account_id: p.account_id, symbol: p.stock_code, avg_cost: p.cost_per_share!, last_price: p.last_price!, loss_pct: lossPct, near_threshold_pct: round(nearPct, 2), is_triggered: lossPct >= RISK_THRESHOLDS.stop_loss_alert_pct };
    })
    .filter((i) => i.loss_pct >= nearPct);
  for (const item of stopItems.filter((i) => i.is_triggered)) {
    warnings.push({ code: "stop_loss", message: `${item.symbol} is ${item.loss_pct}% below its cost`, stock_code: item.symbol, value: item.loss_pct, limit: RISK_THRESHOLDS.stop_loss_alert_pct, date: null });
  }

  const heldKeys = [...new Set(open.map((h) => h.targetKey))];
  const signals = heldKeys.length
    ? await db().decisionSignal.findMany({
        where: { targetKey: { in: heldKeys }, status: "active", action: { in: RISKY_ACTIONS } },
        orderBy: { id: "desc" },
        take: 50,
        select: { id: true, stockCode: true, action: true, createdAt: true, score: true },
      })
    : [];
  const actions: Record<string, number> = {};
  for (const s of signals) actions[s.action] = (actions[s.action] ?? 0) + 1;
  if (signals.length > 0) {
    warnings.push({ code: "decision_signals", message: `${signals.length} active sell/reduce/alert/avoid signal(s) on held stocks`, stock_code: null, value: signals.length, limit: null, date: null });
  }

  return {
    as_of: asOf,
    account_id: account?.id ?? null,
    cost_method: costMethod,
    currency: base,
    thresholds: RISK_THRESHOLDS,
    fx: { source: "settings (PORTFOLIO_FX_RATES)", rates_to_cny: rates },
    positions,
    concentration: {
      total_market_value: round(total, 2),
      top_weight_pct: topWeight,
      hhi: round(hhi, 4),
      alert: topWeight > limit,
      top_positions: positions.slice(0, 5).map((p) => ({ symbol: p.stock_code, market_value: p.market_value_base ?? 0, weight_pct: p.weight_pct, is_alert: p.weight_pct > limit })),
    },
    sector_concentration: { available: false, reason: "no sector classification source is configured", classified_count: 0, unclassified_count: positions.length },
    exposure: { by_market: exposure((p) => p.market), by_currency: exposure((p) => p.currency) },
    drawdown: {
      series_points: curvePoints.length,
      max_drawdown_pct: round(dd.max, 2),
      current_drawdown_pct: round(dd.current, 2),
      alert: dd.max > RISK_THRESHOLDS.drawdown_alert_pct,
      series: values.map((v, i) => ({ date: v.date, value: round(v.value, 2), index: round(curvePoints[i]!.index, 6) })),
    },
    volatility_pct: volatility === null ? null : round(volatility, 2),
    var_95_1d: var95 === null ? null : { pct: round(var95 * 100, 3), amount: round(var95 * total, 2), method: "historical", observations: returns.length },
    stop_loss: { near_alert: stopItems.length > 0, triggered_count: stopItems.filter((i) => i.is_triggered).length, near_count: stopItems.filter((i) => !i.is_triggered).length, items: stopItems },
    decision_signal_risk: {
      available: true,
      total: signals.length,
      actions,
      items: signals.map((s) => ({ signal_id: s.id, stock_code: s.stockCode, action: s.action, score: s.score, created_at: s.createdAt.toISOString() })),
    },
    warnings,
  };
}
