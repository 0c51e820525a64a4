import { route } from "@/lib/http/route";
import { signalOutcomesOp } from "@/lib/signals/operations";
import { signalOutcomes } from "@/lib/signals/outcomes";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals/{signal_id}/outcomes – the signal's outcome rows (current engine)
export const GET = route(signalOutcomesOp, ({ params }) => signalOutcomes(params.signal_id));
