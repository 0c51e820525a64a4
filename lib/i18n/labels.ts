// UI labels by code: actions, markets, report types, trend and sentiment words shown by the UI come
// from the UI dictionary, looked up by the code a record stores, never from the record's own label text (which is
// in the report's language). The report body keeps its own language.

/** The dictionary's label of a code; a code the map does not know shows as the code itself (or the fallback). */
export function codeLabel(
  map: Readonly<Record<string, string>>,
  code: string | null | undefined,
  fallback = "—",
): string {
  if (code === null || code === undefined || code === "") return fallback;
  return Object.hasOwn(map, code) ? map[code]! : code;
}

export const SENTIMENT_BANDS = ["very_bullish", "bullish", "neutral", "bearish", "very_bearish"] as const;
export type SentimentBand = (typeof SENTIMENT_BANDS)[number];

/** The sentiment band of a 0–100 score at 80/60/40/20 (docs/api.md §7, as lib/analysis/engine/action.ts); no score, no band. */
export function sentimentBand(score: number | null | undefined): SentimentBand | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  if (score >= 80) return "very_bullish";
  if (score >= 60) return "bullish";
  if (score >= 40) return "neutral";
  if (score >= 20) return "bearish";
  return "very_bearish";
}
