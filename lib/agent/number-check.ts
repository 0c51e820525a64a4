import type { TAnswerChecks } from "./schemas";

// No invented numbers: every price, percentage and level in an answer must be a value the turn's
// tools returned (or the user wrote), equal at the precision the answer writes it. What counts as a figure:
// - a number with decimals ("1712.50", "3.2"), or a percentage ("3%", "-1.5 %"): prices and changes;
// - an integer of 100 or more ("1700"): a price in many markets.
// Not figures: dates and times, years, integers under 100 (periods such as MA20, days, counts, steps), and digits
// glued to letters (MA60, RSI6, H1). A figure is a key figure when the words just before it name a price, a stop,
// a target or a level: an invented one of those is what hurts a trader, so it triggers one regeneration.

export interface SourceValues {
  /** Tool name (or "user") → every number found in its output. */
  sources: { source: string; values: number[] }[];
}

export interface Figure {
  text: string;
  value: number;
  decimals: number;
  percent: boolean;
  key: boolean;
  index: number;
}

const KEY_WORDS = [
  "价",
  "现价",
  "股价",
  "收盘",
  "开盘",
  "报价",
  "止损",
  "止盈",
  "目标",
  "支撑",
  "压力",
  "阻力",
  "买入",
  "卖出",
  "入场",
  "加仓",
  "减仓",
  "点位",
  "区间",
  "均线",
  "price",
  "close",
  "stop",
  "target",
  "take profit",
  "take-profit",
  "support",
  "resistance",
  "entry",
  "buy",
  "sell",
  "level",
  "at ",
  "ma5",
  "ma10",
  "ma20",
  "ma60",
  "high",
  "low",
  "高点",
  "低点",
  "最高",
  "最低",
];

const FIGURE = /(?<![\w.])([-+−]?)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(\s?[%％])?(?![\w])/g;
// Dates (2026-11-26, 2026/11/26, 2026年11月26日), times (14:30, 14:30:05) and codes with a market suffix (600519.SH).
const NOT_FIGURES = [
  /\d{4}[-/.]\d{1,2}[-/.]\d{1,2}/g,
  /\d{4}年\d{1,2}月(?:\d{1,2}日)?/g,
  /\d{1,2}月\d{1,2}日/g,
  /\d{1,2}:\d{2}(?::\d{2})?/g,
  /\b\d{5,6}\.(?:SH|SZ|BJ|HK|SS)\b/gi,
  /\b(?:sh|sz|bj|hk)\d{5,6}\b/gi,
];

/** The figures an answer states, in order, with whether each is a key figure. */
export function extractFigures(answer: string, codes: ReadonlySet<string> = new Set()): Figure[] {
  let text = answer;
  for (const re of NOT_FIGURES) text = text.replace(re, (m) => " ".repeat(m.length));
  const out: Figure[] = [];
  for (const match of text.matchAll(FIGURE)) {
    const [, sign, digits, pct] = match;
    const raw = digits!.replace(/,/g, "");
    const percent = pct !== undefined;
    const decimals = raw.includes(".") ? raw.split(".")[1]!.length : 0;
    const magnitude = Number(raw);
    if (!Number.isFinite(magnitude)) continue;
    if (!percent && decimals === 0) {
      if (magnitude < 100) continue;
      if (
        magnitude >= 1900 &&
        magnitude <= 2100 &&
        /^(?:年|\s*年|年度|s\b)/.test(text.slice(match.index! + match[0].length, match.index! + match[0].length + 3))
      )
        continue;
      // Codes: the turn's own, A-share shapes (6 digits) and Hong Kong shapes (5 digits from 0).
      if (codes.has(raw) || /^[0-9]\d{5}$/.test(raw) || /^0\d{4}$/.test(raw)) continue;
    }
    const value = (sign === "-" || sign === "−" ? -1 : 1) * magnitude;
    out.push({
      text: match[0].trim(),
      value,
      decimals,
      percent,
      key: !percent && isKeyContext(text, match.index!),
      index: match.index!,
    });
  }
  return out;
}

function isKeyContext(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 24), index).toLowerCase();
  const clause = before.split(/[。；;！!？?\n]/).at(-1) ?? "";
  return KEY_WORDS.some((w) => clause.includes(w));
}

/** Every finite number in a JSON value, numeric strings and numbers inside text included. */
export function numbersIn(value: unknown, out: number[] = []): number[] {
  if (typeof value === "number") {
    if (Number.isFinite(value)) out.push(value);
  } else if (typeof value === "string") {
    for (const m of value.matchAll(/-?\d[\d,]*(?:\.\d+)?/g)) {
      const n = Number(m[0].replace(/,/g, ""));
      if (Number.isFinite(n)) out.push(n);
    }
  } else if (Array.isArray(value)) {
    for (const v of value) numbersIn(v, out);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) numbersIn(v, out);
  }
  return out;
}

/** Equal at the answer's precision: 1712.5 written "1712.50" or "1713" (half a unit of the last digit). */
export function matches(figure: Pick<Figure, "value" | "decimals" | "percent">, value: number): boolean {
  const tolerance = 0.5 * 10 ** -figure.decimals + 1e-9;
  const candidates = figure.percent ? [value, value * 100] : [value];
  return candidates.some((v) => Math.abs(Math.abs(figure.value) - Math.abs(v)) <= tolerance);
}

/** Checks an answer's figures against the values the turn's tools returned and the user's own numbers. */
export function checkAnswer(
  answer: string,
  sources: SourceValues["sources"],
  codes: ReadonlySet<string> = new Set(),
): TAnswerChecks {
  const figures = extractFigures(answer, codes).map((f) => {
    const source = sources.find((s) => s.values.some((v) => matches(f, v)))?.source ?? null;
    return { text: f.text, value: f.value, key: f.key, verified: source !== null, source };
  });
  const unverified = [...new Set(figures.filter((f) => !f.verified).map((f) => f.text))];
  const keyUnverified = figures.some((f) => f.key && !f.verified);
  return {
    status: figures.length === 0 ? "skipped" : unverified.length === 0 ? "ok" : "warning",
    figures,
    unverified,
    key_unverified: keyUnverified,
    regenerated: false,
  };
}

/** The source lists of one turn: each successful tool output, and the user's message (numbers the user wrote). */
export function turnSources(
  outputs: readonly { tool: string; output: unknown }[],
  userText: string,
  context: unknown,
): SourceValues["sources"] {
  const sources = outputs.map((o) => ({ source: o.tool, values: numbersIn(o.output) }));
  sources.push({ source: "user", values: numbersIn(userText) });
  if (context) sources.push({ source: "context", values: numbersIn(context) });
  return sources;
}

/** Codes the turn talked about (tool inputs and outputs), so "600519" is never read as a price. */
export function turnCodes(calls: readonly { input: unknown; output: unknown }[], userText: string): Set<string> {
  const codes = new Set<string>();
  const add = (v: unknown) => {
    if (typeof v === "string") for (const m of v.matchAll(/\b\d{4,6}\b/g)) codes.add(m[0]);
  };
  for (const c of calls) {
    const input = c.input as Record<string, unknown> | null;
    add(input?.code);
    const output = c.output as Record<string, unknown> | null;
    add(output?.code);
  }
  for (const m of userText.matchAll(/\b\d{5,6}\b/g)) codes.add(m[0]);
  return codes;
}
