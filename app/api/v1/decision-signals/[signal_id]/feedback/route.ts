import { route } from "@/lib/http/route";
import { getFeedback, putFeedback } from "@/lib/signals/feedback";
import { getFeedbackOp, putFeedbackOp } from "@/lib/signals/operations";

export const dynamic = "force-dynamic";

// GET /api/v1/decision-signals/{signal_id}/feedback – the stored feedback (value null when none)
export const GET = route(getFeedbackOp, ({ params }) => getFeedback(params.signal_id));

// PUT /api/v1/decision-signals/{signal_id}/feedback – upsert the one feedback of the signal
export const PUT = route(putFeedbackOp, ({ params, body }) => putFeedback(params.signal_id, body));
