import { route } from "@/lib/http/route";
import { stockHistory } from "@/lib/stocks/market-data";
import { getStockHistoryOp } from "@/lib/stocks/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/stocks/{code}/history – daily bars of any code, oldest first
export const GET = route(getStockHistoryOp, ({ params, query }) => stockHistory(params.code, query.days));
