import type { LlmChannel } from "@/lib/analysis/llm/channels";
import type { LlmReportContext } from "@/lib/analysis/llm/prompt";
import type { TLlmReport } from "@/lib/analysis/llm/report-schema";

// Shared by the LLM tests: a context priced at 100 and a report that passes every check against it.

export function sampleContext(overrides: Partial<LlmReportContext> = {}): LlmReportContext {
  return {
    target: {
      code: "600519",
      name: "贵州茅台",
      display_code: "600519.SH",
      market: "cn",
      asset_type: "stock",
      currency: "CNY",
    },
    quote: { price: 100, change_pct: 1.2, volume_ratio: 1.1 },
    indicators: { ma5: 98, ma10: 96, ma20: 94, ma60: 90, rsi12: 58, macd: { dif: 0.5, dea: 0.3, hist: 0.4 } },
    ruleDecision: { score: 68, action: "buy", stop_loss: 93, take_profit: 112 },
    news: [{ title: "Quarterly results beat estimates", source: "example", published_at: "2026-11-20" }],
    recentBars: [{ date: "2026-11-19", open: 97, high: 99, low: 96, close: 98.8, volume: 1000 }],
    phase: "postmarket",
    language: "en",
    reportType: "simple",
    ...overrides,
  };
}

export function validReport(
  overrides: {
    action?: TLlmReport["core_conclusion"]["action"];
    score?: number;
    levels?: Partial<TLlmReport["battle_plan"]["sniper_points"]>;
  } = {},
): TLlmReport {
  return {
    core_conclusion: {
      one_sentence: "Bullish alignment with a healthy pullback; buy near MA5 with a tight stop.",
      action: overrides.action ?? "buy",
      score: overrides.score ?? 70,
      confidence: "medium",
      time_sensitivity: "this week",
      position_advice: { no_position: "Open 30% near 98.", has_position: "Hold; stop at 93." },
    },
    data_perspective: {
      trend_status: "MA5 > MA10 > MA20, bullish",
      price_position: "2% above MA5",
      volume_analysis: "volume ratio 1.1, normal",
      momentum: "MACD above zero, RSI 58",
    },
    intelligence: {
      latest_news: "Quarterly results beat estimates.",
      positive_catalysts: ["earnings beat"],
      risk_alerts: [],
      sentiment_summary: "positive",
    },
    battle_plan: {
      sniper_points: { ideal_buy: 98, secondary_buy: 96, stop_loss: 93, take_profit: 112, ...overrides.levels },
      position_strategy: {
        suggested_position: "30%",
        entry_plan: "scale in at 98 and 96",
        risk_control: "exit below 93",
      },
    },
    checklist: [{ item: "MA alignment", status: "pass", detail: "bullish" }],
    risk_warnings: ["market-wide volatility"],
    trend_prediction: "up",
    operation_advice: "Buy on pullbacks towards 98.",
  };
}

export function channel(
  name: string,
  models: string[],
  protocol: LlmChannel["protocol"] = "openai-compatible",
  apiKey = `sk-${name}-secret-key-0123456789`,
): LlmChannel {
  return {
    name,
    baseURL: "http://127.0.0.1:9/v1",
    apiKey,
    apiKeys: [apiKey],
    models,
    protocol,
    configuredProtocol: protocol === "openai" ? "openai" : "deepseek",
  };
}
