import type { TDailyBar, TQuote } from "@/lib/market";
import { now } from "@/lib/clock";
import { marketDate } from "@/lib/market/market-time";
import type { TMarket } from "@/lib/market/symbols";
import { actionLabel, classifyDecisionAction, sentimentLabel } from "./action";
import { computeIndicators } from "./indicators";
import {
  CONFIDENCE_LABELS,
  formatPct,
  formatPrice,
  normalizeReportLanguage,
  PHASE_LABELS,
  SAMPLE_DATA_NOTICE,
  REGIME_LABELS,
  TREND_STATE_LABELS,
  VOLUME_STATUS_LABELS,
  BIAS_STATUS_LABELS,
  type Localized,
} from "./language";
import { resolveMarketPhase } from "./phase";
import { biasStatus, chaseThreshold, decideByRules, levelText, type RuleDecision } from "./rules";
import {
  ZRuleReport,
  type TDashboard,
  type TDecisionAction,
  type TIndicators,
  type TMarketPhase,
  type TMarketPhaseSummary,
  type TPriceLevel,
  type TReportLanguage,
  type TReportType,
  type TRequestedPhase,
  type TRuleReport,
} from "./schemas";

// The rule-based report (spec 2.6): summary, strategy, the decision dashboard, the
// indicators and guardrail reasons, localised zh/en.
//
// Depth by report_type (summary, strategy, indicators and guardrail_reasons are always complete — they
// feed history lists, signals and the LLM check):
//   brief, simple   → dashboard.core_conclusion + battle_plan.sniper_points only
//   detailed, full  → everything: data perspective with indicator values and the score breakdown,
//                     position strategy, checklist, phase decision, risk warnings

export interface RuleReportTarget {
  kind: "stock" | "index";
  market: TMarket;
  code: string;
  displayCode?: string;
  name?: string;
  nameEn?: string;
}

export interface RuleReportInput {
  target: RuleReportTarget;
  bars: readonly TDailyBar[];
  quote?: TQuote | null;
  /** The request's analysis_phase, or an already resolved summary (the pipeline may share one). */
  phase?: TRequestedPhase | TMarketPhaseSummary;
  language?: unknown;
  reportType?: TReportType;
  /** The provider that served the data; "sample" labels the report as sample data. */
  dataSource: string;
  at?: Date;
  /**
   * The last bar's date when the bars end before the last closed session (data quality `stale_bars`): the report then
   * speaks of that date, never of today or the next session.
   */
  staleSince?: string | null;
}

const t = (text: Localized, language: TReportLanguage) => text[language];

export function buildRuleReport(input: RuleReportInput): TRuleReport {
  const language = normalizeReportLanguage(input.language);
  const reportType = input.reportType ?? "detailed";
  const phaseSummary =
    typeof input.phase === "object"
      ? input.phase
      : resolveMarketPhase({ market: input.target.market, requested: input.phase ?? "auto", at: input.at });
  const phase = phaseSummary.phase;
  const isSample =
    input.dataSource === "sample" || input.quote?.source === "sample" || input.bars.some((b) => b.source === "sample");
  const indicators = computeIndicators({ bars: input.bars, quote: input.quote, market: input.target.market });
  const market = input.target.market;
  const decision = decideByRules({ indicators, market, phase, language, isSample });

  const stale = Boolean(input.staleSince);
  const advice = operationAdvice(decision, indicators, phase, language, stale);
  const classified = classifyDecisionAction({
    advice,
    score: decision.score,
    guardrailReasons: decision.guardrail_reasons,
  });
  const action: TDecisionAction | null = classified.action;
  const summary = {
    analysis_summary: analysisSummary(
      input.target,
      indicators,
      decision,
      action,
      language,
      isSample,
      marketDate(market, input.at ?? now()),
      phase,
    ),
    operation_advice: advice,
    action,
    action_label: actionLabel(action, language),
    trend_prediction: t(REGIME_LABELS[indicators.regime ?? "unknown"], language),
    sentiment_score: decision.score,
    sentiment_label: sentimentLabel(decision.score, language),
  };
  const strategy = {
    ideal_buy: levelText(decision.plan.ideal_buy, language),
    secondary_buy: levelText(decision.plan.secondary_buy, language),
    stop_loss: levelText(decision.plan.stop_loss, language),
    take_profit: levelText(decision.plan.take_profit, language),
  };
  const full = reportType === "detailed" || reportType === "full";
  const dashboard = buildDashboard({
    decision,
    indicators,
    phaseSummary,
    action,
    language,
    full,
    isSample,
    oneSentence: summary.analysis_summary,
    staleSince: input.staleSince ?? null,
  });
  return ZRuleReport.parse({
    report_language: language,
    report_type: reportType,
    data_source: input.dataSource,
    is_sample_data: isSample,
    summary,
    strategy,
    dashboard,
    indicators,
    market_phase_summary: phaseSummary,
    guardrail_reasons: decision.guardrail_reasons,
    score_breakdown: decision.breakdown,
    structure: decision.structure_cell,
  });
}

const WHEN_STALE: Localized = { zh: "数据更新后", en: "once the data are current" };

const WHEN: Record<TMarketPhase, Localized> = {
  premarket: { zh: "开盘后", en: "after the open" },
  intraday: { zh: "盘中", en: "during the session" },
  postmarket: { zh: "下一交易日", en: "next session" },
  non_trading: { zh: "下一交易日", en: "next session" },
};

/** A level with its price; without one, the nearest support it stands in for, so a stop always has a number. */
function level(l: TPriceLevel | null, language: TReportLanguage, nearest: TPriceLevel | null = null): string {
  return levelText(l ?? nearest, language) ?? t({ zh: "关键支撑", en: "key support" }, language);
}

/**
 * One action per advice text, phrased so the classifier of spec 2.6 rule 1 reads back the same action
 * (tested): the label first, then the reason and the level to act at.
 */
function operationAdvice(
  d: RuleDecision,
  ind: TIndicators,
  phase: TMarketPhase,
  l: TReportLanguage,
  stale: boolean,
): string {
  const when = t(stale ? WHEN_STALE : WHEN[phase], l);
  const p = d.plan;
  // A long call's entry; a watch call's level above, past which the reading turns stronger.
  const upper = level(p.ideal_buy, l);
  const stop = level(p.stop_loss, l, ind.support[0] ?? null);
  const stretch = ind.extension_atr == null ? "" : Math.abs(ind.extension_atr).toFixed(1);
  const text: Localized = (() => {
    switch (d.structure) {
      case "pullback_in_uptrend":
        return {
          zh: `买入：上升趋势中的回踩，${when}在${upper}附近分批介入，止损${stop}`,
          en: `Buy: a pullback within an uptrend; ${when}, scale in near ${upper} with a stop at ${stop}`,
        };
      case "dip_in_range":
        return {
          zh: `买入：区间内回落到短期均线下方，${when}在${upper}附近分批介入，止损${stop}`,
          en: `Buy: a dip under the 2-week mean within a range; ${when}, scale in near ${upper} with a stop at ${stop}`,
        };
      case "dip_in_downtrend":
        return {
          zh: `持有：下跌趋势中已低于MA10约${stretch}倍ATR，不在低位杀跌；已有仓位继续持有，止损${stop}，趋势向下不新开仓`,
          en: `Hold: ${stretch} ATR under MA10 within a downtrend; keep what you have with a stop at ${stop}, no sale into the low and no new position against the trend`,
        };
      case "uptrend_intact":
        return {
          zh: `观望：上升趋势完好，但价格不在短期均线下方，不追高；等回踩MA10附近，跌破${stop}转弱`,
          en: `Watch: the uptrend is intact but the price is not under its 2-week mean; wait for a pullback toward MA10, weaker below ${stop}`,
        };
      case "downtrend_at_mean":
        return {
          zh: `观望：下跌趋势中价格回到短期均线附近，不杀跌也不抄底；跌破${stop}转弱，突破${upper}转强`,
          en: `Watch: a downtrend with the price back at its 2-week mean: no sale and no purchase; weaker below ${stop}, stronger above ${upper}`,
        };
      case "rally_in_range":
        return {
          zh: `减仓：区间内价格已升到短期均线上方，${when}逢高减仓，站上${stop}则判断失效`,
          en: `Reduce: the price has run above its 2-week mean within a range; trim ${when} into strength, the call is wrong above ${stop}`,
        };
      case "rally_in_downtrend":
        return {
          zh: `减仓：下跌趋势中的反弹，${when}逢高减仓，站上${stop}则判断失效`,
          en: `Reduce: a rally within a downtrend; trim ${when} into strength, the call is wrong above ${stop}`,
        };
      case "extended":
        return {
          zh: `减仓：价格高于MA10约${stretch}倍ATR，短线过度延伸，${when}逢高减仓，站上${stop}则判断失效`,
          en: `Reduce: the price is ${stretch} ATR above MA10, stretched; trim ${when} into strength, the call is wrong above ${stop}`,
        };
      case "extended_rally_in_downtrend":
        return {
          zh: `卖出：下跌趋势中的反弹已过度延伸，${when}离场，站上${stop}则判断失效`,
          en: `Sell: a rally within a downtrend that has run too far; exit ${when}, the call is wrong above ${stop}`,
        };
      case "a_share_dip_in_downtrend":
        return {
          zh: `买入：A股中期下跌后已低于短期均线，短期反转较常见，${when}在${upper}附近分批介入，止损${stop}`,
          en: `Buy: an A-share that has fallen for months and stands under its 2-week mean, where reversals are common; ${when}, scale in near ${upper} with a stop at ${stop}`,
        };
      case "a_share_downtrend_at_mean":
        return {
          zh: `持有：A股中期下跌后价格回到短期均线附近；已有仓位继续持有，止损${stop}`,
          en: `Hold: an A-share that has fallen for months, back at its 2-week mean; keep what you have with a stop at ${stop}`,
        };
      case "a_share_rally_in_downtrend":
        return {
          zh: `观望：A股中期下跌中的反弹，中期与短期读数相反；跌破${stop}转弱，突破${upper}转强`,
          en: `Watch: a rally within an A-share downtrend, where the two readings disagree; weaker below ${stop}, stronger above ${upper}`,
        };
      case "a_share_dip_in_uptrend":
        return {
          zh: `观望：A股中期上涨中的回踩，A股数月的涨幅常有回吐，此处不介入；跌破${stop}转弱，突破${upper}转强`,
          en: `Watch: a pullback within an A-share uptrend; A-share rises over months tend to give back, so no entry here; weaker below ${stop}, stronger above ${upper}`,
        };
      case "a_share_uptrend_at_mean":
        return {
          zh: `观望：A股中期上涨，价格在短期均线附近；跌破${stop}转弱，突破${upper}转强`,
          en: `Watch: an A-share uptrend with the price at its 2-week mean; weaker below ${stop}, stronger above ${upper}`,
        };
      case "a_share_rally_in_uptrend":
        return {
          zh: `减仓：A股中期上涨后价格又升到短期均线上方，${when}逢高减仓，站上${stop}则判断失效`,
          en: `Reduce: an A-share that has risen for months and runs above its 2-week mean; trim ${when} into strength, the call is wrong above ${stop}`,
        };
      case "no_structure":
        return {
          zh: "观望：历史不足70个交易日，尚无中期趋势结构",
          en: "Watch: under 70 sessions of history, no medium-term structure yet",
        };
      case "range":
        return {
          zh: `观望：区间震荡，价格在短期均线附近；突破${upper}或跌破${stop}再行动`,
          en: `Watch: a range with the price at its 2-week mean; act on a break above ${upper} or below ${stop}`,
        };
      case null:
        return { zh: "观望：数据不足，暂无可靠信号", en: "Watch: not enough data for a reliable signal" };
    }
  })();
  return t(text, l);
}

// A quote that adds today's candle, named by the session's phase: "intraday" only while the market trades.
const APPENDED_QUOTE: Record<TMarketPhase, Localized> = {
  intraday: { zh: "（盘中实时价，今日K线由行情快照合成）", en: " (intraday quote; today's candle is built from it)" },
  premarket: {
    zh: "（开盘前的最新报价，今日K线由行情快照合成）",
    en: " (pre-open quote; today's candle is built from it)",
  },
  postmarket: {
    zh: "（今日收盘后的行情快照，今日K线由它合成）",
    en: " (after-close quote; today's candle is built from it)",
  },
  non_trading: {
    zh: "（休市中的最新报价，K线由行情快照合成）",
    en: " (latest quote while closed; a candle is built from it)",
  },
};

/** Which moment the price belongs to, said next to it: a quote is live only on its own session's day. */
function asOfText(ind: TIndicators, l: TReportLanguage, today: string, phase: TMarketPhase): string {
  const date = ind.last_bar_date ?? "";
  if (ind.quote_merge === "appended") return t(APPENDED_QUOTE[phase], l);
  if (ind.quote_merge === "replaced" && date === today)
    return t({ zh: `（${date}实时行情）`, en: ` (as of ${date}, quote)` }, l);
  return t({ zh: `（截至${date}收盘）`, en: ` (as of ${date} close)` }, l);
}

function analysisSummary(
  target: RuleReportTarget,
  ind: TIndicators,
  d: RuleDecision,
  action: TDecisionAction | null,
  l: TReportLanguage,
  isSample: boolean,
  today: string,
  phase: TMarketPhase,
): string {
  const code = target.displayCode ?? target.code;
  const name = l === "en" ? (target.nameEn ?? target.name) : (target.name ?? target.nameEn);
  const parts: string[] = [];
  if (isSample) parts.push(t(SAMPLE_DATA_NOTICE, l));
  const head = name === undefined ? code : l === "zh" ? `${name}（${code}）` : `${name} (${code})`;
  if (ind.price === null) parts.push(t({ zh: `${head}无行情数据。`, en: `${head}: no market data.` }, l));
  else {
    const change =
      ind.change_pct === null
        ? ""
        : t({ zh: `，涨跌幅${formatPct(ind.change_pct)}`, en: `, ${formatPct(ind.change_pct)} on the day` }, l);
    parts.push(
      t(
        {
          zh: `${head}现价${formatPrice(ind.price)}${asOfText(ind, l, today, phase)}${change}。`,
          en: `${head} at ${formatPrice(ind.price)}${asOfText(ind, l, today, phase)}${change}.`,
        },
        l,
      ),
    );
  }
  const facts: string[] = [];
  if (ind.trend) facts.push(t(TREND_STATE_LABELS[ind.trend.state], l));
  if (ind.macd)
    facts.push(
      ind.macd.cross
        ? `MACD ${t(ind.macd.cross === "golden" ? { zh: "金叉", en: "golden cross" } : { zh: "死叉", en: "death cross" }, l)}`
        : `MACD ${ind.macd.dif > ind.macd.dea ? t({ zh: "多头", en: "positive" }, l) : t({ zh: "空头", en: "negative" }, l)}`,
    );
  if (ind.rsi.rsi12 !== null) facts.push(`RSI12 ${ind.rsi.rsi12.toFixed(1)}`);
  if (ind.volume.ratio !== null)
    facts.push(`${t({ zh: "量比", en: "volume ratio" }, l)} ${ind.volume.ratio.toFixed(2)}`);
  if (facts.length > 0) parts.push(`${facts.join(l === "zh" ? "，" : "; ")}${l === "zh" ? "。" : "."}`);
  const label = actionLabel(action, l) ?? t({ zh: "无明确操作", en: "no clear action" }, l);
  if (d.score === null)
    parts.push(t({ zh: `数据不足，不评分；建议：${label}。`, en: `Not enough data to score; advice: ${label}.` }, l));
  else
    parts.push(
      t(
        {
          zh: `综合评分${d.score}（${sentimentLabel(d.score, l)}），建议：${label}。`,
          en: `Score ${d.score} (${sentimentLabel(d.score, l)}); advice: ${label}.`,
        },
        l,
      ),
    );
  if (d.guardrail_reasons[0]) parts.push(`${d.guardrail_reasons[0].message}${l === "zh" ? "。" : "."}`);
  return parts.join(l === "zh" ? "" : " ");
}

interface DashboardInput {
  decision: RuleDecision;
  indicators: TIndicators;
  phaseSummary: TMarketPhaseSummary;
  staleSince: string | null;
  action: TDecisionAction | null;
  language: TReportLanguage;
  full: boolean;
  isSample: boolean;
  oneSentence: string;
}

const TIME_SENSITIVITY: Record<TMarketPhase, Localized> = {
  premarket: { zh: "今日开盘前有效", en: "Valid for today's session" },
  intraday: { zh: "今日盘中有效", en: "Valid for the rest of today's session" },
  postmarket: { zh: "下一交易日有效", en: "Valid for the next session" },
  non_trading: { zh: "下一交易日有效", en: "Valid for the next session" },
};

const IMMEDIATE: Record<TMarketPhase, Localized> = {
  premarket: {
    zh: "开盘前：集合竞价高开超过3%不追，按计划价位挂单",
    en: "Before the open: do not chase a gap up of more than 3%; place orders at the planned levels",
  },
  intraday: {
    zh: "盘中：按计划价位执行，跌破止损位立即离场",
    en: "Intraday: act at the planned levels; exit at once below the stop",
  },
  postmarket: {
    zh: "盘后：以收盘数据复盘，下一交易日按计划执行",
    en: "After the close: review on closing data; follow the plan next session",
  },
  non_trading: { zh: "休市：下一交易日按计划执行", en: "Market closed: follow the plan next session" },
};

function positionAdvice(
  action: TDecisionAction | null,
  d: RuleDecision,
  ind: TIndicators,
  l: TReportLanguage,
): { no_position: string; has_position: string } {
  const stop = level(d.plan.stop_loss, l, ind.support[0] ?? null);
  switch (action) {
    case "buy":
    case "add":
      return {
        no_position: t(
          {
            zh: `在${level(d.plan.ideal_buy, l)}附近分批建仓，首笔不超过三成`,
            en: `Build a position in steps near ${level(d.plan.ideal_buy, l)}; first step at most 30%`,
          },
          l,
        ),
        has_position: t({ zh: `继续持有，跌破${stop}止损`, en: `Keep holding; stop out below ${stop}` }, l),
      };
    case "reduce":
      return {
        no_position: t({ zh: "空仓不参与", en: "Stay out" }, l),
        has_position: t(
          {
            zh: `逢高减至半仓以下，跌破${stop}清仓`,
            en: `Cut to half or less into strength; exit fully below ${stop}`,
          },
          l,
        ),
      };
    case "sell":
    case "avoid":
      return {
        no_position: t({ zh: "空仓不参与", en: "Stay out" }, l),
        has_position: t({ zh: "逢反弹离场", en: "Exit on a rebound" }, l),
      };
    default:
      return {
        no_position: t({ zh: "空仓等待信号", en: "Stay in cash until a signal" }, l),
        has_position: t({ zh: `持股观察，跌破${stop}止损`, en: `Hold and watch; stop out below ${stop}` }, l),
      };
  }
}

function buildDashboard(x: DashboardInput): TDashboard {
  const { decision: d, indicators: ind, language: l, phaseSummary } = x;
  const phase = phaseSummary.phase;
  const point = (p: TPriceLevel | null) =>
    p === null ? null : { price: p.price, basis: p.basis, text: levelText(p, l)! };
  const sniper = {
    ideal_buy: point(d.plan.ideal_buy),
    secondary_buy: point(d.plan.secondary_buy),
    stop_loss: point(d.plan.stop_loss),
    take_profit: point(d.plan.take_profit),
  };
  const core = {
    one_sentence: x.oneSentence,
    signal_type: x.action,
    confidence: d.confidence,
    confidence_reasons: d.confidence_reasons,
    time_sensitivity: x.staleSince
      ? t(
          {
            zh: `数据截至${x.staleSince}：不适用于当前交易日`,
            en: `Data end ${x.staleSince}: not valid for the current session`,
          },
          l,
        )
      : t(TIME_SENSITIVITY[phase], l),
    position_advice: positionAdvice(x.action, d, x.indicators, l),
  };
  if (!x.full) {
    return {
      depth: "brief",
      core_conclusion: core,
      data_perspective: null,
      battle_plan: { sniper_points: sniper, position_strategy: null, action_checklist: null },
      phase_decision: null,
      risk_warnings: null,
    };
  }
  const state = ind.trend?.state ?? null;
  const ratio = ind.volume.ratio;
  const volumeStatus = ratio === null ? null : ratio >= 1.5 ? "heavy" : ratio <= 0.7 ? "shrinking" : "normal";
  const trendFactor = d.breakdown.find((f) => f.factor === "trend");
  return {
    depth: "full",
    core_conclusion: core,
    data_perspective: {
      trend_status: {
        ma_alignment: state === null ? t(REGIME_LABELS.unknown, l) : t(TREND_STATE_LABELS[state], l),
        is_bullish: state === null ? null : state === "bullish" || state === "strong_bullish",
        trend_score: trendFactor?.points ?? null,
      },
      price_position: {
        current_price: ind.price,
        change_pct: ind.change_pct,
        ...ind.ma,
        bias_ma5: ind.bias.ma5,
        bias_ma20: ind.bias.ma20,
        bias_status:
          ind.bias.ma5 === null ? null : t(BIAS_STATUS_LABELS[biasStatus(ind.bias.ma5, chaseThreshold(state))], l),
        support_level: ind.support[0]?.price ?? null,
        resistance_level: ind.resistance[0]?.price ?? null,
      },
      volume_analysis: {
        volume_ratio: ratio,
        volume_status: volumeStatus === null ? null : t(VOLUME_STATUS_LABELS[volumeStatus], l),
        turnover_rate: ind.turnover_rate,
        volume_meaning: volumeMeaning(volumeStatus, ind.change_pct, l),
      },
      momentum: {
        macd:
          ind.macd === null
            ? t({ zh: "数据不足", en: "not enough data" }, l)
            : `DIF ${ind.macd.dif.toFixed(3)} / DEA ${ind.macd.dea.toFixed(3)} / ${t({ zh: "柱", en: "bar" }, l)} ${ind.macd.histogram.toFixed(3)}`,
        rsi: [ind.rsi.rsi6, ind.rsi.rsi12, ind.rsi.rsi24]
          .map((v, i) => `RSI${[6, 12, 24][i]} ${v === null ? "—" : v.toFixed(1)}`)
          .join(" / "),
      },
      score_breakdown: d.breakdown,
    },
    battle_plan: {
      sniper_points: sniper,
      position_strategy: {
        suggested_position: suggestedPosition(x.action, d.strong, l),
        entry_plan: positionAdvice(x.action, d, ind, l).no_position,
        risk_control: d.plan.stop_loss
          ? t(
              {
                zh: `止损${levelText(d.plan.stop_loss, l)}，单笔亏损控制在总资金2%以内`,
                en: `Stop at ${levelText(d.plan.stop_loss, l)}; risk at most 2% of capital per trade`,
              },
              l,
            )
          : t({ zh: "无可靠止损位，轻仓或不参与", en: "No reliable stop level: keep it small or stay out" }, l),
      },
      action_checklist: d.checklist,
    },
    // Advice for this session's phase is meaningless on bars that ended sessions ago.
    phase_decision: x.staleSince
      ? null
      : {
          phase,
          phase_label: t(PHASE_LABELS[phase], l),
          immediate_action: t(IMMEDIATE[phase], l),
          data_limitations: [
            ...d.confidence_reasons,
            ...d.plan_notes,
            `${t({ zh: "置信度", en: "Confidence" }, l)}: ${t(CONFIDENCE_LABELS[d.confidence], l)}`,
          ],
        },
    risk_warnings: d.risk_warnings,
  };
}

/** The size the call asks for, in the same words as its entry plan: a stay-out call never names a size to buy. */
function suggestedPosition(action: TDecisionAction | null, strong: boolean, l: TReportLanguage): string {
  if (action === "buy" || action === "add")
    return strong ? t({ zh: "五成", en: "50%" }, l) : t({ zh: "三成", en: "30%" }, l);
  if (action === "hold") return t({ zh: "维持现有仓位，不新开仓", en: "keep the current size; no new position" }, l);
  if (action === "reduce") return t({ zh: "减至半仓以下", en: "half or less" }, l);
  return t({ zh: "新资金不入场", en: "no new money in" }, l);
}

function volumeMeaning(
  status: "heavy" | "normal" | "shrinking" | null,
  change: number | null,
  l: TReportLanguage,
): string {
  const c = change ?? 0;
  if (status === null) return t({ zh: "无量能数据", en: "no volume data" }, l);
  if (status === "heavy")
    return c >= 0
      ? t({ zh: "放量上涨，资金积极", en: "rising on heavy volume: active buying" }, l)
      : t({ zh: "放量下跌，抛压较重", en: "falling on heavy volume: heavy selling" }, l);
  if (status === "shrinking")
    return c <= 0
      ? t({ zh: "缩量回调，抛压减轻", en: "light-volume pullback: selling is drying up" }, l)
      : t({ zh: "缩量上涨，追涨意愿不足", en: "rising on light volume: little conviction" }, l);
  return t({ zh: "量能平稳", en: "volume in line with the recent average" }, l);
}
