import { route } from "@/lib/http/route";
import { listStrategiesOp } from "@/lib/screening/operations";
import { listStrategies } from "@/lib/screening/read";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/strategies – every strategy, explained
export const GET = route(listStrategiesOp, ({ query }) => listStrategies(query.language));
