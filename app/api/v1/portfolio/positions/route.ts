import { route } from "@/lib/http/route";
import { listPositionsOp } from "@/lib/portfolio/operations";
import { listPositions } from "@/lib/portfolio/store";

export const dynamic = "force-dynamic";

// GET /api/v1/portfolio/positions – cached open positions
export const GET = route(listPositionsOp, ({ query }) => listPositions(query.account_id));
