import type { AnalysisHistory } from "@/generated/prisma/client";
import { activeNameSources, getIndexEntry, ZMarket } from "@/lib/market/symbols";

type NameRow = Pick<AnalysisHistory, "stockName" | "stockCode" | "market" | "assetType" | "reportLanguage">;

/**
 * Spec 2.6 rule 4: the report language drives the stock name. Records keep the Chinese name where one
 * exists; an English record shows the English name from the index registry or the name list, falling back
 * to the stored name.
 */
export function localizedStockName(row: NameRow): string | null {
  if (row.reportLanguage !== "en") return row.stockName;
  if (row.assetType === "index") return getIndexEntry(row.stockCode)?.nameEn ?? row.stockName;
  const market = ZMarket.safeParse(row.market);
  if (row.assetType !== "stock" || !market.success) return row.stockName;
  for (const source of activeNameSources()) {
    const entry = source.findByCode(market.data, row.stockCode);
    if (entry) return entry.nameEn ?? row.stockName;
  }
  return row.stockName;
}
