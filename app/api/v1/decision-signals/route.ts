import { route } from "@/lib/http/route";
import { createSignal } from "@/lib/signals/create";
import { createSignalOp, listSignalsOp } from "@/lib/signals/operations";
import { listSignals } from "@/lib/signals/read";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals – filtered list, newest first (after lazy expiry)
export const GET = route(listSignalsOp, ({ query }) => listSignals(query));

// POST /api/v1/decision-signals – create a signal, or return the deduplicated match
export const POST = route(createSignalOp, ({ body }) => createSignal(body));
