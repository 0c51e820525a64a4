import { route } from "@/lib/http/route";
import { latestSignalsOp } from "@/lib/signals/operations";
import { latestSignals } from "@/lib/signals/read";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals/latest/{stock_code} – the stock's newest active signals
export const GET = route(latestSignalsOp, ({ params, query }) =>
  latestSignals(params.stock_code, query.market, query.limit),
);
