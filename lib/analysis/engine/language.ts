import type { TReportLanguage } from "./schemas";

// docs/api.md §7: zh is the default; these spellings are the accepted aliases. Case and "_" vs "-" are
// ignored so "ZH_CN" and "en_US" land where a person would expect.
const LANGUAGE_ALIASES: Record<string, TReportLanguage> = {
  zh: "zh",
  "zh-cn": "zh",
  "zh-hans": "zh",
  "zh-tw": "zh",
  cn: "zh",
  chinese: "zh",
  en: "en",
  english: "en",
  "en-us": "en",
  "en-gb": "en",
};

/**
 * report_language normalisation (docs/api.md §7). Anything unknown (or blank) gives `fallback`, which the
 * caller reads from the REPORT_LANGUAGE setting; the fallback itself is normalised so a bad setting still
 * yields zh or en.
 */
export function normalizeReportLanguage(value: unknown, fallback: unknown = "zh"): TReportLanguage {
  const direct = lookupLanguage(value);
  if (direct) return direct;
  return lookupLanguage(fallback) ?? "zh";
}

function lookupLanguage(value: unknown): TReportLanguage | null {
  if (typeof value !== "string") return null;
  const key = value.trim().toLowerCase().replace(/_/g, "-");
  return LANGUAGE_ALIASES[key] ?? null;
}

export type Localized = Record<TReportLanguage, string>;

export function pick(text: Localized, language: TReportLanguage): string {
  return text[language];
}

// Trend states as people read them; keys are the indicator's trend_state values.
export const TREND_STATE_LABELS = {
  strong_bullish: { zh: "强势多头排列", en: "Strong bullish alignment" },
  bullish: { zh: "多头排列", en: "Bullish alignment" },
  weak_bullish: { zh: "弱势多头", en: "Weak bullish" },
  // Not "震荡": that word is the 1–3-month regime's (REGIME_LABELS), and the two readings can differ.
  consolidation: { zh: "均线交织", en: "Averages intertwined" },
  weak_bearish: { zh: "弱势空头", en: "Weak bearish" },
  bearish: { zh: "空头排列", en: "Bearish alignment" },
  strong_bearish: { zh: "强势空头排列", en: "Strong bearish alignment" },
} as const satisfies Record<string, Localized>;

// The 1–3-month regime the call's table reads (indicators.ts regimeOf), in the words the advice uses: the report's
// trend_prediction, so the trend shown beside a call is the one the call speaks of.
export const REGIME_LABELS = {
  up: { zh: "上升趋势", en: "Uptrend" },
  flat: { zh: "区间震荡", en: "Range" },
  down: { zh: "下跌趋势", en: "Downtrend" },
  unknown: { zh: "数据不足，无法判断", en: "Not enough data to judge" },
} as const satisfies Record<string, Localized>;

// Where a price level comes from, so a plan says "1480.50 (MA5)" rather than a bare number.
export const LEVEL_BASIS_LABELS = {
  ma5: { zh: "MA5", en: "MA5" },
  ma10: { zh: "MA10", en: "MA10" },
  ma20: { zh: "MA20", en: "MA20" },
  ma60: { zh: "MA60", en: "MA60" },
  swing_low: { zh: "近期波段低点", en: "recent swing low" },
  swing_high: { zh: "近期波段高点", en: "recent swing high" },
  high_20: { zh: "20日最高", en: "20-day high" },
  low_20: { zh: "20日最低", en: "20-day low" },
  below_support: { zh: "支撑位下方", en: "below support" },
  risk_reward_2r: { zh: "2倍风险收益比", en: "2× risk/reward" },
  current_price: { zh: "现价", en: "current price" },
  atr_stop: { zh: "支撑下方留出波动缓冲", en: "below support with a volatility buffer" },
  above_resistance: { zh: "压力位上方留出波动缓冲", en: "above resistance with a volatility buffer" },
  breakout_above: { zh: "向上突破位", en: "breakout above" },
  breakdown_below: { zh: "向下跌破位", en: "breakdown below" },
  risk_reward_3r: { zh: "3倍风险收益比", en: "3× risk/reward" },
} as const satisfies Record<string, Localized>;

export const LEVEL_NAME_LABELS = {
  ideal_buy: { zh: "理想买点", en: "Ideal buy" },
  secondary_buy: { zh: "次优买点", en: "Secondary buy" },
  stop_loss: { zh: "止损位", en: "Stop loss" },
  take_profit: { zh: "目标位", en: "Take profit" },
  support: { zh: "支撑位", en: "Support" },
  resistance: { zh: "压力位", en: "Resistance" },
} as const satisfies Record<string, Localized>;

export const PHASE_LABELS = {
  premarket: { zh: "盘前", en: "Pre-market" },
  intraday: { zh: "盘中", en: "Intraday" },
  postmarket: { zh: "盘后", en: "Post-market" },
  non_trading: { zh: "休市", en: "Market closed" },
} as const satisfies Record<string, Localized>;

export const CONFIDENCE_LABELS = {
  high: { zh: "高", en: "High" },
  medium: { zh: "中", en: "Medium" },
  low: { zh: "低", en: "Low" },
} as const satisfies Record<string, Localized>;

export const VOLUME_STATUS_LABELS = {
  heavy: { zh: "放量", en: "Heavy volume" },
  normal: { zh: "量能正常", en: "Normal volume" },
  shrinking: { zh: "缩量", en: "Light volume" },
} as const satisfies Record<string, Localized>;

export const BIAS_STATUS_LABELS = {
  chasing: { zh: "乖离过大，追高风险", en: "Stretched above MA5: chasing risk" },
  elevated: { zh: "略高于MA5", en: "Somewhat above MA5" },
  near: { zh: "贴近MA5", en: "Close to MA5" },
  below: { zh: "低于MA5", en: "Below MA5" },
  deep_below: { zh: "大幅低于MA5", en: "Far below MA5" },
} as const satisfies Record<string, Localized>;

// The visible label of sample-provider data.
export const SAMPLE_DATA_NOTICE: Localized = {
  zh: "【样本数据，非真实行情，仅供演示】",
  en: "[Sample data – not real market data, for demonstration only]",
};

export function formatPrice(value: number): string {
  const decimals = Math.abs(value) < 1 ? 3 : 2;
  return value.toFixed(decimals);
}

export function formatPct(value: number, signed = true): string {
  const text = `${value.toFixed(2)}%`;
  return signed && value > 0 ? `+${text}` : text;
}
