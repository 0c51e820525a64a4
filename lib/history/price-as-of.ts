import type { TAnalysisReport } from "./schemas";
import { at, strAt } from "./stored-json";

// Where a report's price comes from and which moment it belongs to, read from what the report stored: the
// Markdown, the notifications and the digest say it next to the price ("1485.30 · csv · 2026-02-13 close").

export interface PriceAsOf {
  source: string;
  date: string;
  /** A quote from today's session; anything else is a close. */
  live: boolean;
}

/** The price's source and date, or null when the report stored neither (records older than the as-of block). */
export function priceAsOf(report: TAnalysisReport, recordSource: string | null = null): PriceAsOf | null {
  const snapshot = report.details.context_snapshot;
  const date = strAt(snapshot, "as_of", "date");
  const basis = strAt(snapshot, "as_of", "basis");
  const liveFlag = at(snapshot, "as_of", "live");
  const source =
    (basis === "quote" ? strAt(snapshot, "quote", "source") : null) ??
    report.details.data_quality?.source ??
    recordSource ??
    strAt(snapshot, "data_source");
  if (!date || !source) return null;
  return { source, date, live: typeof liveFlag === "boolean" ? liveFlag : basis === "quote" };
}

const MOMENT = { zh: { live: "实时", close: "收盘" }, en: { live: "live", close: "close" } } as const;

/** " · csv · 2026-02-13 close", to follow a price; empty when the report stored no source or date. */
export function priceAsOfSuffix(asOf: PriceAsOf | null, language: "zh" | "en"): string {
  if (!asOf) return "";
  return ` · ${asOf.source} · ${asOf.date} ${asOf.live ? MOMENT[language].live : MOMENT[language].close}`;
}
