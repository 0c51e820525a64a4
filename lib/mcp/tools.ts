import { z } from "zod";
import { ZToolCode } from "@/lib/agent/tool-catalog";
import { defineTool, type ToolDefinition } from "@/lib/agent/tool-definition";
import { listAlertRules, createAlertRule } from "@/lib/alerts/rules";
import { ZAlertRule, ZAlertRuleCreate, ZAlertRuleList, ZAlertRuleListQuery } from "@/lib/alerts/schemas";
import { ZReportType } from "@/lib/analysis/engine/schemas";
import { listHistory } from "@/lib/history/list";
import { getHistoryMarkdown, getHistoryReport } from "@/lib/history/record";
import { ZAnalysisReport, ZHistoryListQuery, ZHistoryListResponse } from "@/lib/history/schemas";
import { reportBacktestPerformance } from "@/lib/report-eval/read";
import { runReportBacktest } from "@/lib/report-eval/run";
import {
  ZReportEvalPerformance,
  ZReportEvalPerformanceQuery,
  ZReportEvalRunRequest,
  ZReportEvalRunResponse,
} from "@/lib/report-eval/schemas";
import { listStrategies } from "@/lib/screening/read";
import { runScreen } from "@/lib/screening/run";
import { ZScreenRequest, ZScreenResponse, ZStrategiesResponse } from "@/lib/screening/schemas";
import { ZOutcomeStatsQuery, ZOutcomeStatsResponse } from "@/lib/signals/schemas";
import { outcomeStats } from "@/lib/signals/stats";
import { getTaskStatus } from "@/lib/tasks/read";
import { ZMarketReviewAccepted, ZMarketReviewRequest, ZTaskStatus } from "@/lib/tasks/schemas";
import { submitMarketReview } from "@/lib/tasks/submit";
import { ZWatchlist, ZWatchlistChange } from "@/lib/watchlist/schemas";
import { addToWatchlist, getWatchlist, removeFromWatchlist } from "@/lib/watchlist/store";
import { queueAnalysis } from "./analyze";

// The tools MCP adds to the chat's: each reads or writes through the same domain function as its HTTP endpoint,
// with that endpoint's zod schemas, so a tool accepts exactly what the endpoint accepts and answers its record.

const ZRecordId = z.object({
  record_id: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .describe("The report's id (record_id of get_latest_report or search_history)"),
});

const getReport = defineTool({
  name: "get_report",
  title: { zh: "读取报告", en: "Report" },
  description:
    "One stored report: its Markdown text and the structured report (verdict, plan, indicators, evidence of the engine's " +
    "record with its sample size, and data quality).",
  scope: "read",
  input: ZRecordId,
  output: z.object({ markdown: z.string(), report: ZAnalysisReport }),
  run: async ({ record_id }) => {
    const [report, markdown] = await Promise.all([getHistoryReport(record_id), getHistoryMarkdown(record_id)]);
    return { markdown: markdown.content, report };
  },
});

const searchHistory = defineTool({
  name: "search_history",
  title: { zh: "搜索历史报告", en: "Report history" },
  description: "Stored reports, newest first: one stock's or all, by report type and date range, one page at a time.",
  scope: "read",
  input: ZHistoryListQuery,
  output: ZHistoryListResponse,
  run: (query) => listHistory(query),
});

const signalStats = defineTool({
  name: "get_signal_outcome_stats",
  title: { zh: "信号结果统计", en: "Signal outcome statistics" },
  description:
    "How DSA's decision signals turned out: hit rate and mean return by horizon and action, each with its sample size " +
    "and interval, and whether there is a measurable edge over the base rate.",
  scope: "read",
  input: ZOutcomeStatsQuery,
  output: ZOutcomeStatsResponse,
  run: (query) => outcomeStats(query),
});

const backtestPerformance = defineTool({
  name: "get_backtest_performance",
  title: { zh: "回测表现", en: "Report backtest performance" },
  description: "How all stored reports (or one stock's) did against the bars that followed them.",
  scope: "read",
  input: ZReportEvalPerformanceQuery.extend({ code: ZToolCode.optional().describe("Only this stock's reports") }),
  output: ZReportEvalPerformance,
  run: ({ code, ...query }) => reportBacktestPerformance(query, code),
});

const watchlist = defineTool({
  name: "get_watchlist",
  title: { zh: "自选股", en: "Watchlist" },
  description: "The watchlist (STOCK_LIST) in order.",
  scope: "read",
  input: z.strictObject({}),
  output: ZWatchlist,
  run: async () => getWatchlist(),
});

const alertRules = defineTool({
  name: "list_alert_rules",
  title: { zh: "提醒规则", en: "Alert rules" },
  description: "The alert rules with their targets, conditions and state, one page at a time.",
  scope: "read",
  input: ZAlertRuleListQuery,
  output: ZAlertRuleList,
  run: (query) => listAlertRules(query),
});

const strategies = defineTool({
  name: "list_screening_strategies",
  title: { zh: "选股策略", en: "Screening strategies" },
  description: "The screening strategies, built-in and saved, each with its filters and a one-sentence description.",
  scope: "read",
  input: z.object({ language: z.enum(["zh", "en"]).optional() }),
  output: ZStrategiesResponse,
  run: (input, ctx) => listStrategies(input.language ?? ctx.language),
});

const taskStatus = defineTool({
  name: "get_task_status",
  title: { zh: "任务状态", en: "Task status" },
  description: "A queued analysis or market review: its status and progress, and its result once completed.",
  scope: "read",
  input: z.object({ task_id: z.string().trim().min(1).max(64) }),
  output: ZTaskStatus,
  run: (input) => getTaskStatus(input.task_id),
});

const analyze = defineTool({
  name: "analyze_stock",
  title: { zh: "分析股票", en: "Analyse a stock" },
  description:
    "Queue an analysis of one stock (the rule engine, plus the model when one is configured) and, with wait true (the " +
    "default), report its progress and answer the stored report when it completes. wait false answers the task at once.",
  scope: "write",
  input: z.object({
    code: ZToolCode,
    report_type: ZReportType.optional(),
    wait: z.boolean().default(true),
  }),
  output: ZTaskStatus,
  run: (input, ctx) => queueAnalysis(input, ctx),
});

const addWatch = defineTool({
  name: "add_to_watchlist",
  title: { zh: "加入自选", en: "Add to watchlist" },
  description: "Resolve a code or name and add it to the watchlist unless it is listed.",
  scope: "write",
  input: ZWatchlistChange,
  output: ZWatchlist,
  run: (input) => addToWatchlist(input.stock_code),
});

const removeWatch = defineTool({
  name: "remove_from_watchlist",
  title: { zh: "移出自选", en: "Remove from watchlist" },
  description: "Remove every watchlist entry naming the same stock.",
  scope: "write",
  input: ZWatchlistChange,
  output: ZWatchlist,
  run: (input) => removeFromWatchlist(input.stock_code),
});

const createAlert = defineTool({
  name: "create_alert_rule",
  title: { zh: "新建提醒", en: "Create an alert rule" },
  description:
    "Create an alert rule (price, change, volume or indicator conditions on a stock, the watchlist or a market).",
  scope: "write",
  input: ZAlertRuleCreate,
  output: ZAlertRule,
  run: (input) => createAlertRule(input),
});

const runBacktest = defineTool({
  name: "run_backtest",
  title: { zh: "运行回测", en: "Run the report backtest" },
  description:
    "Evaluate stored reports against the bars that followed them (one stock's or all) and store the rows; answers the " +
    "counts. get_backtest_performance reads the result.",
  scope: "write",
  input: ZReportEvalRunRequest,
  output: ZReportEvalRunResponse,
  run: (input) => runReportBacktest(input),
});

const marketReview = defineTool({
  name: "run_market_review",
  title: { zh: "大盘复盘", en: "Market review" },
  description:
    "Queue a market review (indices, breadth, news); get_task_status follows it and search_history finds it.",
  scope: "write",
  input: ZMarketReviewRequest,
  output: ZMarketReviewAccepted,
  run: (input) => submitMarketReview(input, `mcp-${Date.now().toString(36)}`),
});

const screen = defineTool({
  name: "run_screening",
  title: { zh: "选股", en: "Screen a market" },
  description:
    "Screen a market with one strategy: the candidates with the figures that made each pass; the run is stored.",
  scope: "write",
  input: ZScreenRequest,
  output: ZScreenResponse,
  run: (input) => runScreen(input),
});

export const MCP_ONLY_TOOLS: readonly ToolDefinition[] = [
  getReport,
  searchHistory,
  signalStats,
  backtestPerformance,
  watchlist,
  alertRules,
  strategies,
  taskStatus,
  analyze,
  addWatch,
  removeWatch,
  createAlert,
  runBacktest,
  marketReview,
  screen,
];
