import type { AnalysisHistory } from "@/generated/prisma/client";
import { displayName, type NameLanguage } from "@/lib/market/symbols";

type NameRow = Pick<AnalysisHistory, "stockName" | "stockCode" | "market" | "assetType" | "reportLanguage">;

/**
 * Spec 2.6 rule 4: the report language drives the stock name the API gives. Records keep the Chinese name where one
 * exists; an English record shows the English name from the symbol tables, falling back to the stored name.
 */
export function localizedStockName(row: NameRow): string | null {
  if (row.reportLanguage !== "en") return row.stockName;
  if (row.assetType !== "stock" && row.assetType !== "index") return row.stockName;
  return displayName({ market: row.market, code: row.stockCode, kind: row.assetType }, "en", row.stockName);
}

/** A list row as the history lists serialise it (its display code; the market when the row has one). */
interface ListRow {
  stock_code: string;
  stock_name: string | null;
  asset_type: "stock" | "index" | null;
  report_type: string;
  region?: string | null;
}

/**
 * The row with its stock named in the UI language, for the pages (the API's stock_name follows the report language).
 * Market reviews and rows of no known kind keep their name.
 */
export function withUiStockName<T extends ListRow>(row: T, language: NameLanguage): T {
  if (row.asset_type !== "stock" && row.asset_type !== "index") return row;
  const target = { market: row.region, code: row.stock_code, kind: row.asset_type };
  return { ...row, stock_name: displayName(target, language, row.stock_name) };
}
