import { fmt } from "@/components/settings/format";
import type { Dictionary } from "@/lib/i18n/dictionaries/types";
import { codeLabel } from "@/lib/i18n/labels";

// Display helpers of the Data page (server components only; no zod here, the schemas are imported as types).

export type DataTexts = Dictionary["dataSourcesUi"];

export const TH = "px-2 py-1.5 text-left text-xs font-medium whitespace-nowrap text-muted";
export const TD = "px-2 py-1.5 align-top";

/** A market (cn, hk, us, fx) in the UI language; a market this UI does not know shows as sent. */
export function marketLabel(t: DataTexts, market: string): string {
  return codeLabel(t.markets, market);
}

export function datasetLabel(t: DataTexts, dataset: string): string {
  return codeLabel(t.datasets, dataset);
}

/** The dictionary's text of a code, else the server's own text (a provider this UI does not know yet). */
export function textOr(map: Readonly<Record<string, string>>, code: string, fallback: string): string {
  return Object.hasOwn(map, code) ? map[code]! : fallback;
}

/** A list of codes in the UI language ("A股、港股" / "A-shares, Hong Kong"), or "—" when empty. */
export function labelList(codes: readonly string[], label: (code: string) => string, separator: string): string {
  return codes.length === 0 ? "—" : codes.map(label).join(separator);
}

/** The configured sources in the order they are asked, as MARKET_DATA_SOURCES names them. */
export function routeText(route: readonly string[]): string {
  return route.length === 0 ? "—" : route.join(" → ");
}

/** A warning code split at its first colon: "unknown_source:foo" names the source foo. */
export function parseWarning(raw: string): { code: string; detail: string | null } {
  const at = raw.indexOf(":");
  return at < 0 ? { code: raw, detail: null } : { code: raw.slice(0, at), detail: raw.slice(at + 1) || null };
}

/**
 * A warning in the UI language. The detail fills {name} where the text has one, else follows in brackets; a code
 * this UI does not know shows raw, so a newer server's warning is still seen.
 */
export function warningText(t: DataTexts, raw: string): string {
  const { code, detail } = parseWarning(raw);
  if (code === "unknown_source") {
    return detail === null ? t.unknownSourceUnnamed : fmt(t.warnings.unknown_source, { name: detail });
  }
  if (!Object.hasOwn(t.warnings, code)) return raw;
  const text = t.warnings[code as keyof DataTexts["warnings"]];
  return detail === null ? text : fmt(t.warningDetail, { text, detail });
}
