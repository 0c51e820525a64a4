import { route } from "@/lib/http/route";
import { createTradeOp, listTradesOp } from "@/lib/portfolio/operations";
import { createTrade, listTrades } from "@/lib/portfolio/store";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/trades – trades, newest first
export const GET = route(listTradesOp, ({ query }) => listTrades(query));

// POST /api/v1/portfolio/trades – record a trade (positions refreshed in the same transaction)
export const POST = route(createTradeOp, ({ body }) => createTrade(body));
