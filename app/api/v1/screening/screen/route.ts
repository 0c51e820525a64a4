import { route } from "@/lib/http/route";
import { screenOp } from "@/lib/screening/operations";
import { runScreen } from "@/lib/screening/run";

export const dynamic = "force-dynamic";

// POST /api/v1/screening/screen – screen a market with one strategy; the run is stored
export const POST = route(screenOp, ({ body }) => runScreen(body));
