import { ensureStockListNameSource } from "./stock-list";
import { searchSymbols } from "./symbols";
import type { TStockSearchResponse } from "./search-schemas";

/** GET /api/v1/stocks/search: ranked matches for the analyze box's autocomplete. */
export async function stockSearch(query: string, limit: number): Promise<TStockSearchResponse> {
  // The refreshed full list (npm run stocks:refresh), when there is one, is preferred over the bundled names.
  await ensureStockListNameSource();
  const items = searchSymbols(query, limit).map((hit) => ({
    kind: hit.kind,
    market: hit.market,
    code: hit.code,
    display_code: hit.displayCode,
    ...(hit.canonicalId ? { canonical_id: hit.canonicalId } : {}),
    ...(hit.name ? { name: hit.name } : {}),
    ...(hit.nameEn ? { name_en: hit.nameEn } : {}),
    match: hit.match,
  }));
  return { query, total: items.length, items };
}
