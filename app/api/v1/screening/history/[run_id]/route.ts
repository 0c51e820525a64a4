import { route } from "@/lib/http/route";
import { screeningRunOp } from "@/lib/screening/operations";
import { getRun } from "@/lib/screening/read";

export const dynamic = "force-dynamic";

// GET /api/v1/screening/history/{run_id} – one stored run with its candidates
export const GET = route(screeningRunOp, ({ params }) => getRun(params.run_id));
