import { route } from "@/lib/http/route";
import { getWatchlistOp } from "@/lib/watchlist/operations";
import { getWatchlist } from "@/lib/watchlist/store";

export const dynamic = "force-dynamic";

// GET /api/v1/stocks/watchlist – the STOCK_LIST entries
export const GET = route(getWatchlistOp, () => getWatchlist());
