import { route } from "@/lib/http/route";
import { runOutcomesOp } from "@/lib/signals/operations";
import { runOutcomes } from "@/lib/signals/outcomes";

export const dynamic = "force-dynamic";

// POST /api/v1/decision-signals/outcomes/run – evaluate outcomes on realized daily bars
export const POST = route(runOutcomesOp, ({ body }) => runOutcomes(body));
