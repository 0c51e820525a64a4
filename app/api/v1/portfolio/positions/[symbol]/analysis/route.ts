import { route } from "@/lib/http/route";
import { analyzePositionOp } from "@/lib/portfolio/operations";
import { analyzePosition } from "@/lib/portfolio/position-analysis";

export const dynamic = "force-dynamic";

// POST /api/v1/portfolio/positions/{symbol}/analysis – queue an analysis of a held stock (202)
export const POST = route(analyzePositionOp, ({ params, body, traceId }) =>
  analyzePosition(params.symbol, body, traceId),
);
