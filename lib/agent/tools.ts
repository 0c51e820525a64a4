import { tool, type ToolSet } from "ai";
import { z } from "zod";
import { MarketDataUnavailableError } from "@/lib/market";
import type { AgentStreamEvent, TAgentToolCall } from "./schemas";
import { TOOL_NAMES, type ToolName } from "./tool-names";
import {
  backtestData,
  dailyHistoryData,
  latestReportsData,
  marketData,
  newsData,
  portfolioData,
  quoteData,
  signalsData,
  ToolInputError,
  trendData,
  type Language,
} from "./tool-data";

// The chat's tools: AI SDK tools with zod inputs, each one call into tool-data.ts. The names are
// the reference's where it has the same tool, so strategies written for it read naturally.

export { TOOL_NAMES, type ToolName };

export const TOOL_DISPLAY_NAMES: Record<ToolName, Record<Language, string>> = {
  get_realtime_quote: { zh: "获取实时行情", en: "Realtime quote" },
  get_daily_history: { zh: "获取历史K线", en: "Daily bars" },
  analyze_trend: { zh: "分析技术趋势", en: "Indicators and trend" },
  get_market_indices: { zh: "获取市场指数", en: "Market indices" },
  search_stock_news: { zh: "搜索股票新闻", en: "Stock news" },
  get_latest_report: { zh: "读取历史报告", en: "Stored reports" },
  get_decision_signals: { zh: "读取决策信号", en: "Decision signals" },
  get_stock_backtest_summary: { zh: "获取个股回测数据", en: "Report backtest" },
  get_portfolio: { zh: "读取持仓与风险", en: "Portfolio and risk" },
};

/** Steps only the /analyze command takes (the model does not write reports from the chat). */
const COMMAND_STEP_NAMES: Record<string, Record<Language, string>> = {
  analyze_stock: { zh: "运行分析", en: "Run analysis" },
};

export function toolDisplayName(name: string, language: Language): string {
  const names = { ...COMMAND_STEP_NAMES, ...TOOL_DISPLAY_NAMES } as Record<string, Record<Language, string>>;
  return names[name]?.[language] ?? name;
}

const ZCode = z
  .string()
  .trim()
  .min(1)
  .max(32)
  .describe("Stock or index code or name: 600519, 00700, AAPL, 贵州茅台, 上证指数");

/** Records every tool call of a turn (for the stored message and the answer check) and reports its start and end. */
export class ToolRecorder {
  readonly calls: TAgentToolCall[] = [];
  step = 0;

  constructor(
    private readonly emit: (event: AgentStreamEvent) => void,
    readonly language: Language,
  ) {}

  async run<T>(name: string, input: unknown, work: () => Promise<T>): Promise<T> {
    const display = toolDisplayName(name, this.language);
    const step = this.step;
    this.emit({ type: "tool_start", tool: name, display_name: display, step, input });
    const started = performance.now();
    try {
      const output = await work();
      const duration = seconds(started);
      this.calls.push({ tool: name, display_name: display, input, output, success: true, duration });
      this.emit({ type: "tool_done", tool: name, display_name: display, step, success: true, duration });
      return output;
    } catch (error) {
      const duration = seconds(started);
      const message = toolErrorMessage(error);
      this.calls.push({
        tool: name,
        display_name: display,
        input,
        output: { error: message },
        success: false,
        duration,
      });
      this.emit({
        type: "tool_done",
        tool: name,
        display_name: display,
        step,
        success: false,
        duration,
        error: message,
      });
      throw error instanceof ToolInputError ? error : new ToolInputError(message);
    }
  }

  /** The successful outputs, for the answer check. */
  outputs(): { tool: string; output: unknown }[] {
    return this.calls.filter((c) => c.success).map((c) => ({ tool: c.tool, output: c.output }));
  }
}

function seconds(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}

/** What a failed tool call tells the model and the user: the reason, never a stack or a provider's body. */
export function toolErrorMessage(error: unknown): string {
  if (error instanceof ToolInputError) return error.message;
  if (error instanceof MarketDataUnavailableError) return `no market data: ${error.message}`.slice(0, 300);
  if (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError")) return "cancelled";
  return "the data could not be read";
}

/** The AI SDK tools of one turn; each call goes through the recorder. */
export function buildAgentTools(recorder: ToolRecorder, signal?: AbortSignal): ToolSet {
  const lang = recorder.language;
  const run = <T>(name: ToolName, input: unknown, work: () => Promise<T>) => recorder.run(name, input, work);
  return {
    get_realtime_quote: tool({
      description:
        "The current price of a stock or index (the quote, or the last close), its daily change in percent, day range and time.",
      inputSchema: z.object({ code: ZCode }),
      execute: (input) => run("get_realtime_quote", input, () => quoteData(input.code, lang)),
    }),
    get_daily_history: tool({
      description:
        "Daily bars (date, open, high, low, close, volume) of the last `days` sessions, with the period's high, low and change.",
      inputSchema: z.object({ code: ZCode, days: z.number().int().min(1).max(120).default(60) }),
      execute: (input) => run("get_daily_history", input, () => dailyHistoryData(input.code, input.days, lang)),
    }),
    analyze_trend: tool({
      description:
        "DSA's rule engine on the latest data: moving averages, MACD, RSI, ATR, ADX, volume ratio, regime and trend, support and " +
        "resistance, the engine's action and score, and its price plan (ideal buy, second buy, stop loss, take profit).",
      inputSchema: z.object({ code: ZCode }),
      execute: (input) => run("analyze_trend", input, () => trendData(input.code, lang)),
    }),
    get_market_indices: tool({
      description:
        "The registered indices of a market with price and change, and market breadth (advancers, decliners, limit moves) where known.",
      inputSchema: z.object({ region: z.enum(["cn", "hk", "us"]).default("cn") }),
      execute: (input) => run("get_market_indices", input, () => marketData(input.region, lang)),
    }),
    search_stock_news: tool({
      description:
        "Recent news about a stock (titles, snippets, links, dates); empty when no news search key is configured.",
      inputSchema: z.object({ code: ZCode }),
      execute: (input) => run("search_stock_news", input, () => newsData(input.code, lang, signal)),
    }),
    get_latest_report: tool({
      description:
        "The stock's latest stored DSA reports: action, score, price at the time, trend, summary, advice and the plan's levels.",
      inputSchema: z.object({ code: ZCode, limit: z.number().int().min(1).max(5).default(1) }),
      execute: (input) => run("get_latest_report", input, () => latestReportsData(input.code, input.limit, lang)),
    }),
    get_decision_signals: tool({
      description:
        "DSA's decision signals (latest first): action, status, entry range, stop loss and target; one stock's or all.",
      inputSchema: z.object({ code: ZCode.optional() }),
      execute: (input) => run("get_decision_signals", input, () => signalsData(input.code ?? null, lang)),
    }),
    get_stock_backtest_summary: tool({
      description:
        "How DSA's past reports on this stock did (report backtest): win rate, direction accuracy, mean returns, stop and target hit rates.",
      inputSchema: z.object({ code: ZCode }),
      execute: (input) => run("get_stock_backtest_summary", input, () => backtestData(input.code, lang)),
    }),
    get_portfolio: tool({
      description:
        "The user's portfolio: positions with cost, last price and P&L, totals, and risk (concentration, drawdown, stop-loss proximity).",
      inputSchema: z.object({}),
      execute: (input) => run("get_portfolio", input, () => portfolioData()),
    }),
  };
}
