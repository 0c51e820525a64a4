import { route } from "@/lib/http/route";
import { searchStocksOp } from "@/lib/market/operations";
import { stockSearch } from "@/lib/market/stock-search";

export const dynamic = "force-dynamic";

// GET /api/v1/stocks/search – ranked code/name matches for autocomplete
export const GET = route(searchStocksOp, ({ query }) => stockSearch(query.q, query.limit));
