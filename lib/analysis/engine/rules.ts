import type { TMarket } from "@/lib/market/symbols";
import {
  BIAS_STATUS_LABELS,
  formatPct,
  formatPrice,
  LEVEL_BASIS_LABELS,
  TREND_STATE_LABELS,
  type Localized,
} from "./language";
import { structurePlan, type Plan } from "./plan";
import type {
  TChecklistItem,
  TDecisionAction,
  TGuardrailReason,
  TIndicators,
  TLevelBasis,
  TMarketPhase,
  TPriceLevel,
  TReportLanguage,
  TScoreFactor,
  TStructureCell,
  TTrendState,
} from "./schemas";
import { decideStructure, type StructureReason } from "./structure-decision";

// The rule-based decision. It is the whole report when no LLM is configured, and the baseline an LLM answer
// is checked against.
//
// rules-v2: the action and the score come from the market structure (structure-decision.ts), the
// price plan from the stock's ATR (plan.ts). The factor breakdown below stays as the evidence a reader sees:
// each factor's points say how it reads for a long position on the reference's scale (trend 30, bias 20,
// volume 15, support 10, MACD 15, RSI(12) 10); a factor without data is left out and lowers confidence.
// Without 20 bars there is no trend and no score at all (reference §12: no default-50 fallbacks).

export const FACTOR_WEIGHTS = { trend: 30, bias: 20, volume: 15, support: 10, macd: 15, rsi: 10 } as const;

// reference §3: no chasing beyond 5 % above MA5 (7.5 % in a strong bullish trend): the bias checklist item.
export const CHASE_BIAS_PCT = 5;
const STRONG_TREND_CHASE_FACTOR = 1.5;

const TREND_POINTS: Record<TTrendState, number> = {
  strong_bullish: 30,
  bullish: 26,
  weak_bullish: 18,
  consolidation: 12,
  weak_bearish: 8,
  bearish: 4,
  strong_bearish: 0,
};
const BEARISH_ALIGNMENT: readonly TTrendState[] = ["bearish", "strong_bearish"];

export interface RuleDecision {
  score: number | null;
  raw_score: number | null; // before a guardrail clamp
  breakdown: TScoreFactor[];
  confidence: "high" | "medium" | "low";
  confidence_reasons: string[];
  action: TDecisionAction;
  strong: boolean;
  guardrail_reasons: TGuardrailReason[];
  /** The rules-v2 node that decided (structure-decision.ts); null without a score. */
  structure: StructureReason | null;
  /** The table cell behind `structure` (stored with the report to show where the score comes from). */
  structure_cell: TStructureCell | null;
  plan: Plan;
  plan_notes: string[];
  checklist: TChecklistItem[];
  risk_warnings: string[];
}

export interface RuleInput {
  indicators: TIndicators;
  market: TMarket;
  phase: TMarketPhase;
  language: TReportLanguage;
  isSample: boolean;
}

const t = (text: Localized, language: TReportLanguage) => text[language];

export function chaseThreshold(trend: TTrendState | null): number {
  return trend === "strong_bullish" ? CHASE_BIAS_PCT * STRONG_TREND_CHASE_FACTOR : CHASE_BIAS_PCT;
}

export function decideByRules(input: RuleInput): RuleDecision {
  const { indicators: ind, language } = input;
  const breakdown = scoreFactors(input);
  const structure = ind.trend === null ? null : decideStructure(ind, input.market);
  const score = structure?.score ?? null;
  const { confidence, reasons } = assessConfidence(input, breakdown, score);
  const guardrails: TGuardrailReason[] = [];
  if (structure === null) {
    guardrails.push({
      code: "insufficient_data",
      message: t(
        {
          zh: `仅有${ind.bars_used}根K线，不足20根，无法判断趋势，不给出评分`,
          en: `Only ${ind.bars_used} bars (fewer than 20): no trend and no score`,
        },
        language,
      ),
    });
  } else {
    const guard = structureGuardrail(structure.reason, input);
    if (guard) guardrails.push(guard);
  }
  const action: TDecisionAction = structure?.action ?? "watch";
  const { plan, notes } =
    ind.price === null
      ? {
          plan: { ideal_buy: null, secondary_buy: null, stop_loss: null, take_profit: null },
          notes: [t({ zh: "无价格数据", en: "no price data" }, language)],
        }
      : { plan: structurePlan(ind, action, structure?.reason ?? "no_structure"), notes: [] as string[] };
  return {
    score,
    raw_score: score,
    breakdown,
    confidence,
    confidence_reasons: reasons,
    action,
    // No cell of the rules-v5 table is a strong buy.
    strong: false,
    guardrail_reasons: guardrails,
    structure: structure?.reason ?? null,
    structure_cell: structure?.cell ?? null,
    plan,
    plan_notes: notes,
    checklist: checklist(input),
    risk_warnings: riskWarnings(input),
  };
}

/** The cells where the trend holds a call back from what the stretch alone would say, worded for the report. */
function structureGuardrail(reason: StructureReason, input: RuleInput): TGuardrailReason | null {
  const { indicators: ind, language: l } = input;
  const e = ind.extension_atr;
  if (e == null) return null;
  if (reason === "extended") {
    const x = e.toFixed(1);
    return {
      code: "chasing",
      message: t(
        {
          zh: `现价高于MA10约${x}倍ATR，上涨过度延伸，不追高`,
          en: `Price is ${x} ATR above MA10: stretched, do not chase`,
        },
        l,
      ),
    };
  }
  if (reason === "uptrend_intact" && e > 0) {
    const x = e.toFixed(1);
    return {
      code: "chasing",
      message: t(
        {
          zh: `上升趋势中现价高于MA10约${x}倍ATR，不追高，也不逆势减仓`,
          en: `Price is ${x} ATR above MA10 in an uptrend: do not chase, and no sale against the trend`,
        },
        l,
      ),
    };
  }
  if (reason === "dip_in_downtrend") {
    const x = Math.abs(e).toFixed(1);
    return {
      code: "stretched_down",
      message: t(
        {
          zh: `下跌趋势中已低于MA10约${x}倍ATR，不在低位杀跌，也不逆势买入`,
          en: `Already ${x} ATR under MA10 in a downtrend: neither sell into the low nor buy against the trend`,
        },
        l,
      ),
    };
  }
  return null;
}

// ---- scoring ----

function factor(f: TScoreFactor["factor"], points: number | null, note: string): TScoreFactor {
  return { factor: f, max: FACTOR_WEIGHTS[f], points, note };
}

function scoreFactors(input: RuleInput): TScoreFactor[] {
  const { indicators: ind, language: l } = input;
  const state = ind.trend?.state ?? null;
  const out: TScoreFactor[] = [];
  out.push(
    state === null
      ? factor("trend", null, t({ zh: "K线不足20根，无法计算均线排列", en: "fewer than 20 bars: no MA alignment" }, l))
      : factor("trend", TREND_POINTS[state], state),
  );

  const b = ind.bias.ma5;
  if (b === null) out.push(factor("bias", null, t({ zh: "无MA5", en: "no MA5" }, l)));
  else out.push(factor("bias", biasPoints(b, chaseThreshold(state)), `MA5 ${formatPct(b)}`));

  out.push(volumeFactor(input));

  const p = ind.price;
  const { ma5, ma10, ma20 } = ind.ma;
  if (p === null || ma20 === null) out.push(factor("support", null, t({ zh: "无MA20", en: "no MA20" }, l)));
  else {
    const nearShort = [ma5, ma10].some((m) => m !== null && p >= m && (p - m) / m <= 0.02);
    const points = p < ma20 ? 2 : nearShort ? 10 : (p - ma20) / ma20 <= 0.02 ? 8 : 5;
    out.push(factor("support", points, `MA20 ${formatPrice(ma20)}`));
  }

  const m = ind.macd;
  if (m === null)
    out.push(factor("macd", null, t({ zh: "K线不足34根，无MACD", en: "fewer than 34 bars: no MACD" }, l)));
  else {
    const points =
      m.cross === "golden"
        ? m.dif > 0
          ? 15
          : 12
        : m.cross === "death"
          ? 0
          : m.dif > m.dea
            ? m.dif > 0
              ? 12
              : 8
            : m.dif > 0
              ? 5
              : 2;
    out.push(
      factor(
        "macd",
        points,
        m.cross ? `${m.cross} cross ${m.cross_bars_ago} bars ago` : `DIF ${m.dif.toFixed(3)} DEA ${m.dea.toFixed(3)}`,
      ),
    );
  }

  const r = ind.rsi.rsi12;
  if (r === null)
    out.push(factor("rsi", null, t({ zh: "K线不足13根，无RSI12", en: "fewer than 13 bars: no RSI12" }, l)));
  else
    out.push(
      factor("rsi", r > 80 ? 0 : r > 70 ? 3 : r >= 60 ? 8 : r >= 40 ? 10 : r >= 30 ? 6 : 5, `RSI12 ${r.toFixed(1)}`),
    );
  return out;
}

function biasPoints(bias: number, threshold: number): number {
  if (bias > threshold + 3) return 0;
  if (bias > threshold) return 4;
  if (bias > 2) return 12;
  if (bias >= -3) return 20;
  if (bias >= -5) return 12;
  return 6;
}

function volumeFactor({ indicators: ind, phase, language: l }: RuleInput): TScoreFactor {
  const r = ind.volume.ratio;
  if (r === null) return factor("volume", null, t({ zh: "无成交量数据", en: "no volume data" }, l));
  // Intraday, today's bar holds only part of the day's volume; a bar-based ratio would read as "shrinking".
  if (phase === "intraday" && ind.volume.ratio_source === "bars" && ind.quote_merge !== "none") {
    return factor(
      "volume",
      null,
      t({ zh: "盘中成交量未完结，量比不计分", en: "intraday volume is partial: ratio not scored" }, l),
    );
  }
  const c = ind.change_pct ?? 0;
  let points: number;
  if (r >= 3) points = c >= 0 ? 6 : 0;
  else if (r >= 1.5) points = c >= 0 ? 12 : 3;
  else if (r <= 0.7) points = c <= 0 ? 15 : 9;
  else points = 10;
  return factor("volume", points, `ratio ${r.toFixed(2)}, change ${formatPct(c)}`);
}

function assessConfidence(
  input: RuleInput,
  breakdown: readonly TScoreFactor[],
  score: number | null,
): { confidence: RuleDecision["confidence"]; reasons: string[] } {
  const { indicators: ind, language: l } = input;
  const reasons: string[] = [];
  const missingWeight = breakdown.filter((f) => f.points === null).reduce((s, f) => s + f.max, 0);
  for (const f of breakdown) if (f.points === null) reasons.push(`${f.factor}: ${f.note}`);
  if (ind.ma.ma60 === null)
    reasons.push(
      t({ zh: `历史仅${ind.bars_used}根K线，缺MA60`, en: `only ${ind.bars_used} bars of history: no MA60` }, l),
    );
  if (ind.quote_merge === "ignored_stale")
    reasons.push(
      t({ zh: "实时行情早于最新K线，已忽略", en: "the quote is older than the last bar and was ignored" }, l),
    );
  if (input.isSample) reasons.push(t({ zh: "样本数据，非真实行情", en: "sample data, not real market data" }, l));
  if (ind.regime == null && ind.ma.ma20 !== null)
    reasons.push(
      t({ zh: "不足70个交易日，尚无中期趋势结构", en: "under 70 sessions: no medium-term structure yet" }, l),
    );
  if (score === null || missingWeight > 30 || input.isSample || ind.regime == null)
    return { confidence: "low", reasons };
  if (reasons.length > 0) return { confidence: "medium", reasons };
  return { confidence: "high", reasons };
}

export function levelText(level: TPriceLevel | null, language: TReportLanguage): string | null {
  if (level === null) return null;
  const label = LEVEL_BASIS_LABELS[level.basis as TLevelBasis][language];
  // A swing level names the session it comes from, so a reader can find it on the chart.
  const basis = level.date ? `${label} ${level.date}` : label;
  return language === "zh" ? `${formatPrice(level.price)}（${basis}）` : `${formatPrice(level.price)} (${basis})`;
}

// ---- checklist and risks ----

function item(key: string, status: TChecklistItem["status"], text: string): TChecklistItem {
  return { key, status, text };
}

function checklist({ indicators: ind, language: l, isSample }: RuleInput): TChecklistItem[] {
  const out: TChecklistItem[] = [];
  const state = ind.trend?.state ?? null;
  out.push(
    state === null
      ? item("ma_alignment", "unknown", t({ zh: "均线排列：数据不足", en: "MA alignment: not enough data" }, l))
      : item(
          "ma_alignment",
          ["strong_bullish", "bullish"].includes(state) ? "pass" : BEARISH_ALIGNMENT.includes(state) ? "fail" : "warn",
          `${t({ zh: "均线排列：", en: "MA alignment: " }, l)}${t(TREND_STATE_LABELS[state], l)}`,
        ),
  );
  const b = ind.bias.ma5;
  const limit = chaseThreshold(state);
  out.push(
    b === null
      ? item("bias", "unknown", t({ zh: "乖离率：无MA5", en: "Bias: no MA5" }, l))
      : item(
          "bias",
          b > limit ? "fail" : b > 2 ? "warn" : "pass",
          `${t({ zh: "乖离率(MA5)", en: "Bias vs MA5" }, l)} ${formatPct(b)} · ${t(BIAS_STATUS_LABELS[biasStatus(b, limit)], l)}`,
        ),
  );
  const r = ind.volume.ratio;
  const c = ind.change_pct ?? 0;
  out.push(
    r === null
      ? item("volume", "unknown", t({ zh: "量能：无数据", en: "Volume: no data" }, l))
      : item(
          "volume",
          r >= 1.5 && c < 0 ? "fail" : (r <= 0.7 && c <= 0) || (r >= 1.5 && c >= 0 && r < 3) ? "pass" : "warn",
          `${t({ zh: "量比", en: "Volume ratio" }, l)} ${r.toFixed(2)}`,
        ),
  );
  const m = ind.macd;
  out.push(
    m === null
      ? item("macd", "unknown", t({ zh: "MACD：数据不足", en: "MACD: not enough data" }, l))
      : item(
          "macd",
          m.dif > m.dea ? "pass" : m.cross === "death" || m.dif < 0 ? "fail" : "warn",
          `MACD DIF ${m.dif.toFixed(3)} / DEA ${m.dea.toFixed(3)}${m.cross ? ` · ${t(m.cross === "golden" ? { zh: "金叉", en: "golden cross" } : { zh: "死叉", en: "death cross" }, l)}` : ""}`,
        ),
  );
  const rsi = ind.rsi.rsi12;
  out.push(
    rsi === null
      ? item("rsi", "unknown", t({ zh: "RSI：数据不足", en: "RSI: not enough data" }, l))
      : item("rsi", rsi > 80 ? "fail" : rsi > 70 || rsi < 30 ? "warn" : "pass", `RSI12 ${rsi.toFixed(1)}`),
  );
  const p = ind.price;
  const ma20 = ind.ma.ma20;
  out.push(
    p === null || ma20 === null
      ? item("support", "unknown", t({ zh: "MA20支撑：数据不足", en: "MA20 support: not enough data" }, l))
      : item(
          "support",
          p >= ma20 ? "pass" : "fail",
          t(
            {
              zh: `${p >= ma20 ? "站上" : "跌破"}MA20（${formatPrice(ma20)}）`,
              en: `${p >= ma20 ? "Above" : "Below"} MA20 (${formatPrice(ma20)})`,
            },
            l,
          ),
        ),
  );
  out.push(
    isSample || ind.ma.ma60 === null
      ? item(
          "data_quality",
          "warn",
          t(
            {
              zh: isSample ? "数据：样本数据" : "数据：历史不足60日",
              en: isSample ? "Data: sample data" : "Data: under 60 days of history",
            },
            l,
          ),
        )
      : item("data_quality", "pass", t({ zh: `数据：${ind.bars_used}根K线`, en: `Data: ${ind.bars_used} bars` }, l)),
  );
  return out;
}

export function biasStatus(bias: number, limit: number): keyof typeof BIAS_STATUS_LABELS {
  if (bias > limit) return "chasing";
  if (bias > 2) return "elevated";
  if (bias >= -3) return "near";
  if (bias >= -5) return "below";
  return "deep_below";
}

function riskWarnings({ indicators: ind, language: l, isSample, phase }: RuleInput): string[] {
  const out: string[] = [];
  const state = ind.trend?.state ?? null;
  if (isSample)
    out.push(
      t(
        {
          zh: "本报告基于样本数据生成，不代表真实行情",
          en: "This report is built from sample data, not real market data",
        },
        l,
      ),
    );
  if (ind.bias.ma5 !== null && ind.bias.ma5 > chaseThreshold(state))
    out.push(
      t(
        {
          zh: `乖离率${formatPct(ind.bias.ma5)}，短线追高风险大`,
          en: `Bias ${formatPct(ind.bias.ma5)} above MA5: high short-term chasing risk`,
        },
        l,
      ),
    );
  if (ind.rsi.rsi12 !== null && ind.rsi.rsi12 > 70)
    out.push(
      t({ zh: `RSI12=${ind.rsi.rsi12.toFixed(1)}，超买`, en: `RSI12 ${ind.rsi.rsi12.toFixed(1)}: overbought` }, l),
    );
  if (ind.rsi.rsi12 !== null && ind.rsi.rsi12 < 30)
    out.push(
      t(
        {
          zh: `RSI12=${ind.rsi.rsi12.toFixed(1)}，超卖，下跌动能仍强`,
          en: `RSI12 ${ind.rsi.rsi12.toFixed(1)}: oversold, selling pressure still strong`,
        },
        l,
      ),
    );
  if (state !== null && BEARISH_ALIGNMENT.includes(state))
    out.push(t({ zh: "均线空头排列，趋势向下", en: "Bearish MA alignment: the trend points down" }, l));
  if (ind.macd?.cross === "death") out.push(t({ zh: "MACD近期死叉", en: "Recent MACD death cross" }, l));
  if ((ind.volume.ratio ?? 0) >= 1.5 && (ind.change_pct ?? 0) < 0)
    out.push(t({ zh: "放量下跌，警惕资金出逃", en: "Falling on heavy volume: possible distribution" }, l));
  if (ind.price !== null && ind.ma.ma60 !== null && ind.price < ind.ma.ma60)
    out.push(t({ zh: "股价位于MA60下方，中期趋势偏弱", en: "Price below MA60: weak medium-term trend" }, l));
  if (ind.ma.ma60 === null)
    out.push(
      t(
        {
          zh: `历史数据仅${ind.bars_used}根K线，部分指标缺失`,
          en: `Only ${ind.bars_used} bars of history: some indicators are missing`,
        },
        l,
      ),
    );
  if (ind.quote_merge === "ignored_stale")
    out.push(
      t({ zh: "实时行情过期，结论基于最近收盘数据", en: "The quote is stale: conclusions use the latest close" }, l),
    );
  if (phase === "intraday")
    out.push(
      t(
        {
          zh: "盘中数据未收盘确认，结论可能随收盘变化",
          en: "Intraday data is not final: the close may change the picture",
        },
        l,
      ),
    );
  return out;
}
