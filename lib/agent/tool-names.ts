// The chat's tool names, in one small module: the strategies' loader checks front matter against it without
// loading the tools (and the data layer behind them) into the analysis pipeline.
export const TOOL_NAMES = [
  "get_realtime_quote",
  "get_daily_history",
  "analyze_trend",
  "get_market_indices",
  "search_stock_news",
  "get_latest_report",
  "get_decision_signals",
  "get_stock_backtest_summary",
  "get_portfolio",
  "list_paper_accounts",
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];
