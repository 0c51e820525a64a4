import type { TMarket } from "@/lib/market/symbols";
import type { TDecisionAction, TIndicators, TStructureCell } from "./schemas";

// rules-v6: the verdict leans against the stretch everywhere, and against the trend in A-shares
// (docs/evaluations/rules-v5.md, rules-v6.md).
//
//   extension e = (price − MA10) / ATR14: where the price stands against its 2-week mean, in the stock's own daily
//   range, so one rule fits a bank and a biotech;
//   regime (indicators.ts regimeOf): up / down / flat from MA20 vs MA60, MA60's slope and the price against MA60.
//
// Short-term reversal, documented for single stocks in every market studied and strongest in A-shares: over days
// to a month a stock gives back part of a move that stretched it from its mean. So the side comes from e: a price
// under its mean is a long call, one over it a short-side call. The 1–3-month regime is not the 3–12-month momentum
// the literature documents, and rules-v4's trend-picked sides were wrong-signed over 10 days in China and the US; it
// keeps one job: a call never leans hard against it (a dip in a downtrend is held, not bought; strength in an
// uptrend is watched, not sold).
//
//                      regime up               flat              down
//   e < −0.5           buy 70 pullback         buy 64 dip        hold 55 (no sale into the low, no buy against the fall)
//   −0.5 … 0.5         watch 54                watch 48          watch 45
//   0.5 … 2            watch 54 (no add)       reduce 36         reduce 30
//   e ≥ 2              reduce 28               reduce 28         sell 15
//
// A-shares (rules-v6): over 1–26 weeks they reverse (Kang, Liu and Ni 2002) and show no momentum (Liu, Stambaugh and
// Yuan 2019), so there the regime changes sides too: a 1–3-month rise is trimmed over its mean, a 1–3-month fall is
// bought under it; where the two effects disagree (a dip in an uptrend, a rally in a downtrend) the call is watch.
//
//   A-shares           regime up               flat              down
//   e < −0.5           watch 50                buy 64 dip        buy 68
//   −0.5 … 0.5         watch 46                watch 48          hold 56
//   0.5 … 2            reduce 34               reduce 36         watch 52
//   e ≥ 2              reduce 28               reduce 28         reduce 28
//
// Scores order the cells by how bullish they are, so the score and the action always tell the same story
// (docs/api.md §7 bands).

/** Half a day's range under the 2-week mean: the price has pulled back. */
const BELOW_MEAN_ATR = -0.5;
/** Half a day's range over it: the price has run ahead of its mean. */
const ABOVE_MEAN_ATR = 0.5;
/** Two days' ranges over the mean is a stretched price: the move is more likely to give back than to run. */
const STRETCHED_ATR = 2;

export type StructureReason =
  | "pullback_in_uptrend"
  | "dip_in_range"
  | "dip_in_downtrend"
  | "uptrend_intact"
  | "range"
  | "downtrend_at_mean"
  | "rally_in_range"
  | "rally_in_downtrend"
  | "extended"
  | "extended_rally_in_downtrend"
  | "a_share_dip_in_uptrend"
  | "a_share_uptrend_at_mean"
  | "a_share_rally_in_uptrend"
  | "a_share_dip_in_downtrend"
  | "a_share_downtrend_at_mean"
  | "a_share_rally_in_downtrend"
  | "no_structure";

export interface StructureDecision {
  action: TDecisionAction;
  score: number;
  reason: StructureReason;
  /** The table cell that decided: which table, the stretch band and the regime; null without a structure. */
  cell: TStructureCell | null;
}

const NODE: Record<StructureReason, { action: TDecisionAction; score: number }> = {
  pullback_in_uptrend: { action: "buy", score: 70 },
  dip_in_range: { action: "buy", score: 64 },
  dip_in_downtrend: { action: "hold", score: 55 },
  uptrend_intact: { action: "watch", score: 54 },
  range: { action: "watch", score: 48 },
  no_structure: { action: "watch", score: 48 },
  downtrend_at_mean: { action: "watch", score: 45 },
  rally_in_range: { action: "reduce", score: 36 },
  rally_in_downtrend: { action: "reduce", score: 30 },
  extended: { action: "reduce", score: 28 },
  extended_rally_in_downtrend: { action: "sell", score: 15 },
  a_share_dip_in_downtrend: { action: "buy", score: 68 },
  a_share_downtrend_at_mean: { action: "hold", score: 56 },
  a_share_rally_in_downtrend: { action: "watch", score: 52 },
  a_share_dip_in_uptrend: { action: "watch", score: 50 },
  a_share_uptrend_at_mean: { action: "watch", score: 46 },
  a_share_rally_in_uptrend: { action: "reduce", score: 34 },
};

function node(reason: StructureReason, cell: TStructureCell | null = null): StructureDecision {
  return { ...NODE[reason], reason, cell };
}

/** The exchange's daily limit in percent for an A-share code, null where prices move freely (HK, US, indices). */
export function dailyLimitPct(
  market: TMarket,
  code: string | null | undefined,
  kind: "stock" | "index" = "stock",
): number | null {
  if (market !== "cn" || kind !== "stock" || !code) return null;
  // ChiNext (300/301) and STAR (688/689) trade within ±20 %, the Beijing exchange (4xx/8xx/92x) ±30 %, the main boards ±10 %.
  if (/^(30[01]|68[89])/.test(code)) return 20;
  if (/^(4|8|92)/.test(code)) return 30;
  return 10;
}

type Table = Record<TStructureCell["band"], Record<NonNullable<TIndicators["regime"]>, StructureReason>>;

const TABLE: Table = {
  below: { up: "pullback_in_uptrend", flat: "dip_in_range", down: "dip_in_downtrend" },
  at: { up: "uptrend_intact", flat: "range", down: "downtrend_at_mean" },
  above: { up: "uptrend_intact", flat: "rally_in_range", down: "rally_in_downtrend" },
  stretched: { up: "extended", flat: "extended", down: "extended_rally_in_downtrend" },
};

const A_SHARE_TABLE: Table = {
  below: { up: "a_share_dip_in_uptrend", flat: "dip_in_range", down: "a_share_dip_in_downtrend" },
  at: { up: "a_share_uptrend_at_mean", flat: "range", down: "a_share_downtrend_at_mean" },
  above: { up: "a_share_rally_in_uptrend", flat: "rally_in_range", down: "a_share_rally_in_downtrend" },
  stretched: { up: "extended", flat: "extended", down: "extended" },
};

function band(e: number): TStructureCell["band"] {
  if (e < BELOW_MEAN_ATR) return "below";
  if (e <= ABOVE_MEAN_ATR) return "at";
  return e < STRETCHED_ATR ? "above" : "stretched";
}

export function decideStructure(ind: TIndicators, market: TMarket): StructureDecision {
  const e = ind.extension_atr ?? null;
  const regime = ind.regime ?? null;
  if (regime === null || e === null || ind.price === null) return node("no_structure");
  const table = market === "cn" ? "a_share" : "default";
  const cell: TStructureCell = { table, band: band(e), regime, extension_atr: e };
  return node((table === "a_share" ? A_SHARE_TABLE : TABLE)[cell.band][regime], cell);
}
