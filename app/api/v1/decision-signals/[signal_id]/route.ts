import { route } from "@/lib/http/route";
import { getSignalOp } from "@/lib/signals/operations";
import { getSignal } from "@/lib/signals/read";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals/{signal_id} – one signal (after lazy expiry)
export const GET = route(getSignalOp, ({ params }) => getSignal(params.signal_id));
