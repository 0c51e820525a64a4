import { ZStrategy, type TStrategy } from "./strategy-schema";

// The built-in strategies. Their thresholds are the textbook readings a trader recognises (RSI 30, twice the usual
// volume, the 20-day high, 52 weeks), set once from convention, never fitted to any data; no strategy claims an
// edge: a candidate is a stock to look at, and its report says what the evidence shows.

const ALL = ["cn", "hk", "us"] as const;

const BUILT_IN: TStrategy[] = [
  {
    id: "trend_pullback",
    name: { zh: "趋势回踩", en: "Trend pullback" },
    description: {
      zh: "中期上升趋势（MA20 在 MA60 上方且向上）中，价格回落到 MA20 附近（-3% 至 +2%）",
      en: "A medium-term uptrend (MA20 above a rising MA60) whose price has pulled back to near MA20 (−3 % to +2 %)",
    },
    category: "trend",
    markets: [...ALL],
    filters: [
      { metric: "close_vs_ma60_pct", op: "gte", value: 0 },
      { metric: "ma20_vs_ma60_pct", op: "gte", value: 0 },
      { metric: "ma20_slope_pct", op: "gte", value: 0 },
      { metric: "close_vs_ma20_pct", op: "gte", value: -3 },
      { metric: "close_vs_ma20_pct", op: "lte", value: 2 },
    ],
    rank: { metric: "ret_60d_pct", order: "desc" },
  },
  {
    id: "volume_breakout",
    name: { zh: "放量突破", en: "Breakout on volume" },
    description: {
      zh: "收盘价突破前 20 个交易日的最高价，且成交量至少是前 5 日均量的 2 倍",
      en: "The close clears the highest high of the previous 20 sessions on at least twice the 5-day average volume",
    },
    category: "breakout",
    markets: [...ALL],
    filters: [
      { metric: "breakout_20d_pct", op: "gte", value: 0 },
      { metric: "volume_ratio", op: "gte", value: 2 },
    ],
    rank: { metric: "volume_ratio", order: "desc" },
  },
  {
    id: "oversold_rebound",
    name: { zh: "超跌反弹", en: "Oversold rebound" },
    description: {
      zh: "RSI(14) 不高于 30 的超卖股票，当日收涨",
      en: "An oversold stock (RSI(14) at or below 30) that closed up on the day",
    },
    category: "reversal",
    markets: [...ALL],
    filters: [
      { metric: "rsi14", op: "lte", value: 30 },
      { metric: "change_pct", op: "gte", value: 0 },
    ],
    rank: { metric: "rsi14", order: "asc" },
  },
  {
    id: "new_high_52w",
    name: { zh: "创 52 周新高", en: "New 52-week high" },
    description: {
      zh: "收盘价不低于此前 52 周（250 个交易日）的最高价",
      en: "The close is at or above the highest high of the previous 52 weeks (250 sessions)",
    },
    category: "momentum",
    markets: [...ALL],
    filters: [{ metric: "close_vs_high_52w_pct", op: "gte", value: 0 }],
    rank: { metric: "ret_20d_pct", order: "desc" },
  },
  {
    id: "low_volatility_uptrend",
    name: { zh: "低波动上升", en: "Low-volatility uptrend" },
    description: {
      zh: "价格在 MA60 上方、MA20 向上，近 20 日日收益波动（标准差）不超过 2%",
      en: "Price above MA60 with a rising MA20 and a 20-day daily-return volatility (standard deviation) of at most 2 %",
    },
    category: "quality",
    markets: [...ALL],
    filters: [
      { metric: "volatility_20d_pct", op: "lte", value: 2 },
      { metric: "close_vs_ma60_pct", op: "gte", value: 0 },
      { metric: "ma20_slope_pct", op: "gte", value: 0 },
    ],
    rank: { metric: "volatility_20d_pct", order: "asc" },
  },
  {
    id: "volume_surge",
    name: { zh: "异常放量", en: "Volume surge" },
    description: {
      zh: "当日成交量至少是前 5 日均量的 3 倍",
      en: "The day's volume is at least three times the 5-day average",
    },
    category: "volume",
    markets: [...ALL],
    filters: [{ metric: "volume_ratio", op: "gte", value: 3 }],
    rank: { metric: "volume_ratio", order: "desc" },
  },
  {
    id: "golden_cross",
    name: { zh: "均线金叉", en: "Moving-average golden cross" },
    description: {
      zh: "MA5 在最近 3 个交易日内上穿 MA20",
      en: "MA5 crossed above MA20 within the last 3 sessions",
    },
    category: "trend",
    markets: [...ALL],
    filters: [{ metric: "ma5_cross_ma20_days", op: "lte", value: 3 }],
    rank: { metric: "ret_5d_pct", order: "desc" },
  },
  {
    id: "relative_strength",
    name: { zh: "强于大盘", en: "Relative strength" },
    description: {
      zh: "近 60 个交易日涨幅比本市场基准指数高出至少 10 个百分点，且价格在 MA60 上方",
      en: "A 60-session return at least 10 points above the market's benchmark index, with price above MA60",
    },
    category: "momentum",
    markets: [...ALL],
    filters: [
      { metric: "excess_ret_60d_pct", op: "gte", value: 10 },
      { metric: "close_vs_ma60_pct", op: "gte", value: 0 },
    ],
    rank: { metric: "excess_ret_60d_pct", order: "desc" },
  },
];

export const BUILT_IN_STRATEGIES: readonly TStrategy[] = BUILT_IN.map((s) => ZStrategy.parse(s));

export function findBuiltInStrategy(id: string): TStrategy | undefined {
  return BUILT_IN_STRATEGIES.find((s) => s.id === id);
}
