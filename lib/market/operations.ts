import { defineOperation } from "@/lib/operation/operation";
import { ZStockSearchQuery, ZStockSearchResponse } from "./search-schemas";

export const searchStocksOp = defineOperation({
  method: "GET",
  path: "/api/v1/stocks/search",
  operationId: "searchStocks",
  summary: "Autocomplete: stocks and registered indices matching a code, name or pinyin initials",
  description:
    "Beyond the spec. Ranked: exact resolution, code prefix, name prefix, name contains; A-shares before HK before US within a rank.",
  tags: ["Stocks"],
  query: ZStockSearchQuery,
  responses: { 200: { description: "Ranked matches (possibly none)", schema: ZStockSearchResponse } },
});
