import { z } from "zod";
import { ZIndicators } from "@/lib/analysis/engine/schemas";
import { defineTool, type ToolDefinition } from "./tool-definition";
import {
  backtestData,
  dailyHistoryData,
  latestReportsData,
  marketData,
  newsData,
  portfolioData,
  quoteData,
  signalsData,
  trendData,
} from "./tool-data";
import type { ToolName } from "./tool-names";
import { ZPaperAccountList } from "@/lib/paper/schemas";
import { listPaperAccounts } from "@/lib/paper/store";

// The chat's tools, each defined once with its input and output schemas; the MCP server offers the same ones. The
// names are the reference's where it has the same tool, so strategies written for it read naturally.

export const ZToolCode = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .describe("Stock or index code or name: 600519, 00700, AAPL, 贵州茅台, 上证指数");

const num = z.number().nullable();
const ZTarget = {
  code: z.string(),
  name: z.string().nullable(),
  market: z.string(),
  kind: z.string(),
};
const ZSourced = { source: z.string(), is_sample_data: z.boolean().describe("true: the sample provider's data") };

const quote = defineTool({
  name: "get_realtime_quote",
  title: { zh: "获取实时行情", en: "Realtime quote" },
  description:
    "The current price of a stock or index (the quote, or the last close), its daily change in percent, day range and time.",
  scope: "read",
  input: z.object({ code: ZToolCode }),
  output: z.object({
    ...ZTarget,
    ...ZSourced,
    price: num,
    change_pct: num,
    date: z.string().nullable(),
    time: z.string().nullable(),
    basis: z.string().describe("quote: a live quote; close: the last daily close"),
    open: num,
    high: num,
    low: num,
    prev_close: num,
    volume_ratio: num,
    turnover_rate: num,
  }),
  run: (input, ctx) => quoteData(input.code, ctx.language),
});

const ZBar = z.object({
  date: z.string(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: num,
});

const dailyHistory = defineTool({
  name: "get_daily_history",
  title: { zh: "获取历史K线", en: "Daily bars" },
  description:
    "Daily bars (date, open, high, low, close, volume) of the last `days` sessions, with the period's high, low and change.",
  scope: "read",
  input: z.object({ code: ZToolCode, days: z.number().int().min(1).max(120).default(60) }),
  output: z.object({
    ...ZTarget,
    ...ZSourced,
    count: z.number().int(),
    first_date: z.string().nullable(),
    last_date: z.string().nullable(),
    period_high: num,
    period_low: num,
    period_change_pct: num,
    bars: z.array(ZBar),
  }),
  run: (input, ctx) => dailyHistoryData(input.code, input.days, ctx.language),
});

const trend = defineTool({
  name: "analyze_trend",
  title: { zh: "分析技术趋势", en: "Indicators and trend" },
  description:
    "DSA's rule engine on the latest data: moving averages, MACD, RSI, ATR, ADX, volume ratio, regime and trend, support and " +
    "resistance, the engine's action and score, and its price plan (ideal buy, second buy, stop loss, take profit).",
  scope: "read",
  input: z.object({ code: ZToolCode }),
  output: z.object({
    ...ZTarget,
    ...ZSourced,
    last_bar_date: z.string().nullable(),
    price: num,
    change_pct: num,
    action: z.string().nullable(),
    action_label: z.string().nullable(),
    score: num,
    trend_prediction: z.string(),
    conclusion: z.string(),
    regime: z.string().nullable(),
    trend_state: z.string().nullable(),
    ma: ZIndicators.shape.ma,
    bias_pct: ZIndicators.shape.bias,
    macd: z
      .object({
        dif: z.number(),
        dea: z.number(),
        histogram: z.number(),
        cross: z.string().nullable(),
        cross_bars_ago: z.number().int().nullable(),
      })
      .nullable(),
    rsi: ZIndicators.shape.rsi,
    volume_ratio: num,
    atr14: num,
    adx14: num,
    high_20: num,
    low_20: num,
    support: z.array(z.number()),
    resistance: z.array(z.number()),
    plan: z.object({ ideal_buy: num, secondary_buy: num, stop_loss: num, take_profit: num }),
    checklist: z.array(z.object({ status: z.string(), text: z.string() })),
    risk_warnings: z.array(z.string()),
    guardrails: z.array(z.string()),
    missing: z.array(z.string()),
  }),
  run: (input, ctx) => trendData(input.code, ctx.language),
});

const market = defineTool({
  name: "get_market_indices",
  title: { zh: "获取市场指数", en: "Market indices" },
  description:
    "The registered indices of a market with price and change, and market breadth (advancers, decliners, limit moves) where known.",
  scope: "read",
  input: z.object({ region: z.enum(["cn", "hk", "us"]).default("cn") }),
  output: z.object({
    region: z.string(),
    as_of: z.string().nullable(),
    source: z.string().nullable(),
    is_sample_data: z.boolean(),
    indices: z.array(
      z.object({
        code: z.string(),
        name: z.string().nullable(),
        price: num,
        change_pct: num,
        high: num,
        low: num,
        error: z.string().nullable(),
      }),
    ),
    breadth: z
      .object({
        advancers: num,
        decliners: num,
        flat: num,
        limit_up: num,
        limit_down: num,
        universe: z.string().nullable(),
      })
      .nullable(),
    breadth_note: z.string().nullable(),
  }),
  run: (input, ctx) => marketData(input.region, ctx.language),
});

const news = defineTool({
  name: "search_stock_news",
  title: { zh: "搜索股票新闻", en: "Stock news" },
  description:
    "Recent news about a stock (titles, snippets, links, dates); empty when no news search key is configured.",
  scope: "read",
  input: z.object({ code: ZToolCode }),
  output: z.object({
    ...ZTarget,
    provider: z.string().nullable(),
    note: z.string().nullable(),
    items: z.array(
      z.object({
        title: z.string(),
        snippet: z.string().nullable(),
        url: z.string(),
        source: z.string().nullable(),
        published_at: z.string().nullable(),
      }),
    ),
  }),
  run: (input, ctx) => newsData(input.code, ctx.language, ctx.signal),
});

const latestReports = defineTool({
  name: "get_latest_report",
  title: { zh: "读取历史报告", en: "Stored reports" },
  description:
    "The stock's latest stored DSA reports: action, score, price at the time, trend, summary, advice and the plan's levels.",
  scope: "read",
  input: z.object({ code: ZToolCode, limit: z.number().int().min(1).max(5).default(1) }),
  output: z.object({
    ...ZTarget,
    count: z.number().int(),
    reports: z.array(
      z.object({
        record_id: z.number().int().describe("The report's id: the get_report tool and dsa://reports/{id} read it"),
        created_at: z.string(),
        report_type: z.string().nullable(),
        action: z.string().nullable(),
        action_label: z.string().nullable(),
        score: num,
        price: num,
        change_pct: num,
        trend_prediction: z.string().nullable(),
        summary: z.string().nullable(),
        advice: z.string().nullable(),
        plan: z.record(z.string(), z.string().nullable().optional()),
        levels: z.record(z.string(), num),
        model_used: z.string().nullable(),
        engine_version: z.string().nullable(),
        evidence_statement: z.string().nullable().describe("The engine's own record on this call, to be quoted"),
        data_quality: z.string().nullable(),
      }),
    ),
  }),
  run: (input, ctx) => latestReportsData(input.code, input.limit, ctx.language),
});

const ZSignal = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string().nullable(),
  action: z.string(),
  action_label: z.string().nullable(),
  status: z.string(),
  score: num,
  entry_low: num,
  entry_high: num,
  stop_loss: num,
  target_price: num,
  created_at: z.string(),
  expires_at: z.string().nullable(),
  reason: z.string().nullable(),
});

const signals = defineTool({
  name: "get_decision_signals",
  title: { zh: "读取决策信号", en: "Decision signals" },
  description:
    "DSA's decision signals (latest first): action, status, entry range, stop loss and target; one stock's or all.",
  scope: "read",
  input: z.object({ code: ZToolCode.optional() }),
  output: z.object({
    ...z.object(ZTarget).partial().shape,
    total: z.number().int(),
    signals: z.array(ZSignal),
  }),
  run: (input, ctx) => signalsData(input.code ?? null, ctx.language),
});

const backtest = defineTool({
  name: "get_stock_backtest_summary",
  title: { zh: "获取个股回测数据", en: "Report backtest" },
  description:
    "How DSA's past reports on this stock did (report backtest): win rate, direction accuracy, mean returns, stop and target hit rates.",
  scope: "read",
  input: z.object({ code: ZToolCode }),
  output: z.object({
    ...ZTarget,
    evaluated: z.boolean().describe("false: no evaluated report of this stock yet (note says how to make some)"),
    note: z.string().optional(),
    eval_window_days: z.number().int().optional(),
    total_evaluations: z.number().int().optional(),
    completed_count: z.number().int().optional(),
    win_count: z.number().int().optional(),
    loss_count: z.number().int().optional(),
    win_rate_pct: num.optional(),
    direction_accuracy_pct: num.optional(),
    avg_stock_return_pct: num.optional(),
    avg_simulated_return_pct: num.optional(),
    stop_loss_trigger_rate: num.optional(),
    take_profit_trigger_rate: num.optional(),
  }),
  run: (input, ctx) => backtestData(input.code, ctx.language),
});

const portfolio = defineTool({
  name: "get_portfolio",
  title: { zh: "读取持仓与风险", en: "Portfolio and risk" },
  description:
    "The user's portfolio: positions with cost, last price and P&L, totals, and risk (concentration, drawdown, stop-loss proximity).",
  scope: "read",
  input: z.strictObject({}),
  output: z.object({
    as_of: z.string(),
    currency: z.string(),
    total_market_value: num,
    total_cash: num,
    total_equity: num,
    unrealized_pnl: num,
    fx_stale: z.boolean(),
    positions: z.array(
      z.object({
        account_id: z.number().int(),
        symbol: z.string(),
        market: z.string(),
        quantity: z.number(),
        avg_cost: num,
        last_price: num,
        market_value: num,
        unrealized_pnl_pct: num,
        price_date: z.string().nullable(),
      }),
    ),
    risk: z.object({
      top_positions: z.array(z.unknown()),
      alerts: z.unknown(),
      drawdown: z.unknown(),
      stop_loss: z.unknown(),
    }),
  }),
  run: () => portfolioData(),
});

const paperAccounts = defineTool({
  name: "list_paper_accounts",
  title: { zh: "模拟账户", en: "Paper accounts" },
  description:
    "The paper accounts: each one's cash, equity, return and positions, from the calls made after it was created.",
  scope: "read",
  input: z.strictObject({}),
  output: ZPaperAccountList,
  run: () => listPaperAccounts(),
});

/** The chat's tools in the order the model is offered them. */
export const CHAT_TOOLS: readonly ToolDefinition[] = [
  quote,
  dailyHistory,
  trend,
  market,
  news,
  latestReports,
  signals,
  backtest,
  portfolio,
  paperAccounts,
];

export function chatTool(name: ToolName): ToolDefinition {
  return CHAT_TOOLS.find((t) => t.name === name)!;
}
