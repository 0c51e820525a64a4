import { route } from "@/lib/http/route";
import { setPaperStatusOp } from "@/lib/paper/operations";
import { setPaperStatus } from "@/lib/paper/store";

export const dynamic = "force-dynamic";

// PUT /api/v1/paper/accounts/{id}/status – pause or resume
export const PUT = route(setPaperStatusOp, ({ params, body }) => setPaperStatus(params.id, body.status));
