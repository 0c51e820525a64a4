import { listHistoryStocksOp } from "@/lib/history/operations";
import { listHistoryStocksBody } from "@/lib/history/stocks";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// GET /api/v1/history/stocks – one row per analysed stock with its latest record
export const GET = route(listHistoryStocksOp, ({ query }) => listHistoryStocksBody(query));
