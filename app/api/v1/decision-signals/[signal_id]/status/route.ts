import { route } from "@/lib/http/route";
import { updateSignalStatusOp } from "@/lib/signals/operations";
import { updateSignalStatus } from "@/lib/signals/status";

export const dynamic = "force-dynamic";

// PATCH /api/v1/decision-signals/{signal_id}/status – set the status, optionally replace the metadata
export const PATCH = route(updateSignalStatusOp, ({ params, body }) => updateSignalStatus(params.signal_id, body));
