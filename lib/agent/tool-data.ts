import { isoInMarketZone } from "@/lib/market/market-time";
import { ANALYSIS_WINDOW_BARS, buildRuleReport } from "@/lib/analysis/engine";
import { resolveSingleTarget } from "@/lib/analysis/request";
import { db } from "@/lib/db/client";
import { toAnalysisReport } from "@/lib/history/report";
import { toHistoryItem } from "@/lib/history/serialize";
import { historyTargetFilter } from "@/lib/history/target-filter";
import { ApiError } from "@/lib/errors/api-error";
import { currentPrice, getDailyBars, getQuote } from "@/lib/market";
import { marketOverview } from "@/lib/market/overview";
import { displayName, type TMarket, type TResolvedSymbol } from "@/lib/market/symbols";
import { searchStockNews } from "@/lib/news";
import { portfolioRisk } from "@/lib/portfolio/risk";
import { portfolioSnapshot } from "@/lib/portfolio/snapshot";
import { reportBacktestPerformance } from "@/lib/report-eval/read";
import { listSignals } from "@/lib/signals/read";
import { ZDecisionSignalListQuery } from "@/lib/signals/schemas";

// What the chat's tools and slash commands read: each function is a thin call into the domain that owns the
// data (never a second data path) and returns a compact plain object. Every number in it comes from that
// domain's answer unchanged, so the answer check (number-check.ts) can trace an answer's figures back here.

export type Language = "zh" | "en";

/** Thrown for a code the service cannot resolve; the tool reports it as a failed call with this message. */
export class ToolInputError extends Error {}

export function resolveCode(code: string): TResolvedSymbol {
  try {
    return resolveSingleTarget(code.trim());
  } catch (error) {
    if (error instanceof ApiError) throw new ToolInputError(error.message);
    throw error;
  }
}

function targetOf(symbol: TResolvedSymbol, language: Language) {
  return {
    code: symbol.displayCode,
    name: (language === "en" ? symbol.nameEn : undefined) ?? symbol.name ?? null,
    market: symbol.market,
    kind: symbol.kind,
  };
}

// ---- quote

export async function quoteData(code: string, language: Language) {
  const symbol = resolveCode(code);
  const price = await currentPrice(symbol);
  return {
    ...targetOf(symbol, language),
    name: targetOf(symbol, language).name ?? price.quote?.name ?? null,
    price: price.price,
    change_pct: price.change_pct,
    date: price.date,
    // In the market's zone with its offset, as the date is: a UTC instant beside a local date reads a day off.
    time: price.time === null ? null : isoInMarketZone(price.time, symbol.market),
    basis: price.basis,
    source: price.source,
    is_sample_data: price.source === "sample",
    open: price.quote?.open ?? null,
    high: price.quote?.high ?? null,
    low: price.quote?.low ?? null,
    prev_close: price.quote?.prev_close ?? null,
    volume_ratio: price.quote?.volume_ratio ?? null,
    turnover_rate: price.quote?.turnover_rate ?? null,
  };
}
export type QuoteData = Awaited<ReturnType<typeof quoteData>>;

// ---- daily bars

export const MAX_TOOL_BARS = 120;

export async function dailyHistoryData(code: string, days: number, language: Language) {
  const symbol = resolveCode(code);
  const result = await getDailyBars(symbol, Math.min(Math.max(days, 1), MAX_TOOL_BARS));
  const bars = result.bars.map((b) => ({
    date: b.date,
    open: b.open,
    high: b.high,
    low: b.low,
    close: b.close,
    volume: b.volume,
  }));
  const closes = bars.map((b) => b.close);
  return {
    ...targetOf(symbol, language),
    source: result.source,
    is_sample_data: result.source === "sample",
    count: bars.length,
    first_date: bars[0]?.date ?? null,
    last_date: bars.at(-1)?.date ?? null,
    period_high: bars.length > 0 ? Math.max(...bars.map((b) => b.high)) : null,
    period_low: bars.length > 0 ? Math.min(...bars.map((b) => b.low)) : null,
    period_change_pct: closes.length > 1 ? round(((closes.at(-1)! - closes[0]!) / closes[0]!) * 100, 2) : null,
    bars,
  };
}

// ---- indicators, trend and the rule engine's call

export async function trendData(code: string, language: Language) {
  const symbol = resolveCode(code);
  const [bars, quote] = await Promise.all([
    getDailyBars(symbol, ANALYSIS_WINDOW_BARS),
    getQuote(symbol).catch(() => null),
  ]);
  const dataSource = quote?.data?.source ?? bars.source;
  const report = buildRuleReport({
    target: {
      kind: symbol.kind,
      market: symbol.market,
      code: symbol.code,
      displayCode: symbol.displayCode,
      name: symbol.name,
      nameEn: symbol.nameEn,
    },
    bars: bars.bars,
    quote: quote?.data ?? null,
    language,
    reportType: "brief",
    dataSource,
  });
  const ind = report.indicators;
  const points = report.dashboard.battle_plan.sniper_points;
  return {
    ...targetOf(symbol, language),
    source: dataSource,
    is_sample_data: report.is_sample_data,
    last_bar_date: ind.last_bar_date,
    price: ind.price,
    change_pct: ind.change_pct,
    action: report.summary.action,
    action_label: report.summary.action_label,
    score: report.summary.sentiment_score,
    trend_prediction: report.summary.trend_prediction,
    conclusion: report.dashboard.core_conclusion.one_sentence,
    regime: ind.regime ?? null,
    trend_state: ind.trend?.state ?? null,
    ma: ind.ma,
    bias_pct: ind.bias,
    macd: ind.macd
      ? {
          dif: ind.macd.dif,
          dea: ind.macd.dea,
          histogram: ind.macd.histogram,
          cross: ind.macd.cross,
          cross_bars_ago: ind.macd.cross_bars_ago,
        }
      : null,
    rsi: ind.rsi,
    volume_ratio: ind.volume.ratio,
    atr14: ind.atr14 ?? null,
    adx14: ind.adx14 ?? null,
    high_20: ind.high_20,
    low_20: ind.low_20,
    support: ind.support.map((l) => l.price),
    resistance: ind.resistance.map((l) => l.price),
    plan: {
      ideal_buy: points.ideal_buy?.price ?? null,
      secondary_buy: points.secondary_buy?.price ?? null,
      stop_loss: points.stop_loss?.price ?? null,
      take_profit: points.take_profit?.price ?? null,
    },
    checklist: (report.dashboard.battle_plan.action_checklist ?? []).map((c) => ({ status: c.status, text: c.text })),
    risk_warnings: report.dashboard.risk_warnings ?? [],
    guardrails: report.guardrail_reasons.map((g) => g.message),
    missing: ind.missing,
  };
}
export type TrendData = Awaited<ReturnType<typeof trendData>>;

// ---- market

export async function marketData(region: TMarket, language: Language) {
  const overview = await marketOverview(region);
  return {
    region,
    as_of: overview.as_of,
    source: overview.source,
    is_sample_data: overview.source === "sample",
    indices: overview.indices.map((i) => ({
      code: i.display_code,
      name: language === "en" ? i.name_en : i.name,
      price: i.quote?.price ?? null,
      change_pct: i.quote?.change_pct ?? null,
      high: i.quote?.high ?? null,
      low: i.quote?.low ?? null,
      error: i.error,
    })),
    breadth: overview.breadth
      ? {
          advancers: overview.breadth.advancers,
          decliners: overview.breadth.decliners,
          flat: overview.breadth.flat,
          limit_up: overview.breadth.limit_up,
          limit_down: overview.breadth.limit_down,
          universe: overview.breadth.universe,
        }
      : null,
    breadth_note: overview.breadth_note,
  };
}
export type MarketData = Awaited<ReturnType<typeof marketData>>;

// ---- news

export async function newsData(code: string, language: Language, signal?: AbortSignal) {
  const symbol = resolveCode(code);
  const result = await searchStockNews(
    { code: symbol.displayCode, name: symbol.name ?? null, market: symbol.market, kind: symbol.kind },
    { language, limit: 6, signal },
  );
  return {
    ...targetOf(symbol, language),
    provider: result.provider ?? null,
    note:
      result.items.length === 0
        ? result.attempts.length === 0
          ? "no news search key configured"
          : "no news found"
        : null,
    items: result.items.map((i) => ({
      title: i.title,
      snippet: i.snippet,
      url: i.url,
      source: i.source,
      published_at: i.published_at,
    })),
  };
}

// ---- stored reports

export async function latestReportsData(code: string, limit: number, language: Language) {
  const symbol = resolveCode(code);
  const where = historyTargetFilter(symbol.displayCode) ?? { stockCode: symbol.code };
  const rows = await db().analysisHistory.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: Math.min(Math.max(limit, 1), 20),
  });
  return {
    ...targetOf(symbol, language),
    count: rows.length,
    reports: rows.map((row) => {
      const item = toHistoryItem(row);
      const report = toAnalysisReport(row);
      return {
        record_id: item.id,
        created_at: item.created_at,
        report_type: item.report_type,
        action: item.action,
        action_label: item.action_label,
        score: item.sentiment_score,
        price: item.current_price,
        change_pct: item.change_pct,
        trend_prediction: item.trend_prediction,
        summary: item.analysis_summary,
        advice: item.operation_advice,
        plan: report.strategy,
        levels: levelPrices(report.strategy),
        model_used: item.model_used,
        engine_version: report.meta.engine_version ?? null,
        // What the engine's own record says about this call (docs/api.md §13), to be quoted, never improved on.
        evidence_statement: report.details.evidence?.statement ?? null,
        data_quality: report.details.data_quality?.level ?? null,
      };
    }),
  };
}

/** A plan's texts lead with their price ("1,700.00 (MA20 support)", lib/analysis/engine levelText): that number. */
function levelPrices(strategy: Record<string, string | null | undefined>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const key of ["ideal_buy", "secondary_buy", "stop_loss", "take_profit"]) {
    const match = /^\s*(-?\d[\d,]*(?:\.\d+)?)/.exec(strategy[key] ?? "");
    out[key] = match ? Number(match[1]!.replace(/,/g, "")) : null;
  }
  return out;
}

// ---- decision signals

export async function signalsData(code: string | null, language: Language) {
  const symbol = code ? resolveCode(code) : null;
  const list = await listSignals(ZDecisionSignalListQuery.parse({ stock_code: symbol?.displayCode, page_size: 10 }));
  return {
    ...(symbol ? targetOf(symbol, language) : {}),
    total: list.total,
    signals: list.items.map((s) => ({
      id: s.id,
      code: s.stock_code,
      // In the answer's language; the signal keeps the name of the report it came from.
      name: displayName({ market: s.market, code: s.stock_code }, language, s.stock_name),
      action: s.action,
      action_label: s.action_label,
      status: s.status,
      score: s.score,
      entry_low: s.entry_low,
      entry_high: s.entry_high,
      stop_loss: s.stop_loss,
      target_price: s.target_price,
      created_at: s.created_at,
      expires_at: s.expires_at,
      reason: s.reason,
    })),
  };
}

// ---- the report backtest of one stock

export async function backtestData(code: string, language: Language) {
  const symbol = resolveCode(code);
  try {
    const perf = await reportBacktestPerformance({}, symbol.displayCode);
    return {
      ...targetOf(symbol, language),
      evaluated: true,
      eval_window_days: perf.eval_window_days,
      total_evaluations: perf.total_evaluations,
      completed_count: perf.completed_count,
      win_count: perf.win_count,
      loss_count: perf.loss_count,
      win_rate_pct: perf.win_rate_pct,
      direction_accuracy_pct: perf.direction_accuracy_pct,
      avg_stock_return_pct: perf.avg_stock_return_pct,
      avg_simulated_return_pct: perf.avg_simulated_return_pct,
      stop_loss_trigger_rate: perf.stop_loss_trigger_rate,
      take_profit_trigger_rate: perf.take_profit_trigger_rate,
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return {
        ...targetOf(symbol, language),
        evaluated: false,
        note: "no evaluated reports for this stock: run POST /api/v1/backtest/run",
      };
    }
    throw error;
  }
}

// ---- portfolio

export async function portfolioData() {
  const [snapshot, risk] = await Promise.all([portfolioSnapshot({}), portfolioRisk({})]);
  const positions = snapshot.accounts.flatMap((a) => a.positions);
  return {
    as_of: snapshot.as_of,
    currency: snapshot.currency,
    total_market_value: snapshot.total_market_value,
    total_cash: snapshot.total_cash,
    total_equity: snapshot.total_equity,
    unrealized_pnl: snapshot.unrealized_pnl,
    fx_stale: snapshot.fx_stale,
    positions: positions.map((p) => ({
      account_id: p.account_id,
      symbol: p.symbol,
      market: p.market,
      quantity: p.quantity,
      avg_cost: p.avg_cost,
      last_price: p.last_price,
      market_value: p.market_value,
      unrealized_pnl_pct: p.unrealized_pnl_pct,
      price_date: p.price_date,
    })),
    risk: {
      top_positions: risk.concentration.top_positions,
      alerts: risk.concentration.alert,
      drawdown: risk.drawdown,
      stop_loss: risk.stop_loss,
    },
  };
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
