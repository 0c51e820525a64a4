import { route } from "@/lib/http/route";
import { listOutcomesOp } from "@/lib/signals/operations";
import { listOutcomes } from "@/lib/signals/outcomes";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals/outcomes – outcome rows, filtered and paginated
export const GET = route(listOutcomesOp, ({ query }) => listOutcomes(query));
