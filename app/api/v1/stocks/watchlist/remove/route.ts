import { route } from "@/lib/http/route";
import { removeFromWatchlistOp } from "@/lib/watchlist/operations";
import { removeFromWatchlist } from "@/lib/watchlist/store";

export const dynamic = "force-dynamic";

// POST /api/v1/stocks/watchlist/remove – drop every STOCK_LIST entry naming the same stock
export const POST = route(removeFromWatchlistOp, ({ body }) => removeFromWatchlist(body.stock_code));
