import { z } from "zod";
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from "./symbols";

export const ZStockSearchQuery = z.object({
  q: z.string().trim().min(1).max(64).describe("Code, name (Chinese or English) or pinyin initials, possibly partial"),
  limit: z.coerce.number().int().min(1).max(MAX_SEARCH_LIMIT).default(DEFAULT_SEARCH_LIMIT),
});

export const ZStockSearchItem = z
  .object({
    kind: z.enum(["stock", "index"]),
    market: z.enum(["cn", "hk", "us"]),
    code: z.string().describe("Normalised code (canonical id for indices): what to send as stock_code"),
    display_code: z.string(),
    canonical_id: z.string().optional(),
    name: z.string().optional(),
    name_en: z.string().optional(),
    match: z.enum(["exact", "code_prefix", "name_prefix", "name_contains"]),
  })
  .meta({ id: "StockSearchItem" });

export const ZStockSearchResponse = z
  .object({ query: z.string(), total: z.number().int(), items: z.array(ZStockSearchItem) })
  .meta({ id: "StockSearchResponse" });

export type TStockSearchResponse = z.infer<typeof ZStockSearchResponse>;
