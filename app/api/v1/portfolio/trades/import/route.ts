import { route } from "@/lib/http/route";
import { importTradesCsv } from "@/lib/portfolio/csv-import";
import { importTradesOp } from "@/lib/portfolio/operations";

export const dynamic = "force-dynamic";

// POST /api/v1/portfolio/trades/import – CSV import, all or nothing
export const POST = route(importTradesOp, ({ body }) => importTradesCsv(body));
