import { route } from "@/lib/http/route";
import { reassessSignalOp } from "@/lib/signals/operations";
import { reassessSignal } from "@/lib/signals/reassess";

export const dynamic = "force-dynamic";

// POST /api/v1/decision-signals/reassess – a stored report's call under a decision profile; persist stores it
export const POST = route(reassessSignalOp, ({ body }) => reassessSignal(body));
