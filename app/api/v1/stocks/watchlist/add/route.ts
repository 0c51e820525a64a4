import { route } from "@/lib/http/route";
import { addToWatchlistOp } from "@/lib/watchlist/operations";
import { addToWatchlist } from "@/lib/watchlist/store";

export const dynamic = "force-dynamic";

// POST /api/v1/stocks/watchlist/add – resolve a code or name and append it to STOCK_LIST unless listed
export const POST = route(addToWatchlistOp, ({ body }) => addToWatchlist(body.stock_code));
