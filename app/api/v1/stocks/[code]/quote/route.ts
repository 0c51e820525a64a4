import { route } from "@/lib/http/route";
import { stockQuote } from "@/lib/stocks/market-data";
import { getStockQuoteOp } from "@/lib/stocks/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/stocks/{code}/quote – the current price of any code, as an analysis would read it
export const GET = route(getStockQuoteOp, ({ params }) => stockQuote(params.code));
