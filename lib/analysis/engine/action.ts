import { DECISION_ACTIONS, type TDecisionAction, type TGuardrailReason, type TReportLanguage } from "./schemas";
import type { Localized } from "./language";

// Decision-action classification (spec 2.6 rule 1, docs/api.md §7). Order: an explicit value or alias;
// else the advice text — deferred advice ("wait to buy") first, then negations ("不建议加仓", "do not
// sell"), then the remaining keywords, which must name exactly one action (ambiguous → null). Last, when
// the text's direction disagrees with the score band and no guardrail reason explains why, the band wins (a
// guardrail explains only a more cautious, neutral action).

export const ACTION_LABELS: Record<TDecisionAction, Localized> = {
  buy: { zh: "买入", en: "Buy" },
  add: { zh: "加仓", en: "Add" },
  hold: { zh: "持有", en: "Hold" },
  reduce: { zh: "减仓", en: "Reduce" },
  sell: { zh: "卖出", en: "Sell" },
  watch: { zh: "观望", en: "Watch" },
  avoid: { zh: "回避", en: "Avoid" },
  alert: { zh: "预警", en: "Alert" },
};

export function actionLabel(action: TDecisionAction | null, language: TReportLanguage): string | null {
  return action === null ? null : ACTION_LABELS[action][language];
}

// Explicit values (an LLM's decision field, a stored value): the taxonomy, its docs/api.md §7 aliases and
// the Chinese labels.
const VALUE_ALIASES: Record<string, TDecisionAction> = {
  "strong buy": "buy",
  strong_buy: "buy",
  accumulate: "add",
  trim: "reduce",
  "strong sell": "sell",
  strong_sell: "sell",
  wait: "watch",
  强烈买入: "buy",
  强烈卖出: "sell",
};
for (const a of DECISION_ACTIONS) {
  VALUE_ALIASES[a] = a;
  VALUE_ALIASES[ACTION_LABELS[a].zh] = a;
}

export function normalizeActionValue(value: unknown): TDecisionAction | null {
  if (typeof value !== "string") return null;
  return (
    VALUE_ALIASES[
      value
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, " ")
    ] ??
    VALUE_ALIASES[value.trim().toLowerCase()] ??
    null
  );
}

// Keywords in advice text. English entries are regex stems matched on word boundaries with inflections.
const ZH_KEYWORDS: Record<TDecisionAction, string[]> = {
  buy: ["强烈买入", "买入", "买进", "建仓", "低吸"],
  add: ["加仓", "增持", "补仓"],
  hold: ["持有", "持股", "拿住"],
  reduce: ["减仓", "减持", "降低仓位"],
  sell: ["强烈卖出", "卖出", "清仓", "离场"],
  watch: ["观望", "持币", "等待"],
  avoid: ["回避", "规避", "远离"],
  alert: ["预警", "警惕"],
};

const EN_KEYWORDS: Record<TDecisionAction, string[]> = {
  buy: ["strong buy", "buy(?:s|ing)?", "go(?:es|ing)? long"],
  add: [
    "accumulat(?:e|es|ed|ing)",
    "add(?:s|ed|ing)?(?: to (?:the |your )?position)?",
    "increas(?:e|es|ing) (?:the |your )?position",
  ],
  hold: ["hold(?:s|ing)?", "keep(?:s|ing)? (?:the |your )?position"],
  reduce: ["reduc(?:e|es|ed|ing)", "trim(?:s|med|ming)?", "lighten(?:s|ed|ing)?"],
  sell: ["strong sell", "sell(?:s|ing)?", "exit(?:s|ed|ing)?"],
  watch: ["watch(?:es|ing)?", "wait(?:s|ed|ing)?", "(?:on|to) the sidelines"],
  avoid: ["avoid(?:s|ed|ing)?", "stay(?:s|ing)? away"],
  alert: ["alert(?:s)?"],
};

// Negated advice: "don't buy" means avoid; "don't add/sell/reduce" means keep what you have (hold).
// Negating hold/watch/avoid/alert names no action of its own. "avoid buying" reads as a negation too.
const NEGATED: Partial<Record<TDecisionAction, TDecisionAction>> = {
  buy: "avoid",
  add: "hold",
  sell: "hold",
  reduce: "hold",
};

const ZH_NEGATION = "(?:不建议|不宜|不要|不可|不必|切勿|无需|暂不|别|勿|不)(?:再|继续|盲目|急于|轻易|过早|立即|马上)?";
const EN_NEGATION =
  "\\b(?:do not|don't|dont|does not|doesn't|never|not|no need to|no longer|avoid)\\s+(?:(?:recommended|advised|advisable|wise)\\s+to\\s+)?(?:yet\\s+|rush to\\s+|blindly\\s+)?";

interface Pattern {
  action: TDecisionAction;
  regex: RegExp;
}

function buildPatterns(): { negated: Pattern[]; keywords: Pattern[]; deferred: RegExp[] } {
  const negated: Pattern[] = [];
  const keywords: { action: TDecisionAction; source: string; length: number; en: boolean }[] = [];
  for (const action of DECISION_ACTIONS) {
    for (const k of ZH_KEYWORDS[action]) {
      keywords.push({ action, source: k, length: k.length, en: false });
      negated.push({ action, regex: new RegExp(`${ZH_NEGATION}${k}`, "g") });
    }
    for (const k of EN_KEYWORDS[action]) {
      keywords.push({ action, source: `\\b${k}\\b`, length: k.length, en: true });
      negated.push({ action, regex: new RegExp(`${EN_NEGATION}(?:${k})\\b`, "g") });
    }
  }
  // Longest first, so "strong buy" and "强烈买入" are consumed before "buy" and "买入".
  keywords.sort((a, b) => b.length - a.length);
  return {
    negated,
    keywords: keywords.map((k) => ({ action: k.action, regex: new RegExp(k.source, "g") })),
    deferred: [
      /(?:等待|等|待)[^，。；,;.!！]{0,12}?(?:再|后|时)?(?:买入|买进|加仓|建仓|低吸)/g,
      /\bwait\b[^,.;!]{0,40}?\b(?:buy|buying|add|adding|enter|entering|accumulat\w*)\b/g,
    ],
  };
}

const PATTERNS = buildPatterns();

/** The one action an advice text names, or null when it names none or several. */
export function classifyAdviceText(text: string | null | undefined): TDecisionAction | null {
  if (!text) return null;
  let rest = text.toLowerCase();
  const found = new Set<TDecisionAction>();
  for (const re of PATTERNS.deferred) {
    rest = rest.replace(re, () => {
      // A deferred entry is advice to wait: docs/api.md §7 "wait → watch".
      found.add("watch");
      return " ";
    });
  }
  for (const p of PATTERNS.negated) {
    rest = rest.replace(p.regex, () => {
      const mapped = NEGATED[p.action];
      if (mapped) found.add(mapped);
      return " ";
    });
  }
  for (const p of PATTERNS.keywords) {
    rest = rest.replace(p.regex, () => {
      found.add(p.action);
      return " ";
    });
  }
  return found.size === 1 ? [...found][0]! : null;
}

export type TScoreBand = "strong_buy" | "buy" | "watch" | "reduce" | "sell";

/** docs/api.md §7 bands (decision-scale-v1): 80–100 strong buy, 60–79 buy, 40–59 watch, 20–39 reduce, 0–19 sell. */
export function scoreBand(score: number | null): TScoreBand | null {
  if (score === null || !Number.isFinite(score)) return null;
  if (score >= 80) return "strong_buy";
  if (score >= 60) return "buy";
  if (score >= 40) return "watch";
  if (score >= 20) return "reduce";
  return "sell";
}

export function bandAction(band: TScoreBand): TDecisionAction {
  return band === "strong_buy" ? "buy" : band;
}

// Direction of an action: only a change of direction is a conflict (hold vs watch is not; buy vs reduce is).
const DIRECTION: Record<TDecisionAction, -1 | 0 | 1> = {
  buy: 1,
  add: 1,
  hold: 0,
  watch: 0,
  alert: 0,
  reduce: -1,
  sell: -1,
  avoid: -1,
};

export interface DecisionActionInput {
  value?: unknown; // an explicit decision value (LLM field), tried first
  advice?: string | null;
  score: number | null;
  guardrailReasons?: readonly TGuardrailReason[];
  reportType?: string;
}

export interface DecisionActionResult {
  action: TDecisionAction | null;
  source: "value" | "text" | "score_band" | "none";
  text_action: TDecisionAction | null;
  band: TScoreBand | null;
  overridden: boolean;
}

export function classifyDecisionAction(input: DecisionActionInput): DecisionActionResult {
  const band = scoreBand(input.score);
  // docs/api.md §7: market reviews have no action.
  if (input.reportType === "market_review")
    return { action: null, source: "none", text_action: null, band, overridden: false };
  const fromValue = normalizeActionValue(input.value);
  const textAction = fromValue ?? classifyAdviceText(input.advice);
  if (textAction === null) return { action: null, source: "none", text_action: null, band, overridden: false };
  const source = fromValue ? "value" : "text";
  // A guardrail (reference: buy→hold near resistance, sell→hold near support) only ever makes a call more cautious,
  // so a recorded one explains a neutral action against a directional band, never a direction the band lacks.
  const guarded = (input.guardrailReasons?.length ?? 0) > 0 && DIRECTION[textAction] === 0;
  if (band !== null && !guarded && DIRECTION[textAction] !== DIRECTION[bandAction(band)]) {
    return { action: bandAction(band), source: "score_band", text_action: textAction, band, overridden: true };
  }
  return { action: textAction, source, text_action: textAction, band, overridden: false };
}

const SENTIMENT_LABELS: { min: number; label: Localized }[] = [
  { min: 80, label: { zh: "极度乐观", en: "Very bullish" } },
  { min: 60, label: { zh: "乐观", en: "Bullish" } },
  { min: 40, label: { zh: "中性", en: "Neutral" } },
  { min: 20, label: { zh: "悲观", en: "Bearish" } },
  { min: 0, label: { zh: "极度悲观", en: "Very bearish" } },
];

/** Sentiment label at 80/60/40/20 (docs/api.md §7); no score, no label. */
export function sentimentLabel(score: number | null, language: TReportLanguage): string | null {
  if (score === null || !Number.isFinite(score)) return null;
  const hit = SENTIMENT_LABELS.find((s) => score >= s.min) ?? SENTIMENT_LABELS.at(-1)!;
  return hit.label[language];
}
